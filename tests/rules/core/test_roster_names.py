"""A roster names its units: a near miss is offered, and a unit out of the battle is said so."""

from __future__ import annotations

import pytest

from rules.core.roster import Roster, RosterUnit, UnknownUnit

ROSTER = Roster(units=(
    RosterUnit("Béarn", "French", {}, strength=0, status="gone", gone_reason="surrendered"),
    RosterUnit("Lochiel’s Camerons", "Jacobites", {}, strength=4),
))


def refusal(name: str, *, allow_gone: bool = False) -> str:
    with pytest.raises(UnknownUnit) as error:
        ROSTER.unit(name, allow_gone=allow_gone)
    return error.value.message


def test_a_near_miss_of_a_unit_in_the_battle_is_offered():
    assert refusal("Lochiels Camerons") == ("There is no unit called `Lochiels Camerons` in "
                                            "this battle. Did you mean `Lochiel’s Camerons`?")


def test_a_near_miss_of_a_unit_out_of_the_battle_is_offered_and_said_to_be_out():
    assert refusal("Bearn") == ("There is no unit called `Bearn` in this battle. Did you mean "
                                "`Béarn`? It is out of the battle (surrendered).")


def test_where_a_unit_out_of_the_battle_will_do_it_is_offered_as_any_other():
    assert refusal("Bearn", allow_gone=True) == ("There is no unit called `Bearn` in this "
                                                 "battle. Did you mean `Béarn`?")
    assert refusal("Nobody") == "There is no unit called `Nobody` in this battle."
