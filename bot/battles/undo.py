"""`/gm undo` in one write batch of Core statements.

Under the channel's lock and the database's write lock: find the latest event still undoable
(one step of its partial index), put back each row it changed as ``restoring`` says, and log
the undo with the same snapshots ``BattleTx.record`` would write, so that an undo can itself
be reasoned about, and the log stays gapless.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any

from sqlalchemy import delete, insert, select, text, update
from sqlalchemy.engine import Connection

from bot.battles.errors import AlreadyApplied, BattleError, NoBattle, NotGM, NotTheLast
from bot.battles.moves import Command
from bot.battles.rows import (
    ADD_EVENT,
    BATTLE_IN_CHANNEL,
    BATTLES,
    EVENTS,
    change_record,
    row_snapshot,
)
from bot.battles.store import MODELS, NOT_UNDOABLE, restoring
from bot.storage.database import Database
from bot.storage.models import UNDOABLE, from_snapshot, plain_values

_KINDS_KEPT = ", ".join(f"'{kind}'" for kind in NOT_UNDOABLE)
# The index's own condition, word for word, so that the planner uses it (see ``undoable``).
LAST_UNDOABLE = text(
    "SELECT id, seq, kind, summary, changes FROM events "
    f"WHERE battle_id = :battle AND {UNDOABLE} AND kind NOT IN ({_KINDS_KEPT}) "
    "ORDER BY seq DESC LIMIT 1"
).columns(EVENTS.c.id, EVENTS.c.seq, EVENTS.c.kind, EVENTS.c.summary, EVENTS.c.changes)


@dataclass(frozen=True)
class Undone:
    seq: int  # the event taken back
    kind: str
    summary: str
    undo_seq: int  # the undo's own event


async def undo_last(db: Database, command: Command,
                    expected: tuple[int, int] | None = None) -> Undone:
    """Undo the battle's last undoable event; with ``expected`` (battle id, event number),
    only if that is still the one (a button under an older result)."""
    async with db.channel_lock(command.channel_id):
        return await db.batch(partial(_undo, command, expected), write=True,
                              channel_id=command.channel_id)


def _undo(command: Command, expected: tuple[int, int] | None, conn: Connection) -> Undone:
    battle = conn.execute(BATTLE_IN_CHANNEL, {"channel": command.channel_id,
                                              "interaction": command.interaction_id}).first()
    if battle is None:
        raise NoBattle()
    if battle.applied is not None:
        raise AlreadyApplied(battle.applied)
    if not command.actor.is_gm(battle.created_by, battle.gm_role_id):
        raise NotGM("undo")
    event = conn.execute(LAST_UNDOABLE, {"battle": battle.id}).first()
    if event is None:
        raise BattleError("There is nothing to undo in this battle.")
    if expected is not None and expected != (battle.id, event.seq):
        raise NotTheLast(expected[1], event.seq if expected[0] == battle.id else None)
    changes = [_revert(conn, change) for change in reversed(event.changes)]
    seq = battle.last_seq + 1
    conn.execute(update(BATTLES).where(BATTLES.c.id == battle.id).values(last_seq=seq))
    conn.execute(ADD_EVENT, dict(
        battle_id=battle.id, seq=seq, interaction_id=command.interaction_id,
        user_id=command.actor.user_id, user_name=command.actor.name[:100],
        command=command.text[:200], kind="undo",
        summary=f"Undid #{event.seq}: {event.summary}"[:500], request=None, resolution=None,
        changes=[c for c in changes if c is not None and c["before"] != c["after"]],
        reverts=event.seq))
    conn.execute(update(EVENTS).where(EVENTS.c.id == event.id).values(undone_by=seq))
    return Undone(event.seq, event.kind, event.summary, seq)


def _revert(conn: Connection, change: dict[str, Any]) -> dict[str, Any] | None:
    """Put one row back as the change found it; the change this makes, for the log."""
    model = MODELS[change["table"]]
    table = model.__table__
    row_id = change["id"]
    row = conn.execute(select(table).where(table.c.id == row_id)).first()
    step = restoring(change, row is not None)
    if step is None:
        return None
    action, values = step
    if action == "delete":
        conn.execute(delete(table).where(table.c.id == row_id))
        return change_record(table.name, row_id, row_snapshot(row, table), None)
    if action == "insert":
        conn.execute(insert(table).values({**from_snapshot(model, values), "id": row_id}))
        back = conn.execute(select(table).where(table.c.id == row_id)).one()
        return change_record(table.name, row_id, None, row_snapshot(back, table))
    before = row_snapshot(row, table)
    if values:
        conn.execute(update(table).where(table.c.id == row_id)
                     .values(from_snapshot(model, values)))
    return change_record(table.name, row_id, before, {**before, **plain_values(values)})
