"""The steps behind a result's Steps button: a battle's from its event log, a quick lookup's
from the ``traces`` table.

A quick lookup writes nothing on its way to the reply, and its trace is no reason to start:
the reply is sent first, and the trace handed to a ``TraceKeeper``, which writes what has
gathered in one transaction a moment later, on a task of its own. Until then a press finds
the trace in memory; a bot that stops writes what it holds first. Traces are removed after a
fortnight (at the keeper's first write, then hourly).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import bindparam, delete, insert, select
from sqlalchemy.engine import Connection

from bot.battles.store import TABLES
from bot.storage.database import Database, database_failure, database_problem
from bot.storage.models import Trace, utcnow
from rules.core.records import Resolution

log = logging.getLogger(__name__)

TRACES_KEPT = timedelta(days=14)
WRITE_AFTER = 1.0  # seconds: the traces of the lookups made meanwhile go in one write
PURGE_EVERY = 3600.0  # seconds between removals of traces past TRACES_KEPT

_TRACES = Trace.__table__
_EVENTS, _BATTLES = TABLES["events"], TABLES["battles"]
_TRACE = select(_TRACES.c.data).where(_TRACES.c.id == bindparam("key"))
_EVENT = (select(_EVENTS.c.resolution, _EVENTS.c.summary, _EVENTS.c.undone_by)
          .join(_BATTLES, _EVENTS.c.battle_id == _BATTLES.c.id)
          .where(_EVENTS.c.battle_id == bindparam("battle"), _EVENTS.c.seq == bindparam("seq"),
                 _BATTLES.c.channel_id == bindparam("channel")))


@dataclass(frozen=True)
class KeptTrace:
    """A result's steps as kept: ``Resolution.to_dict``, with the footer it was shown with
    and, in a battle, what changed on the roster."""

    resolution: Mapping[str, Any]
    dice_note: str = ""
    changes: list[str] | None = None


class TraceKeeper:
    """Keeps quick lookups' traces, written in batches off the replies' path."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._waiting: dict[int, tuple[Resolution, str]] = {}
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._purged_at: float | None = None
        self._writer = asyncio.Lock()  # a stop waits for a write under way to finish

    def start(self) -> None:
        """Start writing (from the bot's set-up: the task is the bot's, not a command's)."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._writing())

    def keep(self, key: int, resolution: Resolution, dice_note: str) -> None:
        """Hand over a lookup's trace: written a moment later, found at once."""
        self._waiting[key] = (resolution, dice_note)
        self._wake.set()

    async def find(self, key: int) -> KeptTrace | None:
        waiting = self._waiting.get(key)
        if waiting is not None:
            return KeptTrace(waiting[0].to_dict(), waiting[1])
        data = await self.db.run(Connection.scalar, _TRACE, {"key": key}, one_statement=True)
        return None if data is None else KeptTrace(data["resolution"], data.get("dice_note", ""))

    async def event(self, channel_id: int, battle_id: int, seq: int) -> KeptTrace | None:
        """A battle event's steps, if that battle is this channel's."""
        row = await self.db.run(_event, channel_id, battle_id, seq, one_statement=True)
        if row is None or not row.resolution:
            return None
        data = dict(row.resolution)
        changes = data.pop("roster_changes", None)
        # Steps of a result taken back say so: the roster no longer holds what they did.
        said = f"event #{seq}" + (f", undone by #{row.undone_by}" if row.undone_by else "")
        return KeptTrace(data, said, list(changes) if changes is not None else None)

    async def _writing(self) -> None:
        while True:
            await self._wake.wait()
            await asyncio.sleep(WRITE_AFTER)
            async with self._writer:
                await self._write()

    async def write(self) -> None:
        """Write the traces waiting (and remove old ones when it is time)."""
        async with self._writer:
            await self._write()

    async def _write(self) -> None:
        self._wake.clear()
        batch = dict(self._waiting)
        loop = asyncio.get_running_loop()
        purge = self._purged_at is None or loop.time() - self._purged_at >= PURGE_EVERY
        if not batch and not purge:
            return
        rows = [{"id": key, "data": {"resolution": resolution.to_dict(), "dice_note": note},
                 "created_at": utcnow()} for key, (resolution, note) in batch.items()]
        try:
            await self.db.run(_write, rows, purge, write=True)
        except Exception as error:
            # A trace is a convenience: losing one must not stop the others being kept.
            failure = database_failure(error)
            if failure is None:
                log.exception("could not keep %d lookup trace(s)", len(rows))
            else:  # a full disk, a server gone: the host's to fix, in one line
                log.warning("could not keep %d lookup trace(s) (%s)", len(rows),
                            database_problem(failure))
        else:
            if purge:
                self._purged_at = loop.time()
        for key in batch:
            if self._waiting.get(key) is batch[key]:
                del self._waiting[key]

    async def close(self) -> None:
        """Stop, writing what is still waiting."""
        if self._task is not None:
            async with self._writer:  # not in the middle of a write
                self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self._waiting:
            await self.write()


def _event(conn: Connection, channel_id: int, battle_id: int, seq: int) -> Any:
    return conn.execute(_EVENT, {"battle": battle_id, "seq": seq,
                                 "channel": channel_id}).first()


def _write(conn: Connection, rows: list[dict[str, Any]], purge: bool) -> None:
    if purge:
        conn.execute(delete(_TRACES).where(_TRACES.c.created_at < utcnow() - TRACES_KEPT))
    if rows:
        conn.execute(insert(_TRACES), rows)
