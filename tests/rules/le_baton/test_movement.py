"""The movement tables of phases 3 and 8, kept for the rules reference."""

from __future__ import annotations

from rules.le_baton.movement import BRITISH_MOVES, FRENCH_MOVES, MOVEMENT_RULES, movement_lines


def rates(moves) -> dict[str, int]:
    return {rate.what: rate.inches for rate in moves}


def test_phase_3_french_rates():
    assert rates(FRENCH_MOVES) == {
        "infantry column / skirmishers": 8,
        "infantry line / square": 4,
        "cuirassiers / carabiniers / dragoons": 10,
        "light cavalry": 14,
        "limbered artillery (one move to limber or unlimber)": 10,
    }


def test_phase_8_british_rates_with_squares_unable_to_move():
    assert rates(BRITISH_MOVES) == {
        "infantry column / skirmishers": 8,
        "infantry line": 4,
        "infantry square": 0,
        "heavy dragoons": 10,
        "hussars / light dragoons": 14,
        "limbered artillery (one move to limber or unlimber)": 10,
    }


def test_the_reference_lists_both_tables_and_every_movement_rule():
    lines = movement_lines()
    assert lines[0].startswith("Phase 3 (French): infantry column / skirmishers 8\"")
    assert lines[1].startswith("Phase 8 (British): infantry column / skirmishers 8\"")
    assert lines[2:] == list(MOVEMENT_RULES)
    # The sheet's sentences of phases 1, 3 and 8, each said.
    assert MOVEMENT_RULES == (
        "Phase 1: horse artillery may unlimber; unlimbered artillery under 12 lbs may turn "
        "and move 1\" to face its target.",
        "45 degree limit on wheeling.",
        "Half movement in difficult terrain, outside command range, or moving backwards.",
        "Full move to change formation.",
        "Double move if staying over 24\" from the enemy, except on the first turn.",
        "Opposing lines of infantry within 4\" of each other are locked in a firefight and "
        "cannot move, charge or change formation.",
        "Units continuing a previous melee cannot shoot.",
        "Cavalry and artillery must stay out of woods.",
        "Infantry may charge through friendly artillery; cavalry may charge through friendly "
        "artillery but not friendly cavalry or infantry.")
