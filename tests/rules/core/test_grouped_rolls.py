"""Dice grouped as the rules read them give exactly the odds of every result of the dice.

Three rule sets say how they read some rolls, so that the odds walk one branch per group:
Le Baton reads its fire and melee pools only as hits (``D6Pool.only_hits``), Tricorne reads
some battle-dice faces alike (``BattleDice.alike``), and a Fire at Will melee reads each
side's rolls only as its highest score and the unit a loss would fall on
(``with_roll_groups``). Each claim is checked here the hard way: the same requests walked
with no grouping at all (every result of the dice, up to order) give the same fractions.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from rules.core import dice, odds
from rules.core.dice import (
    BATTLE_DIE_FACES,
    D6_FACES,
    BattleDice,
    D6Pool,
    Symbol,
    hit_outcomes,
    read_alike,
)
from rules.core.odds import Odds, odds_for_request
from rules.core.prepared import roll_groups
from rules.registry import RULESETS

Table = dict[tuple, dict[tuple, Fraction]]


def table(found: Odds) -> Table:
    """Each answer path's results and losses, as exact fractions."""
    assert found.exact, found.reason
    return {branch.path: {**{(o.effects, o.label): o.probability for o in branch.outcomes},
                          **{("loss", loss.unit, loss.side, loss.measure): loss.expected
                             for loss in (*branch.losses, *branch.side_losses)}}
            for branch in found.branches}


def fire_at_will(attackers: list[dict], defenders: list[dict]) -> dict[str, Any]:
    return {"ruleset": "fire-at-will", "procedure": "melee", "attackers": attackers,
            "defenders": defenders}


def inf(name: str, **more: Any) -> dict[str, Any]:
    return {"name": name, "arm": "infantry", **more}


FIRE_AT_WILL = {
    "two against one, mixed arms and a general": fire_at_will(
        [inf("Grenadiers", regular=True, charging=True, front=True),
         {"name": "Hussars", "arm": "cavalry", "flank": True}],
        [inf("Béarn", regular=True, general="Bougainville", front=True)]),
    "one against three, behind an obstacle": fire_at_will(
        [inf("Grenadiers", regular=True, charging=True)],
        [inf("Béarn", behind_obstacle=True), inf("Guyenne", deep=True),
         inf("Rangers", order="open", light=True, deep=True)]),
    "two against one, from the rear, into a building": fire_at_will(
        [inf("A1", charging=True, vs_building=True),
         inf("A2", charging=True, rear=True, general="Wolfe")],
        [inf("Béarn", regular=True, rear=True, general="Montcalm")]),
    "equal units: many ties": fire_at_will([inf("A1"), inf("A2")], [inf("D1"), inf("D2")]),
}


def le_baton(attacker: dict, defender: dict, phase: int = 6) -> dict[str, Any]:
    return {"ruleset": "le-baton", "procedure": "melee", "attacker": attacker,
            "defender": defender, "phase": phase}


LE_BATON = {
    "columns against a line": le_baton(
        {"name": "4e Léger", "nation": "french", "arm": "infantry", "formation": "column",
         "figures": 6},
        {"name": "52nd", "nation": "british", "arm": "infantry", "formation": "line",
         "figures": 5}),
    "cavalry with lancers and cuirassiers": le_baton(
        {"name": "Lancers", "nation": "french", "arm": "cavalry", "horse": "lancers",
         "figures": 4},
        {"name": "Life Guards", "nation": "british", "arm": "cavalry", "quality": "elite",
         "figures": 4}, phase=11),
    "in defensive terrain": le_baton(
        {"name": "70e", "nation": "french", "arm": "infantry", "formation": "column",
         "quality": "conscript", "figures": 4, "casualties": 3},
        {"name": "95th", "nation": "british", "arm": "infantry", "formation": "line",
         "figures": 4, "defensive_terrain": True}),
}
LE_BATON_FIRE = {
    "ruleset": "le-baton", "procedure": "fire",
    "shooter": {"name": "52nd", "nation": "british", "arm": "infantry", "figures": 8},
    "target": "4e Léger", "target_type": "column", "distance": 3}


def tricorne(attacker: dict, defender: dict, **more: Any) -> dict[str, Any]:
    return {"ruleset": "tricorne", "procedure": "melee", "attacker": attacker,
            "defender": defender, **more}


TRICORNE = {
    "regulars, taking ground asked": tricorne(
        {"name": "Foot", "type": "regular", "blocks": 3},
        {"name": "Fusiliers", "type": "regular", "blocks": 2, "reduce": 1}),
    "a highland unit with a leader against a leader's unit": tricorne(
        {"name": "Black Watch", "type": "highland", "blocks": 2, "leader": "Murray",
         "reduce": 2},
        {"name": "Fusiliers", "type": "regular", "blocks": 1, "leader": "Howe",
         "reduce": 1}, answers={"take_ground": "stay"}),
    "into buildings, where a symbol hit is ignored and a saber is not": tricorne(
        {"name": "Grenadiers", "type": "grenadier", "blocks": 2},
        {"name": "Militia", "type": "militia", "blocks": 3, "terrain": "buildings",
         "retreat_room": 1}, answers={"take_ground": "stay"}),
    "cavalry that may retire and rally, from a hill": tricorne(
        {"name": "Light Horse", "type": "light-cav", "blocks": 2},
        {"name": "Dragoons", "type": "battle-cav", "blocks": 2, "terrain": "hill"},
        answers={"take_ground": "stay"}),
    "a lone leader": tricorne(
        {"name": "Foot", "type": "regular", "blocks": 2},
        {"name": "Gage", "type": "lone-leader"}, answers={"take_ground": "stay"}),
}


@pytest.mark.parametrize("request_", [*FIRE_AT_WILL.values(), *LE_BATON.values(),
                                      LE_BATON_FIRE, *TRICORNE.values()],
                         ids=[*FIRE_AT_WILL, *LE_BATON, "le baton fire", *TRICORNE])
def test_grouping_the_dice_changes_no_fraction(request_, monkeypatch):
    grouped = odds_for_request(RULESETS, request_, max_leaves=400_000)
    with monkeypatch.context() as plain_walk:
        plain_walk.setattr(D6Pool, "pool_outcomes",
                           lambda self: dice.pool_outcomes(D6_FACES, self.count))
        plain_walk.setattr(BattleDice, "pool_outcomes",
                           lambda self: dice.pool_outcomes(self.faces, self.count))
        plain_walk.setattr(odds, "roll_groups", lambda prepared: None)
        plain = odds_for_request(RULESETS, request_, max_leaves=400_000)
    assert table(grouped) == table(plain)
    assert grouped.leaves < plain.leaves  # and it walked fewer paths to get there


def test_hits_of_a_pool_are_binomial_and_stand_for_every_face_that_scores_them():
    by_hand: dict[int, Fraction] = {}
    for faces, p in D6Pool(4, 5, bonus=1).outcomes():
        scored = sum(face + 1 >= 5 for face in faces)
        by_hand[scored] = by_hand.get(scored, 0) + p
    listed = list(D6Pool(4, 5, bonus=1, only_hits=True).pool_outcomes())
    assert {sum(f + 1 >= 5 for f in faces): p for faces, p in listed} == by_hand
    assert listed[0] == ((1, 1, 1, 1), Fraction(1, 16))  # 4, 5 and 6 score: half of all
    assert listed[-1] == ((6, 6, 6, 6), Fraction(1, 16))
    # Faces that always or never score leave one result.
    assert list(hit_outcomes(3, 1, 0)) == [((6, 6, 6), Fraction(1))]
    assert list(hit_outcomes(3, 7, 0)) == [((1, 1, 1), Fraction(1))]
    assert list(hit_outcomes(0, 4, 0)) == [((), Fraction(1))]


def test_battle_dice_read_alike_count_as_their_first_face_with_all_their_sides():
    against_infantry = {Symbol.INFANTRY: "hit", Symbol.SABER: "hit", Symbol.CAVALRY: "miss",
                        Symbol.ARTILLERY: "miss", Symbol.FLAG: "flag"}
    alike = read_alike(BATTLE_DIE_FACES, against_infantry.__getitem__)
    assert alike == ((Symbol.INFANTRY, Symbol.SABER), (Symbol.CAVALRY, Symbol.ARTILLERY))
    listed = dict(BattleDice(2, alike=alike).pool_outcomes())
    assert listed == {
        (Symbol.INFANTRY, Symbol.INFANTRY): Fraction(1, 4),  # 3 sides of 6 hit, twice
        (Symbol.INFANTRY, Symbol.CAVALRY): Fraction(1, 3),
        (Symbol.INFANTRY, Symbol.FLAG): Fraction(1, 6),
        (Symbol.CAVALRY, Symbol.CAVALRY): Fraction(1, 9),
        (Symbol.CAVALRY, Symbol.FLAG): Fraction(1, 9),
        (Symbol.FLAG, Symbol.FLAG): Fraction(1, 36),
    }
    assert sum(listed.values()) == 1


def test_a_fire_at_will_melee_is_walked_once_per_result_the_dice_can_give():
    """Only the margin, and the losing side's affected unit and tie, tell the dice apart: a
    three against three melee of equal units is 48 groups (docs/odds.md)."""
    rules = RULESETS["fire-at-will"].battle
    prepared = rules.prepare("melee", {"attackers": "A1: inf; A2: inf; A3: inf",
                                       "defenders": "D1: inf; D2: inf; D3: inf"}, None, {})
    groups = roll_groups(prepared)
    assert len(groups) == 48
    assert sum(share for _, share in groups) == 1
