"""Offensive and defensive fire (step 4) on the published Premier fire chart (reference A.5).

A stack's fire value (doubled when it passed its morale check) against its target's
fire-defence value gives the odds, rounded down to a column in the target's favour; defending
artillery firing canister shifts two columns right (the text's step 3 note: reference A.5's
apps shift one, and the text wins). The d66 roll reads the casualties in increments.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import cache

from rules.core.dice import D66, DiceSource, d66_value, plain_readings
from rules.core.records import Roll
from rules.labataille.published import FIRE_CHART, FIRE_SOURCE, fire_casualties
from rules.labataille.units import TEXT, Stack

CANISTER_SHIFT = 2
# Where the two columns come from: the NOTE of the assault's step 3b (the Old Guard Charge's
# is the same words); a charge's mêlée has its own, in its step 3.
ASSAULT_CANISTER = f"{TEXT} step 3b NOTE"
SETTING = "fire_below_chart"


class FireBelowChart(StrEnum):
    """Fire at odds below the chart's lowest column (1:3), which neither the text nor the
    Premier chart rules on (a battle setting, docs/labataille.md): the public La Bataille
    apps read the lowest column (the default); ``none`` reads no effect."""

    LOWEST = "lowest"
    NONE = "none"


BELOW_SAID = {
    FireBelowChart.LOWEST: f"odds below the chart: read on its lowest column, "
                           f"{FIRE_CHART[0][0]} (battle setting `{SETTING}`: lowest, as the "
                           "public La Bataille apps read it)",
    FireBelowChart.NONE: f"odds below the chart, no effect (battle setting `{SETTING}`: none)",
}


@dataclass(frozen=True)
class Shot:
    stack: Stack
    target: Stack
    casualties: int
    roll: Roll | None  # None: the odds were below the chart


@cache  # a shot compares its ratio with every column, as Fractions
def fire_column(strength: int, defence: int, shift: int = 0) -> int | None:
    ratio = Fraction(strength, defence)
    columns = [i for i, (_, value, _) in enumerate(FIRE_CHART) if value <= ratio]
    if not columns:
        return None
    return min(columns[-1] + shift, len(FIRE_CHART) - 1)


def fire(stack: Stack, target: Stack, doubled: bool, dice: DiceSource, *,
         canister: bool = False, canister_source: str = ASSAULT_CANISTER,
         below: FireBelowChart = FireBelowChart.LOWEST) -> Shot:
    assert stack.fire is not None and target.defence is not None
    strength = stack.fire * (2 if doubled else 1)
    shift = CANISTER_SHIFT if canister else 0
    column = fire_column(strength, target.defence, shift)
    # Canister is said on the roll line: the column is not the odds' own.
    odds = f"{strength}:{target.defence}" + (", canister" if canister else "")
    words = [f"fire {stack.fire}" + (" × 2 (passed its morale check)" if doubled else "")
             + f" against defence {target.defence}"]
    if column is None:
        if below is FireBelowChart.NONE:
            return Shot(stack, target, 0, None)
        words.append(BELOW_SAID[below])
        column = min(shift, len(FIRE_CHART) - 1)
    if canister:
        words.append(f"canister: {CANISTER_SHIFT} columns right ({canister_source})")
    faces = dice.roll(D66(), f"{stack.name} fire")
    casualties = fire_casualties(column, d66_value(faces))  # type: ignore[arg-type]
    roll = Roll(f"{stack.name} fire", "d66", faces, total=d66_value(faces),  # type: ignore[arg-type]
                target=f"{FIRE_CHART[column][0]} ({odds})",
                result=f"{casualties} casualt{'y' if casualties == 1 else 'ies'}",
                notes=(*words, FIRE_SOURCE), readings=plain_readings(faces))
    return Shot(stack, target, casualties, roll)
