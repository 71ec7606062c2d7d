"""Player text and notes as a reply shows them, with nothing of Discord's API: the worker
processes render with these too (``bot.workers``)."""

from __future__ import annotations

import re
from collections.abc import Sequence

# Each markdown character behind a backslash. Most text has none, which one search finds
# out; a substitution with a template on every text cost a reply a tenth of its rendering.
_MARKDOWN_CHARACTER = re.compile(r"[\\*_`~|>]")
_MARKDOWN = str.maketrans({c: "\\" + c for c in "\\*_`~|>"})


def escape(text: str) -> str:
    """Escape Discord markdown in player-given text (unit names)."""
    if _MARKDOWN_CHARACTER.search(text) is None:
        return text
    return text.translate(_MARKDOWN)


def defaults_note(defaults: Sequence[str]) -> str:
    """Values the rules text does not print, which decided this outcome (or these odds)."""
    if not defaults:
        return ""
    return "Project defaults (see /help): " + "; ".join(defaults)


DEFAULTS_WHOLE = 90
"""Characters of project defaults a reply without Steps (the odds) says whole: two lines of
a phone. Longer, each is named, and `/help` gives it whole."""


def default_names(defaults: Sequence[str]) -> list[str]:
    """Each project default by its name: the words before its colon ("leader casualty
    check") or else its first comma ("without a chart pack")."""
    return [re.split(r": |, ", default, maxsplit=1)[0] for default in defaults]


def defaults_line(defaults: Sequence[str]) -> str:
    """The project defaults in a reply with no Steps button: whole when they fit two phone
    lines, else by name."""
    if len("; ".join(defaults)) <= DEFAULTS_WHOLE:
        return defaults_note(defaults)
    return defaults_note(default_names(defaults))
