"""Undo finds the event to take back in one index step, however many were undone before."""

from __future__ import annotations

from sqlalchemy import text

from bot.battles.store import undoable
from bot.storage import Database


def plan_of(statement, dialect) -> str:
    return str(statement.compile(dialect=dialect, compile_kwargs={"literal_binds": True}))


async def test_the_search_for_the_undoable_event_uses_its_index(db: Database) -> None:
    async with db.engine.connect() as connection:
        sql = plan_of(undoable(1, ("dice_queue",)), connection.dialect)
        if db.is_sqlite:
            plan = (await connection.exec_driver_sql(f"EXPLAIN QUERY PLAN {sql}")).all()
            assert "USING INDEX ix_events_undoable" in plan[0][-1], plan
        else:
            await connection.execute(text("SET enable_seqscan = off"))
            plan = (await connection.exec_driver_sql(f"EXPLAIN {sql}")).all()
            assert any("ix_events_undoable" in row[0] for row in plan), plan


def test_0003_adds_and_removes_the_index(tmp_path) -> None:
    import sqlite3

    from bot.storage import migrate

    from .conftest import sqlite_url

    url = sqlite_url(tmp_path)

    def index_sql() -> list[str]:
        with sqlite3.connect(tmp_path / url.rsplit("/", 1)[1]) as conn:
            return [row[0] for row in conn.execute(
                "SELECT sql FROM sqlite_master WHERE name = 'ix_events_undoable'")]

    migrate.upgrade(url)
    (sql,) = index_sql()
    assert "WHERE undone_by IS NULL AND kind != 'undo'" in sql
    migrate.downgrade(url, "0002")
    assert index_sql() == []
    migrate.upgrade(url)
    assert len(index_sql()) == 1
