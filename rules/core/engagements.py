"""Fights that last: a melee carried over turns, a firefight, an assault.

An engagement names the units on each side and keeps its own state (the turn it began, its
markers, the role of each side). Only effects change it, so the battle log snapshots it and
undo puts it back exactly, like a unit. Rule sets start and end engagements in their
``apply_effects`` with :func:`engage` and :func:`disengage`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from rules.core.names import name_key

if TYPE_CHECKING:
    from rules.core.roster import Change, Roster


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


def engage(roster: Roster, kind: str, first: Sequence[str], other: Sequence[str],
           state: Mapping[str, Any] | None = None) -> Roster:
    """The roster with an engagement of ``kind`` between the two groups (once only)."""
    if any(e.kind == kind and e.joins(first, other) for e in roster.engagements):
        return roster
    engagement = Engagement(kind, (tuple(first), tuple(other)), dict(state or {}))
    return replace(roster, engagements=(*roster.engagements, engagement))


def disengage(roster: Roster, unit: str, kind: str | None = None) -> tuple[Roster, list[str]]:
    """The roster without the engagements ``unit`` is in (of ``kind``, or any); and the
    units those engagements held, for the rule set's own bookkeeping."""
    kept, released = [], []
    for engagement in roster.engagements:
        if engagement.involves(unit) and kind in (None, engagement.kind):
            released += [name for side in engagement.sides for name in side]
        else:
            kept.append(engagement)
    return replace(roster, engagements=tuple(kept)), released


def engagement_changes(before: Roster, after: Roster) -> list[Change]:
    """Engagements begun and ended, as changes the log and the reply say."""
    from rules.core.roster import Change

    def same(a: Engagement, b: Engagement) -> bool:
        return a.kind == b.kind and a.joins(*b.sides)

    # The field is the engagement's kind: how its beginning and end read depends on it.
    changes = [Change(e.label, "engagement", e.kind, "active", None)
               for e in before.engagements if not any(same(e, f) for f in after.engagements)]
    changes += [Change(e.label, "engagement", e.kind, None, "active")
                for e in after.engagements if not any(same(e, f) for f in before.engagements)]
    return changes
