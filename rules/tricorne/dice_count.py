"""Step 3 of the melee: how many battle dice a unit rolls, with the arithmetic shown.

"A good habit is to first add the number of dice to the base number and then determine any
reductions": additions come first, then reductions, and block losses never change the base.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.core.notation import counted
from rules.core.records import Modifier
from rules.tricorne.units import BASE_DICE, CLOSED, REFERENCE, TEXT, Arm, Unit, UnitType

STEP3 = f"{TEXT} step 3"
TERRAIN = f"{REFERENCE} §5 (American Revolution terrain)"


@dataclass(frozen=True)
class Role:
    """Why the unit rolls: its own ordered melee, a bonus melee, or battling back."""

    ordered: bool = True
    bonus: bool = False
    battling_back: bool = False
    card: bool = False  # an Ambush or First Strike card's melee


@dataclass(frozen=True)
class DiceCount:
    base: int
    additions: tuple[Modifier, ...]
    reductions: tuple[Modifier, ...]

    @property
    def total(self) -> int:
        return max(0, self.base + sum(m.value for m in (*self.additions, *self.reductions)))

    def arithmetic(self, kind: UnitType) -> str:
        """``2 (regular) + 1 full strength + 1 leader − 1 moved = 3 dice``."""
        parts = [f"{self.base} ({kind.value.replace('-', ' ')})"]
        parts += [f"+ {m.value} {m.reason}" for m in self.additions]
        parts += [f"− {-m.value} {m.reason}" for m in self.reductions if m.value]
        return f"{' '.join(parts)} = {counted(self.total, 'die', 'dice')}"

    def taken(self) -> str:
        """The reductions, as the reply says why a unit has no dice: ``−2 attacking into
        forest``."""
        return ", ".join(f"{m.signed()} {m.reason}" for m in self.reductions if m.value)

    def said(self, kind: UnitType) -> str:
        """``3 dice: 2 regular, +1 full strength, +1 leader attached, −1 moved (ordered
        infantry)``: the count first, as a player at the table checks it; ``2 dice:
        regular`` when nothing changed it."""
        changes = [f"{m.signed()} {m.reason}" for m in (*self.additions, *self.reductions)
                   if m.value]
        what = kind.value.replace("-", " ")
        why = ", ".join([f"{self.base} {what}", *changes]) if changes else what
        return f"{counted(self.total, 'die', 'dice')}: {why}"


def melee_dice(unit: Unit, target: Unit, role: Role) -> DiceCount:
    additions = []
    if unit.full_strength:
        additions.append(Modifier(1, "full strength", STEP3))
    if unit.leader:
        additions.append(Modifier(1, "leader attached", STEP3))
    if unit.kind is UnitType.HIGHLAND and highland_bonus(role):
        additions.append(Modifier(1, "Highland Battle Bonus", STEP3))
    if unit.cards:
        additions.append(Modifier(unit.cards, "Command/Combat cards", STEP3))
    reductions = []
    if unit.arm is Arm.INFANTRY and unit.moved and role.ordered:
        reductions.append(moved_reduction(unit))
    reductions += terrain_reductions(unit, target)
    if unit.reduce:
        reductions.append(Modifier(-unit.reduce, "terrain (given)", STEP3))
    return DiceCount(BASE_DICE[unit.kind], tuple(additions), tuple(reductions))


def moved_reduction(unit: Unit) -> Modifier:
    """Ordered infantry that moved: −1 die. Infantry that entered forest or buildings "may
    battle at −1 die" (reference §5): the same die, since entering is its move; the reason
    says so."""
    if unit.entered_closed:
        return Modifier(-1, f"moved into {unit.terrain.value} (ordered infantry)",
                        f"{STEP3}; {TERRAIN}")
    return Modifier(-1, "moved (ordered infantry)", STEP3)


def highland_bonus(role: Role) -> bool:
    """"When ordered and during a bonus melee combat"; never battling back or with First
    Strike or Ambush."""
    return (role.ordered or role.bonus) and not role.battling_back and not role.card


def terrain_reductions(unit: Unit, target: Unit) -> list[Modifier]:
    """Battling out of forest or buildings (cavalry −2, artillery −1), and attacking into
    them (cavalry −2), each counted: "forest to forest counts the battling-out reduction
    only", and so, alike, does buildings to buildings (docs/tricorne.md)."""
    found = []
    if unit.terrain in CLOSED:
        found.append(Modifier(-{Arm.CAVALRY: 2, Arm.ARTILLERY: 1}.get(unit.arm, 0),
                              f"battling out of {unit.terrain.value}", TERRAIN))
    if target.terrain in CLOSED and target.terrain is not unit.terrain:
        found.append(Modifier(-2 if unit.arm is Arm.CAVALRY else 0,
                              f"attacking into {target.terrain.value}", TERRAIN))
    return [modifier for modifier in found if modifier.value]
