"""Rerolling and overriding the last roll: the GM's second look at a result. Each runs
inside the command's transaction (the listing of what an override may choose is worked out
by a worker, on the roster as it was before the roll)."""

from __future__ import annotations

from typing import Any

from bot.battles.actor import Actor
from bot.battles.decisions import Asked, ask_in_battle
from bot.battles.errors import BattleError, NoBattle, NotGM, NotTheLast
from bot.battles.play import Paused, Played, play_in_battle, play_settings
from bot.battles.store import BattleTx, active_battle
from bot.storage.database import Database
from bot.workers import OutcomeJob
from rules.core.decisions import ANSWERED
from rules.core.dice import ReplaySource
from rules.core.outcomes import Enumeration

RESOLUTION_KINDS = ("resolution", "reroll", "override")
# Events that leave units alone; a reroll or override may reach past them.
BESIDE_THE_ROSTER = ("dice_queue", "gm_role")

ListingKey = tuple[int, int]  # (battle id, event seq)


async def last_resolution(tx: BattleTx):
    event = await tx.last_undoable(skipping=BESIDE_THE_ROSTER)
    if event.kind not in RESOLUTION_KINDS or not event.request:
        raise BattleError(
            f"The last event (#{event.seq}, {event.kind.replace('_', ' ')}) is not a roll.",
            hint="Reroll and override work on the last melee, charge or test; "
            "`/gm undo` takes back anything.",
        )
    return event


async def job_before(tx: BattleTx, event) -> OutcomeJob:
    """The event's command on the roster as it was before it: what a worker re-runs."""
    await tx.revert(event)
    request = event.request
    battle = tx.require_battle()
    charts = await tx.charts_row()
    return OutcomeJob(battle.ruleset, request["procedure"], request["options"],
                      await tx.roster(), play_settings(battle.ruleset, battle.settings,
                                                       charts.content if charts else None))


async def reroll_last(tx: BattleTx, expected: ListingKey | None = None) -> Played | Asked:
    """Undo the last roll and play its command again on fresh dice; with ``expected``, only
    while that is still the last roll (a button under it)."""
    tx.require_gm("reroll")
    event = await last_resolution(tx)
    battle_id = tx.require_battle().id
    if expected is not None and expected != (battle_id, event.seq):
        raise NotTheLast(expected[1], event.seq if expected[0] == battle_id else None)
    await tx.undo(event, f"Undid #{event.seq} to reroll it")
    request = event.request
    # Answers given after seeing the old dice are asked again; those given ahead stay.
    options = {k: v for k, v in request["options"].items() if k != ANSWERED}
    try:
        return await play_in_battle(tx, request["procedure"], options, None, kind="reroll",
                                    summary_prefix=f"Reroll of #{event.seq}: ")
    except Paused as paused:  # the new dice lead to a question for a player
        return await ask_in_battle(tx, request["procedure"], options, None, paused)


async def last_roll(db: Database, channel_id: int, actor: Actor) -> ListingKey:
    """Which roll an override would replace (for a GM): one read, no lock."""
    async with db.reader() as session:
        battle = await active_battle(session, channel_id)
        if battle is None:
            raise NoBattle()
        if not actor.is_gm(battle.created_by, battle.gm_role_id):
            raise NotGM("override a result")
        event = await last_resolution(BattleTx(session, battle, actor, channel_id, None,
                                               "read"))
        return battle.id, event.seq


async def listing_job(tx: BattleTx) -> tuple[ListingKey, OutcomeJob]:
    """The last roll, and its command on the roster as it was before it (``tx`` is rolled
    back afterwards: a peek)."""
    event = await last_resolution(tx)
    return (tx.require_battle().id, event.seq), await job_before(tx, event)


async def override_last(tx: BattleTx, key: ListingKey, found: Enumeration,
                        result: str) -> Played:
    """Replace the last roll's result with ``result``, one the listing found."""
    tx.require_gm("override a result")
    event = await last_resolution(tx)
    if (tx.require_battle().id, event.seq) != key:
        raise BattleError(f"The last roll changed while I worked out its results "
                          f"(it is now #{event.seq}).", hint="Run `/gm override` again.")
    chosen = found.find(result)
    if chosen is None:
        raise not_listed(found)
    await tx.revert(event)
    undo = await tx.record("undo", f"Undid #{event.seq} to override it", reverts=event.seq)
    event.undone_by = undo.seq
    request = event.request
    # The answers on the way to this result replace those the players gave.
    options: dict[str, Any] = {k: v for k, v in request["options"].items() if k != ANSWERED}
    if chosen.answers is not None:
        options[ANSWERED] = "; ".join(chosen.answers)
    return await play_in_battle(
        tx, request["procedure"], options, None, kind="override",
        forced=ReplaySource(chosen.path), summary_prefix=f"GM override of #{event.seq}: ")


def not_listed(listing: Enumeration) -> BattleError:
    if listing.cut_short:
        return BattleError("That is not among the results I could work out in time; "
                           "this roll has too many to list them all.",
                           hint="Pick one from the list, or queue dice with `/gm dice` and "
                           "use `/gm reroll`.")
    return BattleError("That is not a result the rules allow here.",
                       hint="Pick one from the list the option offers.")
