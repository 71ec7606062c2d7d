"""Which phase of the turn each procedure belongs to, for a remark when one is played in
another. The procedure still runs: GMs play out of order on purpose (a forgotten fire, a
correction), but a slip should not pass unnoticed."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core.errors import RulesError
from rules.core.notation import roster_entry
from rules.core.roster import Roster, RosterUnit
from rules.le_baton.battle import PHASES, tied_awaiting_recall
from rules.le_baton.melee import MELEE_PHASES
from rules.le_baton.morale import MORALE_PHASES
from rules.le_baton.units import Nation

# Charges are declared in the mover's phase and played through the closing and standing
# checks that follow it, so all three phases are the charge's own.
CHARGE_PHASES = {Nation.FRENCH: (3, 4, 5), Nation.BRITISH: (8, 9, 10)}
FIRE_PHASES = {Nation.BRITISH: (3,), Nation.FRENCH: (8,)}


# The procedures whose phase is an option, and the phases it may be (a check's, as its
# command offers them: phase 13's is the recall's own command).
PHASE_OPTION = {"melee": MELEE_PHASES, "morale": tuple(p for p in MORALE_PHASES if p != 13)}


def phase_options(procedure: str, options: Mapping[str, Any],
                  phase: str | None) -> dict[str, Any]:
    """A melee or morale check in a battle, its phase left out, is the battle's phase's,
    when that is one of its phases (elsewhere the check still asks which)."""
    own = PHASE_OPTION.get(procedure)
    if own is None or options.get("phase") is not None or phase not in PHASES:
        return dict(options)
    current = PHASES.index(phase) + 1
    return {**options, "phase": current} if current in own else dict(options)


def phase_warning(procedure: str, options: Mapping[str, Any], roster: Roster,
                  phase: str | None) -> str | None:
    """``None`` in the procedure's own phase; otherwise a remark naming both phases by their
    numbers, the sheet's names for them ("Out of phase: for phases 3–5, not 1"): one line of a
    phone; the player knows what they played."""
    if phase not in PHASES:
        return None
    current = PHASES.index(phase) + 1
    title = phase.partition(". ")[2]
    if procedure == "melee" and current == 11:
        tied = _tied_in_phase_6(options, roster)
        if tied is not None:
            return (f"Out of phase: {tied} tied their melee in phase 6: they test for recall "
                    f"in phase 13 before they fight again, not in phase 11 ({title}).")
    phases = procedure_phases(procedure, options, roster)
    if current in phases:
        return None
    return f"Out of phase: for {_phase_list(phases)}, not {current}"


def _tied_in_phase_6(options: Mapping[str, Any], roster: Roster) -> str | None:
    """The two sides of the melee the attacker is in, when its cavalry tied it and have
    not yet rolled their recall: the sheet fights no round of it in phase 11."""
    unit = _roster_unit(options.get("attacker"), roster)
    if unit is None:
        return None
    engagement = roster.engaged(unit.name, "melee")
    if engagement is None or not tied_awaiting_recall(roster, engagement):
        return None
    return " and ".join(name for side in engagement.sides for name in side)


def procedure_phases(procedure: str, options: Mapping[str, Any],
                     roster: Roster) -> tuple[int, ...]:
    """The phases a procedure belongs to."""
    if procedure == "artillery-fire":
        return (1,)
    if procedure == "recall":
        return (13,)
    if procedure == "morale":
        if options.get("phase") is None:  # refused as it is prepared
            return MORALE_PHASES
        return (int(options["phase"]),)
    if procedure == "melee":
        return (int(options.get("phase") or 6),)
    if procedure == "fire":
        return _by_nation(_nation(options.get("shooter"), roster), FIRE_PHASES)
    if procedure == "charge":
        return _by_nation(_nation(options.get("charger"), roster), CHARGE_PHASES)
    return tuple(range(1, len(PHASES) + 1))


def _by_nation(nation: Nation | None,
               table: Mapping[Nation, tuple[int, ...]]) -> tuple[int, ...]:
    """The nation's phases; both nations' when unknown."""
    if nation is None:
        return tuple(p for phases in table.values() for p in phases)
    return table[nation]


def _roster_unit(text: Any, roster: Roster) -> RosterUnit | None:
    """The roster unit an option names; None when it names none (refused as it is
    prepared)."""
    if not isinstance(text, str):
        return None
    try:
        unit, _ = roster_entry(text, roster, "unit")
    except RulesError:
        return None
    return unit


def _nation(text: Any, roster: Roster) -> Nation | None:
    """The nation of the roster unit an option names; None when it cannot be told."""
    unit = _roster_unit(text, roster)
    if unit is None:
        return None
    nation = unit.attr("nation")
    return Nation(nation) if nation in tuple(Nation) else None


def _phase_list(phases: tuple[int, ...]) -> str:
    """``phase 1``, ``phases 3, 8``, ``phases 3–5, 8–10``."""
    runs: list[list[int]] = []
    for number in sorted(phases):
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    parts = [str(r[0]) if len(r) == 1 else f"{r[0]}–{r[-1]}" for r in runs]
    return f"{'phase' if len(phases) == 1 else 'phases'} {', '.join(parts)}"
