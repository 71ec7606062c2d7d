"""Writes run straight on sqlite3 store exactly what SQLAlchemy's execution stores."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest
from sqlalchemy import bindparam, func, insert, select, text, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError, IntegrityError

from bot.battles.rows import ADD_EVENT, BATTLES, EVENTS, UNITS
from bot.storage import Database
from bot.storage.direct import _compiled, compiled_statement, execute_dml
from bot.storage.migrate import upgrade_async

from .conftest import sqlite_url
from .test_batches import add_battle

SET_UNIT = update(UNITS).where(UNITS.c.id == bindparam("row_id"))
MOVE = update(BATTLES).where(BATTLES.c.id == bindparam("row_id"),
                             BATTLES.c.last_seq == bindparam("read_seq"))


def event(seq: int, **values: object) -> dict[str, object]:
    return {"battle_id": 1, "seq": seq, "interaction_id": None, "user_id": 7,
            "user_name": "Ann «Ney»", "command": "/melee", "kind": "resolution",
            "summary": "Artois gives ground", "request": {"dice": [3, 3], "note": None},
            "resolution": None, "changes": [{"table": "units", "before": {"x": 1}}],
            "reverts": None, "created_at": datetime(2026, 11, 25, 9, 30, 1, 250, tzinfo=UTC),
            **values}


def stored(conn: Connection, table: str, row_id: int) -> dict[str, object]:
    row = conn.execute(text(f"SELECT * FROM {table} WHERE id = :id"), {"id": row_id}).one()
    return {key: value for key, value in row._mapping.items() if key not in ("id", "seq")}


def add_unit(conn: Connection, name: str) -> None:
    conn.execute(text("INSERT INTO units (battle_id, side, name, name_key, attributes, "
                      "status) VALUES (1, 'A', :name, lower(:name), '{}', 'active')"),
                 {"name": name})


async def test_an_insert_and_an_update_store_what_sqlalchemy_stores(tmp_path):
    url = sqlite_url(tmp_path)
    await upgrade_async(url)
    async with Database(url) as db:
        def write(conn: Connection) -> list[int]:
            add_battle(5, conn)
            add_unit(conn, "Artois")
            add_unit(conn, "Béarn")
            counts = [execute_dml(conn, ADD_EVENT, event(1)),
                      conn.execute(ADD_EVENT, event(2)).rowcount]
            new = {"attributes": {"arm": "inf", "shaken": True}, "strength": 3,
                   "status": "active"}
            counts.append(execute_dml(conn, SET_UNIT, {"row_id": 1, **new}))
            conn.execute(SET_UNIT, {"row_id": 2, **new})
            # No row matches: nothing changes, and the count says so.
            counts.append(execute_dml(conn, MOVE, {"row_id": 1, "read_seq": 99,
                                                   "last_seq": 5}))
            counts.append(execute_dml(conn, MOVE, {"row_id": 1, "read_seq": 0,
                                                   "last_seq": 2}))
            return counts

        assert await db.batch(write, write=True) == [1, 1, 1, 0, 1]

        def read(conn: Connection) -> tuple:
            return (stored(conn, "events", 1), stored(conn, "events", 2),
                    stored(conn, "units", 1), stored(conn, "units", 2),
                    conn.scalar(text("SELECT last_seq FROM battles")))

        direct_event, plain_event, direct_unit, plain_unit, last_seq = await db.batch(read)
    assert direct_event == plain_event
    assert direct_event["request"] == '{"dice":[3,3],"note":null}'  # bot.storage.json_text
    for unit in (direct_unit, plain_unit):
        del unit["name"], unit["name_key"]
    assert direct_unit == plain_unit
    assert direct_unit["attributes"] == '{"arm":"inf","shaken":true}'
    assert last_seq == 2


async def test_a_statement_that_needs_a_default_goes_through_sqlalchemy(tmp_path):
    url = sqlite_url(tmp_path)
    await upgrade_async(url)
    async with Database(url) as db:
        def write(conn: Connection) -> object:
            add_battle(5, conn)
            values = event(1)
            del values["created_at"], values["changes"]  # filled in by the model's defaults
            execute_dml(conn, ADD_EVENT, values)
            return conn.execute(text("SELECT created_at, changes FROM events")).one()

        created_at, changes = await db.batch(write, write=True)
    assert created_at and changes == "[]"
    assert any(statement is ADD_EVENT and len(names) == 11
               for statement, names in _compiled)


async def test_a_refused_write_raises_what_sqlalchemy_raises(tmp_path):
    """A duplicate delivery's interaction id is caught as SQLAlchemy's ``IntegrityError``,
    whichever way the write ran."""
    url = sqlite_url(tmp_path)
    await upgrade_async(url)
    async with Database(url) as db:
        def twice(conn: Connection) -> None:
            add_battle(5, conn)
            execute_dml(conn, ADD_EVENT, event(1, interaction_id=77))
            execute_dml(conn, ADD_EVENT, event(2, interaction_id=77))

        with pytest.raises(IntegrityError, match="interaction_id"):
            await db.batch(twice, write=True)
        assert await db.batch(lambda conn: conn.scalar(text("SELECT count(*) FROM events"))) == 0


async def test_a_parameter_left_out_is_an_error_not_a_null(tmp_path):
    url = sqlite_url(tmp_path)
    await upgrade_async(url)
    async with Database(url) as db:
        with pytest.raises(KeyError, match="read_seq"):
            await db.batch(lambda conn: execute_dml(conn, MOVE, {"row_id": 1, "last_seq": 2}),
                           write=True)


# --- PostgreSQL: a one-statement write straight on asyncpg (Database.first_row) --------------

ADD_EVENT_RETURNING = insert(EVENTS).values(
    {key: bindparam(key, type_=EVENTS.c[key].type) for key in event(0)}).returning(EVENTS.c.seq)


async def stored_events(db: Database) -> list[tuple]:
    async with db.engine.connect() as conn:
        return [tuple(row) for row in await conn.execute(text(
            "SELECT seq, interaction_id, user_name, request::text, resolution::text, "
            "changes::text, created_at FROM events ORDER BY seq"))]


async def test_first_row_stores_what_sqlalchemy_stores_and_fails_as_it_does(db):
    if not db.is_postgresql:
        pytest.skip("a PostgreSQL write")
    async with db.engine.begin() as conn:
        await conn.run_sync(lambda sync: add_battle(5, sync))
    row = await db.first_row(ADD_EVENT_RETURNING, event(1, interaction_id=41))
    assert tuple(row) == (1,)
    async with db.engine.begin() as conn:
        await conn.execute(ADD_EVENT_RETURNING, event(2, interaction_id=42))
    first, second = await stored_events(db)
    assert first[0] == 1 and second[0] == 2
    assert first[2:] == second[2:]  # the same text, JSON and time as SQLAlchemy stores
    # A duplicate delivery fails as SQLAlchemy fails it; the connection is fine afterwards.
    with pytest.raises(IntegrityError, match="interaction_id"):
        await db.first_row(ADD_EVENT_RETURNING, event(3, interaction_id=41))
    # A condition that holds for no row: no row back.
    nothing = update(BATTLES).where(BATTLES.c.id == bindparam("row_id")).values(
        last_seq=bindparam("seq")).returning(BATTLES.c.id)
    assert await db.first_row(nothing, {"row_id": 99, "seq": 1}) is None
    assert [r[0] for r in await stored_events(db)] == [1, 2]


async def test_first_row_drops_a_connection_the_server_closed(db):
    """A connection the server closed is not used again. Closed while it waited in the
    pool, the next write goes through on a new one, or (when asyncpg has not yet read the
    server's goodbye) fails as dropped; closed under a statement, that statement fails as
    dropped. Either way the write after goes through, on a new connection."""
    if not db.is_postgresql:
        pytest.skip("a PostgreSQL connection")
    async with db.engine.begin() as conn:
        await conn.run_sync(lambda sync: add_battle(5, sync))
    await db.first_row(ADD_EVENT_RETURNING, event(1))  # a connection now waits in the pool
    await _terminate_others(db, "AND query LIKE 'INSERT INTO events%'")
    try:
        await db.first_row(ADD_EVENT_RETURNING, event(2))
    except DBAPIError as failed:
        assert failed.connection_invalidated
        await db.first_row(ADD_EVENT_RETURNING, event(2))  # on a new connection
    sleeping = asyncio.ensure_future(db.first_row(select(func.pg_sleep(5)), {}))
    await asyncio.sleep(0.5)
    await _terminate_others(db, "AND query LIKE '%pg_sleep%'")
    with pytest.raises(DBAPIError) as failed:
        await sleeping
    assert failed.value.connection_invalidated
    await db.first_row(ADD_EVENT_RETURNING, event(3))  # on a new connection
    assert [r[0] for r in await stored_events(db)] == [1, 2, 3]


async def _terminate_others(db: Database, which: str = "") -> None:
    """Have the server close the other connections to this database (``which`` of them)."""
    async with Database(db.url) as other, other.engine.connect() as conn:
        await conn.execute(text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                "WHERE datname = current_database() "
                                f"AND pid <> pg_backend_pid() {which}"))


def test_a_statement_run_straight_on_the_driver_binds_plain_parameters():
    from sqlalchemy.dialects.postgresql import asyncpg

    listed = update(BATTLES).where(BATTLES.c.id.in_(bindparam("ids", expanding=True)))
    with pytest.raises(ValueError, match="plain parameters"):
        compiled_statement(listed.values(turn=2), asyncpg.dialect())


def test_a_statement_run_straight_on_the_driver_fills_in_no_defaults():
    from sqlalchemy.dialects.postgresql import asyncpg

    keys = [key for key in event(0) if key not in ("changes", "created_at")]
    partial_event = insert(EVENTS).values({key: bindparam(key) for key in keys})
    with pytest.raises(ValueError, match="no column default"):
        compiled_statement(partial_event, asyncpg.dialect())


async def test_writes_once_the_pool_is_closed_open_no_other():
    """A one-statement write asked for after closing (one that waited to open the pool,
    say) is refused and opens no connection."""
    from sqlalchemy.ext.asyncio import create_async_engine

    from bot.storage.batches import CLOSED
    from bot.storage.direct_pool import DirectPool

    engine = create_async_engine("postgresql+asyncpg://nobody@127.0.0.1:9/none")
    pool = DirectPool(engine)
    await pool.close()
    with pytest.raises(RuntimeError, match=CLOSED):
        await pool.fetchrow("SELECT 1", ())
    assert pool._options is None and pool._count == 0
    await engine.dispose()
