"""Steps 7 and 8: taking ground, the bonus melee, and the defender's battle back."""

from __future__ import annotations

import pytest

from rules.core.errors import InvalidInput
from rules.tricorne.dice_count import Role, melee_dice
from rules.tricorne.effects import BANNER, ELIMINATED, TAKES_GROUND
from rules.tricorne.inputs import TYPED_BONUS_TARGET

from .helpers import (
    asked,
    cavalry,
    dice,
    effects,
    melee,
    question,
    regular,
    rolls,
    step,
    titles,
    unit,
)

ONE_BLOCK = regular("Target", blocks=1)
ELIMINATE = "inf art art"  # one hit on infantry: the last block of ONE_BLOCK


# --- taking ground ---------------------------------------------------------------------------


@pytest.mark.parametrize("attacker", [regular("Attacker"), cavalry("Attacker")])
def test_infantry_and_cavalry_may_take_ground_when_the_defender_is_gone(attacker):
    assert asked(attacker, ONE_BLOCK, ELIMINATE) == ("take_ground", 3)
    result = melee(attacker, ONE_BLOCK, ELIMINATE, "advance; none")
    moved = [e for e in result.effects if e.kind == "moved"]
    assert [(e.unit, e.amount, e.value) for e in moved] == [("Attacker", 1, TAKES_GROUND)]
    assert step(result, "Take ground").outcome == (
        "Attacker takes ground: it counts as movement.")


def test_the_attacker_may_take_ground_when_the_defender_retreated():
    assert asked(regular("Attacker"), regular("Target", blocks=3), "flag art art  inf inf inf"
                 ) == ("take_ground", 6)


def test_artillery_never_takes_ground():
    result = melee(unit("Guns", "trained-artillery"), ONE_BLOCK, ELIMINATE)
    assert step(result, "Take ground").outcome == "Guns may not take ground after artillery."


def test_no_taking_ground_after_an_ambush_or_first_strike_card():
    result = melee(regular("Attacker"), ONE_BLOCK, ELIMINATE, card=True)
    assert step(result, "Take ground").outcome == (
        "Attacker may not take ground after an Ambush or First Strike card's melee.")


def test_no_taking_ground_when_the_defender_holds_its_hex():
    result = melee(regular("Attacker"), regular("Target", blocks=3), "inf art art  art art")
    assert "Take ground" not in titles(result)


def test_no_taking_ground_after_a_battle_back():
    result = melee(regular("Attacker", blocks=1), regular("Target"), "cav cav  inf inf inf")
    assert effects(result) == [("damage", "Attacker", 1), (ELIMINATED, "Attacker", None),
                               (BANNER, "Target", None)]
    assert "Take ground" not in titles(result)


# --- the bonus melee -----------------------------------------------------------------------


@pytest.mark.parametrize(("attacker", "eligible"), [
    (cavalry("Attacker"), True),
    (unit("Attacker", "highland"), True),
    (regular("Attacker", leader="Murray"), True),
    (regular("Attacker"), False),
    (unit("Attacker", "grenadier"), False),
])
def test_bonus_melee_for_cavalry_highlanders_and_infantry_with_a_leader(attacker, eligible):
    count = melee_dice(attacker, ONE_BLOCK, Role()).total
    rolled = " ".join(["inf", *["art"] * (count - 1)])
    second = (regular("Second", blocks=2),)
    if eligible:
        assert asked(attacker, ONE_BLOCK, rolled, "advance", bonus=second)[0] == "bonus_melee"
    else:
        result = melee(attacker, ONE_BLOCK, rolled, "advance", bonus=second)
        assert step(result, "Bonus melee").outcome == (
            "Attacker gains no bonus melee (only infantry with an attached leader, highland "
            "units and cavalry do).")


def test_no_bonus_melee_without_taking_ground():
    result = melee(cavalry("Attacker"), ONE_BLOCK, ELIMINATE, "stay")
    assert "Bonus melee" not in titles(result)


def test_the_bonus_melee_is_optional():
    result = melee(cavalry("Attacker"), ONE_BLOCK, ELIMINATE, "advance; none",
                   bonus=(regular("Second"),))
    assert step(result, "Bonus melee").outcome == "Attacker makes no bonus melee."


def test_with_no_target_named_and_the_defender_gone_there_is_no_one_to_attack():
    result = melee(cavalry("Attacker"), ONE_BLOCK, ELIMINATE, "advance")
    assert "no target is left" in step(result, "Bonus melee").outcome


def test_the_player_may_type_the_bonus_target_when_none_is_left_to_pick():
    key, used, bonus_question = question(cavalry("Dragoons"), ONE_BLOCK, ELIMINATE, "advance",
                                         typed=TYPED_BONUS_TARGET)
    assert (key, used) == ("bonus_melee", 3)
    assert [a.key for a in bonus_question.answers] == ["none"]
    assert bonus_question.typed == ("the unit it attacks, written as in `bonus` "
                                    "(for example `Royal Scots: regular blocks=3`)")
    result = melee(cavalry("Dragoons"), ONE_BLOCK, f"{ELIMINATE}  inf art art  art art art",
                   "advance; bonus_melee=Grenadiers: grenadier blocks=2",
                   typed=TYPED_BONUS_TARGET)
    assert step(result, "Bonus melee: announce").outcome == (
        "Dragoons (battle cavalry, 4 blocks) melees Grenadiers (grenadier infantry, 2 "
        "blocks).")
    assert effects(result)[-1] == ("damage", "Grenadiers", 1)
    assert titles(result)[-1] == "Grenadiers battles back against Dragoons"


def test_a_typed_bonus_target_naming_a_unit_of_the_melee_is_that_unit_as_it_stands():
    target = regular("Target", blocks=3)
    result = melee(cavalry("Dragoons"), target,
                   "flag art art  inf inf inf  inf art art  art art",
                   "advance; bonus_melee=target", typed=TYPED_BONUS_TARGET)
    assert step(result, "Bonus melee: announce").outcome.endswith(
        "melees Target (regular infantry, 3 blocks).")
    for typed, refusal in [("target", "Target has left the field in this melee."),
                           ("dragoons", "A unit cannot melee itself."),
                           ("X: regular blocks=0", "X has no blocks left."),
                           ("X: regulr", "I don't know `regulr`")]:
        with pytest.raises(InvalidInput) as refused:
            melee(cavalry("Dragoons"), ONE_BLOCK, ELIMINATE,
                  f"advance; bonus_melee={typed}", typed=TYPED_BONUS_TARGET)
        assert refusal in refused.value.message


def test_a_unit_of_the_melee_written_out_as_the_bonus_target_keeps_its_words():
    """The defender that retreated 1 hex, written out with this melee's words: its blocks as
    they stand now, and the words (its new hex on a hill, a card's die) as given."""
    typed = "advance; bonus_melee=Target: regular terrain=hill cards=1"
    result = melee(cavalry("Dragoons"), regular("Target"),
                   "inf flag art  inf art art  flag art art  art art art", typed,
                   typed=TYPED_BONUS_TARGET)
    assert step(result, "Bonus melee: announce").outcome.endswith(
        "melees Target (regular infantry, 3 blocks).")
    assert step(result, "Hill").outcome.startswith("Target on a hill attacked from below")
    assert rolls(result)[-1].notes[0] == "2 (regular) + 1 Command/Combat cards = 3 dice"
    # Named ahead in `bonus`, alike.
    named = melee(cavalry("Dragoons"), regular("Target"),
                  "inf flag art  inf art art  flag art art  art art art", "advance; Target",
                  bonus=(regular("Target", terrain="hill", cards=1),))
    assert step(named, "Bonus melee: announce").outcome.endswith(
        "melees Target (regular infantry, 3 blocks).")
    assert rolls(named)[-1].notes[0] == "2 (regular) + 1 Command/Combat cards = 3 dice"


def test_a_bonus_melee_runs_the_whole_procedure_against_its_target_once():
    second = regular("Second", blocks=2)
    result = melee(cavalry("Dragoons"), ONE_BLOCK, "inf art art  inf art art  art art",
                   "advance; Second", bonus=(second,))
    assert titles(result) == [
        "Melee: announce", "Dragoons rolls against Target", "Take ground",
        "Bonus melee: announce", "Dragoons rolls against Second", "Second battles back "
        "against Dragoons"]
    assert effects(result) == [("damage", "Target", 1), (ELIMINATED, "Target", None),
                               (BANNER, "Dragoons", None), ("moved", "Dragoons", 1),
                               ("damage", "Second", 1)]
    # A bonus melee after taking ground brings no second bonus melee.
    again = melee(cavalry("Dragoons"), ONE_BLOCK, "inf art art  inf inf art",
                  "advance; Second; bonus_take_ground=advance", bonus=(second,))
    assert titles(again)[-1] == "Take ground"
    assert [q for q in titles(again) if q == "Bonus melee"] == []


def test_the_take_ground_after_a_bonus_melee_says_whose_hex_it_is():
    second = regular("Second", blocks=1)
    key, _, asked_again = question(cavalry("Dragoons"), ONE_BLOCK, "inf art art  inf art art",
                                   "advance; Second", bonus=(second,))
    assert key == "bonus_take_ground"
    assert asked_again.text == "Will Dragoons take ground again, into Second's vacated hex?"


def test_a_highlander_takes_its_bonus_in_a_bonus_melee_and_loses_a_die_for_taking_ground():
    highlanders = unit("Black Watch", "highland")
    second = regular("Second", blocks=2)
    result = melee(highlanders, ONE_BLOCK, "inf art art art  art art art  art art",
                   "advance; Second", bonus=(second,))
    assert rolls(result)[0].notes[0] == (
        "2 (highland) + 1 full strength + 1 Highland Battle Bonus = 4 dice")
    assert rolls(result)[1].notes[0] == (
        "2 (highland) + 1 full strength + 1 Highland Battle Bonus − 1 moved (ordered "
        "infantry) = 3 dice")


def test_cavalry_taking_ground_keeps_its_dice_for_the_bonus_melee():
    second = regular("Second", blocks=2)
    result = melee(cavalry("Dragoons"), ONE_BLOCK, "inf art art  art art art  art art",
                   "advance; Second", bonus=(second,))
    assert len(rolls(result)[1].dice) == 3


def test_a_cavalry_target_of_the_bonus_melee_is_asked_to_retire_too():
    hussars = cavalry("Hussars", blocks=2)
    assert asked(cavalry("Dragoons"), ONE_BLOCK, "inf art art", "advance; Hussars",
                 bonus=(hussars,)) == ("bonus_retire", 3)


def test_the_defender_that_retreated_is_the_default_bonus_target():
    result = melee(cavalry("Dragoons"), regular("Target", blocks=3),
                   "flag art art  inf inf inf  art art art  art art", "advance; Target")
    assert step(result, "Bonus melee: announce").outcome.startswith("Dragoons (battle cavalry")
    assert titles(result)[-1] == "Target battles back against Dragoons"


# --- battle back ---------------------------------------------------------------------------


def test_the_defender_with_blocks_left_in_its_hex_battles_back():
    result = melee(regular("Attacker"), regular("Target", blocks=3),
                   "inf art art  inf sab")
    back = step(result, "Target battles back against Attacker")
    assert back.rolls[0].hits == 2
    assert effects(result) == [("damage", "Target", 1), ("damage", "Attacker", 2)]


def test_battling_back_gives_no_highland_bonus_and_no_moved_reduction():
    highlanders = unit("Black Watch", "highland", moved=True)
    result = melee(regular("Attacker"), highlanders, "art art art  art art art")
    assert rolls(result)[1].notes[0] == "2 (highland) + 1 full strength = 3 dice"


def test_battle_back_flags_make_the_attacker_retreat_and_rally():
    result = melee(regular("Attacker"), regular("Target", blocks=3),
                   "cav cav cav  flag art  inf inf inf inf")
    assert ("moved", "Attacker", 1) in effects(result)
    assert step(result, "Rally check").outcome == (
        "Attacker rallies where its retreat left it, 1 hex back: it stays on the field.")
    assert "Take ground" not in titles(result)


def test_battle_back_on_an_attacker_with_a_leader_checks_the_leader():
    result = melee(regular("Attacker", leader="Howe"), regular("Target", blocks=3),
                   "cav cav cav cav  inf art  sab sab")
    assert step(result, "Leader casualty check").outcome == "Howe is killed: a Victory Banner."
    assert result.effects[-1].value == "Howe killed"
    assert result.effects[-1].unit == "Target"


def test_no_battle_back_from_a_defender_that_retreated_or_was_eliminated():
    retreated = melee(regular("Attacker"), regular("Target", blocks=3),
                      "flag art art  inf inf inf", "stay")
    eliminated = melee(regular("Attacker"), ONE_BLOCK, ELIMINATE, "stay")
    for result in (retreated, eliminated):
        assert not any("battles back" in title for title in titles(result))


def test_headline_sums_up_the_melee():
    result = melee(regular("Attacker"), regular("Target", blocks=3), "inf art art  inf sab")
    assert result.headline == ("Attacker scores 1 hit on Target; Target scores 2 hits on "
                               "Attacker")


def test_a_defender_that_retreated_past_the_next_hex_is_no_bonus_target():
    target, second = regular("Target", blocks=3), regular("Second", blocks=2)
    # One flag: Target retreats 1 hex; Dragoons take ground into its hex, still beside it.
    near = question(cavalry("Dragoons"), target, "flag art art  inf inf inf", "advance",
                    bonus=(target, second))[2]
    assert [a.key for a in near.answers] == ["Target", "Second", "none"]
    # Two flags: 2 hexes back, one more than the hex taken: out of reach.
    far = question(cavalry("Dragoons"), target, "flag flag art  inf inf inf", "advance",
                   bonus=(target, second))[2]
    assert [a.key for a in far.answers] == ["Second", "none"]
    with pytest.raises(InvalidInput) as refused:
        melee(cavalry("Dragoons"), target, "flag flag art  inf inf inf",
              "advance; bonus_melee=target",
              typed=TYPED_BONUS_TARGET)
    assert refused.value.message == ("Target retreated 2 hexes: it is not adjacent to the hex "
                                     "Dragoons took.")


def test_a_leader_this_melee_sent_back_alone_is_no_bonus_target():
    # A lone leader who survives the attack retreats; one whose unit is gone escapes alone.
    # Either has left his hex toward his side: neither is offered, nor taken when typed.
    wolfe, second = unit("Wolfe", "leader", blocks=0, full=0), regular("Second", blocks=2)
    retreated = question(cavalry("Dragoons"), wolfe, "inf flag cav", "advance",
                         bonus=(wolfe, second))[2]
    assert [a.key for a in retreated.answers] == ["Second", "none"]
    alone = melee(cavalry("Dragoons"), wolfe, "inf flag cav", "advance")
    assert step(alone, "Bonus melee").outcome.startswith("Dragoons may make a bonus melee, "
                                                         "but no target is left")
    # Target's last block falls; Wolfe, with it, survives his 1 die and escapes alone.
    escaped = question(cavalry("Dragoons"), regular("Target", blocks=1, leader="Wolfe"),
                       "inf art art  inf", "advance", bonus=(wolfe, second))[2]
    assert [a.key for a in escaped.answers] == ["Second", "none"]
    with pytest.raises(InvalidInput) as refused:
        melee(cavalry("Dragoons"), wolfe, "inf flag cav", "advance; bonus_melee=Wolfe: leader",
              typed=TYPED_BONUS_TARGET)
    assert refused.value.message == ("Wolfe fell back alone toward his side in this melee: "
                                     "he is not adjacent to the hex Dragoons took.")


def test_two_units_of_one_name_are_told_apart_from_a_unit_meleeing_itself():
    from rules.tricorne.melee import Melee, resolve_melee

    with pytest.raises(InvalidInput, match="Two units are called `Gren`"):
        resolve_melee(Melee(regular("Gren"), cavalry("Gren"), False, (), None), dice(""))
    with pytest.raises(InvalidInput, match="A unit cannot melee itself"):
        resolve_melee(Melee(regular("Gren"), regular("Gren"), False, (), None), dice(""))
