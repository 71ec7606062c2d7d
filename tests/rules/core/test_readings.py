"""Every die of a roll record carries its face and how it was read."""

from __future__ import annotations

import pytest

from rules.core.dice import Reading, Symbol, plain_readings, pool_readings
from rules.core.records import Roll


def test_plain_dice_read_as_pips_and_battle_dice_as_symbols_or_flags():
    assert plain_readings((3, 5)) == (Reading.COUNTED, Reading.COUNTED)
    assert plain_readings((Symbol.INFANTRY, Symbol.FLAG, Symbol.SABER)) == (
        Reading.SYMBOL, Reading.FLAG, Reading.SYMBOL)


def test_a_roll_is_given_how_each_die_was_read():
    with pytest.raises(TypeError, match="readings"):
        Roll("Morale", "2d6", (3, 5))  # type: ignore[call-arg]
    roll = Roll("Morale", "2d6", (3, 5), readings=plain_readings((3, 5)))
    assert roll.readings == (Reading.COUNTED, Reading.COUNTED)


def test_a_pool_reads_each_die_against_its_number_after_the_bonus():
    assert pool_readings((3, 4, 6, 1), 5, bonus=1) == (
        Reading.MISS, Reading.HIT, Reading.HIT, Reading.MISS)
    assert pool_readings((), 4) == ()


def test_one_reading_per_die():
    with pytest.raises(ValueError, match="2 dice but 1 readings"):
        Roll("Fire", "2d6", (3, 4), readings=(Reading.HIT,))


def test_readings_are_in_the_json_record():
    roll = Roll("Recall", "2d6", (6, 2), readings=(Reading.COUNTED, Reading.DROPPED))
    from rules.core.records import _roll_dict

    assert _roll_dict(roll)["readings"] == ["counted", "dropped"]


def test_a_d66_reads_tens_then_units_and_dropped_dice_count_nothing():
    assert Roll("Morale", "d66", (4, 3), readings=plain_readings((4, 3))).natural == 43
    assert Roll("Morale", "2d6", (4, 3), readings=plain_readings((4, 3))).natural == 7
    kept = Roll("Best of two", "2d6", (6, 2), readings=(Reading.COUNTED, Reading.DROPPED))
    assert kept.natural == 6
