"""Fire at Will's procedures, as options in and ready-to-roll procedures out: a slash
command's options and a JSON request (``huzzah resolve``) are read here alike.

Without a roster (a quick lookup) the options describe every unit (a JSON request gives
each as an object with its ``name``). With a battle's roster,
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
from rules.core.notation import possessive
from rules.core.prepared import with_roll_groups
from rules.core.records import Resolution
from rules.core.roster import Roster
from rules.fire_at_will.battle import (
    CHARGER_SITUATION,
    MELEE_SITUATION,
    SETTINGS,
    charger,
    check_two_sides,
    engine_unit,
    melee_member,
    read_roster_units,
)
from rules.fire_at_will.charge import MAX_CHARGERS, resolve_charge, resolve_surrender
from rules.fire_at_will.inputs import UNITS, build_unit, read_chargers, read_melee_side
from rules.fire_at_will.melee import MAX_UNITS_PER_SIDE, melee_roll_groups, resolve_melee
from rules.fire_at_will.surrender import SurrenderSituation
from rules.fire_at_will.units import Arm, Cover, ObstacleReading, Order, Settings, Unit

Prepared = Callable[[DiceSource], Resolution]

# Options that describe a unit itself: in a battle they come from the roster.
TARGET_OPTIONS = ("target_type", "morale", "order", "shaken", "routing")


def _enum(kind: type, value: Any, name: str, default: Any) -> Any:
    if value is None:
        return default
    # A command's own option: its refusal names it once (`cover` needs a value), not as its
    # place too (cover: `cover` needs a value).
    return Field(name, kind, "").convert(value, "")


def _refuse_roster_options(options: Mapping[str, Any], names: tuple[str, ...], unit: str) -> None:
    given = [n for n in names if options.get(n) not in (None, False)]
    if given:
        raise InvalidInput(
            f"In a battle, {possessive(unit)} {' and '.join(given)} "
            f"{'comes' if len(given) == 1 else 'come'} from the roster.",
            hint=f"Drop {' and '.join(given)}, or change the unit with `/unit edit`.",
        )


def _named(options: Mapping[str, Any], key: str, what: str) -> str:
    """The unit an option names (a roster name, or a quick lookup's unit by name)."""
    name = options.get(key)
    if not isinstance(name, str) or not name.strip():
        raise InvalidInput(f"Say which unit {what} with `{key}`.",
                           hint="Its name, or in a JSON request the unit as an object.")
    return name


def _whole(options: Mapping[str, Any], key: str, described: tuple[str, ...]) -> Unit:
    """A unit given whole, as a JSON object: the options that describe it by parts go."""
    _refuse_described(options, described, f"`{key}` gives the unit whole")
    return UNITS.one(options[key], key, key.capitalize())


def _refuse_described(options: Mapping[str, Any], names: tuple[str, ...], why: str) -> None:
    given = [n for n in names if options.get(n) not in (None, False)]
    if given:
        raise InvalidInput(f"{why}: drop {' and '.join(given)}.",
                           hint="Describe the unit in one place.")


def settings_from(options: Mapping[str, Any], battle_settings: Mapping[str, Any]) -> Settings:
    """The command's own reading, else the battle's (or the request's ``settings``)."""
    given = SETTINGS.read_json(battle_settings, "settings")
    reading = options.get("obstacle_rule") or given.get("obstacle_reading")
    return Settings(_enum(ObstacleReading, reading, "obstacle_rule", Settings().obstacle_reading))


def prepare_charge(options: Mapping[str, Any], roster: Roster | None, _: Mapping) -> Prepared:
    cover = _enum(Cover, options.get("cover"), "cover", Cover.NONE)
    if roster is None and isinstance(options.get("target"), Mapping):
        target = _whole(options, "target", TARGET_OPTIONS)
        chargers = read_chargers(options.get("chargers"))
    elif roster is None:
        name = _named(options, "target", "is charged")
        if not options.get("target_type"):
            raise InvalidInput(
                "Say what the charged unit is with `target_type`.",
                hint="A quick lookup takes the unit's `target_type` and `morale`; in a "
                     "battle, name a unit of its roster (without `lookup`).",
            )
        target = build_unit(
            name,
            {"arm": _enum(Arm, options["target_type"], "target_type", None),
             "order": _enum(Order, options.get("order"), "order", Order.CLOSE),
             **{k: options[k] for k in ("morale", "shaken", "routing")
                if options.get(k) is not None}},
            "target",
        )
        chargers = read_chargers(options.get("chargers"))
    else:
        roster_target = roster.unit(_named(options, "target", "is charged"))
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
        attackers = read_melee_side(options.get("attackers"), "attackers")
        defenders = read_melee_side(options.get("defenders"), "defenders")
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
    # A quick lookup knows no markers but those it is given; a battle's roster knows them.
    routing_known = roster is not None
    if roster is None and isinstance(options.get("unit"), Mapping):
        unit = _whole(options, "unit", ("unit_type",))
        routing_known = "routing" in options["unit"]
    elif roster is None:
        name = _named(options, "unit", "tests")
        if not options.get("unit_type"):
            raise InvalidInput("Say what the unit is with `unit_type`.")
        routing = situation is not SurrenderSituation.REAR_ROUT
        unit = build_unit(name, {"arm": _enum(Arm, options["unit_type"], "unit_type",
                                                         None), "routing": routing}, "unit")
    else:
        roster_unit = roster.unit(_named(options, "unit", "tests"))
        _refuse_roster_options(options, ("unit_type",), roster_unit.name)
        unit = engine_unit(roster_unit, roster)
    return lambda dice: resolve_surrender(unit, situation, dice, routing_known=routing_known)


PROCEDURES: dict[str, Callable[[Mapping[str, Any], Roster | None, Mapping], Prepared]] = {
    "charge": prepare_charge,
    "melee": prepare_melee,
    "surrender": prepare_surrender,
}


# A procedure ready to roll, from a command's options (and the battle's roster, if any).
prepare = dispatcher(PROCEDURES)
