"""Resolving a rules procedure for a command: as a quick lookup, or inside a battle."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.battles.errors import BattleError
from bot.battles.store import BattleTx
from rules.core.dice import DiceSource, RandomSource, ScriptedSource, parse_dice
from rules.core.records import Resolution
from rules.core.roster import describe_changes
from rules.registry import RULESETS


@dataclass(frozen=True)
class Played:
    resolution: Resolution
    dice_note: str
    changes: list[str] | None = None  # roster changes, in a battle
    seq: int | None = None


def rules_for(ruleset: str):
    rules = RULESETS[ruleset].battle
    assert rules is not None, ruleset
    return rules


def roll_typed_or_random(
    dice: str | None, prepared: Callable[[DiceSource], Resolution]
) -> tuple[Resolution, str]:
    """Typed-in dice (every one must be used) or fresh random dice."""
    if dice and dice.strip():
        source = ScriptedSource(parse_dice(dice))
        resolution = prepared(source)
        source.finish()
        return resolution, f"Dice typed in: {dice.strip()}"
    return prepared(RandomSource()), "Dice rolled by Huzzah"


def quick_lookup(ruleset: str, procedure: str, options: Mapping[str, Any],
                 dice: str | None) -> Played:
    prepared = rules_for(ruleset).prepare(procedure, options, None, {})
    resolution, note = roll_typed_or_random(dice, prepared)
    return Played(resolution, note)


def check_ruleset(tx: BattleTx, ruleset: str, command: str) -> None:
    battle = tx.require_battle()
    if battle.ruleset != ruleset:
        title = RULESETS[battle.ruleset].title
        raise BattleError(
            f"This channel's battle, {battle.name}, is played with {title}.",
            hint=f"Use `/{command} {battle.ruleset}` here, or run the lookup in another channel.",
        )


async def play_in_battle(
    tx: BattleTx,
    procedure: str,
    options: Mapping[str, Any],
    dice: str | None,
    *,
    kind: str = "resolution",
    forced: DiceSource | None = None,
    summary_prefix: str = "",
) -> Played:
    """Resolve against the roster, apply the effects, and record it all as one event."""
    battle = tx.require_battle()
    rules = rules_for(battle.ruleset)
    roster = await tx.roster()
    prepared = rules.prepare(procedure, options, roster, dict(battle.settings or {}))
    if forced is not None:
        resolution, note = prepared(forced), "Result set by the GM"
    elif dice and dice.strip():
        resolution, note = roll_typed_or_random(dice, prepared)
    else:
        resolution, note = _roll_with_queue(tx, prepared)
    after, changes = rules.apply_effects(resolution.effects, roster)
    await tx.write_roster(after)
    lines = describe_changes(changes, rules.strength_label)
    record = resolution.to_dict()
    record["roster_changes"] = lines
    event = await tx.record(
        kind,
        f"{summary_prefix}{resolution.headline}",
        request={"ruleset": battle.ruleset, "procedure": procedure, "options": dict(options)},
        resolution=record,
    )
    return Played(resolution, note, lines, event.seq)


def _roll_with_queue(
    tx: BattleTx, prepared: Callable[[DiceSource], Resolution]
) -> tuple[Resolution, str]:
    """Dice the GM queued come first; whatever else the procedure needs is rolled."""
    battle = tx.require_battle()
    queue = list(battle.dice_queue or [])
    if not queue:
        return prepared(RandomSource()), "Dice rolled by Huzzah"
    source = ScriptedSource(queue, fallback=RandomSource())
    resolution = prepared(source)
    tx.touch(battle)
    battle.dice_queue = queue[source.consumed :]
    used = source.consumed
    return resolution, f"{used} {'die' if used == 1 else 'dice'} queued by the GM, the rest rolled"
