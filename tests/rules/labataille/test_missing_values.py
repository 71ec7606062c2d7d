"""Nothing a procedure needs is taken as zero or assumed: a stack without the mêlée value, the
increments or the leader's value a step reads is refused before any die, with the value named
and how to give it; an attacker without a distance takes no distance modifier, and its roll
says so."""

from __future__ import annotations

import pytest

from rules.core.dice import ScriptedSource
from rules.core.errors import InvalidInput
from rules.labataille.reactions import form_up, reaction_charge
from rules.labataille.units import Arm, ChargeMarker, Formation, Order, Stack

from .helpers import assault, charge, pack, stack, step

A, D = stack("A", melee=20), stack("D", melee=10)
BARE = Stack(name="Bare", morale=34)  # no mêlée value, no increments, as typed without them
HUSSARS = stack("Hussars", arm=Arm.CAVALRY, melee=20, mp=8, nation="french")


@pytest.mark.parametrize("side", ["attackers", "defenders"])
def test_a_stack_without_a_melee_value_is_refused_not_counted_as_zero(side):
    stacks = {"attackers": [A], "defenders": [D], side: [BARE]}
    with pytest.raises(InvalidInput, match="Bare has no mêlée value: give it") as refused:
        assault(stacks["attackers"], stacks["defenders"], "")
    assert "`melee=12`" in str(refused.value)
    with pytest.raises(InvalidInput, match="Bare has no mêlée value"):
        charge([HUSSARS], [BARE], "", spent=5)


def test_stacks_that_never_reach_the_odds_need_no_melee_value():
    leaving = Stack(name="Skirmishers", morale=34, retreats=True)
    result = assault([A], [leaving], "", "new_assault=no")
    assert step(result, "1. Retreat Before Assault").outcome.startswith("Skirmishers retreat")
    alone = assault([Stack(name="A2", morale=34)], [leaving], "", "new_assault=no")
    assert alone.headline == "Skirmishers retreats before the assault"
    led = Stack(name="A3", morale=34, leader="Ney")  # no morale check: no value needed
    assert assault([led], [leaving], "", "new_assault=no").headline == alone.headline
    routed = Stack(name="Rabble", morale=34, increments=2, state=Order.ROUTED)
    assert charge([HUSSARS], [routed], "", spent=5).headline == "Rabble is ridden down"


def test_a_stack_fire_may_hit_must_give_its_increments_not_one_assumed():
    target = Stack(name="52nd", morale=34, melee=8, defence=9)
    with pytest.raises(InvalidInput, match="52nd's increments are not given, and fire may "
                                           "cost it some") as refused:
        assault([stack("A", fire=6)], [target], "")
    assert "`inc=5`" in str(refused.value) and "strength" in str(refused.value)
    # Nobody fires at it: its increments are not needed.
    assert assault([A], [target], "45 45 1 41", pack=pack()).headline == "DR1: 52nd routs"


def test_a_stack_a_pursuit_may_hit_must_give_its_increments():
    routed = Stack(name="Rabble", morale=34, state=Order.ROUTED)
    with pytest.raises(InvalidInput, match="Rabble's increments are not given, and the "
                                           "pursuit may cost it some"):
        charge([HUSSARS], [routed], "", spent=2)  # (8 − 2) ÷ 3 = 2 increments
    slow = stack("Cuirassiers", arm=Arm.CAVALRY, mp=6)
    assert charge([slow], [routed], "", spent=5).headline == "Rabble is ridden down"  # 1 ÷ 3


def test_a_leader_without_a_value_is_refused_where_his_value_counts():
    led = stack("A", melee=20, leader="Ney")
    with pytest.raises(InvalidInput, match="Ney, with A, has no value: give it") as refused:
        assault([led], [D], "")
    assert "`leader_value=2`" in str(refused.value)
    reactor = stack("Lancers", arm=Arm.CAVALRY, leader="Colbert")
    charging = stack("Hussars", arm=Arm.CAVALRY, charge=ChargeMarker.CHARGING)
    with pytest.raises(InvalidInput, match="Colbert, with Lancers, has no value"):
        reaction_charge(reactor, (charging,), 2, None, ScriptedSource([]))
    skirmishing = stack("Cossacks", arm=Arm.CAVALRY, formation=Formation.SKIRMISH,
                        leader="Platov")
    with pytest.raises(InvalidInput, match="Platov, with Cossacks, has no value"):
        form_up(skirmishing, (), None, ScriptedSource([]))


def test_a_leader_of_value_zero_is_a_value():
    led = stack("A", melee=20, leader="Ney", leader_value=0)
    result = assault([led], [D], "45 45 1 41", pack=pack())
    assert step(result, "7. Mêlée resolution").rolls[0].modifiers == ()


def test_an_attacker_without_a_distance_takes_no_distance_modifier_and_the_roll_says_so():
    on_pack = assault([A], [D], "45 45 1 41", pack=pack())
    assert step(on_pack, "3a. Attacker morale check").rolls[0].notes == (
        "A: no `distance` given: no distance modifier (give `distance=N`)",)
    bare = assault([A], [D], "45 45 1 41", "chart_result=DR1")
    assert step(bare, "3a. Attacker morale check").rolls[0].notes == (
        "A: no `distance` given: no distance modifier (without a chart pack, give it in "
        "`mod`)",)


@pytest.mark.parametrize(("nation", "meant"), [("britsh", "british"), ("Frnech", "french"),
                                               ("kgI", "kgl"), ("klg", "kgl"), ("kg", "kgl"),
                                               ("austrian", None), ("dutch", None),
                                               ("irish", None)])
def test_a_near_miss_of_a_nation_the_rules_name_is_refused_any_other_goes(nation, meant):
    from rules.labataille.inputs import build_stack

    values = {"arm": "infantry", "morale": 41, "nation": nation}
    if meant is None:
        assert build_stack("52nd", values, "defenders").nation == nation
        return
    with pytest.raises(InvalidInput, match=f"nation `{nation}`: did you mean `{meant}`"):
        build_stack("52nd", values, "defenders")


def test_a_quick_lookups_stack_has_at_least_one_increment():
    # A roster unit set to 0 leaves the battle instead (tests/bot/test_gm_hardening.py).
    from rules.labataille.commands import prepare

    with pytest.raises(InvalidInput, match="`increments` cannot be 0. It must be at least 1."):
        prepare("assault", {"attackers": "Garde: infantry morale=34 melee=8 inc=0",
                            "defenders": "B: infantry morale=34 melee=8"})


def test_canister_on_a_stack_that_is_not_artillery_is_refused_not_lost():
    """"Defending stacks containing artillery" fire canister: on infantry the word would
    shift nothing, silently."""
    from rules.labataille.commands import prepare

    with pytest.raises(InvalidInput, match="B is not artillery, so it fires no `canister`") \
            as refused:
        prepare("assault", {"attackers": "A: infantry morale=34 melee=8 fire=4 inc=4",
                            "defenders": "B: infantry morale=41 melee=8 fire=5 defence=9 "
                                         "inc=5 canister"})
    assert refused.value.hint == ("Give the stack that holds the guns the word `artillery`, "
                                  "or drop `canister`.")


def test_unsupplied_artillery_is_refused_canister():
    # "Assuming facing and ammunition allow ... canister"
    from rules.labataille.commands import prepare

    with pytest.raises(InvalidInput, match="Battery is `unsupplied` \\(no ammunition\\), so it "
                                           "fires no `canister`"):
        prepare("assault", {"attackers": "A: infantry morale=34 melee=8 fire=4 inc=4",
                            "defenders": "Battery: artillery morale=34 melee=2 fire=4 inc=2 "
                                         "defence=4 unsupplied covered canister"})
