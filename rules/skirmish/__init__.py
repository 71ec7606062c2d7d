"""Skirmish, the example rule set of docs/adding-a-rule-set.md, whole in this file.

1. In a melee each side rolls one d6 per stand it has.
2. Each die of 4 or more is a hit, and each hit removes one stand of the other side.
3. The side that suffers more hits loses the melee; equal hits, and nobody loses.
4. The loser may fall back 3" instead of taking a break test.
5. A break test is 2d6: a total above the unit's morale and it breaks and leaves the battle.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.core.decisions import Answer, Answers, Question
from rules.core.defaults import RosterWords, apply_effects, asking, dispatcher, procedures
from rules.core.dice import D6Pool, DiceSource, Reading, TwoD6, plain_readings, pool_readings
from rules.core.errors import InvalidInput
from rules.core.fields import Field, FieldSet
from rules.core.notation import possessive, roster_entry
from rules.core.records import Resolution, ResolutionBuilder, Roll, Severity, effect_kinds
from rules.core.registry import BattleRules, HelpTopic, Prepared, RuleSet, UnitWords
from rules.core.roster import GONE, Roster, RosterUnit

KEY = "skirmish"
E = effect_kinds(BROKEN="broken")  # the core kinds and its own
STANDS = Field("stands", int, "stands, one d6 each in a melee", minimum=1, maximum=20)
MORALE = Field("morale", int, "the highest break test (2d6) it holds on", minimum=2, maximum=12)
UNIT = FieldSet((STANDS, MORALE))  # a quick lookup's unit: `Rangers: stands=4 morale=7`
FALL_BACK, TEST = Answer("fall-back", 'Fall back 3"'), Answer("test", "Take the break test")


@dataclass(frozen=True)
class Unit:
    name: str
    stands: int
    morale: int


def build(name: str, values: Mapping[str, Any], where: str) -> Unit:
    if "stands" not in values or "morale" not in values:
        raise InvalidInput(f"{where}: give {possessive(name)} stands and morale.",
                           hint="e.g. `Rangers: stands=4 morale=7`.")
    return Unit(name, STANDS.convert(values["stands"], where), values["morale"])


def unit(text: Any, where: str, roster: Roster | None) -> Unit:
    """`Name: stands=4 morale=7` in a quick lookup (and in JSON); a roster name in a battle."""
    if not isinstance(text, str) or not text.strip():
        raise InvalidInput(f"`{where}` needs a unit, like `Rangers: stands=4 morale=7`.")
    if roster is None:
        name, values = UNIT.read_text(text, where, several=False)
        return build(name or where, values, where)
    found, _ = roster_entry(text, roster, where, several=False, words=False)
    return build(found.name, {**found.attributes, "stands": found.strength or 0}, where)


def melee(options: Mapping[str, Any], roster: Roster | None, _: Mapping) -> Prepared:
    first, other = unit(options.get("attacker"), "attacker", roster), unit(
        options.get("defender"), "defender", roster)
    return asking(options, lambda dice, answers: fight(first, other, dice, answers))


def fight(first: Unit, other: Unit, dice: DiceSource, answers: Answers) -> Resolution:
    out = ResolutionBuilder(KEY, "melee", answers=answers)
    suffered = []  # the hits on the other side, then those on the first
    for side, foe in ((first, other), (other, first)):
        faces = dice.roll(D6Pool(side.stands, 4, only_hits=True), f"{side.name} attacks")
        readings = pool_readings(faces, 4)
        suffered.append(count := readings.count(Reading.HIT))
        out.step(f"{side.name} attacks", f"{count} hit{'s' * (count != 1)} on {foe.name}",
                 Roll(f"{side.name} attacks", D6Pool(side.stands, 4).describe(), faces,
                      target="4+", hits=count, readings=readings))
        if count:
            out.effect(E.DAMAGE, foe.name, count, measure="stands")
    score = f"{max(suffered)}–{min(suffered)}"  # the loser's hits first
    if suffered[0] == suffered[1]:
        return out.build(f"Equal hits ({score}): nobody loses the melee", Severity.MINOR)
    loser = first if suffered[1] > suffered[0] else other
    # Before the colon: what groups the odds' branches ("Fall back or test").
    question = Question("fall_back", f"Fall back or test: does {loser.name} fall back 3\"?",
                        (FALL_BACK, TEST), unit=loser.name, by="loser")
    if out.ask(question) == FALL_BACK:
        out.effect(E.MOVED, loser.name, 3, value="falls back")
        return out.build(f"{loser.name} loses the melee {score} and falls back", Severity.MAJOR)
    faces = dice.roll(TwoD6(), f"{loser.name} break test")
    total = sum(faces)  # type: ignore[arg-type]
    ends = "breaks" if total > loser.morale else "holds"
    out.step("Break test", f"{loser.name} {ends}", Roll(
        f"{loser.name} break test", TwoD6().describe(), faces, total=total,
        target=f"{loser.morale} or less", result=ends, readings=plain_readings(faces)))
    if ends == "breaks":
        out.effect(E.BROKEN, loser.name)
    return out.build(f"{loser.name} loses the melee {score} and {ends}",
                     Severity.DECISIVE if ends == "breaks" else Severity.MAJOR)


def own_effect(roster_unit: RosterUnit, effect: Any) -> RosterUnit:
    if effect.kind == E.BROKEN:
        return roster_unit.changed(status=GONE, gone_reason="broken")
    return roster_unit  # a fall back moves it on the table, not in the roster


prepare = dispatcher({"melee": melee})
WORDS = RosterWords(FieldSet((MORALE,)), build, ("morale",), "morale=7", STANDS)
RULESET_ENTRY = RuleSet(
    key=KEY, title="Skirmish (example)",
    effects={E.BROKEN: "breaks and leaves the battle"}, fates={E.BROKEN: ("gone", "breaks")},
    procedures=procedures(prepare, {"melee": (
        "a d6 per stand, 4+ hits; the loser falls back or tests", ("attacker", "defender"))}),
    help=HelpTopic(words=(("Units (attacker, defender)", UNIT),)),
    battle=BattleRules(
        phases=("movement", "melee"), unit_fields=WORDS.fields, read_attributes=WORDS.read,
        check_unit=WORDS.check, prepare=prepare, strength_label="stands", unit_example="morale=7",
        apply_effects=lambda effects, roster: apply_effects(effects, roster, own_effect),
        unit_words=lambda a: UnitWords((f"morale {a['morale']}",) if "morale" in a else ()),
        gone_reasons={"broken": "breaks and leaves the battle"},
    ),
)
