"""A reply as a phone shows it: lines of about 45 characters, a row of buttons one line.

``phone_lines`` counts what a player scrolls through; ``repeated_effects`` finds a clause said
twice in one reply (the same effect in the headline and again below it). A roll's line (🎲) is
not an effect: two units' rolls may carry the same modifier ("+1 close range" on each die of
two targets), and a roll names the column a question asks about; so roll lines are left out,
a decimal point ("1.5:1") does not end a clause, and a clause counts once in its line.
"""

from __future__ import annotations

import re
import textwrap
from collections import Counter
from collections.abc import Iterable
from typing import Any

from bot.offline.transport import SentMessage

PHONE_WIDTH = 45
PHONE_SCREEN = 20

# Markdown a phone does not show as characters; a relative timestamp shows as "2 hours ago".
_MARKUP = re.compile(r"\*\*|__|~~|\|\||`|(?<!\w)\*(?!\s)|(?<!\s)\*(?!\w)")
_TIMESTAMP = re.compile(r"<t:\d+(?::[tTdDfFR])?>")
_LINK = re.compile(r"\[([^\]]+)\]\([^)]+\)")


def shown(text: str) -> str:
    """The characters a phone draws for ``text``."""
    text = _TIMESTAMP.sub("2 hours ago", text)
    text = _LINK.sub(r"\1", text)
    text = re.sub(r"^#+ ", "", text, flags=re.MULTILINE)
    return _MARKUP.sub("", text)


def wrapped(text: str | None) -> list[str]:
    """``text`` as a phone lays it out, word-wrapped at ``PHONE_WIDTH``."""
    if not text:
        return []
    lines: list[str] = []
    for line in shown(text).split("\n"):
        lines.extend(textwrap.wrap(line, PHONE_WIDTH, break_on_hyphens=False) or [""])
    return lines


def embed_texts(embed: dict[str, Any]) -> Iterable[str | None]:
    yield (embed.get("author") or {}).get("name")
    yield embed.get("title")
    yield embed.get("description")
    for field in embed.get("fields", []):
        yield field.get("name")
        yield field.get("value")
    yield (embed.get("footer") or {}).get("text")


def screen(message: SentMessage) -> list[str]:
    """Every line a phone shows for the message: content, embeds, then one per button row."""
    lines = wrapped(message.content)
    for embed in message.embeds:
        for text in embed_texts(embed):
            lines.extend(wrapped(text))
    lines.extend(f"[row of {len(row.get('components', []))}]" for row in message.components)
    return lines


def phone_lines(message: SentMessage) -> int:
    return len(screen(message))


_CLAUSE = re.compile(r"(?<!\d)\.|\.(?!\d)|[;\n]|: |, | — | - |\(|\)")
_ROLL = "🎲"
_SUBJECT = re.compile(r"\*\*(.+?)\*\* ")
_LETTERS = re.compile(r"[^\w' ]+")


def clauses(message: SentMessage) -> list[str]:
    """The message's clauses of three words or more, without icons, markup or case: each
    once per line (a headline may tell two rounds that went alike, "A scores 1 hit on B;
    …; A scores 1 hit on B"), roll lines left out."""
    texts = [message.content or ""]
    for embed in message.embeds:
        texts.extend(t for t in embed_texts(embed) if t)
    found = []
    for text in texts:
        for marked in text.replace("’", "'").split("\n"):
            if _ROLL in marked:
                continue
            # A unit's line ("**Fusiliers** retires 2 hexes, loses 1 block"): each clause is
            # said of that unit, so two units' "loses 1 block" are two effects.
            subject = _SUBJECT.match(marked)
            said = set()
            for index, clause in enumerate(_CLAUSE.split(shown(marked))):
                words = _LETTERS.sub(" ", clause).lower().split()
                if subject and index:
                    words = subject[1].lower().split() + words
                if len(words) >= 3:
                    said.add(" ".join(words))
            found.extend(sorted(said))
    return found


def repeated_effects(message: SentMessage) -> list[str]:
    """Clauses said more than once in one reply."""
    return [clause for clause, count in Counter(clauses(message)).items() if count > 1]
