"""The pieces of a battle write made as one PostgreSQL statement (a move, an undo): rows
updated in ``WITH`` parts, and the parameters that fill them.

A statement is built once per shape of write (which rows, which columns) and cached by its
caller: building one costs far more than running it. Every value is a parameter named by
where it goes (``battle_…``, ``row_0_…``, ``event_…``), so two writes of one shape share
their statement.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sqlalchemy import Table, bindparam, exists, func, insert, select, update
from sqlalchemy.sql.dml import Insert
from sqlalchemy.sql.elements import BindParameter, ColumnElement
from sqlalchemy.sql.selectable import CTE

from bot.battles.rows import BATTLES, ENGAGEMENTS, EVENTS, GENERALS, UNITS
from bot.storage.models import Charts

TABLES = {table.name: table for table in (BATTLES, UNITS, GENERALS, ENGAGEMENTS, EVENTS,
                                          Charts.__table__)}

RowUpdate = tuple[Table, int, dict[str, Any]]
"""A row to update: its table, its id, and the new values of the columns that change."""
Shape = tuple[tuple[str, tuple[str, ...]], ...]


def bound(table: Table, key: str, prefix: str) -> BindParameter[Any]:
    """A parameter for a column's value, typed as the column (JSON, timestamps)."""
    return bindparam(prefix + key, type_=table.c[key].type)


def shape_of(updates: Sequence[RowUpdate]) -> Shape:
    """Which rows' columns a write updates: the part of its shape the rows give."""
    return tuple((table.name, tuple(values)) for table, _, values in updates)


def row_updates(shape: Shape, prefix: str, *conditions: ColumnElement[bool]) -> list[CTE]:
    """One ``WITH`` part per row of the shape, each on ``conditions`` as well as its id."""
    parts = []
    for index, (name, keys) in enumerate(shape):
        table = TABLES[name]
        parts.append(update(table)
                     .where(table.c.id == bindparam(f"row_{index}"), *conditions)
                     .values({key: bound(table, key, f"row_{index}_") for key in keys})
                     .cte(f"{prefix}_{index}"))
    return parts


def parameters(battle: Mapping[str, Any], updates: Sequence[RowUpdate],
               event: Mapping[str, Any], /, **others: Any) -> dict[str, Any]:
    """The values of a write of this shape, by the names its statement gives them (and the
    ``others`` it names itself)."""
    values = {**others,
              **{f"battle_{key}": value for key, value in battle.items()},
              **{f"event_{key}": value for key, value in event.items()}}
    for index, (_, row_id, new) in enumerate(updates):
        values[f"row_{index}"] = row_id
        values.update((f"row_{index}_{key}", value) for key, value in new.items())
    return values


def guarded_write(battle_keys: tuple[str, ...], rows: Shape, event_keys: tuple[str, ...],
                  rows_prefix: str, *conditions: ColumnElement[bool],
                  also: Callable[[ColumnElement[bool]], Sequence[CTE]] = lambda _: ()
                  ) -> Insert:
    """A battle write as one statement: the channel's advisory lock (``lock_key``), the
    battle moved on condition that it is still at the event read (``read_seq``, and any
    ``conditions``), then the parts ``also`` makes, the rows and the event, each only if
    the battle moved. It returns the event's number and id only if it stored the write.

    The battle's row is where a concurrent writer shows: one that committed after this
    statement began is seen by the update's recheck of its condition, so the condition fails
    rather than overwriting it. PostgreSQL runs every part of a WITH once.
    """
    locked = select(func.pg_advisory_xact_lock(bindparam("lock_key"))).cte("locked")
    moved = (update(BATTLES)
             .where(BATTLES.c.id == bindparam("battle"),
                    BATTLES.c.last_seq == bindparam("read_seq"),
                    *conditions, exists(locked.select()))
             .values({key: bound(BATTLES, key, "battle_") for key in battle_keys})
             .returning(BATTLES.c.id).cte("moved"))
    if_moved = exists(moved.select())
    logged = select(*(bound(EVENTS, key, "event_") for key in event_keys)).where(if_moved)
    return (insert(EVENTS).from_select(list(event_keys), logged)
            .returning(EVENTS.c.seq, EVENTS.c.id)
            .add_cte(locked, moved, *also(if_moved), *row_updates(rows, rows_prefix, if_moved)))
