"""Published Premier-rules values the revised text relies on, with where each was found.

All from ../shared/reference/labataille.md. The revised Assault et Mêlée chart and the
revised modifier charts are NOT public: they come from a chart pack (rules.labataille.charts)
or from the players, never from here.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from rules.labataille.units import REFERENCE

# --- the fire chart (A.5): for each odds column, the d66 value from which each number of
# casualties (increments) is inflicted --------------------------------------------------------
FIRE_SOURCE = f"{REFERENCE} A.5 (Premier fire chart)"
FIRE_CHART: tuple[tuple[str, Fraction, tuple[tuple[int, int], ...]], ...] = (
    ("1:3", Fraction(1, 3), ((65, 1),)),
    ("1:2.5", Fraction(2, 5), ((64, 1),)),
    ("1:2", Fraction(1, 2), ((62, 1),)),
    ("1:1.5", Fraction(2, 3), ((55, 1),)),
    ("1:1", Fraction(1), ((52, 1),)),
    ("1.5:1", Fraction(3, 2), ((42, 1),)),
    ("2:1", Fraction(2), ((33, 1),)),
    ("2.5:1", Fraction(5, 2), ((26, 1),)),
    ("3:1", Fraction(3), ((22, 1),)),
    ("4:1", Fraction(4), ((13, 1), (54, 2))),
    ("5:1", Fraction(5), ((11, 1), (45, 2))),
    ("6:1", Fraction(6), ((11, 1), (33, 2), (62, 3))),
    ("7:1", Fraction(7), ((11, 1), (23, 2), (52, 3))),
    ("8:1", Fraction(8), ((11, 1), (15, 2), (45, 3), (66, 4))),
    ("9:1", Fraction(9), ((11, 2), (42, 3), (63, 4))),
    ("10:1", Fraction(10), ((11, 2), (26, 3), (55, 4), (65, 5))),
)


def fire_casualties(column: int, roll: int) -> int:
    """Casualties of a (modified) d66 ``roll`` on fire column ``column``."""
    lost = 0
    for start, casualties in FIRE_CHART[column][2]:
        if roll >= start:
            lost = casualties
    return lost


# --- the mêlée odds columns of the Premier chart (A.4): the columns a revised chart is read
# by when no chart pack names its own ------------------------------------------------------------
PREMIER_COLUMNS_SOURCE = f"{REFERENCE} A.4 (Premier Assault à Mêlée columns)"
PREMIER_COLUMNS: tuple[str, ...] = ("1:2", "1:1", "1.5:1", "2:1", "2.5:1", "3:1", "3.5:1",
                                    "4:1", "4.5:1", "5:1")

# --- morale (A.2): standing modifiers ----------------------------------------------------------
MORALE_SOURCE = f"{REFERENCE} A.2"
DISORDERED_INFANTRY = -3
ROUTED = -6

# --- leaders (A.6): a leader's value is a dice modifier for morale and mêlée ----------------
LEADER_SOURCE = f"{REFERENCE} A.6"


@cache  # read for every column at every odds: a few dozen strings in all
def ratio_value(column: str) -> Fraction:
    """``1.5:1`` → 3/2; ``1:2`` → 1/2."""
    left, _, right = column.partition(":")
    return Fraction(left) / Fraction(right)


# --- cavalry recall (A.8): 1d6, +1 for a cavalry leader, recalled on the threshold or more ----
# The thresholds are each game's (Prussian 4 at Auerstaedt and Ligny, 2 at Eylau and Leipzig;
# French 2 at Talavera, 3 at Auerstaedt, 4 at Lützen): only Talavera's are shipped, by name.
# A chart pack's `recall` table carries another game's.
RECALL_SOURCE = f"{REFERENCE} A.8: Talavera's threshold (lb.react talavera.json)"
RECALL_THRESHOLDS: dict[str, int] = {"french": 2, "british": 5, "spanish": 3}
RECALL_LEADER = 1
