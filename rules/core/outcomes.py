"""Every distinct result a procedure can reach, each with dice that reach it.

A GM overriding a result may pick only a result the rules allow. The odds' walk
(``rules.core.odds.walk_results``) finds them all for small fights, grouping dice as the rules
read them. A big fight's tree is far too large to walk (sixteen dice rolled one by one is 6¹⁶
leaves), so random probes first estimate its size; when it is out of reach the walk is skipped
and random rolls fill in, which finds every result of any real likelihood. A deadline and a
cap on distinct results bound the whole search; a search they cut short says so.

The walk goes depth first, so the order it meets results in says nothing of how likely or
plain they are: a big melee's first thousand were nearly all bonus melees, after a taking of
ground, and the plain exchanges of hits came later. So a walk that passes the cap, or runs
short of time, gives way to random rolls, which meet the likely results first, and the cap
keeps the plainest results found (``plainest``), not the first.
"""

from __future__ import annotations

import hashlib
import heapq
import random
import time
from dataclasses import dataclass

from rules.core.decisions import Answers, OutOfReach, Undecided
from rules.core.dice import DiceSource, Faces, RandomSource, RollKind
from rules.core.odds import WALK_SHARE, walk_results
from rules.core.prepared import Prepared, effect_count, label_of
from rules.core.records import Resolution

MAX_CODE = 8  # a chart's code (`DS1`, `AR`): a longer lead is words (`Attackers win by 3`)


@dataclass(frozen=True)
class Outcome:
    label: str
    path: tuple[Faces, ...]
    answers: tuple[str, ...] | None = None  # the answers on the way, when any were asked
    # Its headline: a chart's code leads it (`DS1: 52nd surrenders`) where a pack read the
    # chart and no answer holds the code.
    headline: str = ""

    @property
    def key(self) -> str:
        return hashlib.sha1(self.label.encode()).hexdigest()[:12]

    @property
    def code(self) -> str | None:
        """The code that leads its headline (a chart's ``DS1``), if it leads with one."""
        lead, sep, _ = self.headline.partition(": ")
        return lead if sep and lead and len(lead) <= MAX_CODE and " " not in lead else None

    @property
    def leads(self) -> tuple[str, ...] | None:
        """What a GM reads off a table to find it: the answers on its way, else its code."""
        return self.answers or ((self.code,) if self.code else None)


@dataclass(frozen=True)
class Enumeration:
    """The results found, and whether the deadline or the cap stopped the search early."""

    outcomes: tuple[Outcome, ...]
    cut_short: bool = False
    # The units the results may name (a battle's roster), for a menu that names each once.
    units: tuple[str, ...] = ()
    # Those of them the roll's command names (the unit tested, the attacker): the roll's
    # own, which an example of a result names before a unit the result only touches.
    named: tuple[str, ...] = ()

    def find(self, wanted: str) -> Outcome | None:
        """The outcome with this key or label (autocomplete sends keys; people type labels)."""
        return next((o for o in self.outcomes if wanted in (o.key, o.label)), None)


def plainest(outcome: Outcome) -> tuple[int, int, str]:
    """The order a GM's list shows results in: fewest answers on the way (no taking ground,
    no bonus melee), then fewest effects, then by label. A menu shows 25 of them: by label
    alone, a melee's first 25 were bonus melees against a unit the roll never touched,
    while the results a GM corrects a roll to are its plain ones."""
    return len(outcome.answers or ()), effect_count(outcome.label), outcome.label


class _Recorder:
    """Random dice that remember what they rolled, so the result can be replayed."""

    def __init__(self, seed: int) -> None:
        self._random = RandomSource(seed)
        self.path: list[Faces] = []

    def roll(self, kind: RollKind, label: str) -> Faces:
        faces = self._random.roll(kind, label)
        self.path.append(faces)
        return faces


class _Least:
    """A result in the heap of those kept, the least plain on top (``heapq`` pops the least)."""

    __slots__ = ("label", "order")

    def __init__(self, outcome: Outcome) -> None:
        self.order = plainest(outcome)
        self.label = outcome.label

    def __lt__(self, other: _Least) -> bool:
        return other.order < self.order


class _Search:
    """What has been found so far, and whether the bounds have been reached."""

    def __init__(self, deadline: float | None, max_outcomes: int) -> None:
        self.found: dict[str, Outcome] = {}
        self.deadline = deadline
        self.max_outcomes = max_outcomes
        self.kept: list[_Least] = []  # the results found, as a heap: the least plain first
        self.dropped = False  # a result was left out for the cap
        self.late = False  # the deadline passed
        self.walking = False  # a walk stops at the cap: random rolls then find the likely

    @property
    def cut_short(self) -> bool:
        return self.dropped or self.late

    def add(self, label: str, path: tuple[Faces, ...], answers: tuple[str, ...] | None,
            headline: str = "") -> bool:
        """Keep the first dice found for a result, and of more results than the cap the
        plainest; False once the deadline has passed (the list is then cut short), or the
        walk has passed the cap."""
        if label not in self.found:
            outcome = Outcome(label, path, answers, headline)
            least = _Least(outcome)
            if len(self.found) < self.max_outcomes:
                heapq.heappush(self.kept, least)
                self.found[label] = outcome
            else:
                self.dropped = True
                if self.kept and least.order < self.kept[0].order:
                    del self.found[heapq.heapreplace(self.kept, least).label]
                    self.found[label] = outcome
        return not self.must_stop() and not (self.walking and self.dropped)

    def must_stop(self) -> bool:
        if self.deadline is not None and time.monotonic() > self.deadline:
            self.late = True
        return self.late


def _play(prepared: Prepared, source: DiceSource,
          answers: tuple[str, ...] | None) -> Resolution:
    if answers is None:  # as the options say
        return prepared(source)
    return prepared(source, Answers(in_order=list(answers)))


def _sample(prepared: Prepared, search: _Search, samples: int) -> None:
    for seed in range(samples):
        if search.must_stop():
            return
        pick = random.Random(seed)
        answers: tuple[str, ...] | None = None
        while True:
            recorder = _Recorder(seed)  # the same seed rolls the same dice again
            try:
                resolution: Resolution | None = _play(prepared, recorder, answers)
                break
            except Undecided as asked:
                if search.must_stop():  # a question that keeps coming back ends the search
                    return
                answers = (*(answers or ()), pick.choice(asked.question.answers).key)
            except OutOfReach:
                # An answer given ahead these dice put out of reach: the walk lists those
                # results; a sample of them is left to it, not raised as a fault.
                resolution = None
                break
        if resolution is not None:
            search.add(label_of(resolution), tuple(recorder.path), answers,
                       resolution.headline)


def enumerate_outcomes(
    prepared: Prepared,
    *,
    max_leaves: int = 20_000,
    samples: int = 4_000,
    deadline: float | None = None,
    max_outcomes: int = 1_000,
) -> Enumeration:
    """The distinct results, plainest first (``plainest``); ``deadline`` is a
    ``time.monotonic()`` value."""
    search = _Search(deadline, max_outcomes)
    # A walk cut short, by the cap or the clock, has met results in its own order: random
    # rolls get the rest of the time, to add the likely ones it had not reached.
    started = time.monotonic()
    walk_deadline = None if deadline is None else started + (deadline - started) * WALK_SHARE
    search.walking = True
    walked = walk_results(prepared, search.add, max_leaves=max_leaves, deadline=walk_deadline)
    search.walking = False
    if not walked:
        _sample(prepared, search, samples)
    outcomes = tuple(sorted(search.found.values(), key=plainest))
    return Enumeration(outcomes, search.cut_short)


def distinct_outcomes(
    prepared: Prepared, *, max_leaves: int = 20_000, samples: int = 4_000
) -> list[Outcome]:
    return list(enumerate_outcomes(prepared, max_leaves=max_leaves, samples=samples).outcomes)
