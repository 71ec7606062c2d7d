"""The movement tables of phases 3 and 8, and phase 1's moves of the guns, for the rules
reference (the bot keeps no map)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Rate:
    what: str
    inches: int


# Phase 3, "French Move": the French sheet's rates.
FRENCH_MOVES: tuple[Rate, ...] = (
    Rate("infantry column / skirmishers", 8),
    Rate("infantry line / square", 4),
    Rate("cuirassiers / carabiniers / dragoons", 10),
    Rate("light cavalry", 14),
    Rate("limbered artillery (one move to limber or unlimber)", 10),
)

# Phase 8, "British Move".
BRITISH_MOVES: tuple[Rate, ...] = (
    Rate("infantry column / skirmishers", 8),
    Rate("infantry line", 4),
    Rate("infantry square", 0),
    Rate("heavy dragoons", 10),
    Rate("hussars / light dragoons", 14),
    Rate("limbered artillery (one move to limber or unlimber)", 10),
)

MOVEMENT_RULES: tuple[str, ...] = (
    "Phase 1: horse artillery may unlimber; unlimbered artillery under 12 lbs may turn and "
    "move 1\" to face its target.",
    "45 degree limit on wheeling.",
    "Half movement in difficult terrain, outside command range, or moving backwards.",
    "Full move to change formation.",
    "Double move if staying over 24\" from the enemy, except on the first turn.",
    "Opposing lines of infantry within 4\" of each other are locked in a firefight and cannot "
    "move, charge or change formation.",
    "Units continuing a previous melee cannot shoot.",
    "Cavalry and artillery must stay out of woods.",
    "Infantry may charge through friendly artillery; cavalry may charge through friendly "
    "artillery but not friendly cavalry or infantry.",
)


def movement_lines() -> list[str]:
    french = ", ".join(f"{r.what} {r.inches}\"" for r in FRENCH_MOVES)
    british = ", ".join(f"{r.what} {r.inches}\"" for r in BRITISH_MOVES)
    return [f"Phase 3 (French): {french}.", f"Phase 8 (British): {british}.",
            *MOVEMENT_RULES]
