"""Every failure a player can meet ends as a short ephemeral message, never a traceback.

The handler itself never raises: when even the private reply cannot be sent (the same
interaction delivered twice, or one Discord no longer knows), that is logged and dropped.
"""

from __future__ import annotations

import logging
import uuid

import discord
from discord import app_commands

from bot.command_log import log_command
from bot.respond import send_first
from rules.core.errors import RulesError

log = logging.getLogger(__name__)

# Discord's codes for an interaction that can no longer be answered.
ALREADY_ACKNOWLEDGED = 40060
UNKNOWN_INTERACTION = 10062
UNKNOWN_WEBHOOK = 10015
UNANSWERABLE = (ALREADY_ACKNOWLEDGED, UNKNOWN_INTERACTION, UNKNOWN_WEBHOOK)


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


def unanswerable(error: Exception) -> discord.HTTPException | None:
    """The Discord error, when the failure was that the interaction cannot be answered."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, discord.HTTPException) and error.code in UNANSWERABLE:
        return error
    return None


async def reply_privately(interaction: discord.Interaction, text: str) -> None:
    try:
        await send_first(interaction, ephemeral=True, content=text)
    except discord.HTTPException as error:
        log.warning("could not reply to interaction %s (Discord error %s: %s)",
                    interaction.id, error.code, error.text)


async def on_app_command_error(
    interaction: discord.Interaction, error: app_commands.AppCommandError
) -> None:
    outcome = "error"
    try:
        outcome = await handle_error(interaction, error)
    except Exception:
        # An error handler that raises only adds a second, more confusing traceback.
        log.exception("the error handler failed for interaction %s", interaction.id)
    finally:
        log_command(interaction, outcome)


async def handle_error(interaction: discord.Interaction, error: Exception) -> str:
    """Tell the player what went wrong; the outcome to log (refused or error)."""
    lost = unanswerable(error)
    if lost is not None:
        # Nothing can reach the player any more; replying would only fail again.
        log.warning("interaction %s could not be answered (Discord error %s: %s)",
                    interaction.id, lost.code, lost.text)
        return "error"
    message = player_message(error)
    outcome = "error" if message is None else "refused"
    if message is None:
        ref = uuid.uuid4().hex[:8]
        log.error("command failed (ref %s)", ref, exc_info=error)
        message = (
            f"💥 Something went wrong on my side (ref `{ref}`). Nothing was changed; "
            "please try again, and tell the bot's host if it keeps happening."
        )
    await reply_privately(interaction, message[:2000])
    return outcome
