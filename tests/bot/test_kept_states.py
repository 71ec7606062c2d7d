"""A move after this process's own last move skips its read; a state overtaken elsewhere
costs a locked retry, never a wrong result. On SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio

from sqlalchemy import select, update

from bot.battles import moves
from bot.battles.store import snapshot
from bot.storage import Database
from bot.storage.models import Battle, Event, Unit

from .conftest import CHANNEL, GM_USER, reply
from .test_battle_safety import ONE_SP, setup, strength_and_log


def count_calls(monkeypatch, name: str) -> list[int]:
    calls: list[int] = []
    real = getattr(moves, name)

    def counted(*args):
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(moves, name, counted)
    return calls


def count_reads(monkeypatch) -> list[int]:
    return count_calls(monkeypatch, "_read")


async def test_moves_in_a_row_read_the_battle_once(battle_session, monkeypatch):
    await setup(battle_session)
    reads = count_reads(monkeypatch)
    for _ in range(3):
        assert not (await reply(battle_session, ONE_SP)).ephemeral
    assert len(reads) == 1
    assert await strength_and_log(battle_session.client.db) == (97, list(range(1, 7)))


async def test_a_kept_row_logs_as_its_state_before_what_the_last_move_logged_after(
        battle_session):
    """The snapshot a move logs of a row it changed is kept with the row, and logged as that
    row's state before by the next move: the same as a snapshot of the stored row."""
    await setup(battle_session)
    for _ in range(3):
        await reply(battle_session, ONE_SP)
    db = battle_session.client.db
    async with db.reader() as session:
        events = list(await session.scalars(select(Event).order_by(Event.seq)))
        artois = await session.scalar(select(Unit).where(Unit.name == "Artois"))
        stored = snapshot(artois)
    logged = [change for event in events[-3:] for change in event.changes
              if change["table"] == "units"]
    assert len(logged) == 3
    assert logged[1]["before"] == logged[0]["after"]
    assert logged[2]["before"] == logged[1]["after"]
    assert logged[2]["after"] == stored
    assert [c["after"]["strength"] for c in logged] == [99, 98, 97]
    # The kept roster, which takes over the entries of rows left as they were, is the one
    # its rows read into afresh.
    kept = battle_session.client.store._states.get(CHANNEL)
    fresh = moves.BattleRead(kept.battle, kept.units, kept.generals, kept.engagements)
    assert kept.roster == fresh.roster
    assert [u.strength for u in kept.roster.units if u.name == "Artois"] == [97]


async def test_any_other_command_in_the_channel_drops_the_kept_state(battle_session,
                                                                      monkeypatch):
    await setup(battle_session)
    await reply(battle_session, ONE_SP)
    await reply(battle_session, "/gm set unit:Artois field:strength value:50", user_id=GM_USER)
    reads = count_reads(monkeypatch)
    retries = count_calls(monkeypatch, "_play_locked")
    message = await reply(battle_session, ONE_SP)
    assert not message.ephemeral, message.content
    assert (len(reads), len(retries)) == (1, 0)  # read afresh, not tried on a stale state
    assert (await strength_and_log(battle_session.client.db))[0] == 49


async def test_a_state_overtaken_by_another_process_is_played_on_what_is_stored(
        battle_session, monkeypatch):
    await setup(battle_session)
    await reply(battle_session, ONE_SP)
    db = battle_session.client.db
    # Another bot process sets Artois to 50 SP (logging it moves last_seq, as any change does).
    async with db.transaction() as s:
        await s.execute(update(Unit).where(Unit.name == "Artois").values(strength=50))
        await s.execute(update(Battle).values(last_seq=Battle.last_seq + 1))
    reads = count_reads(monkeypatch)
    retries = count_calls(monkeypatch, "_play_locked")
    message = await reply(battle_session, ONE_SP)
    assert not message.ephemeral, message.content
    assert len(retries) == 1
    assert "event #6" in message.embeds[0]["footer"]["text"]
    assert len(reads) == 1  # the locked retry's read
    assert (await strength_and_log(db))[0] == 49
    # The retry kept the new state: the next move reads nothing.
    await reply(battle_session, ONE_SP)
    assert len(reads) == 1
    assert (await strength_and_log(db))[0] == 48


async def test_a_refusal_on_a_kept_state_comes_from_what_is_stored(battle_session):
    await setup(battle_session)
    await reply(battle_session, ONE_SP)
    refused = await reply(battle_session, '/melee fire-at-will attackers:Grenadiers '
                                          'defenders:Nobody dice:"4 3"')
    assert refused.ephemeral and "Nobody" in refused.content
    assert await strength_and_log(battle_session.client.db) == (99, [1, 2, 3, 4])


async def test_a_move_waits_for_a_writer_holding_the_channel_and_plays_on_what_it_wrote(
        battle_session, monkeypatch):
    await setup(battle_session)
    await reply(battle_session, ONE_SP)
    db = battle_session.client.db
    retries = count_calls(monkeypatch, "_play_locked")
    async with Database(db.url) as other, \
            other.transaction(channel_id=CHANNEL) as s:  # another process, mid-command
        await s.execute(select(Battle.last_seq))  # it has read the battle
        move = asyncio.create_task(reply(battle_session, ONE_SP))
        await asyncio.sleep(0.3)
        assert not move.done()  # it waits for the channel's lock, writing nothing
        await s.execute(update(Unit).where(Unit.name == "Artois").values(strength=50))
        await s.execute(update(Battle).values(last_seq=Battle.last_seq + 1))
    message = await asyncio.wait_for(move, 10)
    assert not message.ephemeral, message.content
    assert len(retries) == 1
    # The other writer moved last_seq to 5 (its event is left out here); the move is #6.
    assert await strength_and_log(db) == (49, [1, 2, 3, 4, 6])
