"""Opening the database, and the transaction discipline every battle command follows.

A battle command reads the battle, decides, and writes: two such commands for one channel must
never interleave, or one of them loses its update. :meth:`Database.transaction` therefore
serializes work per channel twice over: an :class:`asyncio.Lock` inside this process (so one
process never queues a pile of connections behind one busy channel) and a database lock held until
COMMIT (so a second bot process, or a restarted one, waits too):

* PostgreSQL: ``pg_advisory_xact_lock`` on a key derived from the channel id;
* SQLite: every writing transaction starts with ``BEGIN IMMEDIATE``, which takes the database's
  single write lock up front, so read-then-write can never interleave with another writer.

A unit of work is a plain function of a SQLAlchemy Core ``Connection`` (:meth:`Database.run`),
run in one transaction: on PostgreSQL through ``AsyncConnection.run_sync`` over asyncpg; on
SQLite, where every statement through aiosqlite is several hops to its thread and back, on a
worker thread with the sqlite3 driver, one hop a unit (docs/performance.md has the figures).
No statement runs on the event loop's thread. :meth:`Database.transaction` is an asyncio
session for the rest (scripts, tests).
"""

from __future__ import annotations

import asyncio
import errno
import functools
import hashlib
import os
import re
import signal
import sqlite3
import time
import weakref
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import AbstractAsyncContextManager, asynccontextmanager, nullcontext, suppress
from pathlib import Path
from types import TracebackType
from typing import IO, Any, TypeVar
from urllib.parse import quote

from sqlalchemy import URL, create_engine, event, func, make_url, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError, DisconnectionError, InterfaceError, OperationalError
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.pool import StaticPool

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
Work = Callable[..., T]
"""A unit of work: what it does on the connection it is given first, in one transaction."""

_ASYNC_DRIVERS = {"sqlite": "aiosqlite", "postgresql": "asyncpg"}
_ADVISORY_NAMESPACE = b"huzzah.battle-channel:"
_MIGRATION_NAMESPACE = b"huzzah.migrations"


def database_url(env: Mapping[str, str] | None = None) -> str:
    """The configured database: ``DATABASE_URL`` (upgraded to an async driver) or the default."""
    values = os.environ if env is None else env
    return async_url(values.get("DATABASE_URL") or DEFAULT_URL)


def named_url(database: str | None, env: Mapping[str, str] | None = None) -> str:
    """The database an operator names (``--database``): a URL as given, a bare path as a
    SQLite file; None: the configured one (:func:`database_url`)."""
    if database is None:
        return database_url(env)
    return async_url(database if "://" in database else f"sqlite:///{database}")


def shown_database(url: str | URL) -> str:
    """The database as an operator would name it, never with its password: a SQLite file's
    path, else the URL without the driver (``postgresql://huzzah:***@db/huzzah``)."""
    parsed = make_url(url)
    if is_in_memory(parsed):
        return "an in-memory SQLite database"
    if parsed.get_backend_name() == "sqlite":
        return str(parsed.database)
    return parsed.set(drivername=parsed.get_backend_name()).render_as_string(
        hide_password=True)


def database_problem(error: BaseException, url: str | URL | None = None) -> str:
    """Why a database could not be used, on one line: the driver's own words (SQLAlchemy adds
    its class and a link on a second line), never with the URL's password."""
    cause = error.orig if isinstance(error, DBAPIError) and error.orig is not None else error
    text = " ".join(str(cause).split())
    with suppress(Exception):  # a URL too broken to parse holds no password
        if url:
            text = without_password(text, make_url(url))
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def without_password(text: str, url: URL) -> str:
    """``text`` with ``url``'s password masked: always in a URL (``:password@``), and as a
    word of its own unless it is also the user, host or database name, which messages show
    openly (masking those would hide the very name that is wrong: ``database "***"``)."""
    password = url.password
    if not password:
        return text
    text = text.replace(f":{password}@", ":***@")
    if str(password) in (url.username, url.host, url.database):
        return text
    # Only as a whole word: a password `b` must not turn "database" into "data***ase".
    return re.sub(rf"(?<!\w){re.escape(str(password))}(?!\w)", "***", text)


DATABASE_FAILURES = (OperationalError, InterfaceError, DisconnectionError)
"""What SQLAlchemy raises when a database cannot be used (a full disk, a read-only file, a
connection lost), rather than for what it was asked."""


SERVER_FAILURES = ("08", "53", "57P", "58")
"""PostgreSQL's SQLSTATEs for a server that cannot serve (a connection lost, too many
connections, a full disk, a shutdown, an I/O error): asyncpg raises most of them as a plain
error, which SQLAlchemy wraps in a bare DBAPIError rather than an OperationalError."""


def database_failure(error: BaseException) -> BaseException | None:
    """The database's own failure behind ``error``, if that is what it was."""
    seen: BaseException | None = error
    looked: set[int] = set()  # a chain may loop back on itself
    while seen is not None and id(seen) not in looked:
        looked.add(id(seen))
        if isinstance(seen, DATABASE_FAILURES) and not _bad_statement(seen):
            return seen
        if isinstance(seen, DBAPIError) and str(
                getattr(seen.orig, "sqlstate", None) or "").startswith(SERVER_FAILURES):
            return seen
        seen = seen.__cause__ or seen.__context__
    return None


def _bad_statement(error: BaseException) -> bool:
    """SQLite raises OperationalError for a statement it cannot run (a syntax error, a missing
    table) as for a full disk: that one is a fault of ours, whose traceback must be logged."""
    orig = getattr(error, "orig", None)
    return getattr(orig, "sqlite_errorcode", None) == sqlite3.SQLITE_ERROR


def disk_trouble(error: BaseException) -> str | None:
    """What a SQLite file's failure to be written says of its disk: full (SQLite's own
    words), or perhaps full (SQLite says "disk I/O error" when it cannot grow its files, its
    ``-shm`` above all); None for any other failure."""
    seen: BaseException | None = error
    looked: set[int] = set()
    while seen is not None and id(seen) not in looked:
        looked.add(id(seen))
        code = getattr(getattr(seen, "orig", None) or seen, "sqlite_errorcode", None)
        if code == sqlite3.SQLITE_FULL:
            return "its disk is full"
        if code is not None and code & 0xFF == sqlite3.SQLITE_IOERR:
            return "its disk may be full"
        seen = seen.__cause__ or seen.__context__
    return None


def sqlite_file(url: str | URL) -> Path | None:
    """The file a SQLite database lives in; None for any other database."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or is_in_memory(parsed):
        return None
    return Path(str(parsed.database))


def cannot_write(file: Path) -> bool:
    """Whether this process may read a SQLite file but not write it or its folder (a backup
    copy, a read-only mount), where SQLite cannot make the ``-wal`` and ``-shm`` files that
    reading a database in WAL mode needs."""
    return not (os.access(file, os.W_OK) and os.access(file.parent, os.W_OK))


def read_only_url(url: str | URL) -> str:
    """``url`` for reading alone: a SQLite file this process cannot write, opened read-only
    and immutable, which needs no ``-wal`` or ``-shm`` file. Only when no ``-wal`` file beside
    it holds changes (an immutable database never reads them): a copy made while the bot was
    stopped has none. Any other database as it is."""
    file = sqlite_file(url)
    if file is None or not file.exists() or not cannot_write(file):
        return async_url(url)
    wal = file.with_name(file.name + "-wal")
    if wal.exists() and wal.stat().st_size > 0:
        return async_url(url)
    path = quote(str(file.resolve()))
    return make_url(async_url(url)).set(
        database=f"file:{path}", query={"mode": "ro", "immutable": "1", "uri": "true"}
    ).render_as_string(hide_password=False)


class InUse(Exception):
    """Another process runs the bot on this SQLite file; its process id, as it wrote it."""


def hold_sqlite_file(url: str | URL) -> IO[str] | None:
    """Claim a SQLite file for this process's bot, or raise :class:`InUse` when another
    process holds it: two bots on one file would both answer every command.

    The claim is a POSIX lock on ``FILE.lock`` beside it, kept while the returned file stays
    open. The system lets go of it when the process ends, however it ends (killed, crashed),
    so no claim outlives its process; and it never stands in the way of this process itself
    (a test opening one file twice). Anything else (no such lock on this system, a folder
    that cannot be written) claims nothing: SQLite then says what is wrong with the file."""
    file = sqlite_file(url)
    if file is None:
        return None
    try:
        import fcntl

        claim = open(file.with_name(file.name + ".lock"), "a+", encoding="utf-8")  # noqa: SIM115
    except (ImportError, OSError):
        return None
    try:
        fcntl.lockf(claim, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as error:
        claim.seek(0)
        holder = claim.read().strip()
        claim.close()
        if error.errno in (errno.EACCES, errno.EAGAIN):
            raise InUse(holder) from None
        return None
    claim.seek(0)
    claim.truncate()
    claim.write(f"{os.getpid()}\n")
    claim.flush()
    return claim


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


def conflict_insert(conn: Connection) -> Callable[..., Any]:
    """The ``insert`` of the connection's database that takes ``ON CONFLICT`` (Core's own
    has none): PostgreSQL's or SQLite's."""
    return postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert


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


POOL_SIZE = 20
"""PostgreSQL connections a process keeps open. Under load (50 commands in flight) the
default of 5 closed and reopened connections past it (docs/performance.md has the figures)."""
POOL_OVERFLOW = 5
"""Connections opened for a burst past ``POOL_SIZE`` (closed again after)."""

IDLE_PING_SECONDS = 10.0
"""A pooled connection unused for longer than this is checked before it is handed out."""


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
        if is_in_memory(url) and "poolclass" not in engine_options:
            # One connection, shared: a second would see another, empty database.
            engine_options = {"poolclass": StaticPool, **engine_options}
        engine = create_async_engine(url, **JSON_OPTIONS, **engine_options)
        configure_sqlite(engine, foreign_keys=foreign_keys)
        return engine
    if "poolclass" not in engine_options:
        engine_options = {"pool_size": POOL_SIZE, "max_overflow": POOL_OVERFLOW,
                          **engine_options}
    engine = create_async_engine(url, **JSON_OPTIONS, **engine_options)
    ping_when_idle(engine)
    return engine


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
) -> None:
    """Install the per-connection pragmas and Huzzah's own BEGIN on a SQLite engine.

    The sqlite3 driver normally issues BEGIN itself, lazily and only before DML, which lets a
    SELECT run outside the transaction and two read-then-write transactions interleave. Setting
    the DB-API connection's ``isolation_level`` to ``None`` turns that off, and the ``begin``
    listener emits ``BEGIN IMMEDIATE`` (``BEGIN DEFERRED`` for read-only connections) the moment
    SQLAlchemy starts a transaction (SQLAlchemy's documented recipe for SQLite transactions).
    """
    pragmas = (
        f"PRAGMA busy_timeout = {int(busy_timeout_ms)}",  # first: WAL below may wait for a lock
        "PRAGMA journal_mode = WAL",
        f"PRAGMA foreign_keys = {'ON' if foreign_keys else 'OFF'}",
        # With WAL, a commit reaches the operating system at once and the disk at the next
        # checkpoint: a crash of the process loses nothing, a power cut at most the last moves.
        "PRAGMA synchronous = NORMAL",
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

    @event.listens_for(sync_engine, "begin")
    def _on_begin(connection: Connection) -> None:
        read_only = connection.get_execution_options().get(READ_ONLY_OPTION, False)
        begin = "BEGIN DEFERRED" if read_only else "BEGIN IMMEDIATE"
        if sync_engine.dialect.driver == "pysqlite":
            # Straight to sqlite3 (the units of work): through SQLAlchemy, one BEGIN cost a
            # unit as much as one of its statements.
            connection.connection.dbapi_connection.execute(begin)  # type: ignore[union-attr]
        else:
            connection.exec_driver_sql(begin)


def sqlite_engine(url: URL) -> Engine:
    """The same SQLite database through the sqlite3 driver, for work on worker threads."""
    options: dict[str, Any] = {"connect_args": {"check_same_thread": False}}
    if is_in_memory(url):
        options["poolclass"] = StaticPool
    engine = create_engine(url.set(drivername="sqlite+pysqlite"), **JSON_OPTIONS, **options)
    configure_sqlite(engine)
    return engine


class Database:
    """Huzzah's database: the engine, its session factories, and the per-channel locks.

    Create one per process, ``await db.dispose()`` on shutdown (or use ``async with``). The schema
    is managed by Alembic (:mod:`bot.storage.migrate`), never by ``create_all``.
    """

    def __init__(self, url: str | URL | None = None, **engine_options: Any) -> None:
        self.url: URL = make_url(async_url(url) if url is not None else database_url())
        self.engine: AsyncEngine = create_database_engine(self.url, **engine_options)
        self._sessions = async_sessionmaker(self.engine, expire_on_commit=False)
        self._channel_locks: weakref.WeakValueDictionary[int, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )
        # SQLite has one writer at a time in the whole file. Writers of this process queue
        # here, in order, instead of each holding a pooled connection and polling SQLite's
        # busy handler (which sleeps in growing steps: seconds at the tail under load).
        # Other processes still meet the busy timeout. An in-memory database is a single
        # shared connection: its readers take turns here too.
        self._sqlite_writer = asyncio.Lock() if self.is_sqlite else None
        self._shared = self._sqlite_writer if is_in_memory(self.url) else None
        # SQLite's units of work: the same file through the sqlite3 driver, on a worker
        # thread, set up as the asyncio engine is (pragmas, BEGIN IMMEDIATE).
        self._sqlite_engine = sqlite_engine(self.url) if self.is_sqlite else None

    def sync_engines(self) -> list[Engine]:
        """Every engine statements run on, for listening to their events (errors, say)."""
        return [self.engine.sync_engine, *filter(None, [self._sqlite_engine])]

    @functools.cached_property
    def is_sqlite(self) -> bool:
        return self.url.get_backend_name() == "sqlite"

    @functools.cached_property
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
        writer = self._sqlite_writer or nullcontext()
        async with lock, writer, self._sessions() as session, session.begin():
            await session.connection()  # BEGIN now: SQLite's write lock is taken here
            if channel_id is not None and self.is_postgresql:
                await session.execute(select(func.pg_advisory_xact_lock(
                    advisory_key(channel_id))))
            yield session
            crash_point("before_commit")
        crash_point("after_commit")

    async def run(self, work: Work[T], *args: Any, write: bool = False,
                  channel_id: int | None = None, one_statement: bool = False) -> T:
        """Run ``work(connection, *args)`` in one transaction, committed when it returns (a
        ``write``) or rolled back (a read, or work that raises).

        A write with ``channel_id`` holds that channel's lock, in this process and in the
        database, from its first statement until after COMMIT (see :meth:`transaction`). A
        read takes no lock: on SQLite it begins DEFERRED, on PostgreSQL it reads one snapshot
        (a read of ``one_statement`` needs none there: it saves two round trips).
        """
        lock = self._process_lock(channel_id) if write else nullcontext()
        writer = self._sqlite_writer if write else self._shared
        async with lock, writer or nullcontext():
            if self._sqlite_engine is not None:
                result = await asyncio.to_thread(self._run_on_sqlite, work, args, write)
            else:
                result = await self._run_on_postgresql(work, args, write, channel_id,
                                                        one_statement)
        if write:
            crash_point("after_commit")
        return result

    def _run_on_sqlite(self, work: Work[T], args: tuple[Any, ...], write: bool) -> T:
        assert self._sqlite_engine is not None
        if not write:  # BEGIN DEFERRED; closing the connection rolls back
            with self._sqlite_engine.connect() as conn:
                return work(conn.execution_options(**{READ_ONLY_OPTION: True}), *args)
        with self._sqlite_engine.connect() as conn, conn.begin():
            result = work(conn, *args)
            crash_point("before_commit")
            return result

    async def _run_on_postgresql(self, work: Work[T], args: tuple[Any, ...], write: bool,
                                 channel_id: int | None, one_statement: bool) -> T:
        async with self.engine.connect() as conn:
            if not write:  # one snapshot for every statement; closing rolls back
                await conn.execution_options(
                    isolation_level="AUTOCOMMIT" if one_statement else "REPEATABLE READ",
                    postgresql_readonly=True)
                return await conn.run_sync(work, *args)
            async with conn.begin():
                if channel_id is not None:
                    await conn.execute(select(func.pg_advisory_xact_lock(
                        advisory_key(channel_id))))
                result = await conn.run_sync(work, *args)
                crash_point("before_commit")
                return result

    def _process_lock(self, channel_id: int | None) -> AbstractAsyncContextManager[Any]:
        """This process's lock for a channel, made on first use and dropped once unused."""
        if channel_id is None:
            return nullcontext()
        lock = self._channel_locks.get(channel_id)
        if lock is None:
            lock = asyncio.Lock()
            self._channel_locks[channel_id] = lock
        return lock

    async def dispose(self) -> None:
        """Close every pooled connection."""
        if self._sqlite_engine is not None:
            await asyncio.to_thread(self._sqlite_engine.dispose)
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
