"""Risk to Generals: both 2d6 tables at every boundary, second wounds, command shaken."""

from __future__ import annotations

import pytest

from rules.fire_at_will.effects import EffectKind as E
from rules.fire_at_will.melee import resolve_melee

from .helpers import effects, foot, general, m, run

TWO_D6 = {2: "1 1", 7: "3 4", 8: "4 4", 9: "4 5", 10: "5 5", 11: "5 6", 12: "6 6"}


def rout_with_general(total: int, wounded: bool = False):
    """Attacker wins by 2: the defender routs with the general."""
    return run(resolve_melee, [m(foot("A"))],
               [m(foot("D", general=general("Wolfe", wounded)))],
               dice_text=f"5 3 {TWO_D6[total]}")


def loss_with_general(total: int, wounded: bool = False):
    """Attacker wins by 1: the defender retires and loses 1 SP, with the general."""
    return run(resolve_melee, [m(foot("A"))],
               [m(foot("D", general=general("Wolfe", wounded)))],
               dice_text=f"4 3 {TWO_D6[total]}")


def general_effects(result):
    return [(k, u) for k, u, _ in effects(result) if u == "Wolfe"]


@pytest.mark.parametrize(
    ("total", "expected"),
    [(2, []), (7, []),
     (8, [E.GENERAL_WOUNDED]), (9, [E.GENERAL_WOUNDED]),
     (10, [E.GENERAL_CAPTURED, E.COMMAND_SHAKEN]),
     (11, [E.GENERAL_KILLED, E.COMMAND_SHAKEN]), (12, [E.GENERAL_KILLED, E.COMMAND_SHAKEN])],
)
def test_rout_table(total, expected):
    result = rout_with_general(total)
    assert [k for k, _ in general_effects(result)] == expected
    roll = result.steps[-1].rolls[0]
    assert roll.total == total
    assert "routed from melee table" in roll.target


@pytest.mark.parametrize(
    ("total", "expected"),
    [(2, []), (7, []), (8, []),
     (9, [E.GENERAL_WOUNDED]), (10, [E.GENERAL_WOUNDED]),
     (11, [E.GENERAL_KILLED, E.COMMAND_SHAKEN]), (12, [E.GENERAL_KILLED, E.COMMAND_SHAKEN])],
)
def test_losses_table(total, expected):
    result = loss_with_general(total)
    assert [k for k, _ in general_effects(result)] == expected
    assert "suffered losses in melee table" in result.steps[-1].rolls[0].target


def test_rows_are_named():
    assert rout_with_general(8).steps[-1].rolls[0].target.startswith("row 8-9")
    assert rout_with_general(10).steps[-1].rolls[0].target.startswith("row 10 ")
    assert loss_with_general(8).steps[-1].rolls[0].target.startswith("row 2-8")


def test_second_light_wound_incapacitates():
    assert general_effects(rout_with_general(8, wounded=True)) == [
        (E.GENERAL_INCAPACITATED, "Wolfe")
    ]
    assert general_effects(loss_with_general(9, wounded=True)) == [
        (E.GENERAL_INCAPACITATED, "Wolfe")
    ]


def test_killed_general_shakes_his_command_within_18_inches():
    result = rout_with_general(11)
    shaken = [e for e in result.effects if e.kind is E.COMMAND_SHAKEN]
    assert shaken[0].describe() == 'Wolfe: units of his command within 18" are shaken'


@pytest.mark.parametrize(("command", "said"), [
    (("Rangers", "78th"), 'Wolfe: units of his command still in the battle are shaken (those '
                          'within 18"; a GM clears any farther)'),
    ((), "Wolfe: no unit is shaken (none in the battle has him as commander)"),
])
def test_in_a_battle_the_effect_knows_whether_he_commands_any_unit(command, said):
    from rules.fire_at_will.units import General

    result = run(resolve_melee, [m(foot("A"))],
                 [m(foot("D", general=General("Wolfe", command=command)))],
                 dice_text=f"5 3 {TWO_D6[11]}")
    (shaken,) = [e for e in result.effects if e.kind is E.COMMAND_SHAKEN]
    assert shaken.describe() == said


@pytest.mark.parametrize(("strength", "defender", "dice_text"), [
    # Routed from the rear and surrendered: removed from the table.
    (4, {"rear": True}, f"5 1 4 {TWO_D6[11]}"),
    # Lost by 2 with its last SP: it leaves the battle.
    (2, {}, f"5 3 {TWO_D6[11]}"),
])
def test_a_command_that_leaves_with_his_unit_is_not_said_to_be_shaken(strength, defender,
                                                                       dice_text):
    from rules.fire_at_will.units import General

    # "all units in his chain of command within 18\" are shaken": the unit he was with
    # is off the table, so none of his command is left to be shaken.
    wolfe = General("Wolfe", command=("D",))
    result = run(resolve_melee, [m(foot("A"))],
                 [m(foot("D", general=wolfe, strength=strength), **defender)], dice_text=dice_text)
    (shaken,) = [e for e in result.effects if e.kind is E.COMMAND_SHAKEN]
    assert shaken.describe() == "Wolfe: no unit is shaken (none in the battle has him as commander)"


def test_a_light_wound_says_his_half_speed_once():
    # The roll reads the row ("light wound, moves at 1/2 speed"); the effect, what befalls him.
    wounded = rout_with_general(8)
    assert [e.describe() for e in wounded.effects if e.unit == "Wolfe"] == [
        "Wolfe is lightly wounded"]
    assert wounded.rolls[-1].result == "light wound, moves at 1/2 speed"
    second = rout_with_general(8, wounded=True)
    assert [e.describe() for e in second.effects if e.unit == "Wolfe"] == [
        "Wolfe is incapacitated (removed from play)"]
    assert second.rolls[-1].result == "second light wound"


def test_a_fall_that_shakes_no_unit_is_left_out_of_the_results_label():
    from rules.core.prepared import label_of
    from rules.fire_at_will.units import General

    # Said in the reply; a result's label (the GM's override menu) says what it does.
    none = run(resolve_melee, [m(foot("A"))], [m(foot("D", general=General("Wolfe", command=())))],
               dice_text=f"5 3 {TWO_D6[11]}")
    assert label_of(none) == "D routs; D loses 2 SP; Wolfe is killed"
    some = run(resolve_melee, [m(foot("A"))],
               [m(foot("D", general=General("Wolfe", command=("Rangers",))))],
               dice_text=f"5 3 {TWO_D6[11]}")
    assert label_of(some) == ("D routs; D loses 2 SP; Wolfe is killed; Wolfe: units of his "
                              'command still in the battle are shaken (those within 18"; a GM '
                              "clears any farther)")


def test_winning_side_general_does_not_roll():
    with pytest.raises(Exception, match="Too many dice"):
        run(resolve_melee, [m(foot("A", general=general()))], [m(foot("D"))],
            dice_text="5 3 6 6")


def test_a_tie_costs_no_losses_so_no_roll():
    with pytest.raises(Exception, match="Too many dice"):
        run(resolve_melee, [m(foot("A"))], [m(foot("D", general=general()))],
            dice_text="3 3 6 6")


def test_retiring_others_without_losses_do_not_roll():
    # A2 retires 3" without losses: its general takes no risk.
    result = run(resolve_melee, [m(foot("A1"), front=True), m(foot("A2", general=general()))],
                 [m(foot("D"))], dice_text="2 1 6")
    assert all(not s.title.startswith("Risk") for s in result.steps)


def test_exception_loser_suffers_losses_so_rolls_on_the_losses_table():
    result = run(resolve_melee,
                 [m(foot("A", general=general()), charging=True, vs_building=True)],
                 [m(foot("D"))], dice_text="5 6 4 5")
    assert "suffered losses in melee table" in result.steps[-1].rolls[0].target
    assert general_effects(result) == [(E.GENERAL_WOUNDED, "Wolfe")]


def test_surrender_is_tested_before_the_general():
    result = run(resolve_melee, [m(foot("A"))],
                 [m(foot("D", general=general()), rear=True)], dice_text="5 3 1 6 6")
    titles = [s.title for s in result.steps]
    assert titles[-2].startswith("Surrender test") and titles[-1].startswith("Risk to Wolfe")
