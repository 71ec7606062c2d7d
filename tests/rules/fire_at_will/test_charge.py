"""fire-at-will-charging.txt, sentence by sentence, on scripted dice."""

from __future__ import annotations

import pytest

from rules.core.decisions import Answers, Undecided
from rules.core.errors import InvalidInput, NotAllowed, NotEnoughDice
from rules.fire_at_will.charge import (
    ROUT_MOVE_NOTE,
    charge_modifiers,
    check_declaration,
    resolve_charge,
)
from rules.fire_at_will.effects import EffectKind as E
from rules.fire_at_will.units import Arm, Cover, Direction, Order, Unit

from .helpers import charger, dice, effects, foot, guns, horse, run, skirmishers


def reasons(mods):
    return {(mod.reason, mod.value) for mod in mods}


# "…infantry or cavalry units which are unshaken may declare charges on any enemy units
# that are in charge reach. Charge reach is 3" for infantry and 6" for cavalry, but the
# target must be directly to the front of the charging unit."


def test_unshaken_infantry_within_3_inches_may_declare():
    check_declaration(charger(foot(), distance=3))


def test_infantry_beyond_3_inches_may_not_declare():
    with pytest.raises(NotAllowed, match=r'beyond its charge reach of 3"'):
        check_declaration(charger(foot(), distance=3.5))


def test_a_distance_just_past_the_reach_is_said_as_given():
    # Rounded, it would read "3" away, beyond its charge reach of 3"".
    with pytest.raises(NotAllowed) as refused:
        check_declaration(charger(foot(), distance=3.0000001))
    assert str(refused.value).startswith('2nd Foot is 3.0000001" away, beyond its charge '
                                         'reach of 3"')


def test_cavalry_reach_is_6_inches():
    check_declaration(charger(horse(), distance=6))
    with pytest.raises(NotAllowed, match=r'reach of 6"'):
        check_declaration(charger(horse(), distance=6.5))


def test_shaken_units_may_not_declare():
    with pytest.raises(NotAllowed, match="shaken"):
        check_declaration(charger(foot(shaken=True), distance=1))


def test_target_must_be_directly_to_the_front():
    with pytest.raises(NotAllowed, match="directly to its front"):
        check_declaration(charger(foot(), target_in_front=False))


def test_only_infantry_and_cavalry_declare_charges():
    with pytest.raises(NotAllowed, match="only infantry and cavalry"):
        check_declaration(charger(guns()))


def test_a_forbidden_declaration_stops_the_test_before_any_roll():
    with pytest.raises(NotAllowed):
        run(resolve_charge, foot("Target"), [charger(foot(shaken=True))], Cover.NONE,
            dice_text="")


# "Roll 1d6 per unit, add any of the following factors if they apply"


@pytest.mark.parametrize(
    ("target", "chargers", "cover", "expected"),
    [
        (foot("T"), [charger(horse())], Cover.NONE, {("non-cavalry charged by cavalry", 2)}),
        (guns("T"), [charger(horse())], Cover.NONE,
         {("non-cavalry charged by cavalry", 2),
          ("open order infantry or artillery charged by close order", 2)}),
        (skirmishers("T"), [charger(foot())], Cover.NONE,
         {("open order infantry or artillery charged by close order", 2)}),
        (foot("T"), [charger(foot(), direction=Direction.REAR)], Cover.NONE,
         {("charged in the rear", 2)}),
        (foot("T"), [charger(foot(), direction=Direction.FLANK)], Cover.NONE,
         {("charged in the flank", 1)}),
        (foot("T", shaken=True), [charger(foot())], Cover.NONE, {("shaken", 1)}),
        (foot("T"), [charger(foot())], Cover.OBSTACLE,
         {("behind an obstacle or in a building", -2)}),
        (foot("T"), [charger(foot())], Cover.BUILDING,
         {("behind an obstacle or in a building", -2)}),
        (horse("T"), [charger(foot())], Cover.NONE,
         {("cavalry only charged by non-cavalry", -2)}),
        (foot("T"), [charger(skirmishers())], Cover.NONE,
         {("close order only charged by open order infantry or artillery", -2)}),
        (foot("T"), [charger(foot())], Cover.FORTIFICATION, {("in a fortification", -3)}),
        (foot("T"), [charger(foot())], Cover.NONE, set()),
    ],
)
def test_each_listed_factor(target, chargers, cover, expected):
    assert reasons(charge_modifiers(target, chargers, cover)) == expected


def test_cavalry_charged_only_by_skirmishers_takes_both_minus_twos():
    mods = charge_modifiers(horse("T"), [charger(skirmishers())], Cover.NONE)
    assert reasons(mods) == {
        ("cavalry only charged by non-cavalry", -2),
        ("close order only charged by open order infantry or artillery", -2),
    }


def test_cavalry_charged_by_cavalry_and_infantry_is_not_charged_only_by_non_cavalry():
    mods = charge_modifiers(horse("T"), [charger(foot()), charger(horse("Dragoons"))],
                            Cover.NONE)
    assert reasons(mods) == set()


def test_close_order_charged_by_skirmishers_and_a_formed_unit_is_not_only_open_order():
    mods = charge_modifiers(foot("T"), [charger(skirmishers()), charger(foot("Line"))],
                            Cover.NONE)
    assert reasons(mods) == set()


@pytest.mark.parametrize("target", [guns("T"), Unit(name="T", arm=Arm.OTHER, basic_morale=4)])
def test_only_foot_and_horse_are_close_order_when_charged_only_by_skirmishers(target):
    # "Close Order only charged by Open Order Infantry or artillery": close order is foot or
    # horse not in open order (docs/fire-at-will.md), whatever order guns or others are given.
    # An "other" unit charged by skirmishers on a 1 scores 1, and may not counter-charge.
    assert reasons(charge_modifiers(target, [charger(skirmishers())], Cover.NONE)) == set()
    result = run(resolve_charge, target, [charger(skirmishers())], Cover.NONE, dice_text="1")
    assert (result.steps[-1].rolls[0].total, result.headline) == (1, "T stands: melee follows")


@pytest.mark.parametrize("target", [skirmishers("T"), guns("T")])
def test_open_order_or_guns_charged_by_close_order_and_skirmishers_take_the_plus_two(target):
    # "Open Order Infantry or artillery charged by Close Order": one formed charger is enough.
    mods = charge_modifiers(target, [charger(skirmishers("Rangers")), charger(foot("Line"))],
                            Cover.NONE)
    assert reasons(mods) == {("open order infantry or artillery charged by close order", 2)}


def test_flank_and_rear_chargers_both_count():
    mods = charge_modifiers(
        foot("T"),
        [charger(foot("A"), direction=Direction.FLANK), charger(foot("B"),
                                                               direction=Direction.REAR)],
        Cover.NONE,
    )
    assert reasons(mods) == {("charged in the flank", 1), ("charged in the rear", 2)}


def test_every_factor_is_shown_with_its_sign_and_summed():
    result = run(resolve_charge, foot("T", shaken=True, basic_morale=9),
                 [charger(horse(), direction=Direction.FLANK)], Cover.NONE, dice_text="3")
    roll = result.steps[-1].rolls[0]
    assert roll.dice == (3,)
    assert [(x.value, x.reason) for x in roll.modifiers] == [
        (2, "non-cavalry charged by cavalry"),
        (1, "charged in the flank"),
        (1, "shaken"),
    ]
    assert roll.total == 7
    assert roll.target == "basic morale 9"


# "If the modified score equals or exceeds the charged units basic morale it will rout
# immediately and lose 1 strength point."


def test_score_equal_to_basic_morale_routs_and_loses_1_sp():
    result = run(resolve_charge, foot("T", basic_morale=4), [charger(foot())], Cover.NONE,
                 dice_text="4")
    assert effects(result) == [(E.ROUTED, "T", None), (E.LOSE_SP, "T", 1)]
    assert result.headline == "T routs, −1 SP"
    assert result.steps[-1].rolls[0].result == "routs"


def test_score_above_basic_morale_routs():
    result = run(resolve_charge, foot("T", basic_morale=4), [charger(horse())], Cover.NONE,
                 dice_text="3")  # 3 + 2 = 5
    assert effects(result) == [(E.ROUTED, "T", None), (E.LOSE_SP, "T", 1)]


def test_score_one_below_basic_morale_stands():
    result = run(resolve_charge, foot("T", basic_morale=4), [charger(foot())], Cover.NONE,
                 dice_text="3")
    assert effects(result) == []
    assert result.headline == "T stands: melee follows"


def test_rout_reminds_how_routers_move():
    result = run(resolve_charge, foot("T", basic_morale=2), [charger(foot())], Cover.NONE,
                 dice_text="6")
    assert any("directly away from the cause at rout speed" in n for n in result.notes)
    assert any("nearer to any visible enemy" in n for n in result.notes)


# "If the score is less than zero the charged unit may counter charge any enemy unit to its
# front which is charging it. This is ignored by units behind obstacles, in buildings or
# fortifications."


def test_score_of_minus_one_asks_whether_to_counter_charge():
    # close-order cavalry charged only by open-order foot, one of them in the rear:
    # 1 − 2 (cavalry only by non-cavalry) − 2 (only by open order) + 2 (rear) = −1
    with pytest.raises(Undecided) as asked:
        run(resolve_charge, horse("T"), [charger(foot("Foot", order=Order.OPEN)),
            charger(foot("Rear", order=Order.OPEN), direction=Direction.REAR)], Cover.NONE,
            dice_text="1")
    question = asked.value.question
    assert (question.key, question.unit, question.by) == ("counter_charge", "T", "defender")
    # Only a charger to its front may be counter-charged; standing is always allowed.
    assert [a.key for a in question.answers] == ["Foot", "stand"]
    assert asked.value.steps[-1].rolls[0].total == -1
    assert "halfway" in asked.value.steps[-1].outcome


@pytest.mark.parametrize(("chargers", "cover", "result"), [
    ([charger(foot("Foot", order=Order.OPEN))], Cover.NONE, "may counter-charge"),
    ([charger(foot("Foot", order=Order.OPEN), direction=Direction.FLANK)], Cover.NONE,
     "stands (no charger to its front)"),
    ([charger(foot("Foot"))], Cover.OBSTACLE, "stands"),
])
def test_a_score_below_zero_is_read_against_zero_as_well(chargers, cover, result):
    # The roll line says what the score was read against: below zero, that is 0 ("If the
    # score is less than zero…"), not only the basic morale it fell short of.
    source = dice("1")
    try:
        resolution = resolve_charge(horse("T"), chargers, cover, source,
                                    Answers.read("counter_charge=stand"))
    finally:
        source.finish()
    roll = next(r for step in resolution.steps for r in step.rolls)
    assert roll.total < 0
    assert (roll.target, roll.result) == ("basic morale 4, below 0", result)


def test_a_score_of_zero_is_read_against_the_basic_morale_alone():
    result = run(resolve_charge, horse("T"), [charger(foot())], Cover.NONE, dice_text="2")
    roll = result.steps[-1].rolls[0]
    assert (roll.total, roll.target, roll.result) == (0, "basic morale 4", "stands")


def test_the_answer_counter_charges_the_charger_named():
    result = run(resolve_charge, horse("T"), [charger(foot("Foot"))], Cover.NONE,
                 dice_text="1", answers=Answers.read("foot"))
    assert effects(result) == [(E.COUNTER_CHARGE, "T", None)]
    assert result.effects[0].value == "Foot"
    assert result.headline == "T counter-charges Foot"
    assert result.effects[0].describe() == "T counter-charges Foot, meeting it halfway"


def test_the_answer_may_be_to_stand():
    result = run(resolve_charge, horse("T"), [charger(foot("Foot"))], Cover.NONE,
                 dice_text="1", answers=Answers.read("counter_charge=stand"))
    assert effects(result) == []
    assert result.headline == "T stands: melee follows"


def test_an_answer_the_question_does_not_allow_is_refused_with_the_allowed_ones():
    with pytest.raises(InvalidInput, match="`Fot` is not an answer") as refused:
        run(resolve_charge, horse("T"), [charger(foot("Foot"))], Cover.NONE, dice_text="1",
            answers=Answers.read("Fot"))
    assert refused.value.hint == ("Answer “Counter-charge Foot” (`Foot`) or “Stand”. "
                                  "Did you mean `Foot`?")


def test_below_zero_with_no_charger_to_its_front_stands_without_asking():
    # 1 − 2 (cavalry only by non-cavalry) − 2 (only by open order) + 1 (flank) = −2
    result = run(resolve_charge, horse("T"),
                 [charger(foot("F", order=Order.OPEN), direction=Direction.FLANK)],
                 Cover.NONE, dice_text="1")
    assert effects(result) == []
    assert "no charger is to its front" in result.steps[-1].outcome
    assert result.steps[-1].rolls[0].result == "stands (no charger to its front)"


def test_score_of_zero_does_not_allow_a_counter_charge():
    result = run(resolve_charge, horse("T"), [charger(foot())], Cover.NONE, dice_text="2")
    assert result.steps[-1].rolls[0].total == 0
    assert effects(result) == []


@pytest.mark.parametrize("cover", [Cover.OBSTACLE, Cover.BUILDING, Cover.FORTIFICATION])
def test_no_counter_charge_from_cover(cover):
    result = run(resolve_charge, foot("T"), [charger(foot())], cover, dice_text="1")
    assert result.steps[-1].rolls[0].total < 0
    assert effects(result) == []
    assert "does not counter-charge" in result.steps[-1].outcome


@pytest.mark.parametrize(("cover", "where", "total"), [
    (Cover.OBSTACLE, "behind an obstacle", -1),
    (Cover.BUILDING, "in a building", -1),
    (Cover.FORTIFICATION, "in a fortification", -2),
])
def test_the_roll_line_says_stands_for_a_unit_in_cover_below_zero(cover, where, total):
    # "This is ignored by units behind obstacles, in buildings or fortifications": the roll
    # line must not offer the counter-charge the step refuses.
    result = run(resolve_charge, foot("T"), [charger(foot())], cover, dice_text="1")
    step = result.steps[-1]
    (roll,) = step.rolls
    assert (roll.label, roll.total, roll.result) == ("T charge test", total, "stands")
    assert step.outcome == (f"Below zero, but a unit {where} does not counter-charge: it "
                            "stands. Resolve the melee.")
    assert result.headline == "T stands: melee follows"


# "Already routing units may surrender, but otherwise they automatically rout and lose 1
# strength point."  and surrender situation (b).


def test_routing_foot_charged_surrenders_on_4():
    result = run(resolve_charge, foot("T", routing=True), [charger(foot())], Cover.NONE,
                 dice_text="4")
    assert effects(result) == [(E.SURRENDERED, "T", None)]


def test_routing_foot_that_does_not_surrender_routs_again_and_loses_1_sp():
    result = run(resolve_charge, foot("T", routing=True), [charger(foot())], Cover.NONE,
                 dice_text="3")
    assert effects(result) == [(E.ROUTED, "T", None), (E.LOSE_SP, "T", 1)]


def test_routing_cavalry_surrenders_only_on_5():
    kept = run(resolve_charge, horse("T", routing=True), [charger(horse())], Cover.NONE,
               dice_text="4")
    assert effects(kept) == [(E.ROUTED, "T", None), (E.LOSE_SP, "T", 1)]
    lost = run(resolve_charge, horse("T", routing=True), [charger(horse())], Cover.NONE,
               dice_text="5")
    assert effects(lost) == [(E.SURRENDERED, "T", None)]


def test_routing_unit_needs_no_basic_morale():
    result = run(resolve_charge, foot("T", routing=True, basic_morale=None), [charger(foot())],
                 Cover.NONE, dice_text="1")
    assert result.headline == "T routs again, −1 SP"


def test_a_routing_unit_whose_last_sp_goes_only_loses_it():
    # 1 SP left (a battle's roster): it does not surrender, and the SP it loses is its last,
    # so it leaves the battle, as a unit routed by the charge test does: it does not rout.
    result = run(resolve_charge, foot("T", routing=True, strength=1), [charger(foot())],
                 Cover.NONE, dice_text="3")
    assert effects(result) == [(E.LOSE_SP, "T", 1)]
    assert result.headline == "T loses its last SP"
    assert ROUT_MOVE_NOTE not in result.notes


# Surrender situation (a): "Units charged in the rear which rout … from the charged test"


def test_routed_from_rear_charge_takes_a_surrender_test():
    result = run(resolve_charge, foot("T", basic_morale=4),
                 [charger(foot(), direction=Direction.REAR)], Cover.NONE, dice_text="2 4")
    assert effects(result) == [(E.ROUTED, "T", None), (E.LOSE_SP, "T", 1),
                               (E.SURRENDERED, "T", None)]
    assert result.headline == "T routs and surrenders"


def test_a_rout_that_takes_the_last_sp_asks_no_surrender_test():
    # 1 SP left (a battle's roster): the unit leaves the battle, with nothing to surrender.
    result = run(resolve_charge, foot("T", basic_morale=4, strength=1),
                 [charger(foot(), direction=Direction.REAR)], Cover.NONE, dice_text="2")
    assert effects(result) == [(E.LOSE_SP, "T", 1)]
    assert result.headline == "T loses its last SP"
    assert result.steps[-1].outcome == ("T loses its last SP and leaves the battle: it does "
                                        "not rout and takes no surrender test.")


def test_a_charge_test_that_takes_the_last_sp_reads_so_not_as_a_rout():
    # The roll's result agrees with the headline and the step after it: no rout.
    last = run(resolve_charge, foot("T", basic_morale=4, strength=1), [charger(foot())],
               Cover.NONE, dice_text="4")
    assert [roll.result for roll in last.rolls] == ["loses its last SP"]
    kept = run(resolve_charge, foot("T", basic_morale=4, strength=2), [charger(foot())],
               Cover.NONE, dice_text="4")
    assert [roll.result for roll in kept.rolls] == ["routs"]


def test_routed_from_rear_charge_may_fail_to_surrender():
    result = run(resolve_charge, foot("T", basic_morale=4),
                 [charger(foot(), direction=Direction.REAR)], Cover.NONE, dice_text="2 3")
    assert effects(result) == [(E.ROUTED, "T", None), (E.LOSE_SP, "T", 1)]


def test_rout_from_frontal_charge_takes_no_surrender_test():
    with pytest.raises(Exception, match="Too many dice"):
        run(resolve_charge, foot("T", basic_morale=4), [charger(foot())], Cover.NONE,
            dice_text="4 6")


def test_missing_basic_morale_is_a_clear_error():
    with pytest.raises(InvalidInput, match="needs its basic morale"):
        run(resolve_charge, foot("T", basic_morale=None), [charger(foot())], Cover.NONE,
            dice_text="3")


def test_not_enough_dice_names_the_roll():
    with pytest.raises(NotEnoughDice, match="T charge test needs 1d6"):
        run(resolve_charge, foot("T"), [charger(foot())], Cover.NONE, dice_text="")


def test_several_chargers_are_named_in_the_declaration():
    result = run(resolve_charge, foot("T", basic_morale=6),
                 [charger(foot("A"), distance=2), charger(horse("B"), distance=5)],
                 Cover.NONE, dice_text="1")
    assert result.steps[0].title == "Charge declared"
    assert result.steps[0].outcome == (
        'A (infantry, reach 3", from 2") and B (cavalry, reach 6", from 5") charge T.'
    )


def test_duplicate_names_are_refused():
    with pytest.raises(InvalidInput, match="Two units are called"):
        run(resolve_charge, foot("A"), [charger(foot("A"))], Cover.NONE, dice_text="1")
