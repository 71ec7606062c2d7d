"""The dice a command uses: typed in by the player, or rolled by the bot."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rules.core.dice import DiceSource, RandomSource, ScriptedSource, parse_dice
from rules.core.records import Resolution


@dataclass(frozen=True)
class Rolled:
    resolution: Resolution
    note: str


def resolve_with(dice: str | None, procedure: Callable[[DiceSource], Resolution]) -> Rolled:
    """Run a procedure on typed-in dice (every die must be used) or on fresh random dice."""
    if dice is None or not dice.strip():
        return Rolled(procedure(RandomSource()), "Dice rolled by Huzzah")
    source = ScriptedSource(parse_dice(dice))
    resolution = procedure(source)
    source.finish()
    return Rolled(resolution, f"Dice typed in: {dice.strip()}")
