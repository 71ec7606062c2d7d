"""The cavalry charge's remaining sentences, each on scripted dice and answers: the chart's
other results, the highest MP, canister, leaders, ZOC losses, Rallying Square, a Recall that
ends the charge, and what the battle reminds of and clears."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.core.errors import NotAllowed
from rules.core.roster import Roster, RosterUnit
from rules.labataille.battle import new_turn, reminders
from rules.labataille.effects import CHARGED, SQUARE
from rules.labataille.units import Arm, ChargeMarker, Order

from .helpers import charge, charge_asks, effects, pack, stack, step, titles
from .test_charge import CHARGING_HUSSARS, HUSSARS, square


def test_an_as_removes_the_cavalry_and_the_defenders_stay():
    result = charge([HUSSARS], [stack("2nd Foot")], "45 1 11", "chart_result=AS", spent=2)
    assert effects(result) == [("surrendered", "Hussars", None)]
    assert "6a. AS" in titles(result)
    assert "9. Cavalry Regroup" not in titles(result)


def test_a_ds_against_cavalry_removes_the_defenders_and_the_cavalry_advances():
    dragoons = stack("Dragoons", arm=Arm.CAVALRY)
    result = charge([HUSSARS], [dragoons], "66", "chart_result=DS")
    assert effects(result)[:3] == [("surrendered", "Dragoons", None), ("moved", "Hussars", 1),
                                   ("marker_set", "Hussars", "disordered")]
    assert titles(result)[-1] == "5. Cavalry Regroup"


def test_cavalry_retreating_before_a_charge_lets_the_chargers_try_to_recall():
    screen = stack("Cossacks", arm=Arm.CAVALRY, retreats=True)
    assert charge_asks([HUSSARS], [screen], "") == "recall"
    recalled = charge([HUSSARS], [screen], "2", "recall=recall; after_recall=end")
    assert step(recalled, "1b. Recall").rolls[0].result == "recalled"
    assert ("marker_set", "Hussars", "tired") in effects(recalled)


def test_pursuit_losses_use_the_charging_unit_with_the_highest_mp():
    slow = stack("Cuirassiers", arm=Arm.CAVALRY, melee=20, mp=6)
    fast = stack("Chasseurs", arm=Arm.CAVALRY, melee=10, mp=9)
    result = charge([slow, fast], [stack("Rabble", state=Order.ROUTED)], "", spent=3)
    assert step(result, "1. Pursuit").outcome.startswith(
        "Pursuit losses: (Chasseurs' printed MP 9 − 3 MPs expended) ÷ 3, rounded down = 2.")
    assert ("damage", "Rabble", 2) in effects(result)


def test_defending_artillery_fires_canister_at_the_charging_cavalry():
    guns = stack("Battery", arm=Arm.ARTILLERY, fire=6, canister=True, melee=4)
    result = charge([HUSSARS], [guns], "45 1 33 41", spent=2, pack=pack())
    shot = step(result, "4. Defensive Fire").rolls[0]
    assert ("canister: 2 columns right (labataille-revised-assault-and-charge.txt, Cavalry "
            "Charge vs. Infantry and Artillery step 3 NOTE)") in shot.notes


def test_leaders_modify_the_charge_melee_roll():
    led = stack("Hussars", arm=Arm.CAVALRY, melee=20, mp=8, nation="french",
                leader="Lasalle", leader_value=2)
    held = stack("2nd Foot", leader="Hill", leader_value=1)
    roll = step(charge([led], [held], "45 1 41", spent=2, pack=pack()),
                "6. Mêlée resolution").rolls[0]
    assert [(m.value, m.reason) for m in roll.modifiers] == [(2, "Lasalle (attacking)"),
                                                             (-1, "Hill (defending)")]


def test_a_routing_stack_loses_an_increment_per_zone_of_influence_retreated_from():
    foot = stack("2nd Foot", zoc=2)
    result = charge([HUSSARS], [foot], "45 1 41", spent=8, pack=pack())
    assert ("routed", "2nd Foot", None) in effects(result)
    assert ("damage", "2nd Foot", 2) in effects(result)  # no pursuit (8 − 8), two ZOCs


def test_a_disordered_stack_may_form_a_rallying_square_a_routed_one_may_not():
    rallying = square(stack("Foot", state=Order.DISORDERED), 2, "35", "carre_result=C")
    assert ("marker_set", "Foot", SQUARE) in effects(rallying)
    with pytest.raises(NotAllowed, match="routed and cannot form Square"):
        square(stack("Foot", state=Order.ROUTED), 2, "")


def test_a_recall_after_a_square_forms_may_end_the_charge():
    ended = square(stack("Foot"), 1, "11 5", "recall=recall; after_recall=end",
                   cavalry=[CHARGING_HUSSARS], charts=pack())
    assert effects(ended)[-3:] == [("moved", "Hussars", 2), ("marker_set", "Hussars", "tired"),
                                   ("marker_set", "Hussars", CHARGED)]


def battle_roster() -> Roster:
    cavalry = {"arm": "cavalry", "morale": 34}
    return Roster(units=(
        RosterUnit("Hussars", "French", {**cavalry, "charge": "charging"}, 4),
        RosterUnit("Lancers", "French", {**cavalry, "charge": "charged", "fatigue": "tired"},
                   4),
        RosterUnit("2nd Foot", "British", {"morale": 41, "formation": "square"}, 6)))


def test_the_battle_reminds_of_charges_fatigue_and_squares():
    routed = RosterUnit("95th", "British", {"morale": 41, "formation": "square",
                                            "state": "routed"}, 6)
    roster = battle_roster()
    said = reminders(replace(roster, units=(*roster.units, routed)), None)
    assert said == [
        "Charge markers on Hussars: resolve each charge's mêlée (`/cavalry labataille`), or "
        "take the marker off (`/gm set`)",
        # Not the routed 95th: a rout leaves no square to remind of.
        "In Square: 2nd Foot: it stays so until it changes formation (`/unit edit unit:… "
        "words:formation=line`)",
        "Tired: Lancers: clear the marker when your rules let them recover (`/unit edit "
        "unit:… words:fatigue=fresh`)"]
    assert reminders(battle_roster(), "Mêlée Segment") == said[:1]
    assert reminders(battle_roster(), "Fire Segment") == []


def test_tired_and_exhausted_are_reminded_in_one_line():
    """The advice for both markers is the same: said once, naming each marker's stacks."""
    roster = battle_roster()
    worn = RosterUnit("Scots Greys", "British", {"morale": 44, "fatigue": "exhausted"}, 4)
    said = reminders(replace(roster, units=(*roster.units, worn)), None)
    assert said[-1] == ("Tired: Lancers; Exhausted: Scots Greys: clear the markers when your "
                        "rules let them recover (`/unit edit unit:… words:fatigue=fresh`)")


def test_a_new_turn_takes_the_inverted_markers_off_and_leaves_the_live_ones():
    after, changes = new_turn(battle_roster())
    markers = {u.name: u.attributes.get("charge") for u in after.units}
    assert markers == {"Hussars": ChargeMarker.CHARGING.value, "Lancers": None,
                       "2nd Foot": None}
    assert [(c.who, c.field) for c in changes] == [("Lancers", "charge")]
