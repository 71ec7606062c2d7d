"""Entering forest or buildings (reference §5): the unit must stop; infantry may battle at −1
die, cavalry and artillery may not battle on the turn they enter."""

from __future__ import annotations

import pytest

from rules.core.errors import NotAllowed
from rules.core.records import EffectKind

from .helpers import cavalry, effects, melee, regular, rolls, step, titles, unit


@pytest.mark.parametrize(("kind", "terrain"), [
    ("battle-cavalry", "forest"), ("light-cavalry", "buildings"),
    ("trained-artillery", "forest"), ("light-artillery", "buildings"),
])
def test_cavalry_or_artillery_that_entered_forest_or_buildings_this_turn_may_not_battle(
        kind, terrain):
    entered = unit("Hussars", kind, terrain=terrain, moved=True)
    with pytest.raises(NotAllowed) as refused:
        melee(entered, regular("Target"), "")
    assert refused.value.message == (
        f"Hussars entered {terrain} this turn: cavalry and artillery that enter forest or "
        "buildings must stop and may not battle (the Terrain rules).")
    assert "moved=false" in refused.value.hint


def test_infantry_that_entered_forest_battles_with_one_die_less_counted_once():
    result = melee(regular("Foot", terrain="forest", moved=True), regular("Target", blocks=3),
                   "cav cav  cav cav")
    assert rolls(result)[0].notes[0] == (
        "2 (regular) + 1 full strength − 1 moved into forest (ordered infantry) = 2 dice")


def test_cavalry_already_in_the_forest_and_the_unit_sitting_in_it_are_not_refused():
    # It did not enter this turn: it battles out of the forest at −2.
    stayed = melee(cavalry("Dragoons", terrain="forest"), regular("Target", blocks=3),
                   "cav  art art")
    assert rolls(stayed)[0].notes[0] == (
        "2 (battle cavalry) + 1 full strength − 2 battling out of forest = 1 die")
    # The defender sitting in the wood did not enter it: the attacker did not either.
    into = melee(cavalry("Dragoons", moved=True),
                 cavalry("Hussars", terrain="forest", moved=True), "inf  art", "stand")
    assert rolls(into)[0].notes[0] == (
        "2 (battle cavalry) + 1 full strength − 2 attacking into forest = 1 die")
    assert titles(into)[-1] == "Hussars battles back against Dragoons"


def test_cavalry_that_takes_ground_into_the_forest_has_stopped_no_bonus_melee():
    wood = regular("Target", blocks=1, terrain="forest")
    result = melee(cavalry("Dragoons"), wood, "inf", "advance",
                   bonus=(regular("Second"),))
    moved = [e for e in result.effects if e.kind == EffectKind.MOVED]
    assert [(e.unit, e.detail, e.direction) for e in moved] == [
        ("Dragoons", "forest", "(forest)")]
    assert step(result, "Bonus melee").outcome == (
        "Dragoons took ground into forest: cavalry that enters forest or buildings must stop "
        "and may not battle, so it makes no bonus melee (the Terrain rules).")
    assert effects(result)[-1] == ("moved", "Dragoons", 1)


def test_infantry_taking_ground_into_buildings_makes_its_bonus_melee_from_there():
    town = regular("Target", blocks=1, terrain="buildings")
    result = melee(regular("Foot", leader="Wolfe"), town, "inf inf inf inf  inf art art",
                   "advance; Second; stay", bonus=(regular("Second", blocks=1),))
    assert rolls(result)[1].notes[0] == (
        "2 (regular) + 1 full strength + 1 leader attached − 1 moved into buildings "
        "(ordered infantry) = 3 dice")


@pytest.mark.parametrize("typed", ["woods", "wood", "building"])
def test_the_words_players_say_for_forest_and_buildings_read_as_them(typed):
    from rules.tricorne.inputs import UNIT
    from rules.tricorne.units import Terrain

    _, values = UNIT.read_text(f"highland {typed}", "defender: Camerons")
    meant = Terrain.FOREST if typed.startswith("wood") else Terrain.BUILDINGS
    assert values["terrain"] is meant


def test_cavalry_left_without_dice_to_battle_back_into_a_forest_says_why():
    # The headline is the public reply's only word on a battle back with no dice: it says
    # what took them, not only that there are none.
    result = melee(unit("Atholl", "highland", terrain="forest"), cavalry("Cobham's", blocks=3),
                   "inf inf art art", "stand")
    assert step(result, "Cobham's battles back against Atholl").outcome == (
        "2 (battle cavalry) − 2 attacking into forest = 0 dice: no dice, no hits.")
    assert result.headline == ("Atholl scores no hit on Cobham's; Cobham's has no melee dice "
                               "(−2 attacking into forest)")
