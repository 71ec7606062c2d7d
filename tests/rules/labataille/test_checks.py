"""Morale checks (d66, base-6 steps, pass above the morale), the shift die and fire."""

from __future__ import annotations

import pytest

from rules.core.dice import ScriptedSource
from rules.labataille.fire import fire, fire_column
from rules.labataille.morale import Check, morale_check, shift_count
from rules.labataille.published import FIRE_CHART
from rules.labataille.units import Formation, Order

from .helpers import pack, stack


def check(unit, rolled: str, kind: Check = Check.ATTACKER, charts=None, distance=True):
    return morale_check(unit, kind, ScriptedSource.from_text(rolled), charts,
                        distance=distance)


@pytest.mark.parametrize(("rolled", "passed"), [("35", True), ("34", False), ("11", False),
                                                 ("66", True)])
def test_a_check_passes_when_the_roll_exceeds_the_morale(rolled, passed):
    outcome = check(stack("A", morale=34), rolled)
    assert outcome.passed is passed
    assert outcome.roll.target == "> 34"


def test_modifiers_step_through_the_36_results():
    outcome = check(stack("A", morale=51, leader="Ney", leader_value=4), "43")
    assert outcome.roll.total == 51  # 43 + 4 = 51: not above 51
    assert not outcome.passed
    assert [(m.value, m.reason) for m in outcome.roll.modifiers] == [(4, "Ney")]


def test_disordered_infantry_check_at_minus_3_and_routed_at_minus_6():
    assert check(stack("A", state=Order.DISORDERED), "36").roll.total == 33
    assert check(stack("A", state=Order.ROUTED), "36").roll.total == 26


def test_the_distance_modifier_comes_from_the_pack_and_not_for_locked_units():
    far = stack("A", distance=3)
    assert check(far, "45", charts=pack()).roll.total == 35  # 45 − 6 steps: 44 43 42 41 36 35
    assert check(far, "45", charts=pack(), distance=False).roll.notes == (
        "A: no distance modifier (locked in the firefight)",)
    bare = check(far, "45")
    assert bare.roll.total == 45
    assert bare.roll.notes == ("A: distance 3 has no modifier without a chart pack (give it "
                               "in `mod`)",)


def test_pack_situations_and_given_modifiers():
    line = check(stack("A", formation=Formation.LINE, mod=2), "45", charts=pack())
    assert [(m.value, m.reason) for m in line.roll.modifiers] == [
        (-3, "line"), (2, "chart modifiers (given)")]
    square = check(stack("D", formation=Formation.SQUARE), "45", Check.DEFENDER, pack())
    assert square.roll.total == 55


@pytest.mark.parametrize(("face", "shifts"), [(1, 0), (2, 0), (3, 1), (4, 1), (5, 2), (6, 2)])
def test_the_defenders_shift_die(face, shifts):
    assert shift_count(face) == shifts


@pytest.mark.parametrize(("strength", "defence", "shift", "column"), [
    (12, 9, 0, "1:1"), (9, 9, 0, "1:1"), (8, 9, 0, "1:1.5"), (3, 9, 0, "1:3"),
    (36, 9, 0, "4:1"), (12, 9, 2, "2:1"), (200, 9, 0, "10:1"), (99, 9, 2, "10:1"),
])
def test_fire_odds_round_down_to_a_column(strength, defence, shift, column):
    assert FIRE_CHART[fire_column(strength, defence, shift)][0] == column


def test_fire_below_the_chart_has_no_effect():
    assert fire_column(2, 9) is None
    shot = fire(stack("A", fire=2), stack("D", defence=9), False, ScriptedSource([]))
    assert (shot.casualties, shot.roll) == (0, None)


@pytest.mark.parametrize(("rolled", "casualties"), [("12", 0), ("13", 1), ("53", 1),
                                                     ("54", 2), ("66", 2)])
def test_fire_casualties_read_on_the_column(rolled, casualties):
    # 18 doubled to 36 against 9: the 4:1 column (13-53: 1, 54-66: 2).
    shot = fire(stack("A", fire=18), stack("D", defence=9), True,
                ScriptedSource.from_text(rolled))
    assert shot.casualties == casualties
    assert shot.roll.target == "4:1 column (36 against 9)"
