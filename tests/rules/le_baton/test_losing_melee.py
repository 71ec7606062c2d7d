"""Phases 7 and 12: morale for losing melees (phase 12 repeats phase 7, continuing in
phase 6 next turn instead of phase 11)."""

from __future__ import annotations

import pytest

from rules.core.records import Severity
from rules.le_baton.effects import EffectKind as E
from rules.le_baton.morale import Situation, resolve_morale
from rules.le_baton.units import Formation, Quality

from .helpers import AS_BEFORE, dragoons, effects, foot, horse, ligne, outcomes, run, values

NEXT_FIGHT = {7: "in phase 11", 12: "next turn in phase 6"}
CONTINUES = {7: 11, 12: 6}
BOTH = pytest.mark.parametrize("phase", [7, 12])


def lose(unit, phase, dice_text, **situation):
    situation.setdefault("opponent", "Victors")
    return run(resolve_morale, unit, phase, Situation(**situation), dice_text=dice_text,
               answers=AS_BEFORE)


@BOTH
def test_pass_the_units_continue_to_fight(phase):
    result = lose(foot(), phase, "5")
    assert result.steps[0].title == f"Phase {phase}: morale for losing melees"
    assert outcomes(result) == [f"The units continue to fight {NEXT_FIGHT[phase]}."]
    assert effects(result) == []


def test_phase_12_pass_cavalry_that_charged_this_turn_still_rolls_for_recall():
    result = lose(dragoons(), 12, "5", initiated_charge=True)
    assert outcomes(result) == ["The units continue to fight next turn in phase 6. The "
                                "cavalry rolls for recall in phase 13 this turn."]
    # As when it fails, the recall the player must not forget leads the reply.
    assert result.headline == "Scots Greys passes; recall in phase 13"


@BOTH
@pytest.mark.parametrize("formation", [Formation.COLUMN, Formation.SQUARE, None])
def test_fail_by_1_or_2_infantry_not_in_line_form_line_2_inches_back(phase, formation):
    result = lose(ligne(formation=formation), phase, "6")
    assert values(result) == [(E.FORMATION, "45e Ligne", "line"),
                              (E.PLACED, "45e Ligne", "back from Victors"),
                              (E.MELEE_ENDS, "45e Ligne", None)]
    assert effects(result)[1] == (E.PLACED, "45e Ligne", 2)
    assert outcomes(result) == ["Infantry not in line form line 2\" back from the enemy. "
                                "Victors may make a free formation change. It keeps its "
                                "formation."]
    assert result.headline == "45e Ligne fails by 1: falls back into line"
    assert result.severity is Severity.MAJOR


@BOTH
@pytest.mark.parametrize("inches", [1, 6])
def test_fail_by_1_or_2_already_in_line_retires_d6_inches_and_the_winner_follows_up(
        phase, inches):
    result = lose(foot(quality=Quality.CONSCRIPT), phase, f"6 {inches}")
    assert effects(result) == [(E.RETIRE, "2nd Foot", inches), (E.FOLLOW_UP, "Victors", None)]
    assert outcomes(result) == [
        f"Already in line: it retires d6\" and the winner follows up; fighting continues in "
        f"phase {CONTINUES[phase]}.",
        f"2nd Foot retires {inches}\"; Victors follows up.",
    ]
    assert result.steps[1].rolls[0].kind == "1d6"
    assert result.headline == "2nd Foot fails by 2: retires, melee goes on"


@BOTH
def test_fail_by_1_or_2_unable_to_form_line_takes_d6_casualties(phase):
    result = lose(foot(formation=Formation.COLUMN), phase, "5 3", cannot_form_line=True)
    assert effects(result) == [(E.CASUALTIES, "2nd Foot", 3)]
    assert outcomes(result) == ["It must form line 2\" back from the enemy but cannot.",
                                "2nd Foot takes 3 casualties."]
    assert result.steps[1].title == "Unable to form line"


@BOTH
def test_d6_casualties_that_take_the_last_figures_destroy_the_unit(phase):
    """A unit that loses its last figure is destroyed, as by fire or in a melee: the d6 is
    cut to the figures it has."""
    result = lose(foot(formation=Formation.COLUMN, figures=2), phase, "5 3",
                  cannot_form_line=True)
    assert effects(result) == [(E.CASUALTIES, "2nd Foot", 2), (E.DESTROYED, "2nd Foot", None)]
    assert outcomes(result)[1] == "2nd Foot takes 2 casualties, its last figures: it is " \
        "destroyed."
    assert result.headline == "2nd Foot fails by 1: cannot form line, destroyed"
    assert result.severity is Severity.DECISIVE


def test_phase_7_cavalry_failing_remain_in_place_and_fight_in_phase_11():
    result = lose(horse(), 7, "6")
    assert outcomes(result) == ["Cavalry remains in place and fights in phase 11."]
    assert effects(result) == []
    assert result.headline == "Chasseurs fails by 1: remains in place"


@BOTH
def test_cavalry_that_initiated_a_charge_remain_in_place_and_roll_for_recall(phase):
    unit = horse() if phase == 7 else dragoons()
    result = lose(unit, phase, "6", initiated_charge=True)
    fight = " and fights in phase 11" if phase == 7 else ""
    assert outcomes(result) == [f"Cavalry remains in place{fight}. It rolls for recall in "
                                "phase 13."]
    assert effects(result) == []
    # What the player must not forget leads the reply.
    assert result.headline.endswith(": remains in place; recall in phase 13")


def test_phase_12_cavalry_that_did_not_charge_just_remain_in_place():
    assert outcomes(lose(dragoons(), 12, "6")) == ["Cavalry remains in place."]


@BOTH
def test_british_infantry_in_column_test_one_lower(phase):
    result = lose(foot(formation=Formation.COLUMN), phase, "5")
    roll = result.steps[0].rolls[0]
    assert roll.target == "4 or less (veteran 5 −1 British infantry in column)"
    assert roll.result == "fails by 1"


@BOTH
def test_fail_by_3_routs(phase):
    result = lose(foot(quality=Quality.CONSCRIPT, casualties=3), phase, "6")
    assert effects(result) == [(E.ROUTED, "2nd Foot", None)]
    assert outcomes(result) == ["Rout. Remove the unit from the game."]
