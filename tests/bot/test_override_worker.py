"""/gm override works out a big melee's results in a worker process, not on the event loop."""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import multiprocessing
import time
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest
from sqlalchemy import select

import bot.cogs.gm
from bot.offline import OfflineDiscord
from bot.storage.models import Event
from bot.workers import OutcomeJob, OutcomeWorker, TooSlow, work_out, work_out_odds
from rules.core.errors import InvalidInput
from rules.core.odds import MIN_SAMPLES
from rules.core.roster import Roster

from .conftest import CHANNEL, GM_USER, GUILD, PLAYER, reply, send
from .worker_gate import after_gate, gate, open_gate

SIDE = 10
BRITISH = [f"Foot {i}" for i in range(1, SIDE + 1)]
FRENCH = [f"Ligne {i}" for i in range(1, SIDE + 1)]
BIG_MELEE = (f'/melee fire-at-will attackers:"{"; ".join(BRITISH)}" '
             f'defenders:"{"; ".join(FRENCH)}"')
LOOKUP = '/melee fire-at-will attackers:"A: inf" defenders:"D: inf" dice:"2 2"'
HANG_GUARD = 60  # seconds: a wait that only keeps a broken test from hanging


async def big_battle(session: OfflineDiscord) -> None:
    await reply(session, '/battle start ruleset:fire-at-will name:"Fontenoy"', user_id=GM_USER)
    for side, names in (("British", BRITISH), ("French", FRENCH)):
        for name in names:
            added = await reply(session, f'/unit add side:{side} name:"{name}" '
                                         'words:"inf morale=4" strength:10', user_id=GM_USER)
            assert not added.ephemeral, added.content
    # Equal dice for equal units: a draw, in which nobody routs, so that the same melee may
    # be rolled again (random dice could rout a unit, and a routing unit fights no melee).
    melee = await reply(session, f'{BIG_MELEE} dice:"{" ".join(["3"] * 2 * SIDE)}"')
    assert not melee.ephemeral, melee.content
    assert melee.embeds[0]["title"].startswith("↔️ Drawn"), melee.embeds[0]["title"]


async def listing_started(session: OfflineDiscord, override: asyncio.Task) -> None:
    """Wait until the override has handed its listing to the worker (no fixed sleep)."""
    async def started() -> None:
        while session.client.outcomes.size == 0:
            assert not override.done(), override.result()
            await asyncio.sleep(0.005)

    await asyncio.wait_for(started(), HANG_GUARD)


def hold_listings(session: OfflineDiscord) -> asyncio.Event:
    """Keep every override waiting for its listing until the test sets the event returned:
    the worker may be quicker than the test's next command on a busy machine."""
    release = asyncio.Event()
    worker = session.client.outcomes
    real = worker.result

    async def held(listing, timeout=None):
        await release.wait()
        return await real(listing, timeout)

    worker.result = held
    return release


def gate_listings(session: OfflineDiscord, path: Path) -> None:
    """Hold every listing in the worker process itself until the gate at ``path`` opens."""
    worker = session.client.outcomes
    submit = worker._submit

    def gated(work, *args, **kwargs):
        if work is work_out:
            return submit(functools.partial(after_gate, str(path), work), *args, **kwargs)
        return submit(work, *args, **kwargs)

    worker._submit = gated


async def kinds_of_events(session: OfflineDiscord) -> list[str]:
    async with session.client.db.transaction() as s:
        return list(await s.scalars(select(Event.kind).order_by(Event.seq)))


async def results(session: OfflineDiscord, user: int, typed: str = "") -> list[dict]:
    return await session.autocomplete(["gm", "override"], {"result": typed}, "result",
                                      channel_id=CHANNEL, user_id=user, guild_id=GUILD)


async def test_other_channels_are_answered_while_an_override_is_worked_out(discord_session,
                                                                          tmp_path):
    await big_battle(discord_session)
    with gate(tmp_path) as listing_gate:
        # The listing stays in the worker process until the gate opens: everything the bot
        # answers meanwhile was answered while the override was being worked out.
        gate_listings(discord_session, listing_gate)
        override = asyncio.create_task(
            send(discord_session, "/gm override result:abc", user_id=GM_USER))
        await listing_started(discord_session, override)
        lookup = await send(discord_session, LOOKUP, channel_id=CHANNEL + 1)
        assert lookup[0].embeds and not lookup[0].ephemeral
        assert not override.done()  # the lookup was not held up behind the listing
        open_gate(listing_gate)
        refused = await override
    # The made-up result is refused privately, and nothing was applied.
    assert refused[-1].ephemeral
    assert "That is not a result the rules allow here. Type a word of the one you want in the " \
        "`result` option" in refused[-1].content
    assert (await kinds_of_events(discord_session))[-1] == "resolution"


async def test_a_listing_not_ready_is_offered_as_still_working_and_picking_it_says_so(
        discord_session, tmp_path, monkeypatch):
    await big_battle(discord_session)
    monkeypatch.setattr(bot.cogs.gm, "AUTOCOMPLETE_WAIT", 0.01)
    with gate(tmp_path) as listing_gate:
        gate_listings(discord_session, listing_gate)  # the listing cannot finish meanwhile
        choices = await results(discord_session, GM_USER)
        assert [c["value"] for c in choices] == ["still-working"]
        assert choices[0]["name"].startswith("⏳ Still working out the possible results")
        picked = await send(discord_session, "/gm override result:still-working",
                            user_id=GM_USER)
        open_gate(listing_gate)
    assert picked[-1].ephemeral
    assert "The list of results was not ready yet." in picked[-1].content
    assert (await kinds_of_events(discord_session))[-1] == "resolution"  # nothing applied


async def test_the_listing_is_cached_and_offered_to_gms_only(discord_session):
    await big_battle(discord_session)
    assert await results(discord_session, PLAYER) == []

    async def listed() -> list[dict]:
        choices = []
        while not choices or choices[0]["value"] == "still-working":
            choices = await results(discord_session, GM_USER)
        return choices

    choices = await asyncio.wait_for(listed(), HANG_GUARD)
    assert 1 < len(choices) <= 25
    assert await results(discord_session, PLAYER) == []  # cached, but still not for players
    # The override that follows the autocomplete reuses its listing: no new work.
    def no_second_listing(*args, **kwargs):
        raise AssertionError("the listing was worked out twice")

    discord_session.client.outcomes._submit = no_second_listing
    message = await reply(discord_session, f"/gm override result:{choices[0]['value']}",
                          user_id=GM_USER)
    assert not message.ephemeral and message.embeds
    assert (await kinds_of_events(discord_session))[-2:] == ["undo", "override"]


async def test_players_cannot_start_a_listing(discord_session):
    await big_battle(discord_session)
    message = await reply(discord_session, "/gm override result:abc")
    assert message.ephemeral and "Only the battle's GM can override a result" in \
        message.content
    assert discord_session.client.outcomes.size == 0  # nothing was started for a player


async def test_a_roll_made_while_the_listing_runs_is_not_overridden(discord_session):
    await big_battle(discord_session)
    release = hold_listings(discord_session)
    override = asyncio.create_task(send(discord_session, "/gm override result:abc",
                                        user_id=GM_USER))
    await listing_started(discord_session, override)
    assert not override.done()
    # No transaction is held while the listing runs: the channel takes another roll.
    second = await reply(discord_session, BIG_MELEE)
    assert not second.ephemeral, second.content
    release.set()
    refused = (await override)[-1]
    assert refused.ephemeral
    assert "The last roll changed while I worked out its results" in refused.content
    assert (await kinds_of_events(discord_session))[-2:] == ["resolution", "resolution"]


async def test_the_worker_stops_with_the_bot(discord_session):
    before = set(multiprocessing.active_children())
    await big_battle(discord_session)
    await send(discord_session, "/gm override result:abc", user_id=GM_USER)
    assert set(multiprocessing.active_children()) - before  # the worker process is up
    await discord_session.close()
    assert set(multiprocessing.active_children()) <= before


async def test_a_job_the_rules_refuse_comes_back_as_a_refusal_and_is_not_kept():
    worker = OutcomeWorker()
    job = OutcomeJob("fire-at-will", "melee", {"attackers": "Foot 1", "defenders": "Ligne 1"},
                     Roster(), {})  # an empty roster: neither unit exists
    try:
        with pytest.raises(InvalidInput, match="There is no unit called `Foot 1`"):
            await worker.result(worker.start("bad", job))
        assert worker.cached("bad") is None
    finally:
        await worker.close()


async def test_a_listing_cut_short_says_why_a_result_is_missing(discord_session):
    await big_battle(discord_session)
    discord_session.client.outcomes.seconds = 0  # every listing runs out of time at once
    refused = (await send(discord_session, "/gm override result:abc", user_id=GM_USER))[-1]
    assert refused.ephemeral
    assert refused.content.startswith("⚠️ That matches none of the results I could list: "
                                      "this roll has too many to list them all. Type a word")
    assert "`/gm dice`" in refused.content and "`/gm reroll`" in refused.content
    assert (await kinds_of_events(discord_session))[-1] == "resolution"


# Five units a side, one d6 each: too many results to walk, so odds are sampled until
# the deadline.
TOO_BIG_TO_WALK = OutcomeJob("fire-at-will", "melee",
                             {"attackers": "; ".join(f"A{i}: inf" for i in range(5)),
                              "defenders": "; ".join(f"D{i}: inf" for i in range(5))},
                             None, {})


SMALL_LISTING = OutcomeJob("fire-at-will", "melee", {"attackers": "A: inf", "defenders": "B: inf"},
                          None, {})


def gate_odds(worker: OutcomeWorker, path: Path) -> list[float]:
    """Hold every odds request in the worker process until the gate at ``path`` opens;
    return the deadline handed over with each, as they are submitted."""
    deadlines: list[float] = []
    submit = worker._submit

    def gated(work, *args, **kwargs):
        if work is work_out_odds:
            deadlines.append(args[1])
            return submit(functools.partial(after_gate, str(path), work), *args, **kwargs)
        return submit(work, *args, **kwargs)

    worker._submit = gated
    return deadlines


async def test_odds_queued_behind_others_answer_by_their_own_deadline(tmp_path):
    """A request's deadline counts from the request, not from when the worker gets to it:
    one that waited past it in the queue answers at once with the smallest estimate rather
    than failing, or taking its whole time again."""
    worker = OutcomeWorker(odds_seconds=0.2)
    try:
        with gate(tmp_path) as odds_gate:
            deadlines = gate_odds(worker, odds_gate)
            requests = asyncio.gather(worker.odds(TOO_BIG_TO_WALK), worker.odds(TOO_BIG_TO_WALK))

            async def past_the_deadlines() -> None:
                while len(deadlines) < 2 or time.monotonic() <= max(deadlines):
                    await asyncio.sleep(0.01)

            await asyncio.wait_for(past_the_deadlines(), HANG_GUARD)
            open_gate(odds_gate)
            first, second = await requests
        assert not first.exact and not second.exact
        assert first.samples == second.samples == MIN_SAMPLES
    finally:
        await worker.close()


async def test_a_listing_does_not_wait_behind_the_odds(tmp_path):
    """Listings for /gm override have a process of their own: a GM's listing is answered
    while the odds of a command are still being worked out."""
    worker = OutcomeWorker()
    try:
        with gate(tmp_path) as odds_gate:
            deadlines = gate_odds(worker, odds_gate)
            odds = asyncio.ensure_future(worker.odds(TOO_BIG_TO_WALK))
            while not deadlines:  # the odds are submitted before the listing
                await asyncio.sleep(0)
            listed = await worker.result(worker.start("quick", SMALL_LISTING), HANG_GUARD)
            assert listed.outcomes
            assert not odds.done()
            open_gate(odds_gate)
            await odds
    finally:
        await worker.close()


async def test_odds_from_a_worker_that_died_say_so_plainly():
    worker = OutcomeWorker()
    try:
        future = concurrent.futures.Future()
        future.set_exception(BrokenProcessPool("killed"))
        worker._submit = lambda *args, **kwargs: future
        with pytest.raises(TooSlow, match="taking too long"):
            await worker.odds(TOO_BIG_TO_WALK)
    finally:
        await worker.close()
