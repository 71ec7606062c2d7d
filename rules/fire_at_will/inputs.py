"""Reading Fire at Will units from the text notation and from JSON.

The fields are listed once; ``rules.core.fields`` reads both notations from them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.core.errors import InvalidInput
from rules.core.fields import Field, FieldSet, split_units
from rules.fire_at_will.charge import MAX_CHARGERS
from rules.fire_at_will.melee import MAX_UNITS_PER_SIDE
from rules.fire_at_will.units import (
    MORALE_RANGE,
    Arm,
    Charger,
    Cover,
    Direction,
    General,
    MeleeUnit,
    ObstacleReading,
    Order,
    Settings,
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
SETTINGS_JSON = FieldSet(
    (Field("obstacle_reading", ObstacleReading, "who the behind-an-obstacle exception covers"),)
)


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


# --- text notation ------------------------------------------------------------------------


def read_units_text(
    text: str, fields: FieldSet, where: str, default_name: str, limit: int
) -> list[tuple[str, dict[str, Any]]]:
    read = []
    for number, part in enumerate(split_units(text, where, limit), start=1):
        label = f"{where} #{number}"
        name, values = fields.read_text(part, label)
        read.append((name or f"{default_name} {number}", values))
    return read


def read_melee_side(text: str, side: str) -> list[MeleeUnit]:
    default = "Attacker" if side == "attackers" else "Defender"
    return [
        build_melee_unit(name, values, side)
        for name, values in read_units_text(text, MELEE, side, default, MAX_UNITS_PER_SIDE)
    ]


def read_chargers(text: str) -> list[Charger]:
    return [
        build_charger(name, values, "chargers")
        for name, values in read_units_text(text, CHARGER, "chargers", "Charger", MAX_CHARGERS)
    ]


# --- JSON ---------------------------------------------------------------------------------


def _json_name(values: Mapping[str, Any], where: str) -> str:
    if "name" not in values:
        raise InvalidInput(f"{where}: every unit needs a `name`.")
    return values["name"]


def json_list(data: Any, where: str) -> list[Any]:
    if not isinstance(data, list) or not data:
        raise InvalidInput(f"`{where}` must be a non-empty list of units.")
    return data


def json_unit(data: Any, where: str) -> Unit:
    values = UNIT_JSON.read_json(data, where)
    return build_unit(_json_name(values, where), values, where)


def json_chargers(data: Any) -> list[Charger]:
    chargers = []
    for i, item in enumerate(json_list(data, "chargers")):
        where = f"chargers[{i}]"
        values = CHARGER_JSON.read_json(item, where)
        chargers.append(build_charger(_json_name(values, where), values, where))
    return chargers


def json_melee_side(data: Any, side: str) -> list[MeleeUnit]:
    members = []
    for i, item in enumerate(json_list(data, side)):
        where = f"{side}[{i}]"
        values = MELEE_JSON.read_json(item, where)
        members.append(build_melee_unit(_json_name(values, where), values, where))
    return members


def json_settings(data: Any) -> Settings:
    if data is None:
        return Settings()
    return Settings(**SETTINGS_JSON.read_json(data, "settings"))


def json_cover(data: Any) -> Cover:
    return Field("cover", Cover, "").convert(data, "cover") if data is not None else Cover.NONE
