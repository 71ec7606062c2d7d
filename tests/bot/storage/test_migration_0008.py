"""Revision 0008: a general's value (a leader's dice modifier, where the rule set counts one),
and back."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from .test_migration_0002 import (  # noqa: F401
    columns,
    database,
    fill_0001,
    huzzah_db,
    query,
    schema_diffs,
)


def test_0008_gives_generals_a_value_and_takes_it_away(database: Path) -> None:  # noqa: F811
    huzzah_db("upgrade", "0007")
    fill_0001(database)
    assert "value" not in columns(database, "generals")
    huzzah_db("upgrade", "0008")
    assert "value" in columns(database, "generals")
    # A general from before has no value: none is assumed.
    assert query(database, "SELECT name, value FROM generals") == [("Wolfe", None)]
    with sqlite3.connect(database) as c:
        c.execute("UPDATE generals SET value = 2 WHERE name = 'Wolfe'")
    huzzah_db("downgrade", "0007")
    assert "value" not in columns(database, "generals")
    assert query(database, "SELECT name, wounds, status FROM generals") == [
        ("Wolfe", 0, "active")]
    huzzah_db("upgrade", "head")
    assert query(database, "SELECT name, value FROM generals") == [("Wolfe", None)]
    assert schema_diffs(database) == []
