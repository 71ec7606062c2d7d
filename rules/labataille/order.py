"""Which assault is resolved first: the player with the most assaults chooses first, then the
players alternate; a tie is decided by a die roll (each side rolls a d6, the higher chooses
first, equal rolls are rolled again)."""

from __future__ import annotations

from rules.core.dice import D6, DiceSource
from rules.core.errors import InvalidInput
from rules.core.records import Resolution, ResolutionBuilder, Roll, Severity
from rules.labataille.units import RULESET, TEXT

MAX_ASSAULTS = 50
MAX_ROUNDS = 20


def assault_order(sides: tuple[tuple[str, int], tuple[str, int]], dice: DiceSource
                  ) -> Resolution:
    (first, first_count), (second, second_count) = sides
    if first.casefold() == second.casefold():
        raise InvalidInput("Name two different sides.")
    for side, count in sides:
        if not 0 <= count <= MAX_ASSAULTS:
            raise InvalidInput(f"{side}: from 0 to {MAX_ASSAULTS} assaults.")
    out = ResolutionBuilder(RULESET, "order")
    source = f"{TEXT}, Mêlée Segment"
    if first_count != second_count:
        chooser = first if first_count > second_count else second
        out.step("Order of resolution", f"{first} {first_count}, {second} {second_count}: "
                 f"{chooser} has the most assaults and chooses first; then alternate "
                 f"({source}).")
        return out.build(f"{chooser} chooses the first assault", Severity.NONE)
    for _ in range(MAX_ROUNDS):
        a, b = dice.roll(D6(), f"{first} die")[0], dice.roll(D6(), f"{second} die")[0]
        roll = Roll("tie", "1d6 each", (a, b), result=f"{first} {a}, {second} {b}")
        if a != b:
            chooser = first if a > b else second  # type: ignore[operator]
            out.step("Order of resolution", f"A tie at {first_count}: the dice decide. "
                     f"{chooser} chooses first; then alternate.", roll)
            return out.build(f"{chooser} chooses the first assault (tie: the dice decided)",
                             Severity.NONE)
        out.step("Order of resolution", "Equal dice: roll again.", roll)
    raise InvalidInput("The dice tied too many times.", hint="Roll again.")
