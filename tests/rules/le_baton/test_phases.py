"""A procedure played outside its phase of the turn gets a remark, and still runs."""

from __future__ import annotations

import pytest

from rules.core.roster import Roster, RosterUnit
from rules.le_baton import RULESET_ENTRY
from rules.le_baton.battle import PHASES
from rules.le_baton.phases import phase_options, phase_warning

ROSTER = Roster((
    RosterUnit("52nd", "British", {"nation": "british", "arm": "infantry", "formation": "line"},
               strength=8),
    RosterUnit("4e Léger", "French", {"nation": "french", "arm": "infantry",
                                      "formation": "column"}, strength=12),
    RosterUnit("Greys", "British", {"nation": "british", "arm": "cavalry"}, strength=6),
))

# Each procedure with its options, and the phases of the turn it belongs to.
CASES = [
    ("artillery-fire", {"battery": "Guns", "target": "52nd"}, {1}),
    ("fire", {"shooter": "52nd", "target": "4e Léger"}, {3}),
    ("fire", {"shooter": "4e Léger", "target": "52nd"}, {8}),
    ("morale", {"unit": "52nd", "phase": 5}, {5}),
    ("morale", {"unit": "52nd", "phase": 12}, {12}),
    ("charge", {"charger": "4e Léger", "target": "52nd"}, {3, 4, 5}),
    ("charge", {"charger": "Greys", "target": "4e Léger"}, {8, 9, 10}),
    ("melee", {"attacker": "4e Léger", "defender": "52nd", "phase": 6}, {6}),
    ("melee", {"attacker": "Greys", "defender": "4e Léger", "phase": 11}, {11}),
    ("recall", {"unit": "Greys"}, {13}),
]


@pytest.mark.parametrize(("procedure", "options", "own"), CASES)
def test_a_procedure_is_remarked_on_in_every_phase_but_its_own(procedure, options, own):
    for number, phase in enumerate(PHASES, start=1):
        warning = phase_warning(procedure, options, ROSTER, phase)
        assert (warning is None) == (number in own), (number, warning)


def test_the_remark_names_both_phases_by_their_numbers():
    assert phase_warning("artillery-fire", {}, ROSTER, PHASES[5]) == (
        "Out of phase: for phase 1, not 6")
    assert phase_warning("charge", {"charger": "4e Léger"}, ROSTER, PHASES[0]) == (
        "Out of phase: for phases 3–5, not 1")
    assert phase_warning("fire", {"shooter": "52nd: x"}, ROSTER, PHASES[7]) == (
        "Out of phase: for phase 3, not 8")
    assert phase_warning("morale", {"phase": 7}, ROSTER, PHASES[0]) == (
        "Out of phase: for phase 7, not 1")


def test_a_unit_the_roster_cannot_place_gets_both_nations_phases():
    warning = phase_warning("fire", {"shooter": "Nobody"}, ROSTER, PHASES[0])
    assert warning == "Out of phase: for phases 3, 8, not 1"
    assert phase_warning("fire", {"shooter": "Nobody"}, ROSTER, PHASES[7]) is None
    assert phase_warning("charge", {"charger": "Nobody"}, ROSTER, PHASES[12]) == (
        "Out of phase: for phases 3–5, 8–10, not 13")


def test_no_remark_without_a_known_phase():
    assert phase_warning("recall", {}, ROSTER, None) is None
    assert phase_warning("recall", {}, ROSTER, "movement") is None


def test_le_baton_battles_use_the_remark():
    assert RULESET_ENTRY.battle.phase_warning is phase_warning


def test_a_melee_or_check_left_without_a_phase_takes_the_battles_own():
    assert phase_options("melee", {"attacker": "A"}, PHASES[10]) == {"attacker": "A", "phase": 11}
    assert phase_options("morale", {}, PHASES[6]) == {"phase": 7}
    # Not a phase of the procedure (phase 13's roll is /recall's), nor one given: as they are.
    assert phase_options("morale", {}, PHASES[12]) == {}
    assert phase_options("melee", {}, PHASES[0]) == {}
    assert phase_options("morale", {"phase": 5}, PHASES[6]) == {"phase": 5}
    assert phase_options("fire", {}, PHASES[2]) == {}
