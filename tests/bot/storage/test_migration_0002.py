"""Revision 0002 (fixed sides, who added each unit and general) through `huzzah db`:
up from a 0001 database with battles in it, down again, and up, losing nothing."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine

from bot.cli import main
from bot.storage.models import Base

ACTIVE_INDEX = "uq_battles_active_channel_id"


@pytest.fixture
def database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "huzzah.db"
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{path}")
    return path


def huzzah_db(*args: str) -> None:
    assert main(["db", *args]) == 0


def query(path: Path, sql: str) -> list[tuple]:
    with sqlite3.connect(path) as connection:
        return connection.execute(sql).fetchall()


def columns(path: Path, table: str) -> set[str]:
    return {row[1] for row in query(path, f"PRAGMA table_info({table})")}


def fill_0001(path: Path) -> None:
    """A battle at 0001, as an older Huzzah left it."""
    with sqlite3.connect(path) as c:
        c.execute("INSERT INTO battles (id, channel_id, ruleset, name, status, created_by, "
                  "settings, turn, last_seq, dice_queue, created_at) VALUES (1, 100, "
                  "'fire-at-will', 'Quebec', 'active', 2000, '{}', 1, 2, '[]', "
                  "'2026-01-01 00:00:00+00:00')")
        c.execute("INSERT INTO units (battle_id, name, name_key, side, strength, status, "
                  "attributes) VALUES (1, 'Rangers', 'rangers', 'British', 3, 'active', '{}')")
        c.execute("INSERT INTO generals (battle_id, name, name_key, side, wounds, status) "
                  "VALUES (1, 'Wolfe', 'wolfe', 'British', 0, 'active')")


def schema_diffs(path: Path) -> list:
    engine = create_engine(f"sqlite:///{path}")
    try:
        with engine.connect() as connection:
            context = MigrationContext.configure(connection, opts={"compare_type": True})
            return compare_metadata(context, Base.metadata)
    finally:
        engine.dispose()


def test_0002_round_trips_and_keeps_the_battles(database: Path, capsys) -> None:
    huzzah_db("upgrade", "0001")
    fill_0001(database)
    assert "added_by" not in columns(database, "units")

    huzzah_db("upgrade", "0002")
    assert capsys.readouterr().out.strip().endswith("database at revision 0002")
    assert {"added_by"} <= columns(database, "units") & columns(database, "generals")
    assert "sides" in columns(database, "battles")
    # Rows from before: nobody on record (GM only), sides not fixed yet.
    assert query(database, "SELECT name, strength, added_by FROM units") == [
        ("Rangers", 3, None)]
    assert query(database, "SELECT name, added_by FROM generals") == [("Wolfe", None)]
    assert query(database, "SELECT name, sides FROM battles") == [("Quebec", None)]

    huzzah_db("downgrade", "0001")
    assert "added_by" not in columns(database, "units") | columns(database, "generals")
    assert "sides" not in columns(database, "battles")
    assert query(database, "SELECT name, strength FROM units") == [("Rangers", 3)]
    assert query(database, "SELECT name FROM generals") == [("Wolfe",)]
    # The rebuilt table keeps its one-active-battle-per-channel index, partial as before.
    (index,) = query(database, "SELECT sql FROM sqlite_master WHERE name = "
                               f"'{ACTIVE_INDEX}'")
    assert "WHERE status = 'active'" in index[0]

    huzzah_db("upgrade")
    assert query(database, "SELECT name, added_by FROM units") == [("Rangers", None)]
    assert schema_diffs(database) == []
