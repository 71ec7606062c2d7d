"""Phases 6 and 11, "Determine # of dice", and the phase 3/8 fire dice, for 1 to 12 figures."""

from __future__ import annotations

import pytest

from rules.le_baton.dice_counts import fire_dice, melee_dice
from rules.le_baton.units import Formation, Horse, Nation, Quality

from .helpers import dragoons, foot, guns, horse, ligne

FIGURES = range(1, 13)

# The sheet's table, as printed: quality -> (first column, second column).
TABLE = {
    Quality.ELITE: ("1 die per figure", "2 dice per 3 figures"),
    Quality.VETERAN: ("2 dice per 3 figures", "1 die per 2 figures"),
    Quality.CONSCRIPT: ("1 die per 2 figures", "1 die per 3 figures"),
}


def dice_from_text(rate: str, figures: int) -> int:
    """Read a rate from the sheet's words: whole groups only, except that "2 dice per 3
    figures" still allows one die if there are two extra figures available."""
    words = rate.split()
    dice, per = int(words[0]), 1 if words[-1] == "figure" else int(words[-2])
    groups, extra = divmod(figures, per)
    bonus = 1 if rate == "2 dice per 3 figures" and extra == 2 else 0
    return groups * dice + bonus


# First column: "French Infantry Column and all British infantry".
CLOSE = {
    "French infantry column": lambda q, n: ligne(quality=q, figures=n),
    "British infantry line": lambda q, n: foot(quality=q, figures=n),
    "British infantry column": lambda q, n: foot(quality=q, figures=n,
                                                 formation=Formation.COLUMN),
    "British infantry square": lambda q, n: foot(quality=q, figures=n,
                                                 formation=Formation.SQUARE),
    "British skirmishers": lambda q, n: foot(quality=q, figures=n,
                                             formation=Formation.SKIRMISH),
}
# Second column: "French Infantry Line/Square and all Cavalry".
OPEN = {
    "French infantry line": lambda q, n: ligne(quality=q, figures=n, formation=Formation.LINE),
    "French infantry square": lambda q, n: ligne(quality=q, figures=n,
                                                 formation=Formation.SQUARE),
    "French cavalry": lambda q, n: horse(quality=q, figures=n, horse=Horse.CUIRASSIERS),
    "British cavalry": lambda q, n: dragoons(quality=q, figures=n),
}
CASES = [(name, build, 0) for name, build in CLOSE.items()] + \
        [(name, build, 1) for name, build in OPEN.items()]


@pytest.mark.parametrize("figures", FIGURES)
@pytest.mark.parametrize("quality", list(Quality))
@pytest.mark.parametrize(("who", "build", "column"), CASES, ids=[c[0] for c in CASES])
def test_melee_dice_follow_the_table(who, build, column, quality, figures):
    count, entry = melee_dice(build(quality, figures))
    rate = TABLE[quality][column]
    assert count == dice_from_text(rate, figures)
    assert entry.endswith(rate)


def test_two_dice_per_three_figures_gives_a_die_for_two_extra_figures():
    counts = [melee_dice(foot(figures=n))[0] for n in FIGURES]
    assert counts == [0, 1, 2, 2, 3, 4, 4, 5, 6, 6, 7, 8]


@pytest.mark.parametrize(("rate_of", "expected"), [
    (lambda n: foot(quality=Quality.ELITE, figures=n), list(FIGURES)),
    (lambda n: foot(quality=Quality.CONSCRIPT, figures=n), [0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6]),
    (lambda n: horse(quality=Quality.CONSCRIPT, figures=n),
     [0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4]),
], ids=["1 per figure", "1 per 2", "1 per 3"])
def test_other_rates_never_round_up(rate_of, expected):
    assert [melee_dice(rate_of(n))[0] for n in FIGURES] == expected


@pytest.mark.parametrize(("unit", "entry"), [
    (ligne(figures=9), "veteran, French infantry column: 2 dice per 3 figures"),
    (foot(figures=9, quality=Quality.ELITE), "elite, all British infantry: 1 die per figure"),
    (ligne(figures=9, formation=Formation.SQUARE),
     "veteran, French infantry line/square: 1 die per 2 figures"),
    (horse(figures=9, quality=Quality.CONSCRIPT), "conscript, all cavalry: 1 die per 3 figures"),
])
def test_the_roll_names_the_table_entry_used(unit, entry):
    assert melee_dice(unit)[1] == entry


@pytest.mark.parametrize("figures", FIGURES)
@pytest.mark.parametrize("build", [
    lambda n: foot(figures=n),
    lambda n: ligne(figures=n, quality=Quality.ELITE),
    lambda n: guns(figures=n, nation=Nation.FRENCH),
], ids=["British infantry", "French elite infantry", "artillery too"])
def test_fire_is_one_die_per_two_figures_for_every_shooter(build, figures):
    assert fire_dice(build(figures)) == figures // 2
