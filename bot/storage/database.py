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
import hashlib
import os
import signal
import weakref
from collections.abc import AsyncIterator, Mapping
from contextlib import AbstractAsyncContextManager, asynccontextmanager, nullcontext
from pathlib import Path
from types import TracebackType
from typing import Any

from sqlalchemy import URL, event, make_url, text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.orm import Session

DEFAULT_URL = "sqlite+aiosqlite:///huzzah.db"
"""A file ``huzzah.db`` in the working directory: zero set-up for a single small server."""

SQLITE_BUSY_TIMEOUT_MS = 30_000
"""How long a SQLite connection waits for another's write lock before giving up."""

CRASH_ENV = "HUZZAH_TEST_CRASH_AT"
"""Environment variable naming the :func:`crash_point` at which tests kill the process."""

READ_ONLY_OPTION = "huzzah_read_only"
"""Execution option marking connections that only read (SQLite then begins DEFERRED)."""

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


def crash_point(name: str) -> None:
    """Kill this process outright (SIGKILL) when ``HUZZAH_TEST_CRASH_AT`` equals ``name``.

    A fault-injection seam for crash tests, which check that a process dying just before or just
    after COMMIT leaves the database either without or with the whole transaction. In normal
    running it costs one environment lookup.
    """
    if os.environ.get(CRASH_ENV) == name:
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
        engine = create_async_engine(url, **engine_options)
        configure_sqlite(engine, foreign_keys=foreign_keys)
        return engine
    return create_async_engine(url, pool_pre_ping=True, **engine_options)


def _create_sqlite_directory(url: URL) -> None:
    """Make the folder for a SQLite file, so ``sqlite:///data/huzzah.db`` works on first run."""
    database = url.database or ""
    if database and database != ":memory:" and not database.startswith("file:"):
        Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)


def configure_sqlite(
    engine: AsyncEngine,
    *,
    foreign_keys: bool = True,
    busy_timeout_ms: int = SQLITE_BUSY_TIMEOUT_MS,
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
    )

    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            for pragma in pragmas:
                cursor.execute(pragma)
        finally:
            cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(connection: Connection) -> None:
        read_only = connection.get_execution_options().get(READ_ONLY_OPTION, False)
        connection.exec_driver_sql("BEGIN DEFERRED" if read_only else "BEGIN IMMEDIATE")


class ReadOnlySession(Session):
    """A session that refuses to flush, for :meth:`Database.reader`.

    Reader sessions skip the channel lock, so a write through one could lose another command's
    update; failing loudly beats a rare, silent corruption.
    """


@event.listens_for(ReadOnlySession, "before_flush")
def _refuse_flush(session: Session, _context: Any, _instances: Any) -> None:
    raise RuntimeError("Database.reader() sessions are read-only: use Database.transaction()")


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

    @property
    def is_sqlite(self) -> bool:
        return self.url.get_backend_name() == "sqlite"

    @property
    def is_postgresql(self) -> bool:
        return self.url.get_backend_name() == "postgresql"

    @asynccontextmanager
    async def transaction(self, channel_id: int | None = None) -> AsyncIterator[AsyncSession]:
        """One session in one transaction: committed on normal exit, rolled back on an exception.

        With ``channel_id``, the transaction holds that channel's lock (in this process and in the
        database) from its first statement until after COMMIT, so concurrent commands for one
        channel run one after another. Other channels do not wait on it, except that SQLite
        allows one writer at a time in the whole database: keep transactions short.
        """
        lock = self._process_lock(channel_id)
        async with lock, self._sessions() as session, session.begin():
            await self._start(session, channel_id)
            yield session
            crash_point("before_commit")
        crash_point("after_commit")

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
        return lock

    async def _start(self, session: AsyncSession, channel_id: int | None) -> None:
        """Begin at once (taking SQLite's write lock) and take the channel's database lock."""
        await session.connection()
        if channel_id is not None and self.is_postgresql:
            await session.execute(
                text("SELECT pg_advisory_xact_lock(:key)"), {"key": advisory_key(channel_id)}
            )

    async def dispose(self) -> None:
        """Close every pooled connection."""
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
