"""The Cavalry Charge's three mêlée procedures, the regroup, Square and the Reaction Charge,
on scripted dice and answers, with the test chart pack and without any pack."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from rules.core.decisions import Answers, Undecided
from rules.core.dice import ScriptedSource
from rules.core.errors import InvalidInput, NotAllowed
from rules.labataille.charts import read_pack
from rules.labataille.effects import CHARGED, CHARGING, SQUARE
from rules.labataille.reactions import form_square, reaction_charge
from rules.labataille.units import Arm, ChargeMarker, Fatigue, Formation, Order

from .helpers import PACK_DATA, charge, charge_asks, effects, pack, stack, step, titles

HUSSARS = stack("Hussars", arm=Arm.CAVALRY, melee=20, mp=8, nation="french", defence=6)
CHARGING_HUSSARS = replace(HUSSARS, charge=ChargeMarker.CHARGING)
REGROUP_EXHAUSTED = [("moved", "Hussars", 2), ("marker_set", "Hussars", "exhausted"),
                     ("marker_set", "Hussars", CHARGED)]


def test_against_pgd_pursuit_losses_a_new_rout_and_a_tired_regroup():
    rabble = stack("Rabble", state=Order.ROUTED, zoc=1)
    result = charge([HUSSARS], [rabble], "", spent=2)
    assert titles(result) == ["Cavalry Charge", "1. Pursuit", "1. Pursuit",
                              "2. Cavalry Regroup"]
    assert step(result, "1. Pursuit").outcome.startswith(
        "Pursuit losses: (Hussars' printed MP 8 − 2 MPs expended) ÷ 3, rounded down = 2.")
    assert effects(result) == [
        ("damage", "Rabble", 2), ("routed", "Rabble", None), ("damage", "Rabble", 1),
        ("moved", "Hussars", 2), ("marker_set", "Hussars", "tired"),
        ("marker_set", "Hussars", CHARGED)]


def test_pgd_destroyed_by_the_pursuit_is_said_destroyed_once_not_ridden_down_too():
    rabble = stack("Rabble", state=Order.ROUTED, increments=2)
    stragglers = stack("Stragglers", state=Order.ROUTED, increments=4)
    result = charge([HUSSARS], [rabble, stragglers], "", spent=2)
    assert result.headline == "Rabble is destroyed by pursuit; Stragglers is ridden down"


def test_a_charge_on_pgd_meets_no_fire_so_the_cavalry_needs_no_defence():
    rabble = stack("Rabble", state=Order.ROUTED, fire=5, defence=9)
    result = charge([replace(HUSSARS, defence=None)], [rabble], "", spent=2)
    assert ("marker_set", "Hussars", "tired") in effects(result)


def test_defensive_fire_needs_the_chargers_defence():
    foot = stack("2nd Foot", formation=Formation.LINE, fire=5, defence=9)
    with pytest.raises(InvalidInput, match=r"Hussars: give `defence=N`"):
        charge([replace(HUSSARS, defence=None)], [foot], "45 1 41", spent=2, pack=pack())


def test_tired_cavalry_that_charges_again_is_exhausted():
    tired = stack("Hussars", arm=Arm.CAVALRY, melee=20, mp=6, fatigue=Fatigue.TIRED)
    result = charge([tired], [stack("Rabble", state=Order.ROUTED)], "", spent=5)
    assert ("marker_set", "Hussars", "exhausted") in effects(result)
    assert ("damage", "Rabble", 0) not in effects(result)  # (6 − 5) ÷ 3 = 0: no losses


def test_against_infantry_stand_shift_odds_and_dr_with_pursuit_before_the_rout():
    foot = stack("2nd Foot", formation=Formation.LINE, zoc=0)
    result = charge([HUSSARS], [foot], "45 1 41", spent=2, pack=pack())
    assert titles(result) == [
        "Cavalry Charge", "3. Roll to Stand", "3. Column shifts", "4. Defensive Fire",
        "5. Mêlée odds", "6. Mêlée resolution", "6d. DR", "6d. Pursuit losses",
        "7. Advance after Mêlée", "8. Pursuit", "9. Cavalry Regroup"]
    stand = step(result, "3. Roll to Stand").rolls[0]
    assert [m.value for m in stand.modifiers] == [6]  # the pack's stand_morale: line +6
    # The shift die is the charge's own step 3 (its Pass), not the assault's 3b.
    assert step(result, "3. Column shifts").rolls[0].notes[-1] == \
        "labataille-revised-assault-and-charge.txt step 3"
    assert "The # is ignored in a charge mêlée (DR1 read as DR)." in step(
        result, "6d. DR").outcome
    assert effects(result) == [
        ("damage", "2nd Foot", 2), ("moved", "Hussars", 1),
        ("marker_set", "Hussars", "disordered"), ("routed", "2nd Foot", None),
        *REGROUP_EXHAUSTED]


def test_defensive_fire_moves_the_roll_3_per_casualty_and_no_morale_check_follows():
    foot = stack("2nd Foot", fire=6)
    result = charge([HUSSARS], [foot], "45 1 33 44", spent=2, pack=pack())
    roll = step(result, "6. Mêlée resolution").rolls[0]
    assert [m.value for m in roll.modifiers] == [-3] and roll.total == 41
    assert effects(result)[0] == ("damage", "Hussars", 1)
    assert "The charging cavalry takes no morale checks from defensive fire." in result.notes


def test_defensive_fire_goes_at_the_charger_named_in_at():
    lancers = replace(HUSSARS, name="Lancers")
    foot = stack("2nd Foot", fire=6, at="Lancers")
    result = charge([HUSSARS, lancers], [foot], "45 1 33 44", spent=2, pack=pack())
    assert step(result, "4. Defensive Fire").outcome == "2nd Foot fires on Lancers: 1 casualty."
    assert effects(result)[0] == ("damage", "Lancers", 1)


@pytest.mark.parametrize(("at", "said"), [
    ("Lancerz", "2nd Foot: `at=Lancerz` names no enemy stack of this charge. Did you mean "
                "`Lancers`?"),
    ("2nd Foot", "2nd Foot: `at=2nd Foot` names no enemy stack of this charge.")])
def test_an_at_that_names_no_charger_is_refused_before_any_die(at, said):
    lancers = replace(HUSSARS, name="Lancers")
    foot = stack("2nd Foot", fire=6, at=at)
    with pytest.raises(InvalidInput) as refused:
        charge([HUSSARS, lancers], [foot], "", spent=2, pack=pack())
    assert refused.value.message == said
    assert refused.value.hint == "Name Hussars or Lancers."


def test_all_targets_routed_at_the_roll_to_stand_are_pursued_and_the_cavalry_tires():
    shaken = stack("Militia", state=Order.DISORDERED)
    result = charge([HUSSARS], [shaken], "11", spent=2, pack=pack())
    assert effects(result) == [
        ("routed", "Militia", None), ("moved", "Hussars", 1), ("damage", "Militia", 2),
        ("moved", "Hussars", 2), ("marker_set", "Hussars", "tired"),
        ("marker_set", "Hussars", CHARGED)]


def test_a_blank_is_a_bounce_and_the_cavalry_is_exhausted():
    result = charge([HUSSARS], [stack("2nd Foot")], "45 1 23", spent=2, pack=pack())
    assert effects(result) == [("moved", "Hussars", "bounces"),
                               ("marker_set", "Hussars", "exhausted"),
                               ("marker_set", "Hussars", CHARGED)]
    assert result.headline == "Blank: the cavalry bounces"


def test_unsupplied_artillery_routs_the_cavalry_advances_and_regroups():
    guns = stack("Battery", arm=Arm.ARTILLERY, unsupplied=True)
    result = charge([HUSSARS], [guns], "", spent=2)
    assert effects(result) == [("routed", "Battery", None), ("moved", "Hussars", 1),
                               ("moved", "Hussars", 2), ("marker_set", "Hussars", "tired"),
                               ("marker_set", "Hussars", CHARGED)]


def test_against_cavalry_no_stand_no_fire_no_pursuit():
    dragoons = stack("Dragoons", arm=Arm.CAVALRY)
    result = charge([HUSSARS], [dragoons], "41", pack=pack())
    assert titles(result) == ["Cavalry Charge", "2. Mêlée odds", "3. Mêlée resolution",
                              "3d. DR", "4. Advance after Mêlée", "5. Cavalry Regroup"]
    assert effects(result) == [("routed", "Dragoons", None), ("moved", "Hussars", 1),
                               ("marker_set", "Hussars", "disordered"), *REGROUP_EXHAUSTED]
    bounce = charge([HUSSARS], [dragoons], "23", pack=pack())
    assert effects(bounce) == [("moved", "Hussars", "bounces"),
                               ("moved", "Dragoons", "bounces"),
                               ("marker_set", "Hussars", "exhausted"),
                               ("marker_set", "Hussars", CHARGED)]


def test_retreat_before_charge_then_recall_on_the_nations_threshold():
    skirmishers = stack("Voltigeurs", retreats=True)
    assert charge_asks([HUSSARS], [skirmishers], "", spent=2) == "recall"
    assert charge_asks([HUSSARS], [skirmishers], "2", "recall=recall",
                       spent=2) == "after_recall"
    ended = charge([HUSSARS], [skirmishers], "2", "recall=recall; after_recall=end", spent=2)
    recall = step(ended, "1b. Recall").rolls[0]
    assert (recall.total, recall.target, recall.result) == (2, "≥ 2", "recalled")
    assert ("marker_set", "Hussars", "tired") in effects(ended)
    # The test pack makes the French recall on 3: a 2 rides on, into whatever they fled to.
    rides = charge([HUSSARS], [skirmishers], "2", "recall=recall; pursued_into=unit",
                   spent=2, pack=pack())
    assert step(rides, "1b. Recall").rolls[0].notes == ("test recall thresholds",)
    assert step(rides, "1b. Pursue").outcome.startswith("The cavalry must pursue and charge")
    # The charge goes on against what they fled to: no regroup yet.
    assert effects(rides) == [("moved", "Voltigeurs", "retreats before charge")]
    led = stack("Hussars", arm=Arm.CAVALRY, melee=20, mp=8, nation="british",
                leader="Uxbridge")
    assert step(charge([led], [skirmishers], "4", "recall=recall; after_recall=new", spent=2),
                "1b. Recall").rolls[0].total == 5  # British 5+, a leader +1


def test_a_failed_recall_says_first_that_the_cavalry_must_charge_what_they_fled_into():
    # Step 1b: "If they fail to Recall they must Pursue and Charge any unit that the
    # Skirmishers retreated into or through": the reply leads with that charge to come.
    skirmishers = stack("Voltigeurs", retreats=True)
    rides = charge([HUSSARS], [skirmishers], "1", "recall=recall; pursued_into=unit",
                   spent=2)
    assert rides.headline == ("Hussars must charge the units Voltigeurs retreated into or "
                              "through; Voltigeurs retreats before the charge")
    pursues = charge([HUSSARS], [skirmishers], "", "recall=no; pursued_into=unit", spent=2)
    assert pursues.headline == rides.headline


def test_without_a_pack_the_chart_is_asked_with_charge_results():
    source = ScriptedSource.from_text("45 1 41")
    from rules.labataille.assault import Assault
    from rules.labataille.charge import resolve_charge
    with pytest.raises(Undecided) as stop:
        resolve_charge(Assault((HUSSARS,), (stack("2nd Foot"),), cavalry=True, spent=2),
                       source, Answers())
    assert [a.label for a in stop.value.question.answers] == [
        "AS", "AR", "Blank: bounce", "DR", "DS"]
    result = charge([HUSSARS], [stack("2nd Foot")], "45 1 41", "chart_result=DS", spent=2)
    assert ("surrendered", "2nd Foot", None) in effects(result)


def test_a_charge_is_cavalry_with_its_mp_and_the_mps_it_spent():
    with pytest.raises(InvalidInput, match="only cavalry charge"):
        charge([stack("Foot")], [stack("B")], "", spent=2)
    with pytest.raises(InvalidInput, match="Give `spent`"):
        charge([HUSSARS], [stack("B")], "")
    with pytest.raises(InvalidInput, match="printed Movement Potential"):
        charge([stack("H", arm=Arm.CAVALRY)], [stack("B")], "", spent=2)
    with pytest.raises(InvalidInput, match="cannot charge"):
        charge([stack("H", arm=Arm.CAVALRY, fatigue=Fatigue.EXHAUSTED, mp=8)], [stack("B")],
               "", spent=2)
    with pytest.raises(InvalidInput, match="no Recall threshold"):
        charge([stack("H", arm=Arm.CAVALRY, mp=8)], [stack("B", retreats=True)], "1",
               "recall=recall", spent=2)


# --- Square and the Reaction Charge ------------------------------------------------------------


def square(infantry, distance, rolled, answers="", cavalry=(), target=False, charts=None):
    source = ScriptedSource.from_text(rolled)
    result = form_square(infantry, distance, tuple(cavalry), target, charts, source,
                         Answers.read(answers))
    source.finish()
    return result


def test_forming_square_on_the_pack_chart_by_distance():
    foot = stack("Foot", nation="french")
    assert effects(square(foot, 1, "36", charts=pack())) == [("marker_set", "Foot", SQUARE)]
    assert effects(square(foot, 1, "41", charts=pack())) == [
        ("marker_set", "Foot", "disordered")]
    assert effects(square(foot, 1, "61", charts=pack())) == [("routed", "Foot", None)]
    assert effects(square(foot, 2, "61", charts=pack())) == [
        ("marker_set", "Foot", "disordered")]


def test_without_a_pack_the_player_reads_the_carre_chart():
    foot = stack("Foot", mod=-6)
    with pytest.raises(Undecided) as stop:
        form_square(foot, 3, (), False, None, ScriptedSource.from_text("45"), Answers())
    assert stop.value.question.text == ("Read the Square (Carré) Realization chart: 3 "
                                          "hexes, row 35. What does it say?")
    assert effects(square(foot, 3, "45", "carre_result=C")) == [
        ("marker_set", "Foot", SQUARE)]


def test_after_a_square_forms_the_cavalry_may_recall_else_must_charge_its_target():
    foot = stack("Foot")
    must = square(foot, 1, "11", "recall=no", cavalry=[CHARGING_HUSSARS], target=True,
                  charts=pack())
    assert step(must, "2. Recall").outcome == ("No recall: it was the declared target: the "
                                               "cavalry must charge the Square.")
    # What the cavalry must do leads the reply with the square.
    assert must.headline == f"{foot.name} forms square; Hussars must charge the Square"
    rides = square(foot, 1, "11", "recall=no", cavalry=[CHARGING_HUSSARS], charts=pack())
    assert rides.headline == f"{foot.name} forms square; Hussars rides on"
    recalled = square(foot, 1, "11 5", "recall=recall; after_recall=new",
                      cavalry=[CHARGING_HUSSARS], charts=pack())
    assert step(recalled, "2. Recall").rolls[0].result == "recalled"
    assert recalled.headline == f"{foot.name} forms square"


def test_a_declared_target_needs_cavalry_that_is_charging():
    # "If the stack was the declared target of the Charge": only a Charge has a target.
    with pytest.raises(InvalidInput, match="the cavalry carries no Charge marker"):
        square(stack("Foot"), 1, "11", cavalry=[HUSSARS], target=True, charts=pack())


def test_cavalry_that_is_only_moving_makes_no_recall_when_a_square_forms():
    formed = square(stack("Foot"), 1, "11", cavalry=[HUSSARS], charts=pack())
    assert titles(formed) == ["2. Form Square", "2. Form Square", "2. Form Square"]
    assert formed.steps[-1].outcome == ("The cavalry carries no Charge marker: it is moving, "
                                        "not charging, so there is no Recall.")
    assert effects(formed) == [("reacted", "Foot", "Hussars"),
                               ("marker_set", "Foot", SQUARE)]


def test_square_is_infantry_within_4_hexes_not_already_in_square():
    with pytest.raises(NotAllowed, match="within 4 hexes"):
        square(stack("Foot"), 5, "")
    with pytest.raises(NotAllowed, match="only infantry"):
        square(HUSSARS, 2, "")
    with pytest.raises(NotAllowed, match="already in Square"):
        square(stack("Foot", formation=Formation.SQUARE), 2, "")


def reaction(reactor, charger, gap, rolled, answers=""):
    source = ScriptedSource.from_text(rolled)
    chargers = tuple(charger) if isinstance(charger, list) else (charger,)
    result = reaction_charge(reactor, chargers, gap, None, source, Answers.read(answers))
    source.finish()
    return result


def test_a_reaction_charge_meets_midway_and_the_reactor_attacks():
    lancers = stack("Lancers", arm=Arm.CAVALRY)
    passed = reaction(lancers, CHARGING_HUSSARS, 3, "45")
    assert effects(passed) == [("reacted", "Lancers", "Hussars"),
                               ("marker_set", "Hussars", CHARGED),  # now the defender
                               ("moved", "Hussars", 2), ("moved", "Lancers", 1),
                               ("marker_set", "Lancers", CHARGING)]
    outcome = step(passed, "a. Reaction Charge").outcome
    assert "the gap is odd: the charging cavalry moves one more hex" in outcome
    assert ("Hussars is now the defender: its Charge marker is inverted (it charged this "
            "turn). Resolve the mêlée as the charge of Lancers on Hussars (Cavalry Charge vs. "
            "Cavalry).") in outcome
    failed = reaction(lancers, CHARGING_HUSSARS, 3, "22")
    assert effects(failed) == [("reacted", "Lancers", "Hussars")]
    assert "remains in place, not disordered" in step(failed, "a. Reaction Charge").outcome


def test_only_good_order_cavalry_not_exhausted_may_react():
    with pytest.raises(NotAllowed, match="Good Order"):
        reaction(stack("L", arm=Arm.CAVALRY, state=Order.DISORDERED), CHARGING_HUSSARS, 2, "")
    with pytest.raises(NotAllowed, match="Exhausted"):
        reaction(stack("L", arm=Arm.CAVALRY, fatigue=Fatigue.EXHAUSTED), CHARGING_HUSSARS, 2,
                 "")
    with pytest.raises(NotAllowed, match="cavalry against charging cavalry"):
        reaction(stack("L"), CHARGING_HUSSARS, 2, "")


@pytest.mark.parametrize("marker", [ChargeMarker.NONE, ChargeMarker.CHARGED])
def test_a_reaction_charge_answers_a_charge_under_way(marker):
    moving = replace(HUSSARS, charge=marker)
    with pytest.raises(NotAllowed, match="Hussars carries no Charge marker: a Reaction Charge "
                                         "is attempted during Charge movement"):
        reaction(stack("L", arm=Arm.CAVALRY), moving, 2, "")


def test_cavalry_with_an_inverted_charge_marker_cannot_charge_again_this_turn():
    charged = replace(HUSSARS, charge=ChargeMarker.CHARGED)
    with pytest.raises(NotAllowed, match="Hussars carries an inverted Charge marker: "
                                         "charged this turn"):
        charge([charged], [stack("2nd Foot")], "", spent=2)


def test_an_ar_routs_the_cavalry_and_ends_its_charge():
    foot = stack("2nd Foot")
    routed = charge([HUSSARS], [foot], "45 1 11", "chart_result=AR", spent=2)
    assert effects(routed) == [("routed", "Hussars", None),
                               ("marker_set", "Hussars", CHARGED)]
    assert "9. Cavalry Regroup" not in titles(routed)  # routed cavalry does not regroup


def test_cavalry_destroyed_by_defensive_fire_fights_no_melee():
    frail = replace(HUSSARS, increments=1)
    result = charge([frail], [stack("2nd Foot", fire=12)], "45 1 66", spent=2, pack=pack())
    assert titles(result)[-1] == "4. Defensive Fire"
    assert result.steps[-1].outcome == "No charging cavalry is left: there is no mêlée."
    # Each stack's end is said once: the headline names it, and that no mêlée follows.
    assert result.headline == "Hussars is destroyed by fire; no mêlée"
    assert not any(t.startswith("5.") or t.startswith("6.") for t in titles(result))


def test_targets_that_retreat_into_no_unit_end_the_charge_without_a_melee():
    skirmishers = stack("Voltigeurs", retreats=True)
    ended = charge([HUSSARS], [skirmishers], "", "recall=no; pursued_into=none", spent=2)
    assert step(ended, "1b. Pursue").outcome == (
        "The retreating stacks went into or through no unit: the cavalry advances into the "
        "vacated hex and the charge ends.")
    assert effects(ended) == [("moved", "Voltigeurs", "retreats before charge"),
                              ("moved", "Hussars", 1), ("moved", "Hussars", 2),
                              ("marker_set", "Hussars", "tired"),
                              ("marker_set", "Hussars", CHARGED)]


def test_a_stack_pursued_to_its_last_increment_is_removed():
    shaken = stack("Militia", state=Order.DISORDERED, increments=1)
    result = charge([HUSSARS], [shaken], "11", spent=2, pack=pack())
    assert effects(result)[:4] == [
        ("routed", "Militia", None), ("moved", "Hussars", 1), ("damage", "Militia", 1),
        ("destroyed", "Militia", None)]
    assert "Militia is destroyed by pursuit" in result.headline


def test_stacks_that_retreated_before_the_charge_are_not_pursued():
    skirmishers = stack("Voltigeurs", retreats=True)
    shaken = stack("Militia", state=Order.DISORDERED)
    result = charge([HUSSARS], [skirmishers, shaken], "11", "recall=no", spent=2,
                    pack=pack())
    damaged = [unit for kind, unit, _ in effects(result) if kind == "damage"]
    assert damaged == ["Militia"]


def test_a_charge_reads_a_blank_as_a_bounce_and_a_plain_dr_as_dr():
    dragoons = stack("Dragoons", arm=Arm.CAVALRY)
    bounce = charge([HUSSARS], [dragoons], "23", "chart_result=bounce")
    assert step(bounce, "3. Chart result").outcome == (
        "The chart says blank (bounce) (given by the player).")
    routed = charge([HUSSARS], [dragoons], "41", "chart_result=DR")
    assert step(routed, "3. Chart result").outcome == "The chart says DR (given by the player)."


def test_a_pack_may_halve_tired_cavalry_in_a_charge_melee():
    tired = stack("Dragoons", arm=Arm.CAVALRY, melee=20, fatigue=Fatigue.TIRED)
    result = charge([HUSSARS], [tired], "41", pack=pack())
    assert step(result, "2. Mêlée odds").outcome.startswith(
        "The 2:1 column: Hussars 20 = 20 against Dragoons 20 (× 0.5 tired) = 10.")


# --- Recall thresholds: Talavera's, by name; a pack carries its own game's --------------------


def test_the_shipped_recall_thresholds_are_talaveras_and_say_so():
    skirmishers = stack("Voltigeurs", retreats=True)
    recalled = charge([HUSSARS], [skirmishers], "2", "recall=recall; after_recall=end", spent=2)
    assert step(recalled, "1b. Recall").rolls[0].notes == (
        "reference/labataille.md A.8: Talavera's threshold (lb.react talavera.json)",)


@pytest.mark.parametrize("nation", ["prussian", "cossack"])
def test_a_nation_without_a_talavera_threshold_is_refused_before_any_die(nation):
    # Prussian cavalry recalls on 4 at Auerstaedt and Ligny but on 2 at Eylau and Leipzig
    # (reference A.8): no game's value is taken for another's.
    riders = replace(HUSSARS, nation=nation)
    with pytest.raises(InvalidInput, match=f"Hussars: no Recall threshold for {nation}") as no:
        charge([riders], [stack("Voltigeurs", retreats=True)], "", spent=2)
    assert "a chart pack's `recall` table for your game" in str(no.value)
    with pytest.raises(InvalidInput, match="no Recall threshold"):
        square(stack("Foot"), 1, "", cavalry=[replace(CHARGING_HUSSARS, nation=nation)])


def test_a_pack_carries_its_games_thresholds_and_talavera_fills_only_what_it_lacks():
    leipzig = read_pack({**PACK_DATA, "recall": {"provenance": "Leipzig, cavalry recall",
                                                  "prussian": 2}})
    prussians = replace(HUSSARS, name="Brandenburg Hussars", nation="prussian")
    rides = charge([prussians], [stack("Voltigeurs", retreats=True)], "2",
                   "recall=recall; after_recall=end", spent=2, pack=leipzig)
    assert step(rides, "1b. Recall").rolls[0].notes == ("Leipzig, cavalry recall",)
    french = charge([HUSSARS], [stack("Voltigeurs", retreats=True)], "2",
                    "recall=recall; after_recall=end", spent=2, pack=leipzig)
    assert step(french, "1b. Recall").rolls[0].notes == (
        "reference/labataille.md A.8: Talavera's threshold (lb.react talavera.json); the "
        "chart pack has none for French",)


# --- a charge into a Square ------------------------------------------------------------------


SQUARE_FOOT = stack("2nd Foot", formation=Formation.SQUARE, melee=8)


def test_a_charge_into_a_square_reads_the_packs_square_and_says_so():
    with_square = read_pack({**PACK_DATA, "stand_morale": {
        "provenance": "Talavera, roll to stand", "situations": {"square": 12}}})
    result = charge([HUSSARS], [SQUARE_FOOT], "35 1 41", spent=2, pack=with_square)
    stand = step(result, "3. Roll to Stand").rolls[0]
    assert [(m.value, m.reason) for m in stand.modifiers] == [(12, "square")]
    assert stand.notes == ("2nd Foot is in Square: +12 from the chart pack's Roll to Stand "
                           "chart (Talavera, roll to stand)",)
    # The pack's Mêlée Modifiers for Cavalry count the square (× 3 in the test pack).
    assert step(result, "5. Mêlée odds").outcome.startswith(
        "The 1:2 column: Hussars 20 = 20 against 2nd Foot 8 (× 3 square) = 24.")


def test_a_charge_into_a_square_without_its_values_says_they_must_be_given():
    result = charge([HUSSARS], [SQUARE_FOOT], "45 1 41", "chart_result=DR", spent=2)
    stand = step(result, "3. Roll to Stand").rolls[0]
    assert stand.modifiers == ()
    assert stand.notes == ("2nd Foot is in Square: no chart pack, so the Roll to Stand "
                           "chart's square modifier must be given in `mod` (published charts: "
                           "+12 at Talavera and most games, +6 in later ones)",)
    assert ("2nd Foot is in Square: no chart pack, so the Mêlée Modifiers for Cavalry's "
            "square multiplier must be counted in the mêlée values given") in step(
        result, "5. Mêlée odds").outcome
    on_test_pack = charge([HUSSARS], [SQUARE_FOOT], "45 1 41", spent=2, pack=pack())
    assert step(on_test_pack, "3. Roll to Stand").rolls[0].notes == (
        "2nd Foot is in Square: the chart pack's Roll to Stand chart has no square modifier: "
        "it must be given in `mod` (published charts: +12 at Talavera and most games, +6 in "
        "later ones)",)
    no_square = read_pack({**PACK_DATA, "cavalry_multipliers": {"defender": {"tired": 0.5}}})
    lacking = charge([HUSSARS], [SQUARE_FOOT], "45 1 41", spent=2, pack=no_square)
    assert ("2nd Foot is in Square: the chart pack's Mêlée Modifiers for Cavalry have no "
            "square multiplier: it must be counted in the mêlée values given") in step(
        lacking, "5. Mêlée odds").outcome


# --- Square on a chart split by formation: the Prusse 1806 example pack -----------------------


def prusse():
    from pathlib import Path
    path = Path(__file__).parents[3] / "docs" / "examples" / "labataille-prusse-1806-carre.json"
    return read_pack(json.loads(path.read_text()))


def test_square_reads_the_table_of_the_formation_it_forms_from():
    line = stack("1/17e Ligne", formation=Formation.LINE, nation="french")
    disordered = square(line, 1, "23", charts=prusse())
    roll = step(disordered, "2. Form Square").rolls[0]
    assert (roll.target, roll.result) == ("French, from line, 1 hex", "D")
    assert roll.notes == ("La Bataille pour la Prusse 1806: Carré Realization (French): La "
                          "Bataille pour la Prusse 1806 (Marshal Enterprises), Special Rules "
                          "p.5, the French Carré Realization Table (reference A.12): Premier, "
                          "not the revised chart",)
    # From column, 23 at 1 hex forms square; a personality in the hex (−6, given) does too.
    assert effects(square(replace(line, formation=Formation.COLUMN), 1, "23",
                          charts=prusse())) == [("marker_set", "1/17e Ligne", SQUARE)]
    assert effects(square(replace(line, mod=-6), 1, "23", charts=prusse())) == [
        ("marker_set", "1/17e Ligne", SQUARE)]
    # A stack without `formation` is in column, and the roll names the table it read.
    unsaid = stack("1/17e Ligne", nation="french")
    assert step(square(unsaid, 2, "44", charts=prusse()), "2. Form Square").rolls[0].target \
        == "French, from column, 2 hexes"


def test_a_stack_the_pack_has_no_table_for_reads_the_printed_chart_and_is_told_why():
    british = stack("2nd Foot", formation=Formation.LINE, nation="british")
    source = ScriptedSource.from_text("23")
    with pytest.raises(Undecided):
        form_square(british, 1, (), False, prusse(), source, Answers())
    result = square(british, 1, "23", "carre_result=C", charts=prusse())
    assert step(result, "2. Form Square").outcome == (
        "Read row 23 of the Square (Carré) Realization chart (British, from line, 1 hex; "
        "the chart pack's Carré chart has no table for British).")


def test_routed_and_standing_targets_are_not_pgd():
    """Charge Summary step 6: "If the target is PGD use the Cavalry Charge vs. PGD Mêlée
    procedure": a hex where a stack still stands is not PGD; the routed one is charged with
    it (it rolls to stand, and failing routs again)."""
    rabble = stack("Rabble", state=Order.ROUTED)
    result = charge([HUSSARS], [rabble, stack("2nd Foot")], "11 45 1 41", spent=2, pack=pack())
    assert step(result, "Cavalry Charge").outcome == (
        "Rabble and 2nd Foot: the Cavalry Charge vs. infantry and artillery Mêlée procedure.")
    assert "1. Pursuit" not in titles(result)
    assert step(result, "5. Mêlée odds").outcome.startswith(
        "The 2:1 column: Hussars 20 = 20 against 2nd Foot 10 = 10.")
    assert result.headline == "Rabble routs; DR: 2nd Foot routs"


def test_cavalry_stacked_with_infantry_is_not_a_cavalry_target():
    """Charge Summary step 6: "If the target is Cavalry use the Cavalry Charge vs. Cavalry
    Mêlée procedure": with infantry in the hex, the target is infantry and artillery, and
    every stack rolls to stand (routed stacks aside, cavalry alone is a cavalry target)."""
    mixed = [stack("Dragoons", arm=Arm.CAVALRY), stack("2nd Foot")]
    result = charge([HUSSARS], mixed, "45 45 1 51", spent=2, pack=pack())
    assert step(result, "Cavalry Charge").outcome == (
        "Dragoons and 2nd Foot: the Cavalry Charge vs. infantry and artillery Mêlée "
        "procedure.")
    assert [r.label for s in result.steps if s.title == "3. Roll to Stand" for r in s.rolls] \
        == ["Dragoons roll to stand", "2nd Foot roll to stand"]
    assert step(result, "5. Mêlée odds").outcome.startswith(
        "The 1:1 column: Hussars 20 = 20 against Dragoons 10 + 2nd Foot 10 = 20.")
    assert result.headline == "DR: Dragoons and 2nd Foot rout"
    aside = charge([HUSSARS], [stack("Dragoons", arm=Arm.CAVALRY),
                               stack("Rabble", state=Order.ROUTED)], "41", pack=pack())
    assert step(aside, "Cavalry Charge").outcome == (
        "Dragoons and Rabble: the Cavalry Charge vs. cavalry Mêlée procedure.")


def test_a_charge_result_on_three_stacks_or_more_counts_them_in_the_headline():
    """As an assault's: the regiments' names would fill a phone's title before its verb."""
    three = [stack(f"The {n}th Regiment of Foot") for n in (28, 29, 30)]
    result = charge([HUSSARS], three, "45 45 45 1 51", "chart_result=DS", spent=2)
    assert result.headline.startswith("DS: all 3 defenders surrender"), result.headline
