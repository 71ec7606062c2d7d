"""Pressing a button (or picking from a menu) under one of the bot's messages.

Every button is a ``DynamicItem``: its custom id says what it acts on (a battle and an event),
so it keeps working after a restart and refuses to act on anything that has changed since.
A press is answered like a command: within Discord's window (deferred when slow), a refusal
privately, a result publicly, and the pressed message loses its buttons once they have done
their work. An answer to a question becomes the question's message: the result takes its
place, with the result's own buttons; a further question comes as a reply of its own.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.errors import handle_error
from bot.respond import DEFER_AFTER, Reply, answer, guarded, send

log = logging.getLogger(__name__)


async def press(interaction: discord.Interaction, work: Callable[[], Awaitable[Reply]],
                *, done: str | None = None, becomes: bool = False) -> None:
    """Run ``work`` for a press. On success, the pressed message says ``done`` and loses its
    buttons (``done`` None: it is left as it is), and the reply follows. ``becomes``: a
    result (not a further question) replaces the pressed message instead, under ``done``.
    Refused, the pressed message is left as it is: a press that lost a race to another may
    carry buttons the message no longer holds, and taking them off would take the result's
    own."""
    task = asyncio.ensure_future(guarded(work()))
    finished, _ = await asyncio.wait({task}, timeout=DEFER_AFTER)
    if not finished:
        await interaction.response.defer()  # "updating the message": nobody sees it
    reply, error = await task
    if error is not None:
        await _refuse(interaction, error)
        return
    assert reply is not None
    if becomes and not reply.asks and not reply.ephemeral and reply.messages:
        first, *rest = reply.messages
        await _edit(interaction, content=done, embeds=first,
                    view=reply.view if not rest else None)
        for index, embeds in enumerate(rest):  # a very long result: the rest follows
            last = index == len(rest) - 1
            await interaction.followup.send(
                embeds=embeds, **({"view": reply.view} if last and reply.view else {}))
        return
    if done is not None:
        await _edit(interaction, content=done, view=None)
    await send(interaction, reply)  # as a command's reply: a follow-up once answered


async def _edit(interaction: discord.Interaction, **changes: Any) -> None:
    """Change the pressed message: at once, or after the deferral."""
    if interaction.response.is_done():
        await interaction.edit_original_response(**changes)
    else:
        await interaction.response.edit_message(**changes)


async def show(interaction: discord.Interaction,
               work: Callable[[], Awaitable[Reply]]) -> None:
    """Run ``work`` for a press that only shows something, privately; the pressed message
    stays as it is."""
    try:
        await answer(interaction, work, ephemeral=True)
    except Exception as error:
        await _refuse(interaction, error)


async def _refuse(interaction: discord.Interaction, error: Exception) -> None:
    try:
        outcome = await handle_error(interaction, error)
    except Exception:
        log.exception("the error handler failed for interaction %s", interaction.id)
        outcome = "error"
    data = interaction.data or {}
    log.info("press %s user=%s channel=%s outcome=%s", data.get("custom_id"),
             interaction.user.id, interaction.channel_id, outcome)
