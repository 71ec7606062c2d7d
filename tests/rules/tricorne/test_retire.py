"""Step 2: defending cavalry may retire and rally, asked before the attacker rolls."""

from __future__ import annotations

import pytest

from rules.tricorne.effects import BANNER, ELIMINATED, LEADER_JOINS, ROUTED_OFF

from .helpers import asked, cavalry, effects, melee, regular, rolls, step, titles, unit

HUSSARS = cavalry("Hussars", blocks=3)
ATTACKER = regular("Attacker")


def test_the_defender_is_asked_before_any_die_is_rolled():
    assert asked(ATTACKER, HUSSARS, "cav cav cav") == ("retire", 0)


@pytest.mark.parametrize("kind", ["regular", "militia", "trained-artillery"])
def test_only_cavalry_may_retire_and_rally(kind):
    result = melee(ATTACKER, unit("Target", kind, blocks=3), "cav art art  art art")
    assert "Retire and rally" not in titles(result)


def test_cavalry_without_two_hexes_behind_may_not_retire():
    result = melee(ATTACKER, cavalry("Hussars", blocks=3, cannot_retire=True),
                   "art art art  art art")
    assert step(result, "Retire and rally").outcome.startswith(
        "Hussars has no two hexes to move back into: it may not retire and rally")


def test_no_retire_against_an_ambush_or_first_strike_card():
    result = melee(ATTACKER, HUSSARS, "art art art  art art", card=True)
    assert step(result, "Retire and rally").outcome == (
        "Hussars may not retire and rally against an Ambush or First Strike card.")


def test_no_retire_against_a_unit_battling_back():
    # Dragoons attack the infantry, which battles back: the cavalry is not asked.
    result = melee(cavalry("Dragoons"), regular("Foot", blocks=3), "cav cav cav  art art")
    assert titles(result) == ["Melee: announce", "Dragoons rolls against Foot",
                              "Foot battles back against Dragoons"]


def test_retiring_only_unit_symbols_hit_then_it_moves_two_hexes_and_rallies():
    result = melee(ATTACKER, HUSSARS, "cav sab flag  cav cav", "retire; stay")
    first = rolls(result)[0]
    assert first.hits == 1
    assert "retire and rally: sabers and flags are ignored" in first.notes
    assert effects(result) == [("damage", "Hussars", 1), ("moved", "Hussars", 2)]
    assert result.effects[1].value == "retires and rallies"
    assert titles(result) == ["Melee: announce", "Retire and rally",
                              "Attacker rolls against Hussars", "Retire", "Rally check",
                              "Take ground"]
    # It may not battle back.
    assert all(r.label != "Hussars melee" for r in rolls(result))


def test_a_retiring_unit_eliminated_by_hits_does_not_move():
    result = melee(ATTACKER, cavalry("Hussars", blocks=1), "cav cav art", "retire; stay")
    assert effects(result) == [("damage", "Hussars", 1), (ELIMINATED, "Hussars", None),
                               (BANNER, "Attacker", None)]


def test_a_retiring_unit_that_fails_its_rally_check_routs():
    result = melee(ATTACKER, HUSSARS, "art art art  inf flag flag", "retire; stay")
    assert effects(result)[1:] == [(ROUTED_OFF, "Hussars", None), (BANNER, "Attacker", None)]


def test_it_may_retire_one_hex_onto_a_lone_friendly_leader_who_joins_it():
    onto = cavalry("Hussars", blocks=3, cannot_retire=True, retire_onto="Tarleton")
    result = melee(ATTACKER, onto, "art art art  cav cav cav cav", "retire; stay")
    assert effects(result) == [("moved", "Hussars", 1), (LEADER_JOINS, "Tarleton", None)]
    assert result.effects[1].value == "Hussars"
    assert step(result, "Retire").outcome == "Hussars retires 1 hex onto Tarleton, who joins it."
    # The leader joined before the rally check: 3 blocks + 1 leader = 4 dice.
    assert len(step(result, "Rally check").rolls[0].dice) == 4


def test_a_unit_with_its_own_leader_cannot_retire_onto_another():
    led = cavalry("Hussars", blocks=3, leader="Banastre", retire_onto="Tarleton",
                  cannot_retire=True)
    result = melee(ATTACKER, led, "art art art  art art art")
    assert "may not retire and rally" in step(result, "Retire and rally").outcome


def test_the_attacker_may_take_ground_after_a_retire_but_gains_no_bonus_melee():
    dragoons = cavalry("Dragoons")
    result = melee(dragoons, HUSSARS, "art art art  cav cav cav", "retire; advance")
    assert ("moved", "Dragoons", 1) in effects(result)
    assert "Bonus melee" not in titles(result)
    assert result.notes == ("Dragoons took ground after a retire and rally: no bonus melee "
                            "(melee step 2, Retire and Rally).",)
    # Even when the retiring unit is eliminated: no bonus melee.
    gone = melee(dragoons, cavalry("Hussars", blocks=1), "cav art art", "retire; advance")
    assert "Bonus melee" not in titles(gone)


def test_standing_cavalry_is_resolved_normally_and_battles_back():
    result = melee(ATTACKER, HUSSARS, "cav sab art  inf inf", "stand")
    assert step(result, "Retire and rally").outcome == "Hussars stands, and may battle back."
    assert effects(result) == [("damage", "Hussars", 2), ("damage", "Attacker", 2)]
