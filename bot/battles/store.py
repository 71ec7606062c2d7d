"""The unit of work for battle commands.

Every command that touches a battle runs inside ``BattleStore.command``: one transaction,
with the channel locked (commands in one channel apply one at a time, across processes),
the same Discord interaction refused if it was already applied, and every row it changes
snapshotted before and after. ``record`` turns those snapshots into an event in the log, so
undo can put back exactly what was there.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

import discord
from sqlalchemy import Select, select, text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import defer

from bot.battles.actor import Actor
from bot.battles.errors import AlreadyApplied, BattleError, NoBattle, NotGM
from bot.battles.states import ChannelStates
from bot.storage.database import Database
from bot.storage.models import UNDOABLE, Base, Battle, Charts, Event, General, Unit
from bot.storage.models import Engagement as EngagementRow
from rules.core.engagements import Engagement
from rules.core.registry import BattleRules
from rules.core.roster import Roster, RosterGeneral, RosterUnit, name_key
from rules.registry import RULESETS

if TYPE_CHECKING:
    from bot.battles.decisions import Asked
    from bot.battles.play import Played
    from bot.battles.undo import Undone

MODELS: dict[str, type[Base]] = {"battles": Battle, "units": Unit, "generals": General,
                                 "engagements": EngagementRow, "charts": Charts}
# The sequence counter only ever grows: undo must not wind it back.
NOT_RESTORED = ("last_seq",)
NOT_UNDOABLE = ("undo", "battle_start")
# A read of a battle and up to this many of its events is quick enough to run on the event
# loop (see ``Database.batch``); the whole log, for an export, is not.
QUICK_EVENTS = 50


def snapshot(row: Base) -> dict[str, Any]:
    values = row.snapshot()
    for key in NOT_RESTORED:
        values.pop(key, None)
    return values


def roster_unit(row: Unit) -> RosterUnit:
    return RosterUnit(
        name=row.name,
        side=row.side,
        attributes=dict(row.attributes or {}),
        strength=row.strength,
        status=row.status,
        gone_reason=row.gone_reason,
        commander=row.commander,
    )


def roster_general(row: General) -> RosterGeneral:
    return RosterGeneral(row.name, row.side, row.unit_name, row.wounds, row.status, row.value)


def roster_engagement(row: Any) -> Engagement:
    first, other = row.sides
    return Engagement(row.kind, (tuple(first), tuple(other)), dict(row.state or {}), row.id)


def engagement_columns(engagement: Engagement) -> dict[str, Any]:
    """The columns of an engagement's row that the engine's roster decides."""
    return {"kind": engagement.kind, "sides": [list(side) for side in engagement.sides],
            "state": dict(engagement.state)}


def unit_columns(unit: RosterUnit) -> dict[str, Any]:
    """The columns of a unit's row that the engine's roster decides."""
    return {"strength": unit.strength, "status": unit.status, "gone_reason": unit.gone_reason,
            "attributes": dict(unit.attributes), "commander": unit.commander}


def general_columns(general: RosterGeneral) -> dict[str, Any]:
    """The columns of a general's row that the engine's roster decides."""
    return {"wounds": general.wounds, "status": general.status, "unit_name": general.unit}


@dataclass
class Tracked:
    row: Base
    before: dict[str, Any] | None
    deleted: bool = False


class BattleTx:
    """One command's view of its channel's battle, inside the command's transaction."""

    def __init__(
        self, session: AsyncSession, battle: Battle | None, actor: Actor, channel_id: int,
        interaction_id: int | None, command: str,
    ) -> None:
        self.session = session
        self.battle = battle
        self.actor = actor
        self.channel_id = channel_id
        self.interaction_id = interaction_id
        self.command = command
        # Keyed by object identity: the session's identity map gives one object per row.
        self._tracked: dict[int, Tracked] = {}
        # Read once per command: the channel is locked, so only this command changes them.
        self._units: list[Unit] | None = None
        self._generals: list[General] | None = None
        self._engagements: list[EngagementRow] | None = None

    # --- guards ---------------------------------------------------------------------------

    def require_battle(self) -> Battle:
        if self.battle is None:
            raise NoBattle()
        return self.battle

    def require_gm(self, what: str) -> Battle:
        battle = self.require_battle()
        if not self.actor.is_gm(battle.created_by, battle.gm_role_id):
            raise NotGM(what)
        return battle

    def require_owner(self, row: Unit | General, what: str) -> None:
        """Only whoever added a unit or general, or a GM, may ``what`` (edit, remove) it."""
        battle = self.require_battle()
        if not self.actor.may_change(row.added_by, battle.created_by, battle.gm_role_id):
            raise NotOwner(row.name, what, row.added_by)

    @property
    def rules(self) -> BattleRules:
        battle = self.require_battle()
        rules = RULESETS[battle.ruleset].battle
        assert rules is not None
        return rules

    # --- reading --------------------------------------------------------------------------

    async def unit_rows(self) -> list[Unit]:
        if self._units is None:
            battle = self.require_battle()
            self._units = list(await self.session.scalars(
                select(Unit).where(Unit.battle_id == battle.id).order_by(Unit.id)
            ))
        return list(self._units)

    async def general_rows(self) -> list[General]:
        if self._generals is None:
            battle = self.require_battle()
            self._generals = list(await self.session.scalars(
                select(General).where(General.battle_id == battle.id).order_by(General.id)
            ))
        return list(self._generals)

    async def engagement_rows(self) -> list[EngagementRow]:
        """The battle's engagements still going on."""
        if self._engagements is None:
            battle = self.require_battle()
            self._engagements = list(await self.session.scalars(
                select(EngagementRow).where(EngagementRow.battle_id == battle.id,
                                            EngagementRow.status == "active")
                .order_by(EngagementRow.id)))
        return list(self._engagements)

    async def charts_row(self) -> Charts | None:
        """The chart pack attached to the battle, if any."""
        battle = self.require_battle()
        return await self.session.scalar(select(Charts).where(Charts.battle_id == battle.id))

    def _forget_rows(self) -> None:
        """Rows were added or deleted: read the lists afresh when next asked."""
        self._units = self._generals = self._engagements = None

    async def roster(self) -> Roster:
        units = await self.unit_rows()
        generals = await self.general_rows()
        engagements = await self.engagement_rows()
        return Roster(tuple(map(roster_unit, units)), tuple(map(roster_general, generals)),
                      tuple(map(roster_engagement, engagements)))

    async def unit_row(self, name: str, *, allow_gone: bool = False) -> Unit:
        roster = await self.roster()
        unit = roster.unit(name, allow_gone=allow_gone)  # the engine's error on a miss
        return next(r for r in await self.unit_rows() if r.name_key == name_key(unit.name))

    async def general_row(self, name: str) -> General:
        roster = await self.roster()
        general = roster.general(name)
        return next(g for g in await self.general_rows() if g.name_key == name_key(general.name))

    # --- writing, with snapshots for undo ---------------------------------------------------

    def touch(self, row: Base) -> None:
        """Call before changing a row: remembers how it was."""
        if id(row) not in self._tracked:
            self._tracked[id(row)] = Tracked(row, snapshot(row))

    def add(self, row: Base) -> None:
        self.session.add(row)
        self._tracked[id(row)] = Tracked(row, None)
        self._forget_rows()

    async def delete(self, row: Base) -> None:
        self.touch(row)
        self._tracked[id(row)].deleted = True
        await self.session.delete(row)
        self._forget_rows()

    async def write_roster(self, after: Roster) -> None:
        """Write the engine's roster back onto the rows that differ."""
        units = {r.name_key: r for r in await self.unit_rows()}
        for unit in after.units:
            row = units[name_key(unit.name)]
            if roster_unit(row) != unit:
                self._set(row, unit_columns(unit))
        generals = {g.name_key: g for g in await self.general_rows()}
        for general in after.generals:
            row = generals[name_key(general.name)]
            if roster_general(row) != general:
                self._set(row, general_columns(general))
        await self._write_engagements(after.engagements)

    async def unit_renamed_or_gone(self, name: str, new_name: str | None) -> None:
        """Engagements follow a unit renamed (``new_name``), and end for one removed (None):
        nobody stays locked in a fight with a name no unit has."""
        for row in await self.engagement_rows():
            engagement = roster_engagement(row)
            if not engagement.involves(name):
                continue
            if new_name is None:
                self._set(row, {"status": "ended"})
            else:
                sides = [[new_name if name_key(n) == name_key(name) else n for n in side]
                         for side in engagement.sides]
                self._set(row, {"sides": sides})

    async def _write_engagements(self, after: tuple[Engagement, ...]) -> None:
        """New engagements get a row; ended ones are marked so; changed ones are updated."""
        battle = self.require_battle()
        rows = {row.id: row for row in await self.engagement_rows()}
        kept = {e.id for e in after if e.id is not None}
        for row_id, row in rows.items():
            if row_id not in kept:
                self._set(row, {"status": "ended"})
        for engagement in after:
            if engagement.id is None:
                self.add(EngagementRow(battle_id=battle.id, status="active",
                                       **engagement_columns(engagement)))
            elif roster_engagement(rows[engagement.id]) != engagement:
                self._set(rows[engagement.id], engagement_columns(engagement))

    def _set(self, row: Base, values: dict[str, Any]) -> None:
        self.touch(row)
        for column, value in values.items():
            setattr(row, column, value)

    async def record(
        self,
        kind: str,
        summary: str,
        *,
        request: dict[str, Any] | None = None,
        resolution: dict[str, Any] | None = None,
        reverts: int | None = None,
    ) -> Event:
        """Append the event for everything touched so far; the log has no gaps."""
        battle = self.require_battle()
        await self.session.flush()
        changes = [self._change(t) for t in self._tracked.values()]
        self._tracked.clear()
        battle.last_seq += 1
        event = Event(
            battle_id=battle.id,
            seq=battle.last_seq,
            interaction_id=self.interaction_id,
            user_id=self.actor.user_id,
            user_name=self.actor.name[:100],
            command=self.command[:200],
            kind=kind,
            summary=summary[:500],
            request=request,
            resolution=resolution,
            changes=[c for c in changes if c["before"] != c["after"]],
            reverts=reverts,
        )
        self.session.add(event)
        # One interaction records one event; a second in the same command has no id.
        self.interaction_id = None
        return event  # written with the rest at the next flush or at commit

    @staticmethod
    def _change(tracked: Tracked) -> dict[str, Any]:
        row = tracked.row
        return {
            "table": row.__tablename__,
            "id": row.id,  # type: ignore[attr-defined]
            "before": tracked.before,
            "after": None if tracked.deleted else snapshot(row),
        }

    # --- undo -----------------------------------------------------------------------------

    async def last_undoable(self, *, skipping: tuple[str, ...] = ()) -> Event:
        """The latest event not yet undone, passing over events of the ``skipping`` kinds."""
        battle = self.require_battle()
        event = await self.session.scalar(
            undoable(battle.id, skipping)
            # The recorded resolution is the largest column and undo never reads it.
            .options(defer(Event.resolution, raiseload=True))
        )
        if event is None:
            raise BattleError("There is nothing to undo in this battle.")
        return event

    async def events_since(self, seq: int, *, skipping: tuple[str, ...] = ()) -> list[Event]:
        """The events from ``seq`` on that undo could take back, oldest first, passing over
        events of the ``skipping`` kinds."""
        battle = self.require_battle()
        found = await self.session.scalars(
            select(Event).where(Event.battle_id == battle.id, text(UNDOABLE), Event.seq >= seq,
                                Event.kind.not_in((*NOT_UNDOABLE, *skipping)))
            .order_by(Event.seq).options(defer(Event.resolution, raiseload=True)))
        return list(found)

    async def revert(self, event: Event, *, keeping: tuple[str, ...] = ()) -> None:
        """Put every row the event changed back as it was before it, but for the battle's
        fields in ``keeping`` (a reroll keeps the dice queue as it is now)."""
        for change in reversed(event.changes):
            model = MODELS[change["table"]]
            row = await self.session.get(model, change["id"])
            step = restoring(change, row is not None)
            if step is None:
                continue
            action, values = step
            if change["table"] == "battles":
                values = {k: v for k, v in values.items() if k not in keeping}
            if action == "delete":
                await self.delete(row)
            elif action == "insert":
                row = model()
                row.restore(values)
                row.id = change["id"]  # type: ignore[attr-defined]
                self.add(row)
            else:
                self.touch(row)
                row.restore(values)

    async def undo(self, event: Event, summary: str, *, keeping: tuple[str, ...] = ()) -> Event:
        await self.revert(event, keeping=keeping)
        undo = await self.record("undo", summary, reverts=event.seq)
        event.undone_by = undo.seq
        return undo


def restoring(change: dict[str, Any], exists: bool) -> tuple[str, dict[str, Any]] | None:
    """What undoing one logged change does to its row: ``("delete", {})``, ``("insert",
    snapshot)`` or ``("update", fields)``; None when there is nothing to do."""
    before, after = change["before"], change["after"] or {}
    if before is None:
        return ("delete", {}) if exists else None
    if not exists:
        return "insert", before
    # Only the fields this event changed: later events may have changed others (a GM
    # queueing dice after a roll) and those stay as they are.
    return "update", {key: value for key, value in before.items() if after.get(key) != value}


def undoable(battle_id: int, skipping: tuple[str, ...] = ()) -> Select[tuple[Event]]:
    """The latest event undo may take back. The condition of the index on such events is
    repeated word for word (literals, not bound values): SQLite's planner then sees that
    the query implies it, and each undo is one index step however long the log."""
    return (select(Event)
            .where(Event.battle_id == battle_id, text(UNDOABLE),
                   Event.kind.not_in((*NOT_UNDOABLE, *skipping)))
            .order_by(Event.seq.desc())
            .limit(1))


class NotOwner(BattleError):
    """A player changing a unit or general someone else added."""

    def __init__(self, name: str, what: str, added_by: int | None) -> None:
        if added_by is None:
            text = (f"Only a GM can {what} {name}: it was added before Huzzah kept track of "
                    "who adds what.")
        else:
            text = f"Only <@{added_by}>, who added {name}, or a GM can {what} it."
        super().__init__(text, hint="GMs are whoever started the battle, members with Manage "
                                    "Channel, and the GM role (`/gm role`).")


class _RollBack(Exception):
    """Leaves a ``peek`` transaction without committing it."""


@dataclass(frozen=True)
class BattleView:
    """A consistent read of a battle, as plain read-only records (never database rows)."""

    battle: Any
    units: list[Any]
    generals: list[Any]
    events: list[Any]
    engagements: list[Any] = field(default_factory=list)  # still going on
    charts: str | None = None  # the file name of the chart pack attached, if any


CHANNELS_REMEMBERED = 10_000


class BattleStore:
    def __init__(self, db: Database) -> None:
        self.db = db
        # The rule set of the battle last seen in each channel. A hint only, so that a move
        # goes straight to its transaction: every battle command and move reads the battle
        # again under the channel's lock and corrects the hint, so a battle ended or started
        # by another process costs one extra transaction, never a wrong result. Until this
        # process runs a command there, autocomplete may offer the old rule set's words.
        self._rulesets: dict[int, str] = {}
        # Bumped on every change to the hints, so a read that raced one is not remembered.
        self._hints_changed = 0
        # What each channel's battle was left as by this process's last move there.
        self._states = ChannelStates()

    @asynccontextmanager
    async def command(
        self, channel_id: int, actor: Actor, interaction_id: int | None, command: str,
        *, while_waiting: bool = False,
    ) -> AsyncIterator[BattleTx]:
        """A battle command's transaction. A battle waiting for a player's answer takes
        no other command, unless ``while_waiting`` (the answer itself)."""
        from bot.battles.decisions import refuse_while_waiting

        self._states.forget(channel_id)
        async with self.db.transaction(channel_id=channel_id) as session:
            self._states.forget(channel_id)  # a move may have kept one while this waited
            if interaction_id is not None:
                seq = await session.scalar(
                    select(Event.seq).where(Event.interaction_id == interaction_id)
                )
                if seq is not None:
                    raise AlreadyApplied(seq)
            battle = await active_battle(session, channel_id)
            if battle is not None and not while_waiting:
                refuse_while_waiting(battle)
            tx = BattleTx(session, battle, actor, channel_id, interaction_id, command)
            yield tx
        self._remember(channel_id, tx.battle)

    def _remember(self, channel_id: int, battle: Battle | None) -> None:
        active = battle is not None and battle.status == "active"
        self._hint(channel_id, battle.ruleset if active else None)  # type: ignore[union-attr]

    def _hint(self, channel_id: int, ruleset: str | None) -> None:
        """What this command saw under the channel's lock: the channel's rule set, or none."""
        self._hints_changed += 1
        if ruleset is None:
            self._rulesets.pop(channel_id, None)
            return
        if len(self._rulesets) >= CHANNELS_REMEMBERED and channel_id not in self._rulesets:
            self._rulesets.clear()
        self._rulesets[channel_id] = ruleset

    @asynccontextmanager
    async def peek(self, channel_id: int) -> AsyncIterator[BattleTx]:
        """A battle transaction that is always rolled back: for trying changes out."""
        actor = Actor(0, "", False, frozenset())
        try:
            async with self.db.transaction(channel_id=channel_id) as session:
                battle = await active_battle(session, channel_id)
                yield BattleTx(session, battle, actor, channel_id, None, "peek")
                raise _RollBack
        except _RollBack:
            pass

    async def move(self, interaction: discord.Interaction, command: str, ruleset: str,
                   procedure: str, options: Mapping[str, Any],
                   dice: str | None) -> Played | Asked | None:
        """Play a procedure as a move in the channel's battle (see ``bot.battles.moves``);
        None when the channel has no battle. A procedure that stops at a question for a
        player is played again under the battle's lock, which keeps the question."""
        from bot.battles.moves import Command, play_move
        from bot.battles.play import Paused

        channel_id = interaction.channel_id or 0
        try:
            played: Played | Asked | None = await play_move(
                self.db, Command(channel_id, Actor.from_interaction(interaction),
                                 interaction.id, command), ruleset, procedure, options, dice,
                self._states)
        except Paused:
            played = await self._play_or_ask(interaction, command, procedure, options, dice)
        except BattleError:
            self._hint(channel_id, None)  # perhaps another rule set's battle by now
            raise
        self._hint(channel_id, None if played is None else ruleset)
        return played

    async def _play_or_ask(self, interaction: discord.Interaction, command: str,
                           procedure: str, options: Mapping[str, Any],
                           dice: str | None) -> Played | Asked:
        from bot.battles.decisions import ask_in_battle
        from bot.battles.play import Paused, play_in_battle

        async with self.for_interaction(interaction, command) as tx:
            try:
                return await play_in_battle(tx, procedure, options, dice)
            except Paused as paused:
                return await ask_in_battle(tx, procedure, options, dice, paused)

    async def answer(self, interaction: discord.Interaction, asked: tuple[int, int] | None,
                     given: str | int) -> Played | Asked:
        """A player's answer to the question the channel's battle is waiting on."""
        from bot.battles.decisions import answer_in_battle

        async with self.command(interaction.channel_id or 0,
                                Actor.from_interaction(interaction), interaction.id,
                                "/answer", while_waiting=True) as tx:
            return await answer_in_battle(tx, asked, given)

    async def undo(self, interaction: discord.Interaction, command: str,
                   expected: tuple[int, int] | None = None) -> Undone:
        """Take back the channel's last undoable event (see ``bot.battles.undo``)."""
        from bot.battles.moves import Command
        from bot.battles.undo import undo_last

        channel_id = interaction.channel_id or 0
        kept = self._states.get(channel_id)
        self._states.forget(channel_id)
        return await undo_last(self.db, Command(channel_id, Actor.from_interaction(interaction),
                                                interaction.id, command), expected, kept)

    async def applied(self, interaction_id: int) -> int | None:
        """The event the interaction recorded, if any: asked when its reply failed, so the
        player is not told that nothing changed when it did."""
        async with self.db.reader() as session:
            return await session.scalar(
                select(Event.seq).where(Event.interaction_id == interaction_id))

    def for_interaction(self, interaction: discord.Interaction, command: str, *,
                        while_waiting: bool = False):
        """``command`` for the interaction's channel, player and interaction id."""
        return self.command(interaction.channel_id or 0, Actor.from_interaction(interaction),
                            interaction.id, command, while_waiting=while_waiting)

    async def unit_names(self, channel_id: int, *, gone_too: bool = False) -> list[str] | None:
        """Names of the units in the channel's battle; None when there is no battle."""
        async with self.db.reader() as session:
            battle = await active_battle(session, channel_id)
            if battle is None:
                return None
            query = select(Unit.name).where(Unit.battle_id == battle.id)
            if not gone_too:
                query = query.where(Unit.status == "active")
            return list(await session.scalars(query.order_by(Unit.side, Unit.id)))

    async def ruleset(self, channel_id: int) -> str | None:
        """The rule set of the channel's active battle; None when there is none.

        Remembered once seen (see ``_rulesets``): callers that act on the answer check it
        again inside their transaction.
        """
        known = self._rulesets.get(channel_id)
        if known is not None:
            return known
        changed = self._hints_changed
        ruleset = await self.db.batch(partial(_active_ruleset, channel_id), one_statement=True,
                                      quick=True)
        if ruleset is not None and changed == self._hints_changed:
            self._hint(channel_id, ruleset)
        return ruleset

    async def general_names(self, channel_id: int) -> list[str]:
        """Names of the generals in the channel's battle (none without a battle)."""
        async with self.db.reader() as session:
            query = (select(General.name).join(Battle, General.battle_id == Battle.id)
                     .where(Battle.channel_id == channel_id, Battle.status == "active"))
            return list(await session.scalars(query.order_by(General.id)))

    async def view(
        self, channel_id: int, *, ended_too: bool = False, events: int | None = 0
    ) -> BattleView:
        """A consistent read of the channel's battle: rows, roster and the latest events.

        ``events`` is how many of the latest events to read (None: all of them).
        """
        # On PostgreSQL the view is one statement (see ``_read_view``).
        view = await self.db.batch(partial(_read_view, channel_id, ended_too, events),
                                   one_statement=self.db.is_postgresql,
                                   quick=events is not None and events <= QUICK_EVENTS)
        if view is None:
            raise NoBattle()
        return view


def _active_ruleset(channel_id: int, conn: Connection) -> str | None:
    return conn.scalar(select(Battle.ruleset).where(Battle.channel_id == channel_id,
                                                    Battle.status == "active"))


def _read_view(channel_id: int, ended_too: bool, events: int | None,
               conn: Connection) -> BattleView | None:
    """Run as one batch: the rows come back detached, fully loaded."""
    if conn.dialect.name == "postgresql":
        return _read_view_at_once(conn, channel_id, ended_too, events)
    return _read_view_table_by_table(channel_id, ended_too, events, conn)


def _read_view_table_by_table(channel_id: int, ended_too: bool, events: int | None,
                              conn: Connection) -> BattleView | None:
    from bot.battles.view_rows import read_view_rows

    return _as_view(read_view_rows(conn, channel_id, ended_too, events))


def _read_view_at_once(conn: Connection, channel_id: int, ended_too: bool,
                       events: int | None) -> BattleView | None:
    from bot.battles.view_statement import read_view_at_once

    return _as_view(read_view_at_once(conn, channel_id, ended_too, events))


def _as_view(found: Any) -> BattleView | None:
    """What either read found (the battle, its tables' rows, its chart pack's file name)."""
    if found is None:
        return None
    battle, (units, generals, engagements, log), charts = found
    return BattleView(battle, units, generals, log, engagements, charts=charts)


def plain_records(rows: Any) -> Any:
    """Rows as plain, read-only records: what the store hands to cogs and renderers."""
    from bot.battles.rows import Record

    def one(row: Base) -> Record:
        return Record({c.key: getattr(row, c.key) for c in row.__mapper__.column_attrs})

    return [one(row) for row in rows] if isinstance(rows, list) else one(rows)


async def active_battle(session: AsyncSession, channel_id: int) -> Battle | None:
    return await session.scalar(
        select(Battle).where(Battle.channel_id == channel_id, Battle.status == "active")
    )
