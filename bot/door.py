"""What an interaction brings in, looked at before any command runs.

Discord's own client only sends what a command declares, but a payload can be forged, and
text can hold what no reply could carry. Whatever the command tree would hand a command in a
shape it cannot use is refused here, privately, saying which option and how to fix it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from bot.unsendable import Found, first_unsendable, refusal
from rules.core.errors import InvalidInput, RulesError

ATTACHMENT = 11  # an option's type when it holds a file
OPTION_HINT = "Type it again without it (text pasted from some editors carries one)."


def refused_at_the_door(data: Mapping[str, Any]) -> RulesError | None:
    """Why the interaction's options cannot be taken, or None when they can."""
    found = unsendable_option(data)
    if found is not None:
        return refusal(found, OPTION_HINT)
    missing = unresolved_attachment(data)
    if missing is not None:
        # discord.py would hand the command a bare Object in place of the file.
        return InvalidInput(f"Discord did not send the file attached to `{missing}`.",
                            hint="Attach it again.")
    return None


def unsendable_option(data: Mapping[str, Any]) -> Found | None:
    """The first character no reply could carry in a text option, or in the name of a file
    attached to one."""
    for option in leaf_options(data):
        value = option.get("value")
        if isinstance(value, str):
            character = first_unsendable(value)
            if character is not None:
                return Found(f"the `{option.get('name', '?')}` option", character)
    for attachment in _attachments(data).values():
        character = first_unsendable(str(attachment.get("filename", "")))
        if character is not None:
            return Found("the attached file's name", character)
    return None


def unresolved_attachment(data: Mapping[str, Any]) -> str | None:
    """The name of an attachment option whose file is not in ``resolved``."""
    attachments = _attachments(data)
    for option in leaf_options(data):
        if option.get("type") == ATTACHMENT and str(option.get("value")) not in attachments:
            return str(option.get("name", "?"))
    return None


def leaf_options(data: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
    """Each option given a value, subcommands and their groups opened."""
    stack = list(data.get("options") or ())
    while stack:
        option = stack.pop()
        if "value" in option:
            yield option
        stack.extend(option.get("options") or ())


def _attachments(data: Mapping[str, Any]) -> Mapping[str, Any]:
    return (data.get("resolved") or {}).get("attachments") or {}
