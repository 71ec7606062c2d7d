"""Phase 1: artillery fire, one die per crew figure, its modifiers and the unit 12" behind."""

from __future__ import annotations

import pytest

from rules.core.errors import InvalidInput, NotAllowed
from rules.le_baton.effects import EffectKind as E
from rules.le_baton.fire import (
    ARTILLERY_TO_HIT,
    ArtilleryTarget,
    Range,
    Target,
    resolve_artillery_fire,
)

from .helpers import effects, foot, guns, run

# "Column/Square/Enfiladed Line 4+ / Line 5+ / Skirmisher/Fortification/ Artillery 6"
ROWS = [
    (ArtilleryTarget.COLUMN, 4),
    (ArtilleryTarget.SQUARE, 4),
    (ArtilleryTarget.ENFILADED_LINE, 4),
    (ArtilleryTarget.LINE, 5),
    (ArtilleryTarget.SKIRMISHERS, 6),
    (ArtilleryTarget.FORTIFICATION, 6),
    (ArtilleryTarget.ARTILLERY, 6),
]


def fire(dice_text: str, kind=ArtilleryTarget.LINE, range_=Range.NORMAL, **battery):
    battery.setdefault("figures", len(dice_text.split()))
    return run(resolve_artillery_fire, guns(**battery), [Target("Ligne", kind)], range_,
               dice_text=dice_text)


def scored(result) -> int:
    return result.steps[0].rolls[0].hits


def test_the_table_has_exactly_the_printed_rows():
    assert dict(ROWS) == ARTILLERY_TO_HIT


@pytest.mark.parametrize(("kind", "needed"), ROWS, ids=[r[0].value for r in ROWS])
def test_each_row_hits_at_its_number_and_not_one_below(kind, needed):
    result = fire(f"{needed - 1} {needed}", kind)
    assert scored(result) == 1
    assert result.steps[0].rolls[0].target == f"{needed}+ ({kind.value.replace('-', ' ')})"
    assert effects(result) == [(E.CASUALTIES, "Ligne", 1)]


def test_one_die_per_crew_figure():
    result = fire("5 5 5 1 1", figures=5)
    assert result.steps[0].rolls[0].kind == "5d6"
    assert result.steps[0].outcome.startswith("5 crew figures roll 5 dice.")
    assert result.headline == "Battery fires: Ligne 3 hits"


def test_no_arc_of_fire_is_said():
    assert "the guns fire directly ahead" in fire("1").steps[0].outcome


def test_close_range_adds_one_to_each_die():
    result = fire("4 3", range_=Range.CLOSE)
    assert scored(result) == 1
    assert [(m.value, m.reason) for m in result.steps[0].rolls[0].modifiers] == [
        (1, "close range")]


def test_long_range_takes_one_from_each_die():
    result = fire("5 6", range_=Range.LONG)
    assert scored(result) == 1
    assert [(m.value, m.reason) for m in result.steps[0].rolls[0].modifiers] == [
        (-1, "long range")]


def test_normal_range_has_no_modifier():
    result = fire("4 5")
    assert scored(result) == 1
    assert result.steps[0].rolls[0].modifiers == ()


@pytest.mark.parametrize(("pounds", "modifier", "hits_on_4_and_5"), [
    (24, [(1, "12 lbs or heavier")], 2),
    (12, [(1, "12 lbs or heavier")], 2),
    (9, [], 1),
    (8, [], 1),
    (6, [(-1, "6 lbs or lighter")], 0),
    (3, [(-1, "6 lbs or lighter")], 0),
])
def test_weight_of_shot(pounds, modifier, hits_on_4_and_5):
    result = fire("4 5", guns=pounds)
    assert [(m.value, m.reason) for m in result.steps[0].rolls[0].modifiers] == modifier
    assert scored(result) == hits_on_4_and_5


def test_range_and_weight_add_up():
    # close +1 and 12 lbs +1: a 2 reaches a column's 4.
    result = fire("2 1", ArtilleryTarget.COLUMN, Range.CLOSE, guns=12)
    assert scored(result) == 1
    # long −1 and 6 lbs −1: even a 6 cannot reach a skirmisher's 6.
    assert scored(fire("6 6", ArtilleryTarget.SKIRMISHERS, Range.LONG, guns=6)) == 0


def test_the_same_dice_hit_a_unit_12_inches_behind_on_level_ground():
    battery = guns(figures=3)
    targets = [Target("Ligne", ArtilleryTarget.COLUMN), Target("Garde", ArtilleryTarget.LINE)]
    result = run(resolve_artillery_fire, battery, targets, Range.NORMAL, dice_text="4 5 6",
                 level_ground=True)
    assert [r.hits for r in result.steps[0].rolls] == [3, 2]
    assert effects(result) == [(E.CASUALTIES, "Ligne", 3), (E.CASUALTIES, "Garde", 2)]
    assert result.headline == "Battery fires: Ligne 3 hits, Garde 2 hits"
    assert "the same dice hit Garde, 12\" behind" in result.steps[0].outcome


def test_the_unit_behind_is_hit_only_if_level_ground_is_confirmed():
    targets = [Target("Ligne", ArtilleryTarget.COLUMN), Target("Garde", ArtilleryTarget.LINE)]
    with pytest.raises(NotAllowed, match="Garde is hit only if all units, the guns included, "
                                         "are on level ground and in range. Say so with "
                                         "`level_ground`, or give one target."):
        run(resolve_artillery_fire, guns(), targets, Range.NORMAL, dice_text="")


def test_one_or_two_targets_only():
    three = [Target(n, ArtilleryTarget.LINE) for n in ("A", "B", "C")]
    with pytest.raises(InvalidInput, match="give one or two targets"):
        run(resolve_artillery_fire, guns(), three, Range.NORMAL, dice_text="",
            level_ground=True)
    with pytest.raises(InvalidInput, match="give one or two targets"):
        run(resolve_artillery_fire, guns(), [], Range.NORMAL, dice_text="")


def test_only_artillery_fires_in_phase_1():
    with pytest.raises(NotAllowed, match="2nd Foot is not artillery: phase 1 fire is for guns"):
        run(resolve_artillery_fire, foot(), [Target("Ligne", ArtilleryTarget.LINE)],
            Range.NORMAL, dice_text="")


def test_casualties_lead_to_the_phase_2_check():
    assert fire("1").notes == ("Units that took artillery casualties check morale in phase 2.",)
