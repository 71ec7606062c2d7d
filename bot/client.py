"""The Discord client: registers the cogs and the error handler; no rule logic here."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.battles.service import BattleStore
from bot.cogs.battle import Battles
from bot.cogs.decisions import Decisions
from bot.cogs.gm import GM
from bot.cogs.help import Help
from bot.cogs.lookups import Lookups, procedure_groups
from bot.cogs.notify import Notify
from bot.cogs.odds import OddsLookups, add_odds
from bot.cogs.roster import Roster
from bot.cogs.steps import Steps
from bot.command_log import log_command, mark_started
from bot.door import refused_at_the_door, unsendable_option
from bot.errors import InputRefused, on_app_command_error
from bot.heap import settle_heap
from bot.replies import (
    AnswerButton,
    EndButton,
    GMButton,
    HelpButton,
    OverrideMenu,
    StepsButton,
)
from bot.rulesets import RuleSetCommands, each_ruleset
from bot.storage.database import Database
from bot.workers import OutcomeWorker

if TYPE_CHECKING:  # imported only with --metrics: prometheus_client is slow to load
    from bot.metrics import Metrics

log = logging.getLogger(__name__)


class HuzzahTree(app_commands.CommandTree):
    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        # Every command and autocomplete passes here first: the clock for the command log.
        mark_started(interaction)
        data = interaction.data or {}
        if interaction.type is discord.InteractionType.autocomplete:
            if unsendable_option(data) is None:
                return True
            # Nothing matches such text, and suggestions echoing it could not be sent.
            await interaction.response.autocomplete([])
            return False
        refused = refused_at_the_door(data)
        if refused is None:
            return True
        raise InputRefused(refused)


class HuzzahBot(commands.AutoShardedBot):
    """The bot. One process may serve some of the bot's shards (``shard_ids``, of
    ``shard_count``): processes serving the others share the database. With neither, it is
    one shard, unsharded, as a ``commands.Bot`` is."""

    def __init__(self, db: Database, *, settle_heap: bool = False,
                 metrics: Metrics | None = None, shard_count: int | None = None,
                 shard_ids: list[int] | None = None) -> None:
        # Slash commands need no privileged intents; guilds lets the cache know channels.
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents(guilds=True),
            help_command=None,
            # Names are players' own text: "@everyone" or "<@id>" in one must never ping.
            # Every response and follow-up takes this default from the connection state.
            allowed_mentions=discord.AllowedMentions.none(),
            tree_cls=HuzzahTree,
            **_sharding(shard_count, shard_ids),
            **({"http_trace": metrics.http_trace()} if metrics is not None else {}),
        )
        self.db = db
        self.metrics = metrics  # kept figures for --metrics; None without it
        self.store = BattleStore(db)
        self.outcomes = OutcomeWorker()
        self.rulesets: list[RuleSetCommands] = []  # each rule set's commands, once set up
        self._settle_heap = settle_heap

    async def setup_hook(self) -> None:
        self.rulesets = list(each_ruleset(Lookups(self.store)))
        groups = procedure_groups(self.rulesets)
        # The same commands again as /<verb> odds <rule set>: the odds of every result.
        add_odds(groups, each_ruleset(OddsLookups(self.store, self.outcomes)))
        for group in groups:
            self.tree.add_command(group)
        for cog in (Battles(self.store), Roster(self.store), GM(self.store, self.outcomes),
                    Decisions(self.store), Notify(self.store), Steps(self.store), Help(self)):
            await self.add_cog(cog)
        # Buttons under a question answer it, even under a message sent before a restart.
        self.add_dynamic_items(AnswerButton, GMButton, EndButton, OverrideMenu, StepsButton,
                               HelpButton)
        self.tree.on_error = on_app_command_error
        self.store.traces.start()
        if self._settle_heap:  # a process that runs the bot: what is loaded now stays
            settle_heap()

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        if event_name == "interaction" and self.metrics is not None:
            self.metrics.received(args[0].id)  # the clock of its first response
        elif event_name == "app_command_completion":
            # Logged at once: an ``on_app_command_completion`` listener would cost every
            # command a task of its own.
            log_command(args[0], "ok")
        super().dispatch(event_name, *args, **kwargs)

    async def close(self) -> None:
        try:
            await super().close()
        finally:
            try:
                await self.store.traces.close()
            finally:
                await self.outcomes.close()

    async def on_ready(self) -> None:
        log.info("connected as %s to %d guild(s)", self.user, len(self.guilds))


def _sharding(shard_count: int | None, shard_ids: list[int] | None) -> dict[str, Any]:
    """AutoShardedBot's options. Without any it would ask Discord how many shards to run
    and run them all; unsharded, a bot runs one connection, as ``commands.Bot`` does."""
    if shard_count is None and shard_ids is None:
        return {"shard_count": 1}
    return {"shard_count": shard_count, "shard_ids": shard_ids}


def create_bot(db: Database, *, settle_heap: bool = False, metrics: Metrics | None = None,
               shard_count: int | None = None, shard_ids: list[int] | None = None
               ) -> HuzzahBot:
    """The bot; ``settle_heap`` tunes the garbage collector once it is set up (for the
    process that runs it: ``huzzah run`` and the console, not tests); ``metrics`` counts
    what it handles; ``shard_count`` and ``shard_ids``: the shards this process serves."""
    return HuzzahBot(db, settle_heap=settle_heap, metrics=metrics, shard_count=shard_count,
                     shard_ids=shard_ids)
