"""Small wording helpers for replies."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence

from rules.core.headlines import SEPARATOR, joined_by_subject


def result_label(label: str, units: Sequence[str], limit: int = 100) -> str:
    """A result as a menu shows it: each unit named once (``Black Watch retires 3" and
    loses 1 SP; Fusiliers routs``), cut at a word within Discord's ``limit`` with an
    ellipsis (``result_rest`` gives what the cut left out).

    A result's label names the unit before each of its effects; in a list of long results
    the repeated names pushed what tells two results apart past the cut."""
    text = _joined(label, units)
    if len(text) <= limit:
        return text
    return _cut(text, limit) + "…"


def answered_label(label: str, answers: Sequence[str] | None, units: Sequence[str],
                   limit: int = 100, *, shared: Collection[str] = ()) -> tuple[str, str | None]:
    """A result as the GM's menu shows it, led by the answers on its way (a chart's ``DS``),
    which a GM reading the chart looks for: its label and what the label cut off.
    ``shared``: effects every result of the menu has, which its message says once."""
    lead = answers_lead(answers)
    said = SEPARATOR.join(own_effects(label, shared)) or "only what every result does"
    return (lead + result_label(said, units, limit - len(lead)),
            result_rest(said, units, limit, cut=limit - len(lead)))


LEAD_ROOM = 16  # a chart's code after a yes or no ("huzzah · DR1: "): a longer path is not one


def answers_lead(answers: Sequence[str] | None) -> str:
    """``DS: ``: the answers on a result's way, where they are as short as a chart's codes;
    a longer path (a unit's name, several choices) is one of many to the same result."""
    lead = f"{' · '.join(answers)}: " if answers else ""
    return lead if len(lead) <= LEAD_ROOM else ""


def own_effects(label: str, shared: Collection[str]) -> list[str]:
    """A result's effects but those ``shared`` (``shared_effects``), each copy counted."""
    left = Counter(shared)
    own = []
    for part in label.split(SEPARATOR):
        if left[part]:
            left[part] -= 1
        else:
            own.append(part)
    return own


def shared_effects(labels: Sequence[str]) -> list[str]:
    """The effects every one of several results has, as many times as each has them, in
    the first one's order."""
    if len(labels) < 2:
        return []
    common = Counter(labels[0].split(SEPARATOR))
    for label in labels[1:]:
        common &= Counter(label.split(SEPARATOR))
    shared = []
    for part in labels[0].split(SEPARATOR):
        if common[part]:
            common[part] -= 1
            shared.append(part)
    return shared


def result_rest(label: str, units: Sequence[str], limit: int = 100,
                cut: int | None = None) -> str | None:
    """What ``result_label`` cut off the end of a long result (within ``limit``), so that
    two results alike in their first words can be told apart; None when nothing was cut.
    ``cut``: where the label was cut, when shorter than ``limit`` (a label led by a code)."""
    text = _joined(label, units)
    cut = limit if cut is None else cut
    if len(text) <= cut:
        return None
    rest = text[len(_cut(text, cut)):].lstrip(" ,;")
    return "…" + (rest if len(rest) < limit else _cut(rest, limit - 1) + "…")


def _joined(label: str, units: Sequence[str]) -> str:
    return SEPARATOR.join(joined_by_subject(label.split(SEPARATOR), units))


def _cut(text: str, limit: int) -> str:
    return text[:limit - 1].rsplit(" ", 1)[0].rstrip(",;")
