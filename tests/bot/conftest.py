"""A Huzzah bot behind the offline Discord layer: raw payloads in, captured HTTP payloads out.

``discord_session`` runs on a fresh SQLite database; ``battle_session`` runs once per database
backend (PostgreSQL when ``HUZZAH_TEST_POSTGRES_URL`` is set, skipped visibly otherwise).
"""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest

import bot.buttons
import bot.cogs.gm
import bot.respond
import bot.workers
from bot.client import create_bot
from bot.offline import OfflineDiscord, SentMessage, parse_command_line
from bot.storage import Database
from tests.bot.storage.conftest import (  # noqa: F401  (fixtures shared with these tests)
    SQLITE_NAME,
    db,
    postgres_url,
    sqlite_template,
    sqlite_url,
)

GUILD = 10
CHANNEL = 100
PLAYER = 1000
GM_USER = 2000
MANAGE_CHANNELS = discord.Permissions(manage_channels=True).value
UNHURRIED_SECONDS = 600.0
"""The wall-clock limits' stand-in in tests: a wait that only guards against a hang."""
EITHER_ODDS_SECONDS = 1.0
"""The odds' time for a test that holds of an exact reply and of an estimate alike: a walk
past it gives way to an estimate rather than take most of a minute (La Bataille's charge
example is 156,816 paths)."""


@pytest.fixture(autouse=True)
def unhurried(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a command sends does not depend on how busy the machine is.

    The bot defers a reply after 2 seconds, Discord drops an interaction not answered in 3,
    the offline harness waits 5 seconds for the tasks a command starts, and a worker process
    is given a few seconds of work and of grace: all wall-clock, so on a loaded machine any
    command could cross them. Here each is a bound against a hang only; the tests of those
    limits set their own (``test_respond``, ``test_gm_hardening``, ``test_gm_buttons``,
    ``test_mentions``, ``test_offline_harness``, ``test_override_worker``).
    """
    monkeypatch.setattr(bot.respond, "DEFER_AFTER", UNHURRIED_SECONDS)
    monkeypatch.setattr(bot.buttons, "DEFER_AFTER", UNHURRIED_SECONDS)
    monkeypatch.setattr(bot.workers, "GRACE_SECONDS", UNHURRIED_SECONDS)
    # How long the override's result option waits for the listing before it offers "still
    # working" (``test_override_worker`` tests that choice with a wait of its own).
    monkeypatch.setattr(bot.cogs.gm, "AUTOCOMPLETE_WAIT", UNHURRIED_SECONDS)
    # An override's listing of results gets a few seconds of work in the worker, the odds of
    # a command a few more: an exact walk the clock cut short would read as an estimate ("~")
    # on a busy machine (``test_odds`` tests the estimate with a short time of its own).
    for limit in ("seconds", "odds_seconds"):
        monkeypatch.setitem(bot.workers.OutcomeWorker.__init__.__kwdefaults__, limit,
                            UNHURRIED_SECONDS)
    defaults = OfflineDiscord.__init__.__kwdefaults__
    monkeypatch.setitem(defaults, "response_deadline", None)
    monkeypatch.setitem(defaults, "settle_timeout", UNHURRIED_SECONDS)


@pytest.fixture
async def discord_session(
    tmp_path: Path, sqlite_template: Path  # noqa: F811
) -> AsyncIterator[OfflineDiscord]:
    shutil.copyfile(sqlite_template, tmp_path / SQLITE_NAME)
    async with Database(sqlite_url(tmp_path)) as database, \
            OfflineDiscord(create_bot(database)) as session:
        yield session


@pytest.fixture
async def battle_session(db: Database) -> AsyncIterator[OfflineDiscord]:  # noqa: F811
    async with OfflineDiscord(create_bot(db)) as session:
        yield session


async def send(session: OfflineDiscord, line: str, **where: Any) -> list[SentMessage]:
    """Type a line as in Discord's client; return every message the bot sent for it."""
    command = parse_command_line(session.tree, line, guild_id=GUILD)
    where = {"channel_id": CHANNEL, "user_id": PLAYER, "guild_id": GUILD, **where}
    return await session.invoke(command.path, command.options, **where)


async def reply(session: OfflineDiscord, line: str, **where: Any) -> SentMessage:
    """The one message the line is answered with; for an answer by `/answer`, the question's
    message it turned into the result (the reply itself only points to it)."""
    messages = await send(session, line, **where)
    if len(messages) == 2 and messages[0].kind == "edit" and not messages[1].embeds:
        assert line.startswith("/answer") and messages[1].content.startswith("✅ Answered")
        return messages[0]
    if len(messages) == 2 and messages[0].kind == "edit" and line.startswith("/answer"):
        return messages[1]  # a further question; the answered one lost its buttons
    assert len(messages) == 1, messages
    return messages[0]


async def played(session: OfflineDiscord, *lines: str, channel: int = CHANNEL) -> None:
    """Lines the GM types to set a battle up, each of which must work."""
    for line in lines:
        message = await reply(session, line, user_id=GM_USER, channel_id=channel)
        assert not message.ephemeral, (line, message.content)


def text_of(message: SentMessage) -> str:
    """Everything a player reads in a message, as one string."""
    parts = [message.content or ""]
    for embed in message.embeds:
        parts += [embed.get("title", ""), embed.get("description", "")]
        parts += [f"{f['name']}\n{f['value']}" for f in embed.get("fields", [])]
        parts.append(embed.get("footer", {}).get("text", ""))
    return "\n".join(parts)


async def steps_of(session: OfflineDiscord, message: SentMessage, **where: Any) -> str:
    """What the Steps button under a result shows, privately: the procedure step by step."""
    where = {"channel_id": CHANNEL, "user_id": PLAYER, "guild_id": GUILD, **where}
    shown = await session.press(message, "📜 Steps", **where)
    assert shown and all(m.ephemeral for m in shown), [m.content for m in shown]
    return "\n".join(text_of(m) for m in shown)


async def full_text(session: OfflineDiscord, message: SentMessage, **where: Any) -> str:
    """The result as posted, then its steps behind the Steps button."""
    return text_of(message) + "\n" + await steps_of(session, message, **where)


def writes_begun(database: Database) -> asyncio.Event:
    """An event set once a unit of work that writes is handed to ``database``: from then on
    the command is in the middle of its work, waiting for the channel if another holds it."""
    begun = asyncio.Event()
    run = database.run

    async def watched(work: Any, *args: Any, write: bool = False, **options: Any) -> Any:
        if write:
            begun.set()
        return await run(work, *args, write=write, **options)

    database.run = watched  # type: ignore[method-assign]
    return begun
