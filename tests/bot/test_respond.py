"""Slow work is deferred in time and then delivered; quick work is answered directly."""

from __future__ import annotations

import asyncio

import discord
from discord import app_commands
from discord.ext import commands

from bot.offline import OfflineDiscord, command_payload
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


class Private(commands.Cog):
    @app_commands.command(name="secret", description="Always answers privately")
    async def secret(self, interaction: discord.Interaction) -> None:
        async def work() -> Reply:
            await asyncio.sleep(0.1)
            return Reply(content="for your eyes only", ephemeral=True)

        await answer(interaction, work, ephemeral=True, defer_after=0.05)

    @app_commands.command(name="mixed", description="Public, but this time answers privately")
    async def mixed(self, interaction: discord.Interaction) -> None:
        async def work() -> Reply:
            await asyncio.sleep(0.1)
            return Reply(content="only you see this", ephemeral=True)

        await answer(interaction, work, defer_after=0.05)

    @app_commands.command(name="late", description="Answers after Discord gave up")
    async def late(self, interaction: discord.Interaction) -> None:
        async def work() -> Reply:
            await asyncio.sleep(0.1)
            return Reply(content="too late")

        await answer(interaction, work, defer_after=10)


class PrivateBot(Bot):
    async def setup_hook(self) -> None:
        await super().setup_hook()
        await self.add_cog(Private())


async def test_an_error_after_a_public_deferral_replaces_it_privately():
    async with OfflineDiscord(Bot()) as session:
        messages = await session.invoke(["slowfail"], {}, **WHERE)
    assert [m.kind for m in messages] == ["deferral", "delete", "followup"]
    assert not messages[0].ephemeral and messages[1].message_id == "@original"
    assert messages[2].ephemeral and "no such unit" in messages[2].content


async def test_a_private_command_defers_privately():
    async with OfflineDiscord(PrivateBot()) as session:
        messages = await session.invoke(["secret"], {}, **WHERE)
    assert [m.kind for m in messages] == ["deferral", "followup"]
    assert messages[0].request.payload == {"type": 5, "data": {"flags": 64}}
    assert messages[1].ephemeral and messages[1].content == "for your eyes only"


async def test_a_private_reply_after_a_public_deferral_does_not_fill_it():
    async with OfflineDiscord(PrivateBot()) as session:
        messages = await session.invoke(["mixed"], {}, **WHERE)
    assert [m.kind for m in messages] == ["deferral", "delete", "followup"]
    assert messages[2].ephemeral and messages[2].content == "only you see this"


async def test_an_interaction_discord_gave_up_on_is_logged_not_raised(caplog):
    async with OfflineDiscord(PrivateBot(), response_deadline=0.05) as session:
        payload = command_payload(session.tree, ["late"], {}, **WHERE,
                                  application_id=session.application_id)
        result = await session.dispatch(payload)
    assert result.errors == []
    assert result.messages == []
    assert [r.status for r in result.requests] == [404]
    warnings = [r.getMessage() for r in caplog.records if r.name == "bot.errors"]
    assert len(warnings) == 1 and "Discord error 10062" in warnings[0]


class Asking(commands.Cog):
    """Replies whose buttons' message must be known (a question's, for `/answer`)."""

    def __init__(self) -> None:
        self.held: list[int] = []

    @app_commands.command(name="ask", description="Asks, after a deferral or not")
    async def ask(self, interaction: discord.Interaction, deferred: bool) -> None:
        async def work() -> Reply:
            while deferred and not interaction.response.is_done():
                await asyncio.sleep(0)  # until the deferral has gone out
            return Reply(content="which?", sent=self.keep)

        await answer(interaction, work, defer_after=0 if deferred else 60)

    async def keep(self, message_id: int) -> None:
        self.held.append(message_id)


class AskingBot(Bot):
    async def setup_hook(self) -> None:
        self.asking = Asking()
        await self.add_cog(self.asking)


async def test_the_message_holding_a_replys_buttons_is_told_deferred_or_not():
    bot = AskingBot()
    async with OfflineDiscord(bot) as session:
        [direct] = await session.invoke(["ask"], {"deferred": False}, **WHERE)
        deferral, followup = await session.invoke(["ask"], {"deferred": True}, **WHERE)
    assert direct.kind == "response" and deferral.kind == "deferral"
    assert followup.kind == "followup" and followup.content == "which?"
    assert bot.asking.held == [int(direct.message_id), int(followup.message_id)]
