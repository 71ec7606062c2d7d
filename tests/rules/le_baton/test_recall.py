"""Phase 13: recall cavalry."""

from __future__ import annotations

import pytest

from rules.core.records import Severity
from rules.le_baton.effects import EffectKind as E
from rules.le_baton.morale import Situation, resolve_morale
from rules.le_baton.units import Quality

from .helpers import AS_BEFORE, dragoons, effects, horse, outcomes, run


def recall(unit, dice_text, **situation):
    return run(resolve_morale, unit, 13, Situation(**situation), dice_text=dice_text,
               answers=AS_BEFORE)


def test_pass_after_initiating_the_charge_goes_back_to_its_start():
    result = recall(horse(in_melee=True), "5", initiated_charge=True)
    assert result.procedure == "recall"
    assert result.steps[0].title == "Phase 13: cavalry recall"
    assert effects(result) == [(E.RECALLED, "Chasseurs", None),
                               (E.MELEE_ENDS, "Chasseurs", None)]
    # Out of no melee: only recalled.
    assert effects(recall(horse(), "5", initiated_charge=True)) == [
        (E.RECALLED, "Chasseurs", None)]
    assert outcomes(result) == ["The cavalry unit is picked up and placed at the spot where it "
                                "began the charge, in its original formation and facing."]
    assert result.headline == "Chasseurs is recalled to its start"
    assert result.steps[0].rolls[0].label == "Chasseurs recall"  # not "morale": phase 13's


def test_pass_without_having_initiated_the_charge_remains_in_place():
    result = recall(dragoons(), "5")
    assert effects(result) == [(E.RECALLED, "Scots Greys", None)]
    assert outcomes(result) == ["It did not initiate the charge: it remains in place."]
    assert result.headline == "Scots Greys is recalled and remains in place"


@pytest.mark.parametrize(("quality", "face"), [(Quality.CONSCRIPT, 5), (Quality.VETERAN, 6),
                                               (Quality.CONSCRIPT, 6)])
def test_fail_takes_one_casualty_and_is_held(quality, face):
    result = recall(horse(quality=quality), str(face), initiated_charge=True)
    assert effects(result) == [(E.CASUALTIES, "Chasseurs", 1), (E.HELD, "Chasseurs", None)]
    assert outcomes(result) == [
        "The cavalry take one casualty. Next turn they cannot move, but may fight if charged "
        "or continuing a melee from phase 11. They roll again to recall in phase 13 next turn."]
    assert result.headline == "Chasseurs fails recall: 1 casualty, held"
    assert result.severity is Severity.MAJOR


def test_a_failed_recall_that_takes_the_last_figure_destroys_the_unit():
    # Its last figure lost, the unit is gone: it is not held to roll again next turn.
    result = recall(horse(figures=1, held=True, charge_marker=True), "6",
                    initiated_charge=True)
    assert effects(result) == [(E.CASUALTIES, "Chasseurs", 1), (E.DESTROYED, "Chasseurs", None)]
    assert result.headline == "Chasseurs fails recall: 1 casualty, destroyed"
    assert result.severity is Severity.DECISIVE
    # Figures not given: the casualty alone, as before.
    assert effects(recall(horse(figures=0), "6", initiated_charge=True)) == [
        (E.CASUALTIES, "Chasseurs", 1), (E.HELD, "Chasseurs", None)]


def test_there_is_no_rout_on_a_recall():
    result = recall(horse(quality=Quality.CONSCRIPT, casualties=6), "6")  # fails by 4
    assert result.steps[0].rolls[0].result == "fails by 4"
    assert effects(result) == [(E.CASUALTIES, "Chasseurs", 1), (E.HELD, "Chasseurs", None)]


def test_only_casualties_and_a_general_change_the_number():
    result = recall(horse(casualties=3, general=True), "5")
    assert result.steps[0].rolls[0].target == (
        "5 or less (veteran 5 −1 for 3 casualties (−1 per 3) +1 general attached to unit)")
    assert result.steps[0].rolls[0].result == "passes"


def test_elite_cavalry_always_recall():
    assert recall(horse(quality=Quality.ELITE), "6").steps[0].rolls[0].result == "passes"
