"""Phases 4 and 9: morale for shooting casualties and to close for melee."""

from __future__ import annotations

import pytest

from rules.core.records import Severity
from rules.le_baton.effects import EffectKind as E
from rules.le_baton.morale import Situation, resolve_morale
from rules.le_baton.units import Formation, Nation, Quality

from .helpers import dragoons, effects, foot, guns, horse, ligne, outcomes, run, values


def check(unit, phase, dice_text, **situation):
    return run(resolve_morale, unit, phase, Situation(**situation), dice_text=dice_text)


# --- phase 4: French --------------------------------------------------------------------


def test_phase_4_pass_en_avant():
    result = check(ligne(), 4, "4", charging=True, opponent="2nd Foot")
    assert result.steps[0].title == ("Phase 4: French morale for shooting casualties and to "
                                     "close for melee")
    assert outcomes(result) == ["En avant! Continue to phase 5."]
    assert result.headline == "45e Ligne passes"
    assert effects(result) == []


@pytest.mark.parametrize("face", [5, 6])
def test_phase_4_charging_column_failing_by_1_or_2_forms_line_2_inches_from_the_target(face):
    # veteran 5 −1 infantry charging = 4
    result = check(ligne(), 4, str(face), charging=True, opponent="2nd Foot")
    assert values(result) == [(E.FORMATION, "45e Ligne", "line"),
                              (E.PLACED, "45e Ligne", "from 2nd Foot")]
    assert effects(result)[1] == (E.PLACED, "45e Ligne", 2)
    assert outcomes(result) == ["The charging column forms line 2\" from 2nd Foot: no melee."]
    assert result.headline == "45e Ligne fails to close: forms line 2\" short"
    assert result.severity is Severity.MINOR


def test_phase_4_charging_column_unable_to_form_line_takes_d6_casualties():
    result = check(ligne(), 4, "6 4", charging=True, opponent="2nd Foot",
                   cannot_form_line=True)
    assert effects(result) == [(E.CASUALTIES, "45e Ligne", 4)]
    assert outcomes(result) == [
        "The charging column must form line 2\" from 2nd Foot but cannot.",
        "45e Ligne takes 4 casualties."]
    assert result.steps[1].title == "Unable to form line"
    assert result.steps[1].rolls[0].kind == "1d6"
    assert result.severity is Severity.MAJOR


def test_phase_4_d6_casualties_that_take_the_last_figure_destroy_the_column():
    result = check(ligne(figures=1), 4, "6 4", charging=True, opponent="2nd Foot",
                   cannot_form_line=True)
    assert effects(result) == [(E.CASUALTIES, "45e Ligne", 1), (E.DESTROYED, "45e Ligne", None)]
    assert outcomes(result)[1] == "45e Ligne takes 1 casualty, its last figure: it is destroyed."
    assert result.headline == "45e Ligne fails to close and cannot form line, destroyed"
    assert result.severity is Severity.DECISIVE


@pytest.mark.parametrize("unit", [
    ligne(formation=Formation.LINE, quality=Quality.CONSCRIPT),
    ligne(quality=Quality.CONSCRIPT),
    horse(quality=Quality.CONSCRIPT),
    guns(nation=Nation.FRENCH, quality=Quality.CONSCRIPT),
], ids=["line", "column not charging", "cavalry", "artillery"])
def test_phase_4_others_failing_by_1_or_2_pass(unit):
    result = check(unit, 4, "6")
    assert outcomes(result) == ["Fail by 1 or 2: only charging infantry columns are affected; "
                                "others pass."]
    assert result.headline == f"{unit.name} fails by 2: carries on"
    assert effects(result) == []
    assert result.severity is Severity.NONE


def test_phase_4_fail_by_3_routs_even_when_charging():
    result = check(ligne(quality=Quality.CONSCRIPT), 4, "6", charging=True)
    assert effects(result) == [(E.ROUTED, "45e Ligne", None)]


# --- phase 9: British -------------------------------------------------------------------


def test_phase_9_pass_charge_or_carry_on():
    result = check(foot(), 9, "4", charging=True, opponent="45e Ligne")
    assert result.steps[0].title == ("Phase 9: British morale for shooting casualties and to "
                                     "close for melee")
    assert outcomes(result) == ["Charge! (Or carry on.)"]
    assert effects(result) == []


@pytest.mark.parametrize("face", [5, 6])
def test_phase_9_charging_british_infantry_failing_stop_2_inches_from_the_target(face):
    result = check(foot(), 9, str(face), charging=True, opponent="45e Ligne")
    assert values(result) == [(E.PLACED, "2nd Foot", "from 45e Ligne")]
    assert effects(result) == [(E.PLACED, "2nd Foot", 2)]
    assert outcomes(result) == ["British infantry remain in place: the charge stops 2\" from "
                                "45e Ligne."]
    assert result.headline == "2nd Foot fails to close: halts 2\" short"


def test_phase_9_british_infantry_not_charging_remain_in_place():
    result = check(foot(), 9, "6")
    assert outcomes(result) == ["British infantry remain in place."]
    # The sheet's words, as the outcome says them: "British infantry remain in place".
    assert result.headline == "2nd Foot fails by 1: remains in place"
    assert effects(result) == []


def test_phase_9_british_cavalry_stand_still():
    result = check(dragoons(), 9, "6")
    assert outcomes(result) == ["British cavalry stand still."]
    assert result.headline == "Scots Greys fails by 1: stands still"
    assert effects(result) == []


def test_phase_9_british_column_charging_fails_by_3_on_a_6():
    # 5 −1 column −1 charging = 3
    result = check(foot(formation=Formation.COLUMN), 9, "6", charging=True)
    assert effects(result) == [(E.ROUTED, "2nd Foot", None)]
    assert result.headline == "2nd Foot fails by 3: routs, removed"
