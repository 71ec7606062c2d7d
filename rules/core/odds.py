"""The odds of every outcome of a procedure, before anyone rolls.

A player about to charge wants to know what the charge is likely to do. The engine can say so
exactly, because a procedure never rolls for itself: ``ReplaySource`` replays a prefix of dice
and stops at the first roll past it, and every ``RollKind`` lists its outcomes with their exact
probabilities. Running the procedure once per node of that tree and multiplying the
probabilities along each path gives every distinct result with an exact ``Fraction``; the
fractions of a finished walk sum to exactly 1.

The procedure is a black box, so the walk cannot be cleverer than the tree, except where the
rules say how they read their dice. A pool read die by die (``D6Pool``, ``BattleDice``)
branches once per result up to order, weighted by its orderings (``dice.branch_outcomes``), so
eight d6 cost 1,287 runs, not 1,679,616; a pool read only as hits (``D6Pool.only_hits``), or
with faces read alike (``BattleDice.alike``), once per reading; and first rolls a rule set
groups (``prepared.with_roll_groups``: a Fire at Will melee reads each side's dice only as its
highest score and who a loss falls on) once per group. Otherwise the walk stays correct and is
bounded: a leaf budget and a ``time.monotonic()`` deadline. A short walk is tried first; a
tree it does not finish is probed at random (Knuth's estimator), so a walk that cannot finish
is not started. When the tree is too large the answer
is a Monte Carlo estimate from seeded random resolutions, each outcome with a 95% Wilson score
interval, and the record says it is not exact and how many samples it rests on.

A question a player answers mid-procedure (``Undecided``) is a choice, not a chance: the odds
are given separately for each answer. An answer path is a set of (question, answer) pairs.
Every node of the walk (every random resolution of an estimate) is run once for all the
answer paths it stands for, and a question splits them: dice that never meet a question are
not rolled again for each answer to it. A question is told apart by its key and its allowed
answers, since the same key may offer different answers on different dice (a bonus melee's
targets depend on who is still standing). Answers the request already gives are used as
given and not split on; a question with one allowed answer is no choice and is not either.
Where the dice put an answer given ahead out of reach (``OutOfReach``: the unit a bonus melee
would attack has left the field), that path goes on as if it had not been given, forking on
the answers the question offers there, as players read the odds: not a result of its own.

Expected losses come only from effects that count a loss in a number (the core's ``damage``,
and the kinds a rule set declares in its entry's ``losses``); an effect without a numeric loss
(a rout, a unit removed) is left out rather than given a made-up weight.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from rules.core.decisions import (
    Answer,
    Answers,
    Asking,
    NotAnAnswer,
    OutOfReach,
    Question,
    Undecided,
)
from rules.core.dice import (
    DiceSource,
    Faces,
    RandomSource,
    RollKind,
    branch_outcomes,
)
from rules.core.effects import effect_words, loss_measure, plural
from rules.core.errors import InvalidInput, RulesError
from rules.core.prepared import (
    PROBES,
    Prepared,
    RollGroups,
    label_of,
    roll_groups,
)
from rules.core.records import Effect, Resolution, Severity
from rules.core.registry import RuleSet, checked_request

MAX_LEAVES = 20_000
"""Paths walked before the walk gives up and samples instead: a run costs about 0.1 ms, so
the default walk takes a few seconds at most."""
SAMPLES = 10_000
"""Random resolutions behind an estimate: a 95% interval of about ±1 point at 50%."""
MIN_SAMPLES = 200
"""Samples taken even past the deadline, so an estimate is never empty (every answer path
counts every sample)."""
MAX_BRANCHES = 64
"""Answer paths at most: each one costs a walk or a set of samples of its own, and a player
reads a handful, not hundreds; past it the request must give some of its answers."""
QUICK_WALK_LEAVES = 256
"""Paths walked before any probe is made: most fights have fewer."""
WALK_SHARE = 0.75
"""The part of the time to the deadline an exact walk may take before it gives way."""
ESTIMATE_MARGIN = 4
"""How many times the probes' estimate of the paths a walk may visit before it gives way to
sampling: the estimate is close for most trees (within a factor of two for every documented
example), but a roll made again on a tie makes a tree without end that the probes, which
rarely tie twice, read as small; walked whole, it would spend its time and then sample."""
Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""
REFUSED = "refused"
"""The group of a path on which the procedure stops with a rules error after dice were rolled
(dice tied too many times): a result in its own right, so the odds still sum to 1."""

AnswerPath = tuple[tuple[str, str], ...]
"""(question key, answer key) pairs: the choices a distribution holds for."""
_Decision = tuple[str, tuple[str, ...]]  # a question: its key and its allowed answers
_Given = tuple[tuple[str, str], ...]  # the answers given so far on one path, in order
# The askings on one path whose answers given ahead the dice put out of reach (``OutOfReach``).
_Aside = frozenset[Asking]


# --- records -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Choice:
    """One answer on an answer path, with the words a player reads."""

    question: str  # the question's key: ``counter_charge``
    text: str  # ``Does Hussars counter-charge?``
    answer: str  # the answer's key: ``stand``
    label: str  # ``Stand``
    unit: str | None = None  # the unit whose player answers; None: the GM or whoever rolled
    by: str = "player"  # the role that answers: attacker, defender, player, gm


@dataclass(frozen=True)
class OutcomeOdds:
    """One distinct outcome: what happens to the units, and how likely it is.

    ``probability`` is exact when the distribution is; otherwise it is the share of samples
    (``count`` of them) and ``interval`` its 95% Wilson score interval.
    """

    group: str  # what a player calls the result: the effects of its shape (``shape_of``),
    # each number as the range it takes; a result with no effect on units, its headline
    label: str  # the resolution's headline: how it came about (``Attackers win by 2: ...``)
    severity: Severity
    probability: Fraction
    count: int | None = None
    interval: tuple[float, float] | None = None
    effects: str = ""  # the effects exactly, numbers and all (``prepared.label_of``)
    changes: tuple[Effect, ...] = ()  # those effects as data (``odds_glance`` reads them)
    # A chart the player reads (``Question.cell``): the result is where the dice landed.
    cell: tuple[str, str, str] | None = None

    @property
    def percent(self) -> float:
        return float(self.probability * 100)


@dataclass(frozen=True)
class GroupOdds:
    """The outcomes that share a headline, most likely first, and their total."""

    group: str
    probability: Fraction
    outcomes: tuple[OutcomeOdds, ...]
    count: int | None = None
    interval: tuple[float, float] | None = None

    @property
    def percent(self) -> float:
        return float(self.probability * 100)


@dataclass(frozen=True)
class ExpectedLoss:
    """The mean loss of one unit (or one side, ``unit`` None), in the unit it counts in."""

    unit: str | None
    side: str | None
    measure: str
    expected: Fraction


@dataclass(frozen=True)
class Distribution:
    """Every distinct outcome for one answer path, most likely first."""

    answers: tuple[Choice, ...]
    outcomes: tuple[OutcomeOdds, ...]
    exact: bool
    samples: int | None = None  # the number of random resolutions, when estimated
    losses: tuple[ExpectedLoss, ...] = ()  # per unit
    side_losses: tuple[ExpectedLoss, ...] = ()  # per side, where the sides are known

    @property
    def path(self) -> AnswerPath:
        return tuple((c.question, c.answer) for c in self.answers)

    @property
    def total(self) -> Fraction:
        """Exactly 1 for an exact distribution (and for an estimate, by construction)."""
        return sum((o.probability for o in self.outcomes), Fraction(0))

    @property
    def groups(self) -> tuple[GroupOdds, ...]:
        found: dict[str, list[OutcomeOdds]] = {}
        for outcome in self.outcomes:
            found.setdefault(outcome.group, []).append(outcome)
        groups = []
        for name, members in found.items():
            probability = sum((o.probability for o in members), Fraction(0))
            count = interval = None
            if self.samples is not None:
                count = sum(o.count or 0 for o in members)
                interval = wilson_interval(count, self.samples)
            groups.append(GroupOdds(name, probability, tuple(members), count, interval))
        return tuple(sorted(groups, key=lambda g: (-g.probability, g.group)))

    def probability_of(self, group: str, label: str | None = None) -> Fraction:
        """The chance of a result (and of this headline of it, if given)."""
        return sum((o.probability for o in self.outcomes
                    if o.group == group and label in (None, o.label)), Fraction(0))


@dataclass(frozen=True)
class Odds:
    """The distributions of a procedure, one per answer path (a single one, with no answers,
    when it asks nothing), and how they were found."""

    branches: tuple[Distribution, ...]
    exact: bool
    leaves: int = 0  # paths the exact walk visited (0: it was skipped)
    samples: int | None = None  # random resolutions per answer path, when estimated
    reason: str = ""  # why the odds are estimated, not exact
    # Project defaults (values the rules text does not print) that decided some result.
    defaults: tuple[str, ...] = ()
    sides: tuple[tuple[str, str], ...] = ()  # (unit, its side) for the units of the fight

    @property
    def by_answers(self) -> dict[AnswerPath, Distribution]:
        return {branch.path: branch for branch in self.branches}

    def branch(self, **answers: str) -> Distribution:
        """The distribution for these answers (``branch(counter_charge="stand")``); with no
        answers, the only one."""
        wanted = set(answers.items())
        found = [b for b in self.branches if wanted <= set(b.path)]
        if len(found) != 1:
            raise KeyError(f"{len(found)} answer paths match {answers}: "
                           f"{[b.path for b in self.branches]}")
        return found[0]


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion: unlike the plain normal interval it stays
    inside [0, 1] and is not empty at 0 or n successes, where rare outcomes sit."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return (max(0.0, min(centre - half, p)), min(1.0, max(centre + half, p)))


def loss_of(effect: Effect) -> tuple[str, int] | None:
    """The numeric loss an effect counts, as (measure, amount); None when it counts none."""
    counts, declared = loss_measure(effect)  # declared by the effect's rule set
    if not counts or effect.amount is None:
        return None
    measure = declared or effect.measure or "strength"
    return plural(measure), effect.amount


# --- tallies -----------------------------------------------------------------------------------

# (shape, or the headline of a result with no effect; the effects exactly; the headline)
_OutcomeKey = tuple[Any, str, str]


@dataclass
class _Tally:
    """What one answer path has reached so far: weights by outcome, weighted losses, and for
    each shape of result its effects and the range each of their numbers took."""

    weights: dict[_OutcomeKey, Any] = field(default_factory=dict)
    severities: dict[_OutcomeKey, Severity] = field(default_factory=dict)
    effects: dict[_OutcomeKey, tuple[Effect, ...]] = field(default_factory=dict)
    cells: dict[_OutcomeKey, tuple[str, str, str]] = field(default_factory=dict)
    losses: dict[tuple[str, str], Any] = field(default_factory=dict)
    shapes: dict[Any, tuple[tuple[Effect, ...], list[tuple[int, int] | None]]] = field(
        default_factory=dict)

    def copy(self) -> _Tally:
        return _Tally(dict(self.weights), dict(self.severities), dict(self.effects),
                      dict(self.cells), dict(self.losses),
                      {k: (effects, list(spans)) for k, (effects, spans) in self.shapes.items()})

    def add(self, reading: _Reading, weight: Any) -> None:
        key = reading.key
        self.weights[key] = self.weights.get(key, 0) + weight
        self.severities.setdefault(key, reading.severity)
        self.effects.setdefault(key, reading.effects)
        if reading.cell is not None:
            self.cells.setdefault(key, reading.cell)
        for loss_key, amount in reading.losses:
            self.losses[loss_key] = self.losses.get(loss_key, 0) + weight * amount
        if not reading.effects:
            return
        found = self.shapes.get(key[0])
        if found is None:
            self.shapes[key[0]] = (reading.effects, [
                None if e.amount is None else (e.amount, e.amount) for e in reading.effects])
            return
        spans = found[1]
        for index, effect in enumerate(reading.effects):
            span = spans[index]
            if span is not None and effect.amount is not None:
                spans[index] = (min(span[0], effect.amount), max(span[1], effect.amount))

    def name(self, shape: Any) -> str:
        """A shape's name as a player reads it (a result with no effect: its headline)."""
        if shape not in self.shapes:
            return str(shape)
        effects, spans = self.shapes[shape]
        return _named(effects, spans)


@dataclass(frozen=True)
class _Reading:
    """A resolution reduced to what the odds count (computed once per distinct result):
    its key is its shape (or, with no effect, its headline) and its headline."""

    key: _OutcomeKey
    severity: Severity
    losses: tuple[tuple[tuple[str, str], int], ...]
    effects: tuple[Effect, ...] = ()
    cell: tuple[str, str, str] | None = None


class _Reader:
    """Reads resolutions into outcomes, describing each distinct set of effects once (the
    words cost more than the lookup)."""

    def __init__(self) -> None:
        self._seen: dict[tuple[str, tuple[Effect, ...], Severity], _Reading] = {}
        self.defaults: dict[str, None] = {}  # project defaults that decided some result

    def read(self, resolution: Resolution) -> _Reading:
        self.defaults.update(dict.fromkeys(resolution.defaults))
        key = (resolution.headline, resolution.effects, resolution.severity)
        found = self._seen.get(key)
        if found is None:
            shape: Any = shape_of(resolution) or resolution.headline
            found = _Reading((shape, label_of(resolution), resolution.headline),
                             resolution.severity, _counted_losses(resolution.effects),
                             worded(resolution))
            self._seen[key] = found
        return found

    @staticmethod
    def refused(error: RulesError) -> _Reading:
        return _Reading((REFUSED, str(error), str(error)), Severity.NONE, ())

    def chart(self, asked: Undecided) -> _Reading:
        """A chart the player reads, where the dice landed: what the cell says is not known,
        so the path ends there (``Question.cell``)."""
        self.defaults.update(dict.fromkeys(asked.defaults))
        question = asked.question
        assert question.cell is not None
        chart, column, rows = question.cell
        said = f"Read the {chart} chart: {column}, rows {rows}"
        # The losses of the steps before the chart (its fire, say) are known and counted;
        # the chart's own are the player's to read.
        return _Reading((said, said, said), Severity.NONE, _counted_losses(asked.effects), (),
                        question.cell)


def _counted_losses(effects: Sequence[Effect]) -> tuple[tuple[tuple[str, str], int], ...]:
    """Each unit's loss, by the measure it counts in, summed over ``effects``."""
    losses: dict[tuple[str, str], int] = {}
    for effect in effects:
        loss = loss_of(effect)
        if loss is not None:
            measure, amount = loss
            losses[(effect.unit, measure)] = losses.get((effect.unit, measure), 0) + amount
    return tuple(losses.items())


_Shape = tuple[tuple[str, str, str | None, str | None, str | None, str], ...]


def shape_of(resolution: Resolution) -> _Shape:
    """What a result does to whom, its numbers aside: a player's kind of result (``Béarn
    routs and loses SP``), whatever the margin or the dice that got there. Results of one
    shape are one result; its name gives the range of each number (``Fusiliers loses 1–3
    blocks``)."""
    # "1 block" and "2 blocks" are one shape: a measure counts in its plural.
    return tuple((e.unit, str(e.kind), e.value, plural(e.measure) if e.measure else e.measure,
                  e.direction, e.detail) for e in worded(resolution))


def worded(resolution: Resolution) -> tuple[Effect, ...]:
    """Its effects a player is told of: a rule set's bookkeeping (a unit that has tested
    this phase) has no words, and a result of nothing else is named by its headline."""
    return tuple(e for e in resolution.effects if effect_words(e))


def _named(effects: tuple[Effect, ...], ranges: list[tuple[int, int] | None]) -> str:
    """The effects of a shape, each number as the range it took (one number when fixed)."""
    said = []
    for effect, span in zip(effects, ranges, strict=True):
        if span is not None and span[0] != span[1]:
            # The texts format the amount as given; a range counts in the plural.
            measure = plural(effect.measure) if effect.measure else effect.measure
            effect = replace(effect, amount=f"{span[0]}–{span[1]}",  # type: ignore[arg-type]
                             measure=measure)
        said.append(effect.describe())
    return "; ".join(said)


# --- running a procedure -----------------------------------------------------------------------


def _play(prepared: Prepared, source: DiceSource, given: _Given,
          aside: _Aside = frozenset()) -> Resolution:
    if not given and not aside:  # as its options say
        return prepared(source)
    answers = Answers(in_order=[answer for _, answer in given], set_aside=aside)
    try:
        return prepared(source, answers)
    except Undecided:
        if len(answers.taken) < len(given):  # asked again, answers left: a walk never ends
            raise RulesError("The procedure asks its questions without taking the answers "
                             "given to them.") from None
        raise


def _set_aside(error: OutOfReach, aside: _Aside) -> _Aside | None:
    """The askings to play a path again with, once ``error`` set an answer given ahead aside;
    None when it was already (a procedure that raises it again: refused)."""
    return None if error.asking in aside else aside | {error.asking}


def _decision(question: Question) -> _Decision:
    return question.key, tuple(a.key for a in question.answers)


class _Rolls:
    """Each kind of roll's outcomes, listed once (up to a cap) however often it is rolled:
    listing twenty thousand outcomes of a big pool only to find there are more costs more
    than the runs it saves."""

    def __init__(self, cap: int) -> None:
        self._cap = cap
        self._listed: dict[RollKind, list[tuple[Faces, Fraction]] | None] = {}

    def outcomes(self, kind: RollKind, room: int) -> list[tuple[Faces, Fraction]] | None:
        """The roll's outcomes, or None when there are more than ``room`` (6¹² ways)."""
        try:
            listed = self._listed[kind]
        except KeyError:
            listed = self._list(kind)
            self._listed[kind] = listed
        except TypeError:  # a kind that cannot be a key is listed every time
            listed = self._list(kind)
        return None if listed is None or len(listed) > room else listed

    def _list(self, kind: RollKind) -> list[tuple[Faces, Fraction]] | None:
        pooled = hasattr(kind, "pool_outcomes")
        if not pooled and 2 ** kind.dice_count > self._cap:  # two faces a die at least
            return None
        listed = list(itertools.islice(branch_outcomes(kind), self._cap + 1))
        return None if len(listed) > self._cap else listed


@dataclass
class _Path:
    """One answer path: the answers it gives, in the order they were first asked, and what
    it has reached so far."""

    decided: dict[_Decision, Answer]
    choices: tuple[Choice, ...]
    order: tuple[int, ...]  # which answer of each question: sorts the paths as asked
    tally: _Tally

    def answer(self, question: Question) -> Answer | None:
        """The answer this path gives the question; None when it has to fork."""
        if len(question.answers) == 1:  # no choice at all
            return question.answers[0]
        return self.decided.get(_decision(question))


_Members = tuple[int, ...]  # the answer paths a node of the walk stands for


class _AnswerPaths:
    """Every answer path, grown as questions come up. A node of the walk (or a random
    resolution) is run once for all the paths it stands for: dice that never meet a question
    count in every answer to it without being rolled again, and only a question splits them.

    A path that meets a question it has not answered splits into one path per answer, each
    with a copy of what it had reached; nodes still waiting that named the old path stand for
    all of its splits (``live``)."""

    ROOT: _Members = (0,)  # every path grows out of the first one

    def __init__(self, max_branches: int) -> None:
        self._max = max_branches
        self.paths = [_Path({}, (), (), _Tally())]
        self._split: dict[int, list[int]] = {}
        self._texts: dict[str, set[str]] = {}  # each question's wordings, as asked

    def live(self, members: _Members) -> list[int]:
        found: list[int] = []
        todo = list(reversed(members))
        while todo:
            member = todo.pop()
            if member in self._split:
                todo.extend(reversed(self._split[member]))
            else:
                found.append(member)
        return found

    def add(self, members: _Members, reading: _Reading, weight: Any) -> None:
        for member in self.live(members):
            self.paths[member].tally.add(reading, weight)

    def partition(self, members: _Members, question: Question
                  ) -> list[tuple[Answer, _Members]]:
        """The paths of a node by the answer each gives the question (splitting those that
        have none yet), in the question's order of answers."""
        self._texts.setdefault(question.key, set()).add(question.text)
        groups: dict[str, list[int]] = {a.key: [] for a in question.answers}
        for member in self.live(members):
            answer = self.paths[member].answer(question)
            if answer is not None:
                groups[answer.key].append(member)
                continue
            for index, fork in enumerate(self._fork(member, question)):
                groups[question.answers[index].key].append(fork)
        return [(a, tuple(groups[a.key])) for a in question.answers if groups[a.key]]

    def _fork(self, member: int, question: Question) -> list[int]:
        if len(self.paths) - len(self._split) + len(question.answers) - 1 > self._max:
            keys = ", ".join(f"`{a.key}`" for a in question.answers)
            raise TooManyAnswers(f"More than {self._max} combinations of answers to give "
                                 f"the odds for (at “{question.text}”).",
                                 hint="Give some answers ahead and ask again: "
                                 f"`choices:\"{question.key}={question.answers[-1].key}\"` "
                                 f"(`answers` in JSON); this question's answers: {keys}.")
        old = self.paths[member]
        forks = []
        for index, answer in enumerate(question.answers):
            forks.append(len(self.paths))
            self.paths.append(_Path(
                {**old.decided, _decision(question): answer},
                (*old.choices, Choice(question.key, question.text, answer.key, answer.label,
                       question.unit, question.by)),
                (*old.order, index), old.tally.copy()))
        self._split[member] = forks
        return forks

    def final(self) -> list[_Path]:
        ends = [p for i, p in enumerate(self.paths) if i not in self._split]
        for path in ends:
            path.choices = tuple(replace(c, text=self.wording(c.question, c.text))
                                 for c in path.choices)
        return sorted(ends, key=lambda p: p.order)

    def wording(self, key: str, text: str) -> str:
        """A question asked in other words on other dice (a chart's row: "row 54") is one
        question to the odds: its words up to the first colon, not those of one roll."""
        if len(self._texts.get(key, ())) <= 1:
            return text
        return f"{text.split(':', 1)[0].rstrip('?.')} (whatever the dice)"


class TooManyAnswers(InvalidInput):
    """More answer paths than a walk takes: the player must give some answers."""


class _TooBig(Exception):
    """The walk went past its leaf budget or its deadline."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class _Extending:
    """Replays the faces it has, and past them picks new ones (``_pick``) and keeps them, so
    that a run after an answered question rolls the same dice again."""

    def __init__(self, prefix: tuple[Faces, ...] = ()) -> None:
        self.path = list(prefix)
        self._next = 0

    @property
    def rolled(self) -> bool:
        """Whether this run has taken any dice yet: a rules error before any is the request
        refused, not a result."""
        return self._next > 0

    def roll(self, kind: RollKind, label: str) -> Faces:
        if self._next == len(self.path):
            self.path.append(self._pick(kind, label))
        faces = self.path[self._next]
        self._next += 1
        return faces

    def _pick(self, kind: RollKind, label: str) -> Faces:
        raise NotImplementedError


class _Descent(_Extending):
    """Replays a prefix of faces, then takes the first outcome of every roll past it,
    leaving the others to the walk: one run of the procedure per leaf of the tree, rather
    than one per node (a run that stopped at each new roll)."""

    def __init__(self, prefix: tuple[Faces, ...], weight: Fraction, rolls: _Rolls,
                 room: int) -> None:
        super().__init__(prefix)
        self.weight = weight
        self.siblings: list[tuple[tuple[Faces, ...], Fraction]] = []
        self._rolls = rolls
        self._room = room

    def _pick(self, kind: RollKind, label: str) -> Faces:
        children = self._rolls.outcomes(kind, self._room)
        if children is None:
            raise _TooBig(f"more than {self._room:,} paths left to walk (at {label}, "
                          f"{kind.describe()})")
        taken = tuple(self.path)
        self.siblings.extend(((*taken, other), self.weight * p)
                             for other, p in reversed(children[1:]))
        faces, p = children[0]
        self.weight *= p
        return faces


_Seen = Callable[[_Reading, tuple[Faces, ...], _Given], None]
"""Told of each leaf of a walk: its reading, the dice and the answers that reach it."""


def _walk(prepared: Prepared, max_leaves: int, deadline: float | None, reader: _Reader,
          rolls: _Rolls, max_branches: int, seen: _Seen | None = None, charts: bool = False
          ) -> tuple[list[_Path], int]:
    """Every path of the tree, for every answer path; raises ``_TooBig`` past the bounds.
    With ``charts``, a path ends at a chart the player reads (``Question.cell``)."""
    answers = _AnswerPaths(max_branches)
    groups = roll_groups(prepared) or [((), Fraction(1))]
    stack: list[tuple[tuple[Faces, ...], _Given, Fraction, _Members, _Aside]] = [
        (prefix, (), weight, _AnswerPaths.ROOT, frozenset()) for prefix, weight in
        reversed(groups)]
    leaves = 0
    while stack:
        if leaves >= max_leaves:
            raise _TooBig(f"more than {max_leaves:,} paths to walk")
        if deadline is not None and time.monotonic() > deadline:
            raise _TooBig("the time for an exact walk ran out")
        prefix, given, weight, members, aside = stack.pop()
        source = _Descent(prefix, weight, rolls, max_leaves - leaves)
        try:
            resolution = _play(prepared, source, given, aside)
        except Undecided as asked:
            question = asked.question
            if charts and question.cell is not None:
                reading = reader.chart(asked)
            else:
                path = tuple(source.path)  # the dice before the question
                for answer, group in reversed(answers.partition(members, question)):
                    stack.append((path, (*given, (question.key, answer.key)), source.weight,
                                  group, aside))
                reading = None
        except OutOfReach as error:
            # The same dice again, the answer set aside: the question is then asked there.
            again = _set_aside(error, aside)
            reading = reader.refused(error) if again is None else None
            if again is not None:
                stack.append((tuple(source.path), given, source.weight, members, again))
        except NotAnAnswer:
            raise  # an answer given ahead the rules do not take: the request is refused
        except RulesError as error:
            if not source.rolled and not given:
                raise  # the request itself is refused
            reading = reader.refused(error)
        else:
            reading = reader.read(resolution)
        # The other outcomes of each roll this run took the first of, for the same answers.
        stack.extend((path, given, w, members, aside)
                     for path, w in reversed(source.siblings))
        if reading is not None:
            leaves += 1
            answers.add(members, reading, source.weight)
            # One reached with an answer set aside too: played with its answers, the move
            # sets that answer aside again on the same dice (``play_setting_aside``).
            if seen is not None:
                seen(reading, tuple(source.path), given)
    return answers.final(), leaves


LISTED_BRANCHES = 4_096
"""Answer paths a list of results walks at most: a GM picks among results, not answer paths,
so the list is bounded by its leaves and its deadline rather than by what a player reads."""


def walk_results(prepared: Prepared, found: Callable[[str, tuple[Faces, ...],
                                                      tuple[str, ...] | None, str], bool],
                 *, max_leaves: int, deadline: float | None) -> bool:
    """Walk every path as the odds do, telling ``found`` each result (``label_of``) with the
    dice and the answers that reach it (None: no question on the way) and its headline. A
    result the rules refuse mid-way is none. Stops when ``found`` says False; False when the
    walk did not finish (stopped, too big, or out of time) or was not started: a walk that
    cannot finish costs its whole leaf budget and finds little (it stays deep in one corner
    of the tree), so the probes' estimate decides first."""
    rolls = _Rolls(max_leaves)  # each roll's outcomes listed once, for probes and walk
    if estimated_leaves(prepared, max_leaves, rolls=rolls) > 2 * max_leaves:
        return False

    def seen(reading: _Reading, path: tuple[Faces, ...], given: _Given) -> None:
        if reading.key[0] == REFUSED:
            return
        answers = tuple(answer for _, answer in given) or None
        if not found(reading.key[1], path, answers, reading.key[2]):
            raise _TooBig("enough results")

    try:
        _walk(prepared, max_leaves, deadline, _Reader(), rolls, LISTED_BRANCHES, seen)
    except (_TooBig, TooManyAnswers):  # the list falls back to random rolls
        return False
    return True


class _Probe(_Extending):
    """Goes down one random branch of the tree, multiplying the branching on the way.

    Choosing each branch uniformly makes the product an unbiased estimate of the number of
    leaves (Knuth's estimator), at the cost of one run (and one more per question)."""

    def __init__(self, rng: random.Random, rolls: _Rolls, too_many: int,
                 groups: RollGroups | None = None) -> None:
        # Grouped first rolls (``roll_groups``): one branch per group, as the walk takes them.
        super().__init__(rng.choice(groups)[0] if groups else ())
        self._rng = rng
        self._rolls = rolls
        self._too_many = too_many
        self.leaves = float(len(groups)) if groups else 1.0

    def again(self) -> None:
        """Replay the same dice from the start (after a question was answered)."""
        self._next = 0

    def _pick(self, kind: RollKind, label: str) -> Faces:
        branches = self._rolls.outcomes(kind, self._too_many)
        if branches is None:
            self.leaves = math.inf
            return kind.random_faces(self._rng)
        self.leaves *= len(branches)
        return self._rng.choice(branches)[0]


def estimated_leaves(prepared: Prepared, too_many: int, probes: int = PROBES,
                     rolls: _Rolls | None = None, charts: bool = False) -> float:
    """Roughly how many leaves an exact walk would visit, every answer path together (inf
    when one roll alone has more than ``too_many`` outcomes); with ``charts``, a chart the
    player reads ends a path. A rules error before any dice or answer (a refused request)
    is raised as it is."""
    rolls = rolls or _Rolls(too_many)
    groups = roll_groups(prepared)
    total = 0.0
    for seed in range(probes):
        rng = random.Random(seed)
        probe = _Probe(rng, rolls, too_many, groups)
        given: _Given = ()
        aside: _Aside | None = frozenset()
        while aside is not None:
            probe.again()
            try:
                _play(prepared, probe, given, aside)
            except OutOfReach as error:
                aside = _set_aside(error, aside)
                continue
            except Undecided as asked:
                if charts and asked.question.cell is not None:
                    break
                answers = asked.question.answers
                probe.leaves *= len(answers)
                given = (*given, (asked.question.key, rng.choice(answers).key))
                continue
            except RulesError:
                if not probe.rolled and not given:
                    raise
            break
        total += probe.leaves
    return total / probes if probes > 0 else 0.0  # no probes: walk and see


def _sample_seed(seed: int, index: int) -> int:
    return seed * 1_000_003 + index


def _sample(prepared: Prepared, samples: int, seed: int, deadline: float | None,
            reader: _Reader, max_branches: int) -> tuple[list[_Path], int]:
    """``samples`` seeded random resolutions (fewer past the deadline, never fewer than
    ``MIN_SAMPLES``), each counted in every answer path: a resolution is run again, on the
    same dice, only where a question splits the paths."""
    answers = _AnswerPaths(max_branches)
    taken = 0
    while taken < samples:
        if deadline is not None and taken >= MIN_SAMPLES and time.monotonic() > deadline:
            break
        nodes: list[tuple[_Given, _Members, _Aside]] = [((), _AnswerPaths.ROOT, frozenset())]
        while nodes:
            given, members, aside = nodes.pop()
            try:  # the same seed rolls the same dice again after an answer
                resolution = _play(prepared, RandomSource(_sample_seed(seed, taken)), given,
                                   aside)
            except Undecided as asked:
                question = asked.question
                if question.cell is not None:  # a chart the player reads: the end
                    answers.add(members, reader.chart(asked), 1)
                    continue
                for answer, group in reversed(answers.partition(members, question)):
                    nodes.append(((*given, (question.key, answer.key)), group, aside))
                continue
            except OutOfReach as error:
                again = _set_aside(error, aside)
                if again is not None:
                    nodes.append((given, members, again))
                    continue
                answers.add(members, reader.refused(error), 1)
            except NotAnAnswer:
                raise
            except RulesError as error:
                answers.add(members, reader.refused(error), 1)
            else:
                answers.add(members, reader.read(resolution), 1)
        taken += 1
    return answers.final(), taken


# --- the distributions -------------------------------------------------------------------------


def _losses(tally: _Tally, sides: Mapping[str, str], scale: Fraction
            ) -> tuple[tuple[ExpectedLoss, ...], tuple[ExpectedLoss, ...]]:
    units = tuple(sorted(
        (ExpectedLoss(unit, sides.get(unit), measure, Fraction(total) * scale)
         for (unit, measure), total in tally.losses.items()),
        key=lambda loss: (loss.side or "", loss.unit or "", loss.measure)))
    by_side: dict[tuple[str, str], Fraction] = {}
    for loss in units:
        if loss.side is not None:
            key = (loss.side, loss.measure)
            by_side[key] = by_side.get(key, Fraction(0)) + loss.expected
    side_losses = tuple(ExpectedLoss(None, side, measure, expected)
                        for (side, measure), expected in sorted(by_side.items()))
    return units, side_losses


def _exact_distribution(path: _Path, sides: Mapping[str, str]) -> Distribution:
    tally = path.tally
    outcomes = tuple(sorted(
        (OutcomeOdds(tally.name(key[0]), key[2], tally.severities[key], weight,
                     effects=key[1], changes=tally.effects[key], cell=tally.cells.get(key))
         for key, weight in tally.weights.items()),
        key=lambda o: (-o.probability, o.group, o.label)))
    units, side_losses = _losses(path.tally, sides, Fraction(1))
    return Distribution(path.choices, outcomes, True, None, units, side_losses)


def _estimated_distribution(path: _Path, samples: int, sides: Mapping[str, str]
                            ) -> Distribution:
    tally = path.tally
    outcomes = tuple(sorted(
        (OutcomeOdds(tally.name(key[0]), key[2], tally.severities[key],
                     Fraction(count, samples), count, wilson_interval(count, samples),
                     effects=key[1], changes=tally.effects[key], cell=tally.cells.get(key))
         for key, count in tally.weights.items()),
        key=lambda o: (-o.probability, o.group, o.label)))
    units, side_losses = _losses(path.tally, sides, Fraction(1, samples))
    return Distribution(path.choices, outcomes, False, samples, units, side_losses)


def exact_odds(
    prepared: Prepared,
    *,
    max_leaves: int = MAX_LEAVES,
    deadline: float | None = None,
    samples: int = SAMPLES,
    seed: int = 0,
    sides: Mapping[str, str] | None = None,
    probes: int = PROBES,
    max_branches: int = MAX_BRANCHES,
) -> Odds:
    """The odds of every outcome of ``prepared``, one distribution per answer path.

    Exact when the tree has at most ``max_leaves`` paths and the walk ends before
    ``WALK_SHARE`` of the time to ``deadline`` (a ``time.monotonic()`` value) has gone;
    otherwise ``samples`` seeded random resolutions (counted in every answer path), stopped
    at the deadline. ``sides``
    names the side of each unit (``{"2nd Foot": "defenders"}``) for the expected losses per
    side. More than ``max_branches`` answer paths is refused (``InvalidInput``): give some
    answers.
    """
    sides = sides or {}
    reader = _Reader()
    started = time.monotonic()
    # The walk gets most of the time when its estimate says it fits (an estimate after a walk
    # cut short needs far less: 10,000 samples take about a second).
    walk_deadline = None if deadline is None else started + (deadline - started) * WALK_SHARE
    rolls = _Rolls(max_leaves)
    # Most fights are small: a walk of as many paths as the probes would run settles them
    # for no more than probing costs. One that does not finish so soon is probed as below,
    # and walked again only if the probes say it fits.
    try:
        paths, leaves = _walk(prepared, min(max_leaves, max(probes, QUICK_WALK_LEAVES)),
                              walk_deadline, reader, rolls, max_branches, charts=True)
    except _TooBig:
        reader = _Reader()  # the defaults named are those of the answer given
    else:
        return Odds(tuple(_exact_distribution(p, sides) for p in paths), True, leaves,
                    defaults=tuple(reader.defaults), sides=tuple(sides.items()))
    probing = time.monotonic()
    estimate = estimated_leaves(prepared, max_leaves, probes, rolls, charts=True)
    # A probe is one run from the root to a leaf, as each run of the walk is.
    per_run = (time.monotonic() - probing) / probes if probes else 0.0
    slow = walk_deadline is not None and time.monotonic() + estimate * per_run > walk_deadline
    if estimate <= 2 * max_leaves and not slow:
        cap = min(max_leaves, int(max(QUICK_WALK_LEAVES, ESTIMATE_MARGIN * estimate)))
        try:
            paths, leaves = _walk(prepared, cap, walk_deadline, reader, rolls, max_branches,
                                  charts=True)
        except _TooBig as stop:
            reason = stop.reason
            if cap < max_leaves:
                reason += f"; the probes estimated about {estimate:,.0f}"
        else:
            return Odds(tuple(_exact_distribution(p, sides) for p in paths), True, leaves,
                        defaults=tuple(reader.defaults), sides=tuple(sides.items()))
    elif estimate <= 2 * max_leaves:
        reason = (f"about {estimate:,.0f} paths to walk, about {estimate * per_run:,.0f} s, "
                  "past the time allowed")
    else:
        reason = (f"about {estimate:,.0f} paths to walk, over the budget of {max_leaves:,}"
                  if math.isfinite(estimate)
                  else f"a roll has more outcomes than the budget of {max_leaves:,} paths")
    paths, taken = _sample(prepared, samples, seed, deadline, reader, max_branches)
    return Odds(tuple(_estimated_distribution(p, taken, sides) for p in paths), False, 0,
                taken, reason, tuple(reader.defaults), tuple(sides.items()))


# --- requests ----------------------------------------------------------------------------------

IGNORED_KEYS = ("dice", "seed", "mode")
"""Request fields the odds do not read: no dice are rolled, and ``mode`` chose the odds."""


def _names(value: Any) -> list[str]:
    """The unit names a request field holds: a unit object, a list of them."""
    if isinstance(value, Mapping) and isinstance(value.get("name"), str):
        return [value["name"].strip()]
    if isinstance(value, list):
        return [name for item in value for name in _names(item)]
    return []


def request_sides(request: Mapping[str, Any], keys: Iterable[str]) -> dict[str, str]:
    """Each unit of a request with the field that names it (``attackers``, ``target``): the
    sides of a fight as the request sets them out. A unit given only by name (Le Baton's
    ``target``) counts too, unless a unit object already claimed the name."""
    sides: dict[str, str] = {}
    keys = tuple(keys)
    for key in keys:
        for name in _names(request.get(key)):
            sides.setdefault(name, key)
    for key in keys:
        value = request.get(key)
        if isinstance(value, str) and value.strip():
            sides.setdefault(value.strip(), key)
    return sides


def prepare_request(rulesets: Mapping[str, RuleSet], request: Any
                    ) -> tuple[RuleSet, Prepared, dict[str, str]]:
    """A request checked as ``resolve_request`` checks it (its dice and seed aside), as a
    prepared procedure that takes answers, with the sides of its units."""
    if isinstance(request, Mapping):
        request = {k: v for k, v in request.items() if k not in IGNORED_KEYS}
    ruleset, procedure = checked_request(rulesets, request)
    if request.get("answers") not in (None, ""):
        Answers.read(request["answers"], "answers")  # refuse bad answers before any walk

    prepared = procedure.prepare(request)  # read once; the walk adds its answers
    charts = ruleset.battle.charts.key if ruleset.battle and ruleset.battle.charts else None
    return ruleset, prepared, request_sides(request, [k for k in procedure.keys if k != charts])


def odds_for_request(
    rulesets: Mapping[str, RuleSet],
    request: Any,
    *,
    max_leaves: int = MAX_LEAVES,
    deadline: float | None = None,
    samples: int = SAMPLES,
    seed: int = 0,
    max_branches: int = MAX_BRANCHES,
) -> Odds:
    """The odds of a JSON request (already parsed), validated as ``resolve_request`` validates
    it; its ``dice`` and ``seed`` are ignored, its ``answers`` are used as given."""
    _, prepared, sides = prepare_request(rulesets, request)
    return exact_odds(prepared, max_leaves=max_leaves, deadline=deadline, samples=samples,
                      seed=seed, sides=sides, max_branches=max_branches)


# --- JSON --------------------------------------------------------------------------------------


def _fraction(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


def _percent(value: Fraction | float) -> float:
    return round(float(value) * 100, 4)


def _interval(interval: tuple[float, float] | None) -> dict[str, Any]:
    if interval is None:
        return {}
    return {"interval": [_percent(interval[0]), _percent(interval[1])]}


def _estimate(probability: Fraction, count: int | None, samples: int | None) -> str:
    # An estimate reads as the samples it rests on (``123/20000``), not reduced.
    if count is not None and samples is not None:
        return f"{count}/{samples}"
    return _fraction(probability)


def _loss_json(loss: ExpectedLoss) -> dict[str, Any]:
    return ({"unit": loss.unit} if loss.unit is not None else {}) | {
        "side": loss.side, "measure": loss.measure, "expected": _fraction(loss.expected),
        "value": round(float(loss.expected), 4)}


def _distribution_json(d: Distribution) -> dict[str, Any]:
    def outcome(o: OutcomeOdds) -> dict[str, Any]:
        return {"label": o.label, "severity": o.severity.name.lower(),
                "probability": _estimate(o.probability, o.count, d.samples),
                "percent": _percent(o.probability)} | _interval(o.interval)

    return {
        "answers": [{"question": c.question, "text": c.text, "answer": c.answer,
                     "label": c.label} for c in d.answers],
        "exact": d.exact,
        "samples": d.samples,
        "groups": [{"group": g.group, "probability": _estimate(g.probability, g.count,
                                                                d.samples),
                    "percent": _percent(g.probability)} | _interval(g.interval)
                   | {"outcomes": [outcome(o) for o in g.outcomes]} for g in d.groups],
        "losses": [_loss_json(loss) for loss in d.losses],
        "side_losses": [_loss_json(loss) for loss in d.side_losses],
    }


def to_json(odds: Odds | Distribution) -> dict[str, Any]:
    """Plain JSON: fractions as ``"n/d"`` strings (an estimate as samples reached over samples
    taken), percentages as numbers, intervals as [low, high] percentages."""
    if isinstance(odds, Distribution):
        return _distribution_json(odds)
    return {"exact": odds.exact, "leaves": odds.leaves, "samples": odds.samples,
            "reason": odds.reason or None, "defaults": list(odds.defaults),
            "branches": [_distribution_json(b) for b in odds.branches]}
