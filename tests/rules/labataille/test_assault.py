"""The Infantry Assault and the Old Guard Charge, step by step, on scripted d66 dice and
answers, with the test chart pack and without any pack."""

from __future__ import annotations

import pytest

from rules.core.decisions import Undecided
from rules.core.dice import ScriptedSource
from rules.core.errors import InvalidInput, NotAllowed
from rules.labataille.assault import Assault, huzzah_answers, resolve_assault
from rules.labataille.units import Arm, Formation, Order

from .helpers import asked, assault, effects, pack, stack, step, titles

A, D = stack("A", melee=20), stack("D", melee=10)
PASS, PASS_D, NO_SHIFT = "45", "45", "1"


def test_a_whole_assault_read_on_a_chart_pack():
    result = assault([A], [D], "45 45 1 41", pack=pack())
    assert titles(result) == [
        "3a. Attacker morale check", "3b. Defender morale check", "3b. Column shifts",
        "4. Offensive and Defensive Fire", "6. Mêlée odds", "7. Mêlée resolution", "7d. DR1",
        "8. Advance after Mêlée", "9. Assault Impetus"]
    assert step(result, "6. Mêlée odds").outcome.startswith(
        "The 2:1 column: A 20 = 20 against D 10 = 10.")
    resolution = step(result, "7. Mêlée resolution")
    assert resolution.outcome == "Row 41, 2:1 column: DR1."
    assert resolution.rolls[0].notes == ("Test pack: made for Huzzah's tests: not a La "
                                         "Bataille chart",)
    # The Advance after Mêlée and the hex of impetus, as one move of 2 hexes.
    assert effects(result) == [("routed", "D", None), ("moved", "A", 2),
                               ("marker_set", "A", "disordered")]
    # The attacker's distance was not given: no modifier counted, and said so; and the
    # Zones of Influence D routed through were not given: none taken, and said so.
    assert result.defaults == ("no distance modifier: A: no `distance` given: no distance "
                               "modifier (give `distance=N`)",
                               "no `zoc` given: D: no increments lost to Zones of Influence "
                               "(give `zoc=N`)")


# --- steps 1 and 2 ---------------------------------------------------------------------------


def test_retreat_before_assault_then_the_attackers_advance_and_may_assault_again():
    leaving = stack("D", retreats=True)
    assert asked([A], [leaving], "") == "new_assault"
    result = assault([A], [leaving], "", "new_assault=no")
    assert effects(result) == [("moved", "D", "retreats before assault"), ("moved", "A", 1)]
    again = assault([A], [leaving], "", "new_assault=new")
    assert step(again, "1b. New assault").outcome.startswith("A new assault is declared")


def test_the_old_guard_proceeds_to_exploitation_when_no_new_assault_is_declared():
    result = assault([A], [stack("D", retreats=True)], "", "no", old_guard=True)
    assert titles(result)[-1] == "10. Old Guard Charge Exploitation"


def test_the_assault_goes_on_against_the_stacks_that_stay():
    result = assault([A], [stack("D1", retreats=True), D], "45 45 1 41", pack=pack())
    assert step(result, "1. Retreat Before Assault").outcome == (
        "D1 retreats before the assault; the assault goes on against the others.")
    assert ("routed", "D", None) in effects(result)


def test_unsupplied_artillery_alone_routs_and_the_attackers_advance():
    guns = stack("Battery", arm=Arm.ARTILLERY, unsupplied=True)
    result = assault([A], [guns], "")
    assert effects(result) == [("routed", "Battery", None), ("moved", "A", 1)]
    assert titles(result) == ["2. Unsupplied Artillery"]
    covered = stack("Battery", arm=Arm.ARTILLERY, unsupplied=True, covered=True, melee=10)
    assert "2. Unsupplied Artillery" not in titles(assault([A], [covered], "45 45 1 41",
                                                           pack=pack()))


# --- step 3 ------------------------------------------------------------------------------------


def test_a_failed_attacker_disorders_and_a_disordered_one_routs():
    result = assault([A, stack("B", state=Order.DISORDERED, melee=5)], [D],
                     "34 11 45 1 41", pack=pack())
    assert effects(result)[:2] == [("marker_set", "A", "disordered"), ("routed", "B", None)]
    assert step(result, "3a. Attacker morale check", 1).outcome == (
        "B fails: already disordered, it routs.")


def test_all_attackers_routed_finishes_the_assault():
    result = assault([stack("A", state=Order.DISORDERED)], [D], "11 45")
    assert titles(result)[-1] == "3. Morale"
    assert result.headline == "A routs; the assault breaks before contact"


@pytest.mark.parametrize("old_guard", [False, True])
def test_all_targets_routed_the_attackers_advance(old_guard):
    result = assault([A], [stack("D", state=Order.DISORDERED)], "45 11", old_guard=old_guard)
    assert effects(result) == [("routed", "D", None), ("moved", "A", 1)]
    assert (titles(result)[-1] == "10. Old Guard Charge Exploitation") is old_guard
    # The exploitation is the Guard's next move: the headline says it.
    assert result.headline.endswith("; A may exploit") is old_guard, \
        result.headline


def test_a_passing_defender_doubles_its_fire_and_rolls_left_shifts():
    result = assault([A], [D], "45 45 6 61", pack=pack())
    assert step(result, "3b. Column shifts").outcome == (
        "2 left column shifts on the Assault et Mêlée chart.")
    assert "2 left shifts: 2:1 → 1:2" in step(result, "6. Mêlée odds").outcome
    assert step(result, "7. Mêlée resolution").outcome == "Row 61, 1:2 column: DR1."


def test_no_shift_die_when_no_defender_passes():
    result = assault([A], [D], "45 12 41", pack=pack())
    assert "3b. Column shifts" not in titles(result)
    assert ("marker_set", "D", "disordered") in effects(result)


# --- step 4 ------------------------------------------------------------------------------------


def test_offensive_and_defensive_fire_move_the_melee_roll_3_per_casualty():
    shooter = stack("A", melee=20, fire=18, defence=9)
    target = stack("D", melee=10, fire=9, defence=9)
    result = assault([shooter], [target], "45 45 1 54 33 41", pack=pack())
    assert effects(result)[:2] == [("damage", "D", 2), ("damage", "A", 1)]
    roll = step(result, "7. Mêlée resolution").rolls[0]
    assert [(m.value, m.reason) for m in roll.modifiers] == [
        (6, "attackers' fire"), (-3, "defenders' fire")]
    assert roll.total == 44  # 41 + 3 steps
    assert "No morale checks for casualties from offensive and defensive fire." in result.notes


def test_a_stack_destroyed_by_fire_leaves_the_hex_to_the_attackers():
    result = assault([stack("A", fire=18, defence=9)], [stack("D", increments=1, defence=9)],
                     "45 45 1 54")
    assert effects(result) == [("damage", "D", 1), ("destroyed", "D", None), ("moved", "A", 1)]


def test_casualties_inflicted_are_those_the_target_has_left_to_lose():
    # "For each casualty inflicted": a stack of 1 increment takes 1 of the chart's 5, and
    # a second shot at it once destroyed inflicts none.
    shooters = [stack("A", melee=30, fire=20, defence=6), stack("B", melee=30, fire=20,
                                                               defence=6)]
    targets = [stack("D1", increments=1, defence=2), stack("D2", defence=2)]
    result = assault(shooters, targets, "45 45 45 45 1 66 66 21", pack=pack())
    assert effects(result)[:2] == [("damage", "D1", 1), ("destroyed", "D1", None)]
    assert [e for e in effects(result) if e[1] == "D1"] == effects(result)[:2]
    assert result.headline.count("D1 is destroyed by fire") == 1
    roll = step(result, "7. Mêlée resolution").rolls[0]
    assert [(m.value, m.reason) for m in roll.modifiers] == [(3, "attackers' fire")]
    assert [s.outcome for s in result.steps if s.title == "4. Casualties inflicted"] == [
        "D1 had 1 increment to lose: 1 casualty of 5 inflicted.",
        "D1 is destroyed already: none of 5 more count."]


def test_defending_artillery_with_canister_fires_two_columns_right():
    guns = stack("Battery", arm=Arm.ARTILLERY, fire=6, canister=True, melee=4, defence=9)
    result = assault([stack("A", melee=20, defence=9)], [guns], "45 45 1 33 41", pack=pack())
    shot = step(result, "4. Offensive and Defensive Fire").rolls[0]
    assert shot.target == "2:1 (12:9, canister)"
    # Two columns is the revised text's (its step 3b NOTE), not reference A.5's one column.
    assert shot.notes == ("fire 6 × 2 (passed its morale check) against defence 9",
                          "canister: 2 columns right (labataille-revised-assault-and-charge.txt "
                          "step 3b NOTE)",
                          "reference/labataille.md A.5 (Premier fire chart)")


def test_a_stack_without_a_fire_value_does_not_fire_and_fire_needs_the_targets_defence():
    with pytest.raises(InvalidInput, match=r"D: give `defence=N`"):
        assault([stack("A", fire=6)], [D], "")


def test_defenders_retreating_before_the_assault_are_not_fired_on_so_need_no_defence():
    result = assault([stack("A", fire=6)], [stack("D", retreats=True, fire=5)], "",
                     "new_assault=no")
    assert effects(result) == [("moved", "D", "retreats before assault"), ("moved", "A", 1)]


# --- step 5 ------------------------------------------------------------------------------------


BRITISH = stack("52nd", melee=10, nation="british")


def test_british_defenders_that_passed_are_asked_to_huzzah():
    assert asked([A], [BRITISH], "45 45 1") == "huzzah"
    declined = assault([A], [BRITISH], "45 45 1 41", "huzzah=no", pack=pack())
    assert step(declined, "5. British Huzzah").outcome == "52nd does not Huzzah."


def test_a_huzzah_all_fail_turns_the_tables_and_the_shifts_right():
    result = assault([A], [BRITISH], "45 45 6 11 41", "huzzah", pack=pack())
    assert step(result, "5a. Huzzah morale check").outcome == "A fails: disordered."
    assert step(result, "5. British Huzzah").outcome.startswith(
        "All stacks fail: 52nd becomes the attacker")
    odds = step(result, "6. Mêlée odds").outcome
    assert odds.startswith("The 2:1 column: 52nd 10 = 10 against A 20 = 20")
    assert "2 right shifts: 1:2 → 2:1" in odds
    assert ("routed", "A", None) in effects(result)


def test_after_a_huzzah_the_fire_modifiers_are_the_new_attackers():
    """The roll is the British's: their fire's casualties add 3 each, the former attackers'
    take 3 each off, and each is said by the side that now fires it."""
    shooter = stack("A", melee=20, fire=18, defence=9)
    british = stack("52nd", nation="british", melee=10, fire=9, defence=9)
    result = assault([shooter], [british], "45 45 1 54 33 11 41", "huzzah", pack=pack())
    assert effects(result)[:2] == [("damage", "52nd", 2), ("damage", "A", 1)]
    roll = step(result, "7. Mêlée resolution").rolls[0]
    assert [(m.value, m.reason, m.source.rsplit(" ", 1)[-1]) for m in roll.modifiers] == [
        (3, "attackers' fire", "4b"), (-6, "defenders' fire", "4a")]
    assert result.headline == "52nd Huzzah; AR: 52nd routs"


def test_a_huzzah_all_pass_or_some_fail_keeps_the_original_attackers():
    held = assault([A], [BRITISH], "45 45 1 45 41", "huzzah", pack=pack())
    assert step(held, "5. British Huzzah").outcome.startswith("The Huzzah is not successful")
    two = [A, stack("B", melee=5)]
    some = assault(two, [BRITISH], "45 45 45 1 45 11 41", "huzzah", pack=pack())
    assert step(some, "5. British Huzzah").outcome.startswith("Some stacks fail")
    assert ("routed", "52nd", None) in effects(some)


def test_a_huzzah_targets_the_attackers_in_the_british_front():
    # "May then Assault any units in their front orientation which were formerly assaulting
    # them": B alone in front fails its check, so all the Huzzah's targets fail.
    two = [A, stack("B", melee=5)]
    only_b = assault(two, [BRITISH], "45 45 45 1 11 41", "huzzah=only B", pack=pack())
    assert step(only_b, "5. British Huzzah").outcome == (
        "The Huzzah targets B, in the front of 52nd.")
    assert [r.label for r in step(only_b, "5a. Huzzah morale check").rolls] == [
        "B Huzzah morale"]
    assert only_b.headline.startswith("52nd Huzzah")
    three = [A, stack("B", melee=5), stack("C", melee=5)]
    labels = [a.label for a in huzzah_answers(three)]
    assert labels == ["Huzzah on all", "Huzzah on A only", "Huzzah on B only",
                      "Huzzah on C only", "Huzzah on all but A", "Huzzah on all but B",
                      "Huzzah on all but C", "No Huzzah"]
    assert [a.label for a in huzzah_answers([A])] == ["Huzzah!", "No Huzzah"]


def test_kgl_may_huzzah_other_nations_may_not():
    assert asked([A], [stack("KGL", melee=10, nation="KGL")], "45 45 1") == "huzzah"
    result = assault([A], [stack("Fr", melee=10, nation="french")], "45 45 1 41", pack=pack())
    assert "5. British Huzzah" not in titles(result)


def test_only_british_and_kgl_infantry_huzzah_artillery_and_cavalry_do_not_assault():
    """Step 5: the British "may then Assault" the attackers, and an assault is infantry's
    (artillery does not assault; cavalry charges). A British battery or cavalry that passed
    its check is not asked to Huzzah, nor made the attacker beside the infantry that does."""
    guns = stack("RHA", arm=Arm.ARTILLERY, melee=2, nation="british")
    horse = stack("Union", arm=Arm.CAVALRY, melee=10, nation="british")
    for defender in (guns, horse):
        result = assault([A], [defender], "45 45 1 41", pack=pack())
        assert "5. British Huzzah" not in titles(result)
    result = assault([A], [stack("52nd", nation="british"), guns], "45 45 45 6 11 41",
                     "huzzah", pack=pack())
    assert step(result, "5. British Huzzah").outcome.startswith(
        "All stacks fail: 52nd becomes the attacker")


# --- steps 6 and 7 -----------------------------------------------------------------------------


def test_odds_below_the_chart_use_its_lowest_column_and_multipliers_apply():
    weak = stack("A", melee=2)
    result = assault([weak], [D], "45 45 1 41", pack=pack())
    assert "below the chart: the lowest column" in step(result, "6. Mêlée odds").outcome
    tired = stack("A", melee=40, state=Order.DISORDERED)
    skirmishers = stack("D", melee=10, formation=Formation.SKIRMISH)
    halved = assault([tired], [skirmishers], "45 45 1 41", pack=pack())
    assert step(halved, "6. Mêlée odds").outcome.startswith(
        "The 3:1 column: A 40 (× 0.5 disordered) = 20 against D 10 (× 0.5 skirmish) = 5.")


def test_a_situation_the_published_charts_multiply_is_said_when_no_chart_counts_it():
    """Reference A.4 lists mêlée multipliers for disordered, skirmishing, tired and exhausted
    stacks; the revised chart's values are the players': with no chart pack (or one without
    the word) the value counts as given, and the odds say so instead of leaving it out
    silently."""
    worn = stack("A", melee=20, state=Order.DISORDERED)
    result = assault([worn], [stack("D", melee=10, formation=Formation.SKIRMISH)],
                     "45 45 1 41", "chart_result=DR1")
    assert step(result, "6. Mêlée odds").outcome.startswith(
        "The 2:1 column: A 20 = 20 against D 10 = 10; A is disordered: no chart pack gives "
        "its multiplier, so its mêlée value counts as given; D is in Skirmish Order: no chart "
        "pack "
        "gives its multiplier, so its mêlée value counts as given.")
    # The test pack names attacker disordered and defender skirmish: counted, nothing said.
    counted = assault([worn], [stack("D", melee=10, formation=Formation.SKIRMISH)],
                      "45 45 1 41", pack=pack())
    assert "counts as given" not in step(counted, "6. Mêlée odds").outcome


def test_leaders_modify_the_melee_roll():
    led = stack("A", melee=20, leader="Ney", leader_value=2)
    held = stack("D", melee=10, leader="Hill", leader_value=1)
    roll = step(assault([led], [held], "45 45 1 41", pack=pack()), "7. Mêlée resolution").rolls[0]
    assert [(m.value, m.reason) for m in roll.modifiers] == [(2, "Ney (attacking)"),
                                                             (-1, "Hill (defending)")]
    assert roll.total == 42


def test_without_a_pack_the_player_reads_the_chart():
    assert asked([A], [D], "45 45 1 41") == "chart_result"
    result = assault([A], [D], "45 45 1 41", "chart_result=DS2")
    assert step(result, "7. Mêlée resolution").outcome == (
        "Read row 41 of the 2:1 column on your Assault et Mêlée chart.")
    assert step(result, "7. Chart result").outcome == "The chart says DS2 (given by the player)."
    assert result.defaults == ("no distance modifier: A: no `distance` given: no distance "
                               "modifier (without a chart pack, give it in `mod`)",
                               "Premier chart's columns: no chart pack, so odds are read on "
                               "the Premier chart's columns (1:2 to 5:1)")


@pytest.mark.parametrize(("answer", "expected"), [
    ("AS", [("surrendered", "A", None)]),
    ("AR", [("routed", "A", None), ("damage", "A", 2)]),
    ("firefight", [("firefight", "A", "D"), ("firefight", "D", "A")]),
    ("DS2", [("surrendered", "D", None), ("moved", "A", 3), ("marker_set", "A", "disordered")]),
    ("DR0", [("routed", "D", None), ("moved", "A", 1), ("marker_set", "A", "disordered")]),
])
def test_each_chart_result(answer, expected):
    result = assault([stack("A", melee=20, zoc=2)], [D], "45 45 1 41", f"chart_result={answer}")
    assert effects(result) == expected


def test_a_routing_stack_loses_the_increments_it_has_and_with_none_left_is_destroyed():
    """"Each Routing stack loses one increment for each Zone of Influence retreated from":
    two Zones, one increment: one lost, and the stack is gone."""
    result = assault([stack("A", melee=20)], [stack("D", increments=1, zoc=2, melee=8)],
                     "45 45 1 41", "chart_result=DR0")
    assert effects(result)[:3] == [("routed", "D", None), ("damage", "D", 1),
                                   ("destroyed", "D", None)]
    assert result.headline == "DR0: D routs; D is destroyed in its rout"
    # Increments to spare: as many as the Zones, and it stays, routed.
    spare = assault([stack("A", melee=20)], [stack("D", increments=3, zoc=2, melee=8)],
                    "45 45 1 41", "chart_result=DR0")
    assert effects(spare)[:2] == [("routed", "D", None), ("damage", "D", 2)]
    assert ("destroyed", "D", None) not in effects(spare)


def test_a_firefight_records_each_sides_role():
    result = assault([A], [D], "45 45 1 23", pack=pack())
    assert [(e.unit, e.detail) for e in result.effects] == [("A", "attacker"), ("D", "defender")]
    assert step(result, "7c. Blank: Firefight").outcome.startswith("Leave the Assault marker")


def test_disordered_attackers_advance_without_routing():
    # Disordered, its mêlée value is halved (the pack): 10 against 10, the 1:1 column.
    result = assault([stack("A", melee=20, state=Order.DISORDERED)], [D], "45 45 1 51",
                     pack=pack())
    assert ("marker_set", "A", "disordered") not in effects(result)
    assert "A stays disordered and does not rout" in step(result, "8. Advance after Mêlée").outcome


# --- firefights that last ----------------------------------------------------------------------


def test_a_firefight_goes_on_on_its_column_without_shifts_huzzah_or_distance():
    locked_a = stack("A", melee=20, locked=True, distance=3)
    locked_b = stack("52nd", melee=10, nation="british", locked=True)
    result = assault([locked_a], [locked_b], "45 45 51", firefight=True, pack=pack())
    assert titles(result)[:5] == ["Firefight", "3a. Attacker morale check",
                                  "3b. Defender morale check", "3b. Column shifts",
                                  "4. Offensive and Defensive Fire"]
    assert step(result, "3b. Column shifts").outcome.startswith("No shift die")
    assert step(result, "5. British Huzzah").outcome == "No Huzzah in a firefight: skip step 5."
    assert step(result, "7. Mêlée resolution").outcome == "Row 51, Firefight column: DR1."
    assert step(result, "3a. Attacker morale check").rolls[0].notes == (
        "A: no distance modifier (locked in the firefight)",)
    assert ("engagement_ended", "A", "firefight") in effects(result)


def test_stacks_locked_in_a_firefight_fight_only_as_one():
    # "Firefights use the Firefight column": `locked` without `firefight` would be read on
    # the odds as a fresh assault.
    with pytest.raises(InvalidInput, match="A is marked `locked` .* not a firefight") as fresh:
        assault([stack("A", locked=True)], [stack("D", locked=True)], "45 45 1 41")
    assert "Add `firefight:true`" in fresh.value.hint
    with pytest.raises(InvalidInput, match="no stack is marked `locked`"):
        assault([stack("A")], [stack("D")], "45 45 1 41", firefight=True)


def test_new_units_joining_make_it_a_new_melee_with_real_odds():
    result = assault([stack("A", melee=20, locked=True), stack("B", melee=10)],
                     [stack("D", melee=10, locked=True)], "45 45 45 1 41", firefight=True,
                     pack=pack())
    assert step(result, "Firefight: new units").outcome.startswith("B join")
    assert step(result, "6. Mêlée odds").outcome.startswith("The 3:1 column")


def test_new_units_joining_a_firefight_apply_distance_whichever_side_they_join():
    # "New units joining a Firefight this turn do apply Distance modifiers regardless of
    # their role as attacker or defender."
    result = assault([stack("A", melee=20, locked=True, distance=2), stack("B", distance=2)],
                     [stack("D", locked=True, distance=1), stack("E", distance=3)],
                     "45 45 45 45 1 41", firefight=True, pack=pack())
    checks = {roll.label: roll for title in ("3a. Attacker morale check",
                                             "3b. Defender morale check")
              for s in result.steps if s.title == title for roll in s.rolls}
    assert [(m.value, m.reason) for m in checks["E morale"].modifiers] == [
        (-6, "distance 3")]
    assert checks["E morale"].total == 35
    assert [(m.value, m.reason) for m in checks["B morale"].modifiers] == [
        (-3, "distance 2")]
    assert checks["A morale"].modifiers == checks["D morale"].modifiers == ()
    assert checks["A morale"].notes == ("A: no distance modifier (locked in the "
                                              "firefight)",)


def test_new_units_on_the_defending_side_only_switch_the_roles():
    result = assault([stack("A", melee=10, locked=True)],
                     [stack("D", melee=10, locked=True), stack("E", melee=20)],
                     "45 45 45 1 41", firefight=True, pack=pack())
    assert step(result, "Firefight: roles switch").outcome.startswith(
        "E joins the defending side only: the role of attacker and defender is switched.")
    assert step(result, "6. Mêlée odds").outcome.startswith(
        "The 3:1 column: D 10 + E 20 = 30 against A 10 = 10")


def test_without_a_firefight_column_the_player_reads_it():
    locked = ([stack("A", locked=True)], [stack("D", locked=True)])
    assert asked(*locked, "45 45 51", firefight=True) == "chart_result"


@pytest.mark.parametrize("arm", [Arm.CAVALRY, Arm.ARTILLERY])
@pytest.mark.parametrize("old_guard", [False, True])
def test_only_infantry_assaults_or_charges_as_the_old_guard(arm, old_guard):
    # "Each Infantry Assault"; cavalry has its own Cavalry Charge.
    what = "an Old Guard Charge" if old_guard else "an Infantry Assault"
    with pytest.raises(InvalidInput, match=f"Hussars: {what} is made by infantry"):
        assault([stack("Hussars", arm=arm)], [D], "45 45", old_guard=old_guard)


def test_a_routed_stack_does_not_assault():
    with pytest.raises(NotAllowed, match="A has routed and cannot assault"):
        assault([stack("A", state=Order.ROUTED)], [D], "45 45")


def test_a_firefight_goes_on_whatever_the_arm_of_the_stacks_locked_in_it():
    guns = stack("Guns", arm=Arm.ARTILLERY, locked=True)
    assert asked([guns], [stack("D", locked=True)], "45 45 51", firefight=True) == \
        "chart_result"


# --- the Old Guard Charge ----------------------------------------------------------------------


def test_an_old_guard_charge_is_one_stack_and_not_from_a_firefight():
    with pytest.raises(InvalidInput, match="one charging stack"):
        assault([A, stack("B")], [D], "", old_guard=True)
    with pytest.raises(NotAllowed, match="may not conduct an Old Guard Charge"):
        assault([stack("A", locked=True)], [D], "", old_guard=True, firefight=True)
    joining = assault([A], [stack("D", locked=True)], "45 45 1 41", "chart_result=DR1",
                      old_guard=True, firefight=True)
    assert titles(joining)[-1] == "10. Old Guard Charge Exploitation"
    with pytest.raises(InvalidInput, match="one charging stack"):
        assault([A, stack("B")], [stack("D", locked=True)], "", old_guard=True,
                firefight=True)


def test_old_guard_joins_a_firefight_beside_the_stacks_locked_in_it_and_alone_exploits():
    # "they may enter a Firefight as new units and declare an Old Guard Charge"
    joining = assault([A, stack("B", locked=True)], [stack("D", locked=True)], "45 45 45 1 41",
                      "chart_result=DR1", old_guard=True, firefight=True)
    assert titles(joining)[0] == "Firefight: new units"
    assert titles(joining)[-2:] == ["9. Old Guard Charge Impetus",
                                    "10. Old Guard Charge Exploitation"]
    assert joining.headline == "DR1: D routs; A may exploit"


def test_old_guard_joining_the_defending_side_of_a_firefight_charges_as_its_attacker():
    # "they may enter a Firefight as new units and declare an Old Guard Charge"; joining
    # the defending side only, "the role of attacker and defender is switched".
    joining = assault([stack("B", locked=True)], [stack("D", locked=True), A],
                      "45 45 45 1 41", "chart_result=DR1", old_guard=True, firefight=True)
    assert titles(joining)[0] == "Firefight: roles switch"
    assert titles(joining)[-1] == "10. Old Guard Charge Exploitation"
    assert joining.headline == "DR1: B routs; A may exploit"


def test_the_old_guard_not_declaring_a_new_assault_is_offered_exploitation_not_finish():
    # Step 1b of the Charge: "If a new Assault was not declared proceed to Step 10."
    source = ScriptedSource.from_text("")
    with pytest.raises(Undecided) as stop:
        resolve_assault(Assault((A,), (stack("D", retreats=True),), old_guard=True), source)
    assert [a.label for a in stop.value.question.answers] == [
        "Declare a new assault", "No: go on to exploitation"]
    with pytest.raises(Undecided) as stop:
        resolve_assault(Assault((A,), (stack("D", retreats=True),)), source)
    assert [a.label for a in stop.value.question.answers] == ["Declare a new assault",
                                                              "Finish"]


def test_an_old_guard_charge_ends_in_exploitation_after_advancing():
    result = assault([A], [D], "45 45 1 61", old_guard=True, pack=pack())
    assert titles(result)[-3:] == ["8. Advance after Mêlée", "9. Old Guard Charge Impetus",
                                   "10. Old Guard Charge Exploitation"]


def test_no_exploitation_for_the_british_who_turned_the_tables():
    result = assault([A], [BRITISH], "45 45 6 11 41", "huzzah", old_guard=True, pack=pack())
    assert titles(result)[-2:] == ["8. Advance after Mêlée", "9. Assault Impetus"]


def test_after_a_huzzah_on_some_the_british_attack_the_stacks_in_their_front():
    two = [A, stack("B", melee=5)]
    only_b = assault(two, [BRITISH], "45 45 45 1 11 41", "huzzah=only B", pack=pack())
    # A, not in 52nd's front, takes no further part: 52nd attacks B alone.
    assert step(only_b, "6. Mêlée odds").outcome.startswith(
        "The 2:1 column: 52nd 10 = 10 against B 5 = 5"), step(only_b, "6. Mêlée odds").outcome


def test_a_huzzah_that_routs_every_target_says_no_attacker_is_left():
    result = assault([A], [BRITISH], "33 45 1 11", "huzzah", pack=pack())
    assert result.headline == "A routs; 52nd Huzzah; no former attacker is left to fight", \
        result.headline


def test_shifts_stop_at_the_charts_edges():
    # A Huzzah's right shifts from the top column, and left shifts from below the chart.
    high = assault([A], [stack("52nd", melee=200, nation="british")], "45 45 6 11 41",
                   "huzzah", pack=pack())
    assert "2 right shifts: 3:1 → 3:1" in step(high, "6. Mêlée odds").outcome
    low = assault([stack("A", melee=1)], [stack("D", melee=50)], "45 45 6 41", pack=pack())
    assert "2 left shifts: 1:2 → 1:2" in step(low, "6. Mêlée odds").outcome


def test_canister_is_the_defenders_only():
    # "defending stacks containing artillery": attacking guns in a firefight fire plain.
    guns = stack("Guns", melee=5, fire=6, defence=9, canister=True, arm=Arm.ARTILLERY,
                 locked=True)
    result = assault([guns], [stack("D", defence=9, locked=True)], "45 45 45 41",
                     "chart_result=firefight", pack=pack(), firefight=True)
    [roll] = step(result, "4. Offensive and Defensive Fire").rolls
    assert roll.target == "1:1 (12:9)"


# --- mutation guards: the rule's exact conditions ------------------------------------------------


def test_unsupplied_artillery_routs_and_the_assault_goes_on_against_the_stacks_that_stand():
    """Step 2: unsupplied artillery "Routs if it is not stacked with infantry"; the attackers
    advance and the assault is finished only when no target is left standing."""
    guns = stack("Battery", arm=Arm.ARTILLERY, unsupplied=True)
    result = assault([A], [guns, D], "45 45 1 41", pack=pack())
    assert step(result, "2. Unsupplied Artillery").outcome == (
        "Battery routs for want of ammunition.")
    assert titles(result)[1:3] == ["3a. Attacker morale check", "3b. Defender morale check"]
    assert step(result, "7. Mêlée resolution").outcome == "Row 41, 2:1 column: DR1."
    assert effects(result) == [("routed", "Battery", None), ("routed", "D", None),
                               ("moved", "A", 2), ("marker_set", "A", "disordered")]


def test_a_british_stack_that_failed_its_defender_check_does_not_huzzah():
    """"British and KGL defenders which passed their Defender Morale Check may turn the
    tables": a British stack that failed is not asked, and is no Huzzah's attacker."""
    # The 52nd fails (12), the French pass: a shift die, but no Huzzah to ask.
    french = stack("Fr", melee=10, nation="french")
    result = assault([A], [BRITISH, french], "45 12 45 1 41", pack=pack())
    assert "5. British Huzzah" not in titles(result)
    assert step(result, "6. Mêlée odds").outcome.startswith(
        "The 1:1 column: A 20 = 20 against 52nd 10 + Fr 10 = 20; 52nd is disordered: the "
        "chart pack's Mêlée Modifiers give no multiplier for it, so its mêlée value counts as "
        "given.")
    # Two British stacks, one passing: only it turns the tables.
    rifles = stack("95th", melee=10, nation="british")
    assert asked([A], [BRITISH, rifles], "45 12 45 1") == "huzzah"
    tables = assault([A], [BRITISH, rifles], "45 12 45 6 11 41", "huzzah", pack=pack())
    assert step(tables, "5. British Huzzah").outcome.startswith(
        "All stacks fail: 95th becomes the attacker for the rest of this mêlée")
    assert step(tables, "6. Mêlée odds").outcome.startswith(
        "The 2:1 column: 95th 10 = 10 against A 20 = 20; A is disordered: the chart pack's "
        "Mêlée Modifiers give no multiplier for it, so its mêlée value counts as given; 2 "
        "right shifts: 1:2 → 2:1.")
    assert tables.headline.startswith("95th Huzzah"), tables.headline


def test_the_huzzah_morale_check_takes_no_distance_modifier():
    """Step 5a: "Apply applicable modifiers from the Defender Morale Check Modifiers Chart":
    the attacker's distance (the Attacker Morale Check chart's) does not count again."""
    far = stack("A", melee=20, distance=2)  # the pack: distance 2 is -3
    result = assault([far], [BRITISH], "45 45 1 35 41", "huzzah", pack=pack())
    attacker = step(result, "3a. Attacker morale check").rolls[0]
    assert [(m.value, m.reason) for m in attacker.modifiers] == [(-3, "distance 2")]
    huzzah = step(result, "5a. Huzzah morale check")
    assert huzzah.rolls[0].modifiers == () and huzzah.rolls[0].total == 35
    assert huzzah.outcome == "A passes."
    assert step(result, "5. British Huzzah").outcome.startswith(
        "The Huzzah is not successful")


def test_the_best_leader_on_each_side_modifies_the_melee_roll():
    """Step 7: "add ... Leader Mêlée modifiers": the best leader value on each side
    (docs/labataille.md), whichever stack is named first."""
    attackers = [stack("A", melee=20, leader="Reille", leader_value=1),
                 stack("B", melee=20, leader="Ney", leader_value=2)]
    defenders = [stack("D", melee=10, leader="Hill", leader_value=1),
                 stack("E", melee=10, leader="Picton", leader_value=3)]
    result = assault(attackers, defenders, "45 45 45 45 1 41", pack=pack())
    roll = step(result, "7. Mêlée resolution").rolls[0]
    assert [(m.value, m.reason) for m in roll.modifiers] == [(2, "Ney (attacking)"),
                                                             (-3, "Picton (defending)")]
    assert roll.total == 36  # 41 - 1 step


def test_defenders_with_no_melee_value_read_the_highest_column():
    """Odds against an undefended hex (a mêlée value of 0) read the chart's highest column
    (docs/labataille.md, Odds), not the lowest."""
    result = assault([A], [stack("D", melee=0)], "45 45 1 41", pack=pack())
    assert step(result, "6. Mêlée odds").outcome.startswith(
        "The 3:1 column: A 20 = 20 against D 0 = 0.")
    assert step(result, "7. Mêlée resolution").outcome == "Row 41, 3:1 column: DR2."


def test_surrendered_attackers_are_out_of_the_firefight():
    """7a. AS: "Attackers surrender": removed from play, so the firefight ends for the
    defenders alone; nothing further is said of the attackers."""
    locked = ([stack("A", locked=True)], [stack("D", locked=True)])
    result = assault(*locked, "45 45 11", "chart_result=AS", firefight=True)
    assert effects(result) == [("surrendered", "A", None),
                               ("engagement_ended", "D", "firefight")]
    assert titles(result)[-1] == "7a. AS"
    assert result.headline == "AS: A surrenders"


def test_only_the_stacks_locked_in_it_leave_the_firefight_a_new_unit_joined():
    """A unit new to the firefight was never in it: the result ends the firefight for the
    stacks locked in it, and says nothing of the kind of the newcomer."""
    result = assault([stack("A", melee=10, locked=True)],
                     [stack("D", melee=10, locked=True), stack("E", melee=20)],
                     "45 45 45 1 41", firefight=True, pack=pack())
    assert step(result, "7. Mêlée resolution").outcome == "Row 41, 3:1 column: DR2."
    ended = [e[1] for e in effects(result) if e[0] == "engagement_ended"]
    assert ended == ["D"]


@pytest.mark.parametrize(("result", "headline"), [
    ("DR2", "DR2: all 3 defenders rout"),
    ("DS1", "DS1: all 3 defenders surrender"),
    ("AR", "AR: all 3 attackers rout"),
])
def test_a_result_on_three_stacks_or_more_counts_them_in_the_headline(result, headline):
    """A list of regiments would fill a phone's title before its verb: the headline counts
    them, and the units' lines name each."""
    three = [stack(f"A{n}") for n in (1, 2, 3)]
    targets = [stack(f"The {n}th Regiment of Foot") for n in (28, 29, 30)]
    attackers, defenders = (targets, three) if result == "AR" else (three, targets)
    done = assault(attackers, defenders, "45 45 45 45 45 45 1 41", f"chart_result={result}")
    assert done.headline.startswith(headline), done.headline
    # One or two stacks are still named.
    two = assault(three[:2], targets[:2], "45 45 45 45 1 41", "chart_result=DR2")
    assert two.headline.startswith(
        "DR2: The 28th Regiment of Foot and The 29th Regiment of Foot rout"), two.headline


def test_a_routing_stack_loses_an_increment_per_zone_of_influence_given():
    """"Each Routing stack loses one increment for each Zone of Influence retreated from":
    the bot keeps no map, so the count is the player's; none given is none taken, said among
    the result's defaults, and `zoc=0` says so without a note."""
    for zoc, lost, note in ((2, [("damage", "D", 2)], False), (0, [], False), (None, [], True)):
        words = {} if zoc is None else {"zoc": zoc}
        result = assault([stack("A", melee=20)], [stack("D", **words)], "45 45 1 41",
                         pack=pack())
        assert [e for e in effects(result) if e[1] == "D"] == [("routed", "D", None), *lost]
        # Named first by what is missing, as the distance is: a public footer says a
        # default by the words before its first colon, and "D" alone says nothing.
        assert any(d.startswith("no `zoc` given: D: ") for d in result.defaults) is note


def test_only_cavalry_in_general_order_is_said_to_lack_a_multiplier():
    """Reference A.4 multiplies an attacker in General Order only when it is cavalry ("cavalry
    in general order ⅓"): infantry assaulting in General Order has no published multiplier,
    so the odds do not say one is missing."""
    marching = stack("A", melee=20, formation=Formation.GENERAL)
    result = assault([marching], [stack("D", melee=10)], "45 45 1 41", "chart_result=DR1")
    assert step(result, "6. Mêlée odds").outcome.startswith(
        "The 2:1 column: A 20 = 20 against D 10 = 10. (")
