"""The rules procedures as slash commands, grouped by verb: ``/melee <rule set>``, ...

Each rule set's subcommands live in its own module of ``bot.rulesets``; this module groups
them and runs them. Without a battle in the channel a procedure is a quick lookup that
describes every unit. In a channel with a battle it names roster units, and the result is
applied to the roster and logged, in one transaction.
"""

from collections.abc import Iterable
from functools import partial
from typing import Any

import discord
from discord import app_commands

from bot.autocomplete import roster_suggestions, suggestions, unit_name_choices
from bot.battles.decisions import Asked, Pending, battle_question
from bot.battles.play import Paused, Played, quick_lookup
from bot.battles.service import BattleStore
from bot.replies import reply_to, waiting_view
from bot.respond import Reply, answer
from bot.rulesets import RuleSetCommands
from rules.core.fields import FieldSet

# The verbs every rule set shares, in the order /help lists them; a rule set with a verb of
# its own gives it a description with ``VERBS`` in its module.
VERBS = {
    "melee": "Resolve a melee",
    "charge": "Resolve a charge",
    "fire": "Resolve fire",
    "artillery": "Resolve artillery fire",
    "morale": "Roll a morale check",
    "recall": "Roll a cavalry recall",
    "surrender": "Roll a surrender test",
}


def plain(value: Any) -> Any:
    """Option values as JSON-safe data, for the event log and for rerolls."""
    if isinstance(value, app_commands.Choice):
        return value.value
    if hasattr(value, "value"):
        return value.value
    return value


class Lookups:
    """Runs procedures for the rule sets' commands: quick lookups, or moves in the channel's
    battle; and the autocomplete they share."""

    def __init__(self, store: BattleStore) -> None:
        self.store = store

    async def resolve(
        self,
        interaction: discord.Interaction,
        ruleset: str,
        procedure: str,
        options: dict[str, Any],
        dice: str | None,
        lookup: bool = False,
    ) -> None:
        options = {k: plain(v) for k, v in options.items() if v is not None}
        command = f"/{interaction.command.qualified_name if interaction.command else procedure}"

        async def work() -> Reply:
            # No battle here, or the player asked for a lookup: a quick lookup, which needs no
            # lock and writes nothing. (A battle started a moment later is not affected by a
            # lookup that came first.)
            if lookup or await self.store.ruleset(interaction.channel_id or 0) is None:
                return replied(self.store, interaction, await self.lookup(
                    interaction, ruleset, procedure, options, dice))
            played = await self.store.move(interaction, command, ruleset, procedure, options,
                                           dice)
            if played is None:  # the battle ended a moment ago
                played = await self.lookup(interaction, ruleset, procedure, options, dice)
            return replied(self.store, interaction, played)

        await answer(interaction, work)

    async def lookup(self, interaction: discord.Interaction, ruleset: str, procedure: str,
                     options: dict[str, Any], dice: str | None) -> Played | Asked:
        """A quick lookup; one that stops at a question keeps it for the player's answer."""
        try:
            return quick_lookup(ruleset, procedure, options, dice)
        except Paused as paused:
            return await self.store.ask_lookup(interaction, ruleset, procedure, options, dice,
                                               paused)

    async def roster_names(self, interaction: discord.Interaction) -> list[str] | None:
        """The battle's unit names; None for a quick lookup (no battle, or `lookup:true`)."""
        if getattr(interaction.namespace, "lookup", False):
            return None
        return await self.store.unit_names(interaction.channel_id or 0)

    async def unit_choices(self, interaction: discord.Interaction, current: str,
                           words: FieldSet, situation: FieldSet | None = None
                           ) -> list[app_commands.Choice[str]]:
        """Roster names (then ``situation`` words) in a battle; the full unit ``words`` in a
        quick lookup."""
        names = await self.roster_names(interaction)
        if names is None:
            return suggestions(words, current)
        return roster_suggestions(names, situation, current)

    async def name_choices(self, interaction: discord.Interaction,
                           current: str) -> list[app_commands.Choice[str]]:
        """Roster names only, for options that take one unit's name."""
        return await unit_name_choices(self.store, interaction.channel_id, current)


def replied(store: BattleStore, interaction: discord.Interaction,
            outcome: Played | Asked) -> Reply:
    """The reply to a played procedure. A quick lookup's result keeps its steps for its Steps
    button, under the interaction's id (written after the reply has gone: see
    ``bot.battles.traces``); a battle's are in its event log."""
    if isinstance(outcome, Played) and outcome.battle_id is None:
        store.traces.keep(interaction.id, outcome.resolution, outcome.dice_note)
        return reply_to(outcome, trace=interaction.id)
    reply = reply_to(outcome)
    if isinstance(outcome, Asked):
        reply.sent = partial(store.asked_in, outcome.button_id, interaction.channel_id or 0)
    return reply


def asking_again(store: BattleStore, interaction: discord.Interaction, reply: Reply,
                 battle_id: int, pending: Pending, mention: int | None) -> Reply:
    """``reply`` (an import's notice, an undo's) carrying the question its battle waits on
    again, as the question's own reply did: its buttons, kept for `/answer` to edit, and the
    ping of the player it waits on (``mention``; None: nobody)."""
    reply.view = waiting_view(battle_id, pending)
    reply.asks = True
    reply.sent = partial(store.asked_in, battle_question(battle_id, pending.seq),
                         interaction.channel_id or 0)
    if mention is not None:
        ping = f"<@{mention}>, your answer:"
        reply.content = f"{reply.content}\n{ping}" if reply.content else ping
        reply.mention = mention
    return reply


def procedure_groups(rulesets: Iterable[RuleSetCommands]) -> list[app_commands.Group]:
    """One group per verb, holding each rule set's subcommand for it."""
    groups: dict[str, app_commands.Group] = {}
    for commands in rulesets:
        verbs = {**VERBS, **commands.verbs}
        for sub in commands.subcommands:
            group = groups.get(sub.verb)
            if group is None:
                group = groups[sub.verb] = app_commands.Group(
                    name=sub.verb, description=verbs.get(sub.verb, f"Resolve {sub.verb}"))
            group.add_command(sub.command)
    order = list(VERBS)
    return sorted(groups.values(),
                  key=lambda g: order.index(g.name) if g.name in order else len(order))
