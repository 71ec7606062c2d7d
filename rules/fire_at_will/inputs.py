"""Reading Fire at Will units from the text notation and from JSON.

The fields are listed once; one reader (``rules.core.unit_input``) takes a unit written in
the notation or given as a JSON object.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.core.errors import InvalidInput
from rules.core.fields import Field, FieldSet
from rules.core.unit_input import UnitReader
from rules.fire_at_will.charge import MAX_CHARGERS
from rules.fire_at_will.melee import MAX_UNITS_PER_SIDE
from rules.fire_at_will.units import (
    MORALE_RANGE,
    Arm,
    Charger,
    Direction,
    General,
    MeleeUnit,
    Order,
    Unit,
)

NAME = Field("name", str, "the unit's name")

UNIT_FIELDS: tuple[Field, ...] = (
    Field(
        "arm",
        Arm,
        "troop type",
        words={"cav": Arm.CAVALRY, "horse": Arm.CAVALRY, "inf": Arm.INFANTRY,
               "foot": Arm.INFANTRY, "art": Arm.ARTILLERY, "guns": Arm.ARTILLERY},
    ),
    Field("order", Order, "close (default) or open order"),
    Field("morale", int, "basic morale: a charge test at or above it routs",
          minimum=MORALE_RANGE[0], maximum=MORALE_RANGE[1]),
    Field("shaken", bool, "the unit is shaken"),
    Field("routing", bool, "the unit is already routing"),
    Field("regular", bool, "European regulars", aliases=("regulars", "european")),
    Field("indian", bool, "an Indian unit"),
    Field("light", bool, "light troops (never count as two bases deep)"),
    Field("general", str, "name of a general with the unit"),
    Field("general_wounded", bool, "the general already has a light wound",
          aliases=("wounded",)),
)

CHARGER_FIELDS: tuple[Field, ...] = (
    Field("direction", Direction, "which face of the target it charges (default front)"),
    Field("distance", float, "inches from the target (checked against charge reach)",
          minimum=0, maximum=1000),
    Field("target_in_front", bool, "the target is directly to its front (default yes)"),
)

MELEE_FIELDS: tuple[Field, ...] = (
    Field("charging", bool, "the unit is charging"),
    Field("flank", bool, "attacked in flank"),
    Field("rear", bool, "attacked in the rear"),
    Field("over_obstacle", bool, "charging over an obstacle (stream, fence…)"),
    Field("uphill", bool, "charging uphill"),
    Field("vs_building", bool, "charging a building"),
    Field("vs_fortification", bool, "charging a fortification"),
    Field("overlapping", bool, "overlapping an enemy unit", aliases=("overlap",)),
    Field("deep", bool, "two or more bases deep"),
    Field("front", bool, "engaged to the enemy's front (picks who a lost result falls on)"),
    Field("behind_obstacle", bool, "a defender immediately behind an obstacle"),
)

UNIT = FieldSet((*UNIT_FIELDS,))
CHARGER = FieldSet((*UNIT_FIELDS, *CHARGER_FIELDS))
MELEE = FieldSet((*UNIT_FIELDS, *MELEE_FIELDS))
UNIT_JSON = FieldSet((NAME, *UNIT_FIELDS))
CHARGER_JSON = FieldSet((NAME, *UNIT_FIELDS, *CHARGER_FIELDS))
MELEE_JSON = FieldSet((NAME, *UNIT_FIELDS, *MELEE_FIELDS))


def build_unit(name: str, values: Mapping[str, Any], where: str) -> Unit:
    if "arm" not in values:
        raise InvalidInput(
            f"{where}: say what {name} is.",
            hint="Add cavalry, infantry, artillery or other.",
        )
    general = None
    if "general" in values:
        general = General(values["general"], values.get("general_wounded", False))
    elif values.get("general_wounded"):
        raise InvalidInput(f"{where}: `wounded` needs a general: add general=Name.")
    return Unit(
        name=name,
        arm=values["arm"],
        order=values.get("order", Order.CLOSE),
        basic_morale=values.get("morale"),
        shaken=values.get("shaken", False),
        routing=values.get("routing", False),
        regular=values.get("regular", False),
        indian=values.get("indian", False),
        light=values.get("light", False),
        general=general,
    )


def _pick(values: Mapping[str, Any], fields: Sequence[Field]) -> dict[str, Any]:
    names = {f.name for f in fields}
    return {k: v for k, v in values.items() if k in names}


def build_charger(name: str, values: Mapping[str, Any], where: str) -> Charger:
    return Charger(unit=build_unit(name, values, where), **_pick(values, CHARGER_FIELDS))


def build_melee_unit(name: str, values: Mapping[str, Any], where: str) -> MeleeUnit:
    return MeleeUnit(unit=build_unit(name, values, where), **_pick(values, MELEE_FIELDS))


# A quick lookup's units, written (`Hussars: cav flank distance=5`) or as JSON objects.
UNITS = UnitReader(UNIT, UNIT_JSON, build_unit)
CHARGERS = UnitReader(CHARGER, CHARGER_JSON, build_charger)
MELEE_UNITS = UnitReader(MELEE, MELEE_JSON, build_melee_unit)


def read_melee_side(given: Any, side: str) -> list[MeleeUnit]:
    """A melee's side: ``attackers`` or ``defenders``, written or as a JSON list."""
    default = "Attacker" if side == "attackers" else "Defender"
    return MELEE_UNITS.several(given, side, default, MAX_UNITS_PER_SIDE)


def read_chargers(given: Any) -> list[Charger]:
    return CHARGERS.several(given, "chargers", "Charger", MAX_CHARGERS)
