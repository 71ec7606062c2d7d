"""The unit of work for battle commands.

Every command that touches a battle runs inside ``BattleStore.command``: one transaction,
with the channel locked (commands in one channel apply one at a time, across processes),
the same Discord interaction refused if it was already applied, and every row it changes
snapshotted before and after. ``record`` turns those snapshots into an event in the log, so
undo can put back exactly what was there.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import discord
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.battles.actor import Actor
from bot.battles.errors import AlreadyApplied, BattleError, NoBattle, NotGM
from bot.storage.database import Database
from bot.storage.models import Base, Battle, Event, General, Unit
from rules.core.registry import BattleRules
from rules.core.roster import Roster, RosterGeneral, RosterUnit, name_key
from rules.registry import RULESETS

MODELS: dict[str, type[Base]] = {"battles": Battle, "units": Unit, "generals": General}
# The sequence counter only ever grows: undo must not wind it back.
NOT_RESTORED = ("last_seq",)
NOT_UNDOABLE = ("undo", "battle_start")


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
    return RosterGeneral(row.name, row.side, row.unit_name, row.wounds, row.status)


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

    @property
    def rules(self) -> BattleRules:
        battle = self.require_battle()
        rules = RULESETS[battle.ruleset].battle
        assert rules is not None
        return rules

    # --- reading --------------------------------------------------------------------------

    async def unit_rows(self) -> list[Unit]:
        battle = self.require_battle()
        rows = await self.session.scalars(
            select(Unit).where(Unit.battle_id == battle.id).order_by(Unit.id)
        )
        return list(rows)

    async def general_rows(self) -> list[General]:
        battle = self.require_battle()
        rows = await self.session.scalars(
            select(General).where(General.battle_id == battle.id).order_by(General.id)
        )
        return list(rows)

    async def roster(self) -> Roster:
        units = await self.unit_rows()
        generals = await self.general_rows()
        return Roster(tuple(map(roster_unit, units)), tuple(map(roster_general, generals)))

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

    async def delete(self, row: Base) -> None:
        self.touch(row)
        self._tracked[id(row)].deleted = True
        await self.session.delete(row)

    async def write_roster(self, after: Roster) -> None:
        """Write the engine's roster back onto the rows that differ."""
        units = {r.name_key: r for r in await self.unit_rows()}
        for unit in after.units:
            row = units[name_key(unit.name)]
            if roster_unit(row) != unit:
                self.touch(row)
                row.strength = unit.strength
                row.status = unit.status
                row.gone_reason = unit.gone_reason
                row.attributes = dict(unit.attributes)
                row.commander = unit.commander
        generals = {g.name_key: g for g in await self.general_rows()}
        for general in after.generals:
            row = generals[name_key(general.name)]
            if roster_general(row) != general:
                self.touch(row)
                row.wounds = general.wounds
                row.status = general.status
                row.unit_name = general.unit

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
        await self.session.flush()
        return event

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
            select(Event)
            .where(Event.battle_id == battle.id, Event.undone_by.is_(None),
                   Event.kind.not_in((*NOT_UNDOABLE, *skipping)))
            .order_by(Event.seq.desc())
            .limit(1)
        )
        if event is None:
            raise BattleError("There is nothing to undo in this battle.")
        return event

    async def revert(self, event: Event) -> None:
        """Put every row the event changed back as it was before it."""
        for change in reversed(event.changes):
            model = MODELS[change["table"]]
            row = await self.session.get(model, change["id"])
            if change["before"] is None:
                if row is not None:
                    await self.delete(row)
            elif row is None:
                row = model()
                row.restore(change["before"])
                row.id = change["id"]  # type: ignore[attr-defined]
                self.add(row)
            else:
                # Only the fields this event changed: later events may have changed others
                # (a GM queueing dice after a roll) and those stay as they are.
                after = change["after"] or {}
                self.touch(row)
                row.restore({k: v for k, v in change["before"].items() if after.get(k) != v})

    async def undo(self, event: Event, summary: str) -> Event:
        await self.revert(event)
        undo = await self.record("undo", summary, reverts=event.seq)
        event.undone_by = undo.seq
        return undo


class _RollBack(Exception):
    """Leaves a ``peek`` transaction without committing it."""


@dataclass(frozen=True)
class BattleView:
    battle: Battle
    units: list[Unit]
    generals: list[General]
    events: list[Event]


class BattleStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    @asynccontextmanager
    async def command(
        self, channel_id: int, actor: Actor, interaction_id: int | None, command: str
    ) -> AsyncIterator[BattleTx]:
        async with self.db.transaction(channel_id=channel_id) as session:
            if interaction_id is not None:
                seq = await session.scalar(
                    select(Event.seq).where(Event.interaction_id == interaction_id)
                )
                if seq is not None:
                    raise AlreadyApplied(seq)
            battle = await active_battle(session, channel_id)
            yield BattleTx(session, battle, actor, channel_id, interaction_id, command)

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

    def for_interaction(self, interaction: discord.Interaction, command: str):
        """``command`` for the interaction's channel, player and interaction id."""
        return self.command(interaction.channel_id or 0, Actor.from_interaction(interaction),
                            interaction.id, command)

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
        """The rule set of the channel's active battle; None when there is none."""
        async with self.db.reader() as session:
            return await session.scalar(
                select(Battle.ruleset).where(Battle.channel_id == channel_id,
                                             Battle.status == "active")
            )

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
        async with self.db.reader() as session:
            if ended_too:
                battle = await latest_battle(session, channel_id)
            else:
                battle = await active_battle(session, channel_id)
            if battle is None:
                raise NoBattle()
            units = list(await session.scalars(
                select(Unit).where(Unit.battle_id == battle.id).order_by(Unit.side, Unit.id)))
            generals = list(await session.scalars(
                select(General).where(General.battle_id == battle.id).order_by(General.id)))
            query = select(Event).where(Event.battle_id == battle.id).order_by(Event.seq.desc())
            if events is not None:
                query = query.limit(events)
            log = list(reversed(list(await session.scalars(query)))) if events != 0 else []
            return BattleView(battle, units, generals, log)


async def active_battle(session: AsyncSession, channel_id: int) -> Battle | None:
    return await session.scalar(
        select(Battle).where(Battle.channel_id == channel_id, Battle.status == "active")
    )


async def latest_battle(session: AsyncSession, channel_id: int) -> Battle | None:
    """The active battle, or else the one that ended last (for the log and export)."""
    return await session.scalar(
        select(Battle)
        .where(Battle.channel_id == channel_id)
        .order_by((Battle.status == "active").desc(), Battle.id.desc())
        .limit(1)
    )
