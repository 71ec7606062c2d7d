"""Revision 0011: the message holding each waiting question's buttons, and back."""

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


def test_0011_keeps_the_message_of_a_question_and_downgrading_forgets_it(
        database: Path) -> None:  # noqa: F811
    huzzah_db("upgrade", "0010")
    fill_0001(database)
    assert "question_messages" not in tables(database)
    huzzah_db("upgrade", "0011")
    # Questions asked before have no message kept: `/answer` replies with their result.
    assert query(database, "SELECT question FROM question_messages") == []
    with sqlite3.connect(database) as c:
        c.execute("INSERT INTO question_messages (question, channel_id, message_id, "
                  "created_at) VALUES ('b1:4', 100, 123456789012345678, "
                  "'2026-11-26 20:00:00')")
    assert query(database, "SELECT message_id FROM question_messages") == [
        (123456789012345678,)]
    huzzah_db("downgrade", "0010")
    assert "question_messages" not in tables(database)
    assert query(database, "SELECT name FROM battles") != []  # the battles stay
    huzzah_db("upgrade", "head")
    assert query(database, "SELECT question FROM question_messages") == []
    assert schema_diffs(database) == []
