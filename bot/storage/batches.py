"""A short piece of synchronous database work run as one round trip.

The async driver for SQLite hands every cursor call to its own thread and back: three or four
hops of the event loop per statement, about half a millisecond each. A command's reads, or its
writes, are a handful of statements; run together on a plain synchronous SQLite connection,
they cost one hop at most, and SQLite's write lock is held for the time the statements take
rather than for the hops between them.

Work that touches one battle's rows (a move, an undo, a battle's read) does not need the hop
at all: with WAL and ``synchronous = NORMAL`` a commit writes to the operating system's cache
and does not wait for the disk, so the whole batch takes a fraction of a millisecond. Handing
it to a thread cost more than that: the interpreter runs one thread's Python at a time, and
every hand-over of its lock between the event loop and the thread is paid for in time.
:class:`SqliteOnLoop` therefore runs such work on the event loop itself, on a connection that
never waits: if another connection holds the lock (another process, say), SQLite refuses at
once and the work goes to :class:`SqliteThread`, which waits for it there. That connection
never checkpoints the log by itself either (a checkpoint waits for the disk); it asks for one
to be run on a thread every so often.

Quick writes asked for at the same moment (moves in several channels) are committed together
(:meth:`KeptConnection.call_group`): one BEGIN and COMMIT for the group, each write under a
savepoint of its own, so that one refused is rolled back alone. SQLite's commit writes every
page the transaction changed, and writes committed together share their pages and the cost
of the commit itself. ``Database`` queues the writes and hands them over a group at a time.

PostgreSQL needs none of this (asyncpg is quick per statement): the same function runs
inside an ordinary async transaction through ``run_sync``.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import URL, create_engine
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError
from sqlalchemy.pool import StaticPool

from bot.storage.json_text import ENGINE_OPTIONS as JSON_OPTIONS

T = TypeVar("T")

Work = Callable[[Connection], T]
"""Synchronous database work: given a connection inside a transaction, returns its result."""

OnCommit = Callable[[str], None]

CLOSED = "the database is closed: the bot is shutting down"
"""What work asked for once the database is closing is refused with (a ``RuntimeError``)."""

CHECKPOINT_EVERY = 200
"""Works written on the event loop between two checkpoints of the log, run on a thread (works,
not commits: a commit may hold several). A move writes a few pages, so this keeps the log
near SQLite's own default of 1,000 pages."""


GROUP_LIMIT = 8
"""Quick writes committed together at most. A group holds the event loop for as long as its
works take (a move's write is a tenth of a millisecond or so); more in one group saved little."""

_SAVEPOINT = "SAVEPOINT huzzah_work"
_ROLLBACK_TO_SAVEPOINT = "ROLLBACK TO huzzah_work"
_RELEASE_SAVEPOINT = "RELEASE huzzah_work"


@dataclass(slots=True)
class Outcome:
    """What one work of a group came to: its result, or the error it raised."""

    result: Any = None
    error: Exception | None = None


def _distrusts(error: BaseException) -> bool:
    """Whether the driver failed (rather than the work refusing): such a connection is not
    used again."""
    return isinstance(error, DBAPIError | sqlite3.Error)


class Busy(Exception):
    """Another connection held SQLite's lock, and this one does not wait: nothing was done."""


def is_busy(error: BaseException) -> bool:
    """Whether ``error`` (sqlite3's, or SQLAlchemy's wrapping it) is SQLite's "busy"."""
    original = getattr(error, "orig", None) or error
    code = getattr(original, "sqlite_errorcode", None)
    return isinstance(code, int) and code & 0xFF == sqlite3.SQLITE_BUSY


class KeptConnection:
    """One synchronous SQLite connection, kept open between batches, used by one thread at a
    time; each batch is one transaction.

    ``configure`` installs the same pragmas as the async engine's connections; ``begin`` is
    the BEGIN this connection's batches start with (``BEGIN IMMEDIATE`` for writes). A
    connection that ``gives_way`` raises :class:`Busy` when the lock is held elsewhere.
    """

    def __init__(self, url: URL, configure: Callable[[Engine], None], begin: str,
                 *, gives_way: bool = False) -> None:
        self._engine = create_engine(url.set(drivername="sqlite"), poolclass=StaticPool,
                                     connect_args={"check_same_thread": False},
                                     **JSON_OPTIONS)
        configure(self._engine)
        self._begin = begin
        self._gives_way = gives_way
        self._open: Connection | None = None
        self._options: dict[str, object] = {}
        self._closed = False

    def call(self, work: Work[T], options: dict[str, object], on_commit: OnCommit | None) -> T:
        """Run ``work`` in one transaction. A connection that gives way raises :class:`Busy`,
        having done nothing, if it could not open or begin because another connection held
        the lock."""
        return self.call_group([work], options, on_commit)[0].result

    def call_group(self, works: Sequence[Work[Any]], options: dict[str, object],
                   on_commit: OnCommit | None) -> list[Outcome]:
        """Run ``works`` in one transaction, each (when there are several) under a savepoint
        of its own, and commit them together: SQLite's commit writes every page a work
        changed, so works committed together share the pages they have in common (the log's
        last pages above all) and one BEGIN and COMMIT.

        A work that raises is rolled back alone, to its savepoint, and its error is its
        outcome; the others are still committed. A work alone is not given a savepoint: its
        error rolls the transaction back and is raised. So is any error of the transaction
        itself, or of a work that ended it (SQLite ends the whole transaction on some errors,
        a full disk say): then nothing is committed. Raises :class:`Busy`, having done
        nothing, as :meth:`call` does.
        """
        connection, raw = self._begun(options)
        alone = len(works) == 1
        outcomes: list[Outcome] = []
        distrusted = False
        try:
            for work in works:
                if alone:
                    outcomes.append(Outcome(work(connection)))
                    continue
                raw.execute(_SAVEPOINT)
                try:
                    outcomes.append(Outcome(work(connection)))
                except Exception as error:
                    try:
                        raw.execute(_ROLLBACK_TO_SAVEPOINT)
                    except sqlite3.Error:  # the transaction went with the work
                        raise error from None
                    outcomes.append(Outcome(error=error))
                    distrusted = distrusted or _distrusts(error)
                raw.execute(_RELEASE_SAVEPOINT)
            if on_commit:
                on_commit("before_commit")
            # Work that ran a statement through SQLAlchemy has begun its transaction there
            # (on the one SQLite began above), and ends it there. Work that went straight to
            # sqlite3 (a move's write, an undo) is committed straight on it: SQLAlchemy's
            # transaction around it cost more than SQLite's BEGIN and COMMIT themselves.
            if connection.in_transaction():
                connection.commit()
            else:
                raw.commit()
        except BaseException as error:
            self._roll_back(connection, raw)
            # A refusal raised by the work leaves the connection as good as new; one the
            # driver failed on (or an interrupt) is not trusted again.
            if not isinstance(error, Exception) or _distrusts(error):
                self._drop_connection()
            raise
        if distrusted:
            self._drop_connection()
        if on_commit:
            on_commit("after_commit")
        return outcomes

    def _begun(self, options: dict[str, object]) -> tuple[Connection, Any]:
        """The kept connection, and its DB-API connection, in a transaction just begun."""
        try:
            connection = self._connection(options)
            raw: Any = connection.connection.dbapi_connection
            # Begun here rather than by SQLAlchemy's listener, so that a refusal is known to
            # have come before any work (the listener sees the transaction and begins nothing).
            raw.execute(self._begin)
        except Exception as error:
            if self._gives_way and is_busy(error):
                raise Busy() from error  # the connection, if open, is as good as before
            self._drop_connection()
            raise
        return connection, raw

    def _roll_back(self, connection: Connection, raw: Any) -> None:
        try:
            if connection.in_transaction():
                connection.rollback()
            elif raw.in_transaction:
                raw.rollback()
        except Exception:  # the error to report is the work's; the connection is dropped
            self._drop_connection()

    def checkpoint(self, options: dict[str, object]) -> None:
        """Copy what the log holds into the database file, as far as no reader needs it
        (``PASSIVE``: it waits for no one, and writers go on meanwhile)."""
        raw: Any = self._connection(options).connection.dbapi_connection
        raw.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()

    def _connection(self, options: dict[str, object]) -> Connection:
        """The kept connection: checking one out of a pool and back (which rolls back on
        return) cost more than a move's statements."""
        if self._closed:
            raise RuntimeError(CLOSED)
        if self._open is None or self._options != options:
            self._drop_connection()
            self._open = self._engine.connect()
            self._open.execution_options(**options)
            self._options = dict(options)
        return self._open

    def _drop_connection(self) -> None:
        if self._open is not None:
            self._open.close()
            self._open = None

    def close(self) -> None:
        self._closed = True
        self._drop_connection()
        self._engine.dispose()


class SqliteThread:
    """A thread owning one kept connection; work runs there, one job at a time, and waits
    for SQLite's lock as long as the connection's busy timeout allows."""

    def __init__(self, url: URL, configure: Callable[[Engine], None], name: str,
                 begin: str) -> None:
        self._kept = KeptConnection(url, configure, begin)
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix=name)

    async def run(self, work: Work[T], options: dict[str, object],
                  on_commit: OnCommit | None = None) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, self._kept.call, work, options,
                                          on_commit)

    async def checkpoint(self, options: dict[str, object]) -> None:
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(self._executor, self._kept.checkpoint, options)

    def close(self) -> None:
        """Finish the work queued, then close the connection."""
        self._executor.submit(self._kept.close).result()
        self._executor.shutdown(wait=True)


class SqliteOnLoop:
    """A kept connection used on the event loop itself, for work that touches a handful of
    rows. Its connection never waits for a lock (``busy_timeout`` 0) and never checkpoints
    by itself: both would hold up every other command for as long as they took.

    ``run`` raises :class:`Busy` when the work should go to a thread instead: the lock was
    held, so nothing was done (or, for a read, what was done can simply be done again).
    ``every_so_often`` is called once per :data:`CHECKPOINT_EVERY` works written, to have the
    log checkpointed elsewhere.
    """

    def __init__(self, url: URL, configure: Callable[[Engine], None], begin: str,
                 every_so_often: Callable[[], None] | None = None) -> None:
        self._kept = KeptConnection(url, configure, begin, gives_way=True)
        self._every_so_often = every_so_often
        self._written = 0

    def run(self, work: Work[T], options: dict[str, object], on_commit: OnCommit | None = None,
            *, reads_only: bool = False) -> T:
        try:
            result = self._kept.call(work, options, on_commit)
        except Busy:
            raise
        except Exception as error:
            # A read can be refused its snapshot midway (rarely: while another connection
            # recovers the log); it changed nothing, so it is done again on the thread.
            if reads_only and is_busy(error):
                raise Busy() from error
            raise
        self._wrote(1)
        return result

    def run_group(self, works: Sequence[Work[Any]], options: dict[str, object],
                  on_commit: OnCommit | None = None) -> list[Outcome]:
        """:meth:`KeptConnection.call_group` on this connection; raises :class:`Busy` as
        :meth:`run` does."""
        outcomes = self._kept.call_group(works, options, on_commit)
        self._wrote(len(works))
        return outcomes

    def _wrote(self, works: int) -> None:
        if self._every_so_often is not None:
            self._written += works
            if self._written >= CHECKPOINT_EVERY:
                self._written = 0
                self._every_so_often()

    def close(self) -> None:
        self._kept.close()
