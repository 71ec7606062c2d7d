"""Morale checks (d66, base-6 steps, pass above the morale), the shift die and fire."""

from __future__ import annotations

import pytest

from rules.core.dice import ScriptedSource
from rules.core.errors import InvalidInput
from rules.core.records import ResolutionBuilder
from rules.labataille.fire import FireBelowChart, fire, fire_column
from rules.labataille.morale import Check, morale_check, shift_count
from rules.labataille.published import FIRE_CHART
from rules.labataille.units import Arm, Formation, Order

from .helpers import pack, stack


def check(unit, rolled: str, kind: Check = Check.ATTACKER, charts=None, distance=True,
          out=None):
    return morale_check(unit, kind, ScriptedSource.from_text(rolled), charts,
                        out or ResolutionBuilder("labataille", "assault"), distance=distance)


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
    # The −3 is the infantry's (A.2): disordered cavalry takes none.
    cavalry = stack("C", state=Order.DISORDERED, arm=Arm.CAVALRY)
    assert check(cavalry, "36").roll.modifiers == ()


def test_a_chart_that_prints_the_state_counts_it_once_in_place_of_the_standing_modifier():
    from rules.labataille.charts import read_pack

    charts = read_pack({"provenance": "a player's charts",
                        "defender_morale": {"situations": {"disordered": -3, "routed": -9}},
                        "stand_morale": {"situations": {"disordered": -6}}})
    disordered = stack("D", state=Order.DISORDERED)
    # The Defender chart's "disordered −3" is the standing −3: 36 − 3 = 33, not 30.
    defending = check(disordered, "36", Check.DEFENDER, charts, distance=False)
    assert [(m.value, m.reason) for m in defending.roll.modifiers] == [(-3, "disordered")]
    assert defending.roll.total == 33
    # The Roll to Stand chart's −6 in its place: 36 − 6 = 26.
    assert check(disordered, "36", Check.STAND, charts, distance=False).roll.total == 26
    assert check(stack("D", state=Order.ROUTED), "36", Check.DEFENDER, charts,
                 distance=False).roll.total == 23  # −9 from the chart, not −6 − 9
    # A chart that does not print the state leaves the standing modifier.
    attacking = check(disordered, "36", Check.ATTACKER, charts, distance=False)
    assert [(m.value, m.reason) for m in attacking.roll.modifiers] == [
        (-3, "disordered infantry")]


def test_the_distance_modifier_comes_from_the_pack_and_not_for_locked_units():
    far = stack("A", distance=3)
    assert check(far, "45", charts=pack()).roll.total == 35  # 45 − 6 steps: 44 43 42 41 36 35
    assert check(far, "45", charts=pack(), distance=False).roll.notes == (
        "A: no distance modifier (locked in the firefight)",)
    out = ResolutionBuilder("labataille", "assault")
    bare = check(far, "45", out=out)
    assert bare.roll.total == 45
    assert bare.roll.notes == ("A: distance 3 has no modifier without a chart pack (give it "
                               "in `mod`)",)
    # Counted as none, and named with the result's project defaults (its footer).
    assert out.defaults == ["no distance modifier: A: distance 3 has no modifier without a "
                            "chart pack (give it in `mod`)"]
    counted = ResolutionBuilder("labataille", "assault")
    check(far, "45", charts=pack(), out=counted)
    assert counted.defaults == []


def test_a_squares_modifier_to_stand_no_chart_gives_is_named_with_the_defaults():
    out = ResolutionBuilder("labataille", "charge")
    check(stack("D", formation=Formation.SQUARE), "45", Check.STAND, distance=False, out=out)
    assert out.defaults == ["no square modifier to stand: none counted for D; give it in `mod` "
                            "(published charts: +12 at Talavera and most games, +6 in later "
                            "ones)"]


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


def test_fire_below_the_chart_reads_its_lowest_column_by_default_and_says_why():
    assert fire_column(2, 9) is None  # 2 against 9 is below 1:3
    shot = fire(stack("A", fire=2), stack("D", defence=9), False,
                ScriptedSource.from_text("65"))
    assert (shot.casualties, shot.roll.target) == (1, "1:3 (2:9)")
    assert ("odds below the chart: read on its lowest column, 1:3 (battle setting "
            "`fire_below_chart`: lowest, as the public La Bataille apps read it)"
            in shot.roll.notes)
    canister = fire(stack("Guns", fire=2), stack("D", defence=9), False,
                    ScriptedSource.from_text("62"), canister=True)
    assert (canister.casualties, canister.roll.target) == (1, "1:2 (2:9, canister)")


def test_fire_below_the_chart_has_no_effect_when_the_battle_reads_it_so():
    shot = fire(stack("A", fire=2), stack("D", defence=9), False, ScriptedSource([]),
                below=FireBelowChart.NONE)
    assert (shot.casualties, shot.roll) == (0, None)


@pytest.mark.parametrize(("rolled", "casualties"), [("12", 0), ("13", 1), ("53", 1),
                                                     ("54", 2), ("66", 2)])
def test_fire_casualties_read_on_the_column(rolled, casualties):
    # 18 doubled to 36 against 9: the 4:1 column (13-53: 1, 54-66: 2).
    shot = fire(stack("A", fire=18), stack("D", defence=9), True,
                ScriptedSource.from_text(rolled))
    assert shot.casualties == casualties
    assert shot.roll.target == "4:1 (36:9)"


def test_a_resolve_request_takes_the_fire_below_chart_setting():
    from rules.core.registry import resolve_request
    from rules.registry import RULESETS

    request = {"ruleset": "labataille", "procedure": "assault", "dice": "45 45 1 23",
               "attackers": [{"name": "A", "morale": 34, "melee": 4, "fire": 1,
                              "defence": 9, "increments": 2}],
               "defenders": [{"name": "D", "morale": 34, "melee": 12, "defence": 9,
                              "increments": 4}],
               "settings": {"fire_below_chart": "none"},
               "answers": {"chart_result": "AR"}}
    fired = [s for s in resolve_request(RULESETS, request).steps
             if s.title == "4. Offensive and Defensive Fire"]
    assert fired[0].outcome == ("A fires on D: odds below the chart, no effect (battle "
                                "setting `fire_below_chart`: none).")
    with pytest.raises(InvalidInput, match="settings: unknown field `fire_below`"):
        resolve_request(RULESETS, {**request, "settings": {"fire_below": "none"}})
