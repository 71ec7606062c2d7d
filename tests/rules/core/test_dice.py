"""Dice kinds, sources, typed-in dice and the exact-odds seam."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from rules.core.dice import (
    ANY_DICE,
    BATTLE_DICE_FACES,
    D6,
    D6_DICE,
    D66,
    BattleDice,
    D6Pool,
    RandomSource,
    Reading,
    ReplaySource,
    ScriptedSource,
    Symbol,
    TwoD6,
    Unrolled,
    branch_outcomes,
    d66_add,
    d66_index,
    d66_value,
    parse_dice,
    pool_readings,
)
from rules.core.errors import BadDiceText, NotEnoughDice, TooManyDice
from rules.fire_at_will.charge import resolve_charge
from rules.fire_at_will.melee import resolve_melee
from rules.fire_at_will.units import Arm, Charger, Cover, General, MeleeUnit, Unit
from rules.registry import resolve


def test_parse_dice_reads_digits_spaces_commas_and_symbols():
    assert parse_dice("3 5,6") == [3, 5, 6]
    assert parse_dice("43") == [4, 3]
    assert parse_dice("inf sab F cav art") == ["infantry", "saber", "flag", "cavalry",
                                                "artillery"]
    assert parse_dice("  ") == []


def test_a_phone_s_full_width_dice_read_as_plain_ones():
    assert parse_dice("３ ６，４") == [3, 6, 4]
    assert parse_dice("ｉｎｆ ＳＡＢ") == ["infantry", "saber"]


@pytest.mark.parametrize("text", ["٣", "²"])
def test_digits_of_other_scripts_are_not_faces(text):
    with pytest.raises(BadDiceText):
        parse_dice(text)


@pytest.mark.parametrize("text", ["7", "0", "3 9", "x", "3d6"])
def test_impossible_faces_are_errors(text):
    with pytest.raises(BadDiceText):
        parse_dice(text)


def test_a_bad_face_is_named_once_and_within_the_number_it_was_typed_in():
    with pytest.raises(BadDiceText) as lone:
        parse_dice("7")
    assert lone.value.message == "`7` is not a face of a d6."
    with pytest.raises(BadDiceText) as within:
        parse_dice("47")
    assert within.value.message == "`7` is not a face of a d6 (in `47`)."


def test_scripted_source_consumes_in_order_per_kind():
    source = ScriptedSource([1, 2, 3, 4, 5, 6, 6])
    assert source.roll(D6(), "a") == (1,)
    assert source.roll(TwoD6(), "b") == (2, 3)
    assert source.roll(D66(), "c") == (4, 5)
    assert source.roll(D6Pool(2, 4), "d") == (6, 6)
    source.finish()


def test_scripted_source_short_names_the_roll_and_earlier_rolls():
    source = ScriptedSource([3])
    source.roll(D6(), "first")
    with pytest.raises(NotEnoughDice, match="second needs 2d6") as info:
        source.roll(TwoD6(), "second")
    assert "first (1d6), second (2d6)" in str(info.value)


def test_scripted_source_reports_unused_dice():
    source = ScriptedSource([3, 4])
    source.roll(D6(), "one")
    with pytest.raises(TooManyDice, match="used 1 but you gave 2 \\(unused: 4\\)"):
        source.finish()


def test_unused_dice_after_a_d66_say_that_one_is_two_dice():
    source = ScriptedSource.from_text("44 5")
    source.roll(D66(), "morale")
    with pytest.raises(TooManyDice, match=r"used 2 but you gave 3 \(unused: 5; a d66 such "
                       r"as `44` is two dice\)"):
        source.finish()


def test_battle_dice_need_symbols_and_d6_need_numbers():
    with pytest.raises(BadDiceText):
        ScriptedSource(["saber"]).roll(D6(), "x")
    with pytest.raises(BadDiceText):
        ScriptedSource([3]).roll(BattleDice(1), "x")
    assert ScriptedSource(["flag"]).roll(BattleDice(1), "x") == (Symbol.FLAG,)


def test_fallback_takes_over_once_scripted_faces_run_out():
    source = ScriptedSource([6], fallback=RandomSource(1))
    assert source.roll(D6(), "forced") == (6,)
    assert source.roll(D6(), "free")[0] in range(1, 7)
    source.finish()


def test_a_queue_shorter_than_a_roll_fixes_its_first_dice_and_rolls_the_rest():
    source = ScriptedSource([6], fallback=RandomSource(1))
    first, second = source.roll(TwoD6(), "risk to a general")
    assert first == 6 and second in range(1, 7)
    assert source.consumed == 1 and source.remaining == 0
    pool = ScriptedSource([1, 2], fallback=RandomSource(3)).roll(D6Pool(5, 4), "melee")
    assert pool[:2] == (1, 2) and len(pool) == 5


def test_random_source_is_reproducible_with_a_seed():
    a, b = RandomSource(7), RandomSource(7)
    rolls = [D6(), TwoD6(), D66(), D6Pool(5, 4), BattleDice(3)]
    assert [a.roll(k, "") for k in rolls] == [b.roll(k, "") for k in rolls]


def test_random_d6_is_fair_enough():
    source = RandomSource(0)
    counts = Counter(source.roll(D6(), "")[0] for _ in range(6000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(850 < n < 1150 for n in counts.values())


def test_d66_reading_and_base_6_steps():
    assert d66_value((4, 3)) == 43
    assert d66_index(11) == 0 and d66_index(66) == 35
    assert d66_add(43, 4) == 51  # the reference's example
    assert d66_add(16, 1) == 21
    assert d66_add(12, -5) == 11  # clamped
    assert d66_add(64, 9) == 66  # clamped


def test_pool_hits_and_kind_descriptions():
    assert pool_readings([1, 4, 5, 6], 5).count(Reading.HIT) == 2
    assert D6Pool(4, 5).describe() == "4d6 vs 5+"
    assert D66().describe() == "d66"
    assert BattleDice(1).describe() == "1 battle die"


@pytest.mark.parametrize("kind", [D6(), TwoD6(), D66(), D6Pool(3, 4), BattleDice(2)])
def test_outcomes_are_a_probability_distribution(kind):
    outcomes = list(kind.outcomes())
    assert sum(p for _, p in outcomes) == 1
    assert all(len(faces) == kind.dice_count for faces, _ in outcomes)


# --- the exact-odds seam: walk a whole procedure without changing it ------------------------


def walk(procedure):
    """Every result of ``procedure(source)`` with its exact probability."""
    results = []
    stack = [((), Fraction(1))]
    while stack:
        prefix, p = stack.pop()
        try:
            results.append((procedure(ReplaySource(prefix)), p))
        except Unrolled as branch:
            for faces, q in branch.kind.outcomes():
                stack.append(((*prefix, faces), p * q))
    return results


def test_whole_charge_test_can_be_enumerated_exactly():
    target = Unit("T", Arm.INFANTRY, basic_morale=5)
    chargers = [Charger(Unit("H", Arm.CAVALRY))]
    outcomes = walk(lambda dice: resolve_charge(target, chargers, Cover.NONE, dice))
    assert sum(p for _, p in outcomes) == 1
    routs = sum(p for r, p in outcomes if "routs" in r.headline)
    assert routs == Fraction(4, 6)  # 1d6 + 2 >= 5 on 3, 4, 5, 6


def test_melee_with_general_branches_only_where_dice_are_rolled():
    attackers = [MeleeUnit(Unit("A", Arm.INFANTRY))]
    defenders = [MeleeUnit(Unit("D", Arm.INFANTRY, general=General("G")))]
    outcomes = walk(lambda dice: resolve_melee(attackers, defenders, dice))
    assert sum(p for _, p in outcomes) == 1
    killed = sum(p for r, p in outcomes
                 if any(e.kind.value == "general_killed" for e in r.effects))
    # D routs (lose by 2+) with p = 10/36 and the general dies on 11-12 (3/36);
    # D loses by 1 with p = 5/36 and the general dies on 11-12 (3/36).
    assert killed == Fraction(10, 36) * Fraction(3, 36) + Fraction(5, 36) * Fraction(3, 36)


# --- which faces typed-in dice may hold ---------------------------------------------------


def test_d6_dice_refuse_battle_die_faces_and_name_only_d6():
    with pytest.raises(BadDiceText) as info:
        parse_dice("3 inf", D6_DICE)
    assert str(info.value) == ("`inf` is not a face of a d6. "
                               "Type d6 faces as numbers 1 to 6 (`3 5`).")


def test_battle_dice_refuse_numbers_and_name_only_battle_dice():
    assert parse_dice("inf sab f", BATTLE_DICE_FACES) == ["infantry", "saber", "flag"]
    with pytest.raises(BadDiceText) as info:
        parse_dice("3", BATTLE_DICE_FACES)
    assert "1 to 6" not in str(info.value)
    assert str(info.value).startswith("`3` is not a face of a battle die. Type battle dice as "
                                      "infantry, cavalry, artillery, saber, flag")


def test_dice_of_both_kinds_read_both():
    assert parse_dice("3 cav", ANY_DICE) == [3, "cavalry"]


@pytest.mark.parametrize("text", ["2d6", "d6", "3D6", "d66", "1d20", "3 5 2d6"])
def test_dice_notation_is_told_apart_from_faces(text):
    with pytest.raises(BadDiceText) as info:
        parse_dice(text, D6_DICE)
    token = text.split()[-1].lower()
    assert str(info.value) == (
        f"`{token}` names dice to roll; this option takes the faces you rolled. Type the faces "
        "you rolled, like `3 5`, not the dice to roll; or leave `dice` blank and I roll.")


def test_dice_notation_hint_follows_the_dice():
    with pytest.raises(BadDiceText, match="like `inf saber`"):
        parse_dice("2d6", BATTLE_DICE_FACES)


def test_a_long_bad_token_is_echoed_short():
    with pytest.raises(BadDiceText) as info:
        parse_dice("x" * 500, D6_DICE)
    assert len(str(info.value)) < 100


def test_requests_read_dice_with_the_rule_sets_faces():
    request = {"ruleset": "fire-at-will", "procedure": "surrender", "situation": "c",
               "unit": {"name": "U", "arm": "infantry", "routing": True}, "dice": "flag"}
    with pytest.raises(BadDiceText, match="`flag` is not a face of a d6"):
        resolve(request)


@pytest.mark.parametrize("kind", [D6Pool(3, 4), BattleDice(3), BattleDice(1)],
                         ids=["3d6 pool", "3 battle dice", "1 battle die"])
def test_a_pool_branches_on_its_results_up_to_order_with_their_orderings_weight(kind):
    def up_to_order(faces):
        listed = list(dict.fromkeys(getattr(kind, "faces", range(1, 7))))
        return tuple(sorted(faces, key=listed.index))

    by_hand: dict = {}
    for faces, p in kind.outcomes():
        by_hand[up_to_order(faces)] = by_hand.get(up_to_order(faces), 0) + p
    pooled = dict(branch_outcomes(kind))
    assert pooled == by_hand
    assert sum(pooled.values()) == 1


def test_other_rolls_branch_on_every_ordered_outcome():
    assert list(branch_outcomes(D66())) == list(D66().outcomes())


def test_typed_dice_then_the_queue_then_fresh_dice_none_spent_unseen():
    # One typed die left for a three-dice roll: the GM's two queued dice come next, whole;
    # a further roll takes fresh dice once the queue is spent.
    queue = ScriptedSource([5, 6], fallback=ScriptedSource([], fallback=RandomSource(1)))
    typed = ScriptedSource([4], fallback=queue)
    assert typed.roll(D6Pool(3, 4), "melee") == (4, 5, 6)
    assert queue.consumed == 2
    assert len(typed.roll(D6Pool(2, 4), "bonus")) == 2
    assert (queue.consumed, typed.fresh) == (2, 4)


def test_a_queue_with_nothing_behind_it_that_runs_out_mid_roll_says_so():
    typed = ScriptedSource([4], fallback=ScriptedSource([5]))
    with pytest.raises(NotEnoughDice, match="melee needs"):
        typed.roll(D6Pool(3, 4), "melee")


def test_too_few_dice_after_a_d66_say_that_one_is_two_dice():
    source = ScriptedSource.from_text("44 5")
    source.roll(D66(), "morale")
    with pytest.raises(NotEnoughDice) as short:
        source.roll(D66(), "fire")
    assert short.value.message == ("Not enough dice: fire needs d66 but only 1 of your 3 "
                                   "dice was left (a d66 such as `44` is two dice).")


def test_too_few_dice_with_none_left_say_so_in_words():
    source = ScriptedSource.from_text("4")
    source.roll(D6(), "melee")
    with pytest.raises(NotEnoughDice) as short:
        source.roll(D6(), "risk to Montcalm")
    assert short.value.message == ("Not enough dice: risk to Montcalm needs 1d6 but the one "
                                   "die you gave was used already.")
    source = ScriptedSource.from_text("4 5")
    source.roll(D6(), "A")
    source.roll(D6(), "B")
    with pytest.raises(NotEnoughDice) as short:
        source.roll(D6(), "C")
    assert short.value.message == ("Not enough dice: C needs 1d6 but all 2 of your dice were "
                                   "used already.")
