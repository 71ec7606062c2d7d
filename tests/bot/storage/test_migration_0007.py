"""Revision 0007: the keys of names with a curly apostrophe read it as ', and back."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path

from bot.client import create_bot
from bot.offline import OfflineDiscord
from bot.storage import Database
from tests.bot.conftest import CHANNEL, GM_USER, GUILD, reply

from .test_migration_0002 import database, huzzah_db, query, schema_diffs  # noqa: F401

UNITS = [  # (id, name, key as it was stored, commander)
    (1, "Barrell's", "barrell's", None),
    (2, "Barrell’s", "barrell’s", "Lord George’s"),  # the same name but for its apostrophe
    (3, "Lochiel’s Camerons", "lochiel’s camerons", None),
    (4, "Wolfe's", "wolfe's", None),
]
# A snapshot of unit 2 as the log keeps it, to put back on an undo.
SNAPSHOT = {"id": 2, "battle_id": 1, "name": "Barrell’s", "name_key": "barrell’s",
            "side": "Government", "strength": 4, "status": "active",
            "attributes": {"type": "highland"}, "commander": "Lord George’s"}


def fill_0006(path: Path) -> None:
    with sqlite3.connect(path) as c:
        c.execute("INSERT INTO battles (id, channel_id, ruleset, name, status, created_by, "
                  "settings, turn, last_seq, dice_queue, created_at) VALUES (1, 100, "
                  "'tricorne', 'Culloden', 'active', 2000, '{}', 1, 1, '[]', "
                  "'2026-01-01 00:00:00+00:00')")
        for unit_id, name, key, commander in UNITS:
            c.execute("INSERT INTO units (id, battle_id, name, name_key, side, strength, "
                      "status, attributes, commander) VALUES (?, 1, ?, ?, 'x', 4, 'active', "
                      "'{}', ?)", (unit_id, name, key, commander))
        c.execute("INSERT INTO generals (battle_id, name, name_key, side, unit_name, wounds, "
                  "status) VALUES (1, 'Lord George’s', 'lord george’s', 'x', 'barrell’s', 0, "
                  "'active')")
        c.execute("INSERT INTO engagements (battle_id, kind, sides, state, status, created_at) "
                  "VALUES (1, 'melee', ?, '{}', 'active', '2026-01-01 00:00:00+00:00')",
                  (json.dumps([["Barrell’s", "Barrell's"], ["Lochiel’s Camerons"]]),))
        c.execute("INSERT INTO events (battle_id, seq, user_id, user_name, command, kind, "
                  "summary, changes, created_at) VALUES (1, 1, 2000, 'GM', '/unit add', "
                  "'unit_add', 'Added Barrell’s', ?, '2026-01-01 00:00:00+00:00')",
                  (json.dumps([{"table": "units", "id": 2, "before": None,
                                "after": SNAPSHOT}]),))


def test_0007_reads_curly_apostrophes_as_straight_ones_and_back(database: Path) -> None:  # noqa: F811
    huzzah_db("upgrade", "0006")
    fill_0006(database)
    huzzah_db("upgrade", "0007")
    assert query(database, "SELECT name, name_key, commander FROM units ORDER BY id") == [
        ("Barrell's", "barrell's", None),
        # Its name without the curly apostrophe was taken: it is numbered.
        ("Barrell’s (2)", "barrell's (2)", "Lord George’s"),
        ("Lochiel’s Camerons", "lochiel's camerons", None),
        ("Wolfe's", "wolfe's", None),
    ]
    assert query(database, "SELECT name, name_key, unit_name FROM generals") == [
        ("Lord George’s", "lord george's", "Barrell’s (2)")]
    (sides,) = query(database, "SELECT sides FROM engagements")[0]
    assert json.loads(sides) == [["Barrell’s (2)", "Barrell's"], ["Lochiel’s Camerons"]]
    (changes,) = query(database, "SELECT changes FROM events")[0]
    after = json.loads(changes)[0]["after"]
    assert (after["name"], after["name_key"]) == ("Barrell’s (2)", "barrell's (2)")
    assert after["commander"] == "Lord George’s"

    huzzah_db("upgrade", "head")
    assert schema_diffs(database) == []

    huzzah_db("downgrade", "0006")
    assert query(database, "SELECT name, name_key FROM units ORDER BY id") == [
        ("Barrell's", "barrell's"), ("Barrell’s (2)", "barrell’s (2)"),
        ("Lochiel’s Camerons", "lochiel’s camerons"), ("Wolfe's", "wolfe's")]
    assert query(database, "SELECT name_key FROM generals") == [("lord george’s",)]


async def test_an_undo_logged_before_puts_back_a_key_lookups_find(database: Path) -> None:  # noqa: F811
    """A unit removed before the keys changed comes back on an undo with today's key."""
    await asyncio.to_thread(huzzah_db, "upgrade", "0006")  # it runs its own event loop
    with sqlite3.connect(database) as c:
        c.execute("INSERT INTO battles (id, channel_id, guild_id, ruleset, name, status, "
                  "created_by, settings, turn, last_seq, dice_queue, created_at) VALUES (1, "
                  f"{CHANNEL}, {GUILD}, 'tricorne', 'Culloden', 'active', {GM_USER}, '{{}}', "
                  "1, 1, '[]', '2026-01-01 00:00:00+00:00')")
        removed = {**SNAPSHOT, "name": "Lochiel’s Camerons", "name_key": "lochiel’s camerons"}
        c.execute("INSERT INTO events (battle_id, seq, user_id, user_name, command, kind, "
                  "summary, changes, created_at) VALUES (1, 1, 2000, 'GM', '/unit remove', "
                  "'unit_remove', 'Removed Lochiel’s Camerons', ?, "
                  "'2026-01-01 00:00:00+00:00')",
                  (json.dumps([{"table": "units", "id": 2, "before": removed,
                                "after": None}]),))
    await asyncio.to_thread(huzzah_db, "upgrade", "head")
    async with Database(f"sqlite+aiosqlite:///{database}") as db, \
            OfflineDiscord(create_bot(db)) as session:
        undone = await reply(session, "/gm undo", user_id=GM_USER)
        assert undone.content.startswith("↩️ Undid #1"), undone.content
        edited = await reply(session, '/unit edit unit:"Lochiel\'s Camerons" strength:3',
                             user_id=GM_USER)
        assert edited.content == "✏️ Lochiel’s Camerons loses 1 block (now 3) (event #3)."
    assert query(database, "SELECT name, name_key FROM units") == [
        ("Lochiel’s Camerons", "lochiel's camerons")]
