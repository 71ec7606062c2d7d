"""Step 6: flags, retreats per unit class, blocked retreats, and the rally check with its
settings (the text does not print the rally check's dice)."""

from __future__ import annotations

import pytest

from rules.core.errors import InvalidInput
from rules.tricorne.checks import rally_dice
from rules.tricorne.effects import BANNER, ELIMINATED, ROUTED_OFF

from .helpers import cavalry, effects, melee, regular, rolls, settings, step, titles, unit

ATTACKER = regular("Attacker")


@pytest.mark.parametrize(("kind", "per_flag"), [
    ("grenadier", 1), ("regular", 1), ("highland", 1), ("lowland", 2), ("militia", 2),
    ("battle-cavalry", 2), ("light-cavalry", 2), ("trained-artillery", 1),
    ("light-artillery", 1),
])
def test_each_flag_retreats_the_unit_by_its_class(kind, per_flag):
    target = unit("Target", kind, blocks=2, cannot_retire=True)
    count = rally_dice(target, settings())[0]
    miss = "inf" if target.arm.value == "cavalry" else "cav"
    result = melee(ATTACKER, target, f"flag flag {miss} " + " sab" * count,
                   "ignore_flag=take; take_ground=stay")
    assert ("moved", "Target", 2 * per_flag) in effects(result)
    assert step(result, "Retreat").outcome == (
        f"2 flags: Target must retreat {2 * per_flag} hexes.")


def test_a_unit_that_retreats_makes_a_rally_check_and_does_not_battle_back():
    result = melee(ATTACKER, regular("Target", blocks=3), "flag art art  inf cav cav", "stay")
    assert titles(result) == ["Melee: announce", "Attacker rolls against Target", "Retreat",
                              "Rally check", "Take ground"]
    # Passing cancels no hex of the retreat: the step says where the unit rallies.
    assert step(result, "Rally check").outcome == (
        "Target rallies where its retreat left it, 1 hex back: it stays on the field.")


def test_a_unit_that_cannot_retreat_loses_a_block_per_hex_and_still_rallies_then_battles_back():
    cornered = regular("Target", blocks=3, retreat_room=0)
    result = melee(ATTACKER, cornered, "flag art art  inf inf  cav cav")
    assert effects(result)[0] == ("damage", "Target", 1)
    assert result.effects[0].detail == "retreat blocked"
    assert step(result, "Retreat").outcome == (
        "1 flag: Target must retreat 1 hex. It cannot complete 1 hex and loses 1 block "
        "instead.")
    # The headline, which the log keeps, counts that block too.
    assert "Target loses 1 block for the retreat it cannot make" in result.headline
    assert "Rally check" in titles(result)
    # It kept its hex, so it battles back (2 dice, 2 blocks left).
    assert rolls(result)[-1].label == "Target battles back"


def test_a_unit_two_hexes_short_loses_two_blocks_and_fights_on():
    # "loses 1 block for each retreat hex it cannot complete": two flags, no room, 2 blocks.
    cornered = regular("Target", blocks=3, retreat_room=0)
    result = melee(ATTACKER, cornered, "flag flag art  inf  cav cav")
    assert effects(result) == [("damage", "Target", 2)]
    assert step(result, "Retreat").outcome == (
        "2 flags: Target must retreat 2 hexes. It cannot complete 2 hexes and loses 2 blocks "
        "instead.")
    assert "Target loses 2 blocks for the retreat it cannot make" in result.headline
    # Left with 1 block, it rallies and battles back.
    assert rolls(result)[-1].label == "Target battles back"


def test_a_partly_blocked_retreat_moves_as_far_as_it_can():
    lowland = unit("Target", "lowland", blocks=3, retreat_room=1)
    result = melee(ATTACKER, lowland, "flag art art  inf", "stay")
    assert effects(result)[:2] == [("moved", "Target", 1), ("damage", "Target", 1)]


def test_blocks_lost_to_a_blocked_retreat_can_eliminate_it():
    result = melee(ATTACKER, regular("Target", blocks=1, retreat_room=0), "flag art art",
                   "stay")
    assert effects(result) == [("damage", "Target", 1), (ELIMINATED, "Target", None),
                               (BANNER, "Attacker", None)]
    assert step(result, "Retreat").outcome.endswith("Eliminated.")
    assert result.headline.endswith("Target loses 1 block for the retreat it cannot make; "
                                    "Target is eliminated")
    assert "Rally check" not in titles(result)


def test_a_blocked_retreat_takes_no_more_blocks_than_the_unit_has():
    # Cavalry retreats 2 hexes a flag: 1 block left, 2 hexes it cannot make.
    result = melee(ATTACKER, cavalry("Target", blocks=1, retreat_room=0), "flag art art",
                   "retire=stand; take_ground=stay")
    assert effects(result) == [("damage", "Target", 1), (ELIMINATED, "Target", None),
                               (BANNER, "Attacker", None)]
    assert "Rally check" not in titles(result)


@pytest.mark.parametrize(("attacker", "ignored"), [
    (regular("Attacker"), True),
    (regular("Attacker", terrain="hill"), False),  # not from a lower level
    (unit("Attacker", "trained-artillery"), False),  # never against artillery
])
def test_a_hill_ignores_one_flag_when_attacked_from_below(attacker, ignored):
    hill = regular("Target", blocks=2, terrain="hill")
    rolled = "flag cav cav  art art" if ignored else "flag cav cav  inf inf"
    result = melee(attacker, hill, rolled, "stay")
    assert ("Hill" in titles(result)) is ignored
    assert (("moved", "Target", 1) in effects(result)) is not ignored
    (first,) = [r for s in result.steps for r in s.rolls if r.label == f"{attacker.name} melee"]
    # The reply's roll line says it, so its retreat adds up without the Steps.
    assert first.result == ("0 hits, 1 flag (hill: 1 ignored)" if ignored else "0 hits, 1 flag")


@pytest.mark.parametrize(("attacker", "target_words", "ignored"), [
    (regular("Attacker", terrain="hill", other_hill=True), {}, True),
    (regular("Attacker", terrain="hill"), {"other_hill": True}, True),  # said on either
    (unit("Guns", "trained-artillery", terrain="hill", other_hill=True), {}, False),
])
def test_a_hill_ignores_one_flag_when_attacked_from_another_group_of_hill_hexes(
        attacker, target_words, ignored):
    hill = regular("Target", blocks=2, terrain="hill", **target_words)
    rolled = "flag cav cav  art art" if ignored else "flag cav cav  inf inf"
    result = melee(attacker, hill, rolled, "stay")
    assert ("Hill" in titles(result)) is ignored
    if ignored:
        assert step(result, "Hill").outcome == (
            "Target on a hill attacked from another group of hill hexes ignores 1 flag "
            "(the Terrain rules).")


def test_the_other_hill_protects_the_attacker_against_the_battle_back_too():
    attacker = regular("Attacker", terrain="hill", other_hill=True)
    result = melee(attacker, regular("Target", blocks=3, terrain="hill"),
                   "cav cav cav  flag art")
    assert step(result, "Hill").outcome.startswith("Attacker on a hill attacked from another "
                                                   "group of hill hexes ignores 1 flag")
    assert "Retreat" not in titles(result)


def test_after_taking_ground_the_bonus_target_says_whether_its_hill_is_another():
    attacker = cavalry("Dragoons", terrain="hill", other_hill=True)
    first = regular("Target", blocks=1, terrain="hill")
    same_hill = regular("Second", blocks=2, terrain="hill")
    result = melee(attacker, first, "inf art art  flag art art  inf inf", "advance; Second; stay",
                   bonus=(same_hill,))
    assert "Hill" not in titles(result)  # it took ground onto the hill the target is on
    assert ("moved", "Second", 1) in effects(result)


def test_other_hill_is_refused_for_a_unit_not_on_a_hill():
    with pytest.raises(InvalidInput) as refused:
        melee(regular("Attacker", other_hill=True), regular("Target", terrain="hill"), "")
    assert refused.value.message == (
        "Attacker: `other-hill` says it stands on a hill, but its terrain is open.")


# --- the rally check -------------------------------------------------------------------------


@pytest.mark.parametrize(("target", "count"), [
    (regular(blocks=3), 3),
    (regular(blocks=2, leader="Murray"), 3),
    (unit("G", "grenadier", blocks=2), 3),  # +1 die (reference)
    (unit("L", "lowland", blocks=2), 1),  # −1 die (reference)
    (unit("L", "lowland", blocks=1), 1),  # never fewer than 1
])
def test_rally_dice_default_one_per_block_plus_leader_and_unit_modifiers(target, count):
    assert rally_dice(target, settings())[0] == count


def test_a_rally_modifier_names_the_unit_page_that_prints_it():
    assert rally_dice(unit("G", "grenadier", blocks=2), settings())[1] == (
        "2 (blocks left) + 1 grenadier (Government Grenadier unit page) = 3 dice")
    assert rally_dice(unit("L", "lowland", blocks=2), settings())[1] == (
        "2 (blocks left) − 1 lowland (Jacobite Lowland unit page) = 1 die")


@pytest.mark.parametrize(("setting", "count"), [("1", 1), ("2", 2), ("3", 3), ("blocks", 4)])
def test_rally_dice_setting(setting, count):
    assert rally_dice(regular(blocks=4), settings(rally_dice=setting))[0] == count


def test_rally_leader_setting():
    led = regular(blocks=2, leader="Murray")
    assert rally_dice(led, settings(rally_leader=0))[0] == 2
    assert rally_dice(led, settings(rally_leader=2))[0] == 4


@pytest.mark.parametrize(("rule", "faces", "rallies"), [
    ("unit-or-saber", "inf", True), ("unit-or-saber", "sab", True),
    ("unit-or-saber", "cav", False), ("saber", "inf", False), ("saber", "sab", True),
    ("unit", "sab", False), ("unit", "inf", True), ("not-flag", "art", True),
    ("not-flag", "flag", False),
])
def test_rally_success_setting(rule, faces, rallies):
    target = regular("Target", blocks=1)
    result = melee(ATTACKER, target, f"flag art art  {faces}", "stay",
                   rally_success=rule)
    assert step(result, "Rally check").rolls[0].result == (
        "rallies: stays on the field" if rallies else "fails")
    assert ((ROUTED_OFF, "Target", None) in effects(result)) is not rallies


def test_a_failed_rally_routs_the_unit_for_a_victory_banner_by_default():
    result = melee(ATTACKER, regular("Target", blocks=2), "flag art art  cav flag", "stay")
    assert effects(result)[1:] == [(ROUTED_OFF, "Target", None), (BANNER, "Attacker", None)]
    assert result.effects[-1].value == "Target routed"
    assert step(result, "Rally check").outcome == "Target fails and routs off the field."
    assert result.defaults == (
        "rally check: 1 die per block left, +1 with a leader; its own unit symbol or a saber "
        "rallies", "a failed rally check routs the unit off the field")


def test_a_failed_rally_may_cost_a_block_instead():
    result = melee(ATTACKER, regular("Target", blocks=2), "flag art art  cav flag", "stay",
                   failed_rally="lose-block")
    assert effects(result)[1:] == [("damage", "Target", 1)]
    assert step(result, "Rally check").outcome == "Target fails and loses 1 block."
    last = melee(ATTACKER, regular("Target", blocks=1), "flag art art  cav", "stay",
                 failed_rally="lose-block")
    assert effects(last)[1:] == [("damage", "Target", 1), (ELIMINATED, "Target", None),
                                 (BANNER, "Attacker", None)]


def test_a_rally_check_on_settings_of_the_table_names_no_default():
    result = melee(ATTACKER, regular("Target", blocks=2), "flag art art  inf", "stay",
                   rally_dice="1")
    assert result.defaults == ()


def test_a_cavalry_target_that_stands_retreats_two_hexes_per_flag():
    result = melee(ATTACKER, cavalry("Target", blocks=2), "flag art art  cav cav", "stand; stay")
    assert ("moved", "Target", 2) in effects(result)
