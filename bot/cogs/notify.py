"""/notify on, /notify off: whether Huzzah pings a player when a battle waits on his answer.

The reply is private: the setting is the player's own. It holds in every server the bot is
in (one setting per player); the service keeps it (``bot.battles.notify``).
"""

import discord
from discord.ext import commands

from bot.battles.service import BattleStore
from bot.cogs.battle import server_group
from bot.respond import Reply, answer

ON = ("🔔 Mentions on: Huzzah pings you when a battle waits on your answer (never for a "
      "question your own command asked). `/notify off` stops them.")
OFF = ("🔕 Mentions off: Huzzah no longer pings you when a battle waits on your answer; the "
       "question still names you, and `/battle show` says whom it waits on. `/notify on` "
       "turns them back on.")
ALREADY = "They already were, in every server."
CHANGED = "This holds in every server."


class Notify(commands.Cog):
    notify = server_group("notify", "Whether Huzzah pings you when a battle waits on your "
                                    "answer")

    def __init__(self, store: BattleStore) -> None:
        self.store = store

    @notify.command(name="on", description="Be pinged when a battle waits on your answer "
                                           "(the default)")
    async def on(self, interaction: discord.Interaction) -> None:
        await self.turn(interaction, True)

    @notify.command(name="off", description="Stop being pinged when a battle waits on your "
                                            "answer")
    async def off(self, interaction: discord.Interaction) -> None:
        await self.turn(interaction, False)

    async def turn(self, interaction: discord.Interaction, on: bool) -> None:
        async def work() -> Reply:
            changed = await self.store.mentions.turn(interaction.user.id, on)
            return Reply(content=f"{ON if on else OFF} {CHANGED if changed else ALREADY}",
                         ephemeral=True)

        await answer(interaction, work, ephemeral=True)
