"""Autocomplete for the unit-notation options: finish the word being typed, or offer the next."""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord import app_commands

from rules.core.fields import FieldSet

if TYPE_CHECKING:
    from bot.battles.store import BattleStore

MAX_CHOICES = 25
MAX_VALUE = 100


def suggestions(fields: FieldSet, current: str) -> list[app_commands.Choice[str]]:
    """The text typed so far, extended by each word that fits where the cursor is."""
    unit_start = current.rfind(";") + 1
    unit_text = current[unit_start:]
    body = unit_text.split(":", 1)[1] if ":" in unit_text else unit_text
    partial = "" if not body or body[-1].isspace() else body.split()[-1]
    if "=" in partial:
        return []
    used = {w.lower() for w in body.split()}
    stem = current[: len(current) - len(partial)]
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


def roster_suggestions(
    names: list[str], situation: FieldSet | None, current: str
) -> list[app_commands.Choice[str]]:
    """In a battle: complete the unit name being typed, then this fight's situation words.

    ``situation`` is None for options that take a single unit name.
    """
    if situation is None:
        partial = current.strip().casefold()
        return [
            app_commands.Choice(name=n, value=n)
            for n in names
            if partial in n.casefold()
        ][:MAX_CHOICES]
    start = current.rfind(";") + 1
    head, part = current[:start], current[start:]
    if ":" in part:
        return suggestions(situation, current)
    partial = part.strip().casefold()
    prefix = f"{head} " if head and not head.endswith(" ") else head
    choices = []
    for name in names:
        value = f"{prefix}{name}"
        if partial in name.casefold() and len(value) <= MAX_VALUE:
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
