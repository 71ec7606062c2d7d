"""Every failure a player can meet ends as a short ephemeral message, never a traceback.

The handler itself never raises: when even the private reply cannot be sent (the same
interaction delivered twice, or one Discord no longer knows), that is logged and dropped.
"""

from __future__ import annotations

import logging
import uuid
from typing import Any, Protocol

import discord
from discord import app_commands

from bot.battles.errors import OtherRuleSet
from bot.command_log import log_command
from bot.render.text import escape_prose
from bot.respond import send_first
from bot.storage.database import database_failure, database_problem
from bot.unsendable import shown
from rules.core.errors import RulesError

log = logging.getLogger(__name__)

# Discord's codes for an interaction that can no longer be answered.
ALREADY_ACKNOWLEDGED = 40060
UNKNOWN_INTERACTION = 10062
UNKNOWN_WEBHOOK = 10015
UNANSWERABLE = (ALREADY_ACKNOWLEDGED, UNKNOWN_INTERACTION, UNKNOWN_WEBHOOK)


class InputRefused(app_commands.AppCommandError):
    """Input refused before the command ran (``bot.door``: text no reply could carry, a file
    Discord did not send): told as the rules' refusals are."""

    def __init__(self, original: RulesError) -> None:
        super().__init__(str(original))
        self.original = original


def player_message(error: Exception, command: Command | None = None) -> str | None:
    """The message for an error the player can fix, or None for our own faults;
    ``command``: the one that failed."""
    if isinstance(error, app_commands.CommandInvokeError | InputRefused):
        error = error.original
    if isinstance(error, OtherRuleSet):
        error = same_verb(error, command)
    if isinstance(error, RulesError):
        return refusal_text(error)
    if isinstance(error, app_commands.TransformerError):
        return f"⚠️ `{error.value}` is not a valid {error.type.name.lower()} here."
    if isinstance(error, app_commands.CheckFailure):
        return f"⛔ {error}" if str(error) else "⛔ You can't use this command here."
    if isinstance(error, app_commands.CommandNotFound):
        return "⚠️ I don't know that command any more. Type `/` to see the current ones."
    if isinstance(error, app_commands.CommandSignatureMismatch):
        return "⚠️ This command changed since it was synced; try again in a minute."
    return None


CONTENT = 2000  # characters Discord takes in a message's content
HINT_ROOM = CONTENT // 2  # the most a refusal's hint takes, so that what is wrong is said too


Command = app_commands.Command[Any, ..., Any] | app_commands.ContextMenu


def same_verb(error: OtherRuleSet, command: Command | None) -> OtherRuleSet:
    """The refusal naming the battle's rule set's command for the same verb (``/melee
    le-baton`` for ``/melee labataille``), when there is one."""
    parent = getattr(command, "parent", None)
    found = parent.get_command(error.battle_ruleset) if parent is not None else None
    return error.instead(f"/{found.qualified_name}") if found is not None else error


def refusal_text(error: RulesError) -> str:
    """``⚠️ message hint``; a message too long for Discord is cut short before its hint, which
    says how to fix it (a list of 5,000 dice, quoted back, would otherwise push it out)."""
    # Player text in it (a unit called *Royal* Scots Greys) shows as typed.
    text = f"⚠️ {escape_prose(str(error))}"
    if len(shown(text)) <= CONTENT or not error.hint:
        return text
    hint = escape_prose(error.hint)
    if len(shown(hint)) > HINT_ROOM:  # every roll of a big melee, listed: it is cut as well
        hint = f"{cut_short(hint, HINT_ROOM - 1)}…"
    message = shown(escape_prose(error.message))
    kept = cut_short(message, CONTENT - len(shown(f"⚠️ … {hint}")))
    return f"⚠️ {kept}{'' if kept == message else '…'} {hint}"


def cut_short(text: str, room: int) -> str:
    """``text`` as shown, cut to ``room`` characters, leaving no escape or quote open."""
    kept = shown(text)[:max(room, 0)]
    if (len(kept) - len(kept.rstrip("\\"))) % 2:  # an escape cut from what it escapes
        kept = kept[:-1]
    if kept.count("`") % 2:  # a quote cut open would swallow the hint's formatting
        kept = kept[:kept.rfind("`")]
    return kept


def unanswerable(error: Exception) -> discord.HTTPException | None:
    """The Discord error, when the failure was that the interaction cannot be answered."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, discord.HTTPException) and error.code in UNANSWERABLE:
        return error
    return None


async def reply_privately(interaction: discord.Interaction, text: str) -> None:
    try:
        # A refusal may quote the very text that could not be sent.
        await send_first(interaction, ephemeral=True, content=shown(text)[:CONTENT])
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
    message = player_message(error, interaction.command)
    outcome = "error" if message is None else "refused"
    if message is None:
        ref = uuid.uuid4().hex[:8]
        log_fault(ref, error)
        message = await fault_message(interaction, ref)
    await reply_privately(interaction, message)
    return outcome


def log_fault(ref: str, error: BaseException) -> None:
    """Our own failure with its traceback; the database's in one line, which is the host's
    to fix and would otherwise fill the log with a traceback on every command."""
    failure = database_failure(error)
    if failure is None:
        log.error("command failed (ref %s)", ref, exc_info=error)
        return
    log.error("command failed (ref %s): the database could not be used (%s). Check that its "
              "server answers, or that its disk has room and its file can be written.",
              ref, database_problem(failure))
    log.debug("command failed (ref %s)", ref, exc_info=error)


class KeepsEvents(Protocol):
    async def applied(self, interaction_id: int) -> int | None:
        """The event the interaction recorded in a battle, if any."""


async def fault_message(interaction: discord.Interaction, ref: str) -> str:
    """Our own failure, and whether the command's change was kept all the same: a reply can
    fail after the change was written, and a player told nothing changed would make it
    twice."""
    store: KeepsEvents | None = getattr(interaction.client, "store", None)
    try:
        kept = None if store is None else await store.applied(interaction.id)
    except Exception as error:
        failure = database_failure(error)
        log.warning("could not check whether interaction %s was kept%s", interaction.id,
                    f" ({database_problem(failure)})" if failure else "",
                    exc_info=failure is None)
        return (f"💥 Something went wrong on my side (ref `{ref}`), and I could not check "
                "whether your command was kept: look at `/battle log` before you run it "
                "again, and tell the bot's host if it keeps happening.")
    if kept is not None:
        return (f"💥 Something went wrong on my side (ref `{ref}`) after your command was "
                f"done: it was kept, as event #{kept} (`/battle log` shows it), so do not "
                "run it again. Tell the bot's host if this keeps happening.")
    return (f"💥 Something went wrong on my side (ref `{ref}`). Nothing was changed; "
            "please try again, and tell the bot's host if it keeps happening.")
