"""Every failure a player can meet ends as a short ephemeral message, never a traceback."""

from __future__ import annotations

import logging
import uuid

import discord
from discord import app_commands

from rules.core.errors import RulesError

log = logging.getLogger(__name__)


def player_message(error: Exception) -> str | None:
    """The message for an error the player can fix, or None for our own faults."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, RulesError):
        return f"⚠️ {error}"
    if isinstance(error, app_commands.TransformerError):
        return f"⚠️ `{error.value}` is not a valid {error.type.name.lower()} here."
    if isinstance(error, app_commands.CheckFailure):
        return f"⛔ {error}" if str(error) else "⛔ You can't use this command here."
    if isinstance(error, app_commands.CommandNotFound):
        return "⚠️ I don't know that command any more. Type `/` to see the current ones."
    if isinstance(error, app_commands.CommandSignatureMismatch):
        return "⚠️ This command changed since it was synced; try again in a minute."
    return None


async def reply_privately(interaction: discord.Interaction, text: str) -> None:
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


async def on_app_command_error(
    interaction: discord.Interaction, error: app_commands.AppCommandError
) -> None:
    message = player_message(error)
    if message is None:
        ref = uuid.uuid4().hex[:8]
        log.error("command failed (ref %s)", ref, exc_info=error)
        message = (
            f"💥 Something went wrong on my side (ref `{ref}`). Nothing was changed; "
            "please try again, and tell the bot's host if it keeps happening."
        )
    await reply_privately(interaction, message[:2000])
