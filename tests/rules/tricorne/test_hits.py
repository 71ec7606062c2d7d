"""Steps 4 and 5: the roll, hits by symbol and saber, wasted hits, Victory Banners, and the
leader casualty check (attached and alone)."""

from __future__ import annotations

import pytest

from rules.core.dice import Reading
from rules.core.errors import NotAllowed
from rules.tricorne.effects import (
    BANNER,
    ELIMINATED,
    LEADER_ESCAPES,
    LEADER_KILLED,
    LEADER_RETREATS,
    ROUTED_OFF,
)

from .helpers import asked, cavalry, effects, melee, question, regular, rolls, step, titles, unit

GUNS = unit("Guns", "trained-artillery", blocks=3)


@pytest.mark.parametrize(("defender", "rolled", "hits"), [
    (regular("Target", blocks=3), "inf inf cav  art art", 2),
    (cavalry("Target", blocks=3), "inf cav cav  art art", 2),
    (unit("Target", "trained-artillery", blocks=3), "art inf cav  cav cav", 1),
])
def test_a_unit_symbol_matching_the_target_scores_a_hit(defender, rolled, hits):
    result = melee(regular("Attacker"), defender, rolled, "retire=stand")
    first = rolls(result)[0]
    assert first.hits == hits
    assert effects(result)[0] == ("damage", "Target", hits)


def test_a_saber_hits_any_unit():
    result = melee(regular("Attacker"), GUNS, "sab sab inf cav cav", "stay")
    assert rolls(result)[0].readings == (Reading.HIT, Reading.HIT, Reading.MISS)
    assert ("damage", "Guns", 2) in effects(result)


@pytest.mark.parametrize("kind", ["militia", "light-cavalry"])
def test_militia_and_light_cavalry_score_no_hit_with_a_saber(kind):
    attacker = unit("Raiders", kind, blocks=2)
    result = melee(attacker, regular("Target", blocks=3), "sab inf inf inf", "stay")
    first = rolls(result)[0]
    assert first.readings == (Reading.MISS, Reading.HIT)
    assert f"{kind.replace('-', ' ')}: sabers score no hit" in first.notes


def test_flags_and_other_symbols_do_not_hit():
    result = melee(regular("Attacker", blocks=2), regular("Target"), "cav art cav cav cav")
    assert rolls(result)[0].hits == 0
    assert step(result, "Attacker rolls against Target").outcome == "No hit on Target."
    assert "damage" not in [kind for kind, *_ in effects(result)]


def test_each_hit_removes_one_block():
    result = melee(regular("Attacker"), regular("Target"), "inf inf cav  inf inf")
    assert effects(result)[0] == ("damage", "Target", 2)
    assert step(result, "Attacker rolls against Target").outcome == (
        "Target loses 2 blocks (2 left).")


def test_the_last_block_gives_a_victory_banner_and_extra_hits_have_no_effect():
    result = melee(regular("Attacker"), regular("Target", blocks=1), "inf sab inf", "stay")
    assert effects(result) == [("damage", "Target", 1), (ELIMINATED, "Target", None),
                               (BANNER, "Attacker", None)]
    assert result.effects[2].value == "Target eliminated"
    assert "2 hits beyond its blocks have no effect" in rolls(result)[0].notes
    assert step(result, "Attacker rolls against Target").outcome == (
        "Target loses its last 1 block: eliminated.")
    # An eliminated unit neither retreats nor battles back.
    assert "Retreat" not in titles(result)
    assert len(rolls(result)) == 1


def test_hits_are_resolved_before_retreats():
    result = melee(regular("Attacker"), regular("Target"), "inf flag cav  inf inf inf", "stay")
    assert titles(result)[1:4] == ["Attacker rolls against Target", "Retreat", "Rally check"]
    assert effects(result)[:2] == [("damage", "Target", 1), ("moved", "Target", 1)]


def test_buildings_ignore_one_symbol_hit_but_not_a_saber():
    town = regular("Town", blocks=3, terrain="buildings")
    result = melee(regular("Attacker"), town, "inf inf sab  cav cav")
    assert rolls(result)[0].readings == (Reading.MISS, Reading.HIT, Reading.HIT)
    # Said on the roll, as the hill's flag is: the reply's lines add up without the Steps.
    assert rolls(result)[0].result == "2 hits (buildings: 1 hit ignored)"
    assert ("damage", "Town", 2) in effects(result)
    only_sabers = melee(regular("Attacker"), town, "sab cav cav  cav cav")
    assert ("damage", "Town", 1) in effects(only_sabers)
    assert rolls(only_sabers)[0].result == "1 hit"


# --- the leader casualty check --------------------------------------------------------------


def led(**kw):
    return regular("Royal Ecossais", leader="Drummond", **kw)


def test_a_unit_with_a_leader_that_takes_a_hit_checks_for_its_leader_two_dice_two_sabers():
    result = melee(regular("Attacker"), led(blocks=3), "inf cav cav  sab sab  inf inf")
    check = step(result, "Leader casualty check")
    assert check.rolls[0].dice == ("saber", "saber")
    assert check.outcome == "Drummond is killed: a Victory Banner."
    assert (LEADER_KILLED, "Drummond", None) in effects(result)
    assert (BANNER, "Attacker", None) in effects(result)
    # The unit battles back without its leader: 2 dice, not 3.
    assert len(rolls(result)[-1].dice) == 2


def test_one_saber_of_two_leaves_the_leader_with_the_unit():
    result = melee(regular("Attacker"), led(blocks=3), "inf cav cav  sab inf  inf inf inf")
    assert step(result, "Leader casualty check").outcome == (
        "Drummond survives and stays with Royal Ecossais.")
    assert len(rolls(result)[-1].dice) == 3  # battles back with its leader


def test_no_hit_no_leader_check():
    result = melee(regular("Attacker"), led(blocks=3), "cav cav cav  cav cav cav")
    assert "Leader casualty check" not in titles(result)


def test_a_leader_whose_unit_is_eliminated_checks_with_one_die_and_a_saber_kills():
    killed = melee(regular("Attacker"), led(blocks=1), "inf cav cav  sab", "stay")
    assert step(killed, "Leader casualty check").rolls[0].dice == ("saber",)
    assert (LEADER_KILLED, "Drummond", None) in effects(killed)
    assert [e for e in effects(killed) if e[0] == BANNER] == [(BANNER, "Attacker", None)] * 2
    escapes = melee(regular("Attacker"), led(blocks=1), "inf cav cav  flag", "stay")
    assert (LEADER_ESCAPES, "Drummond", None) in effects(escapes)
    assert step(escapes, "Leader casualty check").outcome == (
        "Drummond survives and escapes alone toward the nearest friendly unit: a lone leader "
        "now that Royal Ecossais is gone.")


@pytest.mark.parametrize(("die", "fate"), [("flag", LEADER_ESCAPES), ("sab", LEADER_KILLED)])
def test_a_leader_whose_unit_routs_checks_with_one_die_and_is_left_alone(die, fate):
    # A flag, the rally check fails (2 blocks + 1 leader = 3 dice), the unit routs.
    result = melee(regular("Attacker"), led(blocks=2), f"flag cav cav  cav cav cav  {die}",
                   "stay")
    assert titles(result)[2:5] == ["Retreat", "Rally check", "Leader casualty check"]
    assert effects(result)[1:] == [(ROUTED_OFF, "Royal Ecossais", None),
                                   (BANNER, "Attacker", None), *(
                                       [(fate, "Drummond", None)] if fate == LEADER_ESCAPES
                                       else [(fate, "Drummond", None),
                                             (BANNER, "Attacker", None)])]
    assert step(result, "Leader casualty check").rolls[0].dice == (
        {"sab": "saber"}.get(die, die),)
    if fate == LEADER_ESCAPES:
        assert result.effects[-1].value == "Royal Ecossais"
        assert result.headline == ("Attacker scores no hit on Royal Ecossais; Royal Ecossais "
                                   "retreats 1 hex; Royal Ecossais routs; Drummond escapes "
                                   "alone")


def test_a_unit_eliminated_by_a_blocked_retreat_leaves_its_leader_alone():
    result = melee(regular("Attacker"), led(blocks=1, retreat_room=0), "flag cav cav  flag",
                   "stay")
    assert effects(result) == [("damage", "Royal Ecossais", 1),
                               (ELIMINATED, "Royal Ecossais", None),
                               (BANNER, "Attacker", None), (LEADER_ESCAPES, "Drummond", None)]
    assert step(result, "Leader casualty check").rolls[0].dice == ("flag",)


def test_hits_then_a_blocked_retreat_that_eliminates_make_one_check_of_one_die():
    result = melee(regular("Attacker"), led(blocks=2, retreat_room=0), "inf flag cav  sab",
                   "stay")
    assert titles(result).count("Leader casualty check") == 1
    assert titles(result)[2:4] == ["Retreat", "Leader casualty check"]
    assert (LEADER_KILLED, "Drummond", None) in effects(result)


def test_a_failed_rally_that_takes_the_last_block_leaves_the_leader_alone():
    result = melee(regular("Attacker"), led(blocks=1), "flag cav cav  cav cav  inf", "stay",
                   failed_rally="lose-block")
    assert effects(result)[-2:] == [(BANNER, "Attacker", None),
                                    (LEADER_ESCAPES, "Drummond", None)]


def test_a_retiring_unit_that_routs_leaves_its_leader_alone():
    dragoons = cavalry("Dragoons", blocks=2, leader="Cope")
    result = melee(regular("Attacker"), dragoons, "inf art art  inf inf inf  flag",
                   "retire; stay")
    assert titles(result)[-3:] == ["Rally check", "Leader casualty check", "Take ground"]
    assert effects(result)[-1] == (LEADER_ESCAPES, "Cope", None)


def test_the_leader_check_follows_the_settings():
    result = melee(regular("Attacker"), led(blocks=3), "inf cav cav  sab flag flag  inf inf",
                   leader_dice=3, leader_sabers=1)
    assert (LEADER_KILLED, "Drummond", None) in effects(result)
    assert result.defaults == ()  # not the project default: nothing to say


def test_the_default_leader_check_is_named_in_the_footer_only_when_it_was_used():
    with_check = melee(regular("Attacker"), led(blocks=3), "inf cav cav  cav cav  inf inf inf")
    assert any(d.startswith("leader casualty check: 2 dice") for d in with_check.defaults)
    without = melee(regular("Attacker"), regular("Target", blocks=3), "cav cav cav  cav cav")
    assert without.defaults == ()


# --- a lone leader ------------------------------------------------------------------------


LONE = unit("Wolfe", "leader", blocks=0, full=0)


def test_a_lone_leader_may_not_attack():
    with pytest.raises(NotAllowed, match="may not engage in melee combat when alone"):
        melee(LONE, regular("Target"), "")


def test_a_lone_leader_attacked_is_killed_by_a_saber():
    result = melee(regular("Attacker"), LONE, "inf sab cav", "stay")
    attack = step(result, "Attacker attacks Wolfe")
    assert attack.outcome == "Wolfe is killed: a Victory Banner."
    assert attack.rolls[0].notes == ("2 (regular) + 1 full strength = 3 dice",)
    assert effects(result) == [(LEADER_KILLED, "Wolfe", None), (BANNER, "Attacker", None)]


def test_cavalry_leaving_a_forest_onto_a_lone_leaders_hex_is_not_stopped_as_entering_one():
    # The leader's hex has no terrain on record: taken as open ground, and said so.
    horse = cavalry("Dragoons", terrain="forest")
    # Wolfe, who retreated, is no bonus target: another unit beside that hex is.
    beside = (regular("Second"),)
    key, _, _ = question(horse, LONE, "inf", "advance", bonus=beside)
    assert key == "bonus_melee"
    result = melee(horse, LONE, "inf", "advance; none", bonus=beside)
    [moved] = [e for e in result.effects if e.unit == "Dragoons"]
    assert moved.detail == "open"
    assert result.notes[0].startswith("Wolfe's hex has no terrain on record: Dragoons is "
                                      "taken to stand in the open there")


def test_a_lone_leader_without_a_saber_against_it_retreats_and_the_attacker_may_take_ground():
    result = melee(regular("Attacker"), LONE, "inf flag cav", "advance")
    assert (LEADER_RETREATS, "Wolfe", None) in effects(result)
    assert ("moved", "Attacker", 1) in effects(result)
    assert asked(regular("Attacker"), LONE, "inf flag cav") == ("take_ground", 3)


def test_an_attack_without_dice_leaves_a_lone_leader_where_he_stands():
    # No die, so no saber to fear: nothing forces him back, and no hex is vacated.
    result = melee(regular("Attacker", blocks=2, reduce=2), LONE, "")
    assert step(result, "Attacker attacks Wolfe").outcome == (
        "2 (regular) − 2 terrain (given) = 0 dice: no dice. Wolfe stays.")
    assert effects(result) == []
    assert result.headline == "Attacker has no melee dice (−2 terrain (given)); Wolfe stays"


def test_a_lone_leader_retreats_toward_his_side():
    result = melee(regular("Attacker"), LONE, "inf flag cav", "stay")
    assert "Wolfe retreats toward his side" in [e.describe() for e in result.effects]


def test_one_hit_beyond_the_blocks_has_no_effect():
    result = melee(regular("Attacker"), regular("Target", blocks=1), "inf inf cav", "stay")
    assert "1 hit beyond its blocks has no effect" in result.steps[1].rolls[0].notes


def test_a_leader_killed_by_the_hits_adds_no_die_to_the_rally_check():
    # Step 5 before step 6: 1 hit and a flag; two sabers kill Drummond; the rally check is
    # then made without him, 2 blocks: 2 dice, not 3.
    result = melee(regular("Attacker"), led(blocks=3), "inf flag cav  sab sab  cav cav",
                   "stay")
    assert titles(result)[1:5] == ["Attacker rolls against Royal Ecossais", "Retreat",
                                   "Leader casualty check", "Rally check"]
    assert step(result, "Rally check").rolls[0].dice == ("cavalry", "cavalry")
    assert effects(result)[-4:] == [(LEADER_KILLED, "Drummond", None),
                                    (BANNER, "Attacker", None),
                                    (ROUTED_OFF, "Royal Ecossais", None),
                                    (BANNER, "Attacker", None)]


def test_a_unit_hit_that_then_routs_leaves_its_checked_leader_alone_without_a_second_check():
    # 1 hit and a flag; Drummond survives his check (one saber of two) and his die counts in
    # the rally (2 blocks + 1 leader = 3 dice), which fails: one roll, one check.
    result = melee(regular("Attacker"), led(blocks=3), "inf flag cav  sab cav  cav cav cav",
                   "stay")
    assert titles(result)[1:6] == ["Attacker rolls against Royal Ecossais", "Retreat",
                                   "Leader casualty check", "Rally check", "Leader left alone"]
    assert titles(result).count("Leader casualty check") == 1
    assert len(step(result, "Rally check").rolls[0].dice) == 3
    assert effects(result)[-1] == (LEADER_ESCAPES, "Drummond", None)
    assert result.headline.endswith("Royal Ecossais routs; Drummond escapes alone")


def test_a_retiring_unit_hit_that_then_routs_makes_one_leader_check():
    # 1 hit on the dragoons; Cope survives his check, retires with them and counts in their
    # rally (2 blocks + 1 = 3 dice); they rout, and he is left alone unchecked again.
    dragoons = cavalry("Dragoons", blocks=3, leader="Cope")
    result = melee(regular("Attacker"), dragoons, "cav art art  inf inf  inf inf inf",
                   "retire; stay")
    assert titles(result)[-5:] == ["Leader casualty check", "Retire", "Rally check",
                                   "Leader left alone", "Take ground"]
    assert titles(result).count("Leader casualty check") == 1
    assert effects(result)[-1] == (LEADER_ESCAPES, "Cope", None)
