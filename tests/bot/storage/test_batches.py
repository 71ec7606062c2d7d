"""Database.batch: one round trip per piece of work, on every kind of database."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from functools import partial

import pytest
from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import OperationalError

from bot.storage import Database, batches
from bot.storage.batches import is_busy
from bot.storage.database import is_in_memory
from bot.storage.migrate import upgrade_async

from .conftest import SQLITE_NAME, sqlite_url


def count_battles(conn: Connection) -> int:
    return conn.scalar(text("SELECT count(*) FROM battles"))


class Refused(Exception):
    pass


def raw_battle(channel: int, conn: Connection) -> int:
    """A battle written straight on sqlite3, as a move's write is; its channel back."""
    conn.connection.dbapi_connection.execute(
        "INSERT INTO battles (channel_id, ruleset, name, status, created_by, settings, "
        "turn, last_seq, dice_queue, created_at) VALUES (?, 'fire-at-will', 'B', "
        "'active', 1, '{}', 1, 0, '[]', '2026-01-01')", (channel,))
    return channel


def add_battle(channel: int, conn: Connection) -> None:
    conn.execute(text("INSERT INTO battles (channel_id, ruleset, name, status, created_by, "
                      "settings, turn, last_seq, dice_queue, created_at) VALUES (:c, "
                      "'fire-at-will', 'B', 'active', 1, '{}', 1, 0, '[]', '2026-01-01')"),
                 {"c": channel})


@pytest.mark.parametrize("url", ["sqlite+aiosqlite://",
                                 "sqlite+aiosqlite:///file:batches?mode=memory&uri=true"])
def test_in_memory_databases_are_recognised(url):
    assert is_in_memory(url)
    assert not is_in_memory("sqlite+aiosqlite:///huzzah.db")


async def test_batches_at_once_on_an_in_memory_database_take_turns():
    async with Database("sqlite+aiosqlite://") as db:
        async with db.engine.begin() as conn:
            await conn.execute(text("CREATE TABLE battles (channel_id INTEGER, ruleset TEXT, "
                                    "name TEXT, status TEXT, created_by INTEGER, settings TEXT, "
                                    "turn INTEGER, last_seq INTEGER, dice_queue TEXT, "
                                    "created_at TEXT)"))
        writes = [db.batch(lambda conn, c=c: add_battle(c, conn), write=True, channel_id=c)
                  for c in range(5)]
        reads = [db.batch(count_battles) for _ in range(5)]
        await asyncio.gather(*writes, *reads)
        assert await db.batch(count_battles) == 5


async def test_a_reading_batch_cannot_write(tmp_path):
    url = sqlite_url(tmp_path)
    await upgrade_async(url)
    async with Database(url) as db:
        with pytest.raises(OperationalError, match="readonly"):
            await db.batch(lambda conn: add_battle(1, conn))
        await db.batch(lambda conn: add_battle(1, conn), write=True, channel_id=1)
        assert await db.batch(count_battles) == 1


async def test_no_batch_runs_once_the_database_is_closed(tmp_path):
    url = sqlite_url(tmp_path)
    await upgrade_async(url)
    db = Database(url)
    assert await db.batch(count_battles) == 0
    await db.dispose()
    with pytest.raises(RuntimeError, match="closed"):
        await db.batch(count_battles)
    assert db._threads == {}


def _kept(db: Database, quick: bool):
    """The connection a writing batch kept: the event loop's (quick) or the thread's."""
    return (db._on_loop if quick else db._threads)[True]._kept


@pytest.mark.parametrize("quick", [False, True], ids=["on a thread", "on the event loop"])
async def test_a_failed_batch_leaves_nothing_behind_for_the_next(tmp_path, quick):
    """Batches keep their connection open between batches: whatever stopped one (a refusal,
    or an error from SQLite itself), the next starts on a clean transaction."""
    url = sqlite_url(tmp_path)
    await upgrade_async(url)

    def refused(conn: Connection) -> None:
        add_battle(1, conn)
        raise Refused

    def broken(conn: Connection) -> None:
        add_battle(2, conn)
        conn.execute(text("INSERT INTO no_such_table VALUES (1)"))

    async with Database(url) as db:
        await db.batch(count_battles, write=True, quick=quick)
        kept = _kept(db, quick)._open
        with pytest.raises(Refused):
            await db.batch(refused, write=True, quick=quick)
        assert kept is not None and _kept(db, quick)._open is kept
        with pytest.raises(OperationalError, match="no_such_table"):
            await db.batch(broken, write=True, quick=quick)
        assert _kept(db, quick)._open is None  # not trusted again
        await db.batch(lambda conn: add_battle(3, conn), write=True, quick=quick)
        assert _kept(db, quick)._open is not kept
        channels = await db.batch(lambda conn: conn.scalars(
            text("SELECT channel_id FROM battles")).all(), quick=quick)
    assert channels == [3]


@pytest.mark.parametrize("quick", [False, True], ids=["on a thread", "on the event loop"])
async def test_work_straight_on_sqlite3_is_one_transaction_as_other_work_is(tmp_path, quick):
    """Work that writes straight on sqlite3 (as a move does) is committed there, and work
    that also runs a statement through SQLAlchemy is committed through it: either way the
    batch is one transaction, stored whole or not at all."""
    url = sqlite_url(tmp_path)
    await upgrade_async(url)

    def refused(*work) -> None:
        raise Refused

    def both(first: int, then: int, conn: Connection) -> None:
        raw_battle(first, conn)
        add_battle(then, conn)

    async with Database(url) as db:
        await db.batch(partial(raw_battle, 1), write=True, quick=quick)
        await db.batch(partial(both, 2, 3), write=True, quick=quick)
        for work in (partial(raw_battle, 4), partial(both, 5, 6)):
            with pytest.raises(Refused):
                await db.batch(lambda conn, work=work: refused(work(conn)), write=True,
                               quick=quick)
        await db.batch(partial(raw_battle, 7), write=True, quick=quick)
        channels = await db.batch(lambda conn: conn.scalars(
            text("SELECT channel_id FROM battles ORDER BY channel_id")).all(), quick=quick)
    assert channels == [1, 2, 3, 7]


def _thread_name(conn: Connection) -> str:
    return threading.current_thread().name


async def test_quick_work_runs_on_the_event_loop_and_other_work_on_a_thread(tmp_path):
    url = sqlite_url(tmp_path)
    await upgrade_async(url)
    here = threading.current_thread().name
    async with Database(url) as db:
        assert await db.batch(_thread_name, quick=True) == here
        assert await db.batch(_thread_name, write=True, quick=True) == here
        assert (await db.batch(_thread_name)).startswith("huzzah-sqlite-reader")
        assert (await db.batch(_thread_name, write=True)).startswith("huzzah-sqlite-writer")


async def test_quick_work_waits_on_a_thread_while_another_connection_holds_the_lock(tmp_path):
    """Another process writing: a quick write is not refused, and does not hold up the event
    loop while it waits; a quick read does not wait at all."""
    url = sqlite_url(tmp_path)
    await upgrade_async(url)
    other = sqlite3.connect(tmp_path / SQLITE_NAME, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    other.execute("INSERT INTO battles (channel_id, ruleset, name, status, created_by, settings, "
                  "turn, last_seq, dice_queue, created_at) VALUES (9, 'fire-at-will', 'B', "
                  "'active', 1, '{}', 1, 0, '[]', '2026-01-01')")
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0.01)

    def write(conn: Connection) -> tuple[str, int]:
        add_battle(1, conn)
        return threading.current_thread().name, count_battles(conn)

    async with Database(url) as db:
        ticking = asyncio.create_task(ticker())
        writing = asyncio.create_task(db.batch(write, write=True, channel_id=1, quick=True))
        await asyncio.sleep(0.3)
        assert not writing.done()
        assert ticks >= 10  # the loop went on while the write waited
        # Reads go on meanwhile (on a thread, as one is running a batch): WAL readers never
        # wait, and the other's write is not committed yet.
        assert await db.batch(count_battles, quick=True) == 0
        other.execute("COMMIT")
        name, count = await writing
        ticking.cancel()
        assert name.startswith("huzzah-sqlite-writer") and count == 2
        assert await db.batch(count_battles, quick=True) == 2
    other.close()


async def test_a_quick_read_refused_midway_is_read_again_on_a_thread(tmp_path):
    url = sqlite_url(tmp_path)
    await upgrade_async(url)
    here = threading.current_thread().name
    calls: list[str] = []

    def read(conn: Connection) -> int:
        calls.append(threading.current_thread().name)
        if calls[-1] == here:
            busy = sqlite3.OperationalError("database is locked")
            busy.sqlite_errorcode = sqlite3.SQLITE_BUSY
            raise busy
        return count_battles(conn)

    async with Database(url) as db:
        assert await db.batch(read, quick=True) == 0
        assert calls[0] == here and calls[1].startswith("huzzah-sqlite-reader")
        # A write is never done twice: one refused midway is an error, as on a thread.
        calls.clear()
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            await db.batch(read, write=True, quick=True)
        assert calls == [here]


@pytest.mark.parametrize("every", [20, 10**9], ids=["checkpointed", "never (control)"])
async def test_the_log_of_quick_writes_is_checkpointed_on_a_thread(tmp_path, monkeypatch, every):
    """The event loop's connection never checkpoints by itself (that waits for the disk);
    every so often a checkpoint runs on the writing thread, so the log stays small."""
    monkeypatch.setattr(batches, "CHECKPOINT_EVERY", every)
    url = sqlite_url(tmp_path)
    await upgrade_async(url)
    async with Database(url) as db:
        for channel in range(500):
            await db.batch(partial(add_battle, channel), write=True, quick=True)
            if db._checkpointing is not None:
                await db._checkpointing
        wal = (tmp_path / (SQLITE_NAME + "-wal")).stat().st_size
        assert await db.batch(count_battles, quick=True) == 500
    if every == 20:
        assert wal < 512 * 1024
    else:
        assert wal > 1024 * 1024


def test_only_sqlites_busy_counts_as_busy():
    busy = sqlite3.OperationalError("database is locked")
    busy.sqlite_errorcode = sqlite3.SQLITE_BUSY | (1 << 8)  # an extended code: BUSY_RECOVERY
    assert is_busy(busy)
    assert is_busy(OperationalError("SELECT 1", {}, busy))
    other = sqlite3.OperationalError("no such table")
    other.sqlite_errorcode = sqlite3.SQLITE_ERROR
    assert not is_busy(other)
    assert not is_busy(ValueError("busy"))


async def test_quick_work_goes_to_a_thread_while_a_thread_runs_a_batch(tmp_path):
    """The event loop would wait for a busy thread's Python at each of its statements: while
    a thread runs a batch, quick work takes a thread too."""
    url = sqlite_url(tmp_path)
    await upgrade_async(url)
    release = threading.Event()

    def slow(conn: Connection) -> None:
        release.wait(5)

    async with Database(url) as db:
        writing = asyncio.create_task(db.batch(slow, write=True))  # not quick: a thread
        await asyncio.sleep(0.05)
        assert (await db.batch(_thread_name, quick=True)).startswith("huzzah-sqlite-reader")
        release.set()
        await writing
        assert await db.batch(_thread_name, quick=True) == threading.current_thread().name


async def test_a_quick_write_still_waiting_when_the_database_closes_is_refused(tmp_path):
    url = sqlite_url(tmp_path)
    await upgrade_async(url)
    db = Database(url)
    async with db.transaction():  # holds this process's turn to write
        waiting = asyncio.create_task(
            db.batch(partial(add_battle, 1), write=True, channel_id=1, quick=True))
        await asyncio.sleep(0.05)
        closing = asyncio.create_task(db.dispose())
        await asyncio.sleep(0.05)
    with pytest.raises(RuntimeError, match="closed"):
        await waiting
    await closing
    assert db._threads == {} and db._on_loop == {}
    assert not [t for t in threading.enumerate() if t.name.startswith("huzzah-sqlite")]
    async with Database(url) as again:
        assert await again.batch(count_battles) == 0


async def test_a_connection_that_cannot_open_for_the_lock_gives_way(tmp_path, monkeypatch):
    """Opening the event loop's connection runs pragmas, which another process's lock can
    refuse too: the work then goes to the thread, having done nothing."""
    url = sqlite_url(tmp_path)
    await upgrade_async(url)
    async with Database(url) as db:
        kept = db._loop_connection(True)._kept
        opened = kept._connection

        def refused_once(options):
            monkeypatch.setattr(kept, "_connection", opened)
            busy = sqlite3.OperationalError("database is locked")
            busy.sqlite_errorcode = sqlite3.SQLITE_BUSY
            raise busy

        monkeypatch.setattr(kept, "_connection", refused_once)
        assert (await db.batch(_thread_name, write=True, quick=True)).startswith(
            "huzzah-sqlite-writer")
        assert await db.batch(_thread_name, write=True, quick=True) == \
            threading.current_thread().name


def test_a_thread_that_waited_in_vain_reports_sqlites_own_error(tmp_path):
    """Only the event loop's connection gives way: a thread's, once its busy timeout is
    spent, raises what SQLite said."""
    from sqlalchemy import make_url

    from bot.storage.batches import Busy, KeptConnection
    from bot.storage.database import configure_sqlite

    database = tmp_path / SQLITE_NAME
    sqlite3.connect(database).execute("CREATE TABLE t (a INTEGER)").connection.close()
    other = sqlite3.connect(database, isolation_level=None)
    other.execute("PRAGMA journal_mode = WAL")
    other.execute("BEGIN IMMEDIATE")
    url = make_url(f"sqlite:///{database}")
    for gives_way, raised in ((False, sqlite3.OperationalError), (True, Busy)):
        kept = KeptConnection(url, partial(configure_sqlite, busy_timeout_ms=50),
                              "BEGIN IMMEDIATE", gives_way=gives_way)
        with pytest.raises(raised):
            kept.call(count_battles, {}, None)
        kept.close()
    other.close()
