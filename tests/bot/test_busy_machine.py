"""On a loaded machine a command may take seconds of wall-clock time: in the tests, what it
sends stays the same (``unhurried`` in conftest.py)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

import bot.offline.transport
from bot.offline import OfflineDiscord

from .conftest import GM_USER, reply


class Stall:
    """Seconds the machine "stood still": added to the event loop's clock and to the
    offline Discord's, with no real waiting."""

    def __init__(self) -> None:
        self.seconds = 0.0

    def monotonic(self) -> float:
        return time.monotonic() + self.seconds


def stall_every_write(session: OfflineDiscord, stall: Stall, seconds: float) -> None:
    database = session.client.db
    run = database.run

    async def stalled(work: Any, *args: Any, **kwargs: Any) -> Any:
        stall.seconds += seconds  # past the deferral's 2 seconds and Discord's 3
        return await run(work, *args, **kwargs)

    database.run = stalled


async def test_a_command_held_up_for_seconds_still_sends_its_one_reply(
        discord_session: OfflineDiscord, monkeypatch: pytest.MonkeyPatch) -> None:
    stall = Stall()
    loop = asyncio.get_running_loop()
    loop_time = loop.time
    monkeypatch.setattr(loop, "time", lambda: loop_time() + stall.seconds)
    monkeypatch.setattr(bot.offline.transport, "time", stall)
    stall_every_write(discord_session, stall, 5.0)

    message = await reply(discord_session, '/battle start ruleset:fire-at-will name:"Minden"',
                          user_id=GM_USER)
    assert stall.seconds >= 5.0
    assert message.kind == "response"
    assert "Battle started: Minden" in message.embeds[0]["title"]
