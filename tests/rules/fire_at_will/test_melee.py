"""fire-at-will-melee.txt: the factor table, results, several units, the (*) exception."""

from __future__ import annotations

import pytest

from rules.core.errors import InvalidInput, NotAllowed, TooManyDice
from rules.fire_at_will.effects import EffectKind as E
from rules.fire_at_will.melee import MELEE_FACTORS, melee_modifiers, resolve_melee
from rules.fire_at_will.units import Arm, MeleeUnit, ObstacleReading, Order, Settings, Unit

from .helpers import dice, effects, foot, general, guns, horse, m, run, skirmishers


def mods(member):
    modifiers, _ = melee_modifiers(member)
    return [(x.reason, x.value) for x in modifiers]


# --- the factor table, column by column -----------------------------------------------------

TABLE = {
    # situation: (Cavalry, Infantry, Other); None = NA
    "charging": (2, 1, None),
    "indian": (None, 2, None),
    "regular": (1, 1, 1),
    "flank": (-1, -1, -1),
    "over_obstacle": (-4, -2, -4),
    "uphill": (-1, -1, -1),
    "vs_building": (-4, -2, -4),
    "rear": (-2, -2, -2),
    "vs_fortification": (-6, -3, -6),
    "overlapping": (1, 1, 1),
    "deep": (1, 1, None),
}
UNIT_FLAGS = {"indian", "regular"}
ARMS = (Arm.CAVALRY, Arm.INFANTRY, Arm.ARTILLERY)
BASE = {Arm.CAVALRY: [("unit is cavalry", 2)], Arm.INFANTRY: [],
        Arm.ARTILLERY: [("open order or artillery", -2)]}


@pytest.mark.parametrize("flag", sorted(TABLE))
@pytest.mark.parametrize("column", range(3))
def test_factor_value_by_column(flag, column):
    arm = ARMS[column]
    unit_kw = {flag: True} if flag in UNIT_FLAGS else {}
    member_kw = {} if flag in UNIT_FLAGS else {flag: True}
    member = m(Unit(name="U", arm=arm, **unit_kw), **member_kw)
    expected = TABLE[flag][column]
    got = [pair for pair in mods(member) if pair not in BASE[arm]]
    if expected is None:
        assert got == []
        assert any("(NA)" in note for note in melee_modifiers(member)[1])
    else:
        assert [value for _, value in got] == [expected]


def test_other_column_is_used_for_units_that_are_neither():
    member = m(Unit(name="Pioneers", arm=Arm.OTHER, regular=True), charging=True)
    assert mods(member) == [("European regulars", 1)]


def test_unit_is_cavalry_plus_two():
    assert mods(m(horse())) == [("unit is cavalry", 2)]


def test_open_order_minus_two_in_every_column():
    assert mods(m(skirmishers())) == [("open order or artillery", -2)]
    assert mods(m(guns())) == [("open order or artillery", -2)]


def test_open_order_cavalry_takes_the_minus_two_in_the_cavalry_column():
    # "in open order or artillery": −2 in the Cavalry column too.
    assert mods(m(horse(order=Order.OPEN))) == [("unit is cavalry", 2),
                                                ("open order or artillery", -2)]
    result = run(resolve_melee, [m(horse("A", order=Order.OPEN))], [m(foot("D"))],
                 dice_text="3 3")
    assert result.steps[0].rolls[0].total == 3 + 2 - 2


def test_attacked_in_the_rear_applies_once_though_printed_twice():
    assert sum(1 for f in MELEE_FACTORS if f.reason == "attacked in the rear") == 1
    assert mods(m(foot(), rear=True)) == [("attacked in the rear", -2)]


def test_light_troops_never_count_as_two_bases_deep():
    member = m(foot(light=True), deep=True)
    modifiers, notes = melee_modifiers(member)
    assert modifiers == ()
    assert "not for light troops" in notes[-1]


def test_factors_add_up():
    member = m(horse(regular=True), charging=True, flank=True, overlapping=True)
    assert mods(member) == [("unit is cavalry", 2), ("charging", 2), ("European regulars", 1),
                            ("attacked in flank", -1), ("overlapping enemy unit", 1)]
    result = run(resolve_melee, [member], [m(foot("D"))], dice_text="3 3")
    assert result.steps[0].rolls[0].total == 3 + 5


# --- results ---------------------------------------------------------------------------------


def test_loser_by_two_routs_and_loses_two_sp():
    result = run(resolve_melee, [m(foot("A"))], [m(foot("D"))], dice_text="5 3")
    assert effects(result) == [(E.ROUTED, "D", None), (E.LOSE_SP, "D", 2)]
    assert result.headline == "Attackers win by 2: D routs, −2 SP"


def test_loser_by_one_retires_loses_one_sp_and_is_shaken():
    result = run(resolve_melee, [m(foot("A"))], [m(foot("D"))], dice_text="3 4")
    assert effects(result) == [(E.RETIRE, "A", 3), (E.LOSE_SP, "A", 1), (E.SHAKEN, "A", None)]
    assert result.headline == "Defenders win by 1: A retires 3\", −1 SP, shaken"


def test_equal_scores_retire_both_sides_three_inches():
    result = run(resolve_melee, [m(foot("A"), charging=True)], [m(foot("D"))], dice_text="3 4")
    assert effects(result) == [(E.RETIRE, "A", 3), (E.RETIRE, "D", 3)]


def test_modified_scores_decide_not_the_dice():
    # 2 + 2 (cavalry) + 2 (charging) = 6 against 6: a tie
    result = run(resolve_melee, [m(horse("A"), charging=True)], [m(foot("D"))], dice_text="2 6")
    assert [r.total for r in result.steps[0].rolls] == [6, 6]
    assert effects(result) == [(E.RETIRE, "A", 3), (E.RETIRE, "D", 3)]


# --- several units per side -------------------------------------------------------------------


def test_highest_score_per_side_is_compared():
    result = run(resolve_melee, [m(foot("A1")), m(foot("A2"))], [m(foot("D"))],
                 dice_text="1 5 3")
    assert "Attackers' highest score 5, defenders' highest 3" in result.steps[0].outcome
    assert effects(result) == [(E.ROUTED, "D", None), (E.LOSE_SP, "D", 2)]


def test_only_the_unit_engaged_to_the_front_is_affected_the_others_retire():
    result = run(resolve_melee, [m(foot("A1")), m(foot("A2"), front=True)], [m(foot("D"))],
                 dice_text="1 2 6")
    assert effects(result) == [(E.ROUTED, "A2", None), (E.LOSE_SP, "A2", 2),
                               (E.RETIRE, "A1", 3)]
    assert "engaged to the enemy's front" in result.steps[1].outcome


def test_with_several_in_front_the_lowest_score_is_affected():
    result = run(resolve_melee,
                 [m(foot("A1"), front=True), m(foot("A2"), front=True), m(foot("A3"))],
                 [m(foot("D"))], dice_text="3 2 1 4")
    assert effects(result) == [(E.RETIRE, "A2", 3), (E.LOSE_SP, "A2", 1), (E.SHAKEN, "A2", None),
                               (E.RETIRE, "A1", 3), (E.RETIRE, "A3", 3)]


def test_with_no_unit_marked_in_front_the_lowest_score_is_affected():
    result = run(resolve_melee, [m(foot("A"))], [m(foot("D1")), m(foot("D2"))],
                 dice_text="6 2 3")
    assert effects(result)[:2] == [(E.ROUTED, "D1", None), (E.LOSE_SP, "D1", 2)]
    assert effects(result)[2:] == [(E.RETIRE, "D2", 3)]


def test_tied_lowest_scores_take_the_first_listed_and_say_so():
    result = run(resolve_melee, [m(foot("A"))], [m(foot("D1")), m(foot("D2"))],
                 dice_text="6 2 2")
    assert effects(result)[0] == (E.ROUTED, "D1", None)
    assert "first listed" in result.steps[1].outcome


def test_a_tie_for_the_lowest_score_is_said_in_the_headline():
    result = run(resolve_melee, [m(foot("A"), front=True), m(foot("B"), front=True),
                                 m(foot("C"))], [m(foot("D"))], dice_text="2 2 1 6")
    assert result.headline == "Defenders win by 4: A routs, −2 SP (tied lowest: first listed)"
    assert effects(result) == [(E.ROUTED, "A", None), (E.LOSE_SP, "A", 2),
                               (E.RETIRE, "B", 3), (E.RETIRE, "C", 3)]
    untied = run(resolve_melee, [m(foot("A"), front=True), m(foot("B"), front=True)],
                 [m(foot("D"))], dice_text="2 3 6")
    assert untied.headline == "Defenders win by 3: A routs, −2 SP"


def test_a_tie_with_several_units_retires_everyone():
    result = run(resolve_melee, [m(foot("A1")), m(foot("A2"))], [m(foot("D"))],
                 dice_text="4 2 4")
    assert effects(result) == [(E.RETIRE, "A1", 3), (E.RETIRE, "A2", 3), (E.RETIRE, "D", 3)]


def test_preferred_shapes_carry_no_note():
    one_vs_many = run(resolve_melee, [m(foot("A1")), m(foot("A2")), m(foot("A3"))],
                      [m(foot("D"))], dice_text="1 1 1 1")
    one_vs_two = run(resolve_melee, [m(foot("A"))], [m(foot("D1")), m(foot("D2"))],
                     dice_text="1 1 1")
    assert not any("split" in n for n in one_vs_many.notes + one_vs_two.notes)


@pytest.mark.parametrize(("attackers", "defenders"), [(2, 2), (1, 3)])
def test_other_shapes_are_resolved_with_a_note(attackers, defenders):
    result = run(resolve_melee, [m(foot(f"A{i}")) for i in range(attackers)],
                 [m(foot(f"D{i}")) for i in range(defenders)],
                 dice_text=" ".join("1" * (attackers + defenders)))
    assert any("split this one if you can" in n for n in result.notes)


# --- the (*) exception ------------------------------------------------------------------------


@pytest.mark.parametrize("flag", ["vs_building", "vs_fortification"])
def test_loser_charging_a_building_or_fortification_does_not_rout(flag):
    result = run(resolve_melee, [m(foot("A"), charging=True, **{flag: True})], [m(foot("D"))],
                 dice_text="5 6")  # +1 −2 or +1 −3 puts A 2+ behind
    assert effects(result) == [(E.RETIRE, "A", 6), (E.SHAKEN, "A", None), (E.LOSE_SP, "A", 2)]


def test_attacker_losing_to_a_defender_behind_an_obstacle_does_not_rout():
    result = run(resolve_melee, [m(foot("A"))], [m(foot("D"), behind_obstacle=True)],
                 dice_text="2 5")
    assert effects(result) == [(E.RETIRE, "A", 6), (E.SHAKEN, "A", None), (E.LOSE_SP, "A", 2)]


def test_an_attacker_losing_to_two_defenders_only_the_second_behind_an_obstacle_does_not_rout():
    # "where the defender is immediately behind an obstacle": any defender, not the first.
    result = run(resolve_melee, [m(foot("A"))],
                 [m(foot("D1")), m(foot("D2"), behind_obstacle=True)], dice_text="1 2 5")
    assert effects(result) == [(E.RETIRE, "A", 6), (E.SHAKEN, "A", None), (E.LOSE_SP, "A", 2)]
    assert result.headline == 'Defenders win by 4: A retires 6", −2 SP, shaken'


def test_a_losing_defender_behind_an_obstacle_does_not_rout_by_default():
    # "(*) ... or where the defender is immediately behind an obstacle the loser does not
    # rout": the condition names no side, so a losing defender is spared too.
    result = run(resolve_melee, [m(foot("A"))], [m(foot("D"), behind_obstacle=True)],
                 dice_text="5 2")
    assert effects(result) == [(E.RETIRE, "D", 6), (E.SHAKEN, "D", None), (E.LOSE_SP, "D", 2)]


def test_either_side_is_the_default_reading():
    assert Settings().obstacle_reading is ObstacleReading.EITHER


def test_attacker_reading_routs_a_losing_defender_behind_an_obstacle():
    result = run(resolve_melee, [m(foot("A"))], [m(foot("D"), behind_obstacle=True)],
                 dice_text="5 2", settings=Settings(ObstacleReading.ATTACKER))
    assert effects(result) == [(E.ROUTED, "D", None), (E.LOSE_SP, "D", 2)]


@pytest.mark.parametrize("reading", list(ObstacleReading))
def test_every_reading_spares_an_attacker_losing_to_a_defender_behind_an_obstacle(reading):
    result = run(resolve_melee, [m(foot("A"))], [m(foot("D"), behind_obstacle=True)],
                 dice_text="2 5", settings=Settings(reading))
    assert effects(result) == [(E.RETIRE, "A", 6), (E.SHAKEN, "A", None), (E.LOSE_SP, "A", 2)]


def test_the_exception_does_not_change_a_loss_by_one():
    result = run(resolve_melee, [m(foot("A"), charging=True, vs_building=True)],
                 [m(foot("D"))], dice_text="4 4")  # 4 + 1 − 2 = 3 vs 4
    assert effects(result) == [(E.RETIRE, "A", 3), (E.LOSE_SP, "A", 1), (E.SHAKEN, "A", None)]


# --- words for a charging unit, words for a defender ------------------------------------------


@pytest.mark.parametrize(("flag", "word"), [("over_obstacle", "over-obstacle"),
                                            ("uphill", "uphill"), ("vs_building", "vs-building"),
                                            ("vs_fortification", "vs-fortification")])
def test_a_charge_word_on_an_attacker_not_charging_is_refused(flag, word):
    with pytest.raises(InvalidInput, match=f"A is not charging: {word} is for a charging unit") \
            as refused:
        run(resolve_melee, [m(foot("A"), **{flag: True})], [m(guns("B"))], dice_text="6 6")
    assert refused.value.hint == f"Add `charging` to A, or leave `{word}` out."


@pytest.mark.parametrize(("flag", "word"), [("vs_building", "vs-building"),
                                            ("vs_fortification", "vs-fortification")])
def test_a_defender_never_charges_a_building_or_fortification(flag, word):
    # Without the refusal B took −3 and A's 6 + 1 beat it by 9.
    with pytest.raises(InvalidInput, match=f"B defends: {word} is for an attacker charging"):
        run(resolve_melee, [m(foot("A"), charging=True)],
            [m(foot("B"), charging=True, **{flag: True})], dice_text="6 1")


@pytest.mark.parametrize(("flag", "word"), [("over_obstacle", "over-obstacle"),
                                            ("uphill", "uphill")])
def test_a_defender_crosses_an_obstacle_or_charges_uphill_only_counter_charging(flag, word):
    with pytest.raises(InvalidInput, match=f"B is not charging: {word}") as refused:
        run(resolve_melee, [m(foot("A"), charging=True)], [m(foot("B"), **{flag: True})],
            dice_text="6 1")
    assert refused.value.hint == (f"Add `charging` to B if it counter-charged, or leave "
                                  f"`{word}` out.")
    result = run(resolve_melee, [m(foot("A"), charging=True)],
                 [m(foot("B"), charging=True, **{flag: True})], dice_text="6 6")
    assert result.headline == {"over_obstacle": "Attackers win by 2: B routs, −2 SP",
                               "uphill": 'Attackers win by 1: B retires 3", −1 SP, shaken'}[flag]


def test_an_attacker_behind_an_obstacle_is_refused():
    with pytest.raises(InvalidInput, match="A attacks: behind-obstacle is for a defender"):
        run(resolve_melee, [m(foot("A"), charging=True, behind_obstacle=True)], [m(foot("B"))],
            dice_text="6 1")


# --- surrender from melee (situation a) -------------------------------------------------------


def test_unit_attacked_in_the_rear_that_routs_tests_to_surrender():
    result = run(resolve_melee, [m(foot("A"))], [m(foot("D"), rear=True)], dice_text="5 3 4")
    assert effects(result) == [(E.ROUTED, "D", None), (E.LOSE_SP, "D", 2),
                               (E.SURRENDERED, "D", None)]
    assert result.headline == "Attackers win by 4: D routs and surrenders"


def test_a_unit_that_routs_and_does_not_surrender_routs_in_the_headline():
    result = run(resolve_melee, [m(foot("A"))], [m(foot("D"), rear=True)], dice_text="5 3 3")
    assert (E.SURRENDERED, "D", None) not in effects(result)
    assert result.headline == "Attackers win by 4: D routs, −2 SP"


@pytest.mark.parametrize(("strength", "dice_text", "lost"), [(1, "5 1", 1), (2, "5 1", 2),
                                                             (1, "5 4", 1)])
def test_a_result_that_takes_the_last_sp_is_the_only_one_and_asks_no_surrender_test(
        strength, dice_text, lost):
    result = run(resolve_melee, [m(horse("Horse", regular=True), charging=True)],
                 [m(foot("Foot", strength=strength), rear=True)], dice_text=dice_text)
    assert effects(result) == [(E.LOSE_SP, "Foot", lost)]
    assert result.headline.endswith(": Foot loses its last SP")
    assert not any("Surrender" in step.title for step in result.steps)


def test_a_result_that_leaves_sp_is_unchanged_by_knowing_them():
    result = run(resolve_melee, [m(horse("Horse", regular=True), charging=True)],
                 [m(foot("Foot", strength=3), rear=True)], dice_text="5 1 2")
    assert effects(result) == [(E.ROUTED, "Foot", None), (E.LOSE_SP, "Foot", 2)]
    assert result.headline == "Attackers win by 11: Foot routs, −2 SP"


def test_unit_attacked_in_the_rear_that_only_retires_does_not_test():
    with pytest.raises(TooManyDice):
        run(resolve_melee, [m(foot("A"))], [m(foot("D"), rear=True)], dice_text="4 5 6")


# --- input checks -----------------------------------------------------------------------------


def test_each_side_needs_a_unit():
    with pytest.raises(InvalidInput, match="at least one unit among the defenders"):
        run(resolve_melee, [m(foot("A"))], [], dice_text="1")


def test_duplicate_names_are_refused():
    with pytest.raises(InvalidInput, match="Two units are called `a`"):
        run(resolve_melee, [m(foot("A"))], [m(foot("a"))], dice_text="1 1")


def test_a_general_is_named_with_one_unit():
    from rules.fire_at_will.units import General

    wolfe = General("Wolfe")
    with pytest.raises(InvalidInput, match="Wolfe is named with A and with B: a general is "
                                           "with one unit"):
        run(resolve_melee, [m(foot("A", general=wolfe)), m(foot("B", general=wolfe))],
            [m(foot("C"))], dice_text="1 1 1")


def test_general_attached_is_carried_through():
    result = run(resolve_melee, [m(foot("A"))], [m(foot("D", general=general("Wolfe")))],
                 dice_text="5 3 1 1")
    assert result.steps[-1].title.startswith("Risk to Wolfe")


# --- routing units ------------------------------------------------------------------------------
# "Already routing units may surrender, but otherwise they automatically rout and lose 1
# strength point": a charge on a routing unit is settled without a melee, so none is fought.


@pytest.mark.parametrize("side", ["attackers", "defenders"])
def test_a_routing_unit_does_not_fight_a_melee(side):
    routing = m(foot("Béarn", routing=True))
    attackers = [routing] if side == "attackers" else [m(foot("A"), charging=True)]
    defenders = [routing] if side == "defenders" else [m(foot("D"))]
    with pytest.raises(NotAllowed) as info:
        run(resolve_melee, attackers, defenders, dice_text="6 1")
    assert str(info.value).startswith(
        "Béarn is routing: a routing unit does not fight a melee. A charge on it is settled "
        "by the charge test (`/charge fire-at-will`): it may surrender, otherwise it routs "
        "again and loses 1 SP.")


def test_one_routing_unit_among_several_is_refused_before_any_roll():
    defenders = [m(foot("D")), m(foot("Béarn", routing=True))]
    with pytest.raises(NotAllowed, match="Béarn is routing"):
        resolve_melee([m(foot("A"))], defenders, dice(""))


# --- the result is said once: headline and effects, steps only for what they do not say -------


def test_a_plain_result_adds_no_step_restating_it():
    result = run(resolve_melee, [m(foot("A"))], [m(foot("D"))], dice_text="5 3")
    assert [s.title for s in result.steps] == ["Melee rolls"]


def test_a_draw_adds_no_step_restating_it():
    result = run(resolve_melee, [m(foot("A"))], [m(foot("D"))], dice_text="4 4")
    assert len(result.steps) == 1
    assert result.headline == 'Drawn at 4: both sides retire 3"'


def test_the_exception_step_says_why_the_loser_does_not_rout():
    result = run(resolve_melee, [m(foot("A"))], [m(foot("D"), behind_obstacle=True)],
                 dice_text="2 5")
    (step,) = [s for s in result.steps if s.title == "(*) exception"]
    assert step.outcome == ("A does not rout: the defender is immediately behind an obstacle. "
                            "It retires 6\", is shaken and loses 2 SP instead.")


def test_several_losers_get_a_step_naming_who_takes_the_result():
    result = run(resolve_melee, [m(foot("A"))], [m(foot("D1")), m(foot("D2"))],
                 dice_text="6 2 3")
    assert result.steps[-1].title == "Who is affected"
    assert result.steps[-1].outcome == (
        "Only D1 takes the result (it has the lowest score); the other defenders retire 3\".")


def test_a_units_factors_read_alike_for_an_equal_unit_and_no_caller_can_change_them():
    """The same unit in the same situation reads the same factors, given as tuples: what one
    caller does with them changes nothing for the next."""
    member = MeleeUnit(Unit("Grenadiers", Arm.INFANTRY, regular=True), charging=True)
    first, notes = melee_modifiers(member)
    assert [(m.value, m.reason) for m in first] == [(1, "charging"), (1, "European regulars")]
    assert (type(first), type(notes)) == (tuple, tuple)
    again, notes_again = melee_modifiers(MeleeUnit(Unit("Grenadiers", Arm.INFANTRY,
                                                        regular=True), charging=True))
    assert again == first and notes_again == ()
    assert melee_modifiers(MeleeUnit(Unit("Grenadiers", Arm.CAVALRY, regular=True),
                                     charging=True))[0][0].reason == "unit is cavalry"


def test_words_that_read_like_a_slip_are_said_with_the_result():
    charger = MeleeUnit(horse("Light Dragoons"), charging=True, flank=True)
    result = run(resolve_melee, [charger], [MeleeUnit(foot("La Sarre"))], dice_text="4 1")
    assert "Check: Light Dragoons is charging and marked flank, which in a melee means " \
        "attacked in its flank." in result.notes
    shaken = MeleeUnit(foot("A", shaken=True), charging=True)
    result = run(resolve_melee, [shaken], [MeleeUnit(foot("B"))], dice_text="1 1")
    assert "Check: A is shaken and charging: shaken units declare no charge (a counter-charge " \
        "may still be made)." in result.notes


def test_a_shaken_defender_counter_charging_is_no_slip():
    # A defender charges only in a counter-charge, which a shaken unit may make: the charge
    # test offered it.
    shaken = MeleeUnit(horse("Cuirassiers", shaken=True), charging=True)
    result = run(resolve_melee, [MeleeUnit(foot("Rangers"), charging=True)], [shaken],
                 dice_text="6 1")
    assert not [note for note in result.notes if note.startswith("Check:")]
