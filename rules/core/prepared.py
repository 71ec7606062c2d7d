"""A procedure made ready to roll, and what the walks of its outcomes read of it.

The odds (``rules.core.odds``) and the GM's list of allowed results (``rules.core.outcomes``)
both run a prepared procedure on dice of their choosing and name what it did.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from fractions import Fraction

from rules.core.dice import Faces
from rules.core.effects import effect_words, is_remark
from rules.core.headlines import SEPARATOR
from rules.core.records import Resolution

Prepared = Callable[..., Resolution]
"""``prepared(dice)``; one that asks questions also takes ``prepared(dice, answers)``, the
answers then replacing those of its options."""

RollGroups = list[tuple[tuple[Faces, ...], Fraction]]
"""The first rolls of a procedure grouped as its rules read them: dice standing for each
group, and the group's exact probability."""

PROBES = 256
"""Random paths used to estimate the size of the tree (and, for the odds, the time a walk of
it would take) before walking it: a tree with rare deep branches (a Tricorne melee's
follow-up rolls) is underestimated a hundredfold by 16, and 256 cost a few milliseconds."""


def with_roll_groups(prepared: Prepared, groups: Callable[[], RollGroups | None]) -> Prepared:
    """``prepared``, with its rule set's word that the procedure reads its first rolls only as
    ``groups()`` tells them apart: every result of those dice leads where its group's dice
    do. A walk of its outcomes then branches once per group, not once per result of the
    dice. ``groups()`` may say None (too many to list): the walk branches as usual.

    Only a walk asks for the groups, and most procedures are played, not walked: they are
    worked out on the first asking (``roll_groups``), not here."""
    prepared.roll_groups = groups  # type: ignore[attr-defined]
    return prepared


_NOT_YET = object()


def roll_groups(prepared: Prepared) -> RollGroups | None:
    """The groups of the procedure's first rolls, if its rule set gives them: worked out
    once per prepared procedure, however often a walk asks."""
    found = getattr(prepared, "roll_groups_found", _NOT_YET)
    if found is _NOT_YET:
        groups = getattr(prepared, "roll_groups", None)
        found = None if groups is None else groups()
        with suppress(AttributeError):  # a prepared procedure that keeps no attributes
            prepared.roll_groups_found = found  # type: ignore[attr-defined]
    return found  # type: ignore[return-value]


NO_EFFECT = " (no effect on units)"


def label_of(resolution: Resolution) -> str:
    """A result as a GM picks it and the odds name it: what it does to the units."""
    # An effect of no words is a rule set's bookkeeping (a unit that has shot this turn):
    # the result it belongs to says it in its own words.
    # A remark (``effects.is_remark``) changes nothing on the table: the reply says it.
    effects = SEPARATOR.join(e.describe() for e in resolution.effects
                                    if effect_words(e) and not is_remark(e))
    return effects or f"{resolution.headline}{NO_EFFECT}"


def effect_count(label: str) -> int:
    """How many effects on units a result's label (``label_of``) holds."""
    return 0 if label.endswith(NO_EFFECT) else label.count(SEPARATOR) + 1
