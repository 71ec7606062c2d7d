"""The battle services the cogs call: each runs its command as one unit of work
(``Database.run``), a change with the channel locked, and hands back plain records.

A change runs through ``BattleStore.apply``: the interaction refused if it was already
applied, a battle waiting for an answer refused anything else (but the answer, and a GM
taking the move back), and everything the command changes logged by its ``BattleTx``.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

import discord
from sqlalchemy import bindparam, select
from sqlalchemy.engine import Connection

from bot.battles.actor import Actor
from bot.battles.backup import Restored, backup_of, import_battle
from bot.battles.decisions import (
    Asked,
    Pending,
    answer_in_battle,
    answer_in_lookup,
    ask_in_battle,
    ask_in_lookup,
    not_theirs,
    refuse_while_waiting,
    waiting_question,
)
from bot.battles.errors import AlreadyApplied, BattleError, NoBattle
from bot.battles.notify import MentionSettings
from bot.battles.play import (
    Paused,
    Played,
    check_ruleset,
    in_phase,
    play_in_battle,
    play_settings,
)
from bot.battles.rerolls import ListingKey, last_roll, move_asked
from bot.battles.store import (
    APPLIED,
    IN_CHANNEL,
    TABLES,
    BattleTx,
    Kept,
    active_battle,
    battle_and_applied,
    no_battle,
)
from bot.battles.traces import TraceKeeper
from bot.battles.undo import Undone, undo_last
from bot.battles.views import BattleRecord, BattleView, read_archive, read_view, record
from bot.storage.database import Database
from bot.storage.question_messages import keep_message
from rules.core.decisions import NOT_THEIRS
from rules.core.roster import Roster

T = TypeVar("T")
NOBODY = Actor(0, "", False, frozenset())

_BATTLES, _UNITS, _GENERALS = TABLES["battles"], TABLES["units"], TABLES["generals"]
_RULESET = select(_BATTLES.c.ruleset).where(*IN_CHANNEL)
_UNIT_NAMES = (select(_UNITS.c.name).where(_UNITS.c.battle_id == bindparam("battle"))
               .order_by(_UNITS.c.side, _UNITS.c.id))
_ACTIVE_UNIT_NAMES = _UNIT_NAMES.where(_UNITS.c.status == "active")
_UNIT_SIDES = (select(_UNITS.c.side).where(_UNITS.c.battle_id == bindparam("battle"))
               .order_by(_UNITS.c.id))
_GENERAL_NAMES = (select(_GENERALS.c.name)
                  .join(_BATTLES, _GENERALS.c.battle_id == _BATTLES.c.id).where(*IN_CHANNEL)
                  .order_by(_GENERALS.c.id))


@dataclass(frozen=True)
class Command:
    """Who runs which command where: all a unit of work needs of the interaction (discord.py's
    objects stay on the event loop)."""

    channel_id: int
    actor: Actor
    interaction_id: int | None
    name: str

    @classmethod
    def of(cls, interaction: discord.Interaction, name: str) -> Command:
        return cls(interaction.channel_id or 0, Actor.from_interaction(interaction),
                   interaction.id, name)


@dataclass(frozen=True)
class RosterRead:
    """A battle as a procedure reads it, outside any move (the odds)."""

    battle: BattleRecord
    roster: Roster
    settings: dict[str, Any]  # the battle's, with its chart pack
    charts: bool  # whether a chart pack is attached

    def options_for(self, procedure: str, options: Mapping[str, Any]) -> dict[str, Any]:
        """The options as a move would play them now (those its phase gives, left out)."""
        return in_phase(self.battle.ruleset, procedure, options, self.battle.phase)


def _apply(conn: Connection, command: Command, work: Callable[[BattleTx], T],
           while_waiting: bool, kept: Kept | None) -> tuple[T, BattleTx]:
    """The work's result, and the unit of work it ran in: the command's view of its
    channel's battle (``kept``: as the last command there left it, if still so). Refused
    when the interaction was already applied (Discord delivering it twice), or, unless
    ``while_waiting``, when the battle waits for an answer."""
    battle, applied, still = battle_and_applied(conn, command.channel_id,
                                                command.interaction_id, kept)
    if applied is not None:
        raise AlreadyApplied(applied)
    if battle is not None and not while_waiting:
        refuse_while_waiting(battle, command.actor.user_id)
    tx = BattleTx(conn, battle, command.actor, command.channel_id,
                  command.interaction_id, command.name, kept if still else None)
    return work(tx), tx


class _RollBack(Exception):
    """Leaves a ``peek`` without committing anything, with what it found."""

    def __init__(self, found: Any) -> None:
        super().__init__()
        self.found = found


def _peeked(conn: Connection, channel_id: int, work: Callable[[BattleTx], T]) -> T:
    battle = active_battle(conn, channel_id)
    raise _RollBack(work(BattleTx(conn, battle, NOBODY, channel_id, None, "peek")))


CHANNELS_REMEMBERED = 10_000
KEPT_CHANNELS = 1_000
"""Channels whose battle's rows are kept between commands."""


class BattleStore:
    def __init__(self, db: Database) -> None:
        self.db = db
        # The rule set of the battle each channel was last seen with. A hint, so that a
        # command in a battle's channel goes straight to its transaction instead of reading
        # first whether there is one (a read costs a move a tenth of its time,
        # docs/performance.md): every battle command reads the battle again in its
        # transaction, and corrects the hint.
        self._rulesets: dict[int, str] = {}
        # Each channel's battle as this process's last command there left it.
        self._kept: OrderedDict[int, Kept] = OrderedDict()
        # The steps behind the Steps button: a lookup's kept here, a battle's in its log.
        self.traces = TraceKeeper(db)
        # Whether each player is pinged when a question waits on him (``/notify``).
        self.mentions = MentionSettings(db)

    def _hint(self, channel_id: int, ruleset: str | None) -> None:
        if ruleset is None:
            self._rulesets.pop(channel_id, None)
            return
        if len(self._rulesets) >= CHANNELS_REMEMBERED and channel_id not in self._rulesets:
            self._rulesets.clear()
        self._rulesets[channel_id] = ruleset

    # --- changes ----------------------------------------------------------------------------

    async def apply(self, command: Command | discord.Interaction, name: str,
                    work: Callable[[BattleTx], T], *, while_waiting: bool = False) -> T:
        """Run ``work`` on the channel's battle as one command, in one transaction with the
        channel locked; ``name`` is the command as the log records it."""
        if isinstance(command, discord.Interaction):
            command = Command.of(command, name)
        channel = command.channel_id
        kept = self._kept.pop(channel, None)  # taken: a command that fails keeps nothing
        try:
            result, tx = await self.db.run(_apply, command, work, while_waiting, kept,
                                           write=True, channel_id=channel)
        except BattleError:
            self._hint(channel, None)  # another rule set's battle by now, perhaps
            raise
        left = tx.keep()
        self._hint(channel, left.battle.ruleset if left else None)
        if left is not None:
            self._kept[channel] = left
            if len(self._kept) > KEPT_CHANNELS:
                self._kept.popitem(last=False)
        return result

    async def peek(self, channel_id: int, work: Callable[[BattleTx], T]) -> T:
        """``work`` on the channel's battle in a transaction that is always rolled back: for
        trying changes out."""
        try:
            await self.db.run(_peeked, channel_id, work, write=True, channel_id=channel_id)
        except _RollBack as rolled_back:
            return rolled_back.found
        raise AssertionError("a peek always rolls back")

    async def move(self, interaction: discord.Interaction, command: str, ruleset: str,
                   procedure: str, options: Mapping[str, Any],
                   dice: str | None) -> Played | Asked | None:
        """Play a procedure as a move in the channel's battle: one transaction that reads the
        roster, plays the rules and logs the event; None when the channel has no battle. A
        procedure that stops at a question for a player keeps the question instead."""
        return await self.apply(interaction, command,
                                partial(_move, ruleset, procedure, dict(options), dice))

    async def answer(self, interaction: discord.Interaction, asked: tuple[int, int] | None,
                     given: str | int) -> Played | Asked:
        """A player's answer to the question the channel's battle is waiting on."""
        return await self.apply(interaction, "/answer",
                                lambda tx: answer_in_battle(tx, asked, given),
                                while_waiting=True)

    async def undo(self, interaction: discord.Interaction, command: str,
                   expected: tuple[int, int] | None = None) -> Undone:
        """Take back the channel's last undoable event (a question waiting included)."""
        return await self.apply(interaction, command, lambda tx: undo_last(tx, expected),
                                while_waiting=True)

    async def restore(self, command: Command | discord.Interaction, data: dict[str, Any], *,
                      guild_id: int | None, gm: int | None) -> Restored:
        """Rebuild the battle a backup holds in the command's channel (which has none going
        on): one transaction, so a file refused writes nothing. ``gm``: who becomes its GM
        (None: the one the file names)."""
        # A battle waiting on a question is a battle all the same: refused as one.
        return await self.apply(command, "/battle import",
                                lambda tx: import_battle(tx, data, guild_id=guild_id, gm=gm),
                                while_waiting=True)

    # --- quick lookups' questions -------------------------------------------------------------

    async def ask_lookup(self, interaction: discord.Interaction, ruleset: str, procedure: str,
                         options: Mapping[str, Any], dice: str | None,
                         paused: Paused) -> Asked:
        return await self.db.run(ask_in_lookup, interaction.channel_id or 0,
                                 Actor.from_interaction(interaction), ruleset, procedure,
                                 dict(options), dice, paused, write=True)

    async def answer_lookup(self, interaction: discord.Interaction, question_id: int | None,
                            given: str | int) -> Played | Asked:
        return await self.db.run(answer_in_lookup, Actor.from_interaction(interaction),
                                 question_id, interaction.channel_id or 0, given, write=True)

    async def waiting_question(self, channel_id: int, user_id: int) -> Pending | None:
        return await self.db.run(waiting_question, channel_id, user_id)

    async def asked_in(self, question: str, channel_id: int, message_id: int) -> None:
        """Keep the message holding ``question``'s buttons (its answer takes it back, in
        ``Played.question_message``)."""
        await self.db.run(keep_message, question, channel_id, message_id, write=True)

    # --- reading ------------------------------------------------------------------------------

    async def last_roll(self, channel_id: int, actor: Actor) -> ListingKey:
        """Which roll an override would replace (for a GM): one read, no lock."""
        return await self.db.run(last_roll, channel_id, actor)

    async def move_asked(self, key: ListingKey) -> bool:
        """Whether that roll asked its questions on its way (they were not all given ahead)."""
        return await self.db.run(move_asked, key)

    async def applied(self, interaction_id: int) -> int | None:
        """The event the interaction recorded, if any: asked when its reply failed, so the
        player is not told that nothing changed when it did."""
        return await self.db.run(Connection.scalar, APPLIED, {"interaction": interaction_id},
                                 one_statement=True)

    async def view(self, channel_id: int, *, ended_too: bool = False,
                   events: int | None = 0) -> BattleView:
        """A consistent read of the channel's battle: its rows as records, and the latest
        ``events`` (None: all of them)."""
        view = await self.db.run(read_view, channel_id, ended_too, events)
        if view is None:
            raise await self.db.run(no_battle, channel_id) if not ended_too else NoBattle()
        return view

    async def archive(self, channel_id: int) -> BattleView:
        """The channel's battle (the active one, else the last ended) for its Markdown
        export: the whole log, and the rolls before the question waiting."""
        view = await self.db.run(read_archive, channel_id)
        if view is None:
            raise NoBattle()
        return view

    async def backup(self, channel_id: int) -> dict[str, Any]:
        """The channel's battle (the active one, else the last ended) as the JSON data of a
        backup, read in one transaction."""
        data = await self.db.run(backup_of, channel_id)
        if data is None:
            raise NoBattle()
        return data

    async def roster_read(self, channel_id: int) -> RosterRead | None:
        """The channel's battle as a procedure reads it (a question waiting does not stop
        it); None when there is none."""
        return await self.db.run(_roster_read, channel_id)

    async def ruleset(self, channel_id: int) -> str | None:
        """The rule set of the channel's active battle; None when there is none. Remembered
        once seen (a hint: callers that act on it read the battle again)."""
        known = self._rulesets.get(channel_id)
        if known is None:
            known = await self.db.run(Connection.scalar, _RULESET, {"channel": channel_id},
                                      one_statement=True)
            if known is not None:
                self._hint(channel_id, known)
        return known

    async def unit_names(self, channel_id: int, *, gone_too: bool = False) -> list[str] | None:
        """Names of the units in the channel's battle; None when there is no battle."""
        return await self.db.run(_unit_names, channel_id, gone_too)

    async def side_names(self, channel_id: int) -> list[str]:
        """The sides of the channel's battle: its two, or those its units have so far (none
        without a battle)."""
        return await self.db.run(_side_names, channel_id)

    async def general_names(self, channel_id: int) -> list[str]:
        """Names of the generals in the channel's battle (none without a battle)."""
        return list(await self.db.run(Connection.scalars, _GENERAL_NAMES,
                                      {"channel": channel_id}, one_statement=True))


# --- the units of work ------------------------------------------------------------------------


def _move(ruleset: str, procedure: str, options: dict[str, Any], dice: str | None,
          tx: BattleTx) -> Played | Asked | None:
    if tx.battle is None:
        return None
    check_ruleset(tx.battle.name, tx.battle.ruleset, ruleset)
    options = in_phase(tx.battle.ruleset, procedure, options, tx.battle.phase)
    theirs = not_theirs(tx)
    if theirs is not None:  # the mover's `choices` answer his own questions only
        options = {**options, NOT_THEIRS: theirs}
    try:
        return play_in_battle(tx, procedure, options, dice)
    except Paused as paused:
        return ask_in_battle(tx, procedure, options, dice, paused)


def _roster_read(conn: Connection, channel_id: int) -> RosterRead | None:
    battle = active_battle(conn, channel_id)
    if battle is None:
        return None
    tx = BattleTx(conn, battle, NOBODY, channel_id, None, "read")
    charts = tx.charts_content()
    return RosterRead(record(BattleRecord, battle), tx.roster(),
                      play_settings(battle.ruleset, battle.settings, charts),
                      charts is not None)


def _side_names(conn: Connection, channel_id: int) -> list[str]:
    battle = active_battle(conn, channel_id)
    if battle is None:
        return []
    return list(battle.sides or dict.fromkeys(conn.scalars(_UNIT_SIDES, {"battle": battle.id})))


def _unit_names(conn: Connection, channel_id: int, gone_too: bool) -> list[str] | None:
    battle = active_battle(conn, channel_id)
    if battle is None:
        return None
    return list(conn.scalars(_UNIT_NAMES if gone_too else _ACTIVE_UNIT_NAMES,
                             {"battle": battle.id}))

