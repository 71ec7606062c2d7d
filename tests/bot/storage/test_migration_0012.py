"""Revision 0012: a quick lookup's question ids are never handed out again (SQLite)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from .test_migration_0002 import (  # noqa: F401
    database,
    fill_0001,
    huzzah_db,
    query,
    schema_diffs,
)


def questions_sql(database: Path) -> str:  # noqa: F811
    return query(database, "SELECT sql FROM sqlite_master WHERE name = 'questions'")[0][0]


def ask(database: Path) -> int:  # noqa: F811
    with sqlite3.connect(database) as c:
        return c.execute("INSERT INTO questions (channel_id, user_id, data, created_at) VALUES "
                         "(100, 1000, '{}', '2026-11-27 05:00:00')").lastrowid


def test_0012_keeps_the_questions_and_never_gives_an_answered_ones_id_again(
        database: Path) -> None:  # noqa: F811
    huzzah_db("upgrade", "0011")
    fill_0001(database)
    first, second = ask(database), ask(database)
    huzzah_db("upgrade", "0012")
    assert "AUTOINCREMENT" in questions_sql(database)
    assert query(database, "SELECT id FROM questions ORDER BY id") == [(first,), (second,)]
    assert query(database, "SELECT name FROM sqlite_master WHERE tbl_name = 'questions' "
                 "AND type = 'index'") == [("ix_questions_channel_id",)]
    with sqlite3.connect(database) as c:  # answered: the rows go
        c.execute("DELETE FROM questions")
    # Buttons may name ids above any row left: new ones start past them all.
    assert ask(database) == 1_000_000
    with sqlite3.connect(database) as c:
        c.execute("DELETE FROM questions")
    assert ask(database) == 1_000_001
    huzzah_db("downgrade", "0011")
    assert "AUTOINCREMENT" not in questions_sql(database)
    huzzah_db("upgrade", "head")
    assert schema_diffs(database) == []
