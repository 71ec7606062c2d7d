"""Whether a unit may charge at all, whatever it charges: the one list of reasons that
`/charge` (the charge itself) and `/morale … charging` (the closing check of phases 4 and 9)
both give, in one order, so a player hears the same reason for the same unit."""

from __future__ import annotations

from dataclasses import dataclass

from rules.le_baton.units import Arm, Formation, Nation, Unit


@dataclass(frozen=True)
class Refusal:
    """Why ``unit`` cannot charge: ``reason`` is the sentence a player reads, ``key`` names
    the condition (a roster marker's field where it is one), ``until`` says when or how it may
    charge again ("" when nothing to add)."""

    key: str
    reason: str
    until: str = ""


def closing_phase(unit: Unit) -> int:
    """The phase whose check takes a charging infantry unit into contact."""
    return 4 if unit.nation is Nation.FRENCH else 9


def _set_by(marker: str) -> str:
    return f" Set by mistake: a GM clears it with `/gm set field:{marker} value:no`."


def why_it_cannot_charge(unit: Unit) -> Refusal | None:
    """The first reason the sheet gives for ``unit`` not charging, or None. What the unit is
    comes before what holds it this turn: a square in melee, charged as it stood, is told it
    is a square (it never charged), not that its melee goes on."""
    name = unit.name
    if unit.arm is Arm.ARTILLERY:
        return Refusal("artillery", f"{name} is artillery: only infantry and cavalry charge.")
    hold = _held(unit)
    # A hold forbids the formation change too ("cannot move, charge or change formation",
    # "No movement this turn"): it is said instead of a change the unit may not make now.
    change = hold.reason if hold else ""
    # "Infantry Charges – May only charge if in column" (phase 3).
    if unit.is_infantry and unit.nation is Nation.FRENCH and not unit.in_column:
        formation = f"in {unit.formation.value}" if unit.formation else "with no formation given"
        return Refusal("formation", f"{name} is French infantry {formation}: French infantry "
                                    "may only charge in column.",
                       change or ("It may charge once it has formed column (a full move)."
                                  if unit.formation else ""))
    if unit.formation is Formation.SQUARE:  # "Infantry Square 0"": it cannot move
        return Refusal("formation", f"{name} is in square, which moves 0\": it cannot charge.",
                       change or "It may charge once it has changed formation (a full move).")
    if hold:
        return hold
    closing = closing_phase(unit)
    if unit.is_infantry and closing in unit.tested:
        # One check "for shooting casualties and to close for melee" a turn: the charge
        # would roll it a second time.
        return Refusal("tested", f"{name} has tested its morale in phase {closing} this turn, "
                                 "and a charge's closing check is that test.",
                       "Declare the charge before the test, so that one roll counts for "
                       "both: a GM takes the test back with `/gm undo`.")
    return None


def _held(unit: Unit) -> Refusal | None:
    """What holds ``unit`` this turn, the first of them, or None."""
    name = unit.name
    for key, flag, why, until in (
            ("in_melee", unit.in_melee, "is in melee: a unit in melee does not charge",
             "It fights on in the melee phase."),
            ("firefight", unit.firefight, "is locked in a firefight and cannot charge",
             "It may charge once the firefight ends."),
            ("halted", unit.halted,
             "is halted this turn: a failed morale check allows no movement",
             "It may move and charge again next turn (`/battle next`)." + _set_by("halted")),
            ("held", unit.held, "failed its recall and cannot move this turn",
             "It moves again once a recall in phase 13 passes (`/recall`)." + _set_by("held")),
            ("charge_marker", unit.charge_marker,
             "has a charge marker in place and cannot move until recalled",
             "It rolls for recall in phase 13 (`/recall`)." + _set_by("charge_marker")),
            ("charge_failed", unit.charge_failed, "did not roll its 6 to charge this turn",
             "It may roll again next turn; a GM takes the roll back with `/gm undo`.")):
        if flag:
            return Refusal(key, f"{name} {why}.", until)
    return None
