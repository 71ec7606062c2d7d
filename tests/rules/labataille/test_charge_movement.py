"""Charge movement and the reacting player's attempts: a charge that falls short, light
cavalry's Recall at any time, skirmishing cavalry Forming Up, the Grand Charge, and each
stack's one attempt per charge as the battle keeps it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.core.decisions import Answers, Undecided
from rules.core.dice import ScriptedSource
from rules.core.errors import InvalidInput, NotAllowed
from rules.core.records import Resolution
from rules.core.roster import Roster, RosterUnit
from rules.labataille.battle import apply_effects, new_turn
from rules.labataille.commands import prepare
from rules.labataille.effects import CHARGED, CHARGING
from rules.labataille.movement import light_recall
from rules.labataille.reactions import form_square, form_up, reaction_charge
from rules.labataille.units import Arm, ChargeMarker, Formation, Order

from .helpers import charge, effects, pack, stack, step, titles

HUSSARS = stack("Hussars", arm=Arm.CAVALRY, melee=20, mp=8, nation="french")
LANCERS = stack("Lancers", arm=Arm.CAVALRY, melee=16, mp=8, nation="french")
LIGHT = stack("Light Dragoons", arm=Arm.CAVALRY, light=True, mp=9, nation="british")


def scripted(rolled: str, run) -> Resolution:
    source = ScriptedSource.from_text(rolled)
    result = run(source)
    source.finish()
    return result


# --- Summary step 3: charge movement ---------------------------------------------------------


def test_a_charge_that_falls_short_of_its_declared_target_is_disordered_and_finished():
    result = charge([HUSSARS], [stack("2nd Foot")], "", reached=False)
    assert titles(result) == ["3. Charge Movement"]
    assert effects(result) == [("marker_set", "Hussars", "disordered"),
                               ("marker_set", "Hussars", CHARGED)]
    assert result.headline == "Hussars falls short: disordered"
    assert "did not reach 2nd Foot, its declared target, with its 5 MPs" in step(
        result, "3. Charge Movement").outcome


def test_disordered_cavalry_that_falls_short_stays_disordered_and_needs_no_spent_mps():
    shaken = stack("Hussars", arm=Arm.CAVALRY, state=Order.DISORDERED)
    assert effects(charge([shaken], [stack("2nd Foot")], "", reached=False)) == [
        ("marker_set", "Hussars", CHARGED)]


def recall_of(chargers, rolled, answers=""):
    return scripted(rolled, lambda dice: light_recall(tuple(chargers), None, dice,
                                                      Answers.read(answers)))


def test_light_cavalry_recalls_at_any_time_and_ends_the_charge_tired():
    result = recall_of([LIGHT], "5", "after_recall=end")  # British recall on 5+ (A.8)
    assert titles(result) == ["3. Charge Movement", "3. Recall", "9. Cavalry Regroup"]
    assert step(result, "3. Recall").rolls[0].target == "≥ 5"
    assert effects(result) == [("moved", "Light Dragoons", 2),
                               ("marker_set", "Light Dragoons", "tired"),
                               ("marker_set", "Light Dragoons", CHARGED)]
    assert result.headline == "Light Dragoons is recalled"


def test_a_light_recall_that_fails_rides_on_and_a_new_target_is_a_new_charge():
    assert recall_of([LIGHT], "4").headline == "Light Dragoons rides on"
    assert effects(recall_of([LIGHT], "4")) == []
    new = recall_of([LIGHT], "6", "after_recall=new")
    assert effects(new) == []
    with pytest.raises(Undecided) as stop:
        recall_of([LIGHT], "6")
    assert stop.value.question.key == "after_recall"


def test_only_light_cavalry_still_charging_recalls_at_any_time():
    with pytest.raises(NotAllowed, match="only light cavalry") as refused:
        recall_of([HUSSARS], "")
    assert "/square" in refused.value.hint
    with pytest.raises(NotAllowed, match="already charged"):
        recall_of([stack("C", arm=Arm.CAVALRY, light=True, charge=ChargeMarker.CHARGED)], "")
    with pytest.raises(InvalidInput, match="not cavalry"):
        recall_of([stack("Foot", light=True)], "")


# --- Summary step 5: skirmishing cavalry forms up ----------------------------------------------


SKIRMISHERS = stack("Cossacks", arm=Arm.CAVALRY, formation=Formation.SKIRMISH, morale=34)
CHARGING_HUSSARS = replace(HUSSARS, charge=ChargeMarker.CHARGING)


def test_skirmishing_cavalry_that_passes_forms_up_and_stands():
    result = scripted("41", lambda dice: form_up(SKIRMISHERS, (CHARGING_HUSSARS,), None, dice))
    assert effects(result) == [("reacted", "Cossacks", "Hussars"),
                               ("formation", "Cossacks", "line")]
    assert result.headline == "Cossacks forms up and stands"
    assert result.defaults == ("Forming Up is a morale check with the Reaction Charge's "
                               "modifiers (the text names no test): a project reading",)


def test_skirmishing_cavalry_that_fails_stays_and_may_still_retreat_before_the_charge():
    result = scripted("34", lambda dice: form_up(SKIRMISHERS, (CHARGING_HUSSARS,), None, dice))
    assert effects(result) == [("reacted", "Cossacks", "Hussars")]
    assert "may still Retreat Before Charge" in step(result, "5. Form Up and Stand").outcome


def test_skirmishing_cavalry_forms_up_only_against_a_charge():
    """Summary step 5: "At any time during Charge movement reacting cavalry in Skirmish Order
    and in the Charge Zone may attempt to Form Up and Stand": cavalry only moving, without
    its Charge marker, has no Charge Zone, so the attempt is refused before any die (as a
    Reaction Charge's is) and no attempt is recorded."""
    with pytest.raises(NotAllowed, match="^Hussars carries no Charge marker: Forming Up is "
                                         "attempted during Charge movement."):
        form_up(SKIRMISHERS, (HUSSARS,), None, ScriptedSource.from_text("41"))


def test_only_skirmishing_cavalry_forms_up():
    with pytest.raises(NotAllowed, match="Skirmish Order"):
        form_up(stack("Hussars", arm=Arm.CAVALRY), (), None, ScriptedSource.from_text(""))
    with pytest.raises(NotAllowed, match="Skirmish Order"):
        form_up(stack("Voltigeurs", formation=Formation.SKIRMISH), (), None,
                ScriptedSource.from_text(""))


def test_a_routed_skirmisher_does_not_form_up_and_rolls_no_die():
    """Charge Summary step 5: cavalry in Skirmish Order "may attempt to Form Up and Stand":
    a routed stack does not stand (it is PGD, charged as such), so it is refused before any
    die is rolled."""
    routed = replace(SKIRMISHERS, state=Order.ROUTED)
    with pytest.raises(NotAllowed, match="^Cossacks is routed and cannot form up.$"):
        form_up(routed, (CHARGING_HUSSARS,), None, ScriptedSource.from_text("66"))


# --- the Grand Charge ---------------------------------------------------------------------------


def test_in_a_grand_charge_one_charging_stack_accepts_the_reaction_charge():
    reactor = stack("Dragoons", arm=Arm.CAVALRY)
    grand = tuple(replace(s, charge=ChargeMarker.CHARGING) for s in (HUSSARS, LANCERS))
    with pytest.raises(Undecided) as stop:
        reaction_charge(reactor, grand, 4, None, ScriptedSource.from_text("45"))
    assert [a.label for a in stop.value.question.answers] == ["Hussars", "Lancers"]
    result = scripted("45", lambda dice: reaction_charge(
        reactor, grand, 4, None, dice, Answers.read("accepts=2")))
    # Lancers meets it and is now the defender; Hussars rides on with its charge.
    assert effects(result) == [("reacted", "Dragoons", "Hussars; Lancers"),
                               ("marker_set", "Lancers", CHARGED),
                               ("moved", "Lancers", 2), ("moved", "Dragoons", 2),
                               ("marker_set", "Dragoons", CHARGING)]
    assert result.headline == "Dragoons counter-charges Lancers"
    assert str(result.effects[0].describe()) == (
        "Dragoons has made its attempt against Hussars and Lancers' charge (once per charge)")


def test_a_square_against_a_grand_charge_recalls_it_as_one():
    charging = [stack(n, arm=Arm.CAVALRY, nation="british", charge=ChargeMarker.CHARGING)
                for n in ("Greys", "Inniskillings")]
    result = scripted("11 6", lambda dice: form_square(
        stack("Carré"), 1, tuple(charging), True, pack(), dice,
        Answers.read("recall=recall; after_recall=new")))
    assert effects(result)[0] == ("reacted", "Carré", "Greys; Inniskillings")
    assert result.effects[0].describe() == ("Carré has made its attempt against Greys and "
                                            "Inniskillings' charge (once per charge)")
    assert step(result, "2. Recall").rolls[0].target == "≥ 5"  # British recall on 5+ (A.8)


# --- once per charge, as the battle keeps it -----------------------------------------------------


def battle() -> Roster:
    cavalry = {"arm": "cavalry", "morale": 34, "mp": 8, "nation": "french"}
    return Roster(units=(
        RosterUnit("Hussars", "French", {**cavalry, "charge": "charging"}, 4),
        RosterUnit("Lancers", "French", {**cavalry, "charge": "charging"}, 4),
        RosterUnit("Dragoons", "British", {**cavalry, "nation": "british"}, 4),
        RosterUnit("2nd Foot", "British", {"morale": 41, "nation": "british"}, 6)))


def play(roster: Roster, procedure: str, options: dict, rolled: str) -> Roster:
    result = scripted(rolled, lambda dice: prepare(procedure, options, roster)(dice))
    after, _ = apply_effects(result.effects, roster)
    return after


def test_a_stack_attempts_once_per_charge_and_a_grand_charge_is_one_charge():
    roster = play(battle(), "reaction", {"reactor": "Dragoons", "charger": "Hussars; Lancers",
                                         "gap": 3}, "22")
    assert [e.label for e in roster.engagements] == [
        "Dragoons' attempt against Hussars and Lancers' charge"]
    with pytest.raises(NotAllowed, match="Dragoons has already made its attempt against "
                                         "Hussars and Lancers' charge"):
        prepare("reaction", {"reactor": "Dragoons", "charger": "Lancers", "gap": 2}, roster)
    roster = play(roster, "square", {"stack": "2nd Foot", "distance": 2, "cavalry": "Hussars",
                                     "choices": "carre_result=D"}, "35")
    with pytest.raises(NotAllowed, match="2nd Foot has already"):
        prepare("square", {"stack": "2nd Foot", "distance": 1, "cavalry": "Hussars"}, roster)
    fresh, changes = new_turn(roster)
    assert fresh.engagements == ()
    assert {c.who for c in changes} == {"Dragoons' attempt against Hussars and Lancers' charge",
                                         "2nd Foot's attempt against Hussars' charge"}
    prepare("square", {"stack": "2nd Foot", "distance": 1, "cavalry": "Hussars"}, fresh)


def test_the_cavalrys_move_and_its_charge_are_two_triggering_events():
    roster = battle()
    moving = Roster(units=tuple(
        RosterUnit(u.name, u.side, {k: v for k, v in u.attributes.items() if k != "charge"},
                   u.strength) for u in roster.units))
    moved = play(moving, "square", {"stack": "2nd Foot", "distance": 4, "cavalry": "Hussars",
                                    "choices": "carre_result=D"}, "35")
    assert [e.label for e in moved.engagements] == ["2nd Foot's attempt against Hussars' move"]
    charging = Roster(units=tuple(
        RosterUnit(u.name, u.side, {**u.attributes, "charge": "charging"}, u.strength)
        if u.name == "Hussars" else u for u in moved.units), engagements=moved.engagements)
    prepare("square", {"stack": "2nd Foot", "distance": 2, "cavalry": "Hussars"}, charging)


def test_in_a_battle_the_charging_cavalry_must_be_named():
    with pytest.raises(InvalidInput, match="Name the charging cavalry in `cavalry`"):
        prepare("square", {"stack": "2nd Foot", "distance": 2}, battle())
