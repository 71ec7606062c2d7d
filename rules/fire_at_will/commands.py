"""The bot's commands for Fire at Will, as option dicts in and ready-to-roll procedures out.

Without a roster (a quick lookup) the options describe every unit. With a battle's roster,
units are named and their type, morale, markers and generals come from the roster; the
options add only what belongs to this one fight (charging, flank, cover…).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from rules.core.defaults import asking, dispatcher
from rules.core.dice import DiceSource
from rules.core.errors import InvalidInput
from rules.core.fields import Field
from rules.core.prepared import with_roll_groups
from rules.core.records import Resolution
from rules.core.roster import Roster
from rules.fire_at_will.battle import (
    CHARGER_SITUATION,
    MELEE_SITUATION,
    charger,
    check_two_sides,
    engine_unit,
    melee_member,
    read_roster_units,
)
from rules.fire_at_will.charge import MAX_CHARGERS, resolve_charge, resolve_surrender
from rules.fire_at_will.inputs import build_unit, read_chargers, read_melee_side
from rules.fire_at_will.melee import MAX_UNITS_PER_SIDE, melee_roll_groups, resolve_melee
from rules.fire_at_will.surrender import SurrenderSituation
from rules.fire_at_will.units import Arm, Cover, ObstacleReading, Settings

Prepared = Callable[[DiceSource], Resolution]

# Options that describe a unit itself: in a battle they come from the roster.
TARGET_OPTIONS = ("target_type", "morale", "order", "shaken", "routing")


def _enum(kind: type, value: Any, name: str, default: Any) -> Any:
    if value is None:
        return default
    return Field(name, kind, "").convert(value, name)


def _refuse_roster_options(options: Mapping[str, Any], names: tuple[str, ...], unit: str) -> None:
    given = [n for n in names if options.get(n) not in (None, False)]
    if given:
        raise InvalidInput(
            f"In a battle, {unit}'s {', '.join(given)} come from the roster.",
            hint=f"Drop {' and '.join(given)}, or change the unit with `/unit edit`.",
        )


def settings_from(options: Mapping[str, Any], battle_settings: Mapping[str, Any]) -> Settings:
    reading = options.get("obstacle_rule") or battle_settings.get("obstacle_reading")
    return Settings(_enum(ObstacleReading, reading, "obstacle_rule", Settings().obstacle_reading))


def prepare_charge(options: Mapping[str, Any], roster: Roster | None, _: Mapping) -> Prepared:
    cover = _enum(Cover, options.get("cover"), "cover", Cover.NONE)
    if roster is None:
        if not options.get("target_type"):
            raise InvalidInput(
                "Say what the charged unit is with `target_type`.",
                hint="Or start a battle and add the unit, then name it.",
            )
        target = build_unit(
            options["target"],
            {"arm": _enum(Arm, options["target_type"], "target_type", None),
             **{k: options[k] for k in ("order", "morale", "shaken", "routing")
                if options.get(k) is not None}},
            "target",
        )
        chargers = read_chargers(options["chargers"])
    else:
        roster_target = roster.unit(options["target"])
        _refuse_roster_options(options, TARGET_OPTIONS, roster_target.name)
        target = engine_unit(roster_target, roster)
        read = read_roster_units(options["chargers"], "chargers", roster, CHARGER_SITUATION,
                                 charger, MAX_CHARGERS)
        check_two_sides([roster_target], [unit for unit, _ in read])
        chargers = [c for _, c in read]
    return asking(options, lambda dice, answers: resolve_charge(target, chargers, cover, dice,
                                                                answers))


def prepare_melee(
    options: Mapping[str, Any], roster: Roster | None, battle_settings: Mapping
) -> Prepared:
    settings = settings_from(options, battle_settings)
    if roster is None:
        attackers = read_melee_side(options["attackers"], "attackers")
        defenders = read_melee_side(options["defenders"], "defenders")
    else:
        att = read_roster_units(options["attackers"], "attackers", roster, MELEE_SITUATION,
                                melee_member, MAX_UNITS_PER_SIDE)
        dfn = read_roster_units(options["defenders"], "defenders", roster, MELEE_SITUATION,
                                melee_member, MAX_UNITS_PER_SIDE)
        check_two_sides([u for u, _ in att], [u for u, _ in dfn])
        attackers, defenders = [m for _, m in att], [m for _, m in dfn]
    return with_roll_groups(lambda dice: resolve_melee(attackers, defenders, dice, settings),
                            partial(melee_roll_groups, attackers, defenders))


def prepare_surrender(options: Mapping[str, Any], roster: Roster | None, _: Mapping) -> Prepared:
    situation = _enum(SurrenderSituation, options.get("situation"), "situation", None)
    if situation is None:
        raise InvalidInput("Pick the situation (a, b or c).")
    if roster is None:
        if not options.get("unit_type"):
            raise InvalidInput("Say what the unit is with `unit_type`.")
        routing = situation is not SurrenderSituation.REAR_ROUT
        unit = build_unit(options["unit"], {"arm": _enum(Arm, options["unit_type"], "unit_type",
                                                         None), "routing": routing}, "unit")
    else:
        roster_unit = roster.unit(options["unit"])
        _refuse_roster_options(options, ("unit_type",), roster_unit.name)
        unit = engine_unit(roster_unit, roster)
    return lambda dice: resolve_surrender(unit, situation, dice)


PROCEDURES: dict[str, Callable[[Mapping[str, Any], Roster | None, Mapping], Prepared]] = {
    "charge": prepare_charge,
    "melee": prepare_melee,
    "surrender": prepare_surrender,
}


# A procedure ready to roll, from a command's options (and the battle's roster, if any).
prepare = dispatcher(PROCEDURES)
