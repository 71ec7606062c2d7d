"""The sheet's choices, asked of the player whose choice it is.

- Phase 13: "Cavalry not obligated to roll for recall may still choose to roll."
- Phase 5, fail by 1 or 2, charged by cavalry: "may form square on a 4+".
- Phase 10, pass: "Stand. May form square."
- Phases 7 and 12, fail by 1 or 2: "Opponent may make a free formation change."
"""

from __future__ import annotations

import pytest

from rules.core.decisions import Undecided
from rules.core.dice import ScriptedSource
from rules.le_baton.effects import EffectKind as E
from rules.le_baton.morale import Situation, resolve_morale
from rules.le_baton.units import Arm, Formation

from .helpers import dragoons, effects, foot, horse, ligne, outcomes, run, values


def asked(unit, phase, dice_text, **situation):
    with pytest.raises(Undecided) as stopped:
        run(resolve_morale, unit, phase, Situation(**situation), dice_text=dice_text)
    return stopped.value


def morale(unit, phase, dice_text, answers, **situation):
    return run(resolve_morale, unit, phase, Situation(**situation), dice_text=dice_text,
               answers=answers)


# --- phase 13 ----------------------------------------------------------------------------


def test_cavalry_not_obliged_to_roll_for_recall_is_asked_before_any_die():
    question = asked(dragoons(), 13, "").question
    assert (question.key, question.unit) == ("roll_recall", "Scots Greys")
    assert [a.key for a in question.answers] == ["roll", "stay"]


def test_not_rolling_for_recall_rolls_nothing_and_changes_nothing():
    result = morale(dragoons(), 13, "", "stay")
    assert effects(result) == [] and result.steps[0].rolls == ()
    assert result.headline == "Scots Greys does not roll for recall"


def test_choosing_to_roll_for_recall_rolls():
    result = morale(dragoons(), 13, "5", "roll")
    assert effects(result) == [(E.RECALLED, "Scots Greys", None)]


@pytest.mark.parametrize("obliged", [{"initiated_charge": True}, "charge_marker", "held",
                                     "recall_due"])
def test_cavalry_obliged_to_roll_is_not_asked(obliged):
    if isinstance(obliged, dict):
        result = run(resolve_morale, horse(), 13, Situation(**obliged), dice_text="5")
    else:
        result = run(resolve_morale, horse(**{obliged: True}), 13, Situation(),
                     dice_text="5")
    assert result.steps[0].rolls[0].dice == (5,)


# --- phase 5: may try for square ---------------------------------------------------------


def test_failing_to_stand_against_cavalry_asks_whether_to_try_for_square():
    stopped = asked(foot(), 5, "6", charged_by=Arm.CAVALRY, opponent="Cuirassiers")
    assert (stopped.question.key, stopped.question.by) == ("try_square", "defender")
    # The check is shown before the question.
    assert stopped.steps[-1].rolls[0].result == "fails by 1"


def test_not_trying_for_square_rolls_no_die_for_it():
    result = morale(foot(), 5, "6", "stay", charged_by=Arm.CAVALRY, opponent="Cuirassiers")
    assert (E.FORMATION, "2nd Foot", "square") not in values(result)
    assert "could have tried for square on a 4+ and did not" in outcomes(result)[0]


def test_trying_for_square_rolls_for_it():
    result = morale(foot(), 5, "6 4", "try", charged_by=Arm.CAVALRY, opponent="Cuirassiers")
    assert (E.FORMATION, "2nd Foot", "square") in values(result)


# --- phase 10: may form square -----------------------------------------------------------


def test_passing_in_phase_10_may_form_square():
    result = morale(ligne(), 10, "3", "square", charged_by=Arm.CAVALRY, opponent="Greys")
    # The cavalry comes on: the melee of phase 11 begins.
    assert values(result) == [(E.FORMATION, "45e Ligne", "square"),
                              (E.IN_MELEE, "Greys", "45e Ligne"),
                              (E.IN_MELEE, "45e Ligne", "Greys")]
    assert result.headline == "45e Ligne passes and forms square"


def test_a_square_or_cavalry_is_not_asked_about_square():
    result = run(resolve_morale, ligne(formation=Formation.SQUARE), 10,
                 Situation(charged_by=Arm.CAVALRY), dice_text="3")
    assert outcomes(result) == ["Stand. The charging cavalry moves into contact; fight in "
                                "phase 11."]


# --- phases 7 and 12: the opponent's free formation change --------------------------------


@pytest.mark.parametrize("phase", [7, 12])
def test_the_opponent_may_change_formation_for_free(phase):
    stopped = asked(ligne(), phase, "6", opponent="2nd Foot")
    assert (stopped.question.unit, stopped.question.by) == ("2nd Foot", "opponent")
    assert [a.key for a in stopped.question.answers] == [
        "none", "column", "line", "square", "skirmish"]
    result = morale(ligne(), phase, "6", "column", opponent="2nd Foot")
    assert (E.FORMATION, "2nd Foot", "column") in values(result)
    assert outcomes(result)[0].endswith("It forms column.")


def test_the_opponents_own_formation_is_no_change_to_offer():
    stopped = asked(ligne(), 7, "6", opponent="2nd Foot", opponent_formation=Formation.LINE)
    assert [a.key for a in stopped.question.answers] == ["none", "column", "square", "skirmish"]


def test_the_roster_gives_the_opponents_formation():
    from rules.core.engagements import Engagement
    from rules.core.roster import Roster, RosterUnit
    from rules.le_baton.commands import prepare

    roster = Roster((RosterUnit("45e Ligne", "French", {"nation": "french", "arm": "infantry",
                                                        "formation": "column"}, strength=9),
                     RosterUnit("2nd Foot", "British", {"nation": "british", "arm": "infantry",
                                                        "formation": "line"}, strength=9)),
                    engagements=(Engagement("melee", (("45e Ligne",), ("2nd Foot",)),
                                            {"lost": "45e Ligne", "test": 7}),))
    with pytest.raises(Undecided) as stopped:
        prepare("morale", {"unit": "45e Ligne", "phase": 7, "opponent": "2nd Foot"},
                roster)(ScriptedSource.from_text("6"))
    assert "line" not in [a.key for a in stopped.value.question.answers]


def test_no_question_when_the_opponent_is_unnamed_or_not_infantry():
    unnamed = run(resolve_morale, ligne(), 7, Situation(), dice_text="6")
    assert outcomes(unnamed)[0].endswith("may make a free formation change.")
    cavalry = run(resolve_morale, ligne(), 7,
                  Situation(opponent="Scots Greys", opponent_infantry=False), dice_text="6")
    assert outcomes(cavalry)[0].endswith("may make a free formation change.")


def test_a_unit_locked_in_a_firefight_is_offered_no_square():
    # "Locked in a firefight and cannot move, charge or change formation."
    stands = morale(ligne(firefight=True), 10, "3", "")
    assert outcomes(stands) == ["Stand; locked in a firefight, it may not form square."]
    assert (E.FORMATION, "45e Ligne", "square") not in values(stands)
    charged = morale(foot(firefight=True), 5, "6", "", charged_by=Arm.CAVALRY,
                     opponent="Lancers")
    assert outcomes(charged)[0].startswith("Stand, but may not change formation. ")
    # Not locked: both are asked.
    assert asked(ligne(), 10, "3").question.key == "form_square"
    assert asked(foot(), 5, "6", charged_by=Arm.CAVALRY,
                 opponent="Lancers").question.key == "try_square"
