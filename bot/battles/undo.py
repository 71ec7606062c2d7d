"""`/gm undo`: take back the battle's last undoable event, putting back exactly what it
changed, as an event of its own (``BattleTx.undo``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.battles.corrections import standing_changes
from bot.battles.decisions import Pending, answer_written, mention_for, pending_of
from bot.battles.errors import NotTheLast, check_battle
from bot.battles.rerolls import BESIDE_THE_ROSTER, KEPT_BY_A_REROLL, taken_back_by
from bot.battles.store import MODELS, BattleTx, Row, roster_engagement, roster_general
from bot.battles.views import UNDID_ANSWER, UNDID_KIND
from bot.storage.models import from_snapshot
from rules.core.notation import counted
from rules.core.roster import (
    ENDED,
    Change,
    Roster,
    describe_changes,
    engagement_changes,
    general_changes,
    unit_changes,
)


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
    # Undoing a reroll or an override puts back the result it replaced: those events.
    brought_back: tuple[int, ...] = ()
    # The question the battle waits on again, which it did not before the undo (an answer,
    # or a reroll of one, taken back).
    waiting: Pending | None = None
    battle_id: int = 0
    # Whom the question waiting again pings, as its own reply did (``mention_for``).
    mention: int | None = None
    # The GM's queued dice the undo put back (a reroll's, say), now waiting for the next
    # roll in the channel: 0 when the queue did not grow.
    queued_back: int = 0
    # The roster as the undo left it, said as changes ("A gains 4 figures (now 6)", "Melee:
    # A against B begins"): the undone event's summary says where that event had left it,
    # which is no longer so.
    changes: tuple[str, ...] = ()
    # An undone dice-queue event: the dice the GM's queue holds now (its summary's "(4
    # waiting)" says the queue as that event had left it).
    queue_now: int | None = None


def undo_last(tx: BattleTx, expected: tuple[int, int] | None = None) -> Undone:
    """Undo the battle's last undoable event; with ``expected`` (battle id, event number),
    only if that is still the one (a button under an older result)."""
    check_battle(tx.battle.id if tx.battle else None, expected)
    battle = tx.require_gm("undo")
    event = tx.last_undoable()
    keeping: tuple[str, ...] = ()
    if expected is not None and expected[1] != event.seq \
            and event.kind in BESIDE_THE_ROSTER:
        # The button under a result acts while it is the last roll, as its Reroll does:
        # dice the GM queued since (for the next roll) neither stop it nor are lost to it.
        event = tx.last_undoable(skipping=BESIDE_THE_ROSTER)
        keeping = KEPT_BY_A_REROLL
    if expected is not None and expected[1] != event.seq:  # its battle: checked above
        raise NotTheLast(expected[1], event.seq)
    # A reroll or an override replaced a result: taking it back brings that result back,
    # as a GM who undoes his correction expects (docs/battles.md).
    redoing = taken_back_by(tx, event)
    was_waiting = pending_of(battle)
    queued = len(battle.dice_queue or [])
    # A melee or firefight the undo ends or puts back is said with the units it puts back:
    # the undone event's summary says it as that event had left it. One it puts back goes
    # on (again, or with the units that had left it back in it): it does not begin anew;
    # but one the result an undone reroll replaced had begun is said as it was, beginning.
    engaged = fights(tx)
    standing = tx.roster()
    undo = tx.undo(event, f"Undid #{event.seq}: {event.summary}", keeping=keeping,
                   redoing=redoing, request=undid(event),
                   then=lambda: asked_anew(tx, was_waiting))
    engagements = engagement_changes(engaged, fights(tx), tx.rules.engagements,
                                     undoing=not redoing, again=ended_before(undo.changes))
    after = tx.require_battle()
    waiting = pending_of(after)
    if waiting is not None and was_waiting is not None and waiting.seq == was_waiting.seq:
        waiting = None  # waiting before as now: its message still holds its buttons
    mention = mention_for(tx.conn, waiting.answerer, tx.actor.user_id) if waiting else None
    queue = len(after.dice_queue or [])
    put_back = roster_put_back(tx, undo.changes)
    side_line: tuple[str, ...] = ()
    if event.kind == "side_rename":
        put_back, side_line = side_put_back(put_back)
    return Undone(event.seq, event.kind, event.summary, undo.seq, turn_put_back(undo.changes),
                  tuple(sorted(e.reverts for e in redoing)), waiting=waiting,
                  battle_id=battle.id, mention=mention,
                  queued_back=queue if queue > queued else 0,
                  changes=(*side_line,
                           *describe_changes(put_back + engagements, tx.rules.wording),
                           *standing_changes(tx.rules, standing, tx.roster())),
                  queue_now=queue if event.kind == "dice_queue" else None)


def asked_anew(tx: BattleTx, was_waiting: Pending | None) -> None:
    """A question the undo puts back is asked by the undo's reply, which shows none of the
    move's rolls (and its first message may be far up the channel): what follows its answer
    gives them again rather than pointing to the question above."""
    battle = tx.require_battle()
    waiting = pending_of(battle)
    if waiting is None or not waiting.shown or (
            was_waiting is not None and waiting.seq == was_waiting.seq):
        return  # none put back, or the one waiting still: its message is as it was
    tx.touch(battle)
    battle.pending = waiting.rolls_to_give().to_dict()


def undid(event: Row) -> dict[str, Any]:
    """``UNDID_KIND`` and ``UNDID_ANSWER`` of ``event``: its answer read against the
    question it answered, the battle's before it."""
    before = next((change["before"] for change in event.changes
                   if change["table"] == "battles" and change["before"]), None)
    asked = Pending.from_dict(before["pending"]) if before and before.get("pending") else None
    return {UNDID_KIND: event.kind, UNDID_ANSWER: answer_written(event.summary, asked)}


def ended_before(changes: list[dict[str, Any]]) -> set[int]:
    """The engagements the undo's changes took from ended back to going on: the same row,
    the same fight again (one whose row they inserted begins)."""
    return {change["id"] for change in changes if change["table"] == "engagements"
            and (change["before"] or {}).get("status") == ENDED
            and (change["after"] or {}).get("status") == "active"}


def fights(tx: BattleTx) -> Roster:
    """The engagements going on, as a roster of them alone: all ``engagement_changes`` reads
    (the units and generals need not be read or built for it)."""
    return Roster(engagements=tuple(map(roster_engagement, tx.engagement_rows())))


def roster_put_back(tx: BattleTx, changes: list[dict[str, Any]]) -> list[Change]:
    """What the undo's changes did to units and generals that were there before and after
    it (a unit it took off or put back is said by the undone event's summary)."""
    found: list[Change] = []
    for change in changes:
        table, before, after = change["table"], change["before"], change["after"]
        if table not in ("units", "generals") or not before or not after:
            continue
        old, new = (Row(table, from_snapshot(MODELS[table], state)) for state in (before, after))
        found += unit_changes(tx.unit_of(old), tx.unit_of(new)) if table == "units" \
            else general_changes(roster_general(old), roster_general(new))
    return found


def side_put_back(changes: list[Change]) -> tuple[list[Change], tuple[str, ...]]:
    """A side rename taken back, said in one line ("The French side is Frnch again: 5 units
    and 1 general with it") rather than a line naming every unit that went back with it;
    the changes left over, if any, are said as any undo says them."""
    moved = [c for c in changes if c.field == "side"]
    if not moved:
        return changes, ()
    counts = [(len({c.who for c in moved if c.kind == kind}), kind)
              for kind in ("unit", "general")]
    went = " and ".join(counted(n, kind) for n, kind in counts if n)
    line = f"The {moved[0].before} side is {moved[0].after} again: {went} with it"
    return [c for c in changes if c.field != "side"], (line,)


def turn_put_back(changes: list[dict[str, Any]]) -> TurnAt | None:
    """The turn and phase the undo's changes put the battle back to, if they moved them."""
    for change in changes:
        if change["table"] != "battles" or not change["before"] or not change["after"]:
            continue
        before, after = change["before"], change["after"]
        if (before.get("turn"), before.get("phase")) != (after.get("turn"), after.get("phase")):
            return TurnAt(after["turn"], after.get("phase"))
    return None
