"""Records of a resolution: steps, rolls, modifiers, and effects on units as data.

A resolution is what a procedure returns: the steps a player would walk through at
the table (each with its rolls and its outcome in words), a headline, and the
effects on units as plain data, so that battle state can apply them and undo them.
Everything here is immutable and turns into plain JSON with ``to_dict``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum
from typing import Any

from rules.core.decisions import Answer, Answers, Question, Undecided
from rules.core.dice import D66, Faces, Reading, d66_value, plain_face
from rules.core.effects import effect_words

D66_KIND = D66().describe()  # "d66": the kind a Roll record of a d66 carries


@dataclass(frozen=True)
class Modifier:
    """A number added to a roll, with the reason the rules give and where the value comes from."""

    value: int
    reason: str
    source: str = ""

    def signed(self) -> str:
        return f"{self.value:+d}".replace("-", "−")


@dataclass(frozen=True)
class Roll:
    """One roll as made: the dice, every modifier, the total and what it was read against."""

    label: str
    kind: str
    dice: Faces
    modifiers: tuple[Modifier, ...] = ()
    total: int | None = None
    target: str | None = None
    result: str | None = None
    notes: tuple[str, ...] = ()
    # Modifiers that change the number rolled against (a morale threshold), not the dice.
    target_modifiers: tuple[Modifier, ...] = ()
    # For dice read one by one against a target number: how many met it. ``modifiers`` then
    # apply to each die.
    hits: int | None = None
    # How each die was read, one per die: ``plain_readings(dice)`` for dice read as they
    # fall, ``pool_readings`` for dice read one by one against a number.
    readings: tuple[Reading, ...] = field(kw_only=True)
    # How many dice were rolled and why, where a rule set works the number out ("5 dice: 2
    # highland, +1 full strength"): said on the reply's roll line, where a player checks
    # the dice; the Steps say it in ``notes``.
    count: str = field(default="", kw_only=True)

    def __post_init__(self) -> None:
        if len(self.readings) != len(self.dice):
            raise ValueError(f"{self.label}: {len(self.dice)} dice but "
                             f"{len(self.readings)} readings")

    @property
    def natural(self) -> int:
        """What the dice read before any modifier: a d66 of 4 then 3 reads 43; other dice
        sum their counted pips (symbols count nothing)."""
        if self.kind == D66_KIND and len(self.dice) == 2:
            return d66_value(self.dice)  # type: ignore[arg-type]
        return sum(face for face, reading in zip(self.dice, self.readings, strict=True)
                   if isinstance(face, int) and reading is not Reading.DROPPED)


@dataclass(frozen=True)
class Step:
    """One step of a procedure: a title, its rolls and its outcome in words."""

    title: str
    outcome: str
    rolls: tuple[Roll, ...] = ()


CHECK = "Check"
"""The start of a note said with the result (``ResolutionBuilder.check``)."""


class EffectKind(StrEnum):
    """The core vocabulary of effect kinds: they read the same in every rule set
    (``rules.core.effects``). A rule set adds its own with :func:`effect_kinds`."""

    DAMAGE = "damage"
    MARKER_SET = "marker_set"
    MARKER_CLEARED = "marker_cleared"
    MOVED = "moved"
    REMOVED = "removed"
    LEADER_CASUALTY = "leader_casualty"
    ENGAGEMENT_STARTED = "engagement_started"
    ENGAGEMENT_ENDED = "engagement_ended"


class _Kinds(StrEnum):
    """A rule set's kinds travel (to a worker process and back) as their plain text: the
    enum is made at run time, and ``Effect.kind`` compares equal either way."""

    def __reduce_ex__(self, protocol: Any) -> tuple[type[str], tuple[str]]:
        return str, (str(self.value),)


def effect_kinds(**own: str) -> type[StrEnum]:
    """A rule set's effect kinds, the core's and its own, as one enum: ``E.DAMAGE`` and
    ``E.CASUALTIES`` side by side. Its own kinds are known by the rule set's key only (its
    entry declares their texts), so two rule sets may give a kind the same name."""
    members = {kind.name: kind.value for kind in EffectKind} | own
    return _Kinds("EffectKind", members)  # type: ignore[return-value]


@dataclass(frozen=True)
class Effect:
    """A change to one unit (or general), as data: ``unit`` names who it falls on.

    ``measure`` is the unit a number counts in (``"`` or ``hexes`` for a move, ``SP`` or
    ``blocks`` for damage), ``direction`` where a move goes (``back``, ``toward 52nd``).
    """

    kind: str
    unit: str
    amount: int | None = None
    detail: str = ""
    value: str | None = None  # data some kinds carry: a new formation, a melee opponent
    measure: str | None = None
    direction: str | None = None
    # The key of the rule set whose procedure made it: its own kinds read as it declared
    # them. Not part of what the effect is (two rule sets' "routs" compare equal).
    ruleset: str = field(default="", compare=False, kw_only=True)

    def describe(self) -> str:
        """``Béarn routs``; nothing for a rule set's bookkeeping, which has no words (a
        unit that has shot this turn: the volley says it)."""
        words = effect_words(self)
        if not words:
            return ""
        return f"{self.unit}{words}" if words.startswith(":") else f"{self.unit} {words}"


class Severity(IntEnum):
    """How hard the result falls, for colour and sorting; not a rules term."""

    NONE = 0
    MINOR = 1
    MAJOR = 2
    DECISIVE = 3


@dataclass(frozen=True)
class Resolution:
    """A procedure's whole result."""

    ruleset: str
    procedure: str
    headline: str
    severity: Severity
    steps: tuple[Step, ...]
    effects: tuple[Effect, ...] = ()
    notes: tuple[str, ...] = ()
    # Project defaults (values the rules text does not print) that decided this outcome:
    # said in the reply's footer.
    defaults: tuple[str, ...] = ()
    # Answers given ahead that no question took (``chart=DR1`` for ``chart_result``, or a
    # question this path never reached): said beside the result, since they changed nothing.
    unused: tuple[str, ...] = ()
    # Where the answers given ahead to chart questions were read (``Answers.cells``): the
    # bot keeps them with the move (``rules.core.decisions.CELLS``).
    cells: Mapping[str, list[list[str]]] = field(default_factory=dict, compare=False,
                                                 hash=False)

    @property
    def rolls(self) -> tuple[Roll, ...]:
        """Every roll made, step by step: none for a result the rules decide without dice."""
        return tuple(roll for step in self.steps for roll in step.rolls)

    def to_dict(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset,
            "procedure": self.procedure,
            "headline": self.headline,
            "severity": self.severity.name.lower(),
            "steps": [_step_dict(step) for step in self.steps],
            "effects": [_effect_dict(effect) for effect in self.effects],
            "notes": list(self.notes),
        } | ({"defaults": list(self.defaults)} if self.defaults else {}) \
            | ({"unused": list(self.unused)} if self.unused else {})


def _step_dict(step: Step) -> dict[str, Any]:
    return {
        "title": step.title,
        "rolls": [_roll_dict(roll) for roll in step.rolls],
        "outcome": step.outcome,
    }


def _roll_dict(roll: Roll) -> dict[str, Any]:
    return {
        "label": roll.label,
        "kind": roll.kind,
        "dice": [plain_face(face) for face in roll.dice],
        "natural": roll.natural,
        "modifiers": [
            {"value": m.value, "reason": m.reason, "source": m.source} for m in roll.modifiers
        ],
        "total": roll.total,
        "target": roll.target,
        "result": roll.result,
        "notes": list(roll.notes),
        "hits": roll.hits,
        "readings": [reading.value for reading in roll.readings],
        "target_modifiers": [
            {"value": m.value, "reason": m.reason, "source": m.source}
            for m in roll.target_modifiers
        ],
    } | ({"count": roll.count} if roll.count else {})


def _effect_dict(effect: Effect) -> dict[str, Any]:
    data = {
        "kind": str(effect.kind),
        "unit": effect.unit,
        "amount": effect.amount,
        "detail": effect.detail,
        "value": effect.value,
    }
    if effect.measure is not None:
        data["measure"] = effect.measure
    if effect.direction is not None:
        data["direction"] = effect.direction
    data["text"] = effect.describe()
    return data


GIVEN_AHEAD = "Choices given ahead"
"""The step saying why an answer given ahead was not taken (shown with the question)."""


@dataclass
class ResolutionBuilder:
    """Collects steps and effects while a procedure runs, then freezes them."""

    ruleset: str
    procedure: str
    steps: list[Step] = field(default_factory=list)
    effects: list[Effect] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    defaults: list[str] = field(default_factory=list)
    answers: Answers = field(default_factory=Answers)  # the players' choices, as given

    def step(self, title: str, outcome: str, *rolls: Roll) -> None:
        self.steps.append(Step(title=title, outcome=outcome, rolls=tuple(rolls)))

    def effect(
        self,
        kind: str,
        unit: str,
        amount: int | None = None,
        detail: str = "",
        value: str | None = None,
        *,
        measure: str | None = None,
        direction: str | None = None,
    ) -> None:
        self.effects.append(Effect(kind, unit, amount, detail, value, measure, direction,
                                   ruleset=self.ruleset))

    def note(self, text: str) -> None:
        self.notes.append(text)

    def check(self, text: str) -> None:
        """A note the reply says beside the result, not only in its steps: what was typed
        reads like a slip (``Check: …``), though the rules allow it."""
        self.notes.append(f"{CHECK}: {text}")

    def default(self, text: str) -> None:
        """A project default that decided the outcome (once each)."""
        if text not in self.defaults:
            self.defaults.append(text)

    def ask(self, question: Question) -> Answer:
        """A player's choice; unanswered, the procedure stops here with what it has done."""
        try:
            return self.answers.decide(question)
        except Undecided as undecided:
            if undecided.out_of_reach is not None:
                return self._out_of_reach(question, undecided)
            if undecided.set_aside is not None:
                self.step(GIVEN_AHEAD, f"The answer given ahead, {undecided.set_aside}, "
                          f"does not fit “{question.text}”: it is asked instead.")
            if undecided.passed_over is not None:
                self.step(GIVEN_AHEAD, f"The answer given ahead, "
                          f"{undecided.passed_over}, is not the mover's to give: “{question.text}” "
                          "is asked of its player.")
            if undecided.read_elsewhere is not None:
                chart = question.cell[0] if question.cell else "chart"
                self.step(GIVEN_AHEAD, f"The answer given ahead, {undecided.read_elsewhere}, "
                          f"was read at another cell of the {chart} chart: it is not "
                          "taken here.")
            raise Undecided(question, tuple(self.steps), undecided.set_aside,
                            tuple(self.defaults), effects=tuple(self.effects),
                            cells=self.answers.cells) from None

    def _out_of_reach(self, question: Question, undecided: Undecided) -> Answer:
        """An answer given ahead that the dice put out of reach, set aside: said, and the
        question asked, or with one answer left, that one taken."""
        why = f" {undecided.out_of_reach}" if undecided.out_of_reach else ""
        said = f"The answer given ahead, {undecided.set_aside}, no longer applies:{why}"
        if len(question.answers) == 1:
            only = self.answers.only(question)
            self.step(GIVEN_AHEAD, f"{said} “{only.label}” is the only answer left to "
                                   f"“{question.text}”.")
            return only
        self.step(GIVEN_AHEAD, f"{said} “{question.text}” is asked instead.")
        raise Undecided(question, tuple(self.steps), undecided.set_aside,
                        tuple(self.defaults), effects=tuple(self.effects),
                        cells=self.answers.cells, out_of_reach=undecided.out_of_reach)

    def build(self, headline: str, severity: Severity) -> Resolution:
        return Resolution(
            ruleset=self.ruleset,
            procedure=self.procedure,
            headline=headline,
            severity=severity,
            steps=tuple(self.steps),
            effects=tuple(self.effects),
            notes=tuple(self.notes),
            defaults=tuple(self.defaults),
            unused=tuple(self.answers.unused()),
            cells={key: list(read) for key, read in self.answers.cells.items()},
        )
