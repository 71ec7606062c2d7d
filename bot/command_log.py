"""One log line per command handled: who, where, which command, how it ended, how long."""

from __future__ import annotations

import logging
import time

import discord

command_log = logging.getLogger("bot.commands")
# Set in ``interaction.extras`` when the command tree first sees the interaction.
STARTED = "huzzah.started"


def mark_started(interaction: discord.Interaction) -> None:
    interaction.extras.setdefault(STARTED, time.perf_counter())


def elapsed_ms(interaction: discord.Interaction) -> int:
    started = interaction.extras.get(STARTED)
    if started is not None:
        return round((time.perf_counter() - started) * 1000)
    # Not marked (a tree without the hook): count from Discord's creation time instead.
    return max(0, round((discord.utils.utcnow() - interaction.created_at).total_seconds() * 1000))


def command_name(interaction: discord.Interaction) -> str:
    command = interaction.command
    if command is not None:
        return command.qualified_name
    data = interaction.data or {}
    return str(data.get("name", "?"))[:32]


def log_command(interaction: discord.Interaction, outcome: str) -> None:
    """Who, where, which command, how it ended, how long: never options, never the token.
    Counted too where the bot keeps metrics."""
    if interaction.type is not discord.InteractionType.application_command:
        return
    metrics = getattr(interaction.client, "metrics", None)
    if metrics is not None:
        metrics.command_handled(command_name(interaction), outcome)
    if not command_log.isEnabledFor(logging.INFO):
        return
    command_log.info(
        "command /%s user=%s guild=%s channel=%s outcome=%s ms=%d",
        command_name(interaction), interaction.user.id, interaction.guild_id,
        interaction.channel_id, outcome, elapsed_ms(interaction),
    )
