"""The unit of work for battle commands.

Every command that touches a battle runs as one unit of work (``BattleStore``): one
transaction, with the channel locked (commands in one channel apply one at a time, across
processes), the same Discord interaction refused if it was already applied, and every row it
changes snapshotted before and after. ``BattleTx.record`` turns those snapshots into an event
in the log, so undo can put back exactly what was there.

It is plain synchronous code on a SQLAlchemy Core ``Connection`` (``Database.run`` runs it in
one piece), with statements built once: the ORM's own unit of work cost a move four times the
database time (docs/performance.md). The tables are the ORM models' (``bot.storage.models``);
a row held here is a ``Row`` of them, one object per row for the unit of work, so a change
made to it is what the next read and the log see.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import Select, bindparam, delete, insert, inspect, select, text, update
from sqlalchemy.engine import Connection
from sqlalchemy.sql.schema import Table

from bot.battles.actor import Actor
from bot.battles.errors import BattleError, NoBattle, NotGM
from bot.render.text import own
from bot.storage.models import (
    UNDOABLE,
    Base,
    Battle,
    Charts,
    Event,
    General,
    Unit,
    detached,
    from_snapshot,
    plain_values,
)
from bot.storage.models import Engagement as EngagementRow
from rules.core.engagements import Engagement
from rules.core.errors import InvalidInput
from rules.core.registry import BattleRules
from rules.core.roster import Roster, RosterGeneral, RosterUnit, UnknownUnit, name_key
from rules.registry import RULESETS

ROSTER_HINT = "`/unit list` shows the roster; `/unit add` adds a unit."
"""What a roster command says of a unit it cannot find (it has no quick lookup to offer)."""

MODELS: dict[str, type[Base]] = {"battles": Battle, "units": Unit, "generals": General,
                                 "engagements": EngagementRow, "charts": Charts}
TABLES: dict[str, Table] = {name: model.__table__ for name, model in  # type: ignore[misc]
                            (*MODELS.items(), ("events", Event))}
COLUMNS: dict[str, tuple[str, ...]] = {name: tuple(c.key for c in table.c)
                                       for name, table in TABLES.items()}
# The sequence counter only ever grows: undo must not wind it back.
NOT_RESTORED = ("last_seq",)
NOT_UNDOABLE = ("undo", "battle_start")
EVENT_KINDS = ("battle_start", "battle_end", "turn", "setting", "charts", "unit_add",
               "unit_edit", "unit_remove", "general_add", "general_remove", "resolution",
               "question", "reroll", "override", "undo", "dice_queue", "gm_set", "gm_restore",
               "gm_role", "side_rename")
"""Every kind of event the log holds: an import refuses a file with another (its log could
not be shown, undone or rerolled as the commands that write it expect)."""


class Row:
    """One row of a battle's tables as a unit of work holds it: its columns as attributes,
    which a command may set once it has told the unit of work (``BattleTx.touch``)."""

    def __init__(self, table: str, values: Mapping[str, Any]) -> None:
        self.__dict__.update(values)
        self.__dict__["__tablename__"] = table

    def columns(self) -> dict[str, Any]:
        values = self.__dict__
        return {key: values[key] for key in COLUMNS[self.__tablename__]}

    def __repr__(self) -> str:
        return f"<Row {self.__tablename__} {self.__dict__.get('id')}>"


# Built once: building and compiling a statement costs more than SQLite takes to run it.
IN_CHANNEL = (TABLES["battles"].c.channel_id == bindparam("channel"),
              TABLES["battles"].c.status == "active")
"""Where a statement finds the channel's active battle."""
_IN_CHANNEL = select(TABLES["battles"]).where(*IN_CHANNEL)
_OF_BATTLE = {name: select(TABLES[name]).where(TABLES[name].c.battle_id == bindparam("battle"))
              .order_by(TABLES[name].c.id) for name in ("units", "generals", "charts")}
_ACTIVE_ENGAGEMENTS = (select(TABLES["engagements"])
                       .where(TABLES["engagements"].c.battle_id == bindparam("battle"),
                              TABLES["engagements"].c.status == "active")
                       .order_by(TABLES["engagements"].c.id))
_BY_ID = {name: select(table).where(table.c.id == bindparam("row_id"))
          for name, table in TABLES.items()}
_INSERT = {name: insert(table).returning(*table.c) for name, table in TABLES.items()}
# An event is written as given: its id is all the command needs back (reading its JSON back
# would cost more than writing it).
_INSERT_EVENT = insert(TABLES["events"]).returning(TABLES["events"].c.id)
# The columns set are those given beside ``row_id``.
_UPDATE = {name: update(table).where(table.c.id == bindparam("row_id"))
           for name, table in TABLES.items()}
_DELETE = {name: delete(table).where(table.c.id == bindparam("row_id"))
           for name, table in TABLES.items()}
# An event an undo took back, put back by undoing that undo: it counts as not undone again.
_REDONE = (update(TABLES["events"])
           .where(TABLES["events"].c.battle_id == bindparam("battle"),
                  TABLES["events"].c.seq == bindparam("event_seq"))
           .values(undone_by=None))
# An event as undo reads it: all but the recorded resolution, the largest column, never read.
_EVENT_COLUMNS = [c for c in TABLES["events"].c if c.key != "resolution"]


def rules_for(ruleset: str) -> BattleRules:
    rules = RULESETS[ruleset].battle
    assert rules is not None, ruleset
    return rules


def active_battle(conn: Connection, channel_id: int) -> Row | None:
    found = conn.execute(_IN_CHANNEL, {"channel": channel_id}).first()
    return None if found is None else Row("battles", found._mapping)


_ENDED_HERE = (select(TABLES["battles"].c.name)
               .where(TABLES["battles"].c.channel_id == bindparam("channel"),
                      TABLES["battles"].c.status != "active")
               .order_by(TABLES["battles"].c.id.desc()).limit(1))


def no_battle(conn: Connection, channel_id: int) -> NoBattle:
    """The refusal of a command that needs a battle where none is going on: it names the
    battle that ended here last, if any ("there is no battle" would read as if it was lost)."""
    return NoBattle(conn.scalar(_ENDED_HERE, {"channel": channel_id}))


APPLIED = (select(TABLES["events"].c.seq)
           .where(TABLES["events"].c.interaction_id == bindparam("interaction")))
"""The event the interaction already made, if any (Discord delivering it twice)."""
# The channel's battle, and that event: one statement, as a command's first read.
_WITH_APPLIED = select(TABLES["battles"], APPLIED.scalar_subquery().label("applied")).where(
    *IN_CHANNEL)


def battle_and_applied(conn: Connection, channel_id: int, interaction_id: int | None,
                       kept: Kept | None = None) -> tuple[Row | None, int | None, bool]:
    """The channel's active battle (None: none), the event this interaction already
    recorded (None: none), and whether ``kept`` holds the battle as it still is."""
    if kept is not None:
        still = conn.execute(_STILL, {"battle": kept.battle.id,
                                      "interaction": interaction_id}).first()
        if still is not None and still.last_seq == kept.battle.last_seq:
            return kept.battle, still.applied, True
    where = {"channel": channel_id, "interaction": interaction_id}
    found = conn.execute(_WITH_APPLIED, where).first()
    if found is None:  # no battle (a battle ended by this very interaction, say)
        applied = conn.scalar(APPLIED, where) if interaction_id is not None else None
        return None, applied, False
    values = dict(found._mapping)
    applied = values.pop("applied")
    return Row("battles", values), applied, False


def roster_unit(row: Any) -> RosterUnit:
    return RosterUnit(
        name=row.name,
        side=row.side,
        attributes=dict(row.attributes or {}),
        strength=row.strength,
        status=row.status,
        gone_reason=row.gone_reason,
        commander=row.commander,
    )


def roster_general(row: Any) -> RosterGeneral:
    return RosterGeneral(row.name, row.side, row.unit_name, row.wounds, row.status, row.value)


def roster_engagement(row: Any) -> Engagement:
    first, other = row.sides
    return Engagement(row.kind, (tuple(first), tuple(other)), dict(row.state or {}), row.id)


def engagement_columns(engagement: Engagement) -> dict[str, Any]:
    """The columns of an engagement's row that the engine's roster decides."""
    return {"kind": engagement.kind, "sides": [list(side) for side in engagement.sides],
            "state": dict(engagement.state)}


def unit_columns(unit: RosterUnit) -> dict[str, Any]:
    """The columns of a unit's row that the engine's roster decides."""
    return {"strength": unit.strength, "status": unit.status, "gone_reason": unit.gone_reason,
            "attributes": dict(unit.attributes), "commander": unit.commander}


def general_columns(general: RosterGeneral) -> dict[str, Any]:
    """The columns of a general's row that the engine's roster decides."""
    return {"wounds": general.wounds, "status": general.status, "unit_name": general.unit}


@dataclass(frozen=True)
class Kept:
    """A channel's battle as this process's last command there left it, committed: its rows,
    owned by nobody else. The next command there takes them instead of reading them, once
    one statement has shown that the battle has not moved since (``last_seq``, which every
    change to a battle moves, in any process). A move then reads one row instead of four
    tables (docs/performance.md)."""

    battle: Row
    units: list[Row] | None
    generals: list[Row] | None
    engagements: list[Row] | None


def _detached(row: Row) -> Row:
    """A copy of the row that shares no JSON value with it."""
    return Row(row.__tablename__, {k: detached(v) if isinstance(v, dict | list) else v
                                   for k, v in row.columns().items()})


def _all_detached(rows: list[Row] | None) -> list[Row] | None:
    return None if rows is None else [_detached(row) for row in rows]


# Whether a kept battle is still as it was, and whether the interaction was applied already.
_STILL = select(TABLES["battles"].c.last_seq, APPLIED.scalar_subquery().label("applied")).where(
    TABLES["battles"].c.id == bindparam("battle"), TABLES["battles"].c.status == "active")


@dataclass
class Tracked:
    row: Row
    before: dict[str, Any] | None  # its snapshot before this event; None: a new row
    stored: dict[str, Any]  # its columns as the database holds them now (JSON-safe)
    deleted: bool = False


class BattleTx:
    """One command's view of its channel's battle, inside the command's transaction."""

    def __init__(
        self, conn: Connection, battle: Row | None, actor: Actor, channel_id: int,
        interaction_id: int | None, command: str, kept: Kept | None = None,
    ) -> None:
        self.conn = conn
        self.battle = battle
        self.actor = actor
        self.channel_id = channel_id
        self.interaction_id = interaction_id
        self.command = command
        # One object per row, as read or added: a change made to it is what the next read
        # sees, until it is written (before any read, and with the event).
        self._rows: dict[tuple[str, int], Row] = {}
        if battle is not None:
            self._rows[("battles", battle.id)] = battle
        self._tracked: dict[int, Tracked] = {}  # by object identity: one object per row
        # Read once per command: the channel is locked, so only this command changes them.
        self._units: list[Row] | None = None
        self._generals: list[Row] | None = None
        self._engagements: list[Row] | None = None
        if kept is not None:
            self._units, self._generals = kept.units, kept.generals
            self._engagements = kept.engagements
            for rows in (self._units, self._generals, self._engagements):
                for row in rows or ():
                    self._rows[(row.__tablename__, row.id)] = row

    def keep(self) -> Kept | None:
        """The battle's rows as this command leaves them, for the next command in the
        channel (call once committed); None when there is no battle going on."""
        if self.battle is None or self.battle.status != "active":
            return None
        # Still going on: the list holds, as read, those this command ended.
        engagements = None if self._engagements is None else [
            row for row in self._engagements if row.status == "active"]
        return Kept(_detached(self.battle), _all_detached(self._units),
                    _all_detached(self._generals), _all_detached(engagements))

    # --- guards ---------------------------------------------------------------------------

    def require_battle(self) -> Row:
        if self.battle is None:
            raise no_battle(self.conn, self.channel_id)
        return self.battle

    def require_gm(self, what: str) -> Row:
        battle = self.require_battle()
        if not self.actor.is_gm(battle.created_by, battle.gm_role_id):
            raise NotGM(what)
        return battle

    def require_owner(self, row: Row, what: str, *, general: bool = False) -> None:
        """Only whoever added a unit or general, or a GM, may ``what`` (edit, remove) it."""
        battle = self.require_battle()
        if not self.actor.may_change(row.added_by, battle.created_by, battle.gm_role_id):
            raise NotOwner(row.name, what, row.added_by, general)

    @property
    def rules(self) -> BattleRules:
        return rules_for(self.require_battle().ruleset)

    # --- reading --------------------------------------------------------------------------

    def _read(self, table: str, statement: Any, values: Mapping[str, Any]) -> list[Row]:
        """Rows as held here: what this command changed and has not written yet is written
        first, so the read sees it; a row held already is the same object."""
        self._write_changes()
        rows = []
        for found in self.conn.execute(statement, values):
            key = (table, found.id)
            row = self._rows.get(key)
            if row is None:
                row = self._rows[key] = Row(table, found._mapping)
            rows.append(row)
        return rows

    def unit_rows(self) -> list[Row]:
        if self._units is None:
            battle = self.require_battle()
            self._units = self._read("units", _OF_BATTLE["units"], {"battle": battle.id})
        return list(self._units)

    def general_rows(self) -> list[Row]:
        if self._generals is None:
            battle = self.require_battle()
            self._generals = self._read("generals", _OF_BATTLE["generals"],
                                        {"battle": battle.id})
        return list(self._generals)

    def engagement_rows(self) -> list[Row]:
        """The battle's engagements still going on."""
        if self._engagements is None:
            battle = self.require_battle()
            self._engagements = self._read("engagements", _ACTIVE_ENGAGEMENTS,
                                           {"battle": battle.id})
        # One this unit of work ended is still in the list read: it goes on no longer.
        return [row for row in self._engagements if row.status == "active"]

    def charts_content(self) -> dict[str, Any] | None:
        """What the battle's chart pack holds, when its rule set reads one."""
        if self.rules.charts is None:
            return None
        charts = self.charts_row()
        return charts.content if charts else None

    def charts_row(self) -> Row | None:
        """The chart pack attached to the battle, if any."""
        battle = self.require_battle()
        found = self._read("charts", _OF_BATTLE["charts"], {"battle": battle.id})
        return found[0] if found else None

    def _forget_rows(self) -> None:
        """Rows were added or deleted: read the lists afresh when next asked."""
        self._units = self._generals = self._engagements = None

    def roster(self) -> Roster:
        return Roster(tuple(map(self.unit_of, self.unit_rows())),
                      tuple(map(roster_general, self.general_rows())),
                      tuple(map(roster_engagement, self.engagement_rows())))

    def unit_of(self, row: Row) -> RosterUnit:
        """The roster unit a row is: one added without its strength has the strength its
        rule set gives it (Tricorne: its full strength), as the rules read it and changes
        to it are said ("loses 2 blocks (now 2)"); the row keeps it unset until it changes,
        so that a `full` put right moves it too."""
        unit = roster_unit(row)
        strength = self.rules.strength_of(unit.strength, unit.attributes)
        return unit if strength == unit.strength else replace(unit, strength=strength)

    def unit_row(self, name: str, *, allow_gone: bool = False) -> Row:
        roster = self.roster()
        try:
            unit = roster.unit(name, allow_gone=allow_gone)  # the engine's error on a miss
        except UnknownUnit as error:  # its quick lookup is no way out of a roster command
            raise InvalidInput(error.message, hint=ROSTER_HINT) from None
        return next(r for r in self.unit_rows() if r.name_key == name_key(unit.name))

    def general_row(self, name: str) -> Row:
        roster = self.roster()
        general = roster.general(name)
        return next(g for g in self.general_rows() if g.name_key == name_key(general.name))

    # --- writing, with snapshots for undo ---------------------------------------------------

    def touch(self, row: Row) -> None:
        """Call before changing a row: remembers how it was."""
        if id(row) not in self._tracked:
            stored = plain_values(row.columns())
            before = {k: v for k, v in stored.items() if k not in NOT_RESTORED}
            self._tracked[id(row)] = Tracked(row, before, stored)

    def add(self, new: Base) -> Row:
        """Store a new row, made as its model (``Unit(...)``): the row as stored, with its id
        and the columns' defaults."""
        table = new.__tablename__
        values = {k: v for k, v in inspect(new).dict.items() if k in TABLES[table].c}
        return self._insert(table, values)

    def _insert(self, table: str, values: Mapping[str, Any]) -> Row:
        self._write_changes()
        found = self.conn.execute(_INSERT[table], dict(values)).one()
        row = self._rows[(table, found.id)] = Row(table, found._mapping)
        self._tracked[id(row)] = Tracked(row, None, plain_values(row.columns()))
        self._forget_rows()
        return row

    def delete(self, row: Row) -> None:
        self.touch(row)
        self._write_changes()
        self.conn.execute(_DELETE[row.__tablename__], {"row_id": row.id})
        self._tracked[id(row)].deleted = True
        self._rows.pop((row.__tablename__, row.id), None)
        self._forget_rows()

    def write_roster(self, after: Roster) -> None:
        """Write the engine's roster back onto the rows that differ."""
        units = {r.name_key: r for r in self.unit_rows()}
        for unit in after.units:
            row = units[name_key(unit.name)]
            if self.unit_of(row) != unit:
                self._set(row, unit_columns(unit))
        generals = {g.name_key: g for g in self.general_rows()}
        for general in after.generals:
            row = generals[name_key(general.name)]
            if roster_general(row) != general:
                self._set(row, general_columns(general))
        self._write_engagements(after.engagements)

    def unit_renamed_or_gone(self, name: str, new_name: str | None, *,
                             generals: bool = True) -> list[str]:
        """Engagements and (with ``generals``) generals follow a unit renamed
        (``new_name``); one removed (None) leaves its engagements, which end when it was the
        last of its side, and its generals are left alone: nobody stays with, or locked in
        a fight with, a name no unit has. The generals left alone, by name."""
        for row in self.engagement_rows():
            engagement = roster_engagement(row)
            if not engagement.involves(name):
                continue
            if new_name is None:
                left = engagement.without(name)
                self._set(row, {"status": "ended"} if left is None
                          else {"sides": [list(side) for side in left]})
                continue
            self._set(row, {"sides": [[new_name if name_key(n) == name_key(name) else n
                                       for n in side] for side in engagement.sides]})
        alone: list[str] = []
        for general in self.general_rows() if generals else ():
            if general.unit_name and name_key(general.unit_name) == name_key(name):
                self._set(general, {"unit_name": new_name})
                if new_name is None:
                    alone.append(general.name)
        return alone

    def _write_engagements(self, after: tuple[Engagement, ...]) -> None:
        """New engagements get a row; ended ones are marked so; changed ones are updated."""
        battle = self.require_battle()
        rows = {row.id: row for row in self.engagement_rows()}
        kept = {e.id for e in after if e.id is not None}
        for row_id, row in rows.items():
            if row_id not in kept:
                self._set(row, {"status": "ended"})
        for engagement in after:
            if engagement.id is None:
                self.add(EngagementRow(battle_id=battle.id, status="active",
                                       **engagement_columns(engagement)))
            elif roster_engagement(rows[engagement.id]) != engagement:
                self._set(rows[engagement.id], engagement_columns(engagement))

    def _set(self, row: Row, values: dict[str, Any]) -> None:
        self.touch(row)
        for column, value in values.items():
            setattr(row, column, value)

    def _write_changes(self) -> None:
        """Write each row changed since it was last written: only the columns changed."""
        for tracked in self._tracked.values():
            if tracked.deleted:
                continue
            now = plain_values(tracked.row.columns())
            changed = {k: getattr(tracked.row, k) for k, v in now.items()
                       if tracked.stored[k] != v}
            if changed:
                self.conn.execute(_UPDATE[tracked.row.__tablename__],
                                  {"row_id": tracked.row.id, **changed})
            tracked.stored = now

    def record(
        self,
        kind: str,
        summary: str,
        *,
        request: dict[str, Any] | None = None,
        resolution: dict[str, Any] | None = None,
        reverts: int | None = None,
    ) -> Row:
        """Write everything touched so far, and the event that logs it; the log has no
        gaps."""
        assert kind in EVENT_KINDS, kind  # else an export of the battle would not import
        battle = self.require_battle()
        self.touch(battle)
        battle.last_seq += 1
        self._write_changes()
        changes = [self._change(t) for t in self._tracked.values()]
        self._tracked.clear()
        values = {
            "battle_id": battle.id,
            "seq": battle.last_seq,
            "interaction_id": self.interaction_id,
            "user_id": self.actor.user_id,
            "user_name": self.actor.name[:100],
            "command": self.command[:200],
            "kind": kind,
            "summary": summary[:500],
            "request": request,
            "resolution": resolution,
            "changes": [c for c in changes if c["before"] != c["after"]],
            "reverts": reverts,
        }
        values["id"] = self.conn.execute(_INSERT_EVENT, values).scalar_one()
        # One interaction records one event; a second in the same command has no id.
        self.interaction_id = None
        return Row("events", values)

    @staticmethod
    def _change(tracked: Tracked) -> dict[str, Any]:
        """The row before and after the event (as written a moment ago)."""
        after = None if tracked.deleted else {k: v for k, v in tracked.stored.items()
                                              if k not in NOT_RESTORED}
        return {"table": tracked.row.__tablename__, "id": tracked.row.id,
                "before": tracked.before, "after": after}

    # --- undo -----------------------------------------------------------------------------

    def last_undoable(self, *, skipping: tuple[str, ...] = (),
                      what: str = "undo") -> Row:
        """The latest event not yet undone, passing over events of the ``skipping`` kinds;
        ``what`` is done with it, for the refusal when there is none."""
        battle = self.require_battle()
        found = self.conn.execute(undoable(battle.id, skipping)).first()
        if found is None:
            raise BattleError(f"There is nothing to {what} in this battle.",
                              hint="Play a move first." if what != "undo" else None)
        return Row("events", found._mapping)

    def events_since(self, seq: int, *, skipping: tuple[str, ...] = ()) -> list[Row]:
        """The events from ``seq`` on that undo could take back, oldest first, passing over
        events of the ``skipping`` kinds."""
        statement = (_undoable_events(self.require_battle().id, skipping)
                     .where(TABLES["events"].c.seq >= seq).order_by(TABLES["events"].c.seq))
        return [Row("events", found._mapping) for found in self.conn.execute(statement)]

    def revert(self, event: Row, *, keeping: tuple[str, ...] = ()) -> None:
        """Put every row the event changed back as it was before it, but for the battle's
        fields in ``keeping`` (a reroll keeps the dice queue as it is now)."""
        for change in reversed(event.changes):
            table = change["table"]
            row = self._row(table, change["id"])
            step = restoring(change, row is not None)
            if step is None:
                continue
            action, values = step
            if table == "battles":
                values = {k: v for k, v in values.items() if k not in keeping}
            restored = from_snapshot(MODELS[table], values)
            if action == "delete":
                assert row is not None
                self.delete(row)
            elif action == "insert":
                self._insert(table, {**restored, "id": change["id"]})
            else:
                assert row is not None
                self._set(row, {k: v for k, v in restored.items() if k != "id"})
                if table == "engagements":
                    # An ended melee may go on again: the list of those going on is read
                    # afresh, here and by the next command.
                    self._engagements = None

    def _row(self, table: str, row_id: int) -> Row | None:
        held = self._rows.get((table, row_id))
        if held is not None:
            return held
        found = self._read(table, _BY_ID[table], {"row_id": row_id})
        return found[0] if found else None

    def undo(self, event: Row, summary: str, *, keeping: tuple[str, ...] = (),
             redoing: Sequence[Row] = (), request: dict[str, Any] | None = None,
             then: Callable[[], None] | None = None) -> Row:
        """Undo ``event``, and with it the undo events in ``redoing`` (newest first): what
        those took back is put back, and counts as not undone again. ``request``: what the
        undo's event keeps of the one it took back (``bot.battles.undo.undid``); ``then``
        changes the rows put back further, within the undo's event."""
        self.revert(event, keeping=keeping)
        for taken_back in redoing:  # they left the dice queue alone (``take_back``)
            self.revert(taken_back)
        if then is not None:
            then()
        undo = self.record("undo", summary, request=request, reverts=event.seq)
        for row in (event, *redoing):
            self.conn.execute(_UPDATE["events"], {"row_id": row.id, "undone_by": undo.seq})
            row.undone_by = undo.seq
        for taken_back in redoing:
            self.conn.execute(_REDONE, {"battle": event.battle_id,
                                       "event_seq": taken_back.reverts})
        return undo

    def events_before(self, seq: int, limit: int) -> list[Row]:
        """Up to ``limit`` events just before ``seq``, newest first, undo events included."""
        events = TABLES["events"]
        statement = (select(*_EVENT_COLUMNS)
                     .where(events.c.battle_id == self.require_battle().id, events.c.seq < seq)
                     .order_by(events.c.seq.desc()).limit(limit))
        return [Row("events", found._mapping) for found in self.conn.execute(statement)]


def restoring(change: dict[str, Any], exists: bool) -> tuple[str, dict[str, Any]] | None:
    """What undoing one logged change does to its row: ``("delete", {})``, ``("insert",
    snapshot)`` or ``("update", fields)``; None when there is nothing to do."""
    before, after = change["before"], change["after"] or {}
    if before is None:
        return ("delete", {}) if exists else None
    if not exists:
        return "insert", before
    # Only the fields this event changed: later events may have changed others (a GM
    # queueing dice after a roll) and those stay as they are.
    return "update", {key: value for key, value in before.items() if after.get(key) != value}


def _undoable_events(battle_id: int, skipping: tuple[str, ...]) -> Select[Any]:
    """The events undo may take back, but for those of the ``skipping`` kinds. The condition
    of the index on such events is repeated word for word (literals, not bound values):
    SQLite's planner then sees that the query implies it, and each undo is one index step
    however long the log."""
    events = TABLES["events"]
    return select(*_EVENT_COLUMNS).where(events.c.battle_id == battle_id, text(UNDOABLE),
                                         events.c.kind.not_in((*NOT_UNDOABLE, *skipping)))


def undoable(battle_id: int, skipping: tuple[str, ...] = ()) -> Select[Any]:
    """The latest event undo may take back."""
    return _undoable_events(battle_id, skipping).order_by(TABLES["events"].c.seq.desc()).limit(1)


class NotOwner(BattleError):
    """A player changing a unit or general someone else added."""

    def __init__(self, name: str, what: str, added_by: int | None,
                 general: bool = False) -> None:
        he, him = ("he", "him") if general else ("it", "it")
        if added_by is None:
            text = (f"Only a GM can {what} {name}: {he} was added before Huzzah kept track "
                    "of who adds what.")
        else:
            text = f"Only {own(f'<@{added_by}>')}, who added {name}, or a GM can {what} {him}."
        super().__init__(text, hint="GMs are whoever started the battle, members with Manage "
                                    "Channel, and the GM role (`/gm role`).")
