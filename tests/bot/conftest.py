"""A Huzzah bot behind the offline Discord layer: raw payloads in, captured HTTP payloads out."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.client import create_bot
from bot.offline import OfflineDiscord, SentMessage, parse_command_line

GUILD = 10
CHANNEL = 100
PLAYER = 1000


@pytest.fixture
async def discord_session() -> AsyncIterator[OfflineDiscord]:
    async with OfflineDiscord(create_bot()) as session:
        yield session


async def send(session: OfflineDiscord, line: str, **where: Any) -> list[SentMessage]:
    """Type a line as in Discord's client; return every message the bot sent for it."""
    command = parse_command_line(session.tree, line, guild_id=GUILD)
    where = {"channel_id": CHANNEL, "user_id": PLAYER, "guild_id": GUILD, **where}
    return await session.invoke(command.path, command.options, **where)


async def reply(session: OfflineDiscord, line: str, **where: Any) -> SentMessage:
    messages = await send(session, line, **where)
    assert len(messages) == 1, messages
    return messages[0]
