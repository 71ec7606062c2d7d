"""Charges in phases 3 and 8, through the closing check (4 or 9) and the check to stand
(5 or 10) up to contact."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.core.errors import NotAllowed
from rules.core.records import Severity
from rules.le_baton.charge import ChargeSituation, resolve_charge
from rules.le_baton.effects import EffectKind as E
from rules.le_baton.units import Formation, Horse, Nation, Quality

from .helpers import (
    AS_BEFORE,
    dragoons,
    effects,
    foot,
    guns,
    horse,
    ligne,
    outcomes,
    run,
    titles,
    values,
)


def charge(charger, target, dice_text, **situation):
    return run(resolve_charge, charger, target, ChargeSituation(**situation),
               dice_text=dice_text, answers=AS_BEFORE)


def refused(charger, target, **situation):
    with pytest.raises(NotAllowed) as error:
        charge(charger, target, "", **situation)
    return str(error.value)


# --- who may charge whom ----------------------------------------------------------------


def test_french_infantry_may_only_charge_in_column():
    for formation in (Formation.LINE, Formation.SQUARE, Formation.SKIRMISH):
        assert refused(ligne(formation=formation), foot()) == (
            f"45e Ligne is French infantry in {formation.value}: French infantry may only "
            "charge in column. It may charge once it has formed column (a full move).")


@pytest.mark.parametrize("formation", [Formation.LINE, Formation.COLUMN])
def test_british_infantry_may_charge_in_any_formation(formation):
    result = charge(foot(formation=formation, general=True), ligne(), "1 6")
    assert result.headline == "2nd Foot contacts 45e Ligne: melee in phase 11"


def test_a_square_cannot_charge():
    # British table: "Infantry Square 0"" moves nothing, and a charge is "a normal move into
    # contact".
    assert refused(foot(formation=Formation.SQUARE, general=True), ligne()) == (
        "2nd Foot is in square, which moves 0\": it cannot charge. It may charge once it has "
        "changed formation (a full move).")


@pytest.mark.parametrize(("charger", "phase"), [(ligne(), 4), (foot(general=True), 9)])
def test_a_unit_that_has_tested_to_close_this_turn_does_not_charge_into_a_second_test(
        charger, phase):
    # Phase 4 is one check "for shooting casualties and to close for melee".
    target = foot() if charger.nation is Nation.FRENCH else ligne()
    assert refused(replace(charger, tested=(phase,)), target) == (
        f"{charger.name} has tested its morale in phase {phase} this turn, and a charge's "
        "closing check is that test. Declare the charge before the test, so that one roll "
        "counts for both: a GM takes the test back with `/gm undo`.")
    # Another phase's test is no bar.
    other = 2 if phase == 4 else 7
    assert charge(replace(charger, tested=(other,)), target, "1 6" if phase == 9 else "1 1")


@pytest.mark.parametrize(("charger", "target"), [
    (ligne(), dragoons()),
    (foot(general=True), horse()),
])
def test_infantry_cannot_charge_cavalry(charger, target):
    assert refused(charger, target) == f"{charger.name} is infantry: infantry cannot charge " \
                                       "cavalry."


@pytest.mark.parametrize("charger", [ligne(), foot(general=True)])
def test_multiple_infantry_may_not_charge_the_same_target(charger):
    target = foot() if charger.nation is Nation.FRENCH else ligne()
    assert refused(charger, target, another_infantry_charging=True) == (
        f"Another infantry unit is already charging {target.name}: multiple infantry units "
        "may not charge the same target.")


def test_cavalry_may_join_a_target_an_infantry_column_is_charging():
    result = charge(horse(), foot(formation=Formation.SQUARE), "1 1 1 1 1",
                    another_infantry_charging=True)
    assert result.headline == "Chasseurs contacts 2nd Foot: melee in phase 6"


@pytest.mark.parametrize(("charger", "target"), [(horse(), dragoons()),
                                                 (dragoons(), horse())])
def test_enemy_cavalry_may_only_be_contacted_by_one_unit(charger, target):
    assert refused(charger, target, target_already_contacted=True) == (
        f"{target.name} is already contacted: enemy cavalry may only be contacted by one "
        "unit.")


def test_already_contacted_matters_only_for_cavalry_targets():
    result = charge(horse(), guns(), "3 3", target_already_contacted=True)
    assert result.headline == "Chasseurs contacts Battery: melee in phase 6"


@pytest.mark.parametrize(("flag", "message"), [
    ("in_melee", "45e Ligne is in melee: a unit in melee does not charge."),
    ("firefight", "45e Ligne is locked in a firefight and cannot charge."),
    ("halted", "45e Ligne is halted this turn: a failed morale check allows no movement."),
    ("held", "45e Ligne failed its recall and cannot move this turn."),
])
def test_units_that_cannot_move_cannot_charge(flag, message):
    assert refused(ligne(**{flag: True}), foot()).startswith(message)


@pytest.mark.parametrize(("flag", "hint"), [
    ("in_melee", "It fights on in the melee phase."),
    ("halted", "It may move and charge again next turn (`/battle next`). Set by mistake: a GM "
               "clears it with `/gm set field:halted value:no`."),
])
def test_a_unit_that_cannot_charge_is_told_when_it_can(flag, hint):
    with pytest.raises(NotAllowed) as refusal:
        charge(ligne(**{flag: True}), foot(), "1 1 1")
    assert refusal.value.hint == hint


def test_cavalry_with_a_charge_marker_in_place_cannot_move_until_recalled():
    assert refused(horse(charge_marker=True), foot()) == (
        "Chasseurs has a charge marker in place and cannot move until recalled. It rolls for "
        "recall in phase 13 (`/recall`). Set by mistake: a GM clears it with `/gm set "
        "field:charge_marker value:no`.")


def test_artillery_does_not_charge():
    assert refused(guns(), ligne()) == "Battery is artillery: only infantry and cavalry charge."


def test_a_unit_cannot_charge_its_own_side():
    assert refused(ligne(), horse()) == "45e Ligne and Chasseurs are on the same side."
    # One name on both sides: said as such, not as "45e Ligne and 45e Ligne are on the same
    # side", nor fought as two units a reply could not tell apart.
    assert refused(ligne(), ligne()).startswith("45e Ligne is named on both sides. In a battle")


# --- British infantry without a general roll a 6 to charge --------------------------------


def test_british_infantry_without_a_general_charge_on_a_6():
    result = charge(foot(), ligne(), "6 1 6")
    assert titles(result)[0] == "British infantry without a general"
    assert result.steps[0].rolls[0].result == "charges"
    assert outcomes(result)[0] == "It charges."
    assert result.headline == "2nd Foot contacts 45e Ligne: melee in phase 11"


@pytest.mark.parametrize("face", [1, 5])
def test_british_infantry_without_a_general_stay_on_less_than_6(face):
    result = charge(foot(), ligne(), str(face))
    assert outcomes(result) == ["It does not charge; it may try again next turn."]
    assert result.steps[0].rolls[0].result == "stays"
    assert result.headline == "2nd Foot does not charge"
    assert effects(result) == []
    assert result.severity is Severity.NONE


def test_british_infantry_with_a_general_need_no_6():
    result = charge(foot(general=True), ligne(), "1 1")
    assert titles(result)[0] == "Phase 8: charge declared"


def test_british_infantry_charging_defensive_terrain_need_no_6():
    result = charge(foot(), ligne(), "1 1", target_defensive_terrain=True)
    assert titles(result)[0] == "Phase 8: charge declared"


def test_british_cavalry_need_no_6():
    result = charge(dragoons(), ligne(formation=Formation.LINE), "2 2 1")
    assert titles(result)[:2] == ["Phase 8: charge declared", "Cavalry bonus movement"]


def test_french_infantry_need_no_6():
    result = charge(ligne(), foot(), "1 1")
    assert titles(result)[0] == "Phase 3: charge declared"


# --- cavalry charges ----------------------------------------------------------------------


def test_cavalry_roll_2d6_inches_bonus_and_leave_a_charge_marker():
    result = charge(horse(), guns(), "3 5")
    bonus = result.steps[1]
    assert bonus.title == "Cavalry bonus movement"
    assert (bonus.rolls[0].kind, bonus.rolls[0].total, bonus.rolls[0].result) == (
        "2d6", 8, '+8"')
    assert bonus.outcome.startswith("Chasseurs adds 8\" to its move. Mark the spot where the "
                                    "charge began")
    assert effects(result) == [(E.CHARGE_MARKER, "Chasseurs", None),
                               (E.IN_MELEE, "Chasseurs", None), (E.IN_MELEE, "Battery", None)]


def test_charging_cavalry_do_not_test_to_close():
    result = charge(horse(quality=Quality.CONSCRIPT, casualties=9), guns(), "1 1")
    assert titles(result) == ["Phase 3: charge declared", "Cavalry bonus movement"]


def test_cavalry_against_cavalry_make_contact_without_checks():
    result = charge(dragoons(), horse(), "6 6")
    assert values(result)[1:] == [(E.IN_MELEE, "Scots Greys", "Chasseurs"),
                                  (E.IN_MELEE, "Chasseurs", "Scots Greys")]
    assert result.headline == "Scots Greys contacts Chasseurs: melee in phase 11"


@pytest.mark.parametrize(("faces", "hits"), [("6 6", 2), ("6 5", 1), ("5 5", 0)])
def test_squares_contacted_fire_two_dice_hitting_charging_cavalry_on_6(faces, hits):
    square = foot(formation=Formation.SQUARE)
    result = charge(horse(), square, f"1 1 {faces} 1")
    fire = result.steps[2]
    assert fire.title == "2nd Foot (square) fires"
    assert fire.outcome == "Squares contacted fire two dice."
    assert (fire.rolls[0].kind, fire.rolls[0].target, fire.rolls[0].hits) == (
        "2d6", "6+ (charging cavalry)", hits)
    casualties = [(E.CASUALTIES, "Chasseurs", hits)] if hits else []
    assert effects(result) == [*casualties, (E.CHARGE_MARKER, "Chasseurs", None),
                               (E.IN_MELEE, "Chasseurs", None), (E.IN_MELEE, "2nd Foot", None)]


def test_squares_do_not_fire_at_charging_infantry():
    result = charge(foot(general=True), ligne(formation=Formation.SQUARE), "1 1")
    assert titles(result) == ["Phase 8: charge declared",
                              "Phase 9: British morale for shooting casualties and to close "
                              "for melee",
                              "Phase 10: French infantry morale to stand for melee"]


@pytest.mark.parametrize(("charger", "row", "dice_text"), [
    (horse(), "6+ (charging cavalry)", "2 2 6 5 4 3 3"),
    (ligne(), "4+ (column)", "6 5 4 3 3 1"),
], ids=["cavalry", "infantry column"])
def test_skirmishers_shoot_one_die_per_two_figures_then_evade_2d6(charger, row, dice_text):
    skirmishers = foot("Rifles", figures=6, formation=Formation.SKIRMISH)
    result = charge(charger, skirmishers, dice_text)
    step = next(s for s in result.steps if s.title == "Rifles (skirmishers) shoot and evade")
    fire, evade = step.rolls
    assert (fire.kind, fire.target) == ("3d6", row)
    assert (evade.kind, evade.total) == ("2d6", 6)
    assert step.outcome == "They shoot, then move 6\" away."
    assert (E.PLACED, "Rifles", 6) in effects(result)
    assert result.notes == (f"Skirmishers are destroyed if contacted: if {charger.name} still "
                            "reaches Rifles after its evade, remove it.",)
    assert result.headline == f"Rifles shoots and evades {charger.name}"


def test_skirmishers_fire_at_a_charging_british_line_needs_5():
    skirmishers = ligne("Voltigeurs", figures=4, formation=Formation.SKIRMISH)
    result = charge(foot(general=True), skirmishers, "5 4 1 2 1")
    fire = result.steps[1].rolls[0]
    assert (fire.target, fire.hits) == ("5+ (line)", 1)
    assert effects(result) == [(E.PLACED, "Voltigeurs", 3), (E.CASUALTIES, "2nd Foot", 1)]


def test_skirmishers_fire_at_charging_skirmishers_needs_6():
    # British infantry charge in any formation; a charger in skirmish order is read on the
    # table's "Skirmishers 6+" row, not as a line.
    skirmishers = ligne("Voltigeurs", figures=4, formation=Formation.SKIRMISH)
    result = charge(foot(formation=Formation.SKIRMISH, general=True), skirmishers,
                    "5 6 1 2 1")
    fire = result.steps[1].rolls[0]
    assert (fire.target, fire.hits) == ("6+ (skirmishers)", 1)
    assert effects(result) == [(E.PLACED, "Voltigeurs", 3), (E.CASUALTIES, "2nd Foot", 1)]


def test_skirmisher_casualties_count_in_the_chargers_closing_check():
    skirmishers = foot("Rifles", figures=2, formation=Formation.SKIRMISH)
    # 2 casualties + 1 from the skirmishers = 3: veteran 5 −1 casualties −1 charging = 3.
    result = charge(ligne(casualties=2), skirmishers, "4 1 1 4")
    check = result.steps[2].rolls[0]
    assert check.target == ("3 or less (veteran 5 −1 for 3 casualties (−1 per 3) −1 infantry "
                            "charging)")
    assert check.result == "fails by 1"
    assert effects(result) == [(E.PLACED, "Rifles", 2), (E.CASUALTIES, "45e Ligne", 1),
                               (E.FORMATION, "45e Ligne", None), (E.PLACED, "45e Ligne", 2)]
    assert result.headline == "45e Ligne fails to close: forms line 2\" short"


# --- the charging infantry's closing check, then the target's check to stand --------------


def test_french_column_closes_and_the_british_stand_fight_in_phase_6():
    result = charge(ligne(), foot(), "4 6")
    assert titles(result) == [
        "Phase 3: charge declared",
        "Phase 4: French morale for shooting casualties and to close for melee",
        "Phase 5: British infantry morale to stand for melee"]
    assert values(result) == [(E.IN_MELEE, "45e Ligne", "2nd Foot"),
                              (E.IN_MELEE, "2nd Foot", "45e Ligne")]
    assert result.headline == "45e Ligne contacts 2nd Foot: melee in phase 6"
    assert result.severity is Severity.MINOR


def test_french_column_failing_to_close_forms_line_and_the_target_does_not_test():
    result = charge(ligne(), foot(), "5")
    assert values(result) == [(E.FORMATION, "45e Ligne", "line"),
                              (E.PLACED, "45e Ligne", "from 2nd Foot")]
    assert result.headline == "45e Ligne fails to close: forms line 2\" short"


def test_french_column_unable_to_form_line_takes_d6_casualties():
    result = charge(ligne(), foot(), "6 2", cannot_form_line=True)
    assert effects(result) == [(E.CASUALTIES, "45e Ligne", 2)]
    assert result.headline == "45e Ligne fails to close and cannot form line"


def test_french_column_failing_by_3_routs():
    result = charge(ligne(quality=Quality.CONSCRIPT), foot(), "6")
    assert effects(result) == [(E.ROUTED, "45e Ligne", None)]
    assert result.headline == "45e Ligne fails by 3: routs, removed"


def test_british_standing_place_the_french_2_inches_away():
    result = charge(ligne(), foot(), "4 5")
    assert values(result) == [(E.PLACED, "45e Ligne", "from 2nd Foot")]
    assert result.headline == "2nd Foot stands: the charge stops 2\" short"


def test_british_failing_to_stand_by_3_rout_and_there_is_no_melee():
    result = charge(ligne(), foot(quality=Quality.CONSCRIPT), "1 6", flank_or_rear=True)
    assert effects(result) == [(E.ROUTED, "2nd Foot", None)]
    assert result.headline == "2nd Foot fails by 3: routs, removed"


def test_a_flank_charge_is_declared_and_costs_the_target_one():
    result = charge(ligne(), foot(), "1 4", flank_or_rear=True)
    assert outcomes(result)[0] == "45e Ligne charges 2nd Foot in flank or rear."
    assert result.steps[2].rolls[0].target == "4 or less (veteran 5 −1 charged in flank/rear)"
    assert result.steps[2].rolls[0].result == "passes"


def test_cavalry_charging_british_line_that_stands_form_square_and_fight_in_phase_6():
    # Bonus 3 3; 2nd Foot stands on a 5 and forms square: no fire, the melee of phase 6.
    result = charge(horse(horse=Horse.LANCERS, name="Lancers"), foot(), "3 3 5")
    assert titles(result)[-1] == "Phase 5: British infantry morale to stand for melee"
    assert values(result) == [(E.CHARGE_MARKER, "Lancers", None),
                              (E.FORMATION, "2nd Foot", "square"),
                              (E.IN_MELEE, "Lancers", "2nd Foot"),
                              (E.IN_MELEE, "2nd Foot", "Lancers")]
    assert result.headline == "Lancers contacts 2nd Foot: melee in phase 6"


@pytest.mark.parametrize(("square_roll", "formed"), [(4, True), (3, False)])
def test_cavalry_charging_british_line_that_fail_to_stand_form_square_on_4(square_roll, formed):
    result = charge(horse(), foot(), f"3 3 6 {square_roll}")
    assert ((E.FORMATION, "2nd Foot", "square") in values(result)) is formed
    assert values(result)[-2:] == [(E.IN_MELEE, "Chasseurs", "2nd Foot"),
                                   (E.IN_MELEE, "2nd Foot", "Chasseurs")]


def test_british_charge_full_flow_6_then_closing_then_french_stand():
    result = charge(foot(formation=Formation.COLUMN), ligne(formation=Formation.LINE),
                    "6 3 6")
    assert titles(result) == [
        "British infantry without a general",
        "Phase 8: charge declared",
        "Phase 9: British morale for shooting casualties and to close for melee",
        "Phase 10: French infantry morale to stand for melee"]
    assert values(result) == [(E.IN_MELEE, "2nd Foot", "45e Ligne"),
                              (E.IN_MELEE, "45e Ligne", "2nd Foot")]
    assert result.headline == "2nd Foot contacts 45e Ligne: melee in phase 11"


def test_british_infantry_failing_to_close_stop_2_inches_short():
    result = charge(foot(general=True, formation=Formation.COLUMN), ligne(), "6")
    # veteran 5 +1 general −1 column −1 charging = 4: fails by 2
    assert values(result) == [(E.PLACED, "2nd Foot", "from 45e Ligne")]
    assert result.headline == "2nd Foot fails to close: halts 2\" short"


def test_french_standing_against_british_infantry_place_them_2_inches_away():
    result = charge(foot(general=True), ligne(), "1 5")
    assert values(result) == [(E.PLACED, "2nd Foot", "from 45e Ligne")]
    assert result.headline == "45e Ligne stands: the charge stops 2\" short"


def test_infantry_already_in_melee_do_not_test_to_stand():
    result = charge(horse(), foot(in_melee=True), "2 2")
    assert titles(result) == ["Phase 3: charge declared", "Cavalry bonus movement"]
    assert result.headline == "Chasseurs contacts 2nd Foot: melee in phase 6"


def test_artillery_targets_do_not_test():
    result = charge(ligne(), guns(), "1")
    assert titles(result)[-1] == ("Phase 4: French morale for shooting casualties and to close "
                                  "for melee")
    assert result.headline == "45e Ligne contacts Battery: melee in phase 6"


def test_an_infantry_charge_is_kept_on_its_target_for_the_turn_and_a_second_is_refused():
    from rules.core.dice import ScriptedSource
    from rules.core.roster import Roster, RosterUnit
    from rules.le_baton.battle import apply_effects, new_turn
    from rules.le_baton.commands import prepare

    roster = Roster(units=(
        RosterUnit("45e Ligne", "French", {"nation": "french", "arm": "infantry",
                                           "formation": "column"}, strength=9),
        RosterUnit("4e Léger", "French", {"nation": "french", "arm": "infantry",
                                          "formation": "column"}, strength=9),
        RosterUnit("Buffs", "British", {"nation": "british", "arm": "infantry",
                                        "formation": "line"}, strength=8)))
    # The column fails to close by 2: it forms line 2" short, and has still charged.
    short = prepare("charge", {"charger": "45e Ligne", "target": "Buffs"}, roster)(
        ScriptedSource.from_text("6"))
    assert next((e.kind, e.unit, e.value) for e in short.effects) == (
        E.INFANTRY_CHARGED, "Buffs", "45e Ligne")
    after, _ = apply_effects(short.effects, roster)
    assert after.unit("Buffs").attr("charged_by_infantry") == "45e Ligne"
    with pytest.raises(NotAllowed, match="45e Ligne has charged Buffs this turn: multiple "
                                         "infantry units may not charge the same target."):
        prepare("charge", {"charger": "4e Léger", "target": "Buffs"}, after)
    next_turn, _ = new_turn(after)
    assert next_turn.unit("Buffs").attr("charged_by_infantry") is None
    prepare("charge", {"charger": "4e Léger", "target": "Buffs"}, next_turn)


def test_a_charger_the_square_destroys_goes_no_further():
    square = foot(formation=Formation.SQUARE)
    result = charge(horse(figures=2), square, "1 1 6 6")  # bonus move 1 1, the square 6 6
    assert result.headline == "Chasseurs is destroyed by 2nd Foot's fire"
    # No charge marker: nothing is left to recall.
    assert effects(result) == [(E.CASUALTIES, "Chasseurs", 2), (E.DESTROYED, "Chasseurs", None)]
    assert "2nd Foot morale" not in [r.label for s in result.steps for r in s.rolls]


def test_a_square_formed_against_a_cavalry_charge_does_not_fire():
    # "Squares contacted fire two dice" is the charge's fire in phase 3, when 2nd Foot was a
    # line; it forms square in phase 5 (a pass on the 2) and rolls nothing more: the
    # chasseurs, 2 figures, come on whole into the melee of phase 6.
    result = charge(horse(figures=2), foot(), "1 1 2")
    assert "2nd Foot (square) fires" not in titles(result)
    assert effects(result) == [(E.CHARGE_MARKER, "Chasseurs", None),
                               (E.FORMATION, "2nd Foot", None),
                               (E.IN_MELEE, "Chasseurs", None), (E.IN_MELEE, "2nd Foot", None)]
    assert result.headline == "Chasseurs contacts 2nd Foot: melee in phase 6"


def test_a_french_square_formed_on_passing_does_not_fire_at_the_british_cavalry():
    # Phase 10, pass: "Stand. May form square."; formed, it meets the dragoons in phase 11.
    result = run(resolve_charge, dragoons(), ligne(), ChargeSituation(), dice_text="2 2 3",
                 answers="form_square=square")
    assert titles(result)[-1] == "Phase 10: French infantry morale to stand for melee"
    assert (E.FORMATION, "45e Ligne", "square") in values(result)
    assert result.headline == "Scots Greys contacts 45e Ligne: melee in phase 11"


def test_a_charger_the_skirmishers_destroy_comes_on_no_further_and_nobody_evades():
    rifles = foot("Rifles", figures=4, formation=Formation.SKIRMISH)
    result = charge(ligne(figures=1), rifles, "6 6")  # two dice at 4+ on a column: both hit
    assert result.headline == "45e Ligne is destroyed by Rifles' fire"
    assert "evade" not in " ".join(r.label for s in result.steps for r in s.rolls)
