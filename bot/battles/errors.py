"""Refusals of battle commands. They are ``RulesError``s so the bot shows them privately."""

from __future__ import annotations

from rules.core.errors import RulesError


class BattleError(RulesError):
    """A battle command that cannot run as asked; nothing was changed."""


class NoBattle(BattleError):
    """No battle going on in the channel; ``ended``: the name of the one that ended there
    last, if any (players coming back to a battle their GM has ended are told so)."""

    def __init__(self, ended: str | None = None) -> None:
        if ended is not None:
            super().__init__(f"No battle is going on in this channel: {ended} has ended.",
                             hint="`/battle log` and `/battle export` still read it; "
                                  "`/battle start` begins a new one.")
            return
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


class OtherRuleSet(BattleError):
    """A command of one rule set in a channel whose battle is played with another."""

    def __init__(self, battle_name: str, title: str, battle_ruleset: str, lookup_title: str,
                 instead: str | None = None) -> None:
        self.args_given = (battle_name, title, battle_ruleset, lookup_title)
        self.battle_ruleset = battle_ruleset
        # The same command of the battle's rule set, where it has one (the bot's commands
        # know; see ``bot.errors``); else where to find its commands.
        use = f"Use `{instead}` here" if instead else \
            f"`/help topic:{battle_ruleset}` lists its commands"
        super().__init__(f"This channel's battle, {battle_name}, is played with {title}.",
                         hint=f"{use}, or add `lookup:true` for a quick {lookup_title} lookup "
                              "that leaves the battle alone.")

    def instead(self, command: str) -> OtherRuleSet:
        """The refusal naming ``command``, the battle's rule set's own for the same verb."""
        return OtherRuleSet(*self.args_given, instead=command)


class AlreadyApplied(BattleError):
    def __init__(self, seq: int) -> None:
        super().__init__(f"This command was already applied (event #{seq}); nothing changed.")


class NotTheLast(BattleError):
    """A button under an older result: it acts only while that result is the last one."""

    def __init__(self, seq: int, last: int | None, *, none_here: bool = False) -> None:
        """``last``: the battle's last event now; None when the buttons are another
        battle's (one that has ended, or another channel's). ``none_here``: no battle is
        going on in the channel now, so there is no latest result to point to."""
        said = (f"Event #{seq} is no longer the last one (the last is now #{last})"
                if last is not None else
                f"Event #{seq} is of another battle (one that has ended, or another "
                "channel's)")
        super().__init__(f"{said}: these buttons only act on the result they sit under.",
                         hint="No battle is going on in this channel now: `/battle log` and "
                              "`/battle export` read the one that ended." if none_here else
                              "Use `/gm undo` or `/gm reroll` for the latest.")


def check_battle(battle_id: int | None, expected: tuple[int, int] | None) -> None:
    """A button under a result (``expected``: its battle, its event) acts only in that
    battle (None: the channel has none now): under another's, it is refused before anything
    else is looked at."""
    if expected is not None and expected[0] != battle_id:
        raise NotTheLast(expected[1], None, none_here=battle_id is None)


class NotWaiting(BattleError):
    """The question a button or ``/answer`` would answer is not waiting (any more)."""
