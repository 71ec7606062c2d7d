"""The Premier values the engine ships, checked cell by cell against reference/labataille.md
as it prints them (transcribed here a second time, so a slip in either copy fails)."""

from __future__ import annotations

import pytest

from rules.labataille.published import FIRE_CHART, RECALL_THRESHOLDS, fire_casualties

D66_VALUES = [tens * 10 + units for tens in range(1, 7) for units in range(1, 7)]
# A.5, the main values ("[ ]" variants of another app left out), d66 range: increments lost.
A5 = {
    "1:3": "65–66: 1",
    "1:2.5": "64–66: 1",
    "1:2": "62–66: 1",
    "1:1.5": "55–66: 1",
    "1:1": "52–66: 1",
    "1.5:1": "42–66: 1",
    "2:1": "33–66: 1",
    "2.5:1": "26–66: 1",
    "3:1": "22–66: 1",
    "4:1": "13–53: 1; 54–66: 2",
    "5:1": "11–44: 1; 45–66: 2",
    "6:1": "11–32: 1; 33–61: 2; 62–66: 3",
    "7:1": "11–22: 1; 23–51: 2; 52–66: 3",
    "8:1": "11–14: 1; 15–44: 2; 45–65: 3; 66: 4",
    "9:1": "11–41: 2; 42–62: 3; 63–66: 4",
    "10:1": "11–25: 2; 26–54: 3; 55–64: 4; 65–66: 5",
}


def printed(cell: str, roll: int) -> int:
    for part in cell.split("; "):
        span, _, lost = part.partition(": ")
        low, _, high = span.partition("–")
        if int(low) <= roll <= int(high or low):
            return int(lost)
    return 0


def test_the_fire_chart_has_the_references_columns_in_order():
    assert [label for label, _, _ in FIRE_CHART] == list(A5)


@pytest.mark.parametrize("column", range(len(A5)))
def test_every_cell_of_the_fire_chart_is_the_references(column):
    label = FIRE_CHART[column][0]
    assert [fire_casualties(column, roll) for roll in D66_VALUES] == \
        [printed(A5[label], roll) for roll in D66_VALUES], label


def test_recall_thresholds_are_talaveras():
    # A.8: "Thresholds: French 2+, British 5+, Spanish 3+ (Talavera)".
    assert RECALL_THRESHOLDS == {"french": 2, "british": 5, "spanish": 3}
