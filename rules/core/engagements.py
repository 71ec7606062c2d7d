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

    def without(self, unit: str) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
        """The sides with ``unit`` gone from them; None when a side would have nobody left
        (the engagement ends with it)."""
        first, other = (tuple(n for n in side if name_key(n) != name_key(unit))
                        for side in self.sides)
        return (first, other) if first and other else None

    def joins(self, first: Sequence[str], other: Sequence[str]) -> bool:
        """Whether this engagement is between these two groups of units (either way round)."""
        mine = ({name_key(n) for n in self.sides[0]}, {name_key(n) for n in self.sides[1]})
        theirs = ({name_key(n) for n in first}, {name_key(n) for n in other})
        return mine in (theirs, theirs[::-1])

    @property
    def label(self) -> str:
        return self.label_in()

    def label_in(self, words: Mapping[str, EngagementWords] | None = None) -> str:
        """``Melee: A against B``, or as its rule set words its kind (``words``, the rule
        set's own; None: see ``engagement_words``)."""
        said = engagement_words(self.kind, words)
        if said.label is not None:
            return said.label(self)
        first, other = self.sides
        return f"{self.kind.capitalize()}: {' and '.join(first)} against {' and '.join(other)}"


@dataclass(frozen=True)
class EngagementWords:
    """How a rule set's kind of engagement reads, where "Melee: A against B begins" would
    not: a record that a stack made its one attempt against a charge is no fight."""

    label: Callable[[Engagement], str] | None = None
    begins: str = "begins"
    ends: str = "ends"
    # Said after the label of what is left of it when some of its units leave and the
    # others stay in it: neither an end nor a beginning ("begins" reads as a new fight).
    goes_on: str = "goes on without {units}"
    # Said after its label when units that had left it are back in it (an undo or a reroll
    # of the move that took them out): the same fight, not a new one.
    back_in: str = "goes on with {units} back in it"
    # Said after its label when an undo brings back one the undone move had ended: it was
    # never over ("begins" reads as a new fight).
    again: str = "goes on again"
    # Its mark on the roster: a fight's crossed swords, or a record's own.
    icon: str = "⚔️"


# Each rule set's words for its kinds of engagement, under its key (``BattleRules``'s
# ``engagements``, declared when its entry is made): two rule sets may word one kind apart.
_DECLARED: dict[str, Mapping[str, EngagementWords]] = {}


def declare_engagement_words(ruleset: str, words: Mapping[str, EngagementWords]) -> None:
    """A rule set's words, under its key; declaring a key again replaces what it declared."""
    _DECLARED[ruleset] = dict(words)


def engagement_words(kind: str, words: Mapping[str, EngagementWords] | None = None
                     ) -> EngagementWords:
    """How a kind of engagement reads: in the rule set's own ``words`` where they are
    given; without them (a change read outside its battle), as the one rule set that words
    the kind says it, and in the plain words when none does or two say it differently."""
    if words is not None:
        return words.get(kind, EngagementWords())
    found = {said for declared in _DECLARED.values() if (said := declared.get(kind))}
    return found.pop() if len(found) == 1 else EngagementWords()
