"""The odds at a glance: who wins, the few results that decide it, and one line for the rest.

A distribution (``rules.core.odds``) lists every distinct result, and a melee of a few dice has
dozens of them, most differing only in detail: one more block lost, a general wounded rather
than unhurt, the winner advancing or not. A player about to charge asks who wins, and how.
This module reads a distribution as that player does.

- **Fates.** What decides a fight is which units give way: a unit *gone* (eliminated,
  surrendered, removed), one that *routs*, one that *falls back* (retires, retreats, is halted,
  bounces). A fate is what the effect's rule set declared for its kind (``RuleSet.fates``);
  failing that it is read from the words of the kind, and for a move from its verb; only
  effects on the units of the fight count (a general or a leader is no unit of it).
  Everything else (losses, markers, advances, banners, a general's fate) is detail.
- **Main outcomes.** Results with the same fates are one main outcome, named by them ("Béarn
  routs"). A result where no unit gives way is named by the lead of its headline, up to a
  colon, a parenthesis or a number ("52nd wins the melee", "4e Léger and 52nd tie").
- **Who wins.** In a fight of two sides or more, a main outcome where the units of some sides
  gave way and those of one side did not is that side's win; where every side gave way it is
  a draw; where none did, its lead may name a winner ("52nd wins") or a tie, else it decides
  nothing and is named by its lead.
- **One main outcome** says nothing: the lines are then the distinct results under it, named
  by the effects that set them apart from the others.

Every figure is the exact sum of the results under it (or, for an estimate, their count of
samples and its Wilson interval): the lines, with the rest, sum to exactly 1.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import IntEnum
from fractions import Fraction
from functools import lru_cache

from rules.core.effects import declared_fate
from rules.core.headlines import listed
from rules.core.odds import REFUSED, Distribution, OutcomeOdds, wilson_interval
from rules.core.records import Effect, EffectKind


class Fate(IntEnum):
    """How far a unit gave way; a unit's fate in a result is the worst of its effects'."""

    FALLS_BACK = 1
    ROUTS = 2
    GONE = 3


# (a word of the effect's kind, or of a move's verb; the fate; how a player says it), in the
# order they are tried: "routed_off" routs, "surrendered" is gone.
_FATE_WORDS: tuple[tuple[str, Fate, str], ...] = (
    ("surrender", Fate.GONE, "surrenders"),
    ("eliminat", Fate.GONE, "is eliminated"),
    ("destroy", Fate.GONE, "is destroyed"),
    ("remov", Fate.GONE, "is removed"),
    ("rout", Fate.ROUTS, "routs"),
    ("retire", Fate.FALLS_BACK, "retires"),
    ("retreat", Fate.FALLS_BACK, "retreats"),
    ("halt", Fate.FALLS_BACK, "is halted"),
    ("bounce", Fate.FALLS_BACK, "bounces"),
    ("fall", Fate.FALLS_BACK, "falls back"),
)
_DECLARED = {"gone": Fate.GONE, "routs": Fate.ROUTS, "falls back": Fate.FALLS_BACK}
DRAWN = "drawn"
FIREFIGHT = "firefight"
HOLD = "both hold"
OTHER = "other results"
OTHER_COLUMNS = "other columns"


def fate_of(effect: Effect) -> tuple[Fate, str] | None:
    """The fate an effect deals its unit, with the words for it; None for detail."""
    declared = declared_fate(effect)
    if declared is not None:
        return _DECLARED[declared[0]], declared[1]
    return _fate_in_words((effect.value or "") if effect.kind == EffectKind.MOVED
                          else str(effect.kind))


@lru_cache(maxsize=4096)
def _fate_in_words(words: str) -> tuple[Fate, str] | None:
    words = words.casefold()
    for word, fate, said in _FATE_WORDS:
        if word in words:
            return fate, said
    return None


_LEAD_END = re.compile(r"[:;]| \(| by [−-]?\d| at [−-]?\d|, ")


def lead_of(headline: str) -> str:
    """A headline's lead: what happened, without how (``52nd wins the melee (4–2): ...`` is
    ``52nd wins the melee``; ``4e Léger and 52nd tie, 3 all`` is ``4e Léger and 52nd
    tie``)."""
    found = _LEAD_END.search(headline)
    lead = headline[:found.start()] if found and found.start() > 0 else headline
    return lead.strip() or headline


# --- records -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Line:
    """One line of the glance: a main outcome (or a result under the only one), or the rest.

    ``probability`` is the exact sum of its results' (for an estimate, ``count`` samples of
    ``samples``, with the 95% Wilson ``interval``)."""

    label: str
    probability: Fraction
    outcomes: tuple[OutcomeOdds, ...]
    count: int | None = None
    interval: tuple[float, float] | None = None


@dataclass(frozen=True)
class Glance:
    """A distribution as a player reads it first.

    ``verdicts`` say who wins (empty when the fight has one side, or nothing is decided);
    ``lines`` are every main outcome, most likely first (or, when there is only one, the
    results under it)."""

    verdicts: tuple[Line, ...]
    lines: tuple[Line, ...]
    exact: bool
    samples: int | None = None
    charts: tuple[str, ...] = ()  # the charts the player reads (``Question.cell``), if any
    column: str | None = None  # the column whose rows are lines, when there are several

    def top(self, shown: int) -> tuple[tuple[Line, ...], Line | None]:
        """The ``shown`` likeliest lines, and one line for the rest (None when nothing is left;
        a rest of one line is that line, shown)."""
        if len(self.lines) <= shown + 1:
            return self.lines, None
        return self.lines[:shown], self._line(OTHER, [o for line in self.lines[shown:]
                                                      for o in line.outcomes])

    def _line(self, label: str, outcomes: Sequence[OutcomeOdds]) -> Line:
        probability = total(o.probability for o in outcomes)
        if self.exact or self.samples is None:
            return Line(label, probability, tuple(outcomes))
        count = sum(o.count or 0 for o in outcomes)
        return Line(label, probability, tuple(outcomes), count,
                    wilson_interval(count, self.samples))


def total(probabilities: Iterable[Fraction]) -> Fraction:
    """The exact sum, over the least common denominator at once: adding Fractions one by one
    reduces each time, and the fractions of one walk have few prime factors between them."""
    parts = [(p.numerator, p.denominator) for p in probabilities]
    common = math.lcm(*(d for _, d in parts)) if parts else 1
    return Fraction(sum(n * (common // d) for n, d in parts), common)


# --- reading a distribution --------------------------------------------------------------------


def glance(distribution: Distribution, sides: Mapping[str, str] | Iterable[tuple[str, str]],
           fight: Sequence[str] | None = None) -> Glance:
    """``distribution`` at a glance; ``sides`` names the side of each unit (``{"Béarn":
    "defenders"}``): only their effects deal fates, and who wins is said per side. ``fight``
    is the sides that fight (``fight_of``: every answer's results together); by default those
    this distribution's results name."""
    sides = dict(sides)
    outcomes = distribution.outcomes
    fight = list(fight) if fight is not None else fight_of([distribution], sides)
    reader = Glance((), (), distribution.exact, distribution.samples)
    keyed: dict[tuple[object, ...], list[OutcomeOdds]] = {}
    labels: dict[tuple[object, ...], str] = {}
    fates_by_key: dict[tuple[object, ...], dict[str, tuple[Fate, str]]] = {}
    columns = _columns(outcomes)
    # Results of one shape (``group``: the same effects, numbers aside) have the same fates:
    # each shape is read once.
    seen: dict[str, tuple[tuple[object, ...], str, dict[str, tuple[Fate, str]]]] = {}
    for outcome in outcomes:
        found = seen.get(outcome.group) if outcome.cell is None else None
        if found is not None:
            keyed[found[0]].append(outcome)
            continue
        fates = _fates(outcome, sides)
        if outcome.cell is not None:
            # Where the dice landed on a chart the player reads: the rows of the likeliest
            # column, one line each; the other columns together.
            _, column, rows = outcome.cell
            key = ("chart", column, rows)
            label = f"rows {rows}" if column == columns[0] else OTHER_COLUMNS
        elif outcome.group == REFUSED:
            key: tuple[object, ...] = (REFUSED,)
            label = "refused by the rules"
        elif not fates and any(e.kind == FIREFIGHT for e in outcome.changes):
            # Nobody gave way and the two stand and fire on: an outcome of its own.
            key, label = ("firefight",), FIREFIGHT
        elif fates:
            key = ("fates", *sorted((unit, said) for unit, (_, said) in fates.items()))
            label = labels[key] if key in labels else _fates_label(fates, sides)
            seen[outcome.group] = (key, label, fates)
        else:
            label = lead_of(outcome.label)
            key = ("lead", label)
        keyed.setdefault(key, []).append(outcome)
        labels.setdefault(key, label)
        fates_by_key.setdefault(key, fates)
    said = {key: f"the {key[1]} column" if key[0] == "chart"  # type: ignore[str-bytes-safe]
            else FIREFIGHT if key[0] == "firefight"
            else _verdict(fates_by_key[key], labels[key], sides, fight) for key in keyed}
    fought = len(fight) > 1 and any(_decides(v) for v in said.values())
    verdicts: dict[str, list[OutcomeOdds]] = {}
    if fought or columns:  # who wins, or (the chart unread) on which column
        for key, members in keyed.items():
            if fought and not _decides(said[key]) and key[0] == "lead":
                # No unit gave way and no winner is named: beside results that decide, it
                # is one outcome, whatever the dice did on the way.
                said[key] = labels[key] = HOLD if len(fight) == 2 else "all hold"
            verdicts.setdefault(said[key], []).extend(members)
    merged: dict[str, list[OutcomeOdds]] = {}
    for key, members in keyed.items():
        merged.setdefault(labels[key], []).extend(members)
    lines = _sorted(reader._line(label, members) for label, members in merged.items())
    # A chart's rows first, where the dice land being what there is to say: the likeliest
    # first, as every reply's lines (a leader's +6 makes rows 61–66 the likeliest), rows as
    # likely in the chart's order; the other columns close the list, as "other results"
    # does. An estimate's rows are as likely when they round to the same whole percent: its
    # last digits are noise.
    on_chart = {labels[key]: (labels[key] == OTHER_COLUMNS, key[2]) for key in keyed
                if key[0] == "chart"}

    def row_order(line: Line) -> tuple[bool, Fraction, str]:
        chance = line.probability if reader.exact else Fraction(round(line.probability * 100))
        other, rows = on_chart[line.label]
        return other, -chance, rows

    lines = (*sorted((line for line in lines if line.label in on_chart), key=row_order),
             *(line for line in lines if line.label not in on_chart))
    if len(lines) == 1 and len(outcomes) > 1:
        lines = _results_under(reader, outcomes) or lines
    shown = _sorted(reader._line(v, members) for v, members in verdicts.items())
    charts = tuple(dict.fromkeys(o.cell[0] for o in outcomes if o.cell is not None))
    return Glance(shown, lines, distribution.exact, distribution.samples, charts,
                  columns[0] if len(columns) > 1 else None)


def _columns(outcomes: Sequence[OutcomeOdds]) -> list[str]:
    """The columns of the charts read, likeliest first."""
    found: dict[str, list[Fraction]] = {}
    for outcome in outcomes:
        if outcome.cell is not None:
            found.setdefault(outcome.cell[1], []).append(outcome.probability)
    chances = {column: total(ps) for column, ps in found.items()}
    return sorted(chances, key=lambda column: -chances[column])


def _decides(verdict: str) -> bool:
    return verdict in (DRAWN, FIREFIGHT) or verdict.endswith((" win", " wins"))


def _sorted(lines: Iterable[Line]) -> tuple[Line, ...]:
    return tuple(sorted(lines, key=lambda line: (-line.probability, line.label)))


def _fates(outcome: OutcomeOdds, sides: Mapping[str, str]) -> dict[str, tuple[Fate, str]]:
    """Each unit of the fight that gave way in ``outcome``, with its worst fate."""
    found: dict[str, tuple[Fate, str]] = {}
    for effect in outcome.changes:
        if sides and effect.unit not in sides:
            continue  # a general, a leader: not a unit of the fight
        fate = fate_of(effect)
        if fate is not None and (effect.unit not in found or fate[0] > found[effect.unit][0]):
            found[effect.unit] = fate
    return found


def _fates_label(fates: Mapping[str, tuple[Fate, str]], sides: Mapping[str, str]) -> str:
    """``Béarn routs``; ``Grenadiers and Béarn retire``; ``Béarn routs, Artois retires``;
    every unit of a side alike, by the side (``Defenders retire``); every unit, ``all``."""
    by_words: dict[str, list[str]] = {}
    for unit, (_, said) in fates.items():
        by_words.setdefault(said, []).append(unit)
    parts = []
    for said, units in by_words.items():
        names = _names(units, sides)
        parts.append(f"{names[0]} {said}" if len(names) == 1 and names[0] in units
                     else f"{listed(names)} {_plural(said)}")
    return ", ".join(parts)


def _names(units: Sequence[str], sides: Mapping[str, str]) -> list[str]:
    """Units by name, or by their side where they are all of its units (of two or more)."""
    if len(units) > 1 and all(unit in units for unit in sides):
        return ["all"]
    whole = [side for side in dict.fromkeys(sides.values())
             if len([u for u, s in sides.items() if s == side]) > 1
             and all(u in units for u, s in sides.items() if s == side)]
    rest = [unit for unit in units if sides.get(unit) not in whole]
    return [f"{side[:1].upper()}{side[1:]}" for side in whole] + rest


def _plural(said: str) -> str:
    if said.startswith("is "):
        return "are " + said[3:]
    return said[:-1] if said.endswith("s") else said


def fight_of(distributions: Iterable[Distribution], sides: Mapping[str, str]) -> list[str]:
    """The sides of the units the results name, in the order ``sides`` gives them: a battle's
    roster names every unit, the fight only some."""
    shapes: dict[str, tuple[Effect, ...]] = {}  # the units a shape names are its results'
    headlines: set[str] = set()
    for outcome in (o for d in distributions for o in d.outcomes):
        shapes.setdefault(outcome.group, outcome.changes)
        headlines.add(outcome.label)
    named = {e.unit for effects in shapes.values() for e in effects}
    named.update(unit for unit in sides if unit not in named
                 and any(unit in headline for headline in headlines))
    return list(dict.fromkeys(side for unit, side in sides.items() if unit in named))


def _verdict(fates: Mapping[str, tuple[Fate, str]], label: str, sides: Mapping[str, str],
             fight: Sequence[str]) -> str:
    """Who won a main outcome: ``<side> wins``, ``drawn``, or (nothing decided) its label."""
    if len(fight) < 2:
        return label
    gave_way = {sides[unit] for unit in fates if unit in sides}
    if gave_way:
        held = [side for side in fight if side not in gave_way]
        if not held:
            return DRAWN
        return _wins(held[0], sides) if len(held) == 1 else label
    for unit, side in sides.items():
        if side in fight and label.startswith(f"{unit} win"):
            return _wins(side, sides)
    if re.search(r"\b(tie|ties|drawn|draw)\b", label):
        return DRAWN
    return label


def _wins(side: str, sides: Mapping[str, str]) -> str:
    """A side with one unit wins by that unit's name; a side of several by its own."""
    units = [unit for unit, s in sides.items() if s == side]
    if len(units) == 1:
        return f"{units[0]} wins"
    return f"{side[:1].upper()}{side[1:]} win"


def _results_under(reader: Glance, outcomes: Sequence[OutcomeOdds]) -> tuple[Line, ...]:
    """The results of the only main outcome, each named by the effects that set it apart:
    those every result has are left out (a result with none of its own, by its lead)."""
    clauses = {o.group: tuple(o.group.split("; ")) for o in outcomes}
    common = set.intersection(*(set(c) for c in clauses.values()))
    keyed: dict[frozenset[str], list[OutcomeOdds]] = {}
    labels: dict[frozenset[str], str] = {}
    for outcome in outcomes:
        own = tuple(c for c in clauses[outcome.group] if c not in common)
        key = frozenset(own)
        keyed.setdefault(key, []).append(outcome)
        labels.setdefault(key, "; ".join(own) or lead_of(outcome.label))
    return _sorted(reader._line(labels[key], members) for key, members in keyed.items())
