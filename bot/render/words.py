"""Small wording helpers for replies."""

from __future__ import annotations

from collections.abc import Sequence


def counted(count: int, word: str, plural: str | None = None) -> str:
    """``1 event``, ``2 events``, ``0 units``."""
    return f"{count} {word if count == 1 else plural or word + 's'}"


def result_label(label: str, units: Sequence[str], limit: int = 100) -> str:
    """A result as a menu shows it: each unit named once (``Black Watch retires 3", loses
    1 SP; Fusiliers routs``), cut at a word within Discord's ``limit`` with an ellipsis.

    A result's label names the unit before each of its effects; in a list of long results
    the repeated names pushed what tells two results apart past the cut."""
    names = sorted(units, key=len, reverse=True)  # "2nd Foot Guards" before "2nd Foot"
    grouped: list[tuple[str, list[str]]] = []
    for part in label.split("; "):
        unit = next((n for n in names if part.startswith(n + " ")), None)
        if unit is not None and grouped and grouped[-1][0] == unit:
            grouped[-1][1].append(part[len(unit) + 1:])
        else:
            grouped.append((unit or "", [part]))
    text = "; ".join(", ".join(parts) for _, parts in grouped)
    if len(text) <= limit:
        return text
    cut = text[:limit - 1].rsplit(" ", 1)[0].rstrip(",;")
    return cut + "…"
