"""La Bataille revised: the Infantry Assault and the Old Guard Charge, on d66 dice, with chart
packs for the charts the players own (or the chart result asked of them)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core.decisions import Answers
from rules.core.defaults import battle_rules
from rules.core.dice import D6_DICE, DiceSource
from rules.core.errors import InvalidInput
from rules.core.records import Resolution
from rules.core.registry import ChartsSpec, HelpTopic, Procedure, RuleSet
from rules.labataille import battle, commands, effects
from rules.labataille.assault import Assault, resolve_assault
from rules.labataille.charge import MAX_CHARGE_MP, resolve_charge
from rules.labataille.charts import describe_pack, read_pack
from rules.labataille.inputs import STACK, json_stacks
from rules.labataille.movement import light_recall
from rules.labataille.order import assault_order
from rules.labataille.reactions import form_square, form_up, reaction_charge
from rules.labataille.units import MAX_LEADER, RULESET

__all__ = ["RULESET_ENTRY", "resolve_assault"]


def _assault(request: Mapping[str, Any], dice: DiceSource, *, old_guard: bool) -> Resolution:
    firefight = request.get("firefight", False)
    if not isinstance(firefight, bool):
        raise InvalidInput("`firefight` is true or false (a firefight carried over).")
    assault = Assault(tuple(json_stacks(request.get("attackers"), "attackers")),
                      tuple(json_stacks(request.get("defenders"), "defenders")),
                      old_guard, firefight, _pack(request),
                      fire_below=_fire_below(request))
    return resolve_assault(assault, dice, Answers.read(request.get("answers"), "answers"))


def _stack(request: Mapping[str, Any], key: str):
    stacks = json_stacks([request.get(key)] if isinstance(request.get(key), Mapping)
                         else request.get(key), key)
    if len(stacks) != 1:
        raise InvalidInput(f"`{key}` is one stack.")
    return stacks[0]


def _stacks(request: Mapping[str, Any], key: str, required: bool = True) -> tuple:
    """One stack (an object) or several (a list: a Grand Charge)."""
    given = request.get(key)
    if given is None and not required:
        return ()
    return tuple(json_stacks([given] if isinstance(given, Mapping) else given, key))


def _flag(request: Mapping[str, Any], key: str, default: bool, meaning: str) -> bool:
    value = request.get(key, default)
    if not isinstance(value, bool):
        raise InvalidInput(f"`{key}` is true or false ({meaning}).")
    return value


def _pack(request: Mapping[str, Any]):
    return read_pack(request["charts"], "charts") if request.get("charts") is not None else None


def _fire_below(request: Mapping[str, Any]):
    """`settings`: the battle settings a request reads (`fire_below_chart`)."""
    settings = request.get("settings") or {}
    return battle.fire_below(battle.SETTINGS.read_json(settings, "settings"))


def _whole(request: Mapping[str, Any], key: str, low: int, high: int,
           required: bool = True) -> int | None:
    value = request.get(key)
    if value is None and not required:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidInput(f"`{key}` is a whole number from {low} to {high}.")
    return value


def _cavalry(request: Mapping[str, Any], dice: DiceSource) -> Resolution:
    charge = Assault(tuple(json_stacks(request.get("attackers"), "attackers")),
                     tuple(json_stacks(request.get("defenders"), "defenders")),
                     pack=_pack(request), cavalry=True,
                     spent=_whole(request, "spent", 0, MAX_CHARGE_MP, required=False),
                     reached=_flag(request, "reached", True, "the charge came adjacent to "
                                   "its declared target"),
                     fire_below=_fire_below(request))
    return resolve_charge(charge, dice, Answers.read(request.get("answers"), "answers"))


def _square(request: Mapping[str, Any], dice: DiceSource) -> Resolution:
    target = _flag(request, "target", False, "the square was the charge's declared target")
    return form_square(_stack(request, "stack"), _whole(request, "distance", 1, 4) or 0,
                       _stacks(request, "cavalry", required=False), target, _pack(request),
                       dice, Answers.read(request.get("answers"), "answers"))


def _reaction(request: Mapping[str, Any], dice: DiceSource) -> Resolution:
    return reaction_charge(_stack(request, "reactor"), _stacks(request, "charger"),
                           _whole(request, "gap", 0, 20) or 0, _pack(request), dice,
                           Answers.read(request.get("answers"), "answers"))


def _formup(request: Mapping[str, Any], dice: DiceSource) -> Resolution:
    return form_up(_stack(request, "stack"), _stacks(request, "charger", required=False),
                   _pack(request), dice)


def _recall(request: Mapping[str, Any], dice: DiceSource) -> Resolution:
    return light_recall(_stacks(request, "attackers"), _pack(request), dice,
                        Answers.read(request.get("answers"), "answers"))


def _order(request: Mapping[str, Any], dice: DiceSource) -> Resolution:
    sides = request.get("sides")
    if not isinstance(sides, Mapping) or len(sides) != 2:
        raise InvalidInput("`sides` maps each of the two sides to its number of assaults, "
                           'like {"French": 3, "British": 2}.')
    pairs = []
    for side, count in sides.items():
        if isinstance(count, bool) or not isinstance(count, int):
            raise InvalidInput(f"`sides`: {side}'s number of assaults must be a whole number.")
        pairs.append((str(side), count))
    return assault_order((pairs[0], pairs[1]), dice, str(request.get("kind") or "assaults"))


REFERENCE = (
    ("Morale (d66)", (
        "Pass when the modified roll exceeds the printed morale; modifiers step through the "
        "36 results (43 + 4 = 51). Disordered infantry −3, routed −6; a leader adds its value.",
    )),
    ("Defender shifts", ("1d6 when a defending stack passes: 1-2 none, 3-4 one, 5-6 two left "
                         "column shifts.",)),
    ("Fire", ("−3 on the mêlée roll per casualty the defenders inflict, +3 per casualty the "
              "attackers inflict (Premier fire chart, doubled fire for a passed check, "
              "canister 2 columns right).",)),
    ("Charts", ("Attach your revised charts as a chart pack (docs/labataille.md); without "
                "one, the bot says which column and row to read and asks for the result.",)),
)

RULESET_ENTRY = RuleSet(
    key=RULESET,
    title="La Bataille",
    effects=effects.TEXTS,
    help=HelpTopic(words=(("Stacks (attackers, defenders)", STACK),), reference=REFERENCE),
    battle=battle_rules(
        battle, commands.prepare,
        strength_label="increments",
        dice_faces=D6_DICE,
        charts=ChartsSpec(commands.PACK, describe_pack, "docs/labataille.md"),
        # A leader's value is a dice modifier (reference A.6): a general carries his own.
        general_values=(-MAX_LEADER, MAX_LEADER),
    ),
    procedures={
        "assault": Procedure(
            "assault", "an Infantry Assault: morale checks, fire, Huzzah, odds, the chart",
            ("attackers", "defenders", "firefight", "charts", "settings"),
            lambda request, dice: _assault(request, dice, old_guard=False)),
        "charge": Procedure(
            "charge", "an Old Guard Charge: the assault's steps, then exploitation",
            ("attackers", "defenders", "firefight", "charts", "settings"),
            lambda request, dice: _assault(request, dice, old_guard=True)),
        "cavalry": Procedure(
            "cavalry", "a Cavalry Charge's mêlée: vs PGD, infantry and artillery, or cavalry",
            ("attackers", "defenders", "spent", "reached", "charts", "settings"), _cavalry),
        "square": Procedure(
            "square", "an infantry stack forms Square as cavalry comes on, then the Recall",
            ("stack", "distance", "cavalry", "target", "charts"), _square),
        "reaction": Procedure(
            "reaction", "a Reaction Charge: a morale check, then face to face midway",
            ("reactor", "charger", "gap", "charts"), _reaction),
        "formup": Procedure(
            "formup", "skirmishing cavalry attempts to Form Up and Stand against a charge",
            ("stack", "charger", "charts"), _formup),
        "recall": Procedure(
            "recall", "light cavalry attempts to Recall during its Charge movement",
            ("attackers", "charts"), _recall),
        "order": Procedure(
            "order", "which side chooses the first assault, or cavalry-vs-cavalry mêlée "
            "(`kind`: assaults or cavalry; a tie: the dice)", ("sides", "kind"), _order),
    },
)
