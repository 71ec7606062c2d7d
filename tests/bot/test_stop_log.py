"""On stopping, ``huzzah run`` logs how many battles await an answer: their questions are kept
and answered after the restart (tests/bot/test_decisions.py holds that they are)."""

from __future__ import annotations

import asyncio
import logging
import os
import shutil
import signal

from bot import cli
from bot.client import HuzzahBot, create_bot
from bot.offline import OfflineDiscord
from bot.storage import Database

from .conftest import reply
from .storage.conftest import SQLITE_NAME, sqlite_url
from .test_decisions import CHARGE, OTHER, SETUP

HANG_GUARD = 60


async def stopped_run(url: str, monkeypatch) -> int:
    """``huzzah run`` on ``url``, connected to no Discord, stopped by SIGTERM."""
    connected = asyncio.Event()

    async def start(self: HuzzahBot, token: str) -> None:
        connected.set()  # the stop signals are handled by now
        while not self.is_closed():
            await asyncio.sleep(0.01)

    monkeypatch.setattr(HuzzahBot, "start", start)
    running = asyncio.create_task(cli._run_bot("token", url))
    await asyncio.wait_for(connected.wait(), HANG_GUARD)
    os.kill(os.getpid(), signal.SIGTERM)
    return await asyncio.wait_for(running, HANG_GUARD)


def awaiting(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if "awaiting an answer" in r.getMessage()]


async def test_stopping_logs_the_battles_awaiting_an_answer(tmp_path, sqlite_template, caplog,
                                                            monkeypatch):
    shutil.copyfile(sqlite_template, tmp_path / SQLITE_NAME)
    url = sqlite_url(tmp_path)
    async with Database(url) as db, OfflineDiscord(create_bot(db)) as session:
        for channel in (100, 101, 102):  # two battles asking, one not
            for line, user in SETUP:
                await reply(session, line, user_id=user, channel_id=channel)
            dice = "dice:1" if channel != 102 else "dice:6"
            asked = await reply(session, CHARGE.replace("dice:1", dice), user_id=OTHER,
                                channel_id=channel)
            assert ("❓" in asked.embeds[0]["title"]) is (channel != 102)
    caplog.set_level(logging.INFO, logger="huzzah")
    assert await stopped_run(url, monkeypatch) == 0
    assert awaiting(caplog) == [
        "stopping with 2 battles awaiting an answer (kept: answered after the restart)"]


async def test_stopping_with_none_waiting_says_so(tmp_path, sqlite_template, caplog,
                                                         monkeypatch):
    shutil.copyfile(sqlite_template, tmp_path / SQLITE_NAME)
    caplog.set_level(logging.INFO, logger="huzzah")
    assert await stopped_run(sqlite_url(tmp_path), monkeypatch) == 0
    assert awaiting(caplog) == [
        "stopping with 0 battles awaiting an answer (kept: answered after the restart)"]
