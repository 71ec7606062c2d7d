"""A headline made of phrases ("A scores 2 hits on B; B retreats 1 hex"), fitted to a room.

A long fight says many things; a headline has room for a few. Phrases one after another on
the same unit are said as one first ("B retreats 1 hex and routs"). When that is still too
long, the headline keeps its beginning, the first phrase (who struck first, and how hard):
a phone shows a title's start first, and a title opening on "…" says nothing there. Then
it keeps the phrases that say how the fight ended for a unit (routs, is eliminated, is
killed, wins a Victory Banner) with the phrase just before each (who caused it), then the
latest, a blow that fell on nobody ("scores no hit") last. Each gap is marked "…", and so
is the end when phrases after the last one kept were left out. A first phrase too long
alone is cut at a word's end. What a headline leaves out falls on units, and the reply's
lines for them say it.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence

SEPARATOR = "; "
CUT = "…"
MAX_HEADLINE = 250
"""A result's headline at the most: it is a Discord embed's title (256 characters)."""

# Phrases of a blow that fell on nobody: kept after any other.
_EMPTY = re.compile(r"\bscores no hits?\b|\bscores 0 hits\b", re.IGNORECASE)
# Phrases that say how a fight ended for a unit: kept before any other.
_DECISIVE = re.compile(r"eliminat|\bkill|\brout|surrender|victory banner|\bbreaks|\bwins",
                       re.IGNORECASE)


def fitted(phrases: Sequence[str], room: int, subjects: Collection[str] = ()) -> str:
    """The phrases as one headline of at most ``room`` characters (see the module's doc);
    ``subjects`` are the units the phrases may begin with."""
    whole = SEPARATOR.join(phrases)
    if len(whole) <= room:
        return whole
    # The beginning leads, always: who struck first, and how hard.
    kept = {0}
    if len(_said(phrases, kept, subjects)) > room:  # not even it fits: cut at a word's end
        return _cut_at_a_word(phrases[0], room)
    # How it ended for a unit is the result, with the phrase just before it (who caused
    # it); then the latest.
    decisive = {i for i, phrase in enumerate(phrases) if _DECISIVE.search(phrase)}
    causes = {i - 1 for i in decisive if i > 0} - decisive
    # A phrase that did nothing ("A scores no hit on B") tells the least.
    empty = {i for i, phrase in enumerate(phrases) if _EMPTY.search(phrase)}
    for index in sorted(range(1, len(phrases)),
                        key=lambda i: (i not in decisive, i not in causes, i in empty, -i)):
        if len(_said(phrases, kept | {index}, subjects)) <= room:
            kept.add(index)
    return _said(phrases, kept, subjects)


def _cut_at_a_word(phrase: str, room: int) -> str:
    """``phrase`` cut to ``room`` with "…" after its last whole word (a word longer than the
    room itself is cut within)."""
    head = phrase[:room - len(CUT) - 1].rstrip()
    if phrase[len(head):len(head) + 1] not in ("", " ") and " " in head:
        head = head.rsplit(" ", 1)[0].rstrip(" ,;:")
    return f"{head} {CUT}"


def _said(phrases: Sequence[str], kept: set[int], subjects: Collection[str]) -> str:
    """The kept phrases in their order, a unit's said as one where they follow each other,
    and "…" where phrases were left out."""
    parts: list[str] = []
    run: list[str] = []
    for index, phrase in enumerate(phrases):
        if index in kept:
            run.append(phrase)
            continue
        if run:
            parts.append(SEPARATOR.join(joined_by_subject(run, subjects)))
            run = []
        if not parts or parts[-1] != CUT:
            parts.append(CUT)
    if run:
        parts.append(SEPARATOR.join(joined_by_subject(run, subjects)))
    text = SEPARATOR.join(parts)
    return text.replace(f"{CUT}{SEPARATOR}", f"{CUT} ").replace(f"{SEPARATOR}{CUT}", f" {CUT}")


def listed(names: Sequence[str], last: str = "and") -> str:
    """``A``, ``A and B``, ``A, B and C`` (``last``: the word before the last, ``or``)."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} {last} {names[-1]}"


def together(entries: Iterable[tuple[str, Sequence[str], bool]]
             ) -> list[tuple[list[str], list[str]]]:
    """Each ``(name, its phrases, whether it may share a line)``, in order, as ``(names,
    phrases)``: names of the very same phrases said on one line, where the first stood
    ("1/45e, 2/45e and 3/45e: each …"). A name that holds a list's own words ("1/45e,
    Grenadiers") keeps its line: in a list it would read as two."""
    lines: list[tuple[list[str], list[str]]] = []
    alike: dict[tuple[str, ...], list[str]] = {}
    for name, phrases, shares in entries:
        shares = shares and "," not in name and " and " not in name
        if shares and tuple(phrases) in alike:
            alike[tuple(phrases)].append(name)
            continue
        names = [name]
        if shares:
            alike[tuple(phrases)] = names
        lines.append((names, list(phrases)))
    return lines


def joined_by_subject(phrases: Sequence[str], subjects: Collection[str]) -> list[str]:
    """Phrases one after another on the same unit as one: its name once, the last two joined
    by "and" ("A retreats 2 hexes, loses 1 block and routs")."""
    by_length = sorted(subjects, key=len, reverse=True)
    groups: list[tuple[str | None, list[str]]] = []
    for phrase in phrases:
        subject = next((s for s in by_length if phrase.startswith(f"{s} ")), None)
        if groups and subject is not None and groups[-1][0] == subject:
            groups[-1][1].append(phrase[len(subject) + 1:])
        else:
            groups.append((subject, [phrase]))
    return [listed(parts) for _, parts in groups]
