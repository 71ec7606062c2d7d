"""One list of reasons a unit cannot charge, given alike by `/charge` and by a closing check
with `charging` (phases 4 and 9)."""

from __future__ import annotations

import pytest

from rules.core.errors import NotAllowed
from rules.le_baton.charge import ChargeSituation, resolve_charge
from rules.le_baton.morale import Situation, resolve_morale
from rules.le_baton.units import Formation, Nation

from .helpers import foot, guns, ligne, run


def charge_refusal(unit) -> NotAllowed:
    target = foot() if unit.nation is Nation.FRENCH else ligne()
    with pytest.raises(NotAllowed) as error:
        run(resolve_charge, unit, target, ChargeSituation(), dice_text="")
    return error.value


def closing_refusal(unit) -> NotAllowed:
    phase = 4 if unit.nation is Nation.FRENCH else 9
    with pytest.raises(NotAllowed) as error:
        run(resolve_morale, unit, phase, Situation(charging=True), dice_text="")
    return error.value


@pytest.mark.parametrize(("unit", "reason"), [
    (guns(), "Battery is artillery: only infantry and cavalry charge."),
    (ligne(formation=Formation.LINE),
     "45e Ligne is French infantry in line: French infantry may only charge in column."),
    (ligne(formation=None), "45e Ligne is French infantry with no formation given: French "
                            "infantry may only charge in column."),
    # What the unit is before what holds it: a square in melee was charged as it stood.
    (ligne(formation=Formation.SQUARE, in_melee=True),
     "45e Ligne is French infantry in square: French infantry may only charge in column."),
    (foot(formation=Formation.SQUARE, in_melee=True),
     "2nd Foot is in square, which moves 0\": it cannot charge."),
    (foot(formation=Formation.SQUARE, firefight=True),
     "2nd Foot is in square, which moves 0\": it cannot charge."),
    (ligne(in_melee=True), "45e Ligne is in melee: a unit in melee does not charge."),
    (ligne(in_melee=True, halted=True), "45e Ligne is in melee: a unit in melee does not charge."),
    (ligne(firefight=True), "45e Ligne is locked in a firefight and cannot charge."),
    (foot(halted=True, charge_failed=True),
     "2nd Foot is halted this turn: a failed morale check allows no movement."),
    (foot(charge_failed=True), "2nd Foot did not roll its 6 to charge this turn."),
])
def test_a_unit_gets_one_reason_it_cannot_charge_whichever_command_asks(unit, reason):
    assert charge_refusal(unit).message == reason
    assert closing_refusal(unit).message == reason


def test_each_command_says_what_to_do_next():
    halted = foot(halted=True)
    assert charge_refusal(halted).hint == (
        "It may move and charge again next turn (`/battle next`). Set by mistake: a GM clears "
        "it with `/gm set field:halted value:no`.")
    assert closing_refusal(halted).hint == (
        "Drop `charging` to test 2nd Foot for shooting casualties.")


@pytest.mark.parametrize(("unit", "hint"), [
    # "Opposing lines of infantry within 4" ... cannot move, charge or change formation".
    (ligne(formation=Formation.LINE, firefight=True),
     "45e Ligne is locked in a firefight and cannot charge."),
    (ligne(formation=Formation.LINE, in_melee=True),
     "45e Ligne is in melee: a unit in melee does not charge."),
    # "Halt. No movement this turn": not even the full move a new formation takes.
    (foot(formation=Formation.SQUARE, halted=True),
     "2nd Foot is halted this turn: a failed morale check allows no movement."),
])
def test_a_unit_held_this_turn_is_not_told_to_change_formation_to_charge(unit, hint):
    refusal = charge_refusal(unit)
    assert "formed column" not in refusal.hint and "changed formation" not in refusal.hint
    assert refusal.hint == hint
