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
        """``last``: the battle's last event now; None when the buttons are another
        battle's (one that has ended, or another channel's)."""
        said = (f"Event #{seq} is no longer the last one (the last is now #{last})"
                if last is not None else
                f"Event #{seq} is of another battle (one that has ended, or another "
                "channel's)")
        super().__init__(f"{said}: these buttons only act on the result they sit under.",
                         hint="Use `/gm undo` or `/gm reroll` for the latest.")


def check_battle(battle_id: int | None, expected: tuple[int, int] | None) -> None:
    """A button under a result (``expected``: its battle, its event) acts only in that
    battle (None: the channel has none now): under another's, it is refused before anything
    else is looked at."""
    if expected is not None and expected[0] != battle_id:
        raise NotTheLast(expected[1], None)


class NotWaiting(BattleError):
    """The question a button or ``/answer`` would answer is not waiting (any more)."""
