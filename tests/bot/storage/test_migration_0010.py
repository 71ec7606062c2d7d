"""Revision 0010: the players who turned their pings off (``/notify off``), and back."""

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
from .test_migration_0006 import tables


def test_0010_keeps_who_turned_pings_off_and_downgrading_forgets_it(
        database: Path) -> None:  # noqa: F811
    huzzah_db("upgrade", "0009")
    fill_0001(database)
    assert "mention_opt_outs" not in tables(database)
    huzzah_db("upgrade", "0010")
    # Nobody has turned them off: everyone is pinged, as before.
    assert query(database, "SELECT user_id FROM mention_opt_outs") == []
    with sqlite3.connect(database) as c:
        c.execute("INSERT INTO mention_opt_outs (user_id, created_at) "
                  "VALUES (123456789012345678, '2026-11-26 20:00:00')")
    huzzah_db("downgrade", "0009")
    assert "mention_opt_outs" not in tables(database)
    assert query(database, "SELECT name FROM battles") != []  # the battles stay
    huzzah_db("upgrade", "head")
    assert query(database, "SELECT user_id FROM mention_opt_outs") == []
    assert schema_diffs(database) == []
