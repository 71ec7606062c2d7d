"""Reading Tricorne units from the text notation and from JSON (one list of fields, one
reader)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core.errors import InvalidInput
from rules.core.fields import Field, FieldSet
from rules.core.unit_input import UnitReader
from rules.tricorne.melee import TypedTarget
from rules.tricorne.units import (
    DEFAULT_FULL,
    MAX_BLOCKS,
    MAX_CARD_DICE,
    MAX_REDUCTION,
    Arm,
    Terrain,
    Unit,
    UnitType,
)

NAME = Field("name", str, "the unit's name")

# What a unit is: the roster keeps these.
DESCRIPTION: tuple[Field, ...] = (
    Field("type", UnitType, "unit class", words={
        "gren": UnitType.GRENADIER, "grenadiers": UnitType.GRENADIER,
        "reg": UnitType.REGULAR, "highlanders": UnitType.HIGHLAND,
        "elite": UnitType.HIGHLAND, "lowlanders": UnitType.LOWLAND,
        "cav": UnitType.BATTLE_CAVALRY, "battle-cav": UnitType.BATTLE_CAVALRY,
        "light-cav": UnitType.LIGHT_CAVALRY, "art": UnitType.TRAINED_ARTILLERY,
        "trained": UnitType.TRAINED_ARTILLERY, "light-art": UnitType.LIGHT_ARTILLERY,
        "lone-leader": UnitType.LEADER}),
    Field("full", int, f"blocks at full strength (default {DEFAULT_FULL})",
          minimum=1, maximum=MAX_BLOCKS),
    # Players say woods as often as forest, and a building of the buildings hex.
    Field("terrain", Terrain, "the terrain of its hex (open, hill, forest, buildings)", words={
        "woods": Terrain.FOREST, "wood": Terrain.FOREST, "building": Terrain.BUILDINGS}),
)
MOVED = Field("moved", bool, "it moved this turn (ordered infantry lose a die)")

# What belongs to this one melee.
SITUATION: tuple[Field, ...] = (
    Field("cards", int, "dice Command and Combat cards add", minimum=0, maximum=MAX_CARD_DICE),
    Field("reduce", int, "other terrain reductions in dice", minimum=0, maximum=MAX_REDUCTION),
    Field("retreat_room", int, "hexes it can retreat (it loses a block per hex short)",
          aliases=("room",), minimum=0, maximum=12),
    Field("cannot_retire", bool, "cavalry with no two hexes to retire and rally into"),
    Field("retire_onto", str, "a lone friendly leader one hex back it would retire onto"),
    Field("other_hill", bool, "on a hill, its enemy on another group of hill hexes"),
)

# A quick lookup's unit also says its blocks and its leader (in a battle, its strength and
# the general with it).
BLOCKS = Field("blocks", int, f"blocks left (default {DEFAULT_FULL})", minimum=0,
               maximum=MAX_BLOCKS)
QUICK: tuple[Field, ...] = (
    BLOCKS,
    Field("leader", str, "the attached leader's name"),
)

UNIT = FieldSet((*DESCRIPTION, MOVED, *QUICK, *SITUATION))
UNIT_JSON = FieldSet((NAME, *DESCRIPTION, MOVED, *QUICK, *SITUATION))
ROSTER_FIELDS = FieldSet((*DESCRIPTION, MOVED))
# In a battle, the words after a roster name: this melee's situation, and `moved` for a
# move the roster has not heard of.
SITUATION_FIELDS = FieldSet((MOVED, *SITUATION))


def build_unit(name: str, values: Mapping[str, Any], where: str) -> Unit:
    if "type" not in values:
        raise InvalidInput(f"{where}: say what {name} is.",
                           hint="Add grenadier, regular, highland, lowland, militia, "
                                "battle-cavalry, light-cavalry, trained-artillery, "
                                "light-artillery or leader.")
    full = values.get("full", DEFAULT_FULL)
    blocks = values.get("blocks", full)
    check_blocks(name, blocks, full, where)
    unit = Unit(
        name=name,
        kind=values["type"],
        blocks=blocks,
        full=full,
        leader=values.get("leader"),
        moved=values.get("moved", False),
        terrain=values.get("terrain", Terrain.OPEN),
        cards=values.get("cards", 0),
        reduce=values.get("reduce", 0),
        retreat_room=values.get("retreat_room"),
        cannot_retire=values.get("cannot_retire", False),
        retire_onto=values.get("retire_onto"),
        other_hill=values.get("other_hill", False),
    )
    check_retire_onto(unit, where)
    return unit


def _named(name: str, where: str) -> str:
    """Where a refusal is: a roster unit checked under its own name is said once."""
    return name if where == name else f"{where}: {name}"


def check_blocks(name: str, blocks: int, full: int, where: str) -> None:
    """A unit has no more blocks than at full strength: more would read as full strength
    and roll the full-strength die (step 3) for blocks it never had."""
    if blocks > full:
        # A roster unit is checked under its own name: said once.
        who = _named(name, where)
        raise InvalidInput(f"{who} has {blocks} blocks but {full} at full strength.",
                           hint=f"Give 0 to {full} blocks, or `full={blocks}`.")


def check_retire_onto(unit: Unit, where: str) -> None:
    """"A unit without an attached leader may retire onto a hex that contains a lone
    friendly leader": one with a leader of its own retires its two hexes. "All Cavalry
    units that are being attacked ... may retire and rally": elsewhere `retire_onto=` and
    `cannot_retire` would be taken and do nothing."""
    who = _named(unit.name, where)
    if unit.cannot_retire and unit.arm is not Arm.CAVALRY:
        raise InvalidInput(f"{who} is not cavalry: only cavalry retires and rallies, so "
                           "`cannot_retire` does not apply.", hint="Leave out `cannot_retire`.")
    if not unit.retire_onto:
        return
    if unit.leader:
        raise InvalidInput(f"{who} has {unit.leader} with it: only a unit without a "
                           "leader retires onto a lone one.", hint="Leave out `retire_onto=`.")
    if unit.arm is not Arm.CAVALRY:
        raise InvalidInput(f"{who} is not cavalry: only cavalry retires and rallies, so "
                           "`retire_onto=` does not apply.", hint="Leave out `retire_onto=`.")


# A quick lookup's unit, written (`Black Watch: highland blocks=3`) or a JSON object.
UNITS = UnitReader(UNIT, UNIT_JSON, build_unit)


# A quick lookup's (and a JSON request's) bonus target typed as the answer to `bonus_melee`.
TYPED_BONUS_TARGET = TypedTarget(
    lambda text: UNITS.one(text, "bonus melee target", "Target"),
    "the unit it attacks, written as in `bonus` "
    "(for example `Royal Scots: regular blocks=3`)")
