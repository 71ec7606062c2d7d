"""Every distinct result a procedure can reach, each with dice that reach it.

A GM overriding a result may pick only a result the rules allow. Walking the procedure's
outcomes (``ReplaySource``) finds them all for small fights; past ``max_leaves`` the walk
stops and random rolls fill in, which finds every result of any real likelihood.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass

from rules.core.dice import DiceSource, Faces, RandomSource, ReplaySource, RollKind, Unrolled
from rules.core.records import Resolution

Prepared = Callable[[DiceSource], Resolution]


@dataclass(frozen=True)
class Outcome:
    label: str
    path: tuple[Faces, ...]

    @property
    def key(self) -> str:
        return hashlib.sha1(self.label.encode()).hexdigest()[:12]


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


def distinct_outcomes(
    prepared: Prepared, *, max_leaves: int = 20_000, samples: int = 4_000
) -> list[Outcome]:
    found: dict[str, Outcome] = {}
    stack: list[tuple[Faces, ...]] = [()]
    leaves = 0
    while stack and leaves < max_leaves:
        prefix = stack.pop()
        try:
            resolution = prepared(ReplaySource(prefix))
        except Unrolled as branch:
            if 6 ** branch.kind.dice_count > max_leaves - leaves:
                # Too many branches to walk (a pool of many dice): sample instead.
                stack.append(prefix)
                break
            stack.extend((*prefix, faces) for faces, _ in branch.kind.outcomes())
            continue
        leaves += 1
        found.setdefault(label_of(resolution), Outcome(label_of(resolution), prefix))
    if stack:
        for seed in range(samples):
            recorder = _Recorder(seed)
            resolution = prepared(recorder)
            label = label_of(resolution)
            found.setdefault(label, Outcome(label, tuple(recorder.path)))
    return sorted(found.values(), key=lambda o: o.label)
