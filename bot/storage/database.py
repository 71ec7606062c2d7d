"""Opening the database, and the transaction discipline every battle command follows.

A battle command reads the battle, decides, and writes: two such commands for one channel must
never interleave, or one of them loses its update. :meth:`Database.transaction` therefore
serializes work per channel twice over: an :class:`asyncio.Lock` inside this process (so one
process never queues a pile of connections behind one busy channel) and a database lock held until
COMMIT (so a second bot process, or a restarted one, waits too):

* PostgreSQL: ``pg_advisory_xact_lock`` on a key derived from the channel id;
* SQLite: every writing transaction starts with ``BEGIN IMMEDIATE``, which takes the database's
  single write lock up front, so read-then-write can never interleave with another writer.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import logging
import os
import signal
import time
import weakref
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Mapping
from contextlib import AbstractAsyncContextManager, asynccontextmanager, nullcontext, suppress
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

from sqlalchemy import URL, event, make_url, text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.orm import Session
from sqlalchemy.sql.base import Executable

from bot.storage.batches import (
    CLOSED,
    GROUP_LIMIT,
    Busy,
    OnCommit,
    SqliteOnLoop,
    SqliteThread,
    Work,
)
from bot.storage.direct import compiled_statement
from bot.storage.direct_pool import DirectPool
from bot.storage.json_text import ENGINE_OPTIONS as JSON_OPTIONS

DEFAULT_URL = "sqlite+aiosqlite:///huzzah.db"
"""A file ``huzzah.db`` in the working directory: zero set-up for a single small server."""

SQLITE_BUSY_TIMEOUT_MS = 30_000
"""How long a SQLite connection waits for another's write lock before giving up."""

CRASH_ENV = "HUZZAH_TEST_CRASH_AT"
"""Environment variable naming the :func:`crash_point` at which tests kill the process."""

READ_ONLY_OPTION = "huzzah_read_only"
"""Execution option marking connections that only read (SQLite then begins DEFERRED)."""

T = TypeVar("T")

log = logging.getLogger(__name__)

_ASYNC_DRIVERS = {"sqlite": "aiosqlite", "postgresql": "asyncpg"}
_ADVISORY_NAMESPACE = b"huzzah.battle-channel:"
_MIGRATION_NAMESPACE = b"huzzah.migrations"


def database_url(env: Mapping[str, str] | None = None) -> str:
    """The configured database: ``DATABASE_URL`` (upgraded to an async driver) or the default."""
    values = os.environ if env is None else env
    return async_url(values.get("DATABASE_URL") or DEFAULT_URL)


def async_url(url: str | URL) -> str:
    """Rewrite a plain ``sqlite://`` / ``postgresql://`` URL to use the asyncio driver.

    Operators paste URLs as their hosting provider prints them; the bot only speaks asyncio, so
    the driver is filled in. An explicitly named driver other than the async one is refused
    rather than silently swapped.
    """
    parsed = make_url(url)
    backend = parsed.get_backend_name()
    if backend == "postgres":  # the old spelling some providers still hand out
        backend = "postgresql"
    if backend not in _ASYNC_DRIVERS:
        raise ValueError(f"unsupported database {backend!r}: use SQLite or PostgreSQL")
    wanted = _ASYNC_DRIVERS[backend]
    if "+" in parsed.drivername and parsed.get_driver_name() != wanted:
        raise ValueError(
            f"database driver {parsed.drivername!r} is not asyncio-capable: "
            f"use {backend}+{wanted}://"
        )
    return parsed.set(drivername=f"{backend}+{wanted}").render_as_string(hide_password=False)


def is_in_memory(url: str | URL) -> bool:
    """A SQLite database that lives only as long as its connection."""
    parsed = make_url(url)
    return parsed.get_backend_name() == "sqlite" and (
        parsed.database in (None, "", ":memory:") or parsed.query.get("mode") == "memory"
    )


def is_sqlite(url: str | URL) -> bool:
    """Whether the URL names a SQLite database."""
    return make_url(url).get_backend_name() == "sqlite"


def advisory_key(channel_id: int) -> int:
    """The PostgreSQL advisory-lock key for a channel: a signed 64-bit hash.

    Hashing the channel id together with a Huzzah-specific prefix keeps the key away from other
    applications' advisory locks on the same server; two channels colliding would merely share a
    lock.
    """
    digest = hashlib.blake2b(
        _ADVISORY_NAMESPACE + str(channel_id).encode(), digest_size=8
    ).digest()
    return int.from_bytes(digest, "big", signed=True)


MIGRATION_LOCK_KEY = int.from_bytes(
    hashlib.blake2b(_MIGRATION_NAMESPACE, digest_size=8).digest(), "big", signed=True
)
"""PostgreSQL advisory-lock key that keeps two processes from migrating at the same moment."""


_CRASH_AT = os.environ.get(CRASH_ENV)


def crash_point(name: str) -> None:
    """Kill this process outright (SIGKILL) when ``HUZZAH_TEST_CRASH_AT`` equals ``name``.

    A fault-injection seam for crash tests, which check that a process dying just before or just
    after COMMIT leaves the database either without or with the whole transaction. In normal
    running it costs one comparison: the variable is read once, when the process starts.
    """
    if name == _CRASH_AT:
        os.kill(os.getpid(), signal.SIGKILL)


def create_database_engine(
    url: str | URL, *, foreign_keys: bool = True, **engine_options: Any
) -> AsyncEngine:
    """An :class:`AsyncEngine` set up the way Huzzah needs it on either database.

    ``foreign_keys=False`` is for migrations only: SQLite batch migrations rebuild tables by
    copy-and-drop, and with foreign keys enforced the drop would cascade-delete child rows.
    """
    url = make_url(async_url(url))
    if url.get_backend_name() == "sqlite":
        _create_sqlite_directory(url)
        engine = create_async_engine(url, **JSON_OPTIONS, **engine_options)
        configure_sqlite(engine, foreign_keys=foreign_keys)
        return engine
    if "poolclass" not in engine_options:
        engine_options = {"pool_size": POOL_SIZE, "max_overflow": POOL_OVERFLOW,
                          **engine_options}
    engine = create_async_engine(url, **JSON_OPTIONS, **engine_options)
    ping_when_idle(engine)
    return engine


RECENT_LOCKS = 1_000
"""Channels whose lock is kept between commands (``Database._process_lock``)."""

WRITING_HOLD = 0.002
"""Seconds of writing queued groups (SQLite's group commit) after which the event loop runs
again before the next group. Under load, letting it run after every group (a millisecond or
so) cost a tenth of the moves written per second; groups written for up to this long hold it
a few milliseconds at most."""

POOL_SIZE = 20
"""PostgreSQL connections a process keeps open. A connection opened past the pool is closed
again when returned: under load (50 commands in flight) the default of 5 spent a third of
the CPU opening connections, and its slowest moves waited 0.4 s; 20 kept them under 0.11 s."""
POOL_OVERFLOW = 5
"""Connections opened for a burst past ``POOL_SIZE`` (closed again after)."""

IDLE_PING_SECONDS = 10.0
"""A pooled connection unused for longer than this is checked before it is handed out."""


def ping_when_idle(engine: AsyncEngine) -> None:
    """``pool_pre_ping``, but only for connections that sat idle a while.

    A connection used a moment ago is alive; pinging it costs a round trip on every command.
    One that waited in the pool (across a database restart, say) is pinged, and replaced by
    a fresh one when the ping fails.
    """
    dialect = engine.sync_engine.dialect

    @event.listens_for(engine.sync_engine, "checkin")
    def _returned(_dbapi_connection: Any, record: Any) -> None:
        record.info["returned_at"] = time.monotonic()

    @event.listens_for(engine.sync_engine, "checkout")
    def _handed_out(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        returned = record.info.get("returned_at")
        if returned is None or time.monotonic() - returned < IDLE_PING_SECONDS:
            return
        try:
            alive = dialect.do_ping(dbapi_connection)
        except Exception:
            alive = False
        if not alive:
            raise DisconnectionError("a pooled connection went away while idle")


def _begin(write: bool) -> str:
    """A batch's BEGIN on SQLite: a write takes the write lock up front."""
    return "BEGIN IMMEDIATE" if write else "BEGIN DEFERRED"


def _create_sqlite_directory(url: URL) -> None:
    """Make the folder for a SQLite file, so ``sqlite:///data/huzzah.db`` works on first run."""
    database = url.database or ""
    if database and database != ":memory:" and not database.startswith("file:"):
        Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)


def configure_sqlite(
    engine: AsyncEngine | Engine,
    *,
    foreign_keys: bool = True,
    busy_timeout_ms: int = SQLITE_BUSY_TIMEOUT_MS,
    query_only: bool = False,
    autocheckpoint: bool = True,
) -> None:
    """Install the per-connection pragmas and Huzzah's own BEGIN on a SQLite engine.

    The sqlite3 driver normally issues BEGIN itself, lazily and only before DML, which lets a
    SELECT run outside the transaction and two read-then-write transactions interleave. Setting
    the DB-API connection's ``isolation_level`` to ``None`` turns that off, and the ``begin``
    listener emits ``BEGIN IMMEDIATE`` (``BEGIN DEFERRED`` for read-only connections) the moment
    SQLAlchemy starts a transaction. The driver still issues COMMIT and ROLLBACK itself.
    """
    pragmas = (
        f"PRAGMA busy_timeout = {int(busy_timeout_ms)}",  # first: WAL below may wait for a lock
        "PRAGMA journal_mode = WAL",
        f"PRAGMA foreign_keys = {'ON' if foreign_keys else 'OFF'}",
        "PRAGMA synchronous = NORMAL",
        # A connection that only reads cannot write by mistake (it takes no write lock).
        *(("PRAGMA query_only = ON",) if query_only else ()),
        # A connection that must never wait for the disk leaves checkpoints to another.
        *(() if autocheckpoint else ("PRAGMA wal_autocheckpoint = 0",)),
    )

    sync_engine = engine.sync_engine if isinstance(engine, AsyncEngine) else engine

    @event.listens_for(sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            for pragma in pragmas:
                cursor.execute(pragma)
        finally:
            cursor.close()

    plain = sync_engine.dialect.driver == "pysqlite"  # the batch threads' own connections

    @event.listens_for(sync_engine, "begin")
    def _on_begin(connection: Connection) -> None:
        read_only = connection.get_execution_options().get(READ_ONLY_OPTION, False)
        begin = _begin(not read_only)
        if plain:
            # Straight to sqlite3: SQLAlchemy's execution of one BEGIN cost more than a
            # move's other statements each (a tenth of the writer thread's time). The batch
            # connections begin their transactions themselves (``KeptConnection.call``).
            raw: Any = connection.connection.dbapi_connection
            if not raw.in_transaction:
                raw.execute(begin)
        else:
            connection.exec_driver_sql(begin)


class ReadOnlySession(Session):
    """A session that refuses to flush, for :meth:`Database.reader`.

    Reader sessions skip the channel lock, so a write through one could lose another command's
    update; failing loudly beats a rare, silent corruption.
    """


@event.listens_for(ReadOnlySession, "before_flush")
def _refuse_flush(session: Session, _context: Any, _instances: Any) -> None:
    raise RuntimeError("Database.reader() sessions are read-only: use Database.transaction()")


@dataclass(slots=True)
class _QueuedWrite:
    """A quick write waiting for its group, and the future its caller awaits."""

    work: Work[Any]
    options: dict[str, Any]
    on_commit: OnCommit | None
    future: asyncio.Future[Any]

    def settle(self, result: Any, error: BaseException | None) -> None:
        if self.future.done():  # its caller gave up waiting (cancelled)
            return
        if isinstance(error, asyncio.CancelledError):
            self.future.cancel()
        elif error is None:
            self.future.set_result(result)
        else:
            self.future.set_exception(error)


class Database:
    """Huzzah's database: the engine, its session factories, and the per-channel locks.

    Create one per process, ``await db.dispose()`` on shutdown (or use ``async with``). The schema
    is managed by Alembic (:mod:`bot.storage.migrate`), never by ``create_all``.
    """

    def __init__(self, url: str | URL | None = None, **engine_options: Any) -> None:
        self.url: URL = make_url(async_url(url) if url is not None else database_url())
        self.engine: AsyncEngine = create_database_engine(self.url, **engine_options)
        self._sessions = async_sessionmaker(self.engine, expire_on_commit=False)
        self._readers = async_sessionmaker(
            self.engine.execution_options(**{READ_ONLY_OPTION: True}),
            expire_on_commit=False,
            sync_session_class=ReadOnlySession,
        )
        self._channel_locks: weakref.WeakValueDictionary[int, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )
        # SQLite has one writer at a time in the whole file. Writers of this process queue
        # here, in order, instead of each holding a pooled connection and polling SQLite's
        # busy handler (which sleeps in growing steps: seconds at the tail under load).
        # Other processes still meet the busy timeout.
        self._sqlite_writer = asyncio.Lock() if self.is_sqlite else None
        self._recent_locks: OrderedDict[int, asyncio.Lock] = OrderedDict()
        self._direct = DirectPool(self.engine)  # PostgreSQL's one-statement writes
        self._threads: dict[bool, SqliteThread] = {}
        self._on_loop: dict[bool, SqliteOnLoop] = {}
        self._checkpointing: asyncio.Future[None] | None = None
        self._thread_batches = 0  # SQLite batches running on a thread now
        self._queued_writes: list[_QueuedWrite] = []  # quick writes waiting for their group
        self._writing_group: asyncio.Future[None] | None = None
        self._closed = False

    @functools.cached_property
    def is_sqlite(self) -> bool:
        return self.url.get_backend_name() == "sqlite"

    @functools.cached_property
    def is_postgresql(self) -> bool:
        return self.url.get_backend_name() == "postgresql"

    @functools.cached_property
    def _in_memory(self) -> bool:
        # Asked by every batch: a URL is parsed once, not on each.
        return is_in_memory(self.url)

    @asynccontextmanager
    async def transaction(self, channel_id: int | None = None) -> AsyncIterator[AsyncSession]:
        """One session in one transaction: committed on normal exit, rolled back on an exception.

        With ``channel_id``, the transaction holds that channel's lock (in this process and in the
        database) from its first statement until after COMMIT, so concurrent commands for one
        channel run one after another. Other channels do not wait on it, except that SQLite
        allows one writer at a time in the whole database: keep transactions short.
        """
        lock = self._process_lock(channel_id)
        writer = self._sqlite_writer or nullcontext()
        async with lock, writer, self._sessions() as session, session.begin():
            await self._start(session, channel_id)
            yield session
            crash_point("before_commit")
        crash_point("after_commit")

    def channel_lock(self, channel_id: int) -> AbstractAsyncContextManager[Any]:
        """This process's lock for a channel: held across a command's read, its rules and its
        write, so commands of one channel in one process never race each other."""
        return self._process_lock(channel_id)

    async def batch(self, work: Work[T], *, write: bool = False,
                    channel_id: int | None = None, one_statement: bool = False,
                    quick: bool = False) -> T:
        """Run ``work`` (synchronous, given a connection) in one transaction, as one round trip.

        A write takes SQLite's write lock (queued in this process) or, on PostgreSQL, the
        channel's advisory lock. The caller holds :meth:`channel_lock` if it needs it.
        A read of ``one_statement`` needs no transaction around it on PostgreSQL: it saves
        the BEGIN and COMMIT round trips (a write of one statement is ``first_row``'s).

        ``quick`` work touches the rows of one battle, not a whole log: on a SQLite file it
        runs on the event loop itself (see ``bot.storage.batches``), unless another
        connection holds the lock, when it waits on a thread as other work does.
        """
        if self._closed:
            raise RuntimeError(CLOSED)
        options: dict[str, Any] = {READ_ONLY_OPTION: not write}
        on_commit = crash_point if write else None
        thread = self._thread(write)
        if thread is not None:
            return await self._sqlite_batch(thread, work, write, quick, options, on_commit)
        # An in-memory SQLite is one connection shared by every task: one batch at a time.
        shared = self._sqlite_writer if self.is_sqlite else None
        if self.is_postgresql and not write:
            # One snapshot for every statement of the read, as SQLite's reads have.
            options |= ({"isolation_level": "AUTOCOMMIT"} if one_statement else
                        {"isolation_level": "REPEATABLE READ", "postgresql_readonly": True})
        async with shared or nullcontext(), self.engine.connect() as connection:
            await connection.execution_options(**options)
            async with connection.begin():
                if write and channel_id is not None and self.is_postgresql:
                    await connection.execute(text("SELECT pg_advisory_xact_lock(:key)"),
                                             {"key": advisory_key(channel_id)})
                result = await connection.run_sync(work)
                if on_commit:
                    on_commit("before_commit")
            if on_commit:
                on_commit("after_commit")
            return result

    async def _sqlite_batch(self, thread: SqliteThread, work: Work[T], write: bool, quick: bool,
                            options: dict[str, Any], on_commit: OnCommit | None) -> T:
        """A SQLite file: quick work on the event loop, other work on a thread. Quick work
        goes to the thread too while the lock is held elsewhere, or while a thread runs a
        batch: the loop would wait for that thread's Python at each of its statements."""
        if not write:
            if quick and not self._thread_batches:
                try:
                    return self._loop_connection(False).run(work, options, reads_only=True)
                except Busy:
                    pass
            return await self._on_thread(thread.run(work, options))
        if quick:
            return await self._grouped_write(work, options, on_commit)
        assert self._sqlite_writer is not None
        async with self._sqlite_writer:
            if self._closed:  # closed while this write waited for its turn
                raise RuntimeError(CLOSED)
            return await self._on_thread(thread.run(work, options, on_commit))

    async def _grouped_write(self, work: Work[T], options: dict[str, Any],
                             on_commit: OnCommit | None) -> T:
        """A quick write, committed with the quick writes queued beside it (SQLite's group
        commit): each is rolled back alone if it fails, and none is answered before the
        commit. Writes queue while one group is written; the next group takes them."""
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._queued_writes.append(_QueuedWrite(work, options, on_commit, future))
        if self._writing_group is None:
            self._writing_group = asyncio.ensure_future(self._write_groups())
        return await future

    async def _write_groups(self) -> None:
        """Write the queued quick writes, a group at a time, until none is left. The loop
        runs again once the groups written in one go have held it ``WRITING_HOLD``."""
        try:
            held_since = time.perf_counter()
            while self._queued_writes:
                group = self._queued_writes[:GROUP_LIMIT]
                del self._queued_writes[:GROUP_LIMIT]
                try:
                    await self._write_group(group)
                    if self._queued_writes and \
                            time.perf_counter() - held_since >= WRITING_HOLD:
                        # The writes stored so far are answered, and other work goes on.
                        await asyncio.sleep(0)
                        held_since = time.perf_counter()
                except BaseException as error:  # cancelled: no write is left waiting
                    for queued in (*group, *self._queued_writes):
                        queued.settle(None, error)
                    self._queued_writes.clear()
                    raise
        finally:
            self._writing_group = None

    async def _write_group(self, group: list[_QueuedWrite]) -> None:
        assert self._sqlite_writer is not None
        async with self._sqlite_writer:
            if self._closed:  # closed while these writes waited for their turn
                for queued in group:
                    queued.settle(None, RuntimeError(CLOSED))
                return
            # A write whose caller stopped waiting (cancelled) is not made: its caller was
            # told it failed, and has let go of its channel.
            group = [queued for queued in group if not queued.future.done()]
            if not group:
                return
            options, on_commit = group[0].options, group[0].on_commit
            if not self._thread_batches:
                try:
                    outcomes = self._loop_connection(True).run_group(
                        [queued.work for queued in group], options, on_commit)
                except Busy:
                    pass  # another connection holds the lock: each waits for it on a thread
                except Exception as error:  # the transaction failed: no write was committed
                    for queued in group:
                        queued.settle(None, error)
                    return
                else:
                    for queued, outcome in zip(group, outcomes, strict=True):
                        queued.settle(outcome.result, outcome.error)
                    return
            thread = self._thread(True)
            assert thread is not None
            for queued in group:
                if queued.future.done():  # its caller stopped waiting meanwhile
                    continue
                try:
                    result = await self._on_thread(
                        thread.run(queued.work, queued.options, queued.on_commit))
                except Exception as error:
                    queued.settle(None, error)
                else:
                    queued.settle(result, None)

    async def _on_thread(self, batch: Awaitable[T]) -> T:
        self._thread_batches += 1
        try:
            return await batch
        finally:
            self._thread_batches -= 1

    async def first_row(self, statement: Executable, values: Mapping[str, Any]) -> Any | None:
        """PostgreSQL: one statement run straight on asyncpg, outside any transaction (a
        statement is one by itself); its first row, or None.

        SQLAlchemy's execution of a battle's write (forty parameters) cost more than the rest
        of its round trip, and so did taking a connection through its async engine. The
        statement is compiled once (``compiled_statement``), bound with SQLAlchemy's own type
        processors, and run on an asyncpg connection of Huzzah's own pool (``DirectPool``). Its
        errors are raised as SQLAlchemy raises them (an ``IntegrityError`` for a duplicate
        delivery). A write must take the channel's advisory lock itself.
        """
        if self._closed:
            raise RuntimeError(CLOSED)
        compiled = compiled_statement(statement, self.engine.dialect)
        bound = compiled.bind(values)
        crash_point("before_commit")
        row = await self._direct.fetchrow(compiled.sql, bound)
        crash_point("after_commit")
        return row

    def _thread(self, write: bool) -> SqliteThread | None:
        """The SQLite thread for reads or for writes; None where work runs on the async
        engine (PostgreSQL, or an in-memory SQLite that another connection could not see)."""
        if not self.is_sqlite or self._in_memory:
            return None
        if write not in self._threads:
            self._threads[write] = SqliteThread(
                self.url, partial(configure_sqlite, foreign_keys=True, query_only=not write),
                "huzzah-sqlite-" + ("writer" if write else "reader"), _begin(write))
        return self._threads[write]

    def _loop_connection(self, write: bool) -> SqliteOnLoop:
        """The connection for quick work on the event loop (a SQLite file only)."""
        if write not in self._on_loop:
            configure = partial(configure_sqlite, foreign_keys=True, query_only=not write,
                                busy_timeout_ms=0, autocheckpoint=False)
            self._on_loop[write] = SqliteOnLoop(
                self.url, configure, _begin(write),
                self._checkpoint_soon if write else None)
        return self._on_loop[write]

    def _checkpoint_soon(self) -> None:
        """Checkpoint the log on the writing thread, unless one is already under way (or
        the database is closing, which checkpoints it anyway)."""
        if self._closed or (self._checkpointing is not None
                            and not self._checkpointing.done()):
            return
        thread = self._thread(True)
        assert thread is not None
        self._checkpointing = asyncio.ensure_future(self._checkpoint(thread))

    @staticmethod
    async def _checkpoint(thread: SqliteThread) -> None:
        try:
            await thread.checkpoint({READ_ONLY_OPTION: False})
        except Exception:  # the next one, or closing the database, catches up
            log.warning("Checkpointing the SQLite log failed", exc_info=True)

    @asynccontextmanager
    async def reader(self) -> AsyncIterator[AsyncSession]:
        """A session for reading only: no channel lock, nothing committed, flushes refused.

        On SQLite it begins DEFERRED, so with WAL it neither waits for nor blocks writers.
        """
        async with self._readers() as session:
            yield session

    def _process_lock(self, channel_id: int | None) -> AbstractAsyncContextManager[Any]:
        """This process's lock for a channel, made on first use and dropped once unused."""
        if channel_id is None:
            return nullcontext()
        lock = self._channel_locks.get(channel_id)
        if lock is None:
            lock = asyncio.Lock()
            self._channel_locks[channel_id] = lock
        # The channels used lately keep their locks: made again for every command, a lock
        # and its weak reference cost more than the lock itself. The weak map still holds
        # every lock in use, so one dropped here while held is the one handed out.
        recent = self._recent_locks
        recent[channel_id] = lock
        recent.move_to_end(channel_id)
        if len(recent) > RECENT_LOCKS:
            recent.popitem(last=False)
        return lock

    async def _start(self, session: AsyncSession, channel_id: int | None) -> None:
        """Begin at once (taking SQLite's write lock) and take the channel's database lock."""
        await session.connection()
        if channel_id is not None and self.is_postgresql:
            await session.execute(
                text("SELECT pg_advisory_xact_lock(:key)"), {"key": advisory_key(channel_id)}
            )

    async def dispose(self) -> None:
        """Close every pooled connection; batches asked for afterwards are refused."""
        self._closed = True
        if self._writing_group is not None:  # its writes are written, or refused as closed
            await asyncio.wait([self._writing_group])
        if self._checkpointing is not None:
            with suppress(Exception):  # the log is checkpointed on close anyway
                await self._checkpointing
        for on_loop in self._on_loop.values():
            on_loop.close()
        self._on_loop = {}
        threads, self._threads = list(self._threads.values()), {}
        try:
            for thread in threads:
                await asyncio.to_thread(thread.close)
            await self._direct.close()
        finally:
            await self.engine.dispose()

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.dispose()

    def __repr__(self) -> str:
        return f"<Database {self.url.render_as_string(hide_password=True)}>"
