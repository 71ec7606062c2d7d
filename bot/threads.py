"""Opening a thread for a battle (``/battle start thread:true``): Discord glue only."""

from __future__ import annotations

import discord

from bot.battles.errors import BattleError

ARCHIVE_AFTER_MINUTES = 10080
"""A week without a message before Discord hides the thread: play by chat is slow."""

NEEDED = discord.Permissions(create_public_threads=True, send_messages_in_threads=True)


def _missing(have: discord.Permissions) -> list[str]:
    names = {"create_public_threads": "Create Public Threads",
             "send_messages_in_threads": "Send Messages in Threads"}
    return [label for flag, label in names.items() if not getattr(have, flag)]


async def open_battle_thread(interaction: discord.Interaction, name: str) -> discord.Thread:
    """A public thread, named for the battle, opened from the interaction's channel.

    Refused (nothing opened) in a thread or forum post already, where the battle can simply
    start, and where the bot may not open threads: Discord sends the bot's own permissions
    in the channel with every interaction (``app_permissions``), so that is read first; a
    refusal by Discord all the same (the permissions changed meanwhile) says the same.
    """
    channel = interaction.channel
    if isinstance(channel, discord.Thread):
        raise BattleError("This is a thread already: a battle cannot open a thread in it.",
                          hint="Start the battle here without `thread`.")
    if not isinstance(channel, discord.TextChannel):
        raise BattleError("I can only open a thread from a text channel.",
                          hint="Start the battle here without `thread`, or in a text channel.")
    missing = _missing(interaction.app_permissions)
    if missing:
        raise _cannot(missing)
    try:
        return await channel.create_thread(name=name[:100], type=discord.ChannelType.public_thread,
                                           auto_archive_duration=ARCHIVE_AFTER_MINUTES,
                                           reason=f"Huzzah battle: {name}"[:512])
    except discord.Forbidden:
        raise _cannot(["Create Public Threads"]) from None
    except discord.HTTPException as error:
        raise BattleError(f"Discord did not open the thread (error {error.status}).",
                          hint="Try again in a moment, or start the battle here without "
                               "`thread`.") from None


def _cannot(missing: list[str]) -> BattleError:
    return BattleError(
        f"I may not open threads in this channel: I need {' and '.join(missing)} here.",
        hint="A server admin can give Huzzah's role those permissions in this channel; or "
             "start the battle here without `thread`.")
