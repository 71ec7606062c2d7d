"""Every distinct result a procedure can reach, each with dice that reach it.

A GM overriding a result may pick only a result the rules allow. Walking the procedure's
outcomes (``ReplaySource``) finds them all for small fights. A big fight's tree is far too
large to walk (sixteen dice rolled one by one is 6¹⁶ leaves), so a few random probes first
estimate its size; when it is out of reach the walk is skipped and random rolls fill in,
which finds every result of any real likelihood. A deadline and a cap on distinct results
bound the whole search; a search they cut short says so.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from rules.core.decisions import Answers, Undecided
from rules.core.dice import (
    DiceSource,
    Faces,
    RandomSource,
    ReplaySource,
    RollKind,
    Unrolled,
    branch_outcomes,
)
from rules.core.records import Resolution

Prepared = Callable[..., Resolution]
"""``prepared(dice)``; one that asks questions also takes ``prepared(dice, answers)``, the
answers then replacing those of its options."""

RollGroups = list[tuple[tuple[Faces, ...], Fraction]]
"""The first rolls of a procedure grouped as its rules read them: dice standing for each
group, and the group's exact probability."""


def with_roll_groups(prepared: Prepared, groups: Callable[[], RollGroups | None]) -> Prepared:
    """``prepared``, with its rule set's word that the procedure reads its first rolls only as
    ``groups()`` tells them apart: every result of those dice leads where its group's dice
    do. A walk of its outcomes then branches once per group, not once per result of the
    dice. ``groups()`` may say None (too many to list): the walk branches as usual."""
    prepared.roll_groups = functools.cache(groups)  # type: ignore[attr-defined]
    return prepared


def roll_groups(prepared: Prepared) -> RollGroups | None:
    """The groups of the procedure's first rolls, if its rule set gives them."""
    groups = getattr(prepared, "roll_groups", None)
    return None if groups is None else groups()


PROBES = 256
"""Random paths used to estimate the size of the tree (and, for the odds, the time a walk of
it would take) before walking it: a tree with rare deep branches (a Tricorne melee's
follow-up rolls) is underestimated a hundredfold by 16, and 256 cost a few milliseconds."""


@dataclass(frozen=True)
class Outcome:
    label: str
    path: tuple[Faces, ...]
    answers: tuple[str, ...] | None = None  # the answers on the way, when any were asked

    @property
    def key(self) -> str:
        return hashlib.sha1(self.label.encode()).hexdigest()[:12]


@dataclass(frozen=True)
class Enumeration:
    """The results found, and whether the deadline or the cap stopped the search early."""

    outcomes: tuple[Outcome, ...]
    cut_short: bool = False

    def find(self, wanted: str) -> Outcome | None:
        """The outcome with this key or label (autocomplete sends keys; people type labels)."""
        return next((o for o in self.outcomes if wanted in (o.key, o.label)), None)


def label_of(resolution: Resolution) -> str:
    effects = "; ".join(e.describe() for e in resolution.effects)
    return effects or f"{resolution.headline} (no effect on units)"


class _Recorder:
    """Random dice that remember what they rolled, so the result can be replayed."""

    def __init__(self, seed: int) -> None:
        self._random = RandomSource(seed)
        self.path: list[Faces] = []

    def roll(self, kind: RollKind, label: str) -> Faces:
        faces = self._random.roll(kind, label)
        self.path.append(faces)
        return faces


class _Probe:
    """Goes down one random branch of the walk, multiplying the branching on the way.

    Choosing each branch uniformly makes the product an unbiased estimate of the number of
    leaves (Knuth's estimator), at the cost of one run of the procedure.
    """

    def __init__(self, seed: int, too_many: int, groups: RollGroups | None = None) -> None:
        self._random = random.Random(seed)
        self._too_many = too_many
        self.leaves = 1.0
        self._grouped: list[Faces] = []
        if groups:  # the grouped rolls first: one branch per group
            self.leaves = float(len(groups))
            self._grouped = list(self._random.choice(groups)[0])

    def roll(self, kind: RollKind, label: str) -> Faces:
        if self._grouped:
            return self._grouped.pop(0)
        branches = _branches(kind, self._too_many)
        if branches is None:
            self.leaves = math.inf
            return kind.random_faces(self._random)
        self.leaves *= len(branches)
        return self._random.choice(branches)


def _branches(kind: RollKind, room: int) -> list[Faces] | None:
    """The faces a walk branches on for a roll (a pool: once per result up to order, as the
    odds walk it); None when there are more than ``room``."""
    branches = [faces for faces, _ in itertools.islice(branch_outcomes(kind), room + 1)]
    return None if len(branches) > room else branches


def estimated_leaves(prepared: Prepared, too_many: int, probes: int = PROBES) -> float:
    """Roughly how many leaves walking the procedure's outcomes would visit."""
    total = 0.0
    groups = roll_groups(prepared)
    for seed in range(probes):
        probe = _Probe(seed, too_many, groups)
        try:
            prepared(probe)
        except Undecided as asked:  # rough: each answer as big as the tree so far
            probe.leaves *= len(asked.question.answers)
        total += probe.leaves
    return total / probes


class _Search:
    """What has been found so far, and whether the bounds have been reached."""

    def __init__(self, deadline: float | None, max_outcomes: int) -> None:
        self.found: dict[str, Outcome] = {}
        self.deadline = deadline
        self.max_outcomes = max_outcomes
        self.cut_short = False

    def add(self, resolution: Resolution, path: tuple[Faces, ...],
            answers: tuple[str, ...] | None) -> None:
        label = label_of(resolution)
        self.found.setdefault(label, Outcome(label, path, answers))

    def must_stop(self) -> bool:
        if len(self.found) >= self.max_outcomes or (
            self.deadline is not None and time.monotonic() > self.deadline
        ):
            self.cut_short = True
        return self.cut_short


def _play(prepared: Prepared, source: DiceSource,
          answers: tuple[str, ...] | None) -> Resolution:
    if answers is None:  # as the options say
        return prepared(source)
    return prepared(source, Answers(in_order=list(answers)))


def _walk(prepared: Prepared, search: _Search, max_leaves: int) -> bool:
    """Walk every outcome (and every answer to a question on the way); False when the tree
    turned out too big to finish."""
    groups = roll_groups(prepared) or [((), Fraction(1))]
    stack: list[tuple[tuple[Faces, ...], tuple[str, ...] | None]] = [
        (prefix, None) for prefix, _ in reversed(groups)]
    leaves = 0
    while stack and leaves < max_leaves and not search.must_stop():
        prefix, answers = stack.pop()
        try:
            resolution = _play(prepared, ReplaySource(prefix), answers)
        except Unrolled as branch:
            children = _branches(branch.kind, max_leaves - leaves)
            if children is None:
                return False  # a pool of many dice: sample instead
            stack.extend(((*prefix, faces), answers) for faces in children)
            continue
        except Undecided as asked:
            stack.extend((prefix, (*(answers or ()), a.key)) for a in asked.question.answers)
            continue
        leaves += 1
        search.add(resolution, prefix, answers)
    return not stack


def _sample(prepared: Prepared, search: _Search, samples: int) -> None:
    for seed in range(samples):
        if search.must_stop():
            return
        pick = random.Random(seed)
        answers: tuple[str, ...] | None = None
        while True:
            recorder = _Recorder(seed)  # the same seed rolls the same dice again
            try:
                resolution = _play(prepared, recorder, answers)
                break
            except Undecided as asked:
                answers = (*(answers or ()), pick.choice(asked.question.answers).key)
        search.add(resolution, tuple(recorder.path), answers)


def enumerate_outcomes(
    prepared: Prepared,
    *,
    max_leaves: int = 20_000,
    samples: int = 4_000,
    deadline: float | None = None,
    max_outcomes: int = 1_000,
) -> Enumeration:
    """The distinct results, sorted by label; ``deadline`` is a ``time.monotonic()`` value."""
    search = _Search(deadline, max_outcomes)
    # A walk that cannot finish costs its whole leaf budget and finds little (it stays deep
    # in one corner of the tree); skip it when the estimate says so.
    walkable = estimated_leaves(prepared, max_leaves) <= 2 * max_leaves
    if not (walkable and _walk(prepared, search, max_leaves)):
        _sample(prepared, search, samples)
    outcomes = tuple(sorted(search.found.values(), key=lambda o: o.label))
    return Enumeration(outcomes, search.cut_short)


def distinct_outcomes(
    prepared: Prepared, *, max_leaves: int = 20_000, samples: int = 4_000
) -> list[Outcome]:
    return list(enumerate_outcomes(prepared, max_leaves=max_leaves, samples=samples).outcomes)
