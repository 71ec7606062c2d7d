"""Shards: processes serving different shards of one bot share one PostgreSQL database. Two
bots with different shard ids (each its own engine, as two processes have) play one battle's
moves at once, from either: nothing is lost and the event log has no gap. And ``huzzah run``
hands its shard options to discord.py's AutoShardedBot."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from sqlalchemy import select

from bot import cli
from bot.client import HuzzahBot, create_bot
from bot.offline import OfflineDiscord, Snowflakes
from bot.storage import Database
from bot.storage.models import Battle, Event, Unit

from .conftest import CHANNEL, GM_USER, GUILD, PLAYER, reply, text_of
from .storage.conftest import POSTGRES_SKIP, empty_tables
from .test_decisions import CHARGE, OTHER

APPLICATION = 555_000_000_000_000_001  # one bot: both processes answer as the same application
UNITS = 12
STEPS = 9  # phases moved on: turn 1's six, then three of turn 2's, so turn 2's "firing"


@pytest.fixture
async def shared_url(postgres_url: str | None) -> str:
    if postgres_url is None:
        pytest.skip(POSTGRES_SKIP)
    async with Database(postgres_url) as database:
        await empty_tables(database)
    return postgres_url


@pytest.fixture
async def shards(shared_url: str) -> AsyncIterator[tuple[OfflineDiscord, OfflineDiscord]]:
    ids = Snowflakes()  # Discord's ids: one sequence, whichever shard an interaction reaches
    async with Database(shared_url) as first_db, Database(shared_url) as second_db, \
            OfflineDiscord(create_bot(first_db, shard_count=2, shard_ids=[0]),
                           application_id=APPLICATION, ids=ids) as first, \
            OfflineDiscord(create_bot(second_db, shard_count=2, shard_ids=[1]),
                           application_id=APPLICATION, ids=ids) as second:
        yield first, second


def unit_line(number: int, side: str) -> str:
    return (f'/unit add side:{side} name:"Company {number}" words:"inf regular morale=4" '
            "strength:4")


async def test_two_shards_play_one_battle_at_once_with_nothing_lost(shards, shared_url):
    first, second = shards
    assert (first.client.shard_count, first.client.shard_ids) == (2, [0])
    assert (second.client.shard_count, second.client.shard_ids) == (2, [1])
    await reply(first, '/battle start ruleset:fire-at-will name:"Minden" '
                'sides:"British, French"', user_id=GM_USER)

    def by_turns(number: int) -> OfflineDiscord:
        return (first, second)[number % 2]

    added = await asyncio.gather(*(
        reply(by_turns(n), unit_line(n, ("British", "French")[n % 2]), user_id=PLAYER)
        for n in range(UNITS)))
    assert not any(message.ephemeral for message in added)
    stepped = await asyncio.gather(*(reply(by_turns(n), "/battle next", user_id=GM_USER)
                                     for n in range(STEPS)))
    assert not any(message.ephemeral for message in stepped)
    # Each bot sees the other's changes: its rows kept between commands are read again.
    shown = text_of(await reply(first, "/battle show"))
    assert "Turn 2, firing" in shown and f"Company {UNITS - 1}" in shown
    assert text_of(await reply(second, "/battle show")) == shown

    # Read afresh, by a third connection: what the database holds.
    async with Database(shared_url) as database, database.engine.connect() as conn:
        turn, phase, last_seq = (await conn.execute(
            select(Battle.turn, Battle.phase, Battle.last_seq))).one()
        seqs = list(await conn.scalars(select(Event.seq).order_by(Event.seq)))
        kinds = list(await conn.scalars(select(Event.kind)))
        names = set(await conn.scalars(select(Unit.name)))
    assert (turn, phase) == (2, "firing")
    assert seqs == list(range(1, 1 + 1 + UNITS + STEPS)) and last_seq == seqs[-1]
    assert kinds.count("unit_add") == UNITS and kinds.count("turn") == STEPS
    assert names == {f"Company {n}" for n in range(UNITS)}


async def test_a_question_asked_through_one_shard_is_answered_through_the_other(shards):
    first, second = shards
    for line, user in [('/battle start ruleset:fire-at-will name:Quiberon', GM_USER),
                       ('/unit add side:French name:Hussars words:"cav morale=4" strength:4',
                        PLAYER),
                       ('/unit add side:British name:Rangers words:"inf open morale=4" '
                        'strength:4', OTHER)]:
        await reply(second, line, user_id=user)
    asked = await reply(first, CHARGE, user_id=OTHER)
    [answered] = await second.press(asked, "Stand", channel_id=CHANNEL,
                                    user_id=PLAYER, guild_id=GUILD)
    assert answered.kind == "update" and "Answered by" in answered.content
    assert not answered.ephemeral
    # The first shard's rows kept from the question are stale: it reads the answer.
    again = await reply(first, CHARGE.replace("dice:1", "dice:6"), user_id=OTHER)
    assert not again.ephemeral and "waiting for an answer" not in text_of(again)


async def test_run_serves_the_shards_it_is_given(monkeypatch, tmp_path, sqlite_template):
    import shutil

    from .storage.conftest import SQLITE_NAME, sqlite_url

    shutil.copyfile(sqlite_template, tmp_path / SQLITE_NAME)
    seen: list[tuple[int | None, list[int] | None]] = []

    async def start(self: HuzzahBot, token: str) -> None:
        seen.append((self.shard_count, self.shard_ids))

    monkeypatch.setattr(HuzzahBot, "start", start)
    options = cli.RunOptions(shard_count=4, shard_ids=[2, 3])
    assert await cli._run_bot("token", sqlite_url(tmp_path), options) == 0
    assert await cli._run_bot("token", sqlite_url(tmp_path)) == 0
    # Unsharded, it is one shard of one, as a plain discord.py Bot connects.
    assert seen == [(4, [2, 3]), (1, None)]


@pytest.mark.parametrize(("words", "said"), [
    (["--shard-ids", "0,1"], "--shard-ids needs --shard-count"),
    (["--shard-count", "2", "--shard-ids", "1,2"], "shard 2 does not exist with --shard-count 2"),
    (["--shard-count", "0"], "is not a number of shards"),
    (["--shard-count", "2", "--shard-ids", "0;1"], "is not a list of shard numbers"),
])
def test_shard_options_that_cannot_run_are_refused(words, said, capsys):
    with pytest.raises(SystemExit) as stopped:
        cli.main(["run", *words])
    assert stopped.value.code == 2
    assert said in capsys.readouterr().err
