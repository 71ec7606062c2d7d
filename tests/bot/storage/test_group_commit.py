"""Quick writes queued together on a SQLite file are committed together, each whole or not at
all: a group's works share one BEGIN and COMMIT, and a work that fails is rolled back alone."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from functools import partial

import pytest
from sqlalchemy import text
from sqlalchemy.engine import Connection

from bot.storage import Database, batches
from bot.storage import database as database_module
from bot.storage.migrate import upgrade_async

from .conftest import SQLITE_NAME, sqlite_url
from .test_batches import Refused, add_battle, raw_battle


def refused_after(write, conn: Connection) -> None:
    write(conn)
    raise Refused


def channels_stored(conn: Connection) -> list[int]:
    return list(conn.scalars(text("SELECT channel_id FROM battles ORDER BY channel_id")))


class Statements:
    """Counts the transactions the event loop's writing connection commits."""

    def __init__(self, db: Database) -> None:
        self.seen: list[str] = []
        kept = db._loop_connection(True)._kept
        opened = kept._connection

        def traced(options):
            connection = opened(options)
            connection.connection.dbapi_connection.set_trace_callback(self.seen.append)
            return connection

        kept._connection = traced

    @property
    def commits(self) -> int:
        return sum(statement.upper().startswith("COMMIT") for statement in self.seen)


async def together(db: Database, works) -> list:
    """The works asked for in one go (as concurrent moves in many channels are); each
    caller's result or error."""
    return await asyncio.gather(*(db.batch(work, write=True, quick=True) for work in works),
                                return_exceptions=True)


@pytest.fixture
async def db(tmp_path):
    url = sqlite_url(tmp_path)
    await upgrade_async(url)
    async with Database(url) as db:
        yield db


async def test_writes_asked_for_together_are_committed_together(db):
    statements = Statements(db)
    results = await together(db, [partial(raw_battle, channel) for channel in range(1, 6)])
    assert results == [1, 2, 3, 4, 5]  # each caller gets its own work's result
    assert statements.commits == 1
    assert await db.batch(channels_stored, quick=True) == [1, 2, 3, 4, 5]


async def test_a_write_alone_is_its_own_transaction_with_no_savepoint(db):
    statements = Statements(db)
    assert await db.batch(partial(raw_battle, 1), write=True, quick=True) == 1
    assert statements.commits == 1
    assert not [s for s in statements.seen if "SAVEPOINT" in s.upper()]


async def test_a_group_holds_at_most_its_limit(db, monkeypatch):
    monkeypatch.setattr(database_module, "GROUP_LIMIT", 4)
    statements = Statements(db)
    results = await together(db, [partial(raw_battle, channel) for channel in range(10)])
    assert results == list(range(10))
    assert statements.commits == 3  # 4 + 4 + 2


async def test_a_refused_write_is_rolled_back_alone(db):
    """A refusal (a rule, a battle moved meanwhile) takes back its own work, not the
    others', and is raised to its own caller; the connection is kept."""
    kept_before = None
    await db.batch(partial(raw_battle, 100), write=True, quick=True)
    kept_before = db._on_loop[True]._kept._open
    results = await together(db, [partial(raw_battle, 1),
                                  partial(refused_after, partial(raw_battle, 2)),
                                  partial(refused_after, partial(add_battle, 3)),
                                  partial(raw_battle, 4)])
    assert results[0] == 1 and results[3] == 4
    assert isinstance(results[1], Refused) and isinstance(results[2], Refused)
    assert await db.batch(channels_stored, quick=True) == [1, 4, 100]
    assert db._on_loop[True]._kept._open is kept_before


DUPLICATE = ("INSERT INTO battles (id, channel_id, ruleset, name, status, created_by, "
             "settings, turn, last_seq, dice_queue, created_at) SELECT id, 8, ruleset, name, "
             "status, created_by, settings, turn, last_seq, dice_queue, created_at FROM battles")


def duplicate_on_sqlite3(conn: Connection) -> None:
    raw_battle(20, conn)
    conn.connection.dbapi_connection.execute(DUPLICATE)


def duplicate_through_sqlalchemy(conn: Connection) -> None:
    add_battle(21, conn)
    conn.execute(text(DUPLICATE))


@pytest.mark.parametrize("duplicate", [duplicate_on_sqlite3, duplicate_through_sqlalchemy])
async def test_a_duplicate_in_a_group_is_refused_alone(db, duplicate):
    """A unique key refused (a duplicate delivery's event) fails that write only, whether it
    went straight to sqlite3 or through SQLAlchemy (which then commits the group); the
    driver having failed, the connection is not used again."""
    await db.batch(partial(raw_battle, 7), write=True, quick=True)
    kept_before = db._on_loop[True]._kept._open
    results = await together(db, [partial(add_battle, 1), duplicate, partial(raw_battle, 2)])
    assert results[0] is None and results[2] == 2
    assert "UNIQUE constraint failed" in str(results[1])
    assert await db.batch(channels_stored, quick=True) == [1, 2, 7]
    assert db._on_loop[True]._kept._open is not kept_before


async def test_a_write_that_ends_the_transaction_takes_the_group_with_it(db):
    """Some errors end SQLite's whole transaction (a full disk, say): then no write of the
    group is committed, and every caller is told so with that error."""
    def ends_it(conn: Connection) -> None:
        raw_battle(2, conn)
        conn.connection.dbapi_connection.execute("ROLLBACK")
        raise sqlite3.OperationalError("database or disk is full")

    results = await together(db, [partial(raw_battle, 1), ends_it, partial(raw_battle, 3)])
    assert [str(result) for result in results] == ["database or disk is full"] * 3
    assert await db.batch(channels_stored, quick=True) == []
    # The next group starts afresh.
    assert await together(db, [partial(raw_battle, 4)]) == [4]
    assert await db.batch(channels_stored, quick=True) == [4]


async def test_a_failed_commit_fails_every_write_of_the_group(db, monkeypatch):
    def no_commit(name: str) -> None:
        if name == "before_commit":
            raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(database_module, "crash_point", no_commit)
    results = await together(db, [partial(raw_battle, 1), partial(raw_battle, 2)])
    assert all(isinstance(result, sqlite3.OperationalError) for result in results)
    monkeypatch.undo()
    assert await db.batch(channels_stored, quick=True) == []


async def test_the_crash_seams_come_once_a_group_before_and_after_its_commit(db, monkeypatch):
    seen: list[tuple[str, list[int]]] = []
    raw = sqlite3.connect(db.url.database)

    def seam(name: str) -> None:
        stored = [row[0] for row in raw.execute("SELECT channel_id FROM battles")]
        seen.append((name, sorted(stored)))

    monkeypatch.setattr(database_module, "crash_point", seam)
    await together(db, [partial(raw_battle, 1), partial(raw_battle, 2)])
    raw.close()
    assert seen == [("before_commit", []), ("after_commit", [1, 2])]


async def test_writes_wait_on_a_thread_while_another_connection_holds_the_lock(db, tmp_path):
    other = sqlite3.connect(tmp_path / SQLITE_NAME, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    writing = asyncio.ensure_future(together(db, [partial(raw_battle, c) for c in (1, 2, 3)]))
    await asyncio.sleep(0.2)
    assert not writing.done()
    other.execute("COMMIT")
    other.close()
    assert await writing == [1, 2, 3]
    assert await db.batch(channels_stored, quick=True) == [1, 2, 3]


async def test_a_caller_that_stops_waiting_leaves_the_others_their_answers(db):
    """A write whose caller was cancelled while it waited for its group is not made (its
    caller was told it failed); the others are."""
    first = asyncio.ensure_future(db.batch(partial(raw_battle, 1), write=True, quick=True))
    second = asyncio.ensure_future(db.batch(partial(raw_battle, 2), write=True, quick=True))
    await asyncio.sleep(0)
    first.cancel()
    assert await asyncio.wait_for(second, 5) == 2
    with pytest.raises(asyncio.CancelledError):
        await first
    assert await db.batch(channels_stored, quick=True) == [2]


async def test_the_log_is_checkpointed_by_works_written_not_by_commits(db, monkeypatch):
    """A commit may hold many works: the log's checkpoint counts what was written."""
    monkeypatch.setattr(batches, "CHECKPOINT_EVERY", 10)
    asked: list[int] = []
    monkeypatch.setattr(db, "_checkpoint_soon", lambda: asked.append(1))
    db._on_loop.clear()
    await together(db, [partial(raw_battle, channel) for channel in range(12)])
    assert asked == [1]


async def queue_of_writes(db, monkeypatch, work_seconds: float) -> list[int]:
    """Six writes queued at once, two a group, each taking ``work_seconds``: for each, how
    many times another task had run before it was written."""
    monkeypatch.setattr(database_module, "GROUP_LIMIT", 2)
    ticks = 0
    seen: list[int] = []

    async def ticker() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0)

    def work(conn: Connection) -> None:
        seen.append(ticks)
        time.sleep(work_seconds)

    ticking = asyncio.ensure_future(ticker())
    await together(db, [work] * 6)
    ticking.cancel()
    return seen


async def test_the_loop_runs_between_groups_once_they_have_held_it_long_enough(
        db, monkeypatch):
    """A long queue of writes is written a group at a time, and other tasks run between
    two groups once the groups written in one go have held the event loop
    ``WRITING_HOLD``: no queue holds it much longer."""
    seen = await queue_of_writes(db, monkeypatch, database_module.WRITING_HOLD / 2)
    # Each group of two writes takes the whole hold: the loop runs after each.
    assert seen[0] == seen[1] and seen[2] == seen[3] and seen[4] == seen[5]
    assert seen[0] < seen[2] < seen[4]


async def test_quick_groups_are_written_in_one_go(db, monkeypatch):
    """Groups that write quickly are written one after another, the loop running only once
    they have held it ``WRITING_HOLD``: letting it run after each cost a tenth of the moves
    written per second under load."""
    seen = await queue_of_writes(db, monkeypatch, 0)
    assert len(set(seen)) == 1
    monkeypatch.setattr(database_module, "WRITING_HOLD", 0)
    seen = await queue_of_writes(db, monkeypatch, 0)
    assert seen[0] == seen[1] < seen[2] == seen[3] < seen[4] == seen[5]
