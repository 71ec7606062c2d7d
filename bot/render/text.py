"""Player text and notes as a reply shows them, with nothing of Discord's API: the worker
processes render with these too (``bot.workers``)."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence

PHONE_LINE = 45  # characters on a line of a phone
PHONE_SCREEN = 20  # lines a phone shows at a glance


# Markup a phone does not show as characters: bold and italics, code spans.
_MARKUP = re.compile(r"[*`]")


def phone_lines(text: str) -> int:
    """The lines ``text`` takes on a phone: its markup not shown, wrapped at ``PHONE_LINE``
    characters as a phone does, never at a hyphen (`fire-at-will` stays whole); none for no
    text (a title or a description left empty is not shown)."""
    if not text:
        return 0
    if "*" in text or "`" in text:
        text = _MARKUP.sub("", text)
    # A line that fits is one line: wrapping it to find so cost `/battle show` a tenth of
    # its time (docs/performance.md).
    return sum(1 if len(part) <= PHONE_LINE else
               max(1, len(textwrap.wrap(part, PHONE_LINE, break_on_hyphens=False)))
               for part in text.split("\n"))

# Each markdown character behind a backslash. Most text has none, which one search finds
# out; a substitution with a template on every text cost a reply a tenth of its rendering.
_MARKDOWN_CHARACTER = re.compile(r"[\\*_`~|>]")
_MARKDOWN = str.maketrans({c: "\\" + c for c in "\\*_`~|>"})


def escape(text: str) -> str:
    """Escape Discord markdown in player-given text (unit names)."""
    if _MARKDOWN_CHARACTER.search(text) is None:
        return text
    return text.translate(_MARKDOWN)


_CODE_SPAN = re.compile(r"(`[^`]*`)")
_PROSE = str.maketrans({c: "\\" + c for c in "\\*_~|"})

OWN = "\x00"
"""Marks a mention or a time the bot itself writes into a refusal (``own``). No player text
holds it: NUL is refused wherever text comes in (``bot.unsendable``)."""

# What Discord shows as something else than its text: a member, a role, a channel, a slash
# command, a custom emoji, a time, a server page (``<@1000>``, ``<#123>``, ``<t:0:R>``).
_TAG = re.compile(r"(\x00?)(<(?:@[!&]?\d+|#\d+|/[^<>\n]+:\d+|a?:\w+:\d+"
                  r"|t:-?\d+(?::\w)?|id:\w+))>")


def own(tag: str) -> str:
    """A mention or a time (``<@1000>``, ``<t:…:R>``) the bot writes into a refusal: shown as
    Discord shows it, where the same text in a unit's name shows as typed (``escape_prose``)."""
    return OWN + tag


def _tags_as_typed(found: re.Match[str]) -> str:
    """A tag as Discord shows it when the bot wrote it, else as typed: ``<@1000\\>``."""
    return f"{found.group(2)}>" if found.group(1) else f"{found.group(2)}\\>"


def escape_prose(text: str) -> str:
    """A message the bot wrote around player text (a refusal naming *Royal* Scots Greys):
    its markdown characters escaped outside its code spans, which show them as typed, and
    so are the mentions, channels and times in player text (a unit called ``<@1000>`` is
    not shown as a member); the bot's own (``own``) are left to Discord."""
    if _MARKDOWN_CHARACTER.search(text) is None:
        return text
    # Split on a capturing group: the code spans are the odd parts.
    return "".join(part if index % 2 else _TAG.sub(_tags_as_typed, part.translate(_PROSE))
                   for index, part in enumerate(_CODE_SPAN.split(text)))


def defaults_note(defaults: Sequence[str]) -> str:
    """Values the rules text does not print, which decided this outcome (or these odds)."""
    if not defaults:
        return ""
    return "Project defaults (see /help): " + "; ".join(defaults)


DEFAULTS_WHOLE = 135
"""Characters of the project defaults' line a reply without Steps (the odds) gives them:
three lines of a phone. Longer, each is named, and `/help` gives it whole."""


def default_names(defaults: Sequence[str]) -> list[str]:
    """Each project default by its name: the words before its colon ("leader casualty
    check") or else its first comma ("without a chart pack")."""
    return list(dict.fromkeys(re.split(r": |, ", default, maxsplit=1)[0]
                              for default in defaults))


def defaults_line(defaults: Sequence[str]) -> str:
    """The project defaults in a reply with no Steps button, in three phone lines: whole
    when they fit, else by name, else the first by name and the rest counted."""
    names = default_names(defaults)
    for said in (defaults, names):
        if len(note := defaults_note(said)) <= DEFAULTS_WHOLE:
            return note
    return f"Project defaults (see /help): {names[0]} and {len(names) - 1} more"
