"""What a procedure reads from its stacks, checked before any die is rolled: a value the
player left out is never taken as zero or assumed (a stack with no mêlée value is not "0
against 8", a stack with no increments is not one increment that fire destroys). Each
refusal names the stack, the value and how to give it.

Only what the procedure can reach is asked for: stacks that retreat before the assault, or
unsupplied artillery standing alone, leave before any odds or fire; a charge on PGD rolls no
mêlée and meets no fire.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.core.errors import InvalidInput
from rules.core.notation import option_value, possessive
from rules.labataille.units import Arm, Stack

LEADER_HINT = ("A leader's value is a dice modifier for morale and mêlée. In a battle: "
               "`/gm general general:{leader} field:value value:2`.")


def fighting(defenders: Sequence[Stack]) -> list[Stack]:
    """The defenders that may stand to fire and fight: not those that retreat before the
    assault or charge, nor unsupplied artillery alone (it routs at step 2)."""
    return [s for s in defenders if not s.retreats
            and not (s.arm is Arm.ARTILLERY and s.unsupplied and not s.covered)]


def check_assault_needs(attackers: Sequence[Stack], defenders: Sequence[Stack]) -> None:
    """An Infantry Assault or Old Guard Charge: every stack checks morale (its leader's value
    counts), the odds read both sides' mêlée values, and fire takes increments."""
    standing = fighting(defenders)
    if not standing:
        return
    check_leaders([*attackers, *standing])
    check_melee([*attackers, *standing])
    for shooters, targets in ((attackers, standing), (standing, attackers)):
        if any(s.fire is not None for s in shooters):
            check_defence(targets)
            check_increments(targets, "fire")


def check_charge_needs(chargers: Sequence[Stack], targets: Sequence[Stack], *, pgd: bool,
                       cavalry: bool, losses: int) -> None:
    """A Cavalry Charge's mêlée: against PGD, only the pursuit's increments; otherwise the
    targets' roll to stand (infantry and artillery) and both sides' mêlée roll and values,
    defensive fire's increments, and the pursuit's (``losses`` per stack)."""
    standing = list(targets) if pgd else fighting(targets)
    if not pgd and standing:
        check_leaders([*chargers, *standing])
        check_melee([*chargers, *standing])
        if not cavalry and any(s.fire is not None for s in standing):
            check_defence(chargers)
            check_increments(chargers, "defensive fire")
    if losses and not cavalry:
        check_increments(standing, "the pursuit")


def check_defence(targets: Sequence[Stack]) -> None:
    """Stacks fired on: the fire-defence value the fire is read against."""
    bare = [t.name for t in targets if t.defence is None]
    if bare:
        raise InvalidInput(f"{', '.join(bare)}: give `defence=N` (the fire-defence value it "
                           "is fired on with).",
                           hint="On a battle's roster: `/unit edit` with `words:defence=N`. "
                                "In a quick lookup you may instead leave out the `fire` of "
                                "the stacks facing it.")


def check_melee(stacks: Sequence[Stack]) -> None:
    for stack in stacks:
        if stack.melee is None:
            raise InvalidInput(f"{stack.name} has no mêlée value: give it (`melee=12`, the "
                               "stack's total from its counters).",
                               hint="The odds are the attackers' mêlée values against the "
                                    "defenders'. In a battle, `/unit edit` its words.")


def check_increments(stacks: Sequence[Stack], what: str) -> None:
    for stack in stacks:
        if stack.increments is None:
            raise InvalidInput(f"{possessive(stack.name)} increments are not given, and {what} "
                               "may cost it some: give them (`inc=5`).",
                               hint="In a battle they are the unit's strength (`/unit edit "
                                    f"unit:{option_value(stack.name)} strength:5`).")


def check_leaders(stacks: Sequence[Stack]) -> None:
    for stack in stacks:
        if stack.leader and stack.leader_value is None:
            raise InvalidInput(f"{stack.leader}, with {stack.name}, has no value: give it "
                               "(`leader_value=2`).", hint=LEADER_HINT.format(
                                   leader=option_value(stack.leader)))

