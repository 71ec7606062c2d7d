"""Every morale table: the quality numbers, the modifiers of each phase, who tests, and
phase 2 (artillery casualties)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.core.errors import NotAllowed
from rules.core.records import Severity
from rules.le_baton.effects import EffectKind as E
from rules.le_baton.morale import (
    MORALE_PHASES,
    Situation,
    resolve_morale,
    threshold_modifiers,
)
from rules.le_baton.units import Formation, Nation, Quality

from .helpers import AS_BEFORE, dragoons, effects, foot, guns, horse, ligne, run

# A unit that may test in each phase, with no phase modifier of its own.
TESTER = {
    2: foot(),
    4: ligne(formation=Formation.LINE),
    5: foot(),
    7: dragoons(),
    9: foot(),
    10: ligne(formation=Formation.LINE),
    12: horse(),
    13: horse(),
}


def check(unit, phase, face, **situation):
    return run(resolve_morale, unit, phase, Situation(**situation), dice_text=str(face),
               answers=AS_BEFORE)


def morale_roll(result):
    return result.steps[0].rolls[0]


def mods(unit, phase, **situation):
    return [(m.value, m.reason) for m in threshold_modifiers(unit, phase, Situation(**situation))]


# --- "Elite: 6 or less / Veteran: 5 or less / Conscript: 4 or less" -----------------------


@pytest.mark.parametrize("phase", MORALE_PHASES)
@pytest.mark.parametrize(("quality", "number"), [
    (Quality.VETERAN, 5), (Quality.CONSCRIPT, 4),
])
def test_pass_at_the_quality_number_fail_by_one_above_it(quality, number, phase):
    unit = replace(TESTER[phase], quality=quality)
    passed = check(unit, phase, number)
    assert morale_roll(passed).result == "passes"
    assert morale_roll(passed).target == f"{number} or less ({quality.value} {number})"
    failed = check(unit, phase, number + 1, opponent="Ligne")
    assert morale_roll(failed).result == "fails by 1"


@pytest.mark.parametrize("phase", MORALE_PHASES)
def test_elite_pass_on_a_six(phase):
    unit = replace(TESTER[phase], quality=Quality.ELITE)
    roll = morale_roll(check(unit, phase, 6))
    assert (roll.result, roll.target) == ("passes", "6 or less (elite 6)")


def test_elite_fail_once_a_modifier_lowers_their_number():
    roll = morale_roll(check(foot(quality=Quality.ELITE, casualties=3), 2, 6))
    assert (roll.target, roll.result) == ("5 or less (elite 6 −1 for 3 casualties (−1 per 3))",
                                          "fails by 1")


@pytest.mark.parametrize(("face", "result"), [(4, "passes"), (5, "fails by 1"),
                                              (6, "fails by 2")])
def test_fail_by_is_the_roll_minus_the_number(face, result):
    assert morale_roll(check(foot(quality=Quality.CONSCRIPT), 2, face)).result == result


def test_modifiers_change_the_number_not_the_roll():
    unit = foot(casualties=6, formation=Formation.COLUMN)  # 5 −2 −1 = 2
    roll = morale_roll(check(unit, 2, 5))
    assert roll.total == 5
    assert roll.result == "fails by 3"
    assert roll.target == ("2 or less (veteran 5 −2 for 6 casualties (−1 per 3) "
                           "−1 British infantry in column)")


# --- "-1 per 3 casualties" and "+1 General attached", in every table ---------------------


@pytest.mark.parametrize("phase", MORALE_PHASES)
@pytest.mark.parametrize(("casualties", "value"), [(0, 0), (2, 0), (3, -1), (5, -1), (6, -2),
                                                   (9, -3)])
def test_minus_one_per_three_casualties_rounding_down(casualties, value, phase):
    unit = replace(TESTER[phase], casualties=casualties)
    expected = [(value, f"for {casualties} casualties (−1 per 3)")] if value else []
    assert mods(unit, phase) == expected


@pytest.mark.parametrize("phase", MORALE_PHASES)
def test_general_attached_plus_one(phase):
    unit = replace(TESTER[phase], general=True)
    assert mods(unit, phase) == [(1, "general attached to unit")]
    # Veteran 5 + 1: a 6 passes.
    assert morale_roll(check(unit, phase, 6)).result == "passes"


# --- the modifiers printed in one phase's table only --------------------------------------

BRITISH_COLUMN = foot(formation=Formation.COLUMN)
FRENCH_COLUMN = ligne()
BRITISH_COLUMN_MOD = (-1, "British infantry in column")
CHARGING_MOD = (-1, "infantry charging")
FLANK_MOD = (-1, "charged in flank/rear")


PHASE_CASES = [
    # phase 2: "-1 per 3 casualties/ British infantry in column"
    (2, BRITISH_COLUMN, {}, [BRITISH_COLUMN_MOD]),
    (2, FRENCH_COLUMN, {}, []),
    (2, foot(), {}, []),
    # phase 4: "-1 Infantry Charging"
    (4, FRENCH_COLUMN, {"charging": True}, [CHARGING_MOD]),
    (4, FRENCH_COLUMN, {}, []),
    (4, horse(), {}, []),
    # phase 5: "- 1 Infantry in column", "-1 Charged in flank/rear"
    (5, BRITISH_COLUMN, {}, [(-1, "infantry in column")]),
    (5, foot(), {"flank_or_rear": True}, [FLANK_MOD]),
    (5, BRITISH_COLUMN, {"flank_or_rear": True}, [(-1, "infantry in column"), FLANK_MOD]),
    (5, foot(), {}, []),
    # phase 7: "- 1 British infantry in column"
    (7, BRITISH_COLUMN, {}, [BRITISH_COLUMN_MOD]),
    (7, FRENCH_COLUMN, {}, []),
    # phase 9: "- 1 Infantry Charging", "- 1 British infantry in column"
    (9, BRITISH_COLUMN, {"charging": True}, [BRITISH_COLUMN_MOD, CHARGING_MOD]),
    (9, foot(), {"charging": True}, [CHARGING_MOD]),
    (9, BRITISH_COLUMN, {}, [BRITISH_COLUMN_MOD]),
    (9, dragoons(), {}, []),
    # phase 10: "-1 Charged in flank/rear"
    (10, FRENCH_COLUMN, {"flank_or_rear": True}, [FLANK_MOD]),
    (10, FRENCH_COLUMN, {}, []),
    # phase 12: "-1 British infantry in column"
    (12, BRITISH_COLUMN, {}, [BRITISH_COLUMN_MOD]),
    (12, FRENCH_COLUMN, {}, []),
    # phase 13: only the casualties and the general
    (13, horse(), {"charging": True, "flank_or_rear": True}, []),
]


@pytest.mark.parametrize(("phase", "unit", "situation", "expected"), PHASE_CASES)
def test_phase_modifiers(phase, unit, situation, expected):
    assert mods(unit, phase, **situation) == expected


@pytest.mark.parametrize(("phase", "unit", "situation", "expected"),
                         [case for case in PHASE_CASES if case[3]])
def test_phase_modifiers_move_the_number_the_die_must_make(phase, unit, situation, expected):
    number = 5 + sum(value for value, _ in expected)
    reasons = " ".join(f"−1 {reason}" for _, reason in expected)
    passed = morale_roll(check(unit, phase, number, opponent="X", **situation))
    assert (passed.target, passed.result) == (f"{number} or less (veteran 5 {reasons})",
                                              "passes")
    failed = morale_roll(check(unit, phase, number + 1, opponent="X", **situation))
    assert failed.result == "fails by 1"


@pytest.mark.parametrize(("phase", "situation"), [
    (2, {"flank_or_rear": True, "charging": True}),
    (7, {"flank_or_rear": True, "charging": True}),
    (12, {"flank_or_rear": True, "charging": True}),
])
def test_flank_and_charging_count_only_where_printed(phase, situation):
    assert mods(foot(), phase, **situation) == []


def test_phase_9_charging_column_rolls_against_three():
    result = check(BRITISH_COLUMN, 9, 3, charging=True, opponent="45e Ligne")
    assert morale_roll(result).target == ("3 or less (veteran 5 −1 British infantry in column "
                                          "−1 infantry charging)")
    assert morale_roll(result).result == "passes"


# --- who tests ----------------------------------------------------------------------------


@pytest.mark.parametrize(("phase", "unit", "message"), [
    (4, foot(), "2nd Foot is British: phase 4 is for French units. Test it in phase 9."),
    (9, ligne(), "45e Ligne is French: phase 9 is for British units. Test it in phase 4."),
    (5, ligne(), "45e Ligne is French: phase 5 is for British units. Test it in phase 10."),
    (10, foot(), "2nd Foot is British: phase 10 is for French units. Test it in phase 5."),
    (5, dragoons(), "Scots Greys is cavalry: only infantry test to stand."),
    (10, horse(), "Chasseurs is cavalry: only infantry test to stand."),
    (5, guns(), "Battery is artillery: only infantry test to stand."),
    # In the other nation's phase too: not sent to a phase that refuses it again.
    (5, horse(), "Chasseurs is cavalry: only infantry test to stand."),
    (10, dragoons(), "Scots Greys is cavalry: only infantry test to stand."),
    (10, guns(), "Battery is artillery: only infantry test to stand."),
    (9, horse(charge_marker=True), "Chasseurs is charging cavalry: charging cavalry do not "
     "test."),
    (10, foot(in_melee=True), "2nd Foot is already in melee: infantry in melee do not test."),
    (5, foot(in_melee=True), "2nd Foot is already in melee: infantry in melee do not test."),
    (10, ligne(in_melee=True), "45e Ligne is already in melee: infantry in melee do not test."),
    (13, foot(), "2nd Foot is not cavalry: only cavalry roll for recall."),
    (13, guns(), "Battery is not cavalry: only cavalry roll for recall."),
    (7, guns(), "Battery is artillery: artillery does not test for losing a melee. "
     "Unsupported artillery is destroyed in the melee; supported, the unit supporting it "
     "fights and tests instead."),
    (12, guns(), "Battery is artillery: artillery does not test for losing a melee. "
     "Unsupported artillery is destroyed in the melee; supported, the unit supporting it "
     "fights and tests instead."),
])
def test_who_tests(phase, unit, message):
    with pytest.raises(NotAllowed) as error:
        check(unit, phase, 1)
    assert str(error.value) == message


@pytest.mark.parametrize(("phase", "unit"), [(4, horse()), (9, dragoons())])
def test_charging_cavalry_do_not_test(phase, unit):
    with pytest.raises(NotAllowed, match=f"{unit.name} is charging cavalry: charging cavalry "
                                         "do not test"):
        check(unit, phase, 1, charging=True)


@pytest.mark.parametrize(("phase", "unit"), [(4, horse(charge_marker=True)),
                                             (9, dragoons(charge_marker=True))])
def test_cavalry_with_this_turns_charge_marker_do_not_test(phase, unit):
    # In a battle the marker says it charged this turn: no `charging` needed.
    with pytest.raises(NotAllowed, match="charging cavalry do not test"):
        check(unit, phase, 1)
    # Held by a failed recall, its marker is an old charge's: it tests.
    assert check(replace(unit, held=True), phase, 1).procedure == "morale"


@pytest.mark.parametrize(("phase", "unit"), [(4, ligne(in_melee=True)),
                                             (9, foot(in_melee=True))])
def test_a_unit_in_melee_is_not_charging(phase, unit):
    # In melee as the charger or as the target alike: it is not closing for melee now.
    with pytest.raises(NotAllowed) as error:
        check(unit, phase, 1, charging=True)
    assert str(error.value) == (f"{unit.name} is in melee: a unit in melee does not charge. "
                                "A charge's closing check is rolled with `/charge`, before "
                                f"contact. Drop `charging` to test {unit.name} for shooting "
                                "casualties.")


# "Infantry Charges – May only charge if in column" (phase 3); "Infantry Square 0"" (phase
# 8); artillery never charges: `charging` on such a unit would take −1 for a charge it
# cannot make.
@pytest.mark.parametrize(("phase", "unit", "message"), [
    (4, ligne(formation=Formation.LINE),
     "45e Ligne is French infantry in line: French infantry may only charge in column. "
     "Drop `charging` to test 45e Ligne for shooting casualties, or give it in column."),
    (4, ligne(formation=None),
     "45e Ligne is French infantry with no formation given: French infantry may only charge "
     "in column. Drop `charging` to test 45e Ligne for shooting casualties, or give it in "
     "column."),
    # In square and in melee only as the target of a charge: it never charged.
    (4, ligne(name="Garde", formation=Formation.SQUARE, in_melee=True),
     "Garde is French infantry in square: French infantry may only charge in column. "
     "Drop `charging` to test Garde for shooting casualties, or give it in column."),
    (9, foot(formation=Formation.SQUARE),
     "2nd Foot is in square, which moves 0\": it cannot charge. Drop `charging` to test "
     "2nd Foot for shooting casualties."),
    # Units the charge paragraphs stop from moving: "locked in a firefight and cannot ...
    # charge"; "Halt. No movement this turn"; British infantry that did not roll its 6.
    (4, ligne(firefight=True), "45e Ligne is locked in a firefight and cannot charge. Drop "
     "`charging` to test 45e Ligne for shooting casualties."),
    (9, foot(halted=True), "2nd Foot is halted this turn: a failed morale check allows no "
     "movement. Drop `charging` to test 2nd Foot for shooting casualties."),
    (9, foot(charge_failed=True), "2nd Foot did not roll its 6 to charge this turn. Drop "
     "`charging` to test 2nd Foot for shooting casualties."),
    (9, guns(), "Battery is artillery: only infantry and cavalry charge. Drop `charging` to "
     "test Battery for shooting casualties."),
    (4, guns(nation=Nation.FRENCH), "Battery is artillery: only infantry and cavalry charge. "
     "Drop `charging` to test Battery for shooting casualties."),
    # In the other side's phase, it is sent to its own first: dropping `charging` would
    # only meet that refusal.
    (9, ligne(formation=Formation.LINE), "45e Ligne is French: phase 9 is for British units. "
     "Test it in phase 4."),
    (4, foot(formation=Formation.SQUARE), "2nd Foot is British: phase 4 is for French units. "
     "Test it in phase 9."),
])
def test_a_unit_that_cannot_charge_is_not_charging(phase, unit, message):
    with pytest.raises(NotAllowed) as error:
        check(unit, phase, 1, charging=True)
    assert str(error.value) == message


@pytest.mark.parametrize("phase", [1, 3, 6, 8, 11, 14])
def test_phases_without_a_check_are_refused(phase):
    with pytest.raises(NotAllowed) as error:
        check(foot(), phase, 1)
    assert str(error.value) == (f"Phase {phase} has no morale check. Checks are made in "
                                "phases 2, 4, 5, 7, 9, 10, 12, 13.")


@pytest.mark.parametrize(("phase", "unit"), [
    (2, foot()), (2, ligne()), (2, horse()), (2, guns()),
    (7, dragoons()), (12, ligne()), (4, guns(nation=Nation.FRENCH)), (9, guns()),
])
def test_every_arm_may_test_where_the_sheet_names_no_one(phase, unit):
    assert morale_roll(check(unit, phase, 1)).result == "passes"


# --- phase 2: check morale for artillery casualties ---------------------------------------


def test_phase_2_pass_carries_on():
    result = check(foot(), 2, 5)
    assert result.steps[0].title == "Phase 2: morale for artillery casualties"
    assert result.steps[0].outcome == "Carry on."
    assert result.headline == "2nd Foot passes"
    assert effects(result) == []


@pytest.mark.parametrize(("face", "by"), [(5, 1), (6, 2)])
def test_phase_2_fail_by_one_or_two_halts(face, by):
    result = check(ligne(quality=Quality.CONSCRIPT), 2, face)
    assert effects(result) == [(E.HALTED, "45e Ligne", None)]
    assert result.steps[0].outcome == "Halt. No movement this turn."
    assert result.headline == f"45e Ligne fails by {by}: halts"
    assert result.severity is Severity.MINOR


def test_phase_2_british_infantry_may_instead_retire_6_inches():
    result = check(foot(), 2, 6)
    assert effects(result) == [(E.HALTED, "2nd Foot", None)]
    assert result.steps[0].outcome == (
        "Halt. No movement this turn. As British infantry it may instead immediately retire "
        "up to 6\", change formation and make no further movement this turn.")
    # The player's choice, said with the result, not only in the steps.
    assert result.headline == "2nd Foot fails by 1: halts, or may retire up to 6\""


@pytest.mark.parametrize("unit", [dragoons(), guns()])
def test_phase_2_other_british_units_only_halt(unit):
    assert check(unit, 2, 6).steps[0].outcome == "Halt. No movement this turn."
    assert check(unit, 2, 6).headline.endswith(": halts")


def test_phase_2_fail_by_three_routs():
    result = check(foot(quality=Quality.CONSCRIPT, casualties=3), 2, 6)
    assert effects(result) == [(E.ROUTED, "2nd Foot", None)]
    assert result.steps[0].outcome == "Rout. Remove the unit from the game."
    assert result.headline == "2nd Foot fails by 3: routs, removed"
    assert result.severity is Severity.DECISIVE


@pytest.mark.parametrize("phase", [p for p in MORALE_PHASES if p != 13])
def test_fail_by_3_routs_in_every_morale_phase(phase):
    unit = replace(TESTER[phase], quality=Quality.CONSCRIPT, casualties=3)
    result = check(unit, phase, 6, opponent="X")
    assert effects(result) == [(E.ROUTED, unit.name, None)]
    assert result.headline == f"{unit.name} fails by 3: routs, removed"


@pytest.mark.parametrize(("charged_by", "charger"), [("cavalry", "cavalry"),
                                                     ("infantry", "infantry"), (None, "unit")])
def test_phase_10_says_which_charging_unit_moves_into_contact(charged_by, charger):
    from rules.le_baton.units import Arm

    arm = Arm(charged_by) if charged_by else None
    result = check(ligne(formation=Formation.LINE), 10, 6, charged_by=arm, opponent="52nd")
    assert f"The charging British {charger} moves into contact." in result.steps[0].outcome
