"""What the sheet needs before a procedure runs: figures where dice are counted from them,
and only the formations, cavalry types and guns each arm has."""

from __future__ import annotations

import pytest

from rules.core.errors import InvalidInput
from rules.le_baton.battle import check_unit, read_roster_attributes
from rules.le_baton.charge import ChargeSituation, resolve_charge
from rules.le_baton.effects import EffectKind as E
from rules.le_baton.inputs import read_unit_text
from rules.le_baton.melee import Side, resolve_melee
from rules.le_baton.units import Arm, Formation, Horse, Nation, Unit
from rules.registry import resolve

from .helpers import dragoons, effects, foot, guns, horse, ligne, run

FIGURES_HINT = ("Give it as `figures=N`, 1 or more: a unit of none rolls no dice (in a battle, "
                "the unit's strength: `/unit edit strength:N`).")


def refused(call, *args, **kw) -> str:
    with pytest.raises(InvalidInput) as info:
        call(*args, **kw)
    return str(info.value)


# --- figures ---------------------------------------------------------------------------------


@pytest.mark.parametrize("which", ["attacker", "defender"])
def test_a_melee_of_dice_needs_both_sides_figures(which):
    a = ligne(figures=0) if which == "attacker" else ligne()
    b = foot(figures=0) if which == "defender" else foot()
    name = a.name if which == "attacker" else b.name
    assert refused(run, resolve_melee, Side(a), Side(b), 6, dice_text="") == (
        f"{name} needs its number of figures for its melee dice. {FIGURES_HINT}")


def test_the_json_melee_without_figures_is_refused_not_tied():
    request = {"ruleset": "le-baton", "procedure": "melee", "phase": 6,
               "attacker": {"name": "A", "nation": "french", "arm": "infantry",
                            "formation": "column"},
               "defender": {"name": "B", "nation": "british", "arm": "infantry",
                            "formation": "line"}}
    assert refused(resolve, request).startswith("A needs its number of figures")


def test_the_unit_supporting_artillery_needs_figures_to_fight_instead():
    support = foot("Buffs", figures=0)
    message = refused(run, resolve_melee, Side(guns(), supported_by=support), Side(ligne()), 6,
                      dice_text="")
    assert message.startswith("Buffs needs its number of figures for its melee dice.")


def test_match_ups_without_melee_dice_need_no_figures():
    ridden = run(resolve_melee, Side(horse(figures=0)), Side(foot(figures=0)), 6, dice_text="")
    assert ridden.headline == "Chasseurs rides down 2nd Foot"
    taken = run(resolve_melee, Side(ligne(figures=0)), Side(guns(figures=0)), 6, dice_text="")
    assert taken.headline == "45e Ligne overruns Battery"
    square = foot(figures=0, formation=Formation.SQUARE)
    passed = run(resolve_melee, Side(horse(figures=0)), Side(square), 6, dice_text="4")
    assert effects(passed)[0] == (E.CASUALTIES, "Chasseurs", 1)


def test_skirmishers_charged_need_figures_to_shoot():
    rifles = foot("Rifles", figures=0, formation=Formation.SKIRMISH)
    message = refused(run, resolve_charge, ligne(), rifles, ChargeSituation(), dice_text="")
    assert message == f"Rifles needs its number of figures to shoot at the chargers. {FIGURES_HINT}"


def test_a_square_charged_by_cavalry_fires_two_dice_whatever_its_figures():
    square = foot(figures=0, formation=Formation.SQUARE)
    result = run(resolve_charge, horse(), square, ChargeSituation(), dice_text="3 3 1 1 1")
    assert result.steps[2].rolls[0].kind == "2d6"


# --- formations, cavalry types and guns belong to one arm -----------------------------------


@pytest.mark.parametrize("formation", list(Formation))
@pytest.mark.parametrize("arm", [Arm.CAVALRY, Arm.ARTILLERY])
def test_only_infantry_take_a_formation(arm, formation):
    message = refused(Unit, "Greys", Nation.BRITISH, arm, formation=formation)
    assert message == (f"Greys is {arm.value}: column, line, square and skirmish are infantry "
                       f"formations. Drop `{formation.value}`.")


def test_the_reported_cavalry_in_column_is_refused():
    assert refused(read_unit_text, "Greys: british cavalry heavy-dragoons veteran column",
                   "unit") == ("Greys is cavalry: column, line, square and skirmish are "
                               "infantry formations. Drop `column`.")


@pytest.mark.parametrize("arm", [Arm.INFANTRY, Arm.ARTILLERY])
def test_only_cavalry_have_a_cavalry_type(arm):
    assert refused(Unit, "A", Nation.FRENCH, arm, horse=Horse.LANCERS) == (
        f"A is {arm.value}: `lancers` is a kind of cavalry. Drop `lancers`, or make the unit "
        "cavalry.")


@pytest.mark.parametrize("arm", [Arm.INFANTRY, Arm.CAVALRY])
def test_only_artillery_have_guns(arm):
    assert refused(Unit, "A", Nation.FRENCH, arm, guns=6) == (
        f"A is {arm.value}: `guns=` is the weight of shot of artillery. Drop `guns=6`, or "
        "make the unit artillery.")


def test_what_each_arm_has_is_accepted():
    assert ligne(formation=Formation.SKIRMISH).formation is Formation.SKIRMISH
    assert dragoons().horse is Horse.HEAVY_DRAGOONS
    assert guns(guns=12).guns == 12


def test_roster_words_are_checked_on_add_and_after_an_edit():
    # `/unit add words:"british cav column"`: read, then checked as a whole unit.
    typed = read_roster_attributes("british cav column", "words", require_arm=True)
    assert refused(check_unit, "16th LD", typed, 8, "16th LD") == (
        "16th LD is cavalry: column, line, square and skirmish are infantry formations. "
        "Drop `column`.")
    # `/unit edit words:column` on cavalry: the words alone name no arm, the merge does.
    assert read_roster_attributes("column", "words", require_arm=False) == {
        "formation": "column"}
    # A new unit's formation says its arm.
    assert read_roster_attributes("british column", "words", require_arm=True) == {
        "nation": "british", "formation": "column", "arm": "infantry"}
    stored = {"nation": "british", "arm": "cavalry", "horse": "hussars"}
    assert refused(check_unit, "16th LD", {**stored, "formation": "column"}, 8,
                   "16th LD") == (
        "16th LD is cavalry: column, line, square and skirmish are infantry formations. "
        "Drop `column`.")
    assert check_unit("16th LD", stored, 8, "16th LD") == stored


@pytest.mark.parametrize(("text", "arm"), [("1er: french column", "infantry"),
                                           ("Hussars: french hussars", "cavalry"),
                                           ("Battery: british guns=9 figures=4", "artillery")])
def test_a_unit_left_without_its_arm_has_the_one_its_other_words_say(text, arm):
    unit, _ = read_unit_text(text, "unit")
    assert unit.arm.value == arm


def test_a_unit_whose_words_say_no_arm_is_asked_for_it():
    with pytest.raises(InvalidInput, match="say 1er's arm"):
        read_unit_text("1er: french veteran", "unit")


def test_words_of_two_arms_ask_for_the_arm():
    with pytest.raises(InvalidInput, match="say Buffs' arm"):
        read_unit_text("Buffs: british column hussars figures=8", "unit")
