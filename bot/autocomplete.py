"""Autocomplete for the unit-notation options: finish the word being typed, or offer the next."""

from __future__ import annotations

import difflib
from typing import TYPE_CHECKING

from discord import app_commands

from rules.core.fields import FieldSet
from rules.core.names import name_key
from rules.core.notation import outside_quotes

if TYPE_CHECKING:
    from bot.battles.service import BattleStore

MAX_CHOICES = 25
MAX_VALUE = 100


def suggestions(fields: FieldSet, current: str) -> list[app_commands.Choice[str]]:
    """The text typed so far, extended by each word that fits where the cursor is."""
    body = _body(current)
    partial = "" if not body or body[-1].isspace() else body.split()[-1]
    if "=" in partial:
        return []
    stem = _spelt_right(fields, current[: len(current) - len(partial)])
    # The words as the choice will send them, typos put right: none is offered twice.
    used = {w.lower() for w in _body(stem).split()}
    if stem and not stem[-1].isspace():
        stem += " "
    words = [w for w in fields.words() if w.startswith(partial.lower()) and w not in used]
    choices = []
    for word in words:
        value = f"{stem}{word}"
        if len(value) > MAX_VALUE:
            break
        choices.append(app_commands.Choice(name=value, value=value))
        if len(choices) == MAX_CHOICES:
            break
    return choices


def _body(text: str) -> str:
    """The words of the unit being typed, after its name's colon."""
    unit_text = text[_unit_start(text):]
    colons = outside_quotes(unit_text, ":")
    return unit_text[colons[0] + 1:] if colons else unit_text


def _spelt_right(fields: FieldSet, stem: str) -> str:
    """``stem`` with each word typed before the cursor's that is no word of ``fields`` but
    close to one put right (``inf regulr `` → ``inf regular ``): the choice picked would
    otherwise carry the typo into the command. Words with a value (``morale=4``) or in
    double quotes are left as typed, and so is the unit's name before its colon."""
    body = _body(stem)
    start = len(stem) - len(body)
    if '"' in body or "“" in body or "”" in body:
        return stem
    known = fields.words()
    words = []
    for word in body.split():
        close = [] if "=" in word or fields.knows(word) else \
            difflib.get_close_matches(word.lower(), known, n=1, cutoff=0.8)
        words.append(close[0] if close and not close[0].endswith("=") else word)
    if words == body.split():
        return stem
    head = stem[:start]
    return f"{head}{' ' if head else ''}{' '.join(words)} "


def _unit_start(current: str) -> int:
    """Where the unit being typed begins: after the last `;` outside double quotes."""
    separators = outside_quotes(current, ";")
    return separators[-1] + 1 if separators else 0


def _found(partial: str, name: str) -> bool:
    """Whether what is typed is part of a name, as lookups compare names (a phone's ’
    finds ')."""
    return name_key(partial) in name_key(name)


def roster_suggestions(
    names: list[str], situation: FieldSet | None, current: str
) -> list[app_commands.Choice[str]]:
    """In a battle: complete the unit name being typed, then this fight's situation words.

    ``situation`` is None for options that take a single unit name.
    """
    if situation is None:
        return [app_commands.Choice(name=n, value=n) for n in names
                if _found(current, n)][:MAX_CHOICES]
    start = _unit_start(current)
    head, part = current[:start], current[start:]
    if outside_quotes(part, ":"):
        return suggestions(situation, current)
    prefix = f"{head} " if head and not head.endswith(" ") else head
    choices = []
    for name in names:
        value = f"{prefix}{name}"
        if _found(part, name) and len(value) <= MAX_VALUE:
            choices.append(app_commands.Choice(name=value, value=value))
    return choices[:MAX_CHOICES]


async def unit_name_choices(
    store: BattleStore, channel_id: int | None, current: str, *, gone_too: bool = False
) -> list[app_commands.Choice[str]]:
    """The channel's roster units matching what is typed (none without a battle)."""
    names = await store.unit_names(channel_id or 0, gone_too=gone_too) or []
    return roster_suggestions(names, None, current)


async def general_name_choices(
    store: BattleStore, channel_id: int | None, current: str
) -> list[app_commands.Choice[str]]:
    """The channel's generals matching what is typed."""
    return roster_suggestions(await store.general_names(channel_id or 0), None, current)


async def side_choices(
    store: BattleStore, channel_id: int | None, current: str
) -> list[app_commands.Choice[str]]:
    """The sides of the channel's battle matching what is typed."""
    return roster_suggestions(await store.side_names(channel_id or 0), None, current)
