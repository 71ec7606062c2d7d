"""The government grenadier "may ignore 1 flag" (its unit page): its owner's choice, asked
once the flags are known, after the hill's."""

from __future__ import annotations

from .helpers import (
    asked,
    cavalry,
    effects,
    melee,
    question,
    regular,
    rolls,
    step,
    titles,
    unit,
)

ATTACKER = regular("Attacker")


def grenadiers(name: str = "Grenadiers", **kw):
    return unit(name, "grenadier", blocks=3, **kw)


def test_a_grenadier_under_flags_is_asked_whether_to_ignore_one():
    key, used, asking = question(ATTACKER, grenadiers(), "flag flag cav")
    assert (key, used) == ("ignore_flag", 3)
    assert asking.text == "Will Grenadiers ignore 1 flag of the 2 flags against it?"
    # The answers name the unit: in the odds' rows, beside another player's answers, a bare
    # "Ignore 1 flag" reads as anyone's.
    assert [(a.key, a.label) for a in asking.answers] == [
        ("ignore", "Grenadiers ignores 1 flag"), ("take", "Grenadiers takes every flag")]
    assert (asking.unit, asking.by) == ("Grenadiers", "defender")


def test_ignoring_one_of_two_flags_retreats_one_hex_taking_both_two():
    # Grenadier rally check: 3 blocks + 1 = 4 dice.
    ignored = melee(ATTACKER, grenadiers(), "flag flag cav  inf inf inf inf", "ignore; stay")
    assert step(ignored, "Flags").outcome == (
        "Grenadiers ignores 1 flag: a grenadier may ignore 1 flag (Government Grenadier unit "
        "page).")
    assert ("moved", "Grenadiers", 1) in effects(ignored)
    assert ignored.headline == ("Attacker scores no hit on Grenadiers; Grenadiers ignores 1 "
                                "flag; Grenadiers retreats 1 hex")
    taken = melee(ATTACKER, grenadiers(), "flag flag cav  inf inf inf inf", "take; stay")
    assert step(taken, "Flags").outcome == "Grenadiers takes every flag."
    assert ("moved", "Grenadiers", 2) in effects(taken)
    assert "ignores" not in taken.headline


def test_a_grenadier_that_ignores_its_only_flag_holds_and_battles_back():
    result = melee(ATTACKER, grenadiers(), "flag cav cav  art art art", "ignore")
    assert "Retreat" not in titles(result) and "Rally check" not in titles(result)
    assert titles(result)[-1] == "Grenadiers battles back against Attacker"


def test_on_a_hill_the_grenadier_ignores_one_more():
    result = melee(ATTACKER, grenadiers(terrain="hill"), "flag flag cav  art art art",
                   "ignore_flag=ignore")
    assert titles(result)[2:4] == ["Hill", "Flags"]
    assert not [e for e in effects(result) if e[0] == "moved"]
    # With the hill's flag off, one is left to ignore: the question counts it.
    _, _, asking = question(ATTACKER, grenadiers(terrain="hill"), "flag flag cav")
    assert asking.text == "Will Grenadiers ignore the flag against it?"


def test_a_grenadier_battled_back_and_in_a_bonus_melee_is_asked_under_its_own_key():
    back, _, asking = question(unit("Grenadiers", "grenadier"), regular("Target", blocks=3),
                               "art art art art  flag art")
    assert (back, asking.by) == ("back_ignore_flag", "attacker")
    target = regular("Target", blocks=1)
    bonus = asked(cavalry("Dragoons"), target, "inf art art  flag art art", "advance; Second",
                  bonus=(grenadiers("Second"),))
    assert bonus == ("bonus_ignore_flag", 6)


def test_other_classes_are_not_asked():
    result = melee(ATTACKER, regular("Target", blocks=3), "flag cav cav  inf inf inf", "stay")
    assert "Flags" not in titles(result)
    assert len(rolls(result)) == 2
