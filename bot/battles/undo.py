"""`/gm undo` in one write batch of Core statements.

Under the channel's lock and the database's write lock: find the latest event still undoable
(one step of its partial index), put back each row it changed as ``restoring`` says, and log
the undo with the same snapshots ``BattleTx.record`` would write, so that an undo can itself
be reasoned about, and the log stays gapless.

On PostgreSQL an undo that only updates rows first runs as a move does (``bot.battles.moves``):
two reads outside any transaction, then one statement that takes the channel's advisory lock
and writes only if the battle is still at the event read. Every change to a battle moves its
``last_seq``, so a read overtaken by another process fails that condition, and the undo is
worked out again inside one locked transaction. Three round trips instead of six. Right
after this process's move in the channel, the reads are skipped: the state the move left
holds its rows and its event as stored, and the one statement checks that the battle is
still at that move (one round trip).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Any

from sqlalchemy import (
    Integer,
    bindparam,
    column,
    delete,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.sql.dml import Insert
from sqlalchemy.sql.elements import ColumnElement
from sqlalchemy.sql.selectable import CTE

from bot.battles.errors import AlreadyApplied, BattleError, NoBattle, NotGM, NotTheLast
from bot.battles.moves import BattleRead, Command
from bot.battles.one_statement import RowUpdate, Shape, guarded_write, parameters, shape_of
from bot.battles.rows import (
    ADD_EVENT,
    BATTLES,
    EVENTS,
    ROWS_WITH_IDS,
    SET_ROW,
    change_record,
    row_snapshot,
)
from bot.battles.store import MODELS, NOT_UNDOABLE, restoring
from bot.storage.database import Database, advisory_key
from bot.storage.direct import execute_dml
from bot.storage.models import UNDOABLE, from_snapshot, plain_values, utcnow

_KINDS_KEPT = ", ".join(f"'{kind}'" for kind in NOT_UNDOABLE)
# The battle in the channel (with the event the interaction already made, if any) and the
# event undo would take back, in one statement. The index's own condition is repeated word
# for word, so that the planner uses it (see ``undoable``).
_EVENT_COLUMNS = ("id", "seq", "kind", "summary", "changes")
BATTLE_AND_LAST = text(
    f"SELECT {', '.join(f'b.{c.name}' for c in BATTLES.c)}, "
    "(SELECT seq FROM events WHERE interaction_id = :interaction) AS applied, "
    + ", ".join(f"e.{name} AS event_{name}" for name in _EVENT_COLUMNS) + " "
    "FROM battles b LEFT JOIN events e ON e.id = ("
    "SELECT id FROM events "
    f"WHERE battle_id = b.id AND {UNDOABLE} AND kind NOT IN ({_KINDS_KEPT}) "
    "ORDER BY seq DESC LIMIT 1) "
    "WHERE b.channel_id = :channel AND b.status = 'active'"
).columns(*BATTLES.c, column("applied", Integer),
          *(column(f"event_{name}", EVENTS.c[name].type) for name in _EVENT_COLUMNS))


class _Overtaken(Exception):
    """The optimistic undo could not be written as read: work it out again under the lock."""


@dataclass(frozen=True)
class TurnAt:
    """A battle's turn and phase, as ``turn_line`` words them."""

    turn: int
    phase: str | None


@dataclass(frozen=True)
class Undone:
    seq: int  # the event taken back
    kind: str
    summary: str
    undo_seq: int  # the undo's own event
    # Where the undo put the battle's turn back to, when it moved it: the undone event's
    # summary then says where that event had moved it, which is no longer so.
    back_to: TurnAt | None = None


@dataclass(frozen=True)
class _Pending:
    """An undo worked out on PostgreSQL outside the lock: the one statement that writes it
    (taking the channel's lock itself), to be run straight on the driver."""

    statement: Insert
    values: dict[str, Any]
    undone: Undone


async def undo_last(db: Database, command: Command,
                    expected: tuple[int, int] | None = None,
                    kept: BattleRead | None = None) -> Undone:
    """Undo the battle's last undoable event; with ``expected`` (battle id, event number),
    only if that is still the one (a button under an older result). ``kept`` is the state
    this process's last move in the channel left, if it knows it."""
    async with db.channel_lock(command.channel_id):
        if db.is_postgresql:
            if kept is not None and kept.last_event is not None:
                try:
                    return await _undo_kept(db, command, expected, kept)
                except (_Overtaken, IntegrityError):
                    pass  # moved since, or delivered twice: read, and find out which
            try:
                return await _undo_at_once(db, command, expected)
            except _Overtaken:
                pass  # moved by another process since the read, or a row to put back is gone
        try:
            undone = await db.batch(partial(_undo, command, expected), write=True,
                                    channel_id=command.channel_id, quick=True)
            assert isinstance(undone, Undone)
            return undone
        except _Overtaken:  # only a writer that skips the channel lock could cause this
            raise BattleError("The battle changed while I undid its last event; nothing "
                              "was undone.", hint="Try the command again.") from None


async def _undo_at_once(db: Database, command: Command,
                        expected: tuple[int, int] | None) -> Undone:
    """PostgreSQL: read outside any transaction, then write in one statement that takes the
    channel's lock and writes only if the battle is still at the event read; else raise
    ``_Overtaken`` having written nothing."""
    pending = await db.batch(partial(_undo, command, expected,
                                     lock_key=advisory_key(command.channel_id)),
                             one_statement=True)
    assert isinstance(pending, _Pending)
    if await db.first_row(pending.statement, pending.values) is None:
        raise _Overtaken
    return pending.undone


async def _undo_kept(db: Database, command: Command, expected: tuple[int, int] | None,
                     kept: BattleRead) -> Undone:
    """PostgreSQL, right after this process's move in the channel: the undo of that move,
    worked out from the state the move left (its rows and its event, as stored), in the one
    statement that takes the channel's lock and writes only if the battle is still at that
    move; else raise ``_Overtaken`` having written nothing. An undo is one round trip, as a
    move is, instead of three."""
    try:
        pending = _undo_found(command, expected, _KeptFound.of(kept), _kept_rows(kept), None,
                              lock_key=advisory_key(command.channel_id))
    except BattleError:
        # A refusal (not the GM, not the last event) is given from what is stored, not
        # from a state another process may have overtaken.
        raise _Overtaken from None
    assert isinstance(pending, _Pending)
    if await db.first_row(pending.statement, pending.values) is None:
        raise _Overtaken
    return pending.undone


@dataclass(frozen=True)
class _KeptFound:
    """What ``BATTLE_AND_LAST`` would read, as a kept state holds it."""

    id: int
    created_by: int
    gm_role_id: int | None
    last_seq: int
    event_id: int
    event_seq: int
    event_kind: str
    event_summary: str
    event_changes: list[dict[str, Any]]
    applied: None = None

    @classmethod
    def of(cls, kept: BattleRead) -> _KeptFound:
        battle, event = kept.battle, kept.last_event
        assert event is not None
        return cls(battle.id, battle.created_by, battle.gm_role_id, battle.last_seq,
                   event.id, event.seq, event.kind, event.summary, event.changes)


def _kept_rows(kept: BattleRead) -> dict[tuple[str, int], Any]:
    """The rows a kept state holds, by table and id, as ``_rows_of`` gives them."""
    rows: dict[tuple[str, int], Any] = {("battles", kept.battle.id): kept.battle}
    for table, held in (("units", kept.units), ("generals", kept.generals),
                        ("engagements", kept.engagements)):
        rows.update(((table, row.id), row) for row in held)
    return rows


def _undo(command: Command, expected: tuple[int, int] | None, conn: Connection,
          lock_key: int | None = None) -> Undone | _Pending:
    """With ``lock_key`` (PostgreSQL, outside a transaction): read, and return the one
    statement that writes the undo taking the lock itself (or raise ``_Overtaken``)."""
    found = conn.execute(BATTLE_AND_LAST, {"channel": command.channel_id,
                                           "interaction": command.interaction_id}).first()
    return _undo_found(command, expected, found, None, conn, lock_key=lock_key)


def _undo_found(command: Command, expected: tuple[int, int] | None, found: Any,
                known_rows: dict[tuple[str, int], Any] | None, conn: Connection | None,
                lock_key: int | None = None) -> Undone | _Pending:
    """The undo of what ``found`` holds (the battle and its last undoable event), on the
    rows as they are now: ``known_rows`` when a kept state holds them (then only an undo
    that updates rows is worked out, ``_Overtaken`` otherwise), else read on ``conn``."""
    if found is None:
        raise NoBattle()
    if found.applied is not None:
        raise AlreadyApplied(found.applied)
    if not command.actor.is_gm(found.created_by, found.gm_role_id):
        raise NotGM("undo")
    if found.event_id is None:
        raise BattleError("There is nothing to undo in this battle.")
    if expected is not None and expected != (found.id, found.event_seq):
        raise NotTheLast(expected[1], found.event_seq if expected[0] == found.id else None)
    reverted = list(reversed(found.event_changes))
    if known_rows is None:
        assert conn is not None
        rows = _rows_of(conn, reverted)
    else:
        rows = {(c["table"], c["id"]): known_rows[(c["table"], c["id"])]
                for c in reverted if (c["table"], c["id"]) in known_rows}
    if lock_key is not None and not _only_updates(reverted, rows):
        raise _Overtaken  # an insert or a delete is a statement of its own: under the lock
    updates: list[RowUpdate] = []
    changes = [_revert(conn, change, rows, updates) for change in reverted]
    seq = found.last_seq + 1
    event = dict(
        battle_id=found.id, seq=seq, interaction_id=command.interaction_id,
        user_id=command.actor.user_id, user_name=command.actor.name[:100],
        command=command.text[:200], kind="undo",
        summary=f"Undid #{found.event_seq}: {found.event_summary}"[:500], request=None,
        resolution=None,
        changes=[c for c in changes if c is not None and c["before"] != c["after"]],
        reverts=found.event_seq, created_at=utcnow())
    if conn is None or conn.dialect.name == "postgresql":
        # One round trip for the rows put back, the battle moved on, and both events. A
        # statement may change a row once only: the battle's own row put back (its dice
        # queue, its phase) moves on in the same update.
        battle = {"last_seq": seq}
        for table, row_id, values in [u for u in updates if u[0] is BATTLES]:
            if row_id == found.id:
                battle = {**values, **battle}
                updates.remove((table, row_id, values))
        statement, parameters = _at_once(found.id, found.last_seq, found.event_id, battle,
                                         updates, event)
        undone = Undone(found.event_seq, found.event_kind, found.event_summary, seq,
                        _turn_put_back(event["changes"]))
        if lock_key is not None:
            return _Pending(statement, {**parameters, "lock_key": lock_key}, undone)
        assert conn is not None
        # Under the lock already, the lock is taken again: it stacks.
        parameters["lock_key"] = advisory_key(command.channel_id)
        if conn.execute(statement, parameters).first() is None:
            raise _Overtaken
        return undone
    for table, row_id, values in updates:
            execute_dml(conn, SET_ROW[table.name], {"row_id": row_id, **values})
    execute_dml(conn, SET_ROW["battles"], {"row_id": found.id, "last_seq": seq})
    execute_dml(conn, ADD_EVENT, event)
    execute_dml(conn, SET_ROW["events"], {"row_id": found.event_id, "undone_by": seq})
    return Undone(found.event_seq, found.event_kind, found.event_summary, seq,
                  _turn_put_back(event["changes"]))


def _turn_put_back(changes: list[dict[str, Any]]) -> TurnAt | None:
    """The turn and phase the undo's changes put the battle back to, if they moved them."""
    for change in changes:
        if change["table"] != "battles" or not change["before"] or not change["after"]:
            continue
        before, after = change["before"], change["after"]
        if (before.get("turn"), before.get("phase")) != (after.get("turn"), after.get("phase")):
            return TurnAt(after["turn"], after.get("phase"))
    return None


def _only_updates(changes: list[dict[str, Any]], rows: dict[tuple[str, int], Any]) -> bool:
    """Whether undoing the changes only updates rows that are there (nothing to insert or
    delete), so that the rows stay as read throughout."""
    for change in changes:
        step = restoring(change, (change["table"], change["id"]) in rows)
        if step is not None and step[0] != "update":
            return False
    return True


def _rows_of(conn: Connection, changes: list[dict[str, Any]]) -> dict[tuple[str, int], Any]:
    """The rows the changes name, as they are now: one statement per table."""
    wanted: dict[str, set[int]] = {}
    for change in changes:
        wanted.setdefault(change["table"], set()).add(change["id"])
    rows = {}
    for name, ids in wanted.items():
        for row in conn.execute(ROWS_WITH_IDS[name], {"ids": sorted(ids)}):
            rows[(name, row.id)] = row
    return rows


def _revert(conn: Connection | None, change: dict[str, Any], rows: dict[tuple[str, int], Any],
            updates: list[RowUpdate]) -> dict[str, Any] | None:
    """Put one row back as the change found it (an update is left in ``updates``, to be
    written with the rest); the change this makes, for the log."""
    model = MODELS[change["table"]]
    table = model.__table__
    row_id = change["id"]
    row = rows.get((change["table"], row_id))
    step = restoring(change, row is not None)
    if step is None:
        return None
    action, values = step
    if action in ("delete", "insert"):
        assert conn is not None  # an undo worked out from a kept state only updates rows
    if action == "delete":
        conn.execute(delete(table).where(table.c.id == row_id))
        rows.pop((change["table"], row_id), None)
        return change_record(table.name, row_id, row_snapshot(row, table), None)
    if action == "insert":
        conn.execute(insert(table).values({**from_snapshot(model, values), "id": row_id}))
        back = conn.execute(select(table).where(table.c.id == row_id)).one()
        rows[(change["table"], row_id)] = back
        return change_record(table.name, row_id, None, row_snapshot(back, table))
    before = row_snapshot(row, table)
    if values:
        updates.append((table, row_id, from_snapshot(model, values)))
    return change_record(table.name, row_id, before, {**before, **plain_values(values)})


def _at_once(battle_id: int, read_seq: int, undone_id: int, battle: dict[str, Any],
             updates: list[RowUpdate], event: dict[str, Any]) -> tuple[Insert, dict[str, Any]]:
    """PostgreSQL: the undo's writes as one statement, and its parameters."""
    statement = _at_once_statement(tuple(battle), shape_of(updates), tuple(event))
    # Not ``seq``: a bound name that is a column's name would set that column.
    return statement, parameters(battle, updates, event, battle=battle_id, read_seq=read_seq,
                                 undone=undone_id, undo_seq=event["seq"])


@lru_cache(maxsize=128)
def _at_once_statement(battle_keys: tuple[str, ...], rows: Shape,
                       event_keys: tuple[str, ...]) -> Insert:
    """One statement per shape of undo (``guarded_write``): the rows put back, the undone
    event marked and the undo logged, on condition that the battle is still at the event
    read."""

    def marked(if_moved: ColumnElement[bool]) -> list[CTE]:
        return [update(EVENTS).where(EVENTS.c.id == bindparam("undone"), if_moved)
                .values(undone_by=bindparam("undo_seq")).cte("marked")]

    return guarded_write(battle_keys, rows, event_keys, "restored", also=marked)
