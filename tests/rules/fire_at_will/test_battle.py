"""Fire at Will against a battle roster: named units, effects applied as changes."""

from __future__ import annotations

import re

import pytest

from rules.core.dice import ScriptedSource
from rules.core.errors import InvalidInput, NotAllowed
from rules.core.records import Effect
from rules.core.roster import Roster, RosterGeneral, RosterUnit, describe_changes
from rules.fire_at_will.battle import apply_effects, check_unit, read_roster_attributes
from rules.fire_at_will.commands import prepare
from rules.fire_at_will.effects import EffectKind

ROSTER = Roster(
    units=(
        RosterUnit("2nd Foot", "British", {"arm": "infantry", "morale": 4, "regular": True},
                   strength=4, commander="Wolfe"),
        RosterUnit("Rangers", "British", {"arm": "infantry", "order": "open"}, strength=3,
                   commander="Wolfe"),
        RosterUnit("Béarn", "French", {"arm": "infantry", "morale": 5, "regular": True},
                   strength=5),
        RosterUnit("Hussars", "French", {"arm": "cavalry", "morale": 4}, strength=2),
        RosterUnit("Militia", "French", {"arm": "infantry"}, strength=2, status="gone",
                   gone_reason="surrendered"),
    ),
    generals=(RosterGeneral("Wolfe", "British", unit="2nd Foot"),),
)


def play(procedure: str, options: dict, dice: str, roster: Roster = ROSTER):
    source = ScriptedSource.from_text(dice)
    result = prepare(procedure, options, roster)(source)
    source.finish()
    return result


def test_melee_takes_units_from_the_roster_and_situation_from_the_command():
    result = play("melee", {"attackers": "Béarn: charging", "defenders": "2nd Foot; Rangers"},
                  "4 2 1")
    rolls = result.steps[0].rolls
    assert [(r.label, r.total) for r in rolls] == [("Béarn", 4 + 1 + 1), ("2nd Foot", 3),
                                                    ("Rangers", -1)]
    # Rangers have the lowest score: they take the result; the general is not with them.
    assert result.headline == "Attackers win by 3: Rangers routs, −2 SP"


def test_the_general_comes_from_the_roster():
    result = play("melee", {"attackers": "Béarn", "defenders": "2nd Foot"}, "6 1 6 6")
    assert result.steps[-1].title.startswith("Risk to Wolfe")


def test_unknown_and_gone_units_are_refused_with_advice():
    with pytest.raises(InvalidInput, match=re.escape("no unit called `Bearn` in this battle. "
                                                     "Did you mean `Béarn`?")):
        play("melee", {"attackers": "Bearn", "defenders": "2nd Foot"}, "1 1")
    with pytest.raises(InvalidInput, match="Militia is out of the battle \\(surrendered\\)"):
        play("melee", {"attackers": "Militia", "defenders": "2nd Foot"}, "1 1")


def test_unit_words_in_a_battle_point_to_unit_edit():
    with pytest.raises(InvalidInput, match="`cav` describes the unit itself"):
        play("melee", {"attackers": "Béarn: cav", "defenders": "2nd Foot"}, "1 1")


def test_a_side_cannot_fight_itself():
    with pytest.raises(InvalidInput, match="all on the same side"):
        play("melee", {"attackers": "Béarn", "defenders": "Hussars"}, "1 1")
    # One unit on both sides is said as such, not as "Béarn, Béarn are all on the same side".
    with pytest.raises(InvalidInput) as twice:
        play("melee", {"attackers": "Béarn", "defenders": "Béarn"}, "1 1")
    assert twice.value.message == "Béarn is named on both sides of the fight."


def test_charge_in_a_battle_uses_roster_morale_and_refuses_description_options():
    result = play("charge", {"target": "2nd Foot", "chargers": "Hussars: flank distance=4"},
                  "1")
    roll = result.steps[-1].rolls[0]
    assert roll.total == 1 + 2 + 1 and roll.target == "basic morale 4"
    assert result.headline == "2nd Foot routs, −1 SP"
    with pytest.raises(InvalidInput, match="2nd Foot's morale comes from the roster"):
        play("charge", {"target": "2nd Foot", "chargers": "Hussars", "morale": 6}, "1")
    with pytest.raises(InvalidInput, match="morale and routing come from the roster"):
        play("charge", {"target": "2nd Foot", "chargers": "Hussars", "morale": 6,
                        "routing": True}, "1")


def test_surrender_needs_a_routing_roster_unit():
    with pytest.raises(NotAllowed, match="not routing") as refused:
        play("surrender", {"unit": "Rangers", "situation": "c"}, "4")
    # Says how to mark it, in a lookup and in a battle; not situation (a), which a roster
    # unit that is not routing is refused too.
    assert refused.value.hint == ("Give it the word `routing` (in a battle, `/unit edit "
                                  "unit:… words:routing`).")
    with pytest.raises(NotAllowed, match="not routing; situation \\(a\\)"):
        play("surrender", {"unit": "Rangers", "situation": "a"}, "4")


def test_quick_lookup_charge_needs_a_target_type():
    with pytest.raises(InvalidInput, match="target_type"):
        prepare("charge", {"target": "X", "chargers": "C: inf"}, None)


# --- effects on the roster ------------------------------------------------------------------


def effect(kind, unit, amount=None):
    return Effect(kind, unit, amount)


def test_losses_shaken_and_rout_change_the_roster():
    after, changes = apply_effects(
        [effect(EffectKind.LOSE_SP, "2nd Foot", 2), effect(EffectKind.SHAKEN, "2nd Foot"),
         effect(EffectKind.ROUTED, "Rangers"), effect(EffectKind.RETIRE, "Béarn", 3)],
        ROSTER,
    )
    assert after.unit("2nd Foot").strength == 2
    assert after.unit("2nd Foot").attr("shaken") is True
    assert after.unit("Rangers").attr("routing") is True
    assert describe_changes(changes) == ["2nd Foot loses 2 SP (now 2) and is shaken",
                                        "Rangers is routing"]


def test_a_unit_that_loses_its_last_sp_leaves_the_battle_with_its_markers_as_they_were():
    after, changes = apply_effects(
        [effect(EffectKind.ROUTED, "Hussars"), effect(EffectKind.LOSE_SP, "Hussars", 5)],
        ROSTER)
    hussars = after.unit("Hussars", allow_gone=True)
    assert (hussars.strength, hussars.status, hussars.gone_reason) == (0, "gone", "no SP left")
    assert hussars.attr("routing") is None
    assert describe_changes(changes) == ["Hussars loses 2 SP (now 0) and leaves the battle"]


def test_a_unit_that_loses_its_last_sp_and_surrenders_keeps_its_reason_not_the_markers():
    after, changes = apply_effects(
        [effect(EffectKind.ROUTED, "Hussars"), effect(EffectKind.LOSE_SP, "Hussars", 2),
         effect(EffectKind.SURRENDERED, "Hussars")], ROSTER)
    hussars = after.unit("Hussars", allow_gone=True)
    assert (hussars.gone_reason, hussars.attr("routing")) == ("surrendered", None)
    assert describe_changes(changes) == [
        "Hussars loses 2 SP (now 0) and surrenders (leaves the battle)"]


def test_a_unit_left_with_sp_stays_and_one_at_0_sp_already_is_left_alone():
    at_zero = Roster(units=(RosterUnit("Hussars", "French", {"arm": "cavalry"}, strength=0),))
    after, changes = apply_effects([effect(EffectKind.LOSE_SP, "Hussars", 1)], at_zero)
    assert not after.unit("Hussars").gone and changes == []
    after, _ = apply_effects([effect(EffectKind.LOSE_SP, "Hussars", 1)], ROSTER)
    assert after.unit("Hussars").strength == 1 and not after.unit("Hussars").gone


def test_surrendered_units_are_gone():
    after, changes = apply_effects([effect(EffectKind.SURRENDERED, "Hussars")], ROSTER)
    assert after.unit("Hussars", allow_gone=True).gone
    assert describe_changes(changes) == ["Hussars surrenders (leaves the battle)"]


def test_general_wounds_and_death_shake_his_command():
    wounded, _ = apply_effects([effect(EffectKind.GENERAL_WOUNDED, "Wolfe")], ROSTER)
    assert wounded.general("Wolfe").wounds == 1
    dead, changes = apply_effects(
        [effect(EffectKind.GENERAL_KILLED, "Wolfe"), effect(EffectKind.COMMAND_SHAKEN, "Wolfe")],
        ROSTER,
    )
    assert dead.general("Wolfe").status == "killed"
    assert dead.unit("2nd Foot").attr("shaken") and dead.unit("Rangers").attr("shaken")
    assert not dead.unit("Béarn").attr("shaken")
    assert "Wolfe is killed" in describe_changes(changes)


def test_a_captured_general_is_captured_on_the_roster():
    after, changes = apply_effects([effect(EffectKind.GENERAL_CAPTURED, "Wolfe")], ROSTER)
    wolfe = after.general("Wolfe")
    assert (wolfe.status, wolfe.wounds) == ("captured", 0)
    assert [(c.who, c.field, c.before, c.after) for c in changes] == [
        ("Wolfe", "status", "active", "captured")]


def test_a_second_light_wound_incapacitates_the_general_and_removes_him_from_play():
    # "If a general suffers a second light wound he is incapacitated and is removed from play."
    wounded = Roster(ROSTER.units, (RosterGeneral("Wolfe", "British", unit="2nd Foot",
                                                  wounds=1),))
    after, changes = apply_effects([effect(EffectKind.GENERAL_INCAPACITATED, "Wolfe")], wounded)
    wolfe = after.general("Wolfe")
    assert (wolfe.status, wolfe.wounds) == ("incapacitated", 2)
    assert ("Wolfe", "status", "active", "incapacitated") in [
        (c.who, c.field, c.before, c.after) for c in changes]


def test_roster_attributes_are_validated_like_the_notation():
    assert read_roster_attributes("cav regular morale=4", "unit", require_arm=True) == {
        "arm": "cavalry", "regular": True, "morale": 4}
    with pytest.raises(InvalidInput, match="say what the unit is"):
        read_roster_attributes("regular", "unit", require_arm=True)
    with pytest.raises(InvalidInput, match="only words go here"):
        read_roster_attributes("2nd Foot: inf", "unit", require_arm=True)
    with pytest.raises(InvalidInput, match="cannot be 0"):
        check_unit("2nd Foot", {"arm": "infantry", "morale": 0}, 4, "2nd Foot")
    with pytest.raises(InvalidInput, match="unknown field `general`"):
        check_unit("2nd Foot", {"arm": "infantry", "general": "x"}, 4, "2nd Foot")


def test_an_engine_unit_is_what_its_roster_unit_and_its_general_make_it():
    """Roster units that read alike make equal engine units; anything that changes how it
    reads (an attribute, the general with it) makes another, and a refusal is made again
    each time."""
    from rules.fire_at_will.battle import engine_unit

    def unit(**attributes) -> RosterUnit:
        return RosterUnit("Artois", "French", {"arm": "infantry", **attributes}, 4)

    alone = Roster((unit(),))
    # Two roster units that read alike, made apart, make equal engine units.
    assert engine_unit(unit(regular=True), alone) == engine_unit(
        RosterUnit("Artois", "French", {"regular": True, "arm": "infantry"}, 4), alone)
    regular, shaken = engine_unit(unit(regular=True), alone), engine_unit(unit(shaken=True),
                                                                         alone)
    assert (regular.regular, regular.shaken, shaken.regular, shaken.shaken) == (
        True, False, False, True)
    whole = engine_unit(unit(morale=4.0), alone)
    assert whole == engine_unit(unit(morale=4), alone) and type(whole.basic_morale) is int
    led = Roster((unit(),), (RosterGeneral("Montcalm", "French", "Artois"),))
    wounded = Roster((unit(),), (RosterGeneral("Montcalm", "French", "Artois", wounds=1),))
    assert engine_unit(unit(), alone).general is None
    assert engine_unit(unit(), led).general.wounded is False
    assert engine_unit(unit(), wounded).general.wounded is True
    for _ in range(2):
        with pytest.raises(InvalidInput, match="Artois"):
            engine_unit(unit(morale=99), alone)


def test_a_changed_roster_unit_is_the_unit_with_those_fields_only():
    from dataclasses import replace

    unit = RosterUnit("Artois", "French", {"arm": "infantry"}, 4, commander="Montcalm")
    assert unit.changed(strength=3) == replace(unit, strength=3)
    assert unit.with_attr("shaken", True) == replace(
        unit, attributes={"arm": "infantry", "shaken": True})
    assert unit.attributes == {"arm": "infantry"}  # the unit itself is left as it was
    with pytest.raises(TypeError):
        unit.changed(morale=4)  # not a field of a roster unit


def test_a_side_read_before_is_found_again_in_the_roster_as_it_is_now():
    """The same text on a later move finds its units as the roster is then: a unit renamed,
    gone or changed since is found (or refused) as it is now, and a refused text is refused
    again."""
    options = {"attackers": "Béarn: charging", "defenders": "2nd Foot"}
    first = play("melee", options, "3 5")
    assert [r.total for r in first.steps[0].rolls] == [3 + 1 + 1, 5 + 1]
    # The same text, now that Béarn no longer counts as regulars and 2nd Foot is renamed.
    bearn, foot = ROSTER.units[2], ROSTER.units[0]
    changed = Roster((bearn.with_attr("regular", False), foot.changed(name="Grenadiers"),
                      *ROSTER.units[3:]), ROSTER.generals)
    with pytest.raises(InvalidInput, match="no unit called `2nd Foot`"):
        play("melee", options, "3 5", changed)
    again = play("melee", {**options, "defenders": "Grenadiers"}, "3 5", changed)
    assert [r.total for r in again.steps[0].rolls] == [3 + 1, 5 + 1]  # no longer regulars
    gone = Roster((*ROSTER.units[:2], bearn.changed(status="gone", gone_reason="routed off"),
                   *ROSTER.units[3:]), ROSTER.generals)
    with pytest.raises(InvalidInput, match="Béarn is out of the battle"):
        play("melee", options, "3 5", gone)
    for _ in range(2):
        with pytest.raises(InvalidInput, match="`cav` describes the unit itself"):
            play("melee", {**options, "attackers": "Béarn: cav"}, "1 1")


def test_a_unit_in_the_same_melee_situation_scores_alike_from_move_to_move():
    """A battle's unit in the same situation is an equal member on every move, and its
    factors read the same; another situation is another member."""
    from rules.fire_at_will.battle import engine_unit, melee_member

    unit = engine_unit(ROSTER.units[2], ROSTER)
    charging = melee_member(unit, {"charging": True})
    assert melee_member(unit, {"charging": True}) == charging
    assert melee_member(unit, {"charging": False}) != charging
    first = play("melee", {"attackers": "Béarn: charging", "defenders": "2nd Foot"}, "3 5")
    second = play("melee", {"attackers": "Béarn: charging", "defenders": "2nd Foot"}, "2 6")
    assert first.steps[0].rolls[0].modifiers == second.steps[0].rolls[0].modifiers
    assert [m.reason for m in second.steps[0].rolls[0].modifiers] == [
        "charging", "European regulars"]


def test_a_side_is_read_again_for_another_situation(monkeypatch):
    """What a side's text says is kept per situation (the words a fight takes): another set
    of words reads it afresh, even one at a forgotten one's address (every object is given
    the same address here, as the interpreter may give a new object a freed one's)."""
    from rules.core.fields import Field, FieldSet
    from rules.fire_at_will import battle

    monkeypatch.setattr(battle, "id", lambda _: 1, raising=False)

    def read(situation: FieldSet):
        return battle.read_roster_units("Béarn: charging", "attackers", ROSTER, situation,
                                        lambda unit, values: values, 4)

    assert read(FieldSet((Field("charging", bool, "charging"),)))[0][1] == {"charging": True}
    with pytest.raises(InvalidInput, match="I don't know `charging`"):
        read(FieldSet((Field("flank", bool, "flank"),)))


def test_a_quick_lookup_charge_reads_the_targets_order():
    options = {"target": "Militia", "target_type": "infantry", "morale": 6,
               "chargers": "Grenadiers: inf distance=2"}
    opened = play("charge", {**options, "order": "open"}, "1", roster=None)
    assert [r.total for s in opened.steps for r in s.rolls] == [3]  # +2: open order
    closed = play("charge", {**options, "order": "close"}, "1", roster=None)
    assert [r.total for s in closed.steps for r in s.rolls] == [1]
    with pytest.raises(InvalidInput, match="order"):
        play("charge", {**options, "order": "loose"}, "1", roster=None)
