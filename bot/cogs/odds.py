"""``/<verb> odds <rule set>`` (``/melee odds fire-at-will``): every procedure's command
again, with the same options, answered with the odds of each result instead of a roll.

The commands are each rule set's own (``bot.rulesets``), built a second time on
:class:`OddsLookups`, so an option added to a procedure is an option of its odds too. They
sit in each verb's group, beside the command they give the odds of: Discord counts at most
8,000 characters of names and descriptions in one top-level command, and every procedure's
options under a single ``/odds`` would hold about 11,000. The work
runs in the worker process (``bot.workers``): an exact walk of every roll where it fits its
budget, an estimate from random resolutions where it does not; the reply's embeds are
rendered there too.
"""

from collections.abc import Iterable
from typing import Any

import discord
from discord import app_commands

from bot.battles.play import check_ruleset
from bot.battles.service import BattleStore
from bot.cogs.lookups import Lookups, plain, procedure_groups
from bot.render.resolution import to_discord
from bot.respond import Reply, answer
from bot.rulesets import RuleSetCommands
from bot.workers import OutcomeJob, OutcomeWorker
from rules.core.notation import possessive

DICE_IGNORED = "Dice typed in are not used."
QUEUED = ("The GM has queued dice: the next move rolls them, whatever these odds say "
          "(`/gm dice` shows them to a GM)")


class OddsLookups(Lookups):
    """Runs the rule sets' commands as odds: in a channel with a battle, on its roster (and
    its chart pack); otherwise as a quick lookup."""

    def __init__(self, store: BattleStore, worker: OutcomeWorker) -> None:
        super().__init__(store)
        self.worker = worker

    async def resolve(self, interaction: discord.Interaction, ruleset: str, procedure: str,
                      options: dict[str, Any], dice: str | None,
                      lookup: bool = False) -> None:
        options = {k: plain(v) for k, v in options.items() if v is not None}

        async def work() -> Reply:
            job, notes = await self._job(interaction, ruleset, procedure, options, lookup)
            if dice and dice.strip():
                notes.append(DICE_IGNORED)
            # Worked out and rendered in the worker; only Discord's embeds are made here.
            messages = await self.worker.odds_reply(job, notes)
            return Reply([[to_discord(spec) for spec in message] for message in messages])

        await answer(interaction, work)

    async def _job(self, interaction: discord.Interaction, ruleset: str, procedure: str,
                   options: dict[str, Any], lookup: bool) -> tuple[OutcomeJob, list[str]]:
        """The work, and what the reply should say of where its values came from."""
        channel = interaction.channel_id or 0
        if not lookup and await self.store.ruleset(channel) is not None:
            read = await self.store.roster_read(channel)
            if read is not None:
                check_ruleset(read.battle.name, read.battle.ruleset, ruleset)
                notes = [f"On {possessive(read.battle.name)} roster"]
                if read.charts:
                    notes.append("read on its chart pack (`/battle charts` shows it)")
                if read.battle.dice_queue:
                    notes.append(QUEUED)
                return OutcomeJob(ruleset, procedure, read.options_for(procedure, options),
                                  read.roster, read.settings), notes
        return OutcomeJob(ruleset, procedure, options, None, {}), []


def add_odds(groups: Iterable[app_commands.Group],
             rulesets: Iterable[RuleSetCommands]) -> None:
    """Put an ``odds`` group in each verb's group, holding the odds of its rule sets'
    commands."""
    by_verb = {group.name: group for group in groups}
    for odds in procedure_groups(rulesets):
        holder = app_commands.Group(
            name="odds", description="Before anyone rolls: the odds of every result, "
                                     "with the same options")
        by_verb[odds.name].add_command(holder)
        for command in odds.commands:
            odds.remove_command(command.name)
            holder.add_command(command)
