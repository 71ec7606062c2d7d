"""Refusals of battle commands. They are ``RulesError``s so the bot shows them privately."""

from __future__ import annotations

from rules.core.errors import RulesError


class BattleError(RulesError):
    """A battle command that cannot run as asked; nothing was changed."""


class NoBattle(BattleError):
    def __init__(self) -> None:
        super().__init__(
            "There is no battle in this channel.",
            hint="Start one with `/battle start`, or use the quick lookups without one.",
        )


class NotGM(BattleError):
    def __init__(self, what: str) -> None:
        super().__init__(
            f"Only the battle's GM can {what}.",
            hint="GMs are whoever started the battle, members with Manage Channel, and the GM "
            "role (`/gm role`).",
        )


class AlreadyApplied(BattleError):
    def __init__(self, seq: int) -> None:
        super().__init__(f"This command was already applied (event #{seq}); nothing changed.")


class NotTheLast(BattleError):
    """A button under an older result: it acts only while that result is the last one."""

    def __init__(self, seq: int, last: int | None) -> None:
        now = f" (the last is now #{last})" if last is not None else ""
        super().__init__(f"Event #{seq} is no longer the last one{now}: these buttons only "
                         "act on the result they sit under.",
                         hint="Use `/gm undo` or `/gm reroll` for the latest.")


class NotWaiting(BattleError):
    """The question a button or ``/answer`` would answer is not waiting (any more)."""
