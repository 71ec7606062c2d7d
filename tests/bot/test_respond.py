"""Slow work is deferred in time and then delivered; quick work is answered directly."""

from __future__ import annotations

import asyncio

import discord
from discord import app_commands
from discord.ext import commands

from bot.offline import OfflineDiscord
from bot.respond import Reply, answer
from rules.core.errors import InvalidInput


class Slow(commands.Cog):
    @app_commands.command(name="slow", description="Takes its time")
    async def slow(self, interaction: discord.Interaction, seconds: float) -> None:
        async def work() -> Reply:
            await asyncio.sleep(seconds)
            return Reply(content="done")

        await answer(interaction, work, defer_after=0.05)

    @app_commands.command(name="slowfail", description="Takes its time, then refuses")
    async def slowfail(self, interaction: discord.Interaction) -> None:
        async def work() -> Reply:
            await asyncio.sleep(0.1)
            raise InvalidInput("no such unit")

        await answer(interaction, work, defer_after=0.05)


class Bot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.none())

    async def setup_hook(self) -> None:
        from bot.errors import on_app_command_error

        await self.add_cog(Slow())
        self.tree.on_error = on_app_command_error


WHERE = {"channel_id": 1, "user_id": 2, "guild_id": 3}


async def test_quick_work_is_the_response_itself():
    async with OfflineDiscord(Bot()) as session:
        (message,) = await session.invoke(["slow"], {"seconds": 0}, **WHERE)
    assert message.kind == "response" and message.content == "done"


async def test_slow_work_is_deferred_then_sent_as_the_follow_up():
    async with OfflineDiscord(Bot()) as session:
        messages = await session.invoke(["slow"], {"seconds": 0.2}, **WHERE)
    assert [m.kind for m in messages] == ["deferral", "followup"]
    assert messages[-1].content == "done"


async def test_an_error_after_deferring_still_reaches_the_player():
    async with OfflineDiscord(Bot()) as session:
        messages = await session.invoke(["slowfail"], {}, **WHERE)
    assert messages[0].kind == "deferral"
    assert "no such unit" in messages[-1].content
