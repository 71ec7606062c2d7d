"""A battle as one file, and back: the JSON `/battle export` writes holds everything needed to
rebuild the battle (rule set, settings, chart pack, sides, roster, generals, engagements, the
question waiting and the whole event log with its snapshots), and `/battle import` (or
``huzzah battle import``) rebuilds it in another channel, in one transaction.

The file is read and checked whole first (``bot.battles.backup_file``): a fault refuses it,
and nothing is written.

Rows get new ids in the new channel: the log's snapshots name rows by id (undo puts back
exactly the rows an event changed), so each id in the log is moved to the new row's, and
rows the log names that are gone (a unit removed) get a fresh id of their own, so that
undoing the removal puts the unit back without taking another row's id.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, delete, insert, select
from sqlalchemy.engine import Connection

from bot.battles.backup_file import (
    CHARTS_KEYS,
    FORMAT,
    SCHEMA,
    VERSION,
    checked_backup,
    time_of,
)
from bot.battles.decisions import Pending, mention_for
from bot.battles.errors import BattleError
from bot.battles.store import TABLES, BattleTx, Row
from bot.battles.views import (
    BattleRecord,
    EngagementRecord,
    EventRecord,
    GeneralRecord,
    UnitRecord,
    by_side,
    record,
    snapshot,
)
from bot.storage.models import plain_values


@dataclass(frozen=True)
class Restored:
    """A battle rebuilt from a file: what the reply says of it."""

    battle: BattleRecord
    units: int
    generals: int
    events: int
    pending: Pending | None  # the question it waits on, answerable here
    # The player that question waits on, told the new channel waits on him (as when it was
    # asked), unless he is the one importing or turned mentions off; else None.
    mention: int | None = None


# --- writing the file -------------------------------------------------------------------------

_T = TABLES
_LATEST = (select(_T["battles"]).where(_T["battles"].c.channel_id == bindparam("channel"))
           .order_by((_T["battles"].c.status == "active").desc(), _T["battles"].c.id.desc())
           .limit(1))
_ALL_OF = {name: select(_T[name]).where(_T[name].c.battle_id == bindparam("battle"))
           .order_by(_T[name].c.id)
           for name in ("units", "generals", "engagements", "charts")}
_LOG = (select(_T["events"]).where(_T["events"].c.battle_id == bindparam("battle"))
        .order_by(_T["events"].c.seq))


def backup_of(conn: Connection, channel_id: int) -> dict[str, Any] | None:
    """The channel's battle (the active one, else the one that ended last) as the export's
    JSON data; None when the channel has had none."""
    found = conn.execute(_LATEST, {"channel": channel_id}).first()
    if found is None:
        return None
    battle = record(BattleRecord, found)
    where = {"battle": battle.id}
    charts = conn.execute(_ALL_OF["charts"], where).first()
    return _without_queue({
        "format": FORMAT,
        "version": VERSION,
        "schema": SCHEMA,
        "battle": snapshot(battle),
        "charts": None if charts is None else plain_values({k: getattr(charts, k)
                                                             for k in CHARTS_KEYS}),
        # Side by side in the battle's order, as `/battle show` lists them (not by the
        # sides' names); an import reads them by id, whatever their order here.
        "units": [snapshot(record(UnitRecord, u)) for u in
                  by_side(battle.sides, list(conn.execute(_ALL_OF["units"], where)))],
        "generals": [snapshot(record(GeneralRecord, g))
                     for g in conn.execute(_ALL_OF["generals"], where)],
        # Ended ones too: undo may bring one back.
        "engagements": [snapshot(record(EngagementRecord, e))
                        for e in conn.execute(_ALL_OF["engagements"], where)],
        "events": [snapshot(record(EventRecord, e)) for e in conn.execute(_LOG, where)],
    })


def _without_queue(data: dict[str, Any]) -> dict[str, Any]:
    """The GM's dice queue is secret, and an export is posted in the channel: it is left
    out, of the battle and of every change the log keeps (an imported battle starts with
    none; its GM queues again). Only a battle's row has the column."""
    data["battle"]["dice_queue"] = []
    for event in data["events"]:
        for change in event["changes"]:
            for state in (change["before"], change["after"]):
                if state and "dice_queue" in state:
                    state["dice_queue"] = []
    return data


def backup_text(data: Mapping[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2)


# --- rebuilding the battle --------------------------------------------------------------------


def import_battle(tx: BattleTx, data: Mapping[str, Any], *, guild_id: int | None,
                  gm: int | None) -> Restored:
    """Rebuild the battle a backup holds in the command's channel, which has none going on;
    ``gm``: who becomes its GM (None: the file's). One transaction: a refusal writes
    nothing."""
    if tx.battle is not None:
        raise BattleError(f"This channel already has a battle: {tx.battle.name}.",
                          hint="End it with `/battle end` first, or import into another "
                               "channel.")
    backup = checked_backup(data)
    conn = tx.conn
    old = backup.battle
    battle_values = {k: v for k, v in old.items() if k != "id"}
    battle_values.update(channel_id=tx.channel_id, created_at=time_of(old["created_at"], ""),
                         ended_at=old["ended_at"] and time_of(old["ended_at"], ""))
    if guild_id is not None and guild_id != old["guild_id"]:
        # A role belongs to its server: in another one it names nobody.
        battle_values.update(guild_id=guild_id, gm_role_id=None)
    if gm is not None:
        battle_values["created_by"] = gm
    if backup.pending is not None:
        # The rolls its move made so far stay on the messages of the channel it left: here,
        # what follows the answer gives them again instead of pointing above.
        battle_values["pending"] = backup.pending.rolls_to_give().to_dict()
    found = conn.execute(insert(_T["battles"]).returning(*_T["battles"].c),
                         battle_values).one()
    battle = Row("battles", found._mapping)
    ids: dict[str, dict[int, int]] = {"battles": {old["id"]: battle.id}}
    moved = _Moved(battle.id, tx.channel_id, battle.guild_id, ids)
    live = {"units": backup.units, "generals": backup.generals,
            "engagements": backup.engagements,
            "charts": [backup.charts] if backup.charts else []}
    for table, rows in live.items():
        _insert_rows(conn, table, rows, _gone_rows(backup.events, table, rows), moved)
    for event in backup.events:
        values = {k: v for k, v in event.items() if k != "id"}
        values.update(battle_id=battle.id, created_at=time_of(event["created_at"], ""),
                      # Unique over every battle: the interaction was the old channel's.
                      interaction_id=None,
                      changes=[moved.change(c) for c in event["changes"]])
        conn.execute(insert(_T["events"]), values)
    if backup.battle["status"] == "active":
        tx.battle = battle
    waiting = backup.pending if backup.battle["status"] == "active" else None
    mention = mention_for(conn, waiting.answerer, tx.actor.user_id) if waiting else None
    return Restored(record(BattleRecord, found), len(backup.units), len(backup.generals),
                    len(backup.events), backup.pending, mention)


@dataclass(frozen=True)
class _Moved:
    """Where the battle's rows went: its new id, channel and server, and each row's id."""

    battle_id: int
    channel_id: int
    guild_id: int | None
    ids: dict[str, dict[int, int]]

    def change(self, change: Mapping[str, Any]) -> dict[str, Any]:
        table = change["table"]
        new_id = self.ids[table][change["id"]]
        return {"table": table, "id": new_id, "before": self._state(table, change["before"],
                                                                     new_id),
                "after": self._state(table, change["after"], new_id)}

    def _state(self, table: str, state: Mapping[str, Any] | None,
               new_id: int) -> dict[str, Any] | None:
        if state is None:
            return None
        state = dict(state)
        if "id" in state:
            state["id"] = new_id
        if table == "battles":
            for key, value in (("channel_id", self.channel_id), ("guild_id", self.guild_id)):
                if key in state:
                    state[key] = value
        elif "battle_id" in state:
            state["battle_id"] = self.battle_id
        return state


def _gone_rows(events: list[dict[str, Any]], table: str,
               rows: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    """The rows of ``table`` the log names that are no longer there (a unit removed): by
    id, the last state the log saw each in."""
    there = {row["id"] for row in rows}
    gone: dict[int, dict[str, Any]] = {}
    for event in events:
        for change in event["changes"]:
            if change["table"] == table and change["id"] not in there:
                seen = change["after"] or change["before"] or {}
                gone[change["id"]] = {**gone.get(change["id"], {}), **seen}
    return gone


def _insert_rows(conn: Connection, table: str, rows: list[dict[str, Any]],
                 gone: dict[int, dict[str, Any]], moved: _Moved) -> None:
    """The rows with new ids, in the order of their old ones (a roster reads in that
    order); each row gone from the battle gets an id of its own too, taken from the
    database's counter by a row written and deleted at once, so that no later row takes
    it and undo can put the gone row back under it."""
    ids = moved.ids.setdefault(table, {})
    statement = insert(_T[table]).returning(_T[table].c.id)
    order: list[tuple[int, bool]] = sorted([*((row["id"], True) for row in rows),
                                            *((old, False) for old in gone)])
    if table == "charts":  # one pack per battle: the stand-ins go before the pack itself
        order.sort(key=lambda item: item[1])
    by_id = {row["id"]: row for row in rows}
    for old_id, is_live in order:
        values = _live_values(by_id[old_id], moved) if is_live else \
            _stand_in(table, gone[old_id], old_id, moved)
        ids[old_id] = conn.execute(statement, values).scalar_one()
        if not is_live:
            conn.execute(delete(_T[table]).where(_T[table].c.id == ids[old_id]))


def _live_values(row: Mapping[str, Any], moved: _Moved) -> dict[str, Any]:
    values = {k: v for k, v in row.items() if k != "id"}
    values["battle_id"] = moved.battle_id
    for key in ("created_at", "added_at"):
        if key in values:
            values[key] = time_of(values[key], key)
    return values


def _stand_in(table: str, seen: Mapping[str, Any], old_id: int,
              moved: _Moved) -> dict[str, Any]:
    """A row that only takes an id: the columns a row needs, under a name no row has."""
    label = f"(gone {old_id})"
    values: dict[str, Any] = {"battle_id": moved.battle_id}
    if table in ("units", "generals"):
        values.update(name=label, name_key=label, side=str(seen.get("side") or "-"))
    elif table == "engagements":
        values.update(kind=str(seen.get("kind") or "-"), sides=[[], []], state={},
                      status="ended")
    elif table == "charts":
        values.update(filename=label, content={}, added_by=0)
    return values
