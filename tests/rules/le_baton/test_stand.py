"""Phases 5 and 10: infantry check morale to stand for melee.

Phase 5 is damaged on the sheet; it is read as the mirror of phase 10 plus the British
exceptions (docs/le-baton.md)."""

from __future__ import annotations

import pytest

from rules.core.records import Severity
from rules.le_baton.effects import EffectKind as E
from rules.le_baton.morale import Situation, resolve_morale
from rules.le_baton.units import Arm, Formation, Quality

from .helpers import AS_BEFORE, effects, foot, ligne, outcomes, run, values


def stand(unit, phase, dice_text, charged_by, **situation):
    situation.setdefault("opponent", "45e Ligne" if phase == 5 else "2nd Foot")
    return run(resolve_morale, unit, phase, Situation(charged_by=charged_by, **situation),
               dice_text=dice_text, answers=AS_BEFORE)


# The charger comes into contact: it is named first, as in "45e Ligne contacts 2nd Foot".
LOCKED_5 = [(E.IN_MELEE, "45e Ligne", "2nd Foot"), (E.IN_MELEE, "2nd Foot", "45e Ligne")]
LOCKED_10 = [(E.IN_MELEE, "2nd Foot", "45e Ligne"), (E.IN_MELEE, "45e Ligne", "2nd Foot")]


# --- phase 5: British infantry ------------------------------------------------------------


def test_phase_5_pass_places_the_charging_french_infantry_2_inches_away():
    result = stand(foot(), 5, "5", Arm.INFANTRY)
    assert result.steps[0].title == "Phase 5: British infantry morale to stand for melee"
    assert values(result) == [(E.PLACED, "45e Ligne", "from 2nd Foot")]
    assert effects(result) == [(E.PLACED, "45e Ligne", 2)]
    assert outcomes(result) == ["Stand. The charging French infantry (45e Ligne) are placed "
                                "2\" away in their current formation: no melee."]
    assert result.headline == "2nd Foot stands: the charge stops 2\" short"
    assert result.severity is Severity.NONE


@pytest.mark.parametrize("formation", [Formation.LINE, Formation.COLUMN])
def test_phase_5_pass_charged_by_cavalry_forms_square_immediately(formation):
    result = stand(foot(formation=formation), 5, "4", Arm.CAVALRY, opponent="Lancers")
    # "Fight in phase 6": the cavalry's contact is made, the melee begins.
    assert values(result) == [(E.FORMATION, "2nd Foot", "square"), *LANCERS_IN_CONTACT]
    assert outcomes(result) == ["Stand. Charged by cavalry, the British infantry form square "
                                "immediately; fight in phase 6."]
    assert result.headline == "2nd Foot stands and forms square"


LANCERS_IN_CONTACT = [(E.IN_MELEE, "Lancers", "2nd Foot"), (E.IN_MELEE, "2nd Foot", "Lancers")]


def test_phase_5_pass_already_in_square_stands_and_fights():
    result = stand(foot(formation=Formation.SQUARE), 5, "5", Arm.CAVALRY, opponent="Lancers")
    assert values(result) == LANCERS_IN_CONTACT
    assert outcomes(result) == ["Stand, in square; fight in phase 6."]
    assert result.headline == "2nd Foot stands in square"


def test_phase_5_pass_locked_in_a_firefight_forms_no_square():
    # "Opposing lines of infantry ... are locked in a firefight and cannot move, charge or
    # change formation."
    result = stand(foot(formation=Formation.LINE, firefight=True), 5, "4", Arm.CAVALRY,
                   opponent="Lancers")
    assert values(result) == LANCERS_IN_CONTACT
    assert outcomes(result) == ["Stand. Locked in a firefight, it cannot change formation: it "
                                "meets the cavalry as it is; fight in phase 6."]
    assert result.headline == "2nd Foot stands, locked in its firefight: no square"
    # The reading decides the melee to come: the reply names it.
    assert result.defaults == ("no square in a firefight: 2nd Foot is locked in a firefight, "
                               "and lines so locked cannot change formation",)
    failed = stand(foot(formation=Formation.LINE, firefight=True), 5, "6", Arm.CAVALRY,
                   opponent="Lancers")
    assert failed.defaults == result.defaults


def test_phase_5_fail_by_1_stands_and_the_charger_moves_into_contact():
    result = stand(foot(), 5, "6", Arm.INFANTRY)
    assert values(result) == LOCKED_5
    assert outcomes(result) == ["Stand, but may not change formation. The charging unit moves "
                                "into contact; fight in phase 6."]
    assert result.headline == "2nd Foot stands: melee in phase 6"
    assert result.severity is Severity.MINOR


def test_phase_5_fail_by_2_is_the_same_as_fail_by_1():
    result = stand(foot(quality=Quality.CONSCRIPT), 5, "6", Arm.INFANTRY)
    assert result.steps[0].rolls[0].result == "fails by 2"
    assert values(result) == LOCKED_5


@pytest.mark.parametrize("square_roll", [4, 5, 6])
def test_phase_5_fail_charged_by_cavalry_forms_square_on_a_4_or_more(square_roll):
    result = stand(foot(), 5, f"6 {square_roll}", Arm.CAVALRY, opponent="Lancers")
    assert values(result) == [(E.FORMATION, "2nd Foot", "square"),
                              (E.IN_MELEE, "Lancers", "2nd Foot"),
                              (E.IN_MELEE, "2nd Foot", "Lancers")]
    assert result.steps[1].title == "Form square (4+)"
    assert result.steps[1].rolls[0].result == "formed"
    assert outcomes(result)[0] == (
        "Stand, but may not change formation except that, charged by cavalry, it may form "
        "square on a 4+: it does. The charging unit moves into contact; fight in phase 6.")


@pytest.mark.parametrize("square_roll", [1, 2, 3])
def test_phase_5_fail_charged_by_cavalry_does_not_form_square_below_4(square_roll):
    result = stand(foot(formation=Formation.COLUMN), 5, f"5 {square_roll}", Arm.CAVALRY,
                   opponent="Lancers")
    assert values(result) == [(E.IN_MELEE, "Lancers", "2nd Foot"),
                              (E.IN_MELEE, "2nd Foot", "Lancers")]
    # The roll is the try, not a square formed: its label does not contradict its result.
    assert (result.steps[1].rolls[0].label, result.steps[1].rolls[0].result) == (
        "2nd Foot tries for square", "not formed")
    assert "it may form square on a 4+: it does not." in outcomes(result)[0]


def test_phase_5_fail_already_in_square_rolls_nothing_more():
    result = stand(foot(formation=Formation.SQUARE), 5, "6", Arm.CAVALRY, opponent="Lancers")
    assert values(result) == [(E.IN_MELEE, "Lancers", "2nd Foot"),
                              (E.IN_MELEE, "2nd Foot", "Lancers")]


def test_phase_5_fail_by_3_routs():
    result = stand(foot(formation=Formation.COLUMN), 5, "6", Arm.CAVALRY,
                   flank_or_rear=True)  # 5 −1 column −1 flank = 3
    assert effects(result) == [(E.ROUTED, "2nd Foot", None)]
    assert outcomes(result) == ["Rout. Remove the unit from the game."]


# --- phase 10: French infantry ------------------------------------------------------------


def test_phase_10_pass_places_the_charging_british_infantry_2_inches_away():
    result = stand(ligne(), 10, "5", Arm.INFANTRY)
    assert result.steps[0].title == "Phase 10: French infantry morale to stand for melee"
    assert values(result) == [(E.PLACED, "2nd Foot", "from 45e Ligne")]
    assert effects(result) == [(E.PLACED, "2nd Foot", 2)]
    assert outcomes(result) == ["Stand; it may form square and does not. The charging "
                                "British infantry (2nd Foot) are placed 2\" away: no melee."]


def test_phase_10_pass_against_cavalry_may_form_square():
    result = stand(ligne(), 10, "5", Arm.CAVALRY, opponent="Scots Greys")
    assert outcomes(result) == ["Stand; it may form square and does not. The charging cavalry "
                                "moves into contact; fight in phase 11."]
    assert values(result) == [(E.IN_MELEE, "Scots Greys", "45e Ligne"),
                              (E.IN_MELEE, "45e Ligne", "Scots Greys")]
    assert result.headline == "45e Ligne passes"


@pytest.mark.parametrize(("quality", "charged_by"), [
    (Quality.VETERAN, Arm.INFANTRY), (Quality.CONSCRIPT, Arm.INFANTRY),
    (Quality.VETERAN, Arm.CAVALRY),
])
def test_phase_10_fail_by_1_or_2_stands_without_changing_formation(quality, charged_by):
    # The square on a 4+ is a British exception: the French roll nothing more.
    result = stand(ligne(quality=quality), 10, "6", charged_by)
    assert values(result) == LOCKED_10
    assert outcomes(result) == ["Stand. May not change formation. The charging British "
                                f"{charged_by.value} moves into contact. Fight in phase 11."]
    assert result.headline == "45e Ligne stands: melee in phase 11"


def test_phase_10_charged_in_flank_fails_by_3_and_routs():
    result = stand(ligne(quality=Quality.CONSCRIPT), 10, "6", Arm.INFANTRY,
                   flank_or_rear=True)
    assert effects(result) == [(E.ROUTED, "45e Ligne", None)]
    assert result.headline == "45e Ligne fails by 3: routs, removed"
