"""Typed errors whose messages a player can read and act on.

Every error the engine raises for bad input derives from ``RulesError``; the bot
shows ``str(error)`` to the player as it is, so messages say what is wrong and
how to fix it, in the player's terms.
"""

from __future__ import annotations

MAX_ECHO = 80


def echo(text: str) -> str:
    """Player text quoted back in a message, cut to a readable length: a pasted wall of
    text must leave room for the rest of the message, which says how to fix it."""
    text = " ".join(text.split())
    return text if len(text) <= MAX_ECHO else f"{text[:MAX_ECHO]}…"


def code(text: str) -> str:
    """Player text quoted back in a code span (``echo``), which a backtick in it would
    otherwise close early: then it is set between double backticks, as Discord reads them."""
    text = echo(text)
    return f"`` {text} ``" if "`" in text else f"`{text}`"


class RulesError(Exception):
    """Base of every error the engine raises on purpose."""

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return f"{self.message} {self.hint}" if self.hint else self.message


class InvalidInput(RulesError):
    """A value the rules cannot take: an unknown troop type, a negative strength, a typo."""


class NotAllowed(RulesError):
    """The input is well formed but the rules forbid it (a shaken unit declaring a charge)."""


class DiceError(RulesError):
    """Dice typed in by a player that do not fit what the procedure needs."""


class BadDiceText(DiceError):
    """The dice text cannot be read at all, or names an impossible face."""


class NotEnoughDice(DiceError):
    """A scripted source ran out before the procedure finished rolling."""


class TooManyDice(DiceError):
    """The procedure finished with scripted dice left over."""
