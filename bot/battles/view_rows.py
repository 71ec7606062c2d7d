"""A battle's view read table by table with Core statements built once (SQLite's reads; on
PostgreSQL the view is one statement, ``view_statement``, which a test holds to this).

Loading ORM objects only to copy them into records cost ten times what SQLite took to read
the rows: ``/battle show`` spent three milliseconds of the reading thread on a battle of two
units.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import String, column, text
from sqlalchemy.engine import Connection

from bot.battles.rows import BATTLES, ENGAGEMENTS, EVENTS, GENERALS, UNITS, Record, rows_of

_BATTLE = (f"SELECT {', '.join(c.name for c in BATTLES.c)}, "
           "(SELECT filename FROM charts WHERE charts.battle_id = battles.id) AS charts_file "
           "FROM battles WHERE channel_id = :channel")
_COLUMNS = (*BATTLES.c, column("charts_file", String()))
ACTIVE_BATTLE = text(f"{_BATTLE} AND status = 'active' LIMIT 1").columns(*_COLUMNS)
# The active battle, or else the one that ended last.
LATEST_BATTLE = text(f"{_BATTLE} ORDER BY status = 'active' DESC, id DESC LIMIT 1"
                     ).columns(*_COLUMNS)
UNITS_BY_SIDE = rows_of(UNITS, "battle_id = :battle", " ORDER BY side, id")
GENERALS_OF = rows_of(GENERALS, "battle_id = :battle", " ORDER BY id")
ENGAGEMENTS_OF = rows_of(ENGAGEMENTS, "battle_id = :battle AND status = 'active'",
                         " ORDER BY id")
EVENTS_OF = rows_of(EVENTS, "battle_id = :battle", " ORDER BY seq DESC")
LATEST_EVENTS = rows_of(EVENTS, "battle_id = :battle", " ORDER BY seq DESC LIMIT :limit")


def read_view_rows(conn: Connection, channel_id: int, ended_too: bool, events: int | None
                   ) -> tuple[Record, tuple[list[Record], ...], str | None] | None:
    """The battle, its units, generals, engagements still going on and latest ``events``
    (None: all), and the file name of its chart pack; None when there is no battle."""
    found = conn.execute(LATEST_BATTLE if ended_too else ACTIVE_BATTLE,
                         {"channel": channel_id}).first()
    if found is None:
        return None
    values = dict(found._mapping)
    charts = values.pop("charts_file")
    battle = Record(values)
    where = {"battle": battle.id}
    log: list[Record] = []
    if events != 0:
        latest = conn.execute(EVENTS_OF, where) if events is None else \
            conn.execute(LATEST_EVENTS, {**where, "limit": events})
        log = _records(latest)[::-1]
    return battle, (_records(conn.execute(UNITS_BY_SIDE, where)),
                    _records(conn.execute(GENERALS_OF, where)),
                    _records(conn.execute(ENGAGEMENTS_OF, where)), log), charts


def _records(rows: Any) -> list[Record]:
    return [Record(dict(row._mapping)) for row in rows]
