"""The odds of a Tricorne melee: every answer path played through, bonus melee included."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules.core.decisions import NotAnAnswer
from rules.core.odds import REFUSED, exact_odds
from rules.registry import RULESETS

MELEE = RULESETS["tricorne"].procedures["melee"]


def outcome_labels(odds) -> set[str]:
    return {o.label for branch in odds.branches for o in branch.outcomes}


def test_taking_ground_and_the_bonus_melee_are_walked_not_refused():
    # The `/help` example: taking ground leads to a second question, the bonus melee.
    odds = exact_odds(MELEE.prepare({"attacker": "Black Watch: highland leader=Murray",
                                     "defender": "Fusiliers: regular blocks=3"}))
    paths = {tuple(sorted(b.path)) for b in odds.branches}
    assert any(len(path) == 2 for path in paths)  # take ground, then a bonus melee answer
    assert not any("refused" in label or "asks its questions" in label
                   for label in outcome_labels(odds))


def test_a_bonus_target_given_ahead_that_reads_as_no_unit_refuses_the_odds_whole():
    with pytest.raises(NotAnAnswer, match="`no` is no target it may attack") as refused:
        exact_odds(MELEE.prepare({"attacker": "A: highland", "defender": "B: highland",
                                  "answers": {"take_ground": "advance",
                                              "bonus_melee": "no"}}))
    # Said against the question's answers, not as a unit's words.
    assert "colon" not in str(refused.value)
    assert "“No bonus melee” (`none`), or with the unit it attacks" in refused.value.hint


def test_a_bonus_target_given_ahead_that_the_dice_remove_is_set_aside_on_those_paths():
    # The defender is a bonus target "if it is still on the field": where the dice
    # eliminate it (or drive it out of reach), the answer given ahead cannot apply, and the
    # path goes on as if it had not been given, as a player would read it; never a result
    # "refused by the rules", nor a path whose first melee's losses go uncounted.
    fight = {"attacker": "A: highland", "defender": "D: regular blocks=2"}
    sides = {"A": "attacker", "D": "defender"}
    given = exact_odds(MELEE.prepare({**fight, "answers": {
        "take_ground": "advance", "bonus_melee": "D", "bonus_take_ground": "stay"}}),
        sides=sides)
    (only,) = given.branches
    assert only.answers == ()
    assert only.total == 1
    assert not any(o.group == REFUSED or "has left the field" in o.label
                   for o in only.outcomes)
    walked = exact_odds(MELEE.prepare(fight), sides=sides).branch(
        take_ground="advance", bonus_melee="D", bonus_take_ground="stay")
    assert {(o.group, o.probability) for o in only.outcomes} == {
        (o.group, o.probability) for o in walked.outcomes}
    losses = {loss.unit: loss.expected for loss in only.losses}
    assert losses == {loss.unit: loss.expected for loss in walked.losses}
    assert losses["D"] == Fraction(367, 216)  # 1.70 blocks, the bonus melee's included
    # Given in order (`choices:"advance; D; stay"`), alike.
    in_order = exact_odds(MELEE.prepare({**fight, "answers": ["advance", "D", "stay"]}),
                          sides=sides)
    assert [b.losses for b in in_order.branches] == [only.losses]
