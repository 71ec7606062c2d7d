"""Resolving a rules procedure for a command: as a quick lookup, or inside a battle."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.battles.errors import OtherRuleSet
from bot.battles.store import BattleTx, rules_for
from rules.core.decisions import Question, Undecided, play_setting_aside, with_cells
from rules.core.dice import (
    DiceFaces,
    DiceSource,
    Face,
    RandomSource,
    RecordingSource,
    ScriptedSource,
    parse_dice,
)
from rules.core.effects import loss_measure
from rules.core.errors import RulesError
from rules.core.fields import unit_parts
from rules.core.names import name_key
from rules.core.notation import counted, split_name
from rules.core.records import Effect, Resolution, Step
from rules.core.registry import BattleRules
from rules.core.roster import Roster, describe_changes
from rules.registry import RULESETS


@dataclass(frozen=True)
class TakenBack:
    """A question a GM's reroll took back with the move that asked it: its event number and
    its words, for the reroll's reply to say (the player it waited on was pinged)."""

    seq: int
    text: str


@dataclass(frozen=True)
class Played:
    resolution: Resolution
    dice_note: str
    changes: list[str] | None = None  # roster changes, in a battle
    seq: int | None = None
    battle_id: int | None = None  # in a battle: which, for the buttons under the result
    # After an answer: the message that asked the question, to become the result (None:
    # not kept, see ``bot.storage.question_messages``).
    question_message: int | None = None
    # The move asked a question on its way: a reroll asks it again, dice or none.
    asked: bool = False
    # A reroll's: the question the rerolled move waited on, taken back with it.
    dropped: TakenBack | None = None
    # After an answer: the move's rolls the answered questions' messages above show.
    above: int = 0


TYPED_ECHO = 30  # characters of typed dice a footer repeats


@dataclass(frozen=True)
class DiceUse:
    """Where a move's dice came from, said in its footer: typed in, queued by the GM, or
    rolled by the bot. Counted over the whole move, the dice before its questions included."""

    typed: str | None = None  # the dice as typed with the command
    queued: int = 0
    rolled: int = 0
    unused: str = ""  # typed dice that the path the answers took did not need

    def plus(self, queued: int, rolled: int) -> DiceUse:
        return replace(self, queued=self.queued + queued, rolled=self.rolled + rolled)

    def note(self, *, finished: bool = True, echo: bool = True) -> str:
        """Where the dice came from, for a result (``finished``) or a question asked on the
        way, before which no die may have been rolled yet; ``echo``: whether typed dice may
        be repeated."""
        if self.typed is not None:
            # Counts said with their noun: "then 1 rolled" after typed faces reads as a 1.
            # Many dice typed are not echoed: each roll's line shows its own, and twenty
            # battle dice would take four lines of a phone again.
            note = "Dice typed in" if not echo or len(self.typed) > TYPED_ECHO else \
                f"Dice typed in: {self.typed}"
            if self.queued:
                note += f", then {counted(self.queued, 'die', 'dice')} queued by the GM"
            if self.rolled:
                note += f", then {counted(self.rolled, 'die', 'dice')} rolled by the bot"
            if self.unused:
                note += f"; left over after the answers: {self.unused}"
            return note
        if self.queued:
            note = f"{counted(self.queued, 'die', 'dice')} queued by the GM"
            return f"{note}, {self.rolled} rolled" if self.rolled else note
        if self.rolled:
            return "Dice rolled by the bot"
        return "No dice rolled" if finished else "No dice rolled yet"

    def to_dict(self) -> dict[str, Any]:
        return {"typed": self.typed, "queued": self.queued, "rolled": self.rolled}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> DiceUse:
        data = data or {}
        return cls(data.get("typed"), int(data.get("queued", 0)), int(data.get("rolled", 0)))


NO_DICE = DiceUse()


class Paused(Exception):
    """A procedure stopped at a question nobody has answered yet.

    ``faces`` are the dice rolled before it, to replay once it is answered (typed-in dice are
    replayed from their text instead); ``use`` says where they came from.
    """

    def __init__(self, asked: Undecided, faces: list[Face], use: DiceUse) -> None:
        super().__init__(asked.question.text)
        self.question: Question = asked.question
        self.steps: tuple[Step, ...] = asked.steps
        self.effects: tuple[Effect, ...] = asked.effects
        self.cells = asked.cells  # where answers given ahead were read: kept with the move
        self.faces = faces
        self.use = use
        # Remarks the battle makes on the move (out of its phase), said with the question.
        self.notes: tuple[str, ...] = ()

    @property
    def dice_note(self) -> str:
        # Asked before any die (a retire and rally, announced "before the attacking unit
        # rolls"), the dice typed for the roll after it are not shown: they would be
        # answered knowing.
        rolled = any(step.rolls for step in self.steps)
        return self.use.note(finished=False, echo=rolled)


def roll_dice(prepared: Callable[[DiceSource], Resolution], faces: DiceFaces, *,
              typed: str | None = None, queue: Sequence[Any] = (),
              replay: Sequence[Face] | None = None,
              before: DiceUse = NO_DICE) -> tuple[Resolution, DiceUse]:
    """Run a procedure on its dice, and say where they came from.

    Typed-in dice come first and must fit exactly when the procedure runs at once. When it
    is played on after an answer (``replay`` given), they were typed before the question,
    so the path the answer took may need more (the GM's ``queue``, then rolled) or fewer
    (named in the note). Without typed dice: the dice rolled before the question
    (``replay``, counted in ``before``), then the GM's ``queue``, then fresh ones. A
    question on the way raises ``Paused``.
    """
    replayed = list(replay or ())
    if typed and typed.strip():
        typed = typed.strip()
        answered = replay is not None
        given = parse_dice(typed, faces)
        # Played on after an answer: every die before the question again (the typed ones it
        # took, then any Huzzah rolled past them), then the typed ones it had not reached.
        # Past the typed dice, as without them: the GM's queue first, then fresh dice.
        queued = ScriptedSource(list(queue), fallback=RandomSource())
        scripted = ScriptedSource([*replayed, *given[len(replayed):]],
                                  fallback=queued if answered else None)

        def typed_use() -> DiceUse:
            return DiceUse(typed, queued=before.queued + queued.consumed,
                           rolled=before.rolled + queued.fresh)

        resolution = _until_asked(prepared, RecordingSource(scripted), typed_use)
        if not answered:
            scripted.finish()
        return resolution, replace(typed_use(), unused=scripted.left())
    if not replayed and not queue:  # nearly every roll: no queue, nothing to replay
        fresh = RecordingSource(RandomSource())
        resolution = _until_asked(prepared, fresh, lambda: before.plus(0, len(fresh.faces)))
        return resolution, before.plus(0, len(fresh.faces))
    source = ScriptedSource([*replayed, *queue], fallback=RandomSource())

    def used() -> DiceUse:
        return before.plus(max(0, source.consumed - len(replayed)), source.fresh)

    resolution = _until_asked(prepared, RecordingSource(source), used)
    return resolution, used()


def _until_asked(prepared: Callable[[DiceSource], Resolution], recorder: RecordingSource,
                 used: Callable[[], DiceUse]) -> Resolution:
    """Run the procedure; a question on the way pauses it with the dice rolled so far. An
    answer given ahead that the dice put out of reach is set aside, the roll kept."""
    try:
        return play_setting_aside(prepared, recorder)
    except Undecided as asked:
        raise Paused(asked, recorder.faces, used()) from None


def quick_lookup(ruleset: str, procedure: str, options: Mapping[str, Any],
                 dice: str | None, replay: Sequence[Face] | None = None,
                 before: DiceUse = NO_DICE) -> Played:
    rules = rules_for(ruleset)
    prepared = rules.prepare(procedure, options, None, {})
    resolution, use = roll_dice(prepared, rules.dice_faces, typed=dice, replay=replay,
                                before=before)
    return Played(resolution, use.note())


def check_ruleset(battle_name: str, battle_ruleset: str, ruleset: str) -> None:
    if battle_ruleset != ruleset:
        raise OtherRuleSet(battle_name, RULESETS[battle_ruleset].title, battle_ruleset,
                           RULESETS[ruleset].title)


@dataclass(frozen=True)
class Move:
    """A procedure played on a battle's roster, worked out and not yet stored."""

    resolution: Resolution
    dice_note: str
    before: Roster
    after: Roster
    lines: list[str]  # the roster changes, in words
    queue: list[Any] | None  # the GM's dice queue after the move; None when it was not used
    request: dict[str, Any]
    record: dict[str, Any]
    # What befell each general ("Montcalm is killed"): two results that differ only by it
    # read alike in the log otherwise.
    fates: tuple[str, ...] = ()

    @property
    def summary(self) -> str:
        """The log's line: the units the command named, unless the headline names them, and
        what befell a general, unless the headline says it."""
        said = logged_summary(self.resolution.headline, self.request["options"], self.before)
        fates = [fate for fate in self.fates if fate not in said]
        return "; ".join((said, *fates))


@dataclass(frozen=True)
class BattleFacts:
    """What playing a procedure needs to know of the battle besides its roster."""

    ruleset: str
    settings: dict[str, Any]  # with its chart pack (``play_settings``)
    phase: str | None
    dice_queue: list[Any]


def plan_move(facts: BattleFacts, roster: Roster, procedure: str, options: Mapping[str, Any],
              dice: str | None, forced: DiceSource | None = None,
              replay: Sequence[Face] | None = None, before: DiceUse = NO_DICE) -> Move:
    """Resolve against the roster and apply the effects, touching no storage: a pure step,
    so the storage layer may run it before it takes any lock.

    ``replay`` are the dice rolled before a question that has now been answered, ``before``
    where they came from. A question not yet answered raises ``Paused``.
    """
    rules = rules_for(facts.ruleset)
    prepared = rules.prepare(procedure, options, roster, facts.settings)
    queue = facts.dice_queue
    left = None
    if forced is not None:
        # The dice shown are ones that give the result; none were rolled. Where they put an
        # answer given ahead out of reach, it is set aside as the roll set it aside.
        resolution = play_setting_aside(prepared, forced)
        note = "Result set by the GM (dice shown, not rolled)"
    else:
        try:
            resolution, use = roll_dice(prepared, rules.dice_faces, typed=dice, queue=queue,
                                        replay=replay, before=before)
        except Paused as paused:  # the players are told before they answer, not after
            warning = _phase_warning(rules, procedure, options, roster, facts.phase)
            paused.notes = (warning,) if warning else ()
            raise
        note = use.note()
        left = queue_left(queue, use, before)
    warning = _phase_warning(rules, procedure, options, roster, facts.phase)
    if warning is not None:
        resolution = replace(resolution, notes=(warning, *resolution.notes))
    after, changes = rules.apply_effects(resolution.effects, roster)
    lines = describe_changes(changes, rules.wording) + unkept_losses(resolution.effects,
                                                                     roster, rules)
    record = resolution.to_dict()
    record["roster_changes"] = lines
    request = {"ruleset": facts.ruleset, "procedure": procedure,
               "options": with_cells(options, resolution.cells)}
    fates = describe_changes([c for c in changes if c.kind == "general"
                              and c.field in ("status", "wounds")], rules.wording)
    return Move(resolution, note, roster, after, lines, left, request, record, tuple(fates))


def unkept_losses(effects: Sequence[Effect], roster: Roster, rules: BattleRules) -> list[str]:
    """A loss on a unit whose strength the roster does not hold (a GM left it unset): said,
    since the roster keeps it nowhere and the headline's "−2 SP" would seem applied."""
    lost: dict[str, int] = {}
    for effect in effects:
        if not effect.amount or not loss_measure(effect)[0]:
            continue  # most effects of a move: no loss, no look at the roster
        unit = next((u for u in roster.units if not u.gone
                     and name_key(u.name) == name_key(effect.unit)), None)
        if unit is None or rules.strength_of(unit.strength, unit.attributes) is not None:
            continue
        alone, _ = rules.apply_effects([effect], roster)
        if alone.unit(unit.name, allow_gone=True) != unit:
            continue  # kept another way: Le Baton counts casualties apart from figures
        lost[unit.name] = lost.get(unit.name, 0) + effect.amount
    # A roster line is plain text (a unit's name is data): no markup in it.
    return [f"{name} has no {rules.strength_label} on the roster: its loss of {amount} is "
            "not kept (a GM sets its strength with /gm set)"
            for name, amount in lost.items()]


def logged_summary(headline: str, options: Mapping[str, Any], roster: Roster) -> str:
    """``1/45e vs 52nd: Blank: a firefight``: what a log line needs to
    say whom a move concerns, when its headline does not name them all."""
    sides = [names for names in (units_named(value, roster) for value in options.values())
             if names]
    # A whole name: "11/45e routs" does not name 1/45e.
    if all(re.search(rf"(?<!\w){re.escape(name)}(?!\w)", headline)
           for names in sides for name in names):
        return headline
    return f"{' vs '.join(' & '.join(names) for names in sides)}: {headline}"


def units_named(value: Any, roster: Roster) -> list[str]:
    """The roster units an option names (``Béarn: charging; Rangers``), as the roster
    spells them; none for an option that is not a list of units."""
    if not isinstance(value, str):
        return []
    names = []
    for part in unit_parts(value):
        name, _ = split_name(part)
        try:
            names.append(roster.unit(name or part, allow_gone=True).name)
        except RulesError:
            continue
    return names


def queue_left(queue: Sequence[Any], use: DiceUse, before: DiceUse) -> list[Any] | None:
    """The GM's queue without the dice this run took from it; None when it took none."""
    taken = use.queued - before.queued
    return list(queue[taken:]) if taken > 0 else None


def in_phase(ruleset: str, procedure: str, options: Mapping[str, Any],
             phase: str | None) -> dict[str, Any]:
    """A move's options as its battle plays them: with those the rule set takes from the
    battle's phase when they are left out (Le Baton's `phase` of a melee)."""
    fill = rules_for(ruleset).phase_options
    return dict(options) if fill is None else fill(procedure, options, phase)


def play_settings(ruleset: str, settings: Mapping[str, Any] | None,
                  charts: Mapping[str, Any] | None) -> dict[str, Any]:
    """The settings a procedure is prepared with: the battle's, and its chart pack under the
    key its rule set reads it by."""
    played = dict(settings or {})
    spec = rules_for(ruleset).charts
    if charts is not None and spec is not None:
        played[spec.key] = charts
    return played


MOVE = "move"
"""The request key that names a move's first event, on the events of a move that stopped
for questions: reroll and override take back the move whole."""


def play_in_battle(
    tx: BattleTx,
    procedure: str,
    options: Mapping[str, Any],
    dice: str | None,
    *,
    kind: str = "resolution",
    forced: DiceSource | None = None,
    summary_prefix: str | Callable[[str], str] = "",
    replay: Sequence[Face] | None = None,
    before: DiceUse = NO_DICE,
    move: int | None = None,
) -> Played:
    """Resolve against the roster, apply the effects, and record it all as one event.
    ``move`` is the first event of the move when this plays on after an answer;
    ``summary_prefix`` leads the log's line, or says what leads it given the result's
    headline (an answer the headline begins with is not said twice)."""
    battle = tx.require_battle()
    settings = play_settings(battle.ruleset, battle.settings, tx.charts_content())
    facts = BattleFacts(battle.ruleset, settings, battle.phase, list(battle.dice_queue or []))
    planned = plan_move(facts, tx.roster(), procedure, options, dice, forced, replay, before)
    if planned.queue is not None:
        tx.touch(battle)
        battle.dice_queue = planned.queue
    tx.write_roster(planned.after)
    request = planned.request if move is None else {**planned.request, MOVE: move}
    if callable(summary_prefix):
        summary_prefix = summary_prefix(planned.resolution.headline)
    event = tx.record(kind, f"{summary_prefix}{planned.summary}",
                            request=request, resolution=planned.record)
    return Played(planned.resolution, planned.dice_note, planned.lines, event.seq, battle.id,
                  asked=move is not None)


def _phase_warning(rules: BattleRules, procedure: str, options: Mapping[str, Any],
                   roster: Roster, phase: str | None) -> str | None:
    """The rule set's remark on playing the procedure outside its phase, if any."""
    if rules.phase_warning is None:
        return None
    return rules.phase_warning(procedure, options, roster, phase)
