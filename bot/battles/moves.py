"""A procedure played as a move in a channel's battle: the hot path of the bot.

Three steps, with the channel's lock held throughout (commands of one channel in one process
run one after another):

1. read the battle, its units and generals, and whether this interaction was already applied
   (a battle that has ended has nothing to apply it to), in one round trip that takes no
   write lock; or, when this process wrote the channel's last move, take the state that
   write left (``ChannelStates``) and skip the read;
2. play the procedure on that roster (rules, effects, wording): pure Python, no lock;
3. write the changed rows and the event in one round trip, on condition that the battle is
   still at the event it was read at (its ``last_seq``). Another process that moved the
   battle in between makes the condition fail: the move is then read, worked out and
   written again inside one locked transaction, which nothing can overtake.

The log stays gapless and every change is snapshotted as ``BattleTx.record`` does, so undo
is exact whichever path wrote the event. A kept state is only ever a guess that the write's
condition checks: every change to a battle, by any command in any process, moves its
``last_seq``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache, partial
from typing import Any

from sqlalchemy import Table, bindparam, insert, text, update
from sqlalchemy.engine import Connection, Row
from sqlalchemy.exc import IntegrityError
from sqlalchemy.sql.dml import Insert

from bot.battles.actor import Actor
from bot.battles.decisions import refuse_while_waiting
from bot.battles.errors import AlreadyApplied, BattleError
from bot.battles.one_statement import RowUpdate, Shape, guarded_write, parameters, shape_of
from bot.battles.play import (
    BattleFacts,
    Move,
    Played,
    battle_facts,
    check_ruleset,
    plan_move,
)
from bot.battles.rows import (
    ADD_EVENT,
    BATTLE_IN_CHANNEL,
    BATTLES,
    ENGAGEMENTS,
    GENERALS,
    SET_ROW,
    UNITS,
    Record,
    change_record,
    row_snapshot,
    rows_of,
)
from bot.battles.states import ChannelStates
from bot.battles.store import (
    engagement_columns,
    general_columns,
    roster_engagement,
    roster_general,
    roster_unit,
    unit_columns,
)
from bot.battles.view_statement import read_move_at_once
from bot.storage.database import Database, advisory_key
from bot.storage.direct import execute_dml
from bot.storage.models import plain_values, utcnow
from rules.core.engagements import Engagement
from rules.core.errors import RulesError
from rules.core.roster import Roster, name_key

UNITS_OF = rows_of(UNITS, "battle_id = :battle", " ORDER BY id")
GENERALS_OF = rows_of(GENERALS, "battle_id = :battle", " ORDER BY id")
ENGAGEMENTS_OF = rows_of(ENGAGEMENTS, "battle_id = :battle AND status = 'active'", " ORDER BY id")
APPLIED = text("SELECT seq FROM events WHERE interaction_id = :interaction")
# A battle waiting for a player's answer takes no move: the condition refuses it as it
# refuses a battle moved by another process, and the locked retry says why.
MOVE_BATTLE = (update(BATTLES)
               .where(BATTLES.c.id == bindparam("row_id"),
                      BATTLES.c.last_seq == bindparam("read_seq"),
                      BATTLES.c.pending.is_(None)))
ADD_ENGAGEMENT = insert(ENGAGEMENTS)


Columns = Row[Any] | Record
"""A row as read, or as the last write of this process left it."""


@dataclass(frozen=True)
class LoggedEvent:
    """The event a write of this process logged, as stored: what an undo right after it
    takes back without reading it again (``bot.battles.undo``)."""

    id: int
    seq: int
    kind: str
    summary: str
    changes: list[dict[str, Any]]


@dataclass(frozen=True)
class BattleRead:
    """The battle as one consistent read saw it, or as a write left it."""

    battle: Columns
    units: Sequence[Columns]
    generals: Sequence[Columns]
    engagements: Sequence[Columns] = ()  # those still going on
    roster: Roster = field(init=False, compare=False)
    # The event the write that left this state logged, when this process knows its id.
    last_event: LoggedEvent | None = field(default=None, init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "roster", Roster(
            tuple(map(roster_unit, self.units)), tuple(map(roster_general, self.generals)),
            tuple(map(roster_engagement, self.engagements))))

    @classmethod
    def after_write(cls, before: BattleRead, battle: Columns, units: Sequence[Columns],
                    generals: Sequence[Columns], engagements: Sequence[Columns],
                    last_event: LoggedEvent | None = None) -> BattleRead:
        """The battle as a write of ``before`` left it: a row the write kept as it was (the
        same object, in the same place) keeps its roster entry, and only the rows written
        are read into the roster again."""
        read = cls.__new__(cls)
        for name, value in (("battle", battle), ("units", units), ("generals", generals),
                            ("engagements", engagements), ("last_event", last_event)):
            object.__setattr__(read, name, value)
        object.__setattr__(read, "roster", Roster(
            _entries(before.units, before.roster.units, units, roster_unit),
            _entries(before.generals, before.roster.generals, generals, roster_general),
            tuple(map(roster_engagement, engagements))))
        return read

    @property
    def facts(self) -> BattleFacts:
        return battle_facts(self.battle, self.battle.charts)


def _entries(rows: Sequence[Columns], entries: Sequence[Any], now: Sequence[Columns],
             entry: Callable[[Any], Any]) -> tuple[Any, ...]:
    """The roster entries of the rows ``now``: those of ``rows`` (read into ``entries``)
    that are still there, unchanged, in the same place, are taken as they are."""
    if len(rows) != len(now):
        return tuple(map(entry, now))
    return tuple(was if row is old else entry(row)
                 for old, was, row in zip(rows, entries, now, strict=True))


class _Moved(Exception):
    """The battle changed between the read and the write."""


@dataclass(frozen=True)
class Command:
    channel_id: int
    actor: Actor
    interaction_id: int | None
    text: str  # the command as typed, for the log


async def play_move(db: Database, command: Command, ruleset: str, procedure: str,
                    options: Mapping[str, Any], dice: str | None,
                    states: ChannelStates | None = None) -> Played | None:
    """Play the procedure in the channel's battle; None when the channel has no battle."""
    states = states if states is not None else ChannelStates(0)
    async with db.channel_lock(command.channel_id):
        kept = states.get(command.channel_id)
        states.forget(command.channel_id)  # kept again only after a write that succeeds
        try:
            return await _play(db, command, ruleset, procedure, options, dice, kept, states)
        except IntegrityError:
            applied = await db.batch(partial(_applied_seq, command.interaction_id), quick=True)
            if applied is None:
                raise
            raise AlreadyApplied(applied) from None


async def _play(db: Database, command: Command, ruleset: str, procedure: str,
                options: Mapping[str, Any], dice: str | None, kept: BattleRead | None,
                states: ChannelStates) -> Played | None:
    move = None
    if kept is not None:
        try:
            read, move = kept, _plan(kept, ruleset, procedure, options, dice)
        except RulesError:
            # Refusals are rare: read afresh, so that a duplicate delivery is still told
            # it was applied, and the refusal comes from what is stored.
            move = None
    if move is None:
        fresh = await db.batch(partial(_read, command.channel_id, command.interaction_id),
                               one_statement=db.is_postgresql, quick=True)
        if fresh is None:
            return None
        read, move = fresh, _plan(fresh, ruleset, procedure, options, dice)
    try:
        seq, after = await _store(db, read, move, command)
    except _Moved:
        # Another process moved the battle in between (or the kept state was overtaken):
        # play it again on what is there now, reading under the write lock this time, so
        # it cannot be overtaken twice.
        try:
            locked = await db.batch(partial(_play_locked, command, ruleset, procedure,
                                            options, dice), write=True,
                                    channel_id=command.channel_id, quick=True)
        except _Moved:  # only a writer that skips the channel lock could cause this
            raise BattleError("The battle changed while I played this move; nothing was "
                              "applied.", hint="Try the command again.") from None
        if locked is None:
            return None
        move, seq, after = locked
    states.keep(command.channel_id, after)
    return Played(move.resolution, move.dice_note, move.lines, seq, after.battle.id)


async def _store(db: Database, read: BattleRead, move: Move,
                 command: Command) -> tuple[int, BattleRead]:
    """Write the move: on PostgreSQL as one statement, unless it begins an engagement (whose
    new row's id the log needs before the event is written)."""
    if db.is_postgresql and not _begins_engagement(move):
        return await _write_at_once(db, read, move, command)
    return await db.batch(partial(_write, read, move, command), write=True,
                          channel_id=command.channel_id, quick=True)


def _plan(read: BattleRead, ruleset: str, procedure: str, options: Mapping[str, Any],
          dice: str | None) -> Move:
    check_ruleset(read.battle.name, read.battle.ruleset, ruleset, procedure)
    return plan_move(read.facts, read.roster, procedure, options, dice)


def _play_locked(command: Command, ruleset: str, procedure: str, options: Mapping[str, Any],
                 dice: str | None, conn: Connection) -> tuple[Move, int, BattleRead] | None:
    read = _read(command.channel_id, command.interaction_id, conn)
    if read is None:
        return None
    move = _plan(read, ruleset, procedure, options, dice)
    return (move, *_write(read, move, command, conn))


def _read(channel_id: int, interaction_id: int | None, conn: Connection) -> BattleRead | None:
    read = _read_rows(channel_id, interaction_id, conn)
    if read is None:
        return None
    if read.battle.applied is not None:
        raise AlreadyApplied(read.battle.applied)
    refuse_while_waiting(read.battle)
    return read


def read_battle(channel_id: int, conn: Connection) -> BattleRead | None:
    """The channel's battle as it stands, for a command that only looks at it (the odds):
    a question waiting for its answer does not stop it."""
    return _read_rows(channel_id, None, conn)


def _read_rows(channel_id: int, interaction_id: int | None,
               conn: Connection) -> BattleRead | None:
    """The battle and its rows: on PostgreSQL in one statement, which needs no transaction
    to see them all at one moment (one round trip instead of six); on SQLite, where a
    statement costs no round trip, table by table."""
    if conn.dialect.name == "postgresql":
        found = read_move_at_once(conn, channel_id, interaction_id)
        return None if found is None else BattleRead(*found)
    return read_by_table(channel_id, interaction_id, conn)


def read_by_table(channel_id: int, interaction_id: int | None,
                  conn: Connection) -> BattleRead | None:
    battle = conn.execute(BATTLE_IN_CHANNEL, {"channel": channel_id,
                                              "interaction": interaction_id}).first()
    if battle is None:
        return None
    units = conn.execute(UNITS_OF, {"battle": battle.id}).all()
    generals = conn.execute(GENERALS_OF, {"battle": battle.id}).all()
    engagements = conn.execute(ENGAGEMENTS_OF, {"battle": battle.id}).all()
    return BattleRead(battle, units, generals, engagements)


def _applied_seq(interaction_id: int | None, conn: Connection) -> int | None:
    if interaction_id is None:
        return None
    return conn.execute(APPLIED, {"interaction": interaction_id}).scalar()


@dataclass
class _Write:
    """A move's write worked out: the battle's new values, the rows it changes, and the
    changes for the log (those of engagements it begins are added once they are rows)."""

    read: BattleRead
    seq: int
    values: dict[str, Any]
    units: _Changed
    generals: _Changed
    engagements: _Changed
    changes: list[dict]

    @property
    def updates(self) -> list[RowUpdate]:
        return self.units.updates + self.generals.updates + self.engagements.updates

    def after(self, engagements: Sequence[Columns],
              last_event: LoggedEvent | None = None) -> BattleRead:
        """The battle as the write leaves it, once stored."""
        return BattleRead.after_write(self.read,
                                      Record.of(self.read.battle, plain_values(self.values)),
                                      self.units.now, self.generals.now, engagements,
                                      last_event)


def _work_out(read: BattleRead, move: Move) -> _Write:
    battle = read.battle
    seq = battle.last_seq + 1
    values: dict[str, Any] = {"last_seq": seq}
    changes = []
    if move.queue is not None:
        values["dice_queue"] = move.queue
        before = row_snapshot(battle, BATTLES)
        after = {**before, "dice_queue": plain_values(move.queue)}
        changes.append(change_record("battles", battle.id, before, after))
    roster = move.after
    units = _changed_rows(read.units, read.roster.units, UNITS, roster.units, unit_columns)
    generals = _changed_rows(read.generals, read.roster.generals, GENERALS, roster.generals,
                             general_columns)
    engagements = _changed_engagements(read.engagements, roster.engagements)
    changes += units.changes + generals.changes + engagements.changes
    return _Write(read, seq, values, units, generals, engagements, changes)


def _write(read: BattleRead, move: Move, command: Command,
           conn: Connection) -> tuple[int, BattleRead]:
    """Store the move if the battle is still as read: the event's number, and the battle as
    the write leaves it."""
    write = _work_out(read, move)
    battle = read.battle
    moved = execute_dml(conn, MOVE_BATTLE, {"row_id": battle.id,
                                            "read_seq": battle.last_seq, **write.values})
    if moved != 1:
        raise _Moved
    for table, row_id, new in write.updates:
        execute_dml(conn, SET_ROW[table.name], {"row_id": row_id, **new})
    stored_engagements, begun = _begin_engagements(conn, battle.id, write.engagements.now)
    execute_dml(conn, ADD_EVENT,
                _event_values(read, move, command, write.seq, write.changes + begun))
    return write.seq, write.after(stored_engagements)


async def _write_at_once(db: Database, read: BattleRead, move: Move,
                         command: Command) -> tuple[int, BattleRead]:
    """PostgreSQL: the write as one statement that takes the channel's advisory lock
    itself, run outside any transaction (``Database.first_row``)."""
    write = _work_out(read, move)
    event = _event_values(read, move, command, write.seq, write.changes)
    statement, values = _at_once(read.battle, write.values, write.updates, event)
    values["lock_key"] = advisory_key(command.channel_id)
    stored = await db.first_row(statement, values)
    if stored is None:
        raise _Moved
    logged = LoggedEvent(stored["id"], write.seq, event["kind"], event["summary"],
                         event["changes"])
    return write.seq, write.after(write.engagements.now, logged)


def _event_values(read: BattleRead, move: Move, command: Command, seq: int,
                  changes: list[dict]) -> dict[str, Any]:
    return dict(
        battle_id=read.battle.id, seq=seq, interaction_id=command.interaction_id,
        user_id=command.actor.user_id, user_name=command.actor.name[:100],
        command=command.text[:200], kind="resolution",
        summary=move.summary[:500], request=move.request, resolution=move.record,
        changes=[c for c in changes if c["before"] != c["after"]], reverts=None,
        created_at=utcnow())


def _at_once(battle: Columns, values: Mapping[str, Any], updates: Sequence[RowUpdate],
             event: Mapping[str, Any]) -> tuple[Insert, dict[str, Any]]:
    """The whole write as one statement (PostgreSQL), and its parameters."""
    statement = _at_once_statement(tuple(values), shape_of(updates), tuple(event))
    return statement, parameters(values, updates, event, battle=battle.id,
                                 read_seq=battle.last_seq)


@lru_cache(maxsize=256)
def _at_once_statement(battle_keys: tuple[str, ...], rows: Shape,
                       event_keys: tuple[str, ...]) -> Insert:
    """One statement per shape of write (``guarded_write``): the changed rows and the event,
    on condition that the battle is still at the event read and waits for no answer."""
    return guarded_write(battle_keys, rows, event_keys, "changed",
                         BATTLES.c.pending.is_(None))


@dataclass
class _Changed:
    """Rows as a move leaves them: ``now`` (a new engagement still as values, not yet a row),
    the updates to make, and the changes, for the log."""

    now: list[Any] = field(default_factory=list)
    updates: list[RowUpdate] = field(default_factory=list)
    changes: list[dict] = field(default_factory=list)

    def update(self, table: Table, row: Columns, new: dict[str, Any]) -> None:
        self.updates.append((table, row.id, new))
        stored = plain_values(new)  # as the row will read back
        before = row_snapshot(row, table)
        after = {**before, **stored}
        self.now.append(Record.of(row, stored, written=after))
        self.changes.append(change_record(table.name, row.id, before, after))


def _changed_rows(rows: Sequence[Columns], before: Sequence[Any], table: Table,
                  after: Sequence[Any], columns: Callable[[Any], dict[str, Any]]) -> _Changed:
    """The rows whose roster entry the move changed; ``before`` are the rows' entries, as the
    read's roster holds them (in the rows' order), ``after`` the entries the move left.

    The engine keeps a roster's order, so each row's entry after is found in its place (by
    name only if it is not); an entry it left alone is the very same object, passed over
    without a look: a big battle's move changes a few rows of hundreds."""
    changed = _Changed()
    by_name: dict[str, Any] | None = None
    in_place = len(after) == len(before)
    for index, (row, was) in enumerate(zip(rows, before, strict=True)):
        entry = after[index] if in_place else None
        if entry is was:
            changed.now.append(row)
            continue
        if entry is None or name_key(entry.name) != row.name_key:
            if by_name is None:
                by_name = {name_key(e.name): e for e in after}
            entry = by_name[row.name_key]
        if entry is was or entry == was:
            changed.now.append(row)
        else:
            changed.update(table, row, columns(entry))
    return changed


def _changed_engagements(rows: Sequence[Columns], after: Sequence[Engagement]) -> _Changed:
    """The engagements the move ended (marked so), changed, or began (left as values in
    ``now``, to be inserted): ``now`` holds those still going on."""
    kept = {engagement.id for engagement in after if engagement.id is not None}
    by_id = {row.id: row for row in rows}
    changed = _Changed()
    for row in rows:
        if row.id not in kept:
            changed.updates.append((ENGAGEMENTS, row.id, {"status": "ended"}))
            before = row_snapshot(row, ENGAGEMENTS)
            changed.changes.append(change_record("engagements", row.id, before,
                                                 {**before, "status": "ended"}))
    for engagement in after:
        if engagement.id is None:
            changed.now.append(engagement_columns(engagement))
            continue
        row = by_id[engagement.id]
        if roster_engagement(row) == engagement:
            changed.now.append(row)
        else:
            changed.update(ENGAGEMENTS, row, engagement_columns(engagement))
    return changed


def _begins_engagement(move: Move) -> bool:
    return any(engagement.id is None for engagement in move.after.engagements)


def _begin_engagements(conn: Connection, battle_id: int, now: Sequence[Any]
                       ) -> tuple[list[Columns], list[dict]]:
    """Insert the engagements the move began (values among the rows): the rows, and the
    changes, for the log."""
    rows: list[Columns] = []
    changes = []
    for entry in now:
        if not isinstance(entry, dict):
            rows.append(entry)
            continue
        values = {"battle_id": battle_id, "status": "active", "created_at": utcnow(), **entry}
        row_id = conn.execute(ADD_ENGAGEMENT, values).inserted_primary_key[0]
        added = Record({"id": row_id, **values})
        rows.append(added)
        changes.append(change_record("engagements", row_id, None,
                                     row_snapshot(added, ENGAGEMENTS)))
    return rows, changes
