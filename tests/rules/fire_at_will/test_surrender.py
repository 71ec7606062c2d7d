"""The Surrender section: three situations, foot 4+, mounted 5+."""

from __future__ import annotations

import pytest

from rules.core.errors import NotAllowed
from rules.fire_at_will.charge import resolve_surrender
from rules.fire_at_will.effects import EffectKind as E
from rules.fire_at_will.surrender import SurrenderSituation as S

from .helpers import effects, foot, horse, run


@pytest.mark.parametrize(
    ("unit", "face", "surrenders"),
    [(foot(routing=True), 3, False), (foot(routing=True), 4, True),
     (horse(routing=True), 4, False), (horse(routing=True), 5, True),
     (horse(routing=True), 6, True), (foot(routing=True), 1, False)],
)
def test_foot_surrender_on_4_mounted_on_5(unit, face, surrenders):
    result = run(resolve_surrender, unit, S.ROUTING_TRAPPED, dice_text=str(face))
    assert (effects(result) == [(E.SURRENDERED, unit.name, None)]) is surrenders
    roll = result.steps[0].rolls[0]
    assert roll.target == ("5+ (mounted)" if unit.mounted else "4+ (foot)")


def test_situation_c_names_the_situation():
    result = run(resolve_surrender, foot(routing=True), S.ROUTING_TRAPPED, dice_text="6")
    assert "within 6\" of the enemy and unable to move" in result.steps[0].title
    assert "removed from the table" in result.steps[0].outcome


def test_situations_b_and_c_are_for_routing_units():
    with pytest.raises(NotAllowed, match="not routing"):
        run(resolve_surrender, foot(), S.ROUTING_TRAPPED, dice_text="6")


def test_situation_a_may_be_tested_alone():
    result = run(resolve_surrender, foot(), S.REAR_ROUT, dice_text="4")
    assert result.headline == "2nd Foot surrenders"


def test_a_routing_unit_successfully_charged_that_does_not_surrender_routs_again():
    # "Already routing units may surrender, but otherwise they automatically rout and lose 1
    # strength point": situation (b) is that charge.
    unit = horse(routing=True)
    result = run(resolve_surrender, unit, S.ROUTING_CHARGED, dice_text="4")
    assert result.headline == f"{unit.name} routs again, −1 SP"
    assert effects(result) == [(E.ROUTED, unit.name, None), (E.LOSE_SP, unit.name, 1)]


def test_situation_b_that_takes_the_last_sp_only_loses_it():
    # Its last SP (a battle's roster): it leaves the battle instead of routing again.
    unit = foot(routing=True, strength=1)
    result = run(resolve_surrender, unit, S.ROUTING_CHARGED, dice_text="3")
    assert result.headline == f"{unit.name} loses its last SP"
    assert effects(result) == [(E.LOSE_SP, unit.name, 1)]


@pytest.mark.parametrize("situation", [S.REAR_ROUT, S.ROUTING_TRAPPED])
def test_other_situations_that_do_not_surrender_change_nothing(situation):
    result = run(resolve_surrender, foot(routing=True), situation, dice_text="3")
    assert result.headline == "2nd Foot does not surrender"
    assert effects(result) == []


def test_situation_a_refuses_a_unit_known_not_to_be_routing():
    # "Units charged in the rear which rout": a battle's roster knows the unit has not routed.
    with pytest.raises(NotAllowed, match=r"2nd Foot is not routing; situation \(a\) is for a "
                       "unit charged in the rear that routs") as refused:
        run(resolve_surrender, foot(), S.REAR_ROUT, dice_text="4", routing_known=True)
    assert "`routing`" in refused.value.hint
    result = run(resolve_surrender, foot(routing=True), S.REAR_ROUT, dice_text="4",
                 routing_known=True)
    assert effects(result) == [(E.SURRENDERED, "2nd Foot", None)]
