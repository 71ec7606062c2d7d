"""Revision 0006: a battle's chart pack, one row per battle, and back."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from .test_migration_0002 import database, huzzah_db, query, schema_diffs  # noqa: F401
from .test_migration_0005 import fill_0004


def tables(path: Path) -> set[str]:
    return {r[0] for r in query(path, "SELECT name FROM sqlite_master WHERE type = 'table'")}


def test_0006_adds_one_chart_pack_per_battle_and_takes_it_away(database: Path) -> None:  # noqa: F811
    huzzah_db("upgrade", "0005")
    fill_0004(database)
    huzzah_db("upgrade", "0006")
    assert "charts" in tables(database)  # the whole schema is compared at the head, below
    insert = ("INSERT INTO charts (battle_id, filename, content, added_by, added_at) "
              "VALUES (1, 'pack.json', '{}', 2000, '2026-11-25 00:00:00+00:00')")
    with sqlite3.connect(database) as c:
        c.execute(insert)
    with pytest.raises(sqlite3.IntegrityError), sqlite3.connect(database) as c:
        c.execute(insert)  # a second pack for the same battle
    huzzah_db("downgrade", "0005")
    assert "charts" not in tables(database)
    assert "engagements" in tables(database)
    huzzah_db("upgrade", "head")
    assert schema_diffs(database) == []
