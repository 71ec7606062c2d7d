"""The storage layer on SQLite and PostgreSQL: schema, constraints, locks, rollback, crashes."""

from __future__ import annotations

import asyncio
import gc
import json
import os
import signal
import sqlite3
import sys
import textwrap
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import delete, event, func, inspect, select, text, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import create_async_engine
from sqlalchemy.pool import NullPool

from bot.storage import (
    DEFAULT_URL,
    Battle,
    Database,
    Event,
    General,
    Unit,
    async_url,
    database_url,
    migrate,
    name_key,
    utcnow,
)
from bot.storage import database as database_module
from bot.storage.database import CRASH_ENV, READ_ONLY_OPTION, advisory_key
from bot.storage.models import Base

from .conftest import POSTGRES_SKIP, plain_url

ROOT = Path(__file__).resolve().parents[3]
CHANNEL = 100
SQLITE_ONLY = pytest.mark.parametrize("db", ["sqlite"], indirect=True)
POSTGRES_ONLY = pytest.mark.parametrize("db", ["postgresql"], indirect=True)
HANG_GUARD = 60  # seconds: a wait that only keeps a broken test from hanging


def new_battle(channel_id: int = CHANNEL, **fields: Any) -> Battle:
    fields = {"name": "Waterloo", **fields}
    return Battle(channel_id=channel_id, guild_id=10, ruleset="fire_at_will", created_by=1000,
                  **fields)


def new_unit(name: str, **fields: Any) -> Unit:
    return Unit(name=name, name_key=name_key(name), side="British", **fields)


def new_event(battle_id: int | None, seq: int, interaction_id: int | None = None) -> Event:
    return Event(battle_id=battle_id, seq=seq, interaction_id=interaction_id, user_id=1000,
                 user_name="Wellington", command="/fire unit:1st Foot", kind="fire",
                 summary="1st Foot fires")


async def add_battle(db: Database, **fields: Any) -> int:
    async with db.transaction() as session:
        battle = new_battle(**fields)
        session.add(battle)
        await session.flush()
        return battle.id


async def count(db: Database, model: type[Base], *where: Any) -> int:
    async with db.transaction() as session:
        return await session.scalar(select(func.count()).select_from(model).where(*where)) or 0


async def last_seq(db: Database, battle_id: int) -> int | None:
    async with db.transaction() as session:
        return await session.scalar(select(Battle.last_seq).where(Battle.id == battle_id))


async def increment(db: Database, battle_id: int, channel_id: int = CHANNEL) -> None:
    """Read ``last_seq``, yield to the other tasks, write it back plus one: a lost-update trap."""
    async with db.transaction(channel_id=channel_id) as session:
        value = await session.scalar(select(Battle.last_seq).where(Battle.id == battle_id))
        await asyncio.sleep(0)
        await session.execute(
            update(Battle).where(Battle.id == battle_id).values(last_seq=value + 1)
        )


# --- URLs ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("given", "expected"), [
    ("sqlite:///huzzah.db", "sqlite+aiosqlite:///huzzah.db"),
    ("sqlite:////var/lib/huzzah/huzzah.db", "sqlite+aiosqlite:////var/lib/huzzah/huzzah.db"),
    ("sqlite+aiosqlite:///huzzah.db", "sqlite+aiosqlite:///huzzah.db"),
    ("postgresql://bot:s3cr%40t@db:5432/huzzah", "postgresql+asyncpg://bot:s3cr%40t@db:5432/huzzah"),
    ("postgres://bot@db/huzzah", "postgresql+asyncpg://bot@db/huzzah"),
    ("postgresql+asyncpg://bot@db/huzzah", "postgresql+asyncpg://bot@db/huzzah"),
])
def test_urls_get_the_asyncio_driver(given: str, expected: str) -> None:
    assert async_url(given) == expected


@pytest.mark.parametrize("url", ["postgresql+psycopg2://db/huzzah", "mysql://db/huzzah"])
def test_urls_the_bot_cannot_drive_are_refused(url: str) -> None:
    with pytest.raises(ValueError, match="use"):
        async_url(url)


def test_database_url_comes_from_the_environment() -> None:
    assert database_url({}) == DEFAULT_URL == "sqlite+aiosqlite:///huzzah.db"
    assert database_url({"DATABASE_URL": "sqlite:///data/x.db"}) == "sqlite+aiosqlite:///data/x.db"


async def test_the_sqlite_folder_is_created(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path}/new/folder/huzzah.db")
    try:
        async with db.transaction() as session:
            await session.execute(text("SELECT 1"))
    finally:
        await db.dispose()
    assert (tmp_path / "new" / "folder" / "huzzah.db").is_file()


def test_advisory_keys_are_distinct_signed_64_bit_integers() -> None:
    keys = {advisory_key(channel) for channel in (1, 2, 2**63 - 1, 1234567890123456789)}
    assert len(keys) == 4
    assert all(-(2**63) <= key < 2**63 for key in keys)


# --- Migrations ------------------------------------------------------------------------------


def compare_with_models(connection: Connection) -> list[Any]:
    context = MigrationContext.configure(connection, opts={"compare_type": True})
    return compare_metadata(context, Base.metadata)


async def schema_diffs(db: Database) -> list[Any]:
    async with db.engine.connect() as connection:
        return await connection.run_sync(compare_with_models)


async def table_names(db: Database) -> set[str]:
    async with db.engine.connect() as connection:
        return await connection.run_sync(lambda sync: set(inspect(sync).get_table_names()))


async def test_migrations_go_down_to_base_and_up_again(
    db: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # the migrations are found wherever the process runs
    url = plain_url(db)
    head = ScriptDirectory.from_config(migrate.alembic_config(url)).get_current_head()
    assert head is not None
    assert await asyncio.to_thread(migrate.current, url) == head
    assert await schema_diffs(db) == []

    await db.dispose()
    await asyncio.to_thread(migrate.downgrade, url, "base")
    assert await asyncio.to_thread(migrate.current, url) is None
    assert await table_names(db) == {"alembic_version"}

    await migrate.upgrade_async(url)
    assert await asyncio.to_thread(migrate.current, url) == head
    assert await schema_diffs(db) == []
    assert {"battles", "units", "generals", "events"} <= await table_names(db)


async def test_blocking_migrations_refuse_to_run_inside_an_event_loop() -> None:
    with pytest.raises(RuntimeError, match="upgrade_async"):
        migrate.upgrade("sqlite:///never-created.db")


# --- SQLite connection set-up ----------------------------------------------------------------


@SQLITE_ONLY
async def test_sqlite_pragmas_hold_on_every_pooled_connection(db: Database) -> None:
    async with AsyncExitStack() as stack:
        connections = [await stack.enter_async_context(db.engine.connect()) for _ in range(4)]
        dbapi_connections = set()
        for connection in connections:
            await connection.execution_options(**{READ_ONLY_OPTION: True})  # BEGIN DEFERRED
            raw = await connection.get_raw_connection()
            dbapi_connections.add(id(raw.dbapi_connection))
            pragma = connection.exec_driver_sql
            assert (await pragma("PRAGMA journal_mode")).scalar() == "wal"
            assert (await pragma("PRAGMA foreign_keys")).scalar() == 1
            assert (await pragma("PRAGMA busy_timeout")).scalar() > 0
    assert len(dbapi_connections) == 4


def try_to_take_the_write_lock(path: str) -> None:
    """Start an IMMEDIATE transaction from a plain sqlite3 connection that will not wait."""
    connection = sqlite3.connect(path, timeout=0, isolation_level=None)
    try:
        connection.execute("BEGIN IMMEDIATE")
        connection.execute("ROLLBACK")
    finally:
        connection.close()


@SQLITE_ONLY
async def test_sqlite_transactions_hold_the_write_lock_from_their_start(db: Database) -> None:
    path = str(db.url.database)
    async with db.transaction(channel_id=CHANNEL) as session:
        await session.execute(select(Battle.id))  # nothing written yet
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            await asyncio.to_thread(try_to_take_the_write_lock, path)

    def read_then_try(conn: Connection) -> None:
        conn.execute(select(Battle.id))
        try_to_take_the_write_lock(path)  # a read leaves it free

    await db.run(read_then_try)


# --- Constraints -----------------------------------------------------------------------------


async def test_a_channel_has_at_most_one_active_battle(db: Database) -> None:
    first = await add_battle(db, status="ended")
    await add_battle(db)
    await add_battle(db, channel_id=CHANNEL + 1)
    with pytest.raises(IntegrityError):
        await add_battle(db)
    assert await count(db, Battle) == 3

    async with db.transaction(channel_id=CHANNEL) as session:
        await session.execute(
            update(Battle).where(Battle.channel_id == CHANNEL, Battle.id != first)
            .values(status="ended", ended_at=utcnow())
        )
    await add_battle(db)
    assert await count(db, Battle, Battle.channel_id == CHANNEL) == 3


async def test_an_interaction_is_recorded_once(db: Database) -> None:
    battle_id = await add_battle(db)
    async with db.transaction() as session:
        session.add_all([new_event(battle_id, 1, 555), new_event(battle_id, 2),
                         new_event(battle_id, 3)])
    with pytest.raises(IntegrityError):
        async with db.transaction() as session:
            session.add(new_event(battle_id, 4, 555))
    assert await count(db, Event) == 3


async def test_a_savepoint_absorbs_a_duplicate_and_the_transaction_goes_on(db: Database) -> None:
    """How a handler can notice a redelivered interaction without losing the rest of its work."""
    battle_id = await add_battle(db)
    async with db.transaction() as session:
        session.add(new_event(battle_id, 1, 555))
    async with db.transaction(channel_id=CHANNEL) as session:
        (await session.get_one(Battle, battle_id)).turn = 2
        with pytest.raises(IntegrityError):
            async with session.begin_nested():
                session.add(new_event(battle_id, 2, 555))
        session.add(new_event(battle_id, 2, 556))
    assert await count(db, Event) == 2
    async with db.transaction() as session:
        assert (await session.get_one(Battle, battle_id)).turn == 2


async def test_sequence_numbers_are_unique_within_a_battle(db: Database) -> None:
    first, second = await add_battle(db), await add_battle(db, channel_id=CHANNEL + 1)
    async with db.transaction() as session:
        session.add_all([new_event(first, 1), new_event(second, 1)])
    with pytest.raises(IntegrityError):
        async with db.transaction() as session:
            session.add(new_event(first, 1))


async def test_unit_and_general_names_are_unique_within_a_battle(db: Database) -> None:
    battle_id = await add_battle(db)
    async with db.transaction() as session:
        session.add(new_unit("1st Foot", battle_id=battle_id))
    with pytest.raises(IntegrityError):
        async with db.transaction() as session:
            session.add(new_unit("1ST  foot", battle_id=battle_id))
    async with db.transaction() as session:
        session.add(General(battle_id=battle_id, name="Picton", name_key="picton", side="British"))
    with pytest.raises(IntegrityError):
        async with db.transaction() as session:
            session.add(General(battle_id=battle_id, name="PICTON", name_key="picton", side="X"))


async def add_battle_with_everything(db: Database, channel_id: int) -> int:
    async with db.transaction() as session:
        battle = new_battle(channel_id=channel_id)
        battle.units.append(new_unit("1st Foot"))
        battle.generals.append(General(name="Picton", name_key="picton", side="British"))
        session.add(battle)
        await session.flush()
        session.add(new_event(battle.id, 1))
        return battle.id


async def test_deleting_a_battle_deletes_its_units_generals_and_events(db: Database) -> None:
    by_orm, by_sql, kept = [await add_battle_with_everything(db, c) for c in (1, 2, 3)]
    async with db.transaction() as session:
        await session.delete(await session.get_one(Battle, by_orm))
    async with db.transaction() as session:
        await session.execute(delete(Battle).where(Battle.id == by_sql))
    for model in (Unit, General, Event):
        assert await count(db, model) == 1
        assert await count(db, model, model.battle_id == kept) == 1


# --- Snapshots -------------------------------------------------------------------------------


def scramble(battle: Battle, unit: Unit, general: General, event: Event) -> None:
    battle.name, battle.status, battle.ended_at, battle.turn = "Ligny", "ended", utcnow(), 7
    battle.settings["scale"] = "division"
    battle.dice_queue.append(6)
    unit.attributes["markers"].append("shaken")  # nested, in place: must not reach the snapshot
    unit.strength, unit.status, unit.gone_reason = 0, "gone", "routed"
    general.wounds, general.status, general.unit_name = 1, "captured", None
    event.undone_by, event.summary = 2, "undone"
    event.changes.append({"unit": "1st Foot"})


async def test_snapshot_and_restore_round_trip_every_model(db: Database) -> None:
    async with db.transaction() as session:
        battle = new_battle(settings={"scale": "brigade"}, dice_queue=[3, 5], phase="fire")
        unit = new_unit("1st Foot", strength=6,
                        attributes={"morale": "steady", "markers": ["disordered"]})
        general = General(name="Picton", name_key="picton", side="British", unit_name="1st Foot")
        event = new_event(None, 1, 777)
        event.request, event.resolution = {"unit": "1st Foot"}, {"hits": 2}
        battle.units.append(unit)
        battle.generals.append(general)
        battle.events.append(event)
        session.add(battle)
        await session.flush()
        models = (battle, unit, general, event)
        before = [model.snapshot() for model in models]
        assert json.loads(json.dumps(before)) == before

        scramble(*models)
        assert before[1]["attributes"]["markers"] == ["disordered"]
        for model, snapshot in zip(models, before, strict=True):
            model.restore({**snapshot, "id": 999_999})
        assert [model.snapshot() for model in models] == before
        keys = [(type(model), model.id) for model in models]

    async with db.transaction() as session:
        reloaded = [await session.get_one(model, key) for model, key in keys]
        assert [model.snapshot() for model in reloaded] == before
        assert reloaded[0].created_at.utcoffset() is not None


# --- Transactions ----------------------------------------------------------------------------


async def test_a_transaction_that_raises_leaves_no_trace(db: Database) -> None:
    battle_id = await add_battle(db)
    with pytest.raises(RuntimeError, match="boom"):
        async with db.transaction(channel_id=CHANNEL) as session:
            battle = await session.get_one(Battle, battle_id)
            battle.turn = 5
            session.add(new_unit("1st Foot", battle_id=battle.id))
            session.add(new_battle(channel_id=CHANNEL + 1))
            await session.flush()
            raise RuntimeError("boom")
    assert await count(db, Battle) == 1
    assert await count(db, Unit) == 0
    async with db.transaction() as session:
        assert (await session.get_one(Battle, battle_id)).turn == 1
    await asyncio.wait_for(increment(db, battle_id), HANG_GUARD)  # the channel is free again


async def test_one_channel_never_loses_an_update(db: Database) -> None:
    battle_id = await add_battle(db)
    await asyncio.gather(*(increment(db, battle_id) for _ in range(50)))
    assert await last_seq(db, battle_id) == 50


def lock_requested(database: Database) -> asyncio.Event:
    """An event set once ``database`` asks the database for a channel's lock: SQLite's
    ``BEGIN IMMEDIATE`` (its one write lock), PostgreSQL's advisory lock."""
    asked = asyncio.Event()

    @event.listens_for(database.engine.sync_engine, "before_cursor_execute")
    def _asking(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if statement.startswith("BEGIN IMMEDIATE") or "pg_advisory_xact_lock" in statement:
            asked.set()

    return asked


async def test_the_channel_lock_holds_across_database_objects(db: Database) -> None:
    """Two ``Database`` objects share no asyncio lock (like two processes): the database must."""
    battle_id = await add_battle(db)
    other = Database(plain_url(db))
    waiting = lock_requested(other)
    holding, release = asyncio.Event(), asyncio.Event()

    async def hold_the_channel() -> None:
        async with db.transaction(channel_id=CHANNEL) as session:
            holding.set()
            await release.wait()
            await session.execute(update(Battle).values(last_seq=10))

    try:
        holder = asyncio.create_task(hold_the_channel())
        await holding.wait()
        waiter = asyncio.create_task(increment(other, battle_id))
        await asyncio.wait_for(waiting.wait(), HANG_GUARD)
        assert not waiter.done()
        release.set()
        await asyncio.wait_for(asyncio.gather(holder, waiter), HANG_GUARD)
    finally:
        await other.dispose()
    # The waiter read the channel only once the holder had committed.
    assert await last_seq(db, battle_id) == 11


@POSTGRES_ONLY
async def test_different_channels_do_not_wait_for_each_other(db: Database) -> None:
    battle_id = await add_battle(db, channel_id=2)
    holding, other_done = asyncio.Event(), asyncio.Event()

    async def hold_channel_one() -> None:
        async with db.transaction(channel_id=1):
            holding.set()
            await other_done.wait()

    async def use_channel_two() -> None:
        await holding.wait()
        await increment(db, battle_id, channel_id=2)
        other_done.set()

    await asyncio.wait_for(asyncio.gather(hold_channel_one(), use_channel_two()), HANG_GUARD)
    assert await last_seq(db, battle_id) == 1


# --- Other processes -------------------------------------------------------------------------

INCREMENTER = textwrap.dedent("""
    import asyncio, sys
    from sqlalchemy import select, update
    from bot.storage import Battle, Database

    async def main(url, battle_id, channel_id, times):
        db = Database(url)
        try:
            for _ in range(times):
                async with db.transaction(channel_id=channel_id) as session:
                    query = select(Battle.last_seq).where(Battle.id == battle_id)
                    value = await session.scalar(query)
                    await asyncio.sleep(0.001)
                    await session.execute(
                        update(Battle).where(Battle.id == battle_id).values(last_seq=value + 1)
                    )
        finally:
            await db.dispose()

    url, battle_id, channel_id, times = sys.argv[1:]
    print("ready", flush=True)
    sys.stdin.readline()
    asyncio.run(main(url, int(battle_id), int(channel_id), int(times)))
""")

BATTLE_WRITER = textwrap.dedent("""
    import asyncio, sys
    from bot.storage import Battle, Database

    async def main(url, channel_id):
        db = Database(url)
        async with db.transaction(channel_id=channel_id) as session:
            session.add(Battle(channel_id=channel_id, ruleset="fire_at_will", name="Crash",
                               created_by=1))
        await db.dispose()

    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
""")


def child_environment(**extra: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key != CRASH_ENV}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return {**env, **extra}


async def start_python(script: str, *args: object, cwd: Path, **env: str) -> Any:
    return await asyncio.create_subprocess_exec(
        sys.executable, "-c", script, *map(str, args), cwd=cwd, env=child_environment(**env),
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


async def test_processes_take_turns_on_one_channel(db: Database, tmp_path: Path) -> None:
    battle_id = await add_battle(db)
    workers = [await start_python(INCREMENTER, plain_url(db), battle_id, CHANNEL, 20, cwd=tmp_path)
               for _ in range(3)]
    for worker in workers:  # start them together, so they really contend
        if (await worker.stdout.readline()).strip() != b"ready":
            _, err = await worker.communicate()
            pytest.fail(err.decode())
    for worker in workers:
        worker.stdin.write(b"go\n")
        await worker.stdin.drain()
    results = await asyncio.wait_for(asyncio.gather(*(w.communicate() for w in workers)), 120)
    for worker, (_, err) in zip(workers, results, strict=True):
        assert worker.returncode == 0, err.decode()
    assert await last_seq(db, battle_id) == 60


@pytest.mark.parametrize(("crash_at", "committed"), [("before_commit", False),
                                                     ("after_commit", True)])
async def test_a_crash_keeps_all_or_nothing(
    db: Database, tmp_path: Path, crash_at: str, committed: bool
) -> None:
    url = plain_url(db)
    writer = await start_python(BATTLE_WRITER, url, CHANNEL, cwd=tmp_path,
                                **{CRASH_ENV: crash_at})
    _, err = await asyncio.wait_for(writer.communicate(), 60)
    assert writer.returncode == -signal.SIGKILL, err.decode()

    await db.dispose()
    reopened = Database(url)
    try:
        assert await count(reopened, Battle, Battle.name == "Crash") == int(committed)
        # The dead process's locks died with it: the channel takes new work (a lock left
        # behind would hold it for good, or past SQLite's busy timeout).
        async with asyncio.timeout(HANG_GUARD), \
                reopened.transaction(channel_id=CHANNEL) as session:
            session.add(new_battle(channel_id=CHANNEL + 1))
    finally:
        await reopened.dispose()


# --- Connections that died while idle in the pool ---------------------------------------------


async def test_a_connection_killed_while_idle_is_replaced_not_failed(
        postgres_url: str | None, monkeypatch: pytest.MonkeyPatch) -> None:
    if postgres_url is None:
        pytest.skip(POSTGRES_SKIP)
    async with Database(postgres_url) as db:
        await killed_while_idle(db, monkeypatch)


async def killed_while_idle(db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    """A server-side kill of a pooled connection (a database restart, say), then a checkout."""
    async with db.engine.connect() as connection:
        backend = await connection.scalar(text("SELECT pg_backend_pid()"))
    killer = create_async_engine(db.url, poolclass=NullPool)
    async with killer.connect() as other:
        await other.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": backend})
    await killer.dispose()
    monkeypatch.setattr(database_module, "IDLE_PING_SECONDS", 0.0)
    async with db.engine.connect() as connection:  # the pooled one is dead: pinged, replaced
        assert await connection.scalar(text("SELECT pg_backend_pid()")) != backend


async def test_a_held_channel_lock_is_the_one_handed_out_and_a_free_one_is_dropped(
        tmp_path) -> None:
    """Two commands of one channel never hold two locks of it; a lock nobody holds is not
    kept (a bot in thousands of channels keeps no lock per channel)."""
    async with Database(f"sqlite+aiosqlite:///{tmp_path / 'locks.db'}") as db:
        first = db._process_lock(1)
        async with first:
            assert db._process_lock(1) is first
            assert db._process_lock(2) is not first
            waiting = asyncio.ensure_future(_hold(db._process_lock(1)))
            for _ in range(3):
                await asyncio.sleep(0)
            assert not waiting.done()
        await waiting
        del first, waiting
        gc.collect()
        assert 1 not in db._channel_locks


async def _hold(lock: Any) -> None:
    async with lock:
        pass


def test_a_database_failure_is_the_hosts_and_bad_sql_is_not():
    """A full disk or a lost server is the host's to fix, logged in one line; SQLite reports
    a statement it cannot run (a syntax error, a missing table) as an OperationalError too,
    and that one is a fault of the bot's own, which keeps its traceback."""
    from sqlalchemy.exc import OperationalError

    from bot.storage.database import database_failure

    full = OperationalError("COMMIT", {}, sqlite3.OperationalError("database or disk is full"))
    full.orig.sqlite_errorcode = sqlite3.SQLITE_FULL  # type: ignore[attr-defined]
    assert database_failure(full) is full
    connection = sqlite3.connect(":memory:")
    with pytest.raises(sqlite3.OperationalError) as raised:
        connection.execute("SELECT * FROM no_such_table")
    assert database_failure(OperationalError("SELECT", {}, raised.value)) is None
