"""Rerolling and overriding the last roll: the GM's second look at a result. Each runs
inside the command's transaction (the listing of what an override may choose is worked out
by a worker, on the roster as it was before the roll).

A roll is taken back as a whole move: the command that rolled, with the questions asked and
answered on its way (each its own event, linked by the move's first event). A reroll plays
the command again from the start, asking its questions again; an override lists and applies
any result the move could reach, whatever the answers. The dice the GM queued and the move
took stay spent: a reroll takes the next ones, or rolls.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection

from bot.battles.actor import Actor
from bot.battles.decisions import REROLLED, Asked, ask_in_battle, pending_of
from bot.battles.errors import BattleError, NotGM, NotTheLast, check_battle
from bot.battles.play import MOVE, Paused, Played, TakenBack, play_in_battle, play_settings
from bot.battles.store import TABLES, BattleTx, Row, active_battle, no_battle
from bot.workers import OutcomeJob
from rules.core.decisions import ANSWERED, CELLS, NOT_THEIRS
from rules.core.dice import ReplaySource
from rules.core.outcomes import Enumeration
from rules.core.roster import Roster, describe_changes, engagement_changes, roster_changes

RESOLUTION_KINDS = ("resolution", "reroll", "override", "question")
# Events that leave units alone; a reroll or override may reach past them.
BESIDE_THE_ROSTER = ("dice_queue", "gm_role")
# What a taken-back move leaves as it is now: the GM's queue (the dice it took stay spent).
KEPT_BY_A_REROLL = ("dice_queue",)

BACK_AS_BEFORE = "Back as before the first roll: "
"""Heads a roster line of what the replaced result did that no longer stands (a reroll's)."""
BACK_AS_BEFORE_OVERRIDE = "Back as before the result replaced: "
"""The same for an override: the GM set a result, nobody rolled again."""

MOVE_EVENTS = 50
"""More events than one move logs (its roll and the answers on its way)."""

ListingKey = tuple[int, int]  # (battle id, seq of the move's last event)


def last_move(tx: BattleTx, expected: ListingKey | None = None) -> list[Row]:
    """The events of the last roll, oldest first: the command's, then those of the answers
    given on its way (and a question still waiting, if any). With ``expected`` (a button
    under a result, of this battle), only while that result's event is still the last."""
    last = tx.last_undoable(skipping=BESIDE_THE_ROSTER, what="reroll or override")
    if expected is not None and last.seq != expected[1]:
        raise NotTheLast(expected[1], last.seq)
    if last.kind not in RESOLUTION_KINDS or not last.request:
        raise BattleError(
            f"The last event (#{last.seq}, {last.kind.replace('_', ' ')}) is not a roll.",
            hint="Reroll and override work on the last roll (a melee, charge, assault or "
                 "test); `/gm undo` takes back anything.")
    first = last.request.get(MOVE, last.seq)
    if first == last.seq:
        return [last]
    return tx.events_since(first, skipping=BESIDE_THE_ROSTER)


def move_options(events: list[Row]) -> dict[str, Any]:
    """The command's options as first given: answers given ahead (``choices``) stay, those
    the bot asked for go, to be asked again (or walked, for an override). The command is
    played again: an answer given ahead that fits no question is set aside, as it was.
    An answer given ahead to a chart question stays with the cell it was read at, on
    whichever of the move's events that was (``CELLS``)."""
    options = {k: v for k, v in events[0].request["options"].items() if k != ANSWERED}
    cells: dict[str, list[list[str]]] = {}
    for event in events:
        for key, read in ((event.request or {}).get("options", {}).get(CELLS) or {}).items():
            cells.setdefault(key, [])
            cells[key] += [cell for cell in read if cell not in cells[key]]
    if cells:
        options[CELLS] = cells
    return {**options, ANSWERED: ""}


def numbers(events: list[Row]) -> str:
    return f"#{events[0].seq}" if len(events) == 1 else f"#{events[0].seq}–#{events[-1].seq}"


# Why a reroll or an override took back the move's events, as their undo events say it.
TO_REROLL, TO_OVERRIDE = "to reroll it", "to override it"


def take_back(tx: BattleTx, events: list[Row], why: str) -> None:
    """Undo each event of the move, newest first, leaving the GM's dice queue as it is."""
    for event in reversed(events):
        tx.undo(event, f"Undid #{event.seq} {why}", keeping=KEPT_BY_A_REROLL)


def taken_back_by(tx: BattleTx, replacing: Row) -> list[Row]:
    """The undo events with which a reroll or an override took back the move it replaced:
    those recorded just before it, newest first."""
    rerolled = replacing.kind == "reroll" or (
        replacing.kind == "question" and (replacing.request or {}).get(REROLLED, False))
    if not rerolled and replacing.kind != "override":
        return []
    why = TO_REROLL if rerolled else TO_OVERRIDE
    found: list[Row] = []
    for event in tx.events_before(replacing.seq, MOVE_EVENTS):
        if event.kind != "undo" or event.undone_by is not None or \
                not event.summary.endswith(why):
            break
        found.append(event)
    return found


def job_before(tx: BattleTx, events: list[Row]) -> OutcomeJob:
    """The move's command on the roster as it was before it: what a worker re-runs."""
    for event in reversed(events):
        tx.revert(event)
    request = events[0].request
    battle = tx.require_battle()
    return OutcomeJob(battle.ruleset, request["procedure"], move_options(events),
                      tx.roster(), play_settings(battle.ruleset, battle.settings,
                                                 tx.charts_content()))


def reroll_last(tx: BattleTx, expected: ListingKey | None = None) -> Played | Asked:
    """Undo the last roll, its answers with it, and play its command again on fresh dice."""
    check_battle(tx.battle.id if tx.battle else None, expected)
    tx.require_gm("reroll")
    events = last_move(tx, expected)
    replaced = tx.roster()  # as the result it replaces left it
    waited = pending_of(tx.battle)  # the question the move waited on, taken back with it
    dropped = None if waited is None else TakenBack(waited.seq, waited.question.text)
    take_back(tx, events, TO_REROLL)
    base = tx.roster()  # as before the move
    procedure, options = events[0].request["procedure"], move_options(events)
    prefix = f"Reroll of {numbers(events)}: "
    try:
        played = play_in_battle(tx, procedure, options, None, kind="reroll",
                                summary_prefix=prefix)
    except Paused as paused:  # the new dice lead to a question for a player
        if not paused.faces and len(events) == 1 and events[0].kind == "question":
            # Asked before any die, and not answered: played again, it asks the same.
            raise BattleError(
                f"The last move ({numbers(events)}) has rolled no dice yet: it waits on its "
                "question, and a reroll would ask it again.",
                hint="Answer it (its buttons or `/answer`), or take the move back with "
                     "`/gm undo`.") from None
        asked = ask_in_battle(tx, procedure, options, None, paused,
                              mover=events[0].user_id, summary_prefix=prefix, rerolled=True)
        # The question keeps the new roll's effects off the roster until it is answered:
        # all the replaced result did is undone now, said before the question.
        return replace(asked, changes=tuple(put_back(tx, base, replaced)), dropped=dropped)
    if not played.resolution.rolls:  # the same command on the same roster: the same result
        raise BattleError(
            f"The last result ({numbers(events)}) rolled no dice: a reroll would give it again.",
            hint="`/gm undo` takes it back; `/gm set` changes a unit by hand.")
    return replace(said_back(tx, played, base, replaced), dropped=dropped)


def said_back(tx: BattleTx, played: Played, base: Roster, replaced: Roster,
              heading: str = BACK_AS_BEFORE) -> Played:
    """The new result's reply, with what the result it replaces had done that no longer
    stands, which the players read last: a unit the first roll routed and the second left
    alone is said to be back. Of a unit the new result moved too, each field the new result
    left alone: its own line does not say it, and the players last read the first roll's
    (the blocks a retreat lost come back; a rout the new roll did not repeat is over)."""
    return replace(played, changes=[*(played.changes or []),
                                    *put_back(tx, base, replaced, heading)])


def put_back(tx: BattleTx, base: Roster, replaced: Roster,
             heading: str = BACK_AS_BEFORE) -> list[str]:
    """The roster lines of what the replaced result did that the roster no longer holds
    (see ``said_back``), each headed as the first roll's undoing."""
    now = tx.roster()
    words = tx.rules.engagements
    new = roster_changes(base, now) + engagement_changes(base, now, words)
    moved = {(c.kind, c.who) for c in new}
    touched = {(c.kind, c.who, c.field) for c in new}
    back = [c for c in roster_changes(replaced, now) + engagement_changes(replaced, now, words)
            if (c.kind, c.who) not in moved or (c.kind, c.who, c.field) not in touched]
    # Said as the first roll's undoing: "A gains 3 figures" alone reads as the new roll's.
    # One line, headed once: a heading on each unit's line would fill a phone's screen.
    lines = describe_changes(back, tx.rules.wording)
    return [heading + "; ".join(lines)] if lines else []


def last_roll(conn: Connection, channel_id: int, actor: Actor) -> ListingKey:
    """Which roll an override would replace (for a GM), read on ``conn``."""
    battle = active_battle(conn, channel_id)
    if battle is None:
        raise no_battle(conn, channel_id)
    if not actor.is_gm(battle.created_by, battle.gm_role_id):
        raise NotGM("override a result")
    events = last_move(BattleTx(conn, battle, actor, channel_id, None, "read"))
    return battle.id, events[-1].seq


def move_asked(conn: Connection, key: ListingKey) -> bool:
    """Whether the roll ``key`` names was asked its questions on its way (answered with
    buttons or `/answer`, each answer an event of its own), rather than given every answer
    ahead in `choices`: an undo then puts its last question back."""
    events = TABLES["events"]
    request = conn.scalar(select(events.c.request).where(events.c.battle_id == key[0],
                                                          events.c.seq == key[1]))
    return bool(request) and request.get(MOVE, key[1]) != key[1]


def listing_job(tx: BattleTx) -> tuple[ListingKey, OutcomeJob]:
    """The last roll, and its command on the roster as it was before it (``tx`` is rolled
    back afterwards: a peek)."""
    events = last_move(tx)
    return (tx.require_battle().id, events[-1].seq), job_before(tx, events)


def override_last(tx: BattleTx, key: ListingKey, found: Enumeration,
                        result: str) -> Played:
    """Replace the last roll's result with ``result``, one the listing found."""
    tx.require_gm("override a result")
    events = last_move(tx)
    if (tx.require_battle().id, events[-1].seq) != key:
        raise BattleError(f"The last roll changed while I worked out its results "
                          f"(it is now #{events[-1].seq}).", hint="Run `/gm override` again.")
    chosen = found.find(result)
    if chosen is None:
        raise not_listed(found)
    replaced = tx.roster()  # as the result it replaces left it
    take_back(tx, events, TO_OVERRIDE)
    base = tx.roster()  # as before the move
    # The answers on the way to this result replace those the players gave: the GM's, who
    # may give any.
    options = move_options(events)
    options.pop(NOT_THEIRS, None)
    if chosen.answers:
        options[ANSWERED] = "; ".join(chosen.answers)
    played = play_in_battle(
        tx, events[0].request["procedure"], options, None, kind="override",
        forced=ReplaySource(chosen.path), summary_prefix=f"GM override of {numbers(events)}: ")
    return said_back(tx, played, base, replaced, BACK_AS_BEFORE_OVERRIDE)


def not_listed(listing: Enumeration) -> BattleError:
    if listing.cut_short:
        return BattleError("That matches none of the results I could list: this roll has "
                           "too many to list them all.",
                           hint="Type a word of the one you want in the `result` option and "
                                "pick it from what the option offers, or queue dice with "
                                "`/gm dice` and use `/gm reroll`.")
    # A unit the results name, not merely the roster's first: the roll's own (the unit
    # tested) before one its results only touch (the opponent that follows up).
    named = next((unit for unit in (*listing.named, *listing.units)
                  if any(unit in outcome.label for outcome in listing.outcomes)), None)
    example = f" (`{named}`, say)" if named else ""
    return BattleError("That is not a result the rules allow here.",
                       hint=f"Type a word of the one you want in the `result` option{example} "
                            "and pick it from what the option offers, or use `/gm override` "
                            "alone for a menu.")
