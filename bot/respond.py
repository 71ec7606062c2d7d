"""Answering an interaction in time, whatever the work behind it costs.

Discord drops an interaction not answered within 3 seconds. Work that finishes quickly is
sent as the response itself; work still running after ``DEFER_AFTER`` seconds (a busy
database, a long lock wait) is deferred first ("Huzzah is thinking…") and then sent as the
follow-up that replaces it.

The deferral is seen by whoever the final reply is for: a command whose reply is always
private (``ephemeral=True``) defers privately. A public command that ends in a private reply
(a refusal) cannot turn its public "thinking…" private, and the first follow-up would fill
that public message; so the thinking message is deleted and the reply sent privately.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import discord

DEFER_AFTER = 2.0
# Set in ``interaction.extras`` while a public "thinking…" message waits for its follow-up.
PUBLIC_THINKING = "huzzah.public_thinking"

log = logging.getLogger(__name__)


@dataclass
class Reply:
    messages: list[list[discord.Embed]] = field(default_factory=list)
    content: str | None = None
    ephemeral: bool = False
    files: list[discord.File] = field(default_factory=list)
    view: discord.ui.View | None = None  # buttons, under the last message
    asks: bool = False  # a question for a player (its buttons answer it)
    # The one user the first message may ping (its content mentions him); None: nobody.
    mention: int | None = None
    # Told the id of the message holding the buttons once it is sent (a question keeps it,
    # so that `/answer` can turn it into the result).
    sent: Callable[[int], Awaitable[None]] | None = None


def only(user_id: int) -> discord.AllowedMentions:
    """Pings the one user, and nobody else whatever the message holds: not @everyone, no
    role, no other user's ``<@id>`` typed into a name."""
    return discord.AllowedMentions(everyone=False, users=[discord.Object(user_id)],
                                   roles=False, replied_user=False)


async def answer(
    interaction: discord.Interaction,
    work: Callable[[], Awaitable[Reply]],
    *,
    ephemeral: bool = False,
    defer_after: float | None = None,
) -> None:
    """Run ``work`` and send its reply; ``ephemeral`` says the reply is always private.

    ``defer_after`` defaults to ``DEFER_AFTER`` as it is when called, so it can be tuned.
    """
    if defer_after is None:
        defer_after = DEFER_AFTER

    # The work runs right here; a timer starts the deferral beside it only if the work is
    # still going when it fires (a task and a wait per command cost more than the timer).
    deferring: asyncio.Task[None] | None = None

    def start_deferring() -> None:
        nonlocal deferring
        deferring = asyncio.ensure_future(defer(interaction, ephemeral=ephemeral))

    timer = asyncio.get_running_loop().call_later(defer_after, start_deferring)
    try:
        reply = await work()
    except BaseException:
        timer.cancel()
        # The deferral is finished before the error handler answers (as a follow-up); the
        # work's error is the one to report, whatever became of the deferral.
        if deferring is not None:
            try:
                await deferring
            except Exception:
                log.warning("the deferral of interaction %s failed", interaction.id,
                            exc_info=True)
        raise
    timer.cancel()
    if deferring is not None:
        await deferring  # finished before the reply goes out as its follow-up
    await send(interaction, reply)


async def guarded(work: Awaitable[Reply]) -> tuple[Reply | None, Exception | None]:
    """The reply, or the error: the error travels back to the awaiting coroutine (and on to
    the command's error handler) instead of ending the task, which would be reported as
    unhandled."""
    try:
        return await work, None
    except Exception as error:
        return None, error


async def defer(interaction: discord.Interaction, *, ephemeral: bool) -> None:
    await interaction.response.defer(thinking=True, ephemeral=ephemeral)
    if not ephemeral:
        interaction.extras[PUBLIC_THINKING] = True


async def send(interaction: discord.Interaction, reply: Reply) -> None:
    """Send the reply; tell ``reply.sent`` which message holds its buttons."""
    held = await _send(interaction, reply, wait=reply.sent is not None)
    if reply.sent is None or held is None:
        return
    try:
        await reply.sent(held)
    except Exception:  # the reply is out; `/answer` will post its result as its own reply
        log.warning("could not keep which message holds the buttons of interaction %s",
                    interaction.id, exc_info=True)


async def _send(interaction: discord.Interaction, reply: Reply, *, wait: bool) -> int | None:
    """Send the reply; the id of the message under which its buttons went (``wait``: else
    None), when Discord says it."""
    first, *rest = reply.messages or [[]]
    kwargs: dict[str, Any] = {"embeds": first}
    if reply.content:
        kwargs["content"] = reply.content
    if reply.files:
        kwargs["files"] = reply.files
    if reply.view is not None and not rest:
        kwargs["view"] = reply.view
    if reply.mention is not None:  # else the bot's default: nobody
        kwargs["allowed_mentions"] = only(reply.mention)
    held = await send_first(interaction, ephemeral=reply.ephemeral, wait=wait, **kwargs)
    for index, embeds in enumerate(rest):
        extra = {"view": reply.view} if reply.view is not None and index == len(rest) - 1 \
            else {}
        message = await interaction.followup.send(embeds=embeds, ephemeral=reply.ephemeral,
                                                  wait=wait, **extra)
        held = message.id if message is not None else None
    return held


async def send_first(interaction: discord.Interaction, *, ephemeral: bool, wait: bool = False,
                     **kwargs: Any) -> int | None:
    """The reply's first message, as the response or as the follow-up to a deferral; its id
    when Discord says it (a follow-up says it when asked to ``wait``)."""
    if not interaction.response.is_done():
        callback = await interaction.response.send_message(ephemeral=ephemeral, **kwargs)
        return callback.message_id if callback is not None else None
    if interaction.extras.pop(PUBLIC_THINKING, False) and ephemeral:
        await drop_public_thinking(interaction)
    message = await interaction.followup.send(ephemeral=ephemeral, wait=wait, **kwargs)
    return message.id if message is not None else None


async def drop_public_thinking(interaction: discord.Interaction) -> None:
    """Delete the public "thinking…" so a private reply does not land in its place."""
    try:
        await interaction.delete_original_response()
    except discord.NotFound:
        log.warning("the thinking message of interaction %s was already gone", interaction.id)
