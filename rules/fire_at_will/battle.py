"""Fire at Will in a battle: roster fields, roster units as engine units, effects as changes."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, TypeVar

from rules.core.defaults import apply_each, read_words
from rules.core.errors import InvalidInput
from rules.core.fields import Field, FieldSet, json_safe, split_units
from rules.core.names import name_key
from rules.core.notation import doing, refuse_roster_word, roster_entry
from rules.core.records import Effect
from rules.core.registry import UnitWords
from rules.core.roster import (
    ACTIVE,
    GONE,
    Change,
    Roster,
    RosterGeneral,
    RosterUnit,
    roster_changes,
)
from rules.fire_at_will.effects import EffectKind
from rules.fire_at_will.inputs import CHARGER_FIELDS, MELEE_FIELDS, UNIT_FIELDS, build_unit
from rules.fire_at_will.units import (
    Arm,
    Charger,
    General,
    MeleeUnit,
    ObstacleReading,
    Order,
    Unit,
)

# The blog's move sequence (../shared/reference/fire-at-will.md).
PHASES: tuple[str, ...] = (
    "shaken and routing units test",
    "routs and retirements",
    "movement",
    "firing",
    "charges",
    "melee",
)
# The phases as a remark on one line of a phone names them ("Out of phase: for melee, not rout
# tests"); `/battle show` gives them whole.
PHASE_NAMES = {"shaken and routing units test": "rout tests",
               "routs and retirements": "routs"}

# Where players read the rules differently (docs/fire-at-will.md): a battle's settings.
SETTINGS = FieldSet((
    Field("obstacle_reading", ObstacleReading,
          "whom the melee's (*) obstacle exception spares: either side (default, as the "
          "sentence reads) or the attackers only"),
))

# Standing qualities that change a unit's dice, shown with what it is.
QUALITIES = ("regular", "indian", "light")


def unit_words(attributes: Mapping[str, Any]) -> UnitWords:
    """``infantry, regular, open order, morale 4`` · ``shaken, routing``."""
    described = [str(attributes["arm"])] if attributes.get("arm") else []
    described += [quality for quality in QUALITIES if attributes.get(quality) is True]
    if attributes.get("order") == "open":
        described.append("open order")
    values = [f"morale {attributes['morale']}"] if attributes.get("morale") is not None else []
    described += values
    markers = [marker for marker in ("shaken", "routing") if attributes.get(marker)]
    return UnitWords(tuple(described), tuple(markers), tuple(values))

ROSTER_FIELDS = FieldSet(tuple(f for f in UNIT_FIELDS if not f.name.startswith("general")))
UNIT_WORDS = FieldSet(UNIT_FIELDS)
CHARGER_SITUATION = FieldSet(CHARGER_FIELDS)
MELEE_SITUATION = FieldSet(MELEE_FIELDS)

T = TypeVar("T")


def read_roster_attributes(text: str, where: str, *, require_arm: bool) -> dict[str, Any]:
    """Unit words for `/unit add` and `/unit edit`: ``inf regular morale=4``."""
    values = read_words(ROSTER_FIELDS, text, where, "inf regular morale=4", fights=(
        (MELEE_SITUATION, 'attackers:"78th Highlanders: charging"'),
        (CHARGER_SITUATION, 'chargers:"78th Highlanders: flank distance=2"')))
    if require_arm:
        _require_arm(values, where)
    return json_safe(values)


def _require_arm(values: Mapping[str, Any], where: str) -> None:
    if "arm" not in values:
        raise InvalidInput(
            f"{where}: say what the unit is.",
            hint="Add cavalry, infantry, artillery or other, e.g. `inf regular morale=4`.",
        )


def check_unit(name: str, attributes: Mapping[str, Any], strength: int | None,
               where: str) -> dict[str, Any]:
    """A roster unit as a quick lookup's unit is checked (its arm, its morale's range).
    Its SP are bounded only by the roster's range: the texts give no starting SP, so
    nothing bounds them from above (../shared/reference/fire-at-will.md)."""
    values = ROSTER_FIELDS.read_json(dict(attributes), where)
    _require_arm(values, where)
    build_unit(name, values, where)
    return json_safe(values)


def engine_unit(unit: RosterUnit, roster: Roster) -> Unit:
    """The engine's unit for a roster unit (with the general attached to it, if any)."""
    general = roster.general_with(unit.name)
    attrs = ROSTER_FIELDS.read_json(unit.attributes, unit.name)  # checked as /unit add checks
    return Unit(
        name=unit.name,
        arm=attrs.get("arm", Arm.OTHER),
        order=attrs.get("order", Order.CLOSE),
        basic_morale=attrs.get("morale"),
        shaken=attrs.get("shaken", False),
        routing=attrs.get("routing", False),
        regular=attrs.get("regular", False),
        indian=attrs.get("indian", False),
        light=attrs.get("light", False),
        general=General(general.name, general.wounds > 0, _command(general.name, roster))
        if general else None,
        strength=unit.strength,
    )


def _command(general: str, roster: Roster) -> tuple[str, ...]:
    return tuple(u.name for u in roster.units
                 if u.commander and name_key(u.commander) == name_key(general) and is_active(u))


def read_roster_units(
    text: str,
    where: str,
    roster: Roster,
    situation: FieldSet,
    build: Callable[[Unit, dict[str, Any]], T],
    limit: int,
) -> list[tuple[RosterUnit, T]]:
    """``2nd Foot: charging front; Rangers``: roster names, then this fight's situation words."""
    read = []
    for part in split_units(text, where, limit):
        unit, words = roster_entry(part, roster, where)
        for word in words.split():
            refuse_roster_word(word, unit.name, where, UNIT_WORDS)
        _, values = situation.read_text(words, f"{where}: {unit.name}", names=False)
        read.append((unit, build(engine_unit(unit, roster), values)))
    return read


def melee_member(unit: Unit, values: dict[str, Any]) -> MeleeUnit:
    return MeleeUnit(unit=unit, **values)


def charger(unit: Unit, values: dict[str, Any]) -> Charger:
    return Charger(unit=unit, **values)


def check_two_sides(first: Sequence[RosterUnit], second: Sequence[RosterUnit]) -> None:
    """A fight is between two sides: nobody fights their own side."""
    sides_first = {name_key(u.side) for u in first}
    sides_second = {name_key(u.side) for u in second}
    twice = sorted({u.name for u in first} & {u.name for u in second})
    if twice:  # one unit named on both sides
        raise InvalidInput(f"{doing(twice, 'is', 'are')} named on both sides of the fight.",
                           hint="Put one side's units in each option.")
    both = sides_first & sides_second
    if both:
        names = list(dict.fromkeys(u.name for u in (*first, *second)
                                   if name_key(u.side) in both))
        raise InvalidInput(
            f"{', '.join(names)} are all on the same side ({first[0].side if first else ''}).",
            hint="Put one side's units in each option.",
        )


# --- effects ------------------------------------------------------------------------------


def apply_effects(
    effects: Sequence[Effect], roster: Roster
) -> tuple[Roster, list[Change]]:
    """The roster after the effects, and every field that changed (before and after)."""
    after, _ = apply_each(effects, roster, _unit_effect, _general_effect)
    # "all units in his chain of command within 18\"": the bot cannot measure, so it shakes
    # his whole command still in the battle; the reply says so and a GM can correct it.
    shaken = {name_key(e.unit) for e in effects if e.kind is EffectKind.COMMAND_SHAKEN}
    if shaken:
        after = replace(after, units=tuple(
            u.with_attr("shaken", True)
            if u.commander and name_key(u.commander) in shaken and is_active(u) else u
            for u in after.units))
    after = replace(after, units=tuple(map(_spent, roster.units, after.units)))
    return after, roster_changes(roster, after)


NO_SP_LEFT = "no SP left"
"""Why a unit that lost its last strength point left the battle."""


def _spent(before: RosterUnit, unit: RosterUnit) -> RosterUnit:
    """A unit the effects took to 0 SP leaves the battle: the texts take strength points
    away and say nothing of a unit with none left, and a unit of no men cannot rout, rally
    or be charged again (docs/fire-at-will.md). Its markers stay as they were: what the
    result would have made of it (routing, shaken) no longer matters."""
    if unit.strength != 0 or not (before.strength or 0) > 0:
        return unit
    if not is_active(unit):  # out another way too (it surrendered): that reason stands
        return replace(unit, attributes=before.attributes)
    return replace(unit, attributes=before.attributes, status=GONE, gone_reason=NO_SP_LEFT)


def _unit_effect(unit: RosterUnit, effect: Effect) -> RosterUnit:
    match effect.kind:
        case EffectKind.LOSE_SP if unit.strength is not None:
            return unit.changed(strength=max(0, unit.strength - (effect.amount or 0)))
        case EffectKind.SHAKEN:
            return unit.with_attr("shaken", True)
        case EffectKind.ROUTED:
            return unit.with_attr("routing", True)
        case EffectKind.SURRENDERED:
            return replace(unit, status=GONE, gone_reason="surrendered")
        case _:
            # Retiring, counter-charging: positions on the table, which the bot does not keep.
            return unit


def _general_effect(general: RosterGeneral, effect: Effect) -> RosterGeneral:
    match effect.kind:
        case EffectKind.GENERAL_WOUNDED:
            return replace(general, wounds=general.wounds + 1)
        case EffectKind.GENERAL_INCAPACITATED:
            return replace(general, wounds=general.wounds + 1, status="incapacitated")
        case EffectKind.GENERAL_CAPTURED:
            return replace(general, status="captured")
        case EffectKind.GENERAL_KILLED:
            return replace(general, status="killed")
        case _:
            return general


def is_active(unit: RosterUnit) -> bool:
    return unit.status == ACTIVE
