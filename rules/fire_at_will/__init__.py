"""Fire at Will (2007 blog rules): charging, rout, surrender, melee and risk to generals."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core.decisions import Answers
from rules.core.defaults import battle_rules
from rules.core.dice import DiceSource
from rules.core.fields import Field
from rules.core.prepared import RollGroups
from rules.core.records import Resolution
from rules.core.registry import HelpTopic, Procedure, RuleSet
from rules.fire_at_will import battle, commands, effects
from rules.fire_at_will.charge import check_declaration, resolve_charge, resolve_surrender
from rules.fire_at_will.inputs import (
    CHARGER,
    MELEE,
    json_chargers,
    json_cover,
    json_melee_side,
    json_settings,
    json_unit,
)
from rules.fire_at_will.melee import melee_roll_groups, resolve_melee
from rules.fire_at_will.surrender import SurrenderSituation
from rules.fire_at_will.units import RULESET

__all__ = [
    "RULESET_ENTRY",
    "check_declaration",
    "resolve_charge",
    "resolve_melee",
    "resolve_surrender",
]


def _charge(request: Mapping[str, Any], dice: DiceSource) -> Resolution:
    return resolve_charge(
        json_unit(request.get("target"), "target"),
        json_chargers(request.get("chargers")),
        json_cover(request.get("cover")),
        dice,
        Answers.read(request.get("answers"), "answers"),
    )


def _melee(request: Mapping[str, Any], dice: DiceSource) -> Resolution:
    return resolve_melee(
        json_melee_side(request.get("attackers"), "attackers"),
        json_melee_side(request.get("defenders"), "defenders"),
        dice,
        json_settings(request.get("settings")),
    )


def _melee_groups(request: Mapping[str, Any]) -> RollGroups | None:
    return melee_roll_groups(json_melee_side(request.get("attackers"), "attackers"),
                             json_melee_side(request.get("defenders"), "defenders"))


def _surrender(request: Mapping[str, Any], dice: DiceSource) -> Resolution:
    situation = Field("situation", SurrenderSituation, "").convert(
        request.get("situation", ""), "situation"
    )
    return resolve_surrender(json_unit(request.get("unit"), "unit"), situation, dice)


RULESET_ENTRY = RuleSet(
    key=RULESET,
    title="Fire at Will",
    effects=effects.TEXTS,
    losses=effects.LOSSES,
    help=HelpTopic(words=(("Melee units (attackers, defenders)", MELEE), ("Chargers", CHARGER))),
    battle=battle_rules(
        battle, commands.prepare, phrases=effects.CHANGE_PHRASES,
        max_wounds=1,  # "a second light wound incapacitates" (fire-at-will-melee.txt)
    ),
    procedures={
        "charge": Procedure(
            "charge",
            "a charged unit's test: rout, stand, counter-charge, surrender",
            ("target", "chargers", "cover"),
            _charge,
        ),
        "melee": Procedure(
            "melee",
            "one melee, several units a side, with risk to generals",
            ("attackers", "defenders", "settings"),
            _melee,
            roll_groups=_melee_groups,
        ),
        "surrender": Procedure(
            "surrender",
            "a surrender test in one of the three listed situations",
            ("unit", "situation"),
            _surrender,
        ),
    },
)
