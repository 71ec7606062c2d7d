"""Which assault is resolved first: the player with the most assaults chooses first, then the
players alternate; a tie is decided by a die roll (each side rolls a d6, the higher chooses
first, equal rolls are rolled again).

Cavalry-vs-cavalry mêlées are also chosen in turn ("Players alternate choosing which Cavalry
vs. Cavalry Mêlée will be resolved"), but the text does not say who chooses first: the same
rule decides it (project reading, docs/labataille.md)."""

from __future__ import annotations

from rules.core.dice import D6, DiceSource, plain_readings
from rules.core.errors import InvalidInput
from rules.core.names import name_key
from rules.core.records import Resolution, ResolutionBuilder, Roll, Severity
from rules.labataille.units import RULESET, TEXT

MAX_ASSAULTS = 50
MAX_ROUNDS = 20
# What is being ordered: (many, one), as the reply says them.
KINDS = {"assaults": ("assaults", "assault"),
         "cavalry": ("cavalry-vs-cavalry mêlées", "cavalry mêlée")}
CAVALRY_FIRST = ("Who chooses the first cavalry-vs-cavalry mêlée: as for assaults, the side "
                 "with more chooses first, a tie by the dice (the text says only that the "
                 "players alternate): a project reading")


def assault_order(sides: tuple[tuple[str, int], tuple[str, int]], dice: DiceSource,
                  kind: str = "assaults") -> Resolution:
    if kind not in KINDS:
        raise InvalidInput(f"`kind` is one of {', '.join(KINDS)}, not `{kind}`.")
    many, one = KINDS[kind]
    (first, first_count), (second, second_count) = sides
    if name_key(first) == name_key(second):
        raise InvalidInput("Name two different sides.")
    for side, count in sides:
        if not 0 <= count <= MAX_ASSAULTS:
            raise InvalidInput(f"{side}: from 0 to {MAX_ASSAULTS} {many}.")
    out = ResolutionBuilder(RULESET, "order")
    source = f"{TEXT}, Mêlée Segment"
    if not first_count and not second_count:
        # Nobody chooses among none: no die decides it (docs/labataille.md).
        out.step("Order of resolution", f"{first} 0, {second} 0: there is nothing to order.")
        return out.build(f"No {many} to resolve: nothing to order", Severity.NONE)
    if kind == "cavalry":
        source = f"{TEXT}, Cavalry Charge vs. Cavalry Mêlée Procedure"
        out.default(CAVALRY_FIRST)
    if first_count != second_count:
        chooser = first if first_count > second_count else second
        # With none on the other side there is nobody to alternate with.
        then = "then alternate" if first_count and second_count else \
            "the other side has none to alternate with"
        out.step("Order of resolution", f"{first} {first_count}, {second} {second_count}: "
                 f"{chooser} has the most {many} and chooses first; {then} ({source}).")
        if not (first_count and second_count):
            other = second if chooser == first else first
            return out.build(f"{chooser} orders its {many}: {other} has none",
                             Severity.NONE)
        return out.build(f"{chooser} chooses the first {one}", Severity.NONE)
    for _ in range(MAX_ROUNDS):
        a, b = dice.roll(D6(), f"{first} die")[0], dice.roll(D6(), f"{second} die")[0]
        roll = Roll("tie", "1d6 each", (a, b), result=f"{first} {a}, {second} {b}",
                    readings=plain_readings((a, b)))
        if a != b:
            chooser = first if a > b else second  # type: ignore[operator]
            out.step("Order of resolution", f"A tie at {first_count}: the dice decide. "
                     f"{chooser} chooses first; then alternate.", roll)
            return out.build(f"{chooser} chooses the first {one} (tie: the dice decided)",
                             Severity.NONE)
        out.step("Order of resolution", "Equal dice: roll again.", roll)
    raise InvalidInput("The dice tied too many times.", hint="Roll again.")
