"""Database.batch: one round trip per piece of work, on every kind of database."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import OperationalError

from bot.storage import Database
from bot.storage.database import is_in_memory
from bot.storage.migrate import upgrade_async

from .conftest import sqlite_url


def count_battles(conn: Connection) -> int:
    return conn.scalar(text("SELECT count(*) FROM battles"))


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


async def test_a_failed_batch_leaves_nothing_behind_for_the_next(tmp_path):
    """The batch threads keep their connection open between batches: whatever stopped one
    (a refusal, or an error from SQLite itself), the next starts on a clean transaction."""
    url = sqlite_url(tmp_path)
    await upgrade_async(url)

    class Refused(Exception):
        pass

    def refused(conn: Connection) -> None:
        add_battle(1, conn)
        raise Refused

    def broken(conn: Connection) -> None:
        add_battle(2, conn)
        conn.execute(text("INSERT INTO no_such_table VALUES (1)"))

    async with Database(url) as db:
        await db.batch(count_battles, write=True)
        kept = db._threads[True]._open
        with pytest.raises(Refused):
            await db.batch(refused, write=True)
        assert kept is not None and db._threads[True]._open is kept
        with pytest.raises(OperationalError, match="no_such_table"):
            await db.batch(broken, write=True)
        assert db._threads[True]._open is None  # not trusted again
        await db.batch(lambda conn: add_battle(3, conn), write=True)
        assert db._threads[True]._open is not kept
        channels = await db.batch(lambda conn: conn.scalars(
            text("SELECT channel_id FROM battles")).all())
    assert channels == [3]
