"""Reading Le Baton units from the text notation and from JSON (one field list for both)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core.errors import InvalidInput
from rules.core.fields import Field, FieldSet
from rules.core.notation import possessive
from rules.le_baton.units import MAX_FIGURES, Arm, Formation, Horse, Nation, Quality, Unit

NAME = Field("name", str, "the unit's name")

DESCRIPTION_FIELDS: tuple[Field, ...] = (
    Field("nation", Nation, "french or british"),
    Field("arm", Arm, "troop type",
          words={"inf": Arm.INFANTRY, "cav": Arm.CAVALRY, "art": Arm.ARTILLERY,
                 "guns": Arm.ARTILLERY}),
    Field("quality", Quality, "elite, veteran (default) or conscript"),
    Field("formation", Formation, "infantry formation",
          words={"skirmishers": Formation.SKIRMISH}),
    Field("horse", Horse, "cavalry type (cuirassiers and lancers change melee rolls)"),
    Field("guns", int, "weight of shot in pounds (artillery)", minimum=1, maximum=48),
)
# A quick lookup's unit says its figures; in a battle they are its strength.
FIGURES = Field("figures", int, "figures in the unit (artillery: crew)", minimum=0,
                maximum=MAX_FIGURES)
STATE_FIELDS: tuple[Field, ...] = (
    FIGURES,
    Field("casualties", int, "casualties taken so far (−1 morale per 3)", minimum=0,
          maximum=MAX_FIGURES),
    Field("general", bool, "a general is attached"),
    Field("in_melee", bool, "continuing a melee"),
    Field("firefight", bool, "locked in a firefight"),
    Field("halted", bool, "halted this turn"),
    Field("held", bool, "failed recall: cannot move"),
    Field("charge_marker", bool, "has a charge marker awaiting recall"),
    Field("recall_due", bool, "cavalry that tied a melee: must test recall in phase 13"),
)
MELEE_SITUATION_FIELDS: tuple[Field, ...] = (
    Field("defensive_terrain", bool, "in defensive terrain (the enemy rolls −1)"),
    Field("fortification", bool, "in a fortification"),
    Field("supported_by", str, "artillery: the unit 2\" behind or beside that fights instead"),
    Field("contacted", int, "cavalry passing squares: infantry units contacted", minimum=1,
          maximum=6),
)

UNIT = FieldSet((*DESCRIPTION_FIELDS, *STATE_FIELDS))
UNIT_JSON = FieldSet((NAME, *DESCRIPTION_FIELDS, *STATE_FIELDS))
MELEE_UNIT = FieldSet((*DESCRIPTION_FIELDS, *STATE_FIELDS, *MELEE_SITUATION_FIELDS))
MELEE_JSON = FieldSet((NAME, *DESCRIPTION_FIELDS, *STATE_FIELDS, *MELEE_SITUATION_FIELDS))
MELEE_SITUATION = FieldSet(MELEE_SITUATION_FIELDS)
ROSTER_FIELDS = FieldSet(DESCRIPTION_FIELDS)
# For /help: what a unit is, apart from where it stands now (a battle's roster keeps that).
DESCRIPTION = FieldSet(DESCRIPTION_FIELDS)
STATE = FieldSet(STATE_FIELDS)


def implied_arm(values: Mapping[str, Any]) -> dict[str, Any]:
    """The words, with the arm their other words already say when left out: a formation is
    infantry's, a cavalry type cavalry's, a weight of shot artillery's (docs/le-baton.md)."""
    said = [arm for word, arm in (("formation", Arm.INFANTRY), ("horse", Arm.CAVALRY),
                                  ("guns", Arm.ARTILLERY)) if values.get(word)]
    # Words of two arms say none: the unit is asked for its arm, not told it has one.
    if "arm" in values or len(said) != 1:
        return dict(values)
    return {**values, "arm": said[0].value}


def build_unit(name: str, values: Mapping[str, Any], where: str) -> Unit:
    values = implied_arm(values)
    for needed, hint in (("nation", "french or british"),
                         ("arm", "infantry, cavalry or artillery")):
        if needed not in values:
            raise InvalidInput(f"{where}: say {possessive(name)} {needed}.", hint=f"Add {hint}.")
    return Unit(
        name=name,
        nation=Nation(values["nation"]),
        arm=Arm(values["arm"]),
        quality=Quality(values.get("quality", Quality.VETERAN)),
        figures=values.get("figures", 0),
        casualties=values.get("casualties", 0),
        formation=Formation(values["formation"]) if values.get("formation") else None,
        horse=Horse(values["horse"]) if values.get("horse") else None,
        guns=values.get("guns"),
        general=values.get("general", False),
        in_melee=values.get("in_melee", False),
        firefight=values.get("firefight", False),
        halted=values.get("halted", False),
        held=values.get("held", False),
        charge_marker=values.get("charge_marker", False),
        recall_due=values.get("recall_due", False),
    )


def read_unit_text(text: str, where: str, fields: FieldSet = UNIT) -> tuple[Unit, dict]:
    """``Name: british inf veteran line figures=12``; returns the unit and every value read."""
    name, values = fields.read_text(text, where, several=False)
    return build_unit(name or where.capitalize(), values, where), values


def read_unit_json(data: Any, where: str, fields: FieldSet = UNIT_JSON) -> tuple[Unit, dict]:
    values = fields.read_json(data, where)
    if "name" not in values:
        raise InvalidInput(f"{where}: every unit needs a `name`.")
    return build_unit(values["name"], values, where), values
