"""Step 3: the number of battle dice, additions first, then reductions, arithmetic shown."""

from __future__ import annotations

import pytest

from rules.tricorne.dice_count import Role, highland_bonus, melee_dice
from rules.tricorne.units import BASE_DICE, UnitType

from .helpers import cavalry, melee, regular, rolls, unit

ORDERED, BONUS = Role(), Role(bonus=True)
BATTLE_BACK, CARD = Role(ordered=False, battling_back=True), Role(card=True)
TARGET = regular("Target")
LONE = unit("Wolfe", "leader", blocks=0, full=0)


@pytest.mark.parametrize(("kind", "base"), [
    ("grenadier", 3), ("regular", 2), ("highland", 2), ("lowland", 2), ("militia", 2),
    ("battle-cavalry", 2), ("light-cavalry", 2), ("trained-artillery", 2),
    ("light-artillery", 2),
])
def test_base_dice_by_class(kind, base):
    count = melee_dice(unit("U", kind, blocks=1), TARGET, BATTLE_BACK)
    assert (count.base, count.total) == (base, base)
    assert BASE_DICE[UnitType(kind)] == base


def test_block_losses_do_not_change_the_count_below_full_strength():
    # "A unit with a single block retains the same combat strength" (as any unit not full).
    assert melee_dice(regular(blocks=1), TARGET, ORDERED).total == 2
    assert melee_dice(regular(blocks=3), TARGET, ORDERED).total == 2


def test_a_full_strength_unit_rolls_one_more_die():
    count = melee_dice(regular(blocks=4, full=4), TARGET, ORDERED)
    assert count.total == 3
    assert count.arithmetic(UnitType.REGULAR) == "2 (regular) + 1 full strength = 3 dice"
    assert melee_dice(regular(blocks=3, full=3), TARGET, ORDERED).total == 3


@pytest.mark.parametrize("kind", ["grenadier", "battle-cavalry", "trained-artillery"])
def test_an_attached_leader_adds_one_die_to_any_arm(kind):
    alone = melee_dice(unit("U", kind, blocks=2), TARGET, ORDERED).total
    led = melee_dice(unit("U", kind, blocks=2, leader="Wolfe"), TARGET, ORDERED)
    assert led.total == alone + 1
    assert "+ 1 leader attached" in led.arithmetic(UnitType(kind))


@pytest.mark.parametrize(("role", "bonus"), [
    (ORDERED, True), (BONUS, True), (BATTLE_BACK, False), (CARD, False),
    (Role(bonus=True, card=True), False),
])
def test_highland_battle_bonus_when_ordered_and_in_a_bonus_melee_only(role, bonus):
    count = melee_dice(unit("Black Watch", "highland", blocks=3), TARGET, role)
    assert count.total == 2 + bonus
    assert highland_bonus(role) is bonus
    assert ("Highland Battle Bonus" in count.arithmetic(UnitType.HIGHLAND)) is bonus


def test_only_highlanders_get_the_highland_bonus():
    assert melee_dice(unit("Lowlanders", "lowland", blocks=3), TARGET, ORDERED).total == 2


def test_command_and_combat_card_additions_are_added():
    count = melee_dice(regular(blocks=2, cards=2), TARGET, ORDERED)
    assert count.total == 4
    assert count.arithmetic(UnitType.REGULAR) == "2 (regular) + 2 Command/Combat cards = 4 dice"


def test_ordered_infantry_that_moved_loses_a_die():
    count = melee_dice(regular(moved=True), TARGET, ORDERED)
    assert count.total == 2
    assert count.arithmetic(UnitType.REGULAR) == (
        "2 (regular) + 1 full strength − 1 moved (ordered infantry) = 2 dice")


def test_cavalry_dice_are_not_reduced_when_it_moves():
    assert melee_dice(cavalry(moved=True), TARGET, ORDERED).total == 3


def test_artillery_dice_are_not_reduced_when_it_moves():
    # "when an ordered infantry unit moves": ordered artillery that moved keeps its dice.
    count = melee_dice(unit("Guns", "trained-artillery", moved=True), TARGET, ORDERED)
    assert count.total == 3
    assert count.arithmetic(UnitType.TRAINED_ARTILLERY) == (
        "2 (trained artillery) + 1 full strength = 3 dice")


def test_moving_does_not_reduce_a_unit_battling_back():
    # The reduction is for an *ordered* infantry unit; the unit battling back is not ordered.
    assert melee_dice(regular(moved=True), TARGET, BATTLE_BACK).total == 3


def test_additions_come_first_then_reductions_and_never_below_zero():
    count = melee_dice(regular(blocks=2, moved=True, reduce=3, leader="Amherst"), TARGET,
                       ORDERED)
    assert count.arithmetic(UnitType.REGULAR) == (
        "2 (regular) + 1 leader attached − 1 moved (ordered infantry) − 3 terrain (given) "
        "= 0 dice")
    assert count.total == 0


@pytest.mark.parametrize(("attacker", "defender", "reduction"), [
    (cavalry(terrain="forest"), TARGET, 2),  # battling out of forest
    (cavalry(terrain="buildings"), TARGET, 2),
    (unit("Guns", "trained-artillery", terrain="forest"), TARGET, 1),
    (regular(terrain="forest"), TARGET, 0),
    (cavalry(), regular("In wood", terrain="forest"), 2),  # attacking into forest
    (regular(), regular("In town", terrain="buildings"), 0),
    (cavalry(terrain="forest"), regular("In wood", terrain="forest"), 2),  # counted once
    (cavalry(terrain="buildings"), regular("In town", terrain="buildings"), 2),  # alike
    # Out of one into the other: both reductions (2 + 1 full strength − 4: none left).
    (cavalry(terrain="forest"), regular("In town", terrain="buildings"), 3),
    (cavalry(terrain="buildings"), regular("In wood", terrain="forest"), 3),
    (unit("Guns", "trained-artillery", terrain="buildings"), regular("In wood",
                                                                      terrain="forest"), 1),
    (cavalry(terrain="hill"), TARGET, 0),
    # Reference §5, attacking into forest or buildings: artillery no reduction.
    (unit("Guns", "trained-artillery"), regular("In wood", terrain="forest"), 0),
    (unit("Guns", "light-artillery"), regular("In town", terrain="buildings"), 0),
])
def test_terrain_reductions(attacker, defender, reduction):
    plain = melee_dice(attacker, TARGET, BATTLE_BACK).base + 1  # full strength
    assert melee_dice(attacker, defender, BATTLE_BACK).total == plain - reduction


def test_the_roll_shows_the_arithmetic_and_rolls_that_many_dice():
    attacker = unit("Grenadiers", "grenadier", leader="Howe")
    result = melee(attacker, regular("Target", blocks=3), "cav cav art art art cav cav")
    first = rolls(result)[0]
    assert len(first.dice) == 5
    assert first.notes[0] == "3 (grenadier) + 1 full strength + 1 leader attached = 5 dice"


def test_each_melee_roll_names_its_dice_and_why_for_the_reply():
    # The reply's roll line says the count as a player checks it: the base by class, then
    # each addition and reduction; the Steps keep the arithmetic.
    attacker = unit("Grenadiers", "grenadier", leader="Howe")
    result = melee(attacker, regular("Target", blocks=3, moved=True),
                   "cav cav art art art  cav cav")
    attack, back = rolls(result)
    assert attack.count == "5 dice: 3 grenadier, +1 full strength, +1 leader attached"
    assert back.count == "2 dice: regular"  # battling back: no moved reduction
    moved = melee(regular("Foot", moved=True), LONE, "cav art", "stay")
    assert rolls(moved)[0].count == ("2 dice: 2 regular, +1 full strength, −1 moved "
                                     "(ordered infantry)")


def test_no_dice_means_no_hits_and_no_roll():
    result = melee(regular(blocks=2, reduce=2), regular("Target", blocks=1), "cav cav")
    assert result.steps[1].outcome.endswith("no dice, no hits.")
    assert [r.label for r in rolls(result)] == ["Target battles back"]  # it still battles back
