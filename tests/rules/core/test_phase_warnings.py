"""A procedure played outside the phase it belongs to is remarked on, not refused."""

from __future__ import annotations

from rules.core.roster import Roster
from rules.registry import RULESETS


def warning(ruleset: str, procedure: str, phase: str | None) -> str | None:
    rules = RULESETS[ruleset].battle
    assert rules is not None and rules.phase_warning is not None
    return rules.phase_warning(procedure, {}, Roster(), phase)


def test_each_rule_sets_procedures_belong_to_their_phase():
    """The remark names the procedure's phase, then the battle's, by their short names: one
    line of a phone ("⏱️ " before it)."""
    assert warning("fire-at-will", "melee", "movement") == "Out of phase: for melee, not movement"
    assert warning("fire-at-will", "melee", "shaken and routing units test") == (
        "Out of phase: for melee, not rout tests")
    assert warning("fire-at-will", "charge", "routs and retirements") == (
        "Out of phase: for charges, not routs")
    assert warning("fire-at-will", "charge", "charges") is None
    assert warning("tricorne", "melee", "order units") == "Out of phase: for combat, not orders"
    assert warning("tricorne", "melee", "play a Command card") == (
        "Out of phase: for combat, not card play")
    assert warning("labataille", "assault", "Maneuver Segment") == (
        "Out of phase: for Mêlée, not Maneuver")
    # The Old Guard declares in the Maneuver Segment and is resolved at once.
    assert warning("labataille", "charge", "Mêlée Segment") == (
        "Out of phase: for Maneuver, not Mêlée")
    assert warning("labataille", "charge", "Maneuver Segment") is None


def test_a_procedure_of_any_phase_or_a_battle_without_one_gets_no_remark():
    assert warning("fire-at-will", "surrender", "movement") is None
    assert warning("labataille", "square", "Fire Segment") is None
    assert warning("tricorne", "melee", None) is None
