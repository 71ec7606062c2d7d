"""Autocomplete for the unit-notation options: finish the word being typed, or offer the next."""

from __future__ import annotations

from discord import app_commands

from rules.core.fields import FieldSet

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
