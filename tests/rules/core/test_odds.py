"""Exact odds of every outcome: by hand for tiny procedures, against 20,000 seeded random
resolutions for one request of every procedure of every rule set, per answer where a player
decides, and a Monte Carlo estimate where the tree is too large to walk."""

from __future__ import annotations

import json
import math
import re
import time
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from rules.core.decisions import Answer, Answers, Question, Undecided
from rules.core.defaults import asking
from rules.core.dice import D6, BattleDice, D6Pool, DiceSource, ScriptedSource, Symbol, TwoD6
from rules.core.errors import InvalidInput, RulesError
from rules.core.odds import (
    MIN_SAMPLES,
    REFUSED,
    Distribution,
    Odds,
    exact_odds,
    loss_of,
    odds_for_request,
    to_json,
    wilson_interval,
)
from rules.core.prepared import label_of
from rules.core.records import Effect, Resolution, ResolutionBuilder, Severity, effect_kinds
from rules.core.registry import HelpTopic, RuleSet, resolve_request
from rules.registry import RULESETS
from tests.test_docs import EXAMPLES as DOC_EXAMPLES

PACK = json.loads((Path(__file__).parents[1] / "labataille" / "pack.json").read_text())
# Resolutions on seeds 0 to SAMPLES - 1, held to the exact odds within 4.5 standard errors
# (about ±3 points at even odds): the same seeds every run, so a pass is a pass every time.
SAMPLES = 6_000
WALK = 20_000  # every request below walks in fewer paths than this


# --- tiny procedures, by hand ------------------------------------------------------------------

# The tiny procedures' rule set (here and in test_odds_glance): a few kinds of its own, two
# of which count a loss.
EffectKind = effect_kinds(ROUTED="routed", RETIRE="retire", LOSE_SP="lose_sp",
                          CASUALTIES="casualties", SURRENDERED="surrendered",
                          GENERAL_WOUNDED="general_wounded", GENERAL_KILLED="general_killed",
                          FIREFIGHT="firefight")
TEST_RULESET = RuleSet("test", "Test", {}, HelpTopic(()), effects={
    EffectKind.ROUTED: "routs", EffectKind.RETIRE: 'retires {amount}"',
    EffectKind.LOSE_SP: "loses {amount} SP", EffectKind.CASUALTIES: "takes {amount} casualties",
    EffectKind.SURRENDERED: "surrenders", EffectKind.GENERAL_WOUNDED: "is wounded",
    EffectKind.GENERAL_KILLED: "is killed", EffectKind.FIREFIGHT: "is in a firefight with {value}",
}, losses={EffectKind.LOSE_SP: "SP", EffectKind.CASUALTIES: "figures"})


def _built(out: ResolutionBuilder, headline: str) -> Resolution:
    return out.build(headline, Severity.MINOR if out.effects else Severity.NONE)


def one_die(dice: DiceSource) -> Resolution:
    (face,) = dice.roll(D6(), "one die")
    out = ResolutionBuilder("test", "one die")
    out.effect(EffectKind.DAMAGE, "Foe", face, measure="SP")
    return _built(out, f"rolled {face}")


def two_dice(dice: DiceSource) -> Resolution:
    faces = dice.roll(TwoD6(), "2d6")
    out = ResolutionBuilder("test", "2d6")
    if sum(faces) >= 8:  # type: ignore[arg-type]
        out.effect(EffectKind.ROUTED, "Foe")
        return _built(out, "rout")
    return _built(out, "stand")


def test_one_die_each_face_is_a_sixth_and_the_mean_loss_is_three_and_a_half():
    odds = exact_odds(one_die)
    assert odds.exact and odds.leaves == 6 and odds.samples is None
    (only,) = odds.branches
    assert only.answers == () and only.path == ()
    assert [o.probability for o in only.outcomes] == [Fraction(1, 6)] * 6
    assert only.total == 1
    # One result, as a player reads it: its number ranges over the faces.
    assert only.probability_of("Foe loses 1–6 SP", "rolled 4") == Fraction(1, 6)
    assert [(g.group, g.probability) for g in only.groups] == [("Foe loses 1–6 SP", 1)]
    (loss,) = only.losses
    assert (loss.unit, loss.measure, loss.expected) == ("Foe", "SP", Fraction(7, 2))


def test_two_dice_summing_to_eight_or_more_is_fifteen_in_thirty_six():
    only = exact_odds(two_dice).branch()
    assert only.probability_of("Foe routs") == Fraction(15, 36)
    assert [(g.group, g.probability) for g in only.groups] == [
        ("stand", Fraction(21, 36)), ("Foe routs", Fraction(15, 36))]
    assert only.total == 1
    assert only.losses == ()  # a rout counts no number: no loss is made up for it


def test_a_pool_is_walked_by_its_results_up_to_order_with_exact_binomial_odds():
    def volley(dice: DiceSource) -> Resolution:
        faces = dice.roll(D6Pool(3, 4), "volley")
        out = ResolutionBuilder("test", "volley")
        hits = sum(1 for f in faces if f >= 4)  # type: ignore[operator]
        if hits:
            out.effect(EffectKind.CASUALTIES, "Foe", hits)
        return _built(out, f"{hits} hits")

    odds = exact_odds(volley)
    only = odds.branch()
    assert {o.label: o.probability for o in only.outcomes} == {
        "0 hits": Fraction(1, 8), "1 hits": Fraction(3, 8), "2 hits": Fraction(3, 8),
        "3 hits": Fraction(1, 8)}
    assert odds.leaves == 56  # the pool's results up to order, not its 216 orderings
    (loss,) = only.losses
    assert (loss.measure, loss.expected) == ("figures", Fraction(3, 2))


def test_battle_dice_count_their_faces():
    def sabers(dice: DiceSource) -> Resolution:
        faces = dice.roll(BattleDice(2), "two battle dice")
        out = ResolutionBuilder("test", "sabers")
        return _built(out, "saber" if Symbol.SABER in faces else "none")

    only = exact_odds(sabers).branch()
    assert {o.group: o.probability for o in only.outcomes} == {
        "saber": Fraction(11, 36), "none": Fraction(25, 36)}


def test_a_rules_error_after_the_dice_is_an_outcome_and_one_before_them_is_raised():
    def picky(dice: DiceSource) -> Resolution:
        (face,) = dice.roll(D6(), "die")
        if face == 6:
            raise InvalidInput("a six is refused")
        return _built(ResolutionBuilder("test", "picky"), "fine")

    only = exact_odds(picky).branch()
    assert only.probability_of(REFUSED, "a six is refused") == Fraction(1, 6)
    assert only.total == 1

    def refused(dice: DiceSource) -> Resolution:
        raise InvalidInput("no such unit")

    with pytest.raises(InvalidInput, match="no such unit"):
        exact_odds(refused)


def test_losses_count_only_effects_with_a_numeric_loss():
    assert loss_of(Effect(EffectKind.LOSE_SP, "A", 2, ruleset="test")) == ("SP", 2)
    assert loss_of(Effect(EffectKind.CASUALTIES, "A", 3, ruleset="test")) == ("figures", 3)
    assert loss_of(Effect(EffectKind.CASUALTIES, "A", 3, ruleset="other")) is None  # its own
    assert loss_of(Effect(EffectKind.DAMAGE, "A", 1, measure="block")) == ("blocks", 1)
    assert loss_of(Effect(EffectKind.DAMAGE, "A", 2, measure="increments")) == ("increments", 2)
    assert loss_of(Effect(EffectKind.RETIRE, "A", 3, ruleset="test")) is None  # inches
    assert loss_of(Effect(EffectKind.REMOVED, "A")) is None
    assert loss_of(Effect(EffectKind.ROUTED, "A", ruleset="test")) is None


# --- one request for every procedure of every rule set -----------------------------------------

REQUESTS: dict[tuple[str, str], dict[str, Any]] = {
    ("fire-at-will", "charge"): {
        "target": {"name": "Militia", "arm": "infantry", "morale": 4},
        "chargers": [{"name": "Grenadiers", "arm": "infantry", "direction": "rear"}],
        "cover": "none"},
    ("fire-at-will", "melee"): {
        "attackers": [{"name": "Grenadiers", "arm": "infantry", "regular": True,
                       "charging": True, "rear": True}],
        "defenders": [{"name": "Béarn", "arm": "infantry", "regular": True,
                       "general": "Bougainville"}]},
    ("fire-at-will", "surrender"): {
        "unit": {"name": "Light Dragoons", "arm": "cavalry", "routing": True},
        "situation": "c"},
    ("le-baton", "fire"): {
        "shooter": {"name": "52nd", "nation": "british", "arm": "infantry", "figures": 4},
        "target": "4e Léger", "target_type": "column", "distance": 3},
    ("le-baton", "artillery-fire"): {
        "battery": {"name": "Ross's Troop", "nation": "british", "arm": "artillery",
                    "figures": 2, "guns": 9},
        "target": "4e Léger", "target_type": "column", "behind": "70e Ligne",
        "behind_type": "line", "level_ground": True, "range": "close"},
    ("le-baton", "morale"): {
        "unit": {"name": "4e Léger", "nation": "french", "arm": "infantry",
                 "formation": "column", "casualties": 3},
        "phase": 4, "charging": True, "opponent": "52nd"},
    # Not obliged to roll: the player decides first (odds per answer).
    ("le-baton", "recall"): {
        "unit": {"name": "Hussars", "nation": "french", "arm": "cavalry"}},
    ("le-baton", "charge"): {
        "charger": {"name": "Cuirassiers", "nation": "french", "arm": "cavalry",
                    "horse": "cuirassiers", "figures": 8},
        "target": {"name": "52nd", "nation": "british", "arm": "infantry",
                   "formation": "line", "figures": 8},
        "answers": {"try_square": "try"}},
    ("le-baton", "melee"): {
        "phase": 6,
        "attacker": {"name": "4e Léger", "nation": "french", "arm": "infantry",
                     "formation": "column", "figures": 3},
        "defender": {"name": "52nd", "nation": "british", "arm": "infantry",
                     "formation": "line", "figures": 3}},
    ("tricorne", "melee"): {
        "attacker": {"name": "Foot", "type": "regular", "blocks": 3},
        "defender": {"name": "Fusiliers", "type": "regular", "blocks": 2, "reduce": 1},
        "answers": {"take_ground": "stay"}},
    # A disordered defender that cannot pass routs: two d66 checks, then the advance. The
    # mêlée roll would make it 6 × 36³ paths (the cavalry charge below reads the chart).
    ("labataille", "assault"): {
        "attackers": [{"name": "1/45e", "morale": 34, "melee": 12, "increments": 6}],
        "defenders": [{"name": "52nd", "morale": 66, "state": "disordered", "melee": 8,
                       "increments": 5}]},
    ("labataille", "charge"): {
        "attackers": [{"name": "1/3e Grenadiers", "morale": 55, "melee": 20, "increments": 8}],
        "defenders": [{"name": "33rd", "nation": "british", "morale": 66,
                       "state": "disordered", "melee": 6, "increments": 4}]},
    # The Roll to Stand, the shift die and the mêlée roll read on the pack's chart. (Every
    # run reads the pack again from the request: a third of a millisecond.)
    ("labataille", "cavalry"): {
        "attackers": [{"name": "2e Cuirassiers", "arm": "cavalry", "morale": 44, "melee": 18,
                       "mp": 8, "nation": "french", "increments": 4}],
        "defenders": [{"name": "2nd Foot", "morale": 41, "melee": 8, "increments": 5}],
        "spent": 2, "charts": PACK},
    ("labataille", "square"): {
        "stack": {"name": "2nd Foot", "morale": 41, "nation": "british"}, "distance": 1,
        "cavalry": {"name": "2e Cuirassiers", "arm": "cavalry", "morale": 44, "melee": 18,
                    "mp": 8, "nation": "french", "charge": "charging"},
        "target": True, "answers": {"recall": "recall", "after_recall": "end"},
        "charts": PACK},
    ("labataille", "reaction"): {
        "reactor": {"name": "Lancers", "arm": "cavalry", "morale": 35},
        "charger": {"name": "Hussars", "arm": "cavalry", "morale": 34, "charge": "charging"},
        "gap": 3},
    ("labataille", "formup"): {
        "stack": {"name": "Cossacks", "arm": "cavalry", "formation": "skirmish", "morale": 34},
        "charger": {"name": "Hussars", "arm": "cavalry", "morale": 44, "charge": "charging"}},
    ("labataille", "recall"): {
        "attackers": [{"name": "16th Light Dragoons", "arm": "cavalry", "light": True,
                       "morale": 44, "mp": 9, "nation": "british"}],
        "answers": {"after_recall": "end"}},
    # A tie is rolled off again and again (too deep to walk: see the Monte Carlo tests).
    ("labataille", "order"): {"sides": {"French": 3, "British": 2}},
}


REGISTERED = sorted((r.key, name) for r in RULESETS.values() for name in r.procedures)


def documented(ruleset: str, procedure: str) -> dict[str, Any] | None:
    """The first example of docs/resolve.md for the procedure, without its dice: a rule set
    added later needs no request here."""
    for example in map(json.loads, DOC_EXAMPLES):
        if (example["ruleset"], example["procedure"]) == (ruleset, procedure):
            return {k: v for k, v in example.items()
                    if k not in ("ruleset", "procedure", "dice", "seed")}
    return None


def request(ruleset: str, procedure: str) -> dict[str, Any]:
    given = REQUESTS.get((ruleset, procedure)) or documented(ruleset, procedure)
    assert given is not None, f"{ruleset} {procedure}: no request here, nor in docs/resolve.md"
    return {"ruleset": ruleset, "procedure": procedure, **given}


def test_every_procedure_of_every_rule_set_has_a_request():
    assert set(REQUESTS) <= set(REGISTERED)
    assert all(request(*pair) for pair in REGISTERED)


def key_of(resolution: Resolution) -> tuple[str, str]:
    return label_of(resolution), resolution.headline


def sampled(req: dict[str, Any], path: tuple[tuple[str, str], ...], n: int
            ) -> Counter[tuple[str, str]]:
    """``n`` resolutions on random dice (seed 0 to n − 1), answering each question as the
    answer path says: the way a player rolls, not the way the odds walk."""
    decided = dict(path)
    counts: Counter[tuple[str, str]] = Counter()
    for seed in range(n):
        answers: list[str] = []
        while True:
            attempt = {**req, "seed": seed} | ({"answers": answers} if answers else {})
            try:
                counts[key_of(resolve_request(RULESETS, attempt))] += 1
            except Undecided as asked:
                assert "answers" not in req, "a table request gives all its answers or none"
                answers.append(decided[asked.question.key])
                continue
            except RulesError as error:
                counts[(str(error), str(error))] += 1
            break
    return counts


def assert_agrees(branch: Distribution, counts: Counter[tuple[str, str]], n: int) -> None:
    exact = {(o.effects, o.label): o.probability for o in branch.outcomes}
    assert sum(counts.values()) == n
    for key in exact.keys() | counts.keys():
        p = float(exact.get(key, 0))
        p_hat = counts.get(key, 0) / n
        allowed = 4.5 * math.sqrt(p * (1 - p) / n) + 1e-9
        assert abs(p_hat - p) <= allowed, (branch.path, key, p, p_hat)


@pytest.mark.parametrize("pair", REGISTERED, ids="-".join)
def test_exact_odds_sum_to_one_and_agree_with_random_resolutions(pair):
    req = request(*pair)
    odds = odds_for_request(RULESETS, req, max_leaves=WALK)
    assert odds.exact, odds.reason
    assert odds.samples is None and odds.leaves >= 1
    for branch in odds.branches:
        assert branch.exact and branch.samples is None
        assert branch.total == Fraction(1)
        assert all(o.probability > 0 for o in branch.outcomes)
        assert [o.probability for o in branch.outcomes] == sorted(
            (o.probability for o in branch.outcomes), reverse=True)
        assert_agrees(branch, sampled(req, branch.path, SAMPLES), SAMPLES)


# --- decisions: the odds for each answer -------------------------------------------------------

PRESS = Question("press", "Press on?", (Answer("yes", "Press on"), Answer("no", "Hold")))
FLANK = Question("flank", "Which flank?", (Answer("left", "Left"), Answer("right", "Right")))


def pressing(dice: DiceSource, answers: Answers | None = None) -> Resolution:
    """A 5+ earns a choice: press on (a second die, 4+ hurts the foe 2 SP) or hold. Holding
    asks which flank to hold (no dice)."""
    out = ResolutionBuilder("test", "press", answers=answers or Answers())
    (first,) = dice.roll(D6(), "first")
    if first < 5:  # type: ignore[operator]
        return _built(out, "no chance")
    if out.ask(PRESS).key == "no":
        side = out.ask(FLANK).key
        return _built(out, f"hold the {side}")
    (second,) = dice.roll(D6(), "second")
    if second >= 4:  # type: ignore[operator]
        out.effect(EffectKind.LOSE_SP, "Foe", 2)
        return _built(out, "pressed home")
    return _built(out, "pressed in vain")


def groups(branch: Distribution) -> dict[str, Fraction]:
    return {g.group: g.probability for g in branch.groups}


def test_a_question_forks_the_odds_and_paths_without_it_count_in_every_answer():
    odds = exact_odds(pressing)
    assert odds.exact
    assert [b.path for b in odds.branches] == [
        (("press", "yes"),), (("press", "no"), ("flank", "left")),
        (("press", "no"), ("flank", "right"))]
    press = odds.branch(press="yes")
    # A result that touches a unit is named by what it does; one that does not, by its
    # headline.
    assert groups(press) == {"no chance": Fraction(2, 3), "Foe loses 2 SP": Fraction(1, 6),
                             "pressed in vain": Fraction(1, 6)}
    assert press.answers[0].text == "Press on?" and press.answers[0].label == "Press on"
    assert [(loss.unit, loss.expected) for loss in press.losses] == [("Foe", Fraction(1, 3))]
    hold_left = odds.branch(press="no", flank="left")
    assert groups(hold_left) == {"no chance": Fraction(2, 3), "hold the left": Fraction(1, 3)}
    assert hold_left.losses == ()
    assert all(b.total == 1 for b in odds.branches)
    assert set(odds.by_answers) == {b.path for b in odds.branches}


def test_a_question_answered_in_the_request_is_not_forked_on():
    base = {"ruleset": "fire-at-will", "procedure": "charge",
            "target": {"name": "Hussars", "arm": "cavalry", "morale": 4},
            "chargers": [{"name": "Rangers", "arm": "infantry", "order": "open"}]}
    # 1d6 − 2 (cavalry charged only by infantry) − 2 (charged only by open order): below
    # zero on 1 to 3, when the hussars may counter-charge.
    odds = odds_for_request(RULESETS, base)
    assert [b.path for b in odds.branches] == [(("counter_charge", "Rangers"),),
                                               (("counter_charge", "stand"),)]
    assert groups(odds.branch(counter_charge="Rangers")) == {
        "Hussars counter-charges Rangers, meeting it halfway": Fraction(1, 2),
        "Hussars stands: melee follows": Fraction(1, 2)}
    assert groups(odds.branch(counter_charge="stand")) == {
        "Hussars stands: melee follows": Fraction(1)}
    for given in ({"counter_charge": "Rangers"}, ["Rangers"], "counter_charge=Rangers"):
        (only,) = odds_for_request(RULESETS, {**base, "answers": given}).branches
        assert only.answers == ()
        assert groups(only) == groups(odds.branch(counter_charge="Rangers"))


def test_answers_given_by_question_combine_with_the_answers_walked():
    """The square forms on the pack's chart; the request answers the Recall by name, the odds
    walk what the recalled cavalry does next."""
    req = request("labataille", "square")
    req["answers"] = {"recall": "recall"}
    odds = odds_for_request(RULESETS, req)
    assert [b.path for b in odds.branches] == [(("after_recall", "new"),),
                                               (("after_recall", "end"),)]
    for branch in odds.branches:
        assert branch.total == 1
        assert_agrees(branch, sampled_square(req, branch.path[0][1], 2_000), 2_000)


def chasing(dice: DiceSource, answers: Answers | None = None) -> Resolution:
    """A 1 or 2 drives the foe off (it routs); then whom to chase: the foe if it is still
    there, else nobody, or a unit typed in. The foe named ahead and driven off by the dice is
    out of reach: the dice's doing, not the player's words."""
    out = ResolutionBuilder("test", "chase", answers=answers or Answers())
    (first,) = dice.roll(D6(), "first")
    standing = first > 2  # type: ignore[operator]
    if not standing:
        out.effect(EffectKind.ROUTED, "Foe")
    chase = Question("chase", "Chase whom?", (
        *((Answer("Foe", "Chase Foe"),) if standing else ()), Answer("none", "Nobody")),
        typed="a unit's name")
    if out.ask(chase).key == "none":
        return _built(out, "no chase")
    if not standing:
        raise out.answers.out_of_reach(chase, InvalidInput("Foe has left the field."))
    out.effect(EffectKind.LOSE_SP, "Foe", 1)
    return _built(out, "chased")


@pytest.mark.parametrize("given", [{"answers": {"chase": "Foe"}}, {"answers": ["Foe"]},
                                   {"choices": "chase=Foe"}, {"choices": "Foe"}])
def test_an_answer_given_ahead_the_dice_put_out_of_reach_is_walked_as_not_given(given):
    # Where the foe routed, the answer given ahead cannot apply: that path goes on as if it
    # had not been given (the question there offers only "Nobody"), not a result refused.
    odds = exact_odds(asking(given, chasing))
    (only,) = odds.branches
    assert only.answers == ()
    assert groups(only) == {"Foe loses 1 SP": Fraction(2, 3), "Foe routs": Fraction(1, 3)}
    assert [(loss.unit, loss.expected) for loss in only.losses] == [("Foe", Fraction(2, 3))]
    # Played, the answer given ahead is taken as it was, and refused where it cannot apply.
    with pytest.raises(InvalidInput, match="Foe has left the field"):
        asking(given, chasing)(ScriptedSource([1]))
    assert asking(given, chasing)(ScriptedSource([3])).headline == "chased"


def test_an_answer_out_of_reach_that_was_not_given_ahead_is_refused_on_its_path():
    # Given by the walk (here, as if by a player asked), it is the answer's own path: refused.
    def asks_foe(dice: DiceSource, answers: Answers | None = None) -> Resolution:
        return chasing(dice, Answers(in_order=["Foe"]))

    odds = exact_odds(asks_foe)
    assert odds.branches[0].probability_of(REFUSED) == Fraction(1, 3)


def sampled_square(req: dict[str, Any], after: str, n: int) -> Counter[tuple[str, str]]:
    answers = {**req["answers"], "after_recall": after}
    return Counter(key_of(resolve_request(RULESETS, {**req, "answers": answers, "seed": s}))
                   for s in range(n))


def test_a_chart_the_player_reads_ends_the_walk_with_the_chance_of_each_band_of_rows():
    """Without a chart pack the player reads the Square chart: the odds are where the d66
    lands (its six printed bands of rows), not each answer the chart might give."""
    req = request("labataille", "square")
    del req["charts"]
    odds = odds_for_request(RULESETS, req)
    assert odds.exact and [b.path for b in odds.branches] == [()]
    (branch,) = odds.branches
    assert [(o.cell, o.probability) for o in branch.outcomes] == [
        (("Square (Carré) Realization", "1 hex", f"{tens}1–{tens}6"), Fraction(1, 6))
        for tens in range(1, 7)]
    assert branch.total == 1
    # Given what the chart says, the walk goes on past it.
    read = odds_for_request(RULESETS, {**req, "answers": {**req["answers"],
                                                          "carre_result": "C"}})
    assert all(o.cell is None for b in read.branches for o in b.outcomes)


def test_a_question_before_any_dice_forks_at_once():
    odds = odds_for_request(RULESETS, request("le-baton", "recall"))
    assert [b.path for b in odds.branches] == [(("roll_recall", "roll"),),
                                               (("roll_recall", "stay"),)]
    assert odds.leaves == 7
    stay = odds.branch(roll_recall="stay")
    assert [(o.group, o.probability) for o in stay.outcomes] == [
        ("Hussars does not roll for recall", Fraction(1))]



def test_dice_that_never_meet_a_question_are_walked_once_for_every_answer():
    runs = []

    def sixes(dice: DiceSource, answers: Answers | None = None) -> Resolution:
        runs.append(1)
        out = ResolutionBuilder("test", "sixes", answers=answers or Answers())
        (face,) = dice.roll(D6(), "die")
        if face == 6:
            return _built(out, f"six, {out.ask(PRESS).key}")
        return _built(out, "no six")

    odds = exact_odds(sixes, probes=0)
    assert odds.leaves == 7  # five plain faces, and the six once for each answer
    # One run per face (none that only stops at a roll), and one per answer to the six.
    assert len(runs) == 6 + 2
    assert [groups(b) for b in odds.branches] == [
        {"no six": Fraction(5, 6), "six, yes": Fraction(1, 6)},
        {"no six": Fraction(5, 6), "six, no": Fraction(1, 6)}]

def test_too_many_combinations_of_answers_are_refused_before_the_work():
    def three_questions(dice: DiceSource, answers: Answers | None = None) -> Resolution:
        out = ResolutionBuilder("test", "many", answers=answers or Answers())
        dice.roll(D6(), "die")
        for n in range(3):
            out.ask(Question(f"q{n}", f"Question {n}?", tuple(Answer(a, a) for a in "abc")))
        return _built(out, "asked")

    assert len(exact_odds(three_questions).branches) == 27
    for samples in (None, 100):  # walked, and sampled
        budget = {"max_leaves": 1, "samples": samples} if samples else {}
        with pytest.raises(InvalidInput, match="More than 10 combinations"):
            exact_odds(three_questions, max_branches=10, **budget)

def test_a_battle_command_s_prepared_procedure_takes_the_answers_walked():
    """What `/odds` hands the engine in a battle: ``prepare`` with a command's options, its
    ``choices`` used as given."""
    from rules.fire_at_will.commands import prepare

    options = {"target": "Hussars", "target_type": "cavalry", "morale": 4,
               "chargers": "Rangers: infantry open"}
    odds = exact_odds(prepare("charge", options, None, {}))
    assert [b.path for b in odds.branches] == [(("counter_charge", "Rangers"),),
                                               (("counter_charge", "stand"),)]
    (only,) = exact_odds(prepare("charge", {**options, "choices": "stand"}, None, {})).branches
    assert groups(only) == {"Hussars stands: melee follows": Fraction(1)}

# --- the Monte Carlo fallback ------------------------------------------------------------------

# Five units a side, one d6 each: 6¹⁰ results, too many to group or to walk.
BIG_MELEE = {
    "ruleset": "fire-at-will", "procedure": "melee",
    "attackers": [{"name": f"A{i}", "arm": "infantry", "charging": i % 2 == 0}
                  for i in range(5)],
    "defenders": [{"name": f"D{i}", "arm": "infantry", "deep": i == 0} for i in range(5)]}


def assert_estimated(odds: Odds, samples: int) -> None:
    assert not odds.exact and odds.reason and odds.leaves == 0
    assert odds.samples == samples
    for branch in odds.branches:
        assert not branch.exact and branch.samples == samples
        assert sum(o.count or 0 for o in branch.outcomes) == samples
        assert branch.total == 1
        for item in (*branch.outcomes, *branch.groups):
            assert item.count is not None and item.interval is not None
            low, high = item.interval
            assert 0 <= low <= float(item.probability) <= high <= 1
            assert item.probability == Fraction(item.count, samples)
            assert (low, high) == wilson_interval(item.count, samples)


def test_a_fight_too_big_to_walk_is_estimated_with_wilson_intervals():
    odds = odds_for_request(RULESETS, BIG_MELEE, samples=400)
    assert_estimated(odds, 400)
    (branch,) = odds.branches
    sides = {loss.side: loss for loss in branch.side_losses}
    assert set(sides) == {"attackers", "defenders"}
    assert all(loss.measure == "SP" and loss.expected > 0 for loss in sides.values())
    data = to_json(odds)
    assert data["exact"] is False and data["samples"] == 400 and data["reason"]
    first = data["branches"][0]["groups"][0]
    numerator, denominator = first["probability"].split("/")
    assert int(denominator) == 400 and 0 < int(numerator) <= 400
    low, high = first["interval"]
    assert low <= first["percent"] <= high


def test_a_walk_past_its_leaf_budget_falls_back_to_sampling():
    odds = odds_for_request(RULESETS, request("fire-at-will", "melee"), max_leaves=10,
                            samples=300)
    assert_estimated(odds, 300)


def test_a_tie_rolled_off_again_and_again_is_too_deep_and_is_estimated():
    tie = {"ruleset": "labataille", "procedure": "order", "sides": {"French": 2, "British": 2}}
    odds = odds_for_request(RULESETS, tie, max_leaves=500, samples=2_000)
    assert_estimated(odds, 2_000)
    (branch,) = odds.branches
    assert {g.group for g in branch.groups} == {
        "French chooses the first assault (tie: the dice decided)",
        "British chooses the first assault (tie: the dice decided)"}
    for group in branch.groups:  # a half each, by symmetry
        assert group.interval is not None
        assert group.interval[0] <= 0.5 <= group.interval[1]


def test_a_walk_far_past_the_probes_estimate_gives_way_to_sampling_early():
    """A tie rolled off again makes a tree without end; the probes, which seldom tie twice,
    read it as small. The walk stops at a few times their estimate, not at the budget (the
    bot's 200,000 paths took six seconds of an eight-second deadline before sampling)."""
    tie = {"ruleset": "labataille", "procedure": "order", "sides": {"French": 2, "British": 2}}
    odds = odds_for_request(RULESETS, tie, max_leaves=200_000, samples=1_000)
    assert_estimated(odds, 1_000)
    found = re.search(r"; the probes estimated about ([\d,]+)$", odds.reason or "")
    assert found is not None, odds.reason
    assert int(found[1].replace(",", "")) < 5_000


def test_a_deadline_already_past_still_gives_a_minimal_estimate():
    odds = exact_odds(one_die, deadline=time.monotonic() - 1, samples=5_000)
    assert_estimated(odds, MIN_SAMPLES)


def test_an_estimate_forks_on_questions_too():
    req = {"ruleset": "tricorne", "procedure": "melee",
           "attacker": {"name": "Foot", "type": "regular"},
           "defender": {"name": "Hussars", "type": "light-cavalry"},
           "answers": {"take_ground": "stay"}}
    odds = odds_for_request(RULESETS, req, max_leaves=50, samples=300)
    assert_estimated(odds, 300)
    assert [b.path for b in odds.branches] == [(("retire", "retire"),), (("retire", "stand"),)]


# --- requests and JSON -------------------------------------------------------------------------


def test_requests_are_checked_as_resolve_checks_them_but_dice_and_seed_are_ignored():
    req = request("fire-at-will", "surrender")
    plain = odds_for_request(RULESETS, req)
    rolled = odds_for_request(RULESETS, {**req, "dice": "6", "seed": 3})
    assert to_json(plain) == to_json(rolled)
    with pytest.raises(InvalidInput, match="Unknown field `colour`"):
        odds_for_request(RULESETS, {**req, "colour": "red"})
    with pytest.raises(InvalidInput, match="Unknown ruleset"):
        odds_for_request(RULESETS, {**req, "ruleset": "warhammer"})
    with pytest.raises(InvalidInput, match="Unknown procedure"):
        odds_for_request(RULESETS, {**req, "procedure": "parley"})
    with pytest.raises(InvalidInput, match="NaN"):
        odds_for_request(RULESETS, {**req, "unit": {**req["unit"], "morale": float("nan")}})
    with pytest.raises(InvalidInput, match="JSON object"):
        odds_for_request(RULESETS, ["not", "an", "object"])
    with pytest.raises(InvalidInput):
        odds_for_request(RULESETS, {**req, "answers": [3]})


def test_expected_losses_per_side_in_a_plain_melee():
    """1d6 each: lost by 1 (10 of 36 rolls, 5 for each side) costs 1 SP, by 2 or more (20,
    10 each) 2 SP; a draw's 3" retirement is not a loss: 5/36 + 20/36 = 25/36 a side."""
    req = {"ruleset": "fire-at-will", "procedure": "melee",
           "attackers": [{"name": "A", "arm": "infantry"}],
           "defenders": [{"name": "D", "arm": "infantry"}]}
    only = odds_for_request(RULESETS, req).branch()
    assert [(loss.side, loss.measure, loss.expected) for loss in only.side_losses] == [
        ("attackers", "SP", Fraction(25, 36)), ("defenders", "SP", Fraction(25, 36))]
    assert [(loss.unit, loss.side) for loss in only.losses] == [("A", "attackers"),
                                                                ("D", "defenders")]


def test_blocks_lost_one_at_a_time_count_with_the_others():
    only = odds_for_request(RULESETS, request("tricorne", "melee")).branch()
    assert {loss.measure for loss in only.losses} == {"blocks"}


def test_json_is_plain_with_fractions_as_text_and_percentages_as_numbers():
    odds = exact_odds(two_dice)
    data = json.loads(json.dumps(to_json(odds)))
    assert data["exact"] is True and data["samples"] is None and data["reason"] is None
    (branch,) = data["branches"]
    assert branch["answers"] == [] and branch["exact"] is True
    assert [(g["group"], g["probability"], g["percent"]) for g in branch["groups"]] == [
        ("stand", "7/12", 58.3333), ("Foe routs", "5/12", 41.6667)]
    assert branch["groups"][1]["outcomes"] == [
        {"label": "rout", "severity": "minor", "probability": "5/12",
         "percent": 41.6667}]
    assert "interval" not in branch["groups"][0]
    assert to_json(odds.branches[0]) == branch
    pressed = to_json(exact_odds(pressing).branch(press="yes"))
    assert pressed["answers"] == [{"question": "press", "text": "Press on?",
                                   "answer": "yes", "label": "Press on"}]
    assert pressed["losses"] == [{"unit": "Foe", "side": None, "measure": "SP",
                                  "expected": "1/3", "value": 0.3333}]
    assert sum(Fraction(o["probability"]) for g in pressed["groups"]
               for o in g["outcomes"]) == 1


def test_a_count_of_one_and_of_two_are_one_result_named_in_the_plural():
    def blocks(dice: DiceSource) -> Resolution:
        (face,) = dice.roll(D6(), "die")
        out = ResolutionBuilder("test", "blocks")
        lost = 1 if face < 4 else 2  # type: ignore[operator]
        out.effect(EffectKind.DAMAGE, "Foe", lost, measure="block" if lost == 1 else "blocks")
        return _built(out, f"{lost} lost")

    only = exact_odds(blocks).branch()
    assert [(g.group, g.probability) for g in only.groups] == [("Foe loses 1–2 blocks", 1)]


def test_a_question_worded_by_the_dice_is_named_once_for_all_of_them():
    def chart(dice: DiceSource, answers: Answers | None = None) -> Resolution:
        (face,) = dice.roll(D6(), "row")
        out = ResolutionBuilder("test", "chart", answers=answers or Answers())
        said = out.ask(Question("reading", f"Read the chart: row {face}. What does it say?",
                                (Answer("hit", "Hit"), Answer("miss", "Miss")))).key
        return _built(out, said)

    odds = exact_odds(chart)
    assert [[(c.question, c.text, c.label) for c in b.answers] for b in odds.branches] == [
        [("reading", "Read the chart (whatever the dice)", "Hit")],
        [("reading", "Read the chart (whatever the dice)", "Miss")]]
    assert [b.groups[0].probability for b in odds.branches] == [1, 1]


def test_too_many_answers_says_how_to_give_one_ahead():
    """Three questions of four answers each are 64 paths and more: the refusal names the
    question's key and an answer to give ahead, and every answer it takes."""
    def asks(dice: DiceSource, answers: Answers | None = None) -> Resolution:
        out = ResolutionBuilder("test", "asks", answers=answers or Answers())
        for step in range(4):
            out.ask(Question(f"q{step}", f"Which, {step}?",
                             tuple(Answer(f"a{n}", f"A{n}") for n in range(4))))
        return out.build("done", Severity.MINOR)

    with pytest.raises(InvalidInput) as refused:
        exact_odds(asks, max_branches=8)
    assert refused.value.hint == ('Give some answers ahead and ask again: `choices:"q2=a3"` '
                                  "(`answers` in JSON); this question's answers: `a0`, `a1`, "
                                  "`a2`, `a3`.")


def test_a_procedure_that_never_takes_its_answers_ends_its_walk_refused():
    """Asked again whatever it is given, it would be walked forever (a hung worker): each
    answer path ends refused instead."""
    question = Question("again", "Again?", (Answer("yes", "Yes"), Answer("no", "No")))

    def stubborn(dice, answers=None):
        raise Undecided(question)

    odds = exact_odds(stubborn)
    assert [[o.label for o in branch.outcomes] for branch in odds.branches] == [
        ["The procedure asks its questions without taking the answers given to them."]] * 2


def test_a_result_of_bookkeeping_alone_is_named_by_its_headline():
    # Le Baton keeps that a unit has tested this phase: no words, so no name of its own.
    from rules.core.odds import worded
    from rules.core.records import Effect, Resolution, Severity
    from rules.le_baton.effects import EffectKind

    kept = Effect(EffectKind.TESTED, "52nd", 2, ruleset="le-baton")
    halts = Effect(EffectKind.HALTED, "52nd", ruleset="le-baton")
    result = Resolution("le-baton", "morale", "52nd halts", Severity.MINOR, (),
                        effects=(kept, halts))
    assert worded(result) == (halts,)


def test_a_path_ending_at_a_chart_counts_the_losses_of_the_steps_before_it():
    """Without a chart pack an assault ends at the chart the player reads, but its fire has
    already cost increments: those are counted in the expected losses, not dropped."""
    from rules.core.odds import _Reader

    chart = Question("chart_result", "What does the chart say?", (Answer("DR", "DR"),),
                     cell=("Assault et Mêlée", "2:1", "41–46"))
    asked = Undecided(chart, effects=(
        Effect("damage", "52nd", 1, measure="increments"),
        Effect("damage", "52nd", 1, measure="increments"),
        Effect("marker_set", "1/45e", value="disordered")))
    assert _Reader().chart(asked).losses == ((("52nd", "increments"), 2),)
