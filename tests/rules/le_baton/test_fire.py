"""Phases 3 and 8: infantry and artillery shoot, 4" range, one die per two figures."""

from __future__ import annotations

import pytest

from rules.core.errors import InvalidInput, NotAllowed
from rules.core.records import Severity
from rules.le_baton.effects import EffectKind as E
from rules.le_baton.fire import FIRE_TO_HIT, FireTarget, Target, resolve_fire
from rules.le_baton.units import Formation, Nation

from .helpers import dragoons, effects, foot, guns, horse, ligne, run

# "Column/Square/Enfiladed Line 4+ / Line/Artillery 5+ /
#  Skirmishers/Defensive Terrain/Charging Cavalry 6+"
ROWS = [
    (FireTarget.COLUMN, 4),
    (FireTarget.SQUARE, 4),
    (FireTarget.ENFILADED_LINE, 4),
    (FireTarget.LINE, 5),
    (FireTarget.ARTILLERY, 5),
    (FireTarget.SKIRMISHERS, 6),
    (FireTarget.DEFENSIVE_TERRAIN, 6),
    (FireTarget.CHARGING_CAVALRY, 6),
]


def test_the_table_has_exactly_the_printed_rows():
    assert dict(ROWS) == FIRE_TO_HIT


@pytest.mark.parametrize(("kind", "needed"), ROWS, ids=[r[0].value for r in ROWS])
def test_each_row_hits_at_its_number_and_not_one_below(kind, needed):
    # 4 figures: 2 dice, one just short and one just enough.
    result = run(resolve_fire, foot(figures=4), Target("Ligne", kind),
                 dice_text=f"{needed - 1} {needed}")
    roll = result.steps[0].rolls[0]
    assert (roll.hits, roll.target) == (1, f"{needed}+ ({kind.value.replace('-', ' ')})")
    assert [e for e in effects(result) if e[0] is E.CASUALTIES] == [(E.CASUALTIES, "Ligne", 1)]
    assert result.headline == "2nd Foot fires: Ligne 1 hit"


def test_every_die_that_reaches_the_number_is_a_casualty():
    result = run(resolve_fire, foot(figures=8), Target("Ligne", FireTarget.COLUMN),
                 dice_text="4 5 6 1")
    assert effects(result) == [(E.CASUALTIES, "Ligne", 3)]
    assert result.headline == "2nd Foot fires: Ligne 3 hits"
    assert result.severity is Severity.MINOR


def test_no_hits_no_effect():
    result = run(resolve_fire, foot(figures=4), Target("Ligne", FireTarget.ARTILLERY),
                 dice_text="4 4")
    assert effects(result) == []
    assert result.headline == "2nd Foot fires: Ligne 0 hits"
    assert result.severity is Severity.NONE


@pytest.mark.parametrize(("figures", "dice_text", "said"), [
    (5, "1 1", "5 figures roll 2 dice"), (6, "1 1 1", "6 figures roll 3 dice"),
    (7, "1 1 1", "7 figures roll 3 dice"), (1, "", "1 figure rolls 0 dice"),
    (3, "1", "3 figures roll 1 die"),
])
def test_one_die_per_two_figures_rounding_down(figures, dice_text, said):
    result = run(resolve_fire, foot(figures=figures), Target("Ligne", FireTarget.LINE),
                 dice_text=dice_text)
    assert result.steps[0].outcome == f"{said} (one per two figures)."


def test_artillery_shoot_in_these_phases_one_die_per_two_figures_too():
    result = run(resolve_fire, guns(figures=4), Target("Ligne", FireTarget.COLUMN),
                 dice_text="4 3")
    assert effects(result) == [(E.CASUALTIES, "Ligne", 1)]


def test_british_shoot_in_phase_3_and_the_french_test_in_phase_4():
    result = run(resolve_fire, foot(), Target("Ligne", FireTarget.COLUMN),
                 dice_text="1 1 1 1 1 1")
    assert result.steps[0].title == "Phase 3: British fire"
    assert result.notes == ("Units that took casualties check morale in phase 4.",)


def test_french_shoot_in_phase_8_and_the_british_test_in_phase_9():
    result = run(resolve_fire, ligne(figures=4), Target("2nd Foot", FireTarget.LINE),
                 dice_text="5 6")
    assert result.steps[0].title == "Phase 8: French fire"
    assert result.notes == ("Units that took casualties check morale in phase 9.",)
    assert effects(result) == [(E.CASUALTIES, "2nd Foot", 2)]


def test_range_is_4_inches():
    result = run(resolve_fire, foot(figures=2), Target("Ligne", FireTarget.COLUMN),
                 dice_text="4", distance=4)
    assert effects(result) == [(E.CASUALTIES, "Ligne", 1)]
    with pytest.raises(NotAllowed, match='Ligne is 4.5" from 2nd Foot: the range is 4"'):
        run(resolve_fire, foot(), Target("Ligne", FireTarget.COLUMN), dice_text="",
            distance=4.5)
    # Just past the range, the distance is said as given, not rounded back to 4".
    with pytest.raises(NotAllowed) as refused:
        run(resolve_fire, foot(), Target("Ligne", FireTarget.COLUMN), dice_text="",
            distance=4.0000001)
    assert str(refused.value) == 'Ligne is 4.0000001" from 2nd Foot: the range is 4".'


@pytest.mark.parametrize(("shooter", "phase"), [(horse(), 8), (dragoons(), 3)])
def test_cavalry_do_not_shoot(shooter, phase):
    with pytest.raises(NotAllowed, match=f"{shooter.name} is cavalry: only infantry and "
                                         f"artillery shoot in phase {phase}"):
        run(resolve_fire, shooter, Target("X", FireTarget.LINE), dice_text="")


@pytest.mark.parametrize("shooter", [foot(in_melee=True), guns(in_melee=True)])
def test_units_continuing_a_previous_melee_cannot_shoot(shooter):
    with pytest.raises(NotAllowed, match=f"{shooter.name} is continuing a previous melee "
                                         "and cannot shoot"):
        run(resolve_fire, shooter, Target("Ligne", FireTarget.LINE), dice_text="")


def test_a_shooter_needs_its_figures():
    with pytest.raises(InvalidInput, match="2nd Foot needs its number of figures. "
                                           "Give it as `figures=N`, 1 or more: a unit of "
                                           "none rolls no dice"):
        run(resolve_fire, foot(figures=0), Target("Ligne", FireTarget.LINE), dice_text="")


def test_french_artillery_fire_in_phase_8():
    result = run(resolve_fire, guns("Foot Artillery", Nation.FRENCH, figures=2),
                 Target("2nd Foot", FireTarget.SQUARE), dice_text="4")
    assert result.steps[0].title == "Phase 8: French fire"
    assert effects(result) == [(E.CASUALTIES, "2nd Foot", 1)]


def test_opposing_lines_of_infantry_are_locked_in_a_firefight():
    """The sheet: opposing lines of infantry within 4 inches of each other are locked in a
    firefight and cannot move, charge or change formation."""
    result = run(resolve_fire, foot(figures=4, formation=Formation.LINE),
                 Target("Ligne", FireTarget.LINE), dice_text="1 1")
    assert effects(result) == [(E.FIREFIGHT, "2nd Foot", None), (E.FIREFIGHT, "Ligne", None)]
    assert any("cannot move, charge or change formation" in n for n in result.notes)


def test_a_column_shooting_at_a_line_is_not_locked():
    result = run(resolve_fire, foot(figures=4, formation=Formation.COLUMN),
                 Target("Ligne", FireTarget.LINE), dice_text="1 1")
    assert effects(result) == []


def test_a_volley_marks_its_shooter_as_having_shot():
    result = run(resolve_fire, foot(figures=4), Target("Ligne", FireTarget.COLUMN),
                 dice_text="1 1")
    assert [(e.kind, e.unit) for e in result.effects if e.kind == E.FIRED] == [
        (E.FIRED, "2nd Foot")]
    with pytest.raises(NotAllowed, match="2nd Foot has shot this turn"):
        run(resolve_fire, foot(figures=4, fired=True), Target("Ligne", FireTarget.COLUMN),
            dice_text="1 1")


def test_a_target_of_known_figures_loses_no_more_than_it_has_and_is_destroyed():
    result = run(resolve_fire, foot(figures=8), Target("Ligne", FireTarget.COLUMN, figures=2),
                 dice_text="6 6 6 6")
    assert effects(result) == [(E.CASUALTIES, "Ligne", 2), (E.DESTROYED, "Ligne", None)]
    assert result.headline == "2nd Foot fires: Ligne 4 hits, destroyed"
    assert result.severity is Severity.DECISIVE
    # Figures not known (a quick lookup): every hit is a casualty.
    unknown = run(resolve_fire, foot(figures=8), Target("Ligne", FireTarget.COLUMN),
                  dice_text="6 6 6 6")
    assert effects(unknown) == [(E.CASUALTIES, "Ligne", 4)]


def test_a_destroyed_target_is_locked_in_no_firefight_and_sent_to_no_test():
    result = run(resolve_fire, foot(figures=8, formation=Formation.LINE),
                 Target("Ligne", FireTarget.LINE, figures=2), dice_text="6 6 6 6")
    assert E.FIREFIGHT not in [e.kind for e in result.effects]
    assert not any("check morale" in note for note in result.notes)
