"""The Steps button under a result: the procedure step by step, privately, to whoever
presses it (the public reply keeps only the result and the rolls)."""

import discord
from discord.ext import commands

from bot.battles.errors import BattleError
from bot.battles.service import BattleStore
from bot.battles.traces import TRACES_KEPT
from bot.buttons import show
from bot.render.trace import kept_trace_messages
from bot.respond import Reply


class Steps(commands.Cog):
    def __init__(self, store: BattleStore) -> None:
        self.store = store

    async def pressed(self, interaction: discord.Interaction, where: str, key: int,
                      seq: int) -> None:
        async def work() -> Reply:
            if where == "b":
                kept = await self.store.traces.event(interaction.channel_id or 0, key, seq)
                gone = "That event is no longer in this channel's battle."
                hint = "`/battle log` and `/battle export` hold every step of a battle."
            else:
                kept = await self.store.traces.find(key)
                gone = "The steps of that lookup are no longer kept."
                hint = (f"A quick lookup's steps are kept {TRACES_KEPT.days} days; "
                        "run it again with the same `dice` to see them.")
            if kept is None:
                raise BattleError(gone, hint=hint)
            return Reply(kept_trace_messages(kept.resolution, dice_note=kept.dice_note,
                                             battle_changes=kept.changes), ephemeral=True)

        await show(interaction, work)
