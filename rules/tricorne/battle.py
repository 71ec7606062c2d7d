"""Tricorne in a battle: roster fields, roster units as engine units, effects on the roster,
and the Victory Banners each side has won."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from rules.core.defaults import apply_each, read_words
from rules.core.errors import InvalidInput
from rules.core.fields import json_safe
from rules.core.records import Effect, EffectKind
from rules.core.registry import UnitWords
from rules.core.roster import (
    ACTIVE,
    GONE,
    Change,
    Phrase,
    Roster,
    RosterGeneral,
    RosterUnit,
    name_key,
)
from rules.tricorne.effects import (
    ELIMINATED,
    LEADER_ESCAPES,
    LEADER_JOINS,
    LEADER_KILLED,
    ROUTED_OFF,
    TAKES_GROUND,
)
from rules.tricorne.inputs import BLOCKS, ROSTER_FIELDS, build_unit
from rules.tricorne.settings import SETTINGS
from rules.tricorne.units import DEFAULT_FULL, Terrain, Unit, UnitType

__all__ = ["SETTINGS"]

# The Commands & Colors turn (project default: the text prints only the melee order).
PHASES: tuple[str, ...] = (
    "play a Command card",
    "order units",
    "movement",
    "combat",
    "draw a Command card",
)
# The phases as a remark on one line of a phone names them ("Out of phase: for combat, not card
# play"); `/battle show` gives them whole.
PHASE_NAMES = {"play a Command card": "card play", "order units": "orders",
               "draw a Command card": "card draw"}

# Why a unit left the field: each gives a Victory Banner to the other side.
BANNER_REASONS = ("eliminated", "routed")
# Why a unit an edit left with no blocks is out (`/gm set`, `/unit edit`): its last block
# is removed, so it is eliminated (step 5) and gives a banner as well.
NO_BLOCKS_LEFT = "no blocks left"

# A hex of terrain as a player says a unit stands in it: on a hill, in a forest.
ON_TERRAIN = {Terrain.HILL.value: "on a hill", Terrain.FOREST.value: "in a forest",
              Terrain.BUILDINGS.value: "in buildings"}

CHANGE_PHRASES: dict[str, Phrase] = {
    # Said as the roster prints a class: "is now light cavalry", not "light-cavalry".
    "type": Phrase("is now {value}", words=tuple((t.value, t.value.replace("-", " "))
                                                 for t in UnitType if "-" in t.value)),
    "full": Phrase("now has {value} blocks at full strength", "has the default full strength"),
    # Cleared, the unit left its terrain for open ground or for a hex the bot does not know.
    "terrain": Phrase("is now {value}", "is no longer {before}",
                      words=tuple(ON_TERRAIN.items())),
    "moved": Phrase("has moved this turn", "has not moved this turn"),
}


def unit_words(attributes: Mapping[str, Any]) -> UnitWords:
    """``highland, full strength 3, in forest`` · ``moved``."""
    described = [str(attributes["type"]).replace("-", " ")] if attributes.get("type") else []
    if attributes.get("full", DEFAULT_FULL) != DEFAULT_FULL:  # the usual 4 goes unsaid
        described.append(f"full strength {attributes['full']}")
    if attributes.get("terrain") not in (None, Terrain.OPEN.value):
        described.append(ON_TERRAIN.get(attributes["terrain"], f"in {attributes['terrain']}"))
    markers = ("moved",) if attributes.get("moved") else ()
    return UnitWords(tuple(described), markers)


def read_roster_attributes(text: str, where: str, *, require_arm: bool) -> dict[str, Any]:
    values = read_words(ROSTER_FIELDS, text, where, "highland full=4")
    if require_arm:
        _require_type(values, where)
    _refuse_leader(values, where)
    return json_safe(values)


def _require_type(values: Mapping[str, Any], where: str) -> None:
    if "type" not in values:
        raise InvalidInput(f"{where}: say what the unit is.",
                           hint="e.g. `regular`, `highland`, `battle-cavalry` or "
                                "`trained-artillery`, and its blocks as `blocks=4`.")


def _refuse_leader(values: Mapping[str, Any], where: str) -> None:
    if values.get("type") is UnitType.LEADER:
        raise InvalidInput(f"{where}: a leader is a general, not a unit.",
                           hint="Add it with `/general add`; without a unit it is alone.")


def check_unit(name: str, attributes: Mapping[str, Any], strength: int | None,
               where: str) -> dict[str, Any]:
    """A roster unit as a quick lookup's unit is checked: its blocks (the strength) within
    the lookup's range and no more than its full strength, by the lookup's own checks."""
    values = ROSTER_FIELDS.read_json(dict(attributes), where)
    _require_type(values, where)
    _refuse_leader(values, where)
    unit = dict(values)
    if strength is not None:
        unit["blocks"] = BLOCKS.convert(strength, where)
    build_unit(name, unit, where)
    return json_safe(values)


def engine_unit(unit: RosterUnit, roster: Roster, situation: Mapping[str, Any]) -> Unit:
    """A roster unit (blocks as its strength, the general with it as its leader), with this
    melee's situation words. A unit stored with more blocks than its full strength is
    refused as a quick lookup's would be, not counted as at full strength."""
    attrs = ROSTER_FIELDS.read_json(dict(unit.attributes), unit.name)
    general = roster.general_with(unit.name)
    full = attrs.get("full", DEFAULT_FULL)
    blocks = blocks_of(unit)
    values = {**attrs, **situation, "blocks": blocks, "full": full}
    if general is not None:
        values["leader"] = general.name
    return replace(build_unit(unit.name, values, unit.name), side=unit.side)


def blocks_of(unit: RosterUnit) -> int:
    """The unit's blocks: a unit added without a number of them is at its full strength
    (its own `full`, else 4)."""
    if unit.strength is not None:
        return unit.strength
    return default_strength(ROSTER_FIELDS.read_json(dict(unit.attributes), unit.name))


def default_strength(attributes: Mapping[str, Any]) -> int:
    """A unit added without its blocks comes at full strength: its own `full`, else 4."""
    return int(attributes.get("full", DEFAULT_FULL))


def lone_leader(general: RosterGeneral) -> Unit:
    return Unit(general.name, UnitType.LEADER, blocks=0, full=0, side=general.side)


def new_turn(roster: Roster) -> tuple[Roster, list[Change]]:
    """A new turn: no unit has moved yet. Said in no words: "each has not moved this turn"
    of every unit that moved would only say that a turn began."""
    units = tuple(u.with_attr("moved", False) if u.attr("moved") else u for u in roster.units)
    return replace(roster, units=units), []


def apply_effects(effects: Sequence[Effect], roster: Roster) -> tuple[Roster, list[Change]]:
    after, changes = apply_each(effects, roster, _unit_effect, _general_effect)
    # A unit that takes ground has moved this turn (reference §5): the result says so in its
    # "takes ground 1 hex", and the Steps in "it counts as movement"; a roster line "has
    # moved this turn" would say it a second time. The roster keeps the marker all the same.
    took = {name_key(e.unit) for e in effects
            if e.kind == EffectKind.MOVED and e.value == TAKES_GROUND}
    return after, [c for c in changes
                   if not (c.field == "moved" and c.after and name_key(c.who) in took)]


def _unit_effect(unit: RosterUnit, effect: Effect) -> RosterUnit:
    match effect.kind:
        case EffectKind.DAMAGE:
            return replace(unit, strength=max(0, blocks_of(unit) - (effect.amount or 0)))
        case EffectKind.MOVED if effect.value == TAKES_GROUND:
            # "Taking ground is counted as movement" (reference §5), into the vacated hex,
            # whose terrain (when known) the effect carries.
            return _on_terrain(unit.with_attr("moved", True), effect.detail)
        case EffectKind.MOVED if effect.value in LEAVES_ITS_HEX and effect.amount:
            # Into a hex the bot does not know: kept as its old hex's terrain, a forest
            # would go on costing its attackers dice unseen (docs/tricorne.md).
            return _on_terrain(unit, Terrain.OPEN.value)
        case _ if effect.kind == ELIMINATED:
            return replace(unit, strength=0, status=GONE, gone_reason="eliminated")
        case _ if effect.kind == ROUTED_OFF:
            return replace(unit, status=GONE, gone_reason="routed")
        case _:
            # Moves, retreats and banners: positions are the table's; banners are counted
            # from the units and leaders each side has lost.
            return unit


# The moves back of a melee (the core `moved` effect's values), onto a hex the bot does not know.
LEAVES_ITS_HEX = ("retreats", "retires and rallies")


def _on_terrain(unit: RosterUnit, terrain: str) -> RosterUnit:
    """The unit standing on ``terrain`` (none given: where it was). Open ground is kept as
    no terrain at all, as `/unit add` leaves it."""
    if not terrain or terrain == (unit.attr("terrain") or Terrain.OPEN.value):
        return unit
    attributes = {k: v for k, v in unit.attributes.items() if k != "terrain"}
    if terrain != Terrain.OPEN.value:
        attributes["terrain"] = terrain
    return unit.changed(attributes=attributes)


def _general_effect(general: RosterGeneral, effect: Effect) -> RosterGeneral:
    if effect.kind == LEADER_KILLED:
        return replace(general, status="killed")
    if effect.kind == LEADER_ESCAPES:
        return replace(general, unit=None)
    if effect.kind == LEADER_JOINS:
        return replace(general, unit=effect.value)
    return general


def victory_banners(roster: Roster) -> list[str]:
    """Each side's Victory Banners: a unit eliminated or routed, or a leader killed, gives
    one to the other side. A unit out with no blocks left has lost its last block, however
    it was taken off (a GM's correction sets its strength to 0): eliminated. One the GM took
    out with its blocks (`status:gone`) is removed, not beaten: no banner. Said only with two
    sides (with more, who won it is unclear)."""
    sides: dict[str, str] = {}
    for who in (*roster.units, *roster.generals):
        sides.setdefault(name_key(who.side), who.side)
    if len(sides) != 2:
        return []
    lost = dict.fromkeys(sides, 0)
    for unit in roster.units:
        if unit.status == GONE and (unit.gone_reason in BANNER_REASONS or unit.strength == 0):
            lost[name_key(unit.side)] += 1
    for general in roster.generals:
        if general.status == "killed":
            lost[name_key(general.side)] += 1
    first, second = sides
    won = {first: lost[second], second: lost[first]}
    return [f"{sides[key]}: {count} Victory Banner{'s' if count != 1 else ''}"
            for key, count in won.items()]


def is_active(unit: RosterUnit) -> bool:
    return unit.status == ACTIVE
