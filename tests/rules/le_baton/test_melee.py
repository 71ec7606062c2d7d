"""Phases 6 and 11: melee dice, 4+ to hit, the modifiers and the result by match-up."""

from __future__ import annotations

import pytest

from rules.core.dice import Reading
from rules.core.errors import InvalidInput, NotAllowed, NotEnoughDice
from rules.core.records import Severity
from rules.le_baton.effects import EffectKind as E
from rules.le_baton.melee import Side, resolve_melee, to_hit_modifiers
from rules.le_baton.units import Formation, Horse, Nation, Quality

from .helpers import dragoons, effects, foot, guns, horse, ligne, outcomes, run, values


def melee(a, b, dice_text, phase=6):
    a = a if isinstance(a, Side) else Side(a)
    b = b if isinstance(b, Side) else Side(b)
    return run(resolve_melee, a, b, phase, dice_text=dice_text)


def mods(roller, enemy):
    enemy = enemy if isinstance(enemy, Side) else Side(enemy)
    return [(m.value, m.reason) for m in to_hit_modifiers(roller, enemy)]


LANCERS = horse("Lancers", horse=Horse.LANCERS)
CUIRASSIERS = horse("Cuirassiers", horse=Horse.CUIRASSIERS)


# --- "BASE 4+ TO HIT" and the melee modifiers ------------------------------------------------


def test_base_4_to_hit_without_modifiers():
    result = melee(foot(figures=3, quality=Quality.CONSCRIPT),
                   ligne(figures=2, quality=Quality.CONSCRIPT), "3 4")
    a, b = result.steps[0].rolls
    assert (a.kind, a.dice, a.target, a.hits, a.modifiers) == ("1d6", (3,), "4+", 0, ())
    assert (b.kind, b.dice, b.hits) == ("1d6", (4,), 1)


@pytest.mark.parametrize(("roller", "enemy", "expected"), [
    (foot(), Side(ligne(), defensive_terrain=True), [(-1, "enemy in defensive terrain")]),
    (foot(), Side(ligne(), fortification=True), [(-1, "enemy in defensive terrain")]),
    (dragoons(), CUIRASSIERS, [(-1, "vs. cuirassiers")]),
    (dragoons(), LANCERS, [(-1, "first combat vs. lancers")]),
    (dragoons(), horse("Lancers", horse=Horse.LANCERS, in_melee=True), []),
    (horse("Lancers", horse=Horse.LANCERS, in_melee=True), dragoons(),
     [(-1, "lancers continuing a melee")]),
    (LANCERS, dragoons(), []),
    (dragoons(in_melee=True), dragoons(in_melee=True), []),
    (foot(), Side(ligne(), defensive_terrain=False), []),
], ids=["defensive terrain", "fortification", "cuirassiers", "first combat vs lancers",
        "lancers already in melee", "lancers continuing", "lancers first combat",
        "other cavalry continuing", "open ground"])
def test_melee_modifiers(roller, enemy, expected):
    assert mods(roller, enemy) == expected


def test_lancers_continuing_against_cuirassiers_take_both():
    lancers = horse("Lancers", Nation.BRITISH, horse=Horse.LANCERS, in_melee=True)
    assert mods(lancers, CUIRASSIERS) == [(-1, "vs. cuirassiers"),
                                          (-1, "lancers continuing a melee")]


def test_modifiers_apply_to_each_die():
    # Veteran dragoons, 6 figures: 3 dice at 4+ −1 (first combat vs lancers): only 5s and 6s.
    result = melee(dragoons(), LANCERS, "4 5 6 4 4 4")
    greys, lancers = result.steps[0].rolls
    assert (greys.hits, [m.value for m in greys.modifiers]) == (2, [-1])
    assert greys.readings == (Reading.MISS, Reading.HIT, Reading.HIT)
    assert lancers.hits == 3
    assert lancers.readings == (Reading.HIT,) * 3
    assert effects(result)[:2] == [(E.CASUALTIES, "Scots Greys", 3),
                                   (E.CASUALTIES, "Lancers", 2)]


def test_each_roll_names_the_dice_table_entry():
    result = melee(foot(), ligne(formation=Formation.LINE), "1 1 1 1 1 1 1 1 1 1 1 1 1 1")
    assert [r.notes for r in result.steps[0].rolls] == [
        ("12 figures: veteran, all British infantry: 2 dice per 3 figures",),
        ("12 figures: veteran, French infantry line/square: 1 die per 2 figures",)]
    assert [r.kind for r in result.steps[0].rolls] == ["8d6", "6d6"]


def test_a_unit_too_small_for_a_die_rolls_nothing():
    result = melee(foot(figures=1), ligne(figures=2, formation=Formation.LINE), "4")
    assert [r.dice for r in result.steps[0].rolls] == [(), (4,)]
    assert effects(result)[0] == (E.CASUALTIES, "2nd Foot", 1)


# --- infantry vs. infantry, cavalry vs. cavalry ------------------------------------------


def test_the_unit_that_receives_more_casualties_than_it_inflicts_loses_and_tests_in_7():
    result = melee(ligne(figures=3), foot(figures=3), "4 4 6 1")
    assert effects(result) == [(E.CASUALTIES, "45e Ligne", 1),
                               (E.CASUALTIES, "2nd Foot", 2),
                               (E.IN_MELEE, "45e Ligne", None), (E.IN_MELEE, "2nd Foot", None),
                               (E.MELEE_LOST, "2nd Foot", None)]
    assert [e.value for e in result.effects if e.kind == E.MELEE_LOST] == [7]
    assert outcomes(result) == ["2nd Foot receives more casualties than it inflicts: it loses "
                                "and must test morale in phase 7."]
    assert result.notes == ("2nd Foot tests morale for losing the melee in phase 7.",)
    assert result.headline == "45e Ligne wins the melee (2–1): 2nd Foot tests in phase 7"
    assert result.severity is Severity.MAJOR


def test_the_loser_of_a_phase_11_melee_tests_in_phase_12():
    result = melee(foot(figures=3), ligne(figures=3), "1 1 4 1", phase=11)
    assert result.headline == "45e Ligne wins the melee (1–0): 2nd Foot tests in phase 12"
    assert result.steps[0].title == "Phase 11: melee"


def test_cavalry_against_cavalry_loser_tests_morale():
    result = melee(CUIRASSIERS, dragoons(), "4 4 4 5 5 6")
    # Cuirassiers hit on 4+ (3); the dragoons need 5+ against cuirassiers (3): a tie.
    assert result.headline == ("Cuirassiers and Scots Greys tie their melee, 3 all: both test "
                               "for recall in phase 13")
    result = melee(CUIRASSIERS, dragoons(), "4 4 4 4 5 6")
    assert result.headline == "Cuirassiers wins the melee (3–2): Scots Greys tests in phase 7"


@pytest.mark.parametrize(("phase", "when"), [(6, "in phase 11"), (11, "next turn in phase 6")])
def test_infantry_that_tie_continue_the_melee(phase, when):
    result = melee(ligne(figures=2), foot(figures=2), "5 5", phase=phase)
    assert outcomes(result) == [f"Equal casualties (1 each): the infantry continue to fight "
                                f"{when}."]
    assert values(result) == [(E.CASUALTIES, "45e Ligne", None),
                              (E.CASUALTIES, "2nd Foot", None),
                              (E.IN_MELEE, "45e Ligne", "2nd Foot"),
                              (E.IN_MELEE, "2nd Foot", "45e Ligne"),
                              (E.MELEE_TIED, "45e Ligne", None)]  # nobody tests in 7 or 12
    assert result.headline == f"45e Ligne and 2nd Foot tie their melee, 1 all: they fight on {when}"
    assert result.severity is Severity.MINOR


@pytest.mark.parametrize(("phase", "between"), [
    (6, " and do not fight in phase 11"), (11, "")])
def test_cavalry_that_tie_test_for_recall_in_phase_13(phase, between):
    result = melee(horse(figures=2), dragoons(figures=2), "3 2", phase=phase)
    # Unlike infantry, tied cavalry fight no round before the recall: a failed one (or one
    # that leaves them in place) leaves them in contact for next turn's phase 6.
    assert outcomes(result) == [f"Equal casualties (0 each): the cavalry test for recall in "
                                f"phase 13{between}. If still in contact after the recall, "
                                "they may fight on next turn in phase 6."]
    assert effects(result) == [(E.IN_MELEE, "Chasseurs", None), (E.IN_MELEE, "Scots Greys", None),
                               (E.MELEE_TIED, "Chasseurs", None),
                               (E.RECALL_DUE, "Chasseurs", None),
                               (E.RECALL_DUE, "Scots Greys", None)]


# --- artillery ------------------------------------------------------------------------------


@pytest.mark.parametrize("attacker", [ligne(), horse()], ids=["infantry", "cavalry"])
def test_unsupported_artillery_attacked_is_destroyed(attacker):
    result = melee(attacker, guns(), "")
    assert effects(result) == [(E.DESTROYED, "Battery", None)]
    assert outcomes(result) == [f"{attacker.arm.value.capitalize()} vs. unsupported artillery: "
                                "the artillery is destroyed."]
    assert result.headline == f"{attacker.name} overruns Battery"
    assert result.severity is Severity.DECISIVE


def test_artillery_on_either_side_is_found():
    result = melee(guns(), ligne(), "")
    assert effects(result) == [(E.DESTROYED, "Battery", None)]


def test_supported_artillery_the_supporting_unit_fights_instead():
    supported = Side(guns(), supported_by=foot("Guards", figures=3))
    result = melee(ligne(figures=3), supported, "4 1 4 4", phase=6)
    assert result.steps[0].title == "Supported artillery"
    assert outcomes(result)[0] == ("Guards, 2\" behind or beside Battery, fights instead of "
                                   "the artillery.")
    assert [r.label for r in result.steps[1].rolls] == ["45e Ligne", "Guards"]
    assert effects(result)[:2] == [(E.CASUALTIES, "45e Ligne", 2), (E.CASUALTIES, "Guards", 1)]
    assert result.headline == "Guards wins the melee (2–1): 45e Ligne tests in phase 7"


def test_the_supporting_unit_fights_from_the_artillerys_defensive_terrain():
    # The ground is the artillery's: its enemy rolls at −1 against the unit fighting for it.
    supported = Side(guns(), defensive_terrain=True, supported_by=foot("Guards", figures=3))
    result = melee(ligne(figures=3), supported, "4 1 4 4", phase=6)
    ligne_roll = result.steps[1].rolls[0]
    assert [m.reason for m in ligne_roll.modifiers] == ["enemy in defensive terrain"]


def test_supporting_infantry_charged_by_cavalry_follow_the_cavalry_rules():
    supported = Side(guns(), supported_by=foot("Guards", formation=Formation.LINE))
    result = melee(horse(), supported, "")
    assert effects(result) == [(E.DESTROYED, "Guards", None)]


def test_artillery_against_artillery_is_not_a_melee():
    with pytest.raises(NotAllowed, match=r"Battery \(artillery\) and Pieces \(artillery\) do "
                                         "not fight a melee of dice"):
        melee(guns(), guns("Pieces", Nation.FRENCH), "")


# --- cavalry vs. infantry ------------------------------------------------------------------


@pytest.mark.parametrize(("formation", "what"), [
    (Formation.COLUMN, "infantry column"),
    (Formation.LINE, "infantry line"),
    (Formation.SKIRMISH, "skirmishers"),
    (None, "infantry in the open"),
])
def test_cavalry_against_infantry_column_or_line_destroy_the_infantry(formation, what):
    result = melee(horse(), foot(formation=formation), "")
    assert effects(result) == [(E.DESTROYED, "2nd Foot", None)]
    assert outcomes(result) == [f"Cavalry vs. {what}: the infantry is destroyed."]
    assert result.headline == "Chasseurs rides down 2nd Foot"


def test_the_infantry_side_may_be_given_first():
    result = melee(ligne(formation=Formation.LINE), dragoons(), "", phase=11)
    assert result.headline == "Scots Greys rides down 45e Ligne"


@pytest.mark.parametrize(("faces", "lost", "headline"), [
    ("4 3 6", 2, "Chasseurs passes through 2nd Foot: 2 casualties"),
    ("1 2 3", 0, "Chasseurs passes through 2nd Foot: 0 casualties"),
    ("6 6 6", 3, "Chasseurs passes through 2nd Foot: 3 casualties"),
])
def test_cavalry_pass_through_squares_a_casualty_on_4_per_infantry_unit_contacted(
        faces, lost, headline):
    result = melee(Side(horse(in_melee=True), units_contacted=3),
                   foot(formation=Formation.SQUARE, in_melee=True), faces)
    rolls = result.steps[0].rolls
    # The square named is named; only the others counted with it are numbered.
    assert [(r.label, r.kind, r.target) for r in rolls] == [
        ("Chasseurs past 2nd Foot", "1d6", "4+"),
        *((f"Chasseurs past infantry unit {n}", "1d6", "4+") for n in (2, 3))]
    # Each die read as it counts: a 4 is a casualty, a 3 is not.
    assert [r.result for r in rolls] == [RESULTS[face] for face in faces.split()]
    lost_effect = [(E.CASUALTIES, "Chasseurs", lost)] if lost else []
    # Its full movement distance gone, it makes no new contact this turn.
    # The cavalry's melee with the square ends (the square's with others, if any, goes on).
    assert effects(result) == [*lost_effect, (E.CHARGE_MARKER, "Chasseurs", None),
                               (E.MELEE_ENDS, "Chasseurs", None),
                               (E.PASSED_THROUGH, "Chasseurs", None)]
    assert result.headline == headline
    # Units in no melee (a first contact) are not said to come out of one.
    fresh = melee(Side(horse(), units_contacted=3), foot(formation=Formation.SQUARE), faces)
    assert effects(fresh) == [*lost_effect, (E.CHARGE_MARKER, "Chasseurs", None),
                              (E.PASSED_THROUGH, "Chasseurs", None)]


def test_dice_short_for_a_pass_through_name_the_square_or_number_the_others():
    for given, missing in (("", "2nd Foot"), ("4", "infantry unit 2")):
        with pytest.raises(NotEnoughDice, match=f"Chasseurs passing {missing} needs"):
            melee(Side(horse(), units_contacted=2), foot(formation=Formation.SQUARE), given)


RESULTS = {"1": "no casualty", "2": "no casualty", "3": "no casualty", "4": "a casualty",
           "6": "a casualty"}


def test_pass_through_one_square_one_casualty():
    result = melee(foot(formation=Formation.SQUARE), horse(), "5")
    assert result.headline == "Chasseurs passes through 2nd Foot: 1 casualty"
    assert [r.label for r in result.steps[0].rolls] == ["Chasseurs past 2nd Foot"]
    assert result.severity is Severity.MINOR
    assert outcomes(result) == [
        "Cavalry vs. infantry square: the infantry do not roll melee dice. Chasseurs passes "
        "through its full movement distance, is placed where it fits past the enemy, and "
        "takes a casualty on a 4+ for each infantry unit contacted. It must roll to recall "
        "in phase 13."]


def test_cavalry_pass_through_infantry_in_a_fortification():
    result = melee(dragoons(), Side(ligne(formation=Formation.LINE), fortification=True), "3",
                   phase=11)
    assert outcomes(result)[0].startswith("Cavalry vs. infantry fortification: the infantry "
                                          "do not roll melee dice.")
    assert effects(result)[0] == (E.CHARGE_MARKER, "Scots Greys", None)


def test_the_square_itself_rolls_no_dice():
    # 12 figures in square would roll 8 dice in a melee of dice; here one die is all.
    result = melee(horse(), foot(figures=12, formation=Formation.SQUARE), "2")
    assert len(result.steps[0].rolls) == 1


# --- errors ---------------------------------------------------------------------------------


@pytest.mark.parametrize("phase", [5, 7, 12])
def test_melees_are_fought_in_phase_6_or_11(phase):
    with pytest.raises(InvalidInput, match="Melees are fought in phase 6 or phase 11."):
        melee(foot(), ligne(), "", phase=phase)


def test_a_melee_needs_two_sides():
    with pytest.raises(NotAllowed, match="2nd Foot and Guards are on the same side."):
        melee(foot(), foot("Guards"), "")
    # One name on both sides, of one nation or of the two: a reply could not tell them apart.
    for other in (foot(), ligne("2nd Foot")):
        with pytest.raises(NotAllowed) as both:
            melee(foot(), other, "")
        assert str(both.value) == (
            "2nd Foot is named on both sides. In a battle, name an enemy unit; in a quick "
            "lookup, give the two units names of their own (a reply could not tell them "
            "apart).")


def test_a_unit_that_loses_its_last_figure_is_destroyed_and_tests_for_nothing():
    # 2nd Foot, 6 figures: 4 dice at 4+ (two hit); 45e Ligne, 2 figures: 1 die (a miss).
    result = melee(foot(figures=6), ligne(figures=2), "6 6 1 1 1")
    assert result.headline == "2nd Foot wins the melee (2–0): 45e Ligne is destroyed"
    assert effects(result) == [(E.CASUALTIES, "45e Ligne", 2), (E.DESTROYED, "45e Ligne", None)]
    assert result.severity is Severity.DECISIVE


def test_cavalry_that_loses_its_last_figure_passing_a_square_is_destroyed():
    result = melee(Side(horse(figures=1), units_contacted=3),
                   foot(formation=Formation.SQUARE), "6 6 6")
    assert result.headline == "Chasseurs passes through 2nd Foot: 1 casualty, destroyed"
    assert effects(result) == [(E.CASUALTIES, "Chasseurs", 1), (E.DESTROYED, "Chasseurs", None)]
