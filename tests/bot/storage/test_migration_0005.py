"""Revision 0005: Le Baton's melee and firefight markers become engagements, and back."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from .test_migration_0002 import columns, database, huzzah_db, query, schema_diffs  # noqa: F401

UNITS = [  # a melee and a firefight, as markers on both units of each pair
    ("28e Ligne", {"nation": "french", "in_melee_with": "buffs", "fought": True}),
    ("Buffs", {"nation": "british", "in_melee_with": "28e Ligne"}),
    ("52nd", {"nation": "british", "firefight_with": "4e Léger"}),
    ("4e Léger", {"nation": "french", "firefight_with": "52nd"}),
    ("Lanciers", {"nation": "french"}),
]


def fill_0004(path: Path) -> None:
    with sqlite3.connect(path) as c:
        c.execute("INSERT INTO battles (id, channel_id, ruleset, name, status, created_by, "
                  "settings, turn, last_seq, dice_queue, created_at) VALUES (1, 100, "
                  "'le-baton', 'Albuera', 'active', 2000, '{}', 1, 9, '[]', "
                  "'2026-01-01 00:00:00+00:00')")
        for name, attributes in UNITS:
            c.execute("INSERT INTO units (battle_id, name, name_key, side, strength, status, "
                      "attributes) VALUES (1, ?, ?, 'x', 8, 'active', ?)",
                      (name, name.casefold(), json.dumps(attributes)))


def attributes(path: Path) -> dict[str, dict]:
    return {name: json.loads(raw) for name, raw in
            query(path, "SELECT name, attributes FROM units ORDER BY id")}


def test_0005_turns_markers_into_engagements_and_back(database: Path) -> None:  # noqa: F811
    huzzah_db("upgrade", "0004")
    fill_0004(database)
    huzzah_db("upgrade", "0005")
    rows = query(database, "SELECT battle_id, kind, sides, status FROM engagements ORDER BY id")
    assert [(b, k, json.loads(s), st) for b, k, s, st in rows] == [
        (1, "melee", [["28e Ligne"], ["Buffs"]], "active"),  # the roster's spelling
        (1, "firefight", [["52nd"], ["4e Léger"]], "active"),
    ]
    after = attributes(database)
    assert not any("in_melee_with" in a or "firefight_with" in a for a in after.values())
    assert after["28e Ligne"] == {"nation": "french", "fought": True}

    huzzah_db("upgrade", "head")
    assert schema_diffs(database) == []

    huzzah_db("downgrade", "0004")
    assert "engagements" not in {r[0] for r in query(
        database, "SELECT name FROM sqlite_master WHERE type = 'table'")}
    back = attributes(database)
    assert back["28e Ligne"]["in_melee_with"] == "Buffs"
    assert back["Buffs"]["in_melee_with"] == "28e Ligne"
    assert back["4e Léger"]["firefight_with"] == "52nd"
    assert "in_melee_with" not in back["Lanciers"]
