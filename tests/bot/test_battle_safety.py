"""Battles under load, faults and bad input, on SQLite and PostgreSQL.

- many concurrent commands in one channel: no update lost, no gap in the log;
- the same interaction delivered twice changes the battle once;
- a process killed just before or just after COMMIT leaves the battle before or after the
  command, never in between;
- closing everything and reopening plays on;
- every rejected command leaves the database untouched.
"""

from __future__ import annotations

import asyncio
import logging
import os
import subprocess
import sys
from pathlib import Path

from sqlalchemy import select

from bot.client import create_bot
from bot.offline import OfflineDiscord, command_payload, parse_command_line
from bot.storage import Database
from bot.storage.models import Base, Event, Unit

from .conftest import CHANNEL, GM_USER, GUILD, PLAYER, reply

ROOT = Path(__file__).resolve().parents[2]
SETUP = [
    '/battle start ruleset:fire-at-will name:"Siege of Louisbourg"',
    '/unit add side:British name:Grenadiers words:"inf morale=4" strength:100',
    '/unit add side:French name:Artois words:"inf morale=4" strength:100',
]
# Grenadiers 4 against Artois 3: Artois loses by 1, retires and loses 1 SP.
ONE_SP = '/melee fire-at-will attackers:Grenadiers defenders:Artois dice:"4 3"'


async def setup(session: OfflineDiscord) -> None:
    for line in SETUP:
        message = await reply(session, line, user_id=GM_USER)
        assert not message.ephemeral, message.content


async def everything(db: Database) -> dict[str, list[dict]]:
    """Every row of every table, for before/after comparisons."""
    async with db.transaction() as session:
        return {
            table.name: [dict(row._mapping) for row in
                         await session.execute(select(table).order_by(*table.primary_key))]
            for table in Base.metadata.sorted_tables
        }


async def strength_and_log(db: Database) -> tuple[int, list[int]]:
    async with db.transaction() as session:
        artois = await session.scalar(select(Unit).where(Unit.name == "Artois"))
        seqs = list(await session.scalars(select(Event.seq).order_by(Event.seq)))
    return artois.strength, seqs


async def test_concurrent_commands_in_one_channel_lose_nothing(battle_session):
    await setup(battle_session)
    command = parse_command_line(battle_session.tree, ONE_SP, guild_id=GUILD)
    results = await asyncio.gather(*(
        battle_session.invoke(command.path, command.options, channel_id=CHANNEL,
                              user_id=PLAYER + i, guild_id=GUILD)
        for i in range(30)
    ))
    assert all(len(r) == 1 and not r[0].ephemeral for r in results)
    strength, seqs = await strength_and_log(battle_session.client.db)
    assert strength == 70
    assert seqs == list(range(1, 34))


async def test_other_channels_keep_working_alongside(battle_session):
    await setup(battle_session)
    command = parse_command_line(battle_session.tree, ONE_SP, guild_id=GUILD)
    lookup = parse_command_line(battle_session.tree, '/melee fire-at-will attackers:"A: inf" '
                                'defenders:"D: inf" dice:"2 2"', guild_id=GUILD)
    runs = [battle_session.invoke(command.path, command.options, channel_id=CHANNEL,
                                  user_id=PLAYER, guild_id=GUILD) for _ in range(10)]
    runs += [battle_session.invoke(lookup.path, lookup.options, channel_id=CHANNEL + 1 + i,
                                   user_id=PLAYER, guild_id=GUILD) for i in range(10)]
    results = await asyncio.gather(*runs)
    assert all(r[0].embeds for r in results)
    strength, _ = await strength_and_log(battle_session.client.db)
    assert strength == 90


async def test_moves_in_many_channels_at_once_are_each_stored_whole(battle_session):
    """Moves asked for together in many channels (on SQLite their writes are committed
    together): each channel's battle takes each of its moves once, its log without a gap,
    and a move refused among them changes nothing of its own."""
    channels = [CHANNEL + i for i in range(8)]
    for channel in channels:
        for line in SETUP:
            message = await reply(battle_session, line, user_id=GM_USER, channel_id=channel)
            assert not message.ephemeral, message.content
    command = parse_command_line(battle_session.tree, ONE_SP, guild_id=GUILD)
    unknown = parse_command_line(battle_session.tree, ONE_SP.replace("Artois", "Bearn"),
                                 guild_id=GUILD)
    runs = [battle_session.invoke(command.path, command.options, channel_id=channel,
                                  user_id=PLAYER, guild_id=GUILD)
            for _ in range(3) for channel in channels]
    runs.append(battle_session.invoke(unknown.path, unknown.options, channel_id=channels[0],
                                      user_id=PLAYER, guild_id=GUILD))
    results = await asyncio.gather(*runs)
    assert all(len(r) == 1 and not r[0].ephemeral for r in results[:-1])
    assert results[-1][0].ephemeral and "Bearn" in results[-1][0].content
    async with battle_session.client.db.transaction() as session:
        strengths = list(await session.scalars(
            select(Unit.strength).where(Unit.name == "Artois").order_by(Unit.battle_id)))
        logs = (await session.execute(select(Event.battle_id, Event.seq)
                                      .order_by(Event.battle_id, Event.seq))).all()
    assert strengths == [97] * len(channels)
    by_battle: dict[int, list[int]] = {}
    for battle_id, seq in logs:
        by_battle.setdefault(battle_id, []).append(seq)
    assert list(by_battle.values()) == [list(range(1, 7))] * len(channels)


async def test_the_same_interaction_twice_changes_the_battle_once(battle_session, caplog):
    await setup(battle_session)
    command = parse_command_line(battle_session.tree, ONE_SP, guild_id=GUILD)
    payload = command_payload(battle_session.tree, command.path, command.options,
                              channel_id=CHANNEL, user_id=PLAYER, guild_id=GUILD,
                              application_id=battle_session.application_id)
    first = await battle_session.dispatch(payload)
    assert first.messages and not first.errors
    with caplog.at_level(logging.WARNING, logger="bot.errors"):
        second = await battle_session.dispatch(payload)
    # Discord refuses any answer to the second delivery (40060); the bot takes that quietly.
    assert second.errors == []
    assert [r.status for r in second.requests] == [400]
    assert second.messages == []
    assert any(r.levelno == logging.WARNING and "Discord error 40060" in r.getMessage()
               for r in caplog.records)
    # Refused as applied already (the store catches the unique interaction id), not an
    # unexpected error.
    assert not [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    strength, seqs = await strength_and_log(battle_session.client.db)
    assert strength == 99
    assert seqs == [1, 2, 3, 4]


async def test_rejected_commands_leave_the_database_untouched(battle_session):
    await setup(battle_session)
    db = battle_session.client.db
    before = await everything(db)
    refusals = [
        ('/melee fire-at-will attackers:Grenadier defenders:Artois', PLAYER, CHANNEL),
        ('/melee fire-at-will attackers:"Grenadiers: chargin" defenders:Artois', PLAYER, CHANNEL),
        ('/melee fire-at-will attackers:Grenadiers defenders:Artois dice:"4 9"', PLAYER, CHANNEL),
        ('/melee fire-at-will attackers:Grenadiers defenders:Artois dice:"4"', PLAYER, CHANNEL),
        ('/unit add side:British name:Artois words:"inf"', PLAYER, CHANNEL),
        ('/unit add side:British name:Rangers words:"inf morale=0"', PLAYER, CHANNEL),
        ("/gm undo", PLAYER, CHANNEL),
        ("/gm set unit:Artois field:strength value:-3", GM_USER, CHANNEL),
        ("/unit list", PLAYER, CHANNEL + 50),
        ("/gm dice dice:7", GM_USER, CHANNEL),
        ('/battle end confirm:"wrong name"', GM_USER, CHANNEL),
    ]
    for line, user, channel in refusals:
        message = await reply(battle_session, line, user_id=user, channel_id=channel)
        assert message.ephemeral, line
        assert "Traceback" not in (message.content or "")
    assert await everything(db) == before


def console(database: str, *lines: str, crash_at: str | None = None,
            user: int = GM_USER) -> subprocess.CompletedProcess:
    env = {**os.environ}
    env.pop("HUZZAH_TEST_CRASH_AT", None)
    if crash_at:
        env["HUZZAH_TEST_CRASH_AT"] = crash_at
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", "console", "--database", database, "--user",
         str(user), "--channel", str(CHANNEL)],
        input="\n".join(lines) + "\n", text=True, capture_output=True, cwd=ROOT, env=env,
        timeout=120,
    )


def url_of(db: Database) -> str:
    return db.url.render_as_string(hide_password=False)


async def test_a_crash_before_commit_leaves_the_battle_as_it_was(db):
    url = url_of(db)
    assert console(url, *SETUP).returncode == 0
    before = await everything(db)
    crashed = await asyncio.to_thread(console, url, ONE_SP, crash_at="before_commit")
    assert crashed.returncode == -9
    assert await everything(db) == before


async def test_a_crash_after_commit_keeps_the_whole_command(db):
    url = url_of(db)
    assert console(url, *SETUP).returncode == 0
    crashed = await asyncio.to_thread(console, url, ONE_SP, crash_at="after_commit")
    assert crashed.returncode == -9
    strength, seqs = await strength_and_log(db)
    assert strength == 99 and seqs == [1, 2, 3, 4]


async def test_a_battle_survives_closing_everything_and_reopening(db):
    url = url_of(db)
    async with Database(url) as first, OfflineDiscord(create_bot(first)) as session:
        await setup(session)
        await reply(session, ONE_SP)
        await reply(session, "/gm dice dice:6", user_id=GM_USER)
    async with Database(url) as second, OfflineDiscord(create_bot(second)) as session:
        queued = await reply(session, '/melee fire-at-will attackers:Grenadiers '
                                      'defenders:Artois')
        assert "1 die queued by the GM" in queued.embeds[0]["footer"]["text"]
        await reply(session, "/gm undo", user_id=GM_USER)
        strength, seqs = await strength_and_log(second)
        assert strength == 99
        assert seqs == list(range(1, 8))
        log = (await reply(session, "/battle log")).embeds[0]["description"]
        assert "~~`#6` player: " in log and "`#7` player: Undid #6 (" in log


async def test_two_bot_processes_share_one_battle(db):
    url = url_of(db)
    assert console(url, *SETUP).returncode == 0
    runs = [asyncio.to_thread(console, url, *[ONE_SP] * 10, user=PLAYER) for _ in range(3)]
    done = await asyncio.gather(*runs)
    assert all(d.returncode == 0 for d in done), [d.stderr for d in done]
    strength, seqs = await strength_and_log(db)
    assert strength == 70
    assert seqs == list(range(1, 34))


async def failed_in_one_line(session, caplog) -> str:
    """A player's command on a failing database: he is told something went wrong, and the
    log's one error line (no traceback) is returned."""
    with caplog.at_level(logging.DEBUG, logger="bot.errors"):
        message = await reply(session, '/unit add side:British name:Rangers words:"inf"',
                              user_id=PLAYER)
    assert message.ephemeral and message.content.startswith("💥 Something went wrong")
    logged = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert not any(r.exc_info for r in logged)
    (failed,) = [r.getMessage() for r in logged if r.levelno >= logging.ERROR]
    return failed


async def test_a_database_that_fails_is_one_line_in_the_log_not_a_traceback(battle_session,
                                                                            caplog):
    """A full disk or a database server gone is the host's to fix: the log says so in one
    line a command, and the player is told nothing was kept for sure."""
    import sqlite3

    from sqlalchemy.exc import OperationalError

    await setup(battle_session)
    db = battle_session.client.db

    async def full(*args, **kwargs):
        raise OperationalError("COMMIT", {}, sqlite3.OperationalError("database or disk is full"))

    db.run = full
    failed = await failed_in_one_line(battle_session, caplog)
    assert "(OperationalError: database or disk is full)" in failed, failed
    assert "\n" not in failed


async def test_a_postgresql_server_refusing_connections_is_one_line_in_the_log(battle_session,
                                                                              caplog):
    """PostgreSQL refusing a new connection mid-run (too many connections) is the host's to
    fix, as a full disk is: asyncpg's error reaches the bot as a bare DBAPIError."""
    from sqlalchemy.exc import DBAPIError

    class Refused(Exception):
        """The driver's error as SQLAlchemy's asyncpg adapter hands it on: a plain error
        carrying PostgreSQL's SQLSTATE (53300: too many connections)."""

        sqlstate = "53300"

    await setup(battle_session)

    async def too_many(*args, **kwargs):
        raise DBAPIError.instance(None, None, Refused('too many connections for role "huzzah"'),
                                  Exception)

    battle_session.client.db.run = too_many
    failed = await failed_in_one_line(battle_session, caplog)
    assert '(DBAPIError: too many connections for role "huzzah")' in failed, failed
