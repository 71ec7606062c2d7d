"""A battle, its rows and its latest events read in one statement, on PostgreSQL: for the
views (``/battle show`` and the like) and for a move (``bot.battles.moves``).

Each statement is a round trip to PostgreSQL, and a consistent read of several needs a
transaction around them: BEGIN, the battle, units, generals, engagements, events, COMMIT.
One statement sees one snapshot by itself, so the rows come back together, each table as a
JSON array (``json_agg``), in one round trip outside any transaction.

SQLite needs none of this (its reads cost no round trip): ``store._read_view`` reads it there
table by table.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from functools import cache
from typing import Any

from sqlalchemy import JSON, String, Table, column, text
from sqlalchemy.engine import Connection
from sqlalchemy.sql.elements import TextClause

from bot.battles.rows import APPLIED_AND_CHARTS, Record, applied_and_charts
from bot.storage.models import Base, Battle, Event, General, Unit, UTCDateTime
from bot.storage.models import Engagement as EngagementRow

_BATTLES = Battle.__table__

# Each table's rows, in the order the ORM read of the same view gives them.
# (name, rows, their order: ``json_agg`` keeps an order only when told it)
_ROWS = (
    ("units", "SELECT * FROM units WHERE battle_id = b.id", "r.side, r.id"),
    ("generals", "SELECT * FROM generals WHERE battle_id = b.id", "r.id"),
    ("engagements", "SELECT * FROM engagements WHERE battle_id = b.id AND status = 'active'",
     "r.id"),
)
_EVENTS = ("events", "SELECT * FROM events WHERE battle_id = b.id ORDER BY seq DESC "
                     "LIMIT :events", "r.seq")


# What a move reads: the rows in the order ``bot.battles.moves`` reads them table by table.
_MOVE_ROWS = tuple((name, query, "r.id") for name, query, _ in _ROWS)


def _arrays(rows: tuple[tuple[str, str, str], ...]) -> str:
    return "".join(
        f", (SELECT coalesce(json_agg(r ORDER BY {order}), '[]') FROM ({query}) r) "
        f"AS {name}_rows"
        for name, query, order in rows)


@cache
def view_statement(ended_too: bool, with_events: bool) -> TextClause:
    """The statement for one kind of view (an active battle, or the last one ended too)."""
    arrays = _arrays((*_ROWS, *((_EVENTS,) if with_events else ())))
    where = "b.channel_id = :channel" + ("" if ended_too else " AND b.status = 'active'")
    order = " ORDER BY (b.status = 'active') DESC, b.id DESC" if ended_too else ""
    names = ", ".join(f"b.{c.name}" for c in _BATTLES.c)
    columns = [*_BATTLES.c, column("charts_file", String()),
               *(column(f"{name}_rows", JSON()) for name, _, _ in _ROWS)]
    if with_events:
        columns.append(column("events_rows", JSON()))
    return text(
        f"SELECT {names}, c.filename AS charts_file{arrays} FROM battles b "
        f"LEFT JOIN charts c ON c.battle_id = b.id WHERE {where}{order} LIMIT 1"
    ).columns(*columns)


def read_view_at_once(conn: Connection, channel_id: int, ended_too: bool,
                      events: int | None) -> tuple[Record, list[list[Record]], str | None] | None:
    """The battle, then its units, generals, engagements and latest events (empty when
    ``events`` is 0; None: all of them), and the chart pack's file name."""
    statement = view_statement(ended_too, events != 0)
    parameters: dict[str, Any] = {"channel": channel_id}
    if events != 0:
        parameters["events"] = events  # NULL: no limit
    found = conn.execute(statement, parameters).first()
    if found is None:
        return None
    battle = Record({attr.key: found._mapping[attr.columns[0].name]
                     for attr in Battle.__mapper__.column_attrs})
    tables: list[list[Record]] = [
        _records(Unit, found.units_rows), _records(General, found.generals_rows),
        _records(EngagementRow, found.engagements_rows),
        _records(Event, found.events_rows) if events != 0 else [],
    ]
    return battle, tables, found.charts_file


@cache
def move_statement() -> TextClause:
    """A move's read: the channel's active battle with the event the interaction already
    made, if any, and its chart pack's content (as ``rows.BATTLE_IN_CHANNEL`` has them), then
    its units, generals and engagements still going on."""
    names = ", ".join(f"b.{c.name}" for c in _BATTLES.c)
    return text(
        f"SELECT {names}, {applied_and_charts('b')}{_arrays(_MOVE_ROWS)} FROM battles b "
        "WHERE b.channel_id = :channel AND b.status = 'active'"
    ).columns(*_BATTLES.c, *APPLIED_AND_CHARTS,
              *(column(f"{name}_rows", JSON()) for name, _, _ in _MOVE_ROWS))


def read_move_at_once(conn: Connection, channel_id: int, interaction_id: int | None
                      ) -> tuple[Record, list[Record], list[Record], list[Record]] | None:
    """The battle (with ``applied`` and ``charts``), its units, generals and engagements."""
    found = conn.execute(move_statement(), {"channel": channel_id,
                                            "interaction": interaction_id}).first()
    if found is None:
        return None
    battle = Record({**{c.name: found._mapping[c.name] for c in _BATTLES.c},
                     "applied": found.applied, "charts": found.charts})
    return (battle, _records(Unit, found.units_rows), _records(General, found.generals_rows),
            _records(EngagementRow, found.engagements_rows))


def _records(model: type[Base], rows: list[dict[str, Any]]) -> list[Record]:
    readers = _readers(model)
    return [Record({key: read(row[name]) for key, name, read in readers}) for row in rows]


@cache
def _readers(model: type[Base]) -> tuple[tuple[str, str, Callable[[Any], Any]], ...]:
    """Per column: its attribute, its name, and how its JSON value reads back as the
    column's own type (JSON has no timestamps: they come as ISO 8601 text)."""
    table: Table = model.__table__  # type: ignore[assignment]
    return tuple((attr.key, attr.columns[0].name, _reader(attr.columns[0].type))
                 for attr in model.__mapper__.column_attrs
                 if attr.columns[0].table is table)


def _reader(kind: Any) -> Callable[[Any], Any]:
    return _timestamp if isinstance(kind, UTCDateTime) else _same


def _timestamp(value: str | None) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value).astimezone(UTC)


def _same(value: Any) -> Any:
    return value
