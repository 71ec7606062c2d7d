"""Battle rows read and written with Core statements built once: shared by the commands
that skip the ORM on their hot path (moves, undo)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import JSON, Integer, Table, bindparam, column, insert, select, text, update
from sqlalchemy.engine import Row
from sqlalchemy.sql.selectable import TextualSelect

from bot.battles.store import MODELS, NOT_RESTORED
from bot.storage.models import Battle, Engagement, Event, General, Unit, plain_values

BATTLES, UNITS, GENERALS, EVENTS = (Battle.__table__, Unit.__table__, General.__table__,
                                    Event.__table__)
ENGAGEMENTS = Engagement.__table__


def rows_of(table: Table, where: str, then: str = "") -> TextualSelect:
    """A typed select of every column, written once: building and compiling a Core select
    costs several times what SQLite takes to run it, and this runs on every move."""
    names = ", ".join(c.name for c in table.c)
    return text(f"SELECT {names} FROM {table.name} WHERE {where}{then}").columns(*table.c)


def applied_and_charts(battles: str) -> str:
    """A move's read of the battle (``battles`` names it in the query) also takes the event
    the interaction already made, if any (a duplicate delivery, refused), and the content of
    the chart pack attached to the battle, if any: these columns."""
    return ("(SELECT seq FROM events WHERE interaction_id = :interaction) AS applied, "
            f"(SELECT content FROM charts WHERE charts.battle_id = {battles}.id) AS charts")


APPLIED_AND_CHARTS = (column("applied", Integer()), column("charts", JSON()))
BATTLE_IN_CHANNEL = text(
    f"SELECT {', '.join(c.name for c in BATTLES.c)}, {applied_and_charts('battles')} "
    "FROM battles WHERE channel_id = :channel AND status = 'active'"
).columns(*BATTLES.c, *APPLIED_AND_CHARTS)
ADD_EVENT = insert(EVENTS)
# One row of any battle table changed by id: the columns set are those given beside
# ``row_id`` (``bot.storage.direct.execute_dml`` compiles each set once).
SET_ROW = {model.__tablename__: update(model.__table__)
           .where(model.__table__.c.id == bindparam("row_id")) for model in MODELS.values()}
SET_ROW["events"] = update(EVENTS).where(EVENTS.c.id == bindparam("row_id"))
# The rows of one table with the ids given.
ROWS_WITH_IDS = {model.__tablename__: select(model.__table__)
                 .where(model.__table__.c.id.in_(bindparam("ids", expanding=True)))
                 for model in MODELS.values()}


class Record:
    """A row's columns kept past its transaction: read as a ``Row`` is (attributes and
    ``_mapping``), and never changed, only copied with new values.

    The columns are the instance's own attributes, so reading one is a plain lookup: a
    ``__getattr__`` behind the failed ordinary lookup cost the interpreter a formatted
    ``AttributeError`` on every read, dozens of them in each move.

    A row a move wrote keeps the snapshot the move logged as its state after (``written``):
    it is the state before of the next move that changes it, which then need not make it
    again. Snapshots are shared, so nothing may change one once it is made.
    """

    __slots__ = ("__dict__", "written")

    def __init__(self, mapping: Mapping[str, Any]) -> None:
        self.__dict__.update(mapping)
        self.written: dict[str, Any] | None = None

    @classmethod
    def of(cls, row: Row[Any] | Record, values: Mapping[str, Any],
           written: dict[str, Any] | None = None) -> Record:
        """``row`` with ``values`` in place of its own; ``written``, when given, is its
        snapshot (``row_snapshot`` of the record made)."""
        record = cls.__new__(cls)
        record.__dict__ = {**row._mapping, **values}
        record.written = written
        return record

    @property
    def _mapping(self) -> Mapping[str, Any]:
        return self.__dict__

    def snapshot(self) -> dict[str, Any]:
        """Every column as JSON-safe data, as ``Base.snapshot`` gives a row's."""
        return plain_values(dict(self._mapping))


def row_snapshot(row: Row[Any] | Record, table: Table) -> dict[str, Any]:
    """The row's columns as ``Base.snapshot`` gives them (nothing else the read added)."""
    if type(row) is Record and row.written is not None:
        return row.written
    values = plain_values({c.name: row._mapping[c.name] for c in table.c})
    for key in NOT_RESTORED:
        values.pop(key, None)
    return values


def change_record(table: str, row_id: int, before: dict | None,
                  after: dict | None) -> dict[str, Any]:
    """One entry of an event's ``changes``: a row before and after (None: absent)."""
    return {"table": table, "id": row_id, "before": before, "after": after}
