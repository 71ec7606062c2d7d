"""Answering an interaction in time, whatever the work behind it costs.

Discord drops an interaction not answered within 3 seconds. Work that finishes quickly is
sent as the response itself; work still running after ``DEFER_AFTER`` seconds (a busy
database, a long lock wait) is deferred first ("Huzzah is thinking…") and then sent as the
follow-up that replaces it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import discord

DEFER_AFTER = 2.0


@dataclass
class Reply:
    messages: list[list[discord.Embed]] = field(default_factory=list)
    content: str | None = None
    ephemeral: bool = False
    files: list[discord.File] = field(default_factory=list)


async def answer(
    interaction: discord.Interaction,
    work: Callable[[], Awaitable[Reply]],
    *,
    defer_after: float = DEFER_AFTER,
) -> None:
    async def guarded() -> tuple[Reply | None, Exception | None]:
        # The error travels back to this coroutine (and on to the command's error handler)
        # instead of ending the task: a task that dies with it would be reported unhandled.
        try:
            return await work(), None
        except Exception as error:
            return None, error

    task = asyncio.ensure_future(guarded())
    done, _ = await asyncio.wait({task}, timeout=defer_after)
    if not done:
        await interaction.response.defer(thinking=True)
    reply, error = await task
    if error is not None:
        raise error
    assert reply is not None
    await send(interaction, reply)


async def send(interaction: discord.Interaction, reply: Reply) -> None:
    first, *rest = reply.messages or [[]]
    kwargs: dict = {"embeds": first, "ephemeral": reply.ephemeral}
    if reply.content:
        kwargs["content"] = reply.content
    if reply.files:
        kwargs["files"] = reply.files
    if interaction.response.is_done():
        await interaction.followup.send(**kwargs)
    else:
        await interaction.response.send_message(**kwargs)
    for embeds in rest:
        await interaction.followup.send(embeds=embeds, ephemeral=reply.ephemeral)
