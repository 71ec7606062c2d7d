"""The Discord client: registers the cogs and the error handler; no rule logic here."""

from __future__ import annotations

import logging

import discord
from discord.ext import commands

from bot.cogs.help import Help
from bot.cogs.lookups import Lookups
from bot.errors import on_app_command_error

log = logging.getLogger(__name__)


class HuzzahBot(commands.Bot):
    def __init__(self) -> None:
        # Slash commands need no privileged intents; guilds lets the cache know channels.
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents(guilds=True),
            help_command=None,
        )

    async def setup_hook(self) -> None:
        await self.add_cog(Lookups())
        await self.add_cog(Help(self))
        self.tree.on_error = on_app_command_error

    async def on_ready(self) -> None:
        log.info("connected as %s to %d guild(s)", self.user, len(self.guilds))


def create_bot() -> HuzzahBot:
    return HuzzahBot()
