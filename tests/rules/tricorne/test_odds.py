"""The odds of a Tricorne melee: every answer path played through, bonus melee included."""

from __future__ import annotations

import pytest

from rules.core.decisions import NotAnAnswer
from rules.core.odds import exact_odds
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


def test_a_bonus_target_given_ahead_that_the_dice_may_remove_refuses_those_paths_only():
    # The defender is a bonus target "if it is still on the field": where the dice
    # eliminate it, that path is refused; the others are counted.
    odds = exact_odds(MELEE.prepare({"attacker": "A: highland leader=X",
                                     "defender": "B: regular blocks=2",
                                     "answers": {"take_ground": "advance",
                                                 "bonus_melee": "B"}}))
    labels = outcome_labels(odds)
    assert any("has left the field" in label for label in labels)
    assert any("has left the field" not in label for label in labels)
