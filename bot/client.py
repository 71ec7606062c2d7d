"""The Discord client: registers the cogs and the error handler; no rule logic here."""

from __future__ import annotations

import logging

import discord
from discord.ext import commands

from bot.battles.store import BattleStore
from bot.cogs.battle import Battles
from bot.cogs.gm import GM
from bot.cogs.help import Help
from bot.cogs.lookups import Lookups
from bot.cogs.roster import Roster
from bot.errors import on_app_command_error
from bot.storage.database import Database

log = logging.getLogger(__name__)


class HuzzahBot(commands.Bot):
    def __init__(self, db: Database) -> None:
        # Slash commands need no privileged intents; guilds lets the cache know channels.
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents(guilds=True),
            help_command=None,
        )
        self.db = db
        self.store = BattleStore(db)

    async def setup_hook(self) -> None:
        for cog in (Lookups(self.store), Battles(self.store), Roster(self.store),
                    GM(self.store), Help(self)):
            await self.add_cog(cog)
        self.tree.on_error = on_app_command_error

    async def on_ready(self) -> None:
        log.info("connected as %s to %d guild(s)", self.user, len(self.guilds))


def create_bot(db: Database) -> HuzzahBot:
    return HuzzahBot(db)
