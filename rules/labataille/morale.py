"""Morale checks of the assault (step 3, and the Huzzah's second check in step 5).

A d66 roll, modified in base-6 steps, passes when it exceeds the stack's morale (reference
A.1 and A.2). The modifiers the players' charts give come from a chart pack or from the
stack's ``mod``; the published standing modifiers and the leader's value are applied here.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from rules.core.dice import D66, DiceSource, d66_add, d66_value, plain_readings
from rules.core.records import Modifier, ResolutionBuilder, Roll
from rules.labataille.charts import ChartPack, Table
from rules.labataille.published import (
    DISORDERED_INFANTRY,
    LEADER_SOURCE,
    MORALE_SOURCE,
    ROUTED,
)
from rules.labataille.units import TEXT, Arm, Formation, Order, Stack


class Check(StrEnum):
    ATTACKER = "attacker"  # the Attacker Morale Check Modifiers Chart
    DEFENDER = "defender"  # the Defender Morale Check Modifiers Chart (and the Huzzah's)
    STAND = "stand"  # the Roll to Stand vs. Cavalry Modifiers Charts
    REACTION = "reaction"  # a Reaction Charge: the standing modifiers and the player's `mod`


@dataclass(frozen=True)
class Outcome:
    stack: Stack
    roll: Roll
    passed: bool


def modifiers(stack: Stack, check: Check, pack: ChartPack | None, *, distance: bool
              ) -> tuple[list[Modifier], list[str], list[str]]:
    """The check's modifiers, the notes a player needs, and the modifiers the rules call
    for that no chart gave (counted as none, and said so in the reply's footer)."""
    found: list[Modifier] = []
    notes: list[str] = []
    if stack.leader and stack.leader_value:
        found.append(Modifier(stack.leader_value, f"{stack.leader}", LEADER_SOURCE))
    situations = None
    if pack is not None:
        situations = {Check.ATTACKER: pack.attacker_situations,
                      Check.DEFENDER: pack.defender_situations,
                      Check.STAND: pack.stand_situations}.get(check)
    # A chart that prints the stack's state ("disordered −3") carries the standing modifier
    # itself: counted once, from the chart.
    if situations is None or situations.values.get(stack.state.value) is None:
        found += _standing(stack)
    found += _situations(stack, situations)
    missing: list[str] = []
    if check is Check.STAND and stack.formation is Formation.SQUARE:
        notes.append(square_stand_note(stack, pack, situations))
        if "must be given" in notes[-1]:
            missing.append(f"no square modifier to stand: none counted for {stack.name}; "
                           f"give it in `mod` ({SQUARE_STAND_PUBLISHED})")
    if distance:
        found_, notes_ = distance_modifier(stack, pack)
        found += found_
        notes += notes_
        # Each note of ``distance_modifier`` says a modifier no chart gave.
        missing += [f"no distance modifier: {note}" for note in notes_]
    elif check is Check.ATTACKER and stack.distance is not None:
        notes.append(f"{stack.name}: no distance modifier (locked in the firefight)")
    if stack.mod:
        found.append(Modifier(stack.mod, "chart modifiers (given)", "the players' charts"))
    return found, notes, missing


def distance_modifier(stack: Stack, pack: ChartPack | None
                      ) -> tuple[list[Modifier], list[str]]:
    """The Attacker Morale Check chart's distance modifier, from the pack's table; what no
    table (or no `distance`) gave is said in a note, never taken as 0 silently."""
    table = pack.distance if pack is not None else None
    elsewhere = ("give `distance=N`" if table is not None
                 else "without a chart pack, give it in `mod`" if pack is None
                 else "the chart pack has no distance table: give it in `mod`")
    if stack.distance is None:
        return [], [f"{stack.name}: no `distance` given: no distance modifier ({elsewhere})"]
    if table is None:
        return [], [f"{stack.name}: distance {stack.distance} has no modifier "
                    + ("without a chart pack (give it in `mod`)" if pack is None
                       else "in the chart pack (give it in `mod`)")]
    value = table.values.get(str(stack.distance))
    if value is None:
        return [], [f"{stack.name}: the chart pack has no distance {stack.distance}"]
    return ([Modifier(int(value), f"distance {stack.distance}", table.provenance)]
            if value else []), []


# Reference A.7's Roll to Stand modifier for a square: said, never applied (the revised
# chart's is the players').
SQUARE_STAND_PUBLISHED = "published charts: +12 at Talavera and most games, +6 in later ones"


def square_stand_note(stack: Stack, pack: ChartPack | None, table: Table | None) -> str:
    """How a square counts in its Roll to Stand: the chart pack's square situation when it
    has one, else that the modifier must be given."""
    said = f"{stack.name} is in Square: "
    if table is not None and table.values.get(Formation.SQUARE.value) is not None:
        value = int(table.values[Formation.SQUARE.value])
        return said + f"{value:+d} from the chart pack's Roll to Stand chart ({table.provenance})"
    if pack is None:
        return said + ("no chart pack, so the Roll to Stand chart's square modifier must be "
                       f"given in `mod` ({SQUARE_STAND_PUBLISHED})")
    lacking = ("the chart pack's Roll to Stand chart has no square modifier" if table is not None
               else "the chart pack has no Roll to Stand chart")
    return said + f"{lacking}: it must be given in `mod` ({SQUARE_STAND_PUBLISHED})"


def _standing(stack: Stack) -> list[Modifier]:
    """The published standing modifiers: disordered infantry −3, routed −6 (A.2)."""
    if stack.state is Order.DISORDERED and stack.arm is Arm.INFANTRY:
        return [Modifier(DISORDERED_INFANTRY, "disordered infantry", MORALE_SOURCE)]
    if stack.state is Order.ROUTED:
        return [Modifier(ROUTED, "routed", MORALE_SOURCE)]
    return []


def _situations(stack: Stack, table: Table | None) -> list[Modifier]:
    if table is None:
        return []
    words = (stack.formation.value, stack.state.value)
    return [Modifier(int(table.values[w]), w, table.provenance) for w in words
            if table.values.get(w)]


def morale_check(stack: Stack, check: Check, dice: DiceSource, pack: ChartPack | None,
                 out: ResolutionBuilder, *, distance: bool = False,
                 label: str = "morale") -> Outcome:
    """``distance``: the stack applies the Attacker Morale Check chart's distance modifier
    (an attacker, or a new unit joining a firefight on either side). A modifier no chart
    gave is named among the result's defaults on ``out``."""
    found, notes, missing = modifiers(stack, check, pack, distance=distance)
    for said in missing:
        out.default(said)
    faces = dice.roll(D66(), f"{stack.name} {label}")
    natural = d66_value(faces)  # type: ignore[arg-type]
    total = d66_add(natural, sum(m.value for m in found))
    passed = total > stack.morale
    roll = Roll(f"{stack.name} {label}", "d66", faces, modifiers=tuple(found), total=total,
                target=f"> {stack.morale}", result="passes" if passed else "fails",
                notes=tuple(notes), readings=plain_readings(faces))
    return Outcome(stack, roll, passed)


def shift_source(step: str) -> str:
    """Where the shift die's table is printed: the step that rolls it (an assault's 3b, a
    charge's Roll to Stand, step 3)."""
    return f"{TEXT} step {step}"


def shift_count(face: int) -> int:
    """The defender's left shifts: {1-2: 0, 3-4: 1, 5-6: 2}."""
    return (face - 1) // 2
