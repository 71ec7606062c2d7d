"""A procedure played outside the phase it belongs to is remarked on, not refused."""

from __future__ import annotations

from rules.core.roster import Roster
from rules.registry import RULESETS


def warning(ruleset: str, procedure: str, phase: str | None) -> str | None:
    rules = RULESETS[ruleset].battle
    assert rules is not None and rules.phase_warning is not None
    return rules.phase_warning(procedure, {}, Roster(), phase)


def test_each_rule_sets_procedures_belong_to_their_phase():
    assert warning("fire-at-will", "melee", "movement") == (
        "Out of phase: a melee is for “melee”, not “movement”.")
    assert warning("fire-at-will", "charge", "charges") is None
    assert warning("tricorne", "melee", "order units") == (
        "Out of phase: a melee is for “combat”, not “order units”.")
    assert warning("labataille", "assault", "Maneuver Segment") == (
        "Out of phase: an Infantry Assault is for “Mêlée Segment”, not “Maneuver "
        "Segment”.")
    # The Old Guard declares in the Maneuver Segment and is resolved at once.
    assert warning("labataille", "charge", "Mêlée Segment") == (
        "Out of phase: an Old Guard Charge is for “Maneuver Segment”, not “Mêlée "
        "Segment”.")
    assert warning("labataille", "charge", "Maneuver Segment") is None


def test_a_procedure_of_any_phase_or_a_battle_without_one_gets_no_remark():
    assert warning("fire-at-will", "surrender", "movement") is None
    assert warning("labataille", "square", "Fire Segment") is None
    assert warning("tricorne", "melee", None) is None
