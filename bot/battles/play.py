"""Resolving a rules procedure for a command: as a quick lookup, or inside a battle."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.battles.errors import BattleError
from bot.battles.store import BattleTx
from rules.core.decisions import Question, Undecided
from rules.core.dice import (
    DiceFaces,
    DiceSource,
    Face,
    RandomSource,
    RecordingSource,
    ScriptedSource,
    parse_dice,
)
from rules.core.records import Resolution, Step
from rules.core.registry import BattleRules
from rules.core.roster import Roster, describe_changes
from rules.registry import RULESETS


@dataclass(frozen=True)
class Played:
    resolution: Resolution
    dice_note: str
    changes: list[str] | None = None  # roster changes, in a battle
    seq: int | None = None
    battle_id: int | None = None  # in a battle: which, for the buttons under the result


class Paused(Exception):
    """A procedure stopped at a question nobody has answered yet.

    ``faces`` are the dice rolled before it, to replay once it is answered (typed-in dice are
    replayed from their text instead); ``queue`` is the GM's dice queue without the dice it
    gave, or None when it gave none.
    """

    def __init__(self, asked: Undecided, faces: list[Face], queue: list[Any] | None,
                 dice_note: str) -> None:
        super().__init__(asked.question.text)
        self.question: Question = asked.question
        self.steps: tuple[Step, ...] = asked.steps
        self.faces = faces
        self.queue = queue
        self.dice_note = dice_note


def rules_for(ruleset: str) -> BattleRules:
    rules = RULESETS[ruleset].battle
    assert rules is not None, ruleset
    return rules


def roll_typed_or_random(
    dice: str | None, prepared: Callable[[DiceSource], Resolution], faces: DiceFaces,
    replay: Sequence[Face] | None = None,
) -> tuple[Resolution, str]:
    """Typed-in dice (every one must be used) or fresh random dice, after ``replay`` (the
    dice rolled before a question, when playing on after its answer)."""
    if dice and dice.strip():
        typed = f"Dice typed in: {dice.strip()}"
        if replay is not None:
            # Played on after an answer: the typed dice were typed before the question, so
            # the path the answer took may need more (rolled) or fewer (left unused).
            source = ScriptedSource(parse_dice(dice, faces), fallback=RandomSource())
            resolution = _until_asked(prepared, source, None, typed)
            return resolution, typed + (f", then {source.fresh} rolled by Huzzah"
                                        if source.fresh else "")
        source = ScriptedSource(parse_dice(dice, faces))
        resolution = _until_asked(prepared, source, None, typed)
        source.finish()
        return resolution, typed
    random = RandomSource()
    source = ScriptedSource(replay, fallback=random) if replay else random
    return _until_asked(prepared, source, None, "Dice rolled by Huzzah"), "Dice rolled by Huzzah"


def _until_asked(prepared: Callable[[DiceSource], Resolution], source: DiceSource,
                 queue: Callable[[], list[Any] | None] | None, note: str) -> Resolution:
    """Run the procedure; a question on the way pauses it with the dice rolled so far."""
    recorder = RecordingSource(source)
    try:
        return prepared(recorder)
    except Undecided as asked:
        # Asked before any die was rolled: say so, not where dice came from.
        note = note if recorder.faces else "No dice rolled yet"
        raise Paused(asked, recorder.faces, queue() if queue else None, note) from None


def quick_lookup(ruleset: str, procedure: str, options: Mapping[str, Any],
                 dice: str | None, replay: Sequence[Face] | None = None) -> Played:
    rules = rules_for(ruleset)
    prepared = rules.prepare(procedure, options, None, {})
    resolution, note = roll_typed_or_random(dice, prepared, rules.dice_faces, replay)
    return Played(resolution, note)


def check_ruleset(battle_name: str, battle_ruleset: str, ruleset: str, command: str) -> None:
    if battle_ruleset != ruleset:
        title = RULESETS[battle_ruleset].title
        raise BattleError(
            f"This channel's battle, {battle_name}, is played with {title}.",
            hint=f"Use `/{command} {battle_ruleset}` here, or add `lookup:true` for a quick "
                 f"{RULESETS[ruleset].title} lookup that leaves the battle alone.",
        )


@dataclass(frozen=True)
class Move:
    """A procedure played on a battle's roster, worked out and not yet stored."""

    resolution: Resolution
    dice_note: str
    after: Roster
    lines: list[str]  # the roster changes, in words
    queue: list[Any] | None  # the GM's dice queue after the move; None when it was not used
    request: dict[str, Any]
    record: dict[str, Any]


@dataclass(frozen=True)
class BattleFacts:
    """What playing a procedure needs to know of the battle besides its roster."""

    ruleset: str
    settings: Mapping[str, Any]
    phase: str | None
    dice_queue: list[Any]


def plan_move(facts: BattleFacts, roster: Roster, procedure: str, options: Mapping[str, Any],
              dice: str | None, forced: DiceSource | None = None,
              replay: Sequence[Face] | None = None) -> Move:
    """Resolve against the roster and apply the effects, touching no storage: a pure step,
    so the storage layer may run it before it takes any lock.

    ``replay`` are the dice rolled before a question that has now been answered. A question
    not yet answered raises ``Paused``.
    """
    rules = rules_for(facts.ruleset)
    prepared = rules.prepare(procedure, options, roster, dict(facts.settings or {}))
    queue = None
    if forced is not None:
        resolution, note = prepared(forced), "Result set by the GM"
    elif dice and dice.strip():
        resolution, note = roll_typed_or_random(dice, prepared, rules.dice_faces, replay)
    else:
        resolution, note, queue = _roll_with_queue(list(facts.dice_queue or []), prepared,
                                                   replay)
    resolution = _with_phase_warning(resolution, rules, procedure, options, roster, facts.phase)
    after, changes = rules.apply_effects(resolution.effects, roster)
    lines = describe_changes(changes, rules.strength_label)
    record = resolution.to_dict()
    record["roster_changes"] = lines
    request = {"ruleset": facts.ruleset, "procedure": procedure, "options": dict(options)}
    return Move(resolution, note, after, lines, queue, request, record)


def battle_facts(battle: Any, charts: Mapping[str, Any] | None) -> BattleFacts:
    return BattleFacts(battle.ruleset, play_settings(battle.ruleset, battle.settings, charts),
                       battle.phase, list(battle.dice_queue or []))


def play_settings(ruleset: str, settings: Mapping[str, Any] | None,
                  charts: Mapping[str, Any] | None) -> dict[str, Any]:
    """The settings a procedure is prepared with: the battle's, and its chart pack under the
    key its rule set reads it by."""
    played = dict(settings or {})
    spec = rules_for(ruleset).charts
    if charts is not None and spec is not None:
        played[spec.key] = charts
    return played


async def play_in_battle(
    tx: BattleTx,
    procedure: str,
    options: Mapping[str, Any],
    dice: str | None,
    *,
    kind: str = "resolution",
    forced: DiceSource | None = None,
    summary_prefix: str = "",
    replay: Sequence[Face] | None = None,
) -> Played:
    """Resolve against the roster, apply the effects, and record it all as one event."""
    battle = tx.require_battle()
    charts = await tx.charts_row()
    move = plan_move(battle_facts(battle, charts.content if charts else None), await tx.roster(),
                     procedure, options, dice, forced, replay)
    if move.queue is not None:
        tx.touch(battle)
        battle.dice_queue = move.queue
    await tx.write_roster(move.after)
    event = await tx.record(kind, f"{summary_prefix}{move.resolution.headline}",
                            request=move.request, resolution=move.record)
    return Played(move.resolution, move.dice_note, move.lines, event.seq, battle.id)


def _with_phase_warning(resolution: Resolution, rules: BattleRules, procedure: str,
                        options: Mapping[str, Any], roster: Roster,
                        phase: str | None) -> Resolution:
    """The resolution with the rule set's remark on playing it outside its phase, if any."""
    warning = rules.phase_warning(procedure, options, roster, phase) if rules.phase_warning \
        else None
    if warning is None:
        return resolution
    return replace(resolution, notes=(warning, *resolution.notes))


def _roll_with_queue(
    queue: list[Any], prepared: Callable[[DiceSource], Resolution],
    replay: Sequence[Face] | None = None
) -> tuple[Resolution, str, list[Any] | None]:
    """The dice of an answered question's first part, then those the GM queued; whatever
    else the procedure needs is rolled."""
    replay = list(replay or ())
    if not queue and not replay:
        return _until_asked(prepared, RandomSource(), None, "Dice rolled by Huzzah"), \
            "Dice rolled by Huzzah", None
    source = ScriptedSource([*replay, *queue], fallback=RandomSource())

    def queue_left() -> list[Any] | None:
        used = max(0, source.consumed - len(replay))
        return queue[used:] if used else None

    resolution = _until_asked(prepared, source, queue_left, "Dice queued by the GM")
    used = max(0, source.consumed - len(replay))
    return resolution, queue_note(used, source.fresh), queue[used:] if queue else None


def queue_note(queued: int, rolled: int) -> str:
    """``2 dice queued by the GM``, ``2 dice queued by the GM, 1 rolled``: exactly what was used."""
    if queued == 0:
        return "Dice rolled by Huzzah"
    note = f"{queued} {'die' if queued == 1 else 'dice'} queued by the GM"
    return f"{note}, {rolled} rolled" if rolled else note
