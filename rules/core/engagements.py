"""Fights that last: a melee carried over turns, a firefight, an assault.

An engagement names the units on each side and keeps its own state (the turn it began, its
markers, the role of each side). Only effects change it, so the battle log snapshots it and
undo puts it back exactly, like a unit. The roster holds them: rule sets start and end
engagements in their ``apply_effects`` with ``rules.core.roster``'s ``engage`` and
``disengage``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.core.names import name_key


@dataclass(frozen=True)
class Engagement:
    kind: str  # "melee", "firefight", "assault"
    sides: tuple[tuple[str, ...], tuple[str, ...]]  # unit names: the first side, the other
    state: Mapping[str, Any] = field(default_factory=dict)
    id: int | None = None  # storage's; None until stored

    def involves(self, unit: str) -> bool:
        return any(name_key(unit) == name_key(name) for side in self.sides for name in side)

    def facing(self, unit: str) -> tuple[str, ...]:
        """The units on the other side from ``unit``."""
        first, other = self.sides
        return other if any(name_key(unit) == name_key(name) for name in first) else first

    def joins(self, first: Sequence[str], other: Sequence[str]) -> bool:
        """Whether this engagement is between these two groups of units (either way round)."""
        mine = ({name_key(n) for n in self.sides[0]}, {name_key(n) for n in self.sides[1]})
        theirs = ({name_key(n) for n in first}, {name_key(n) for n in other})
        return mine in (theirs, theirs[::-1])

    @property
    def label(self) -> str:
        words = _WORDS.get(self.kind)
        if words is not None and words.label is not None:
            return words.label(self)
        first, other = self.sides
        return f"{self.kind.capitalize()}: {' and '.join(first)} against {' and '.join(other)}"


@dataclass(frozen=True)
class EngagementWords:
    """How a rule set's kind of engagement reads, where "Melee: A against B begins" would
    not: a record that a stack made its one attempt against a charge is no fight."""

    label: Callable[[Engagement], str] | None = None
    begins: str = "begins"
    ends: str = "ends"


_WORDS: dict[str, EngagementWords] = {}


def register_engagement_words(words: Mapping[str, EngagementWords]) -> None:
    for kind, said in words.items():
        if _WORDS.setdefault(kind, said) != said:
            raise ValueError(f"Rule sets word the engagement kind `{kind}` differently.")


def engagement_words(kind: str) -> EngagementWords:
    return _WORDS.get(kind, EngagementWords())
