"""Text Huzzah could take in but never send back out, refused where it comes in.

JSON may write a lone UTF-16 surrogate (``"\\ud800"``, half of a pair with no other half):
Python reads it into a string, but no UTF-8 encoder writes it, so every reply quoting it
fails, after the command's work is done and kept. NUL is the other such character: a
PostgreSQL text column refuses it. Options and attachments' names (``bot.door``) and the
files a command reads are looked at before anything is done with them; a refusal quoting such
text shows each of these characters as its escape.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.core.errors import InvalidInput

UNSENDABLE = re.compile("[\x00\ud800-\udfff]")


@dataclass(frozen=True)
class Found:
    """Where the first such character is, and which it is."""

    where: str  # "the `name` option", or a place in a file: "`assault.rows.31-36[2]`"
    character: str

    @property
    def said(self) -> str:
        """The character as a player can read it: ``\\ud800`` (a lone surrogate)."""
        kind = "NUL" if self.character == "\x00" else "a lone UTF-16 surrogate"
        return f"`{escaped(self.character)}` ({kind})"


def refusal(found: Found, hint: str, source: str | None = None) -> InvalidInput:
    """The refusal of text holding such a character: where (in ``source``, a file's name),
    which, and how to fix it."""
    said = f"{found.where} holds {found.said}, a character I can neither send nor keep."
    return InvalidInput(f"{source}: {said}" if source else said[0].upper() + said[1:],
                        hint=hint)


def first_unsendable(text: str) -> str | None:
    """The first character of ``text`` that cannot be sent or kept, or None."""
    found = UNSENDABLE.search(text)
    return None if found is None else found.group()


def shown(text: str) -> str:
    """``text`` with each character that cannot be sent written as its escape, so that a
    message quoting bad input still goes out."""
    if UNSENDABLE.search(text) is None:
        return text
    return UNSENDABLE.sub(lambda found: escaped(found.group()), text)


def escaped(character: str) -> str:
    """A character as JSON and Python write it: ``\\ud800``."""
    return f"\\u{ord(character):04x}"


def in_json(value: Any) -> Found | None:
    """The first such character in a parsed JSON value, in a key or a string, and where it
    is. Walked without recursion: a file may nest as deep as the parser allows."""
    stack: list[tuple[str, Any]] = [("", value)]
    while stack:
        path, item = stack.pop()
        if isinstance(item, str):
            character = first_unsendable(item)
            if character is not None:
                return Found(f"`{path}`" if path else "the file", character)
        elif isinstance(item, Mapping):
            for key in item:
                character = first_unsendable(key)
                if character is not None:
                    return Found(f"a key of `{path}`" if path else "a top-level key",
                                 character)
            stack.extend((f"{path}.{key}" if path else key, member)
                         for key, member in reversed(list(item.items())))
        elif isinstance(item, Sequence):
            stack.extend((f"{path}[{index}]", member)
                         for index, member in reversed(list(enumerate(item))))
    return None
