"""Who turned the question's ping off (``/notify``), on each backend: on by default, off and
on again each said once, and two at once both fine."""

from __future__ import annotations

import asyncio

from bot.storage import Database
from bot.storage.mentions import mentions_off, set_mentions

ANN = 123456789012345678  # a snowflake: wider than 32 bits
BOB = 223456789012345678


async def test_off_and_on_again_each_change_once(db: Database) -> None:
    assert not await db.run(mentions_off, ANN)
    assert await db.run(set_mentions, ANN, False, write=True)
    assert not await db.run(set_mentions, ANN, False, write=True)  # already off
    assert await db.run(mentions_off, ANN)
    assert not await db.run(mentions_off, BOB)  # one player's choice only
    assert await db.run(set_mentions, ANN, True, write=True)
    assert not await db.run(set_mentions, ANN, True, write=True)  # already on
    assert not await db.run(mentions_off, ANN)


async def test_two_offs_at_once_neither_fails(db: Database) -> None:
    changed = await asyncio.gather(*(db.run(set_mentions, ANN, False, write=True)
                                     for _ in range(4)))
    assert sorted(changed) == [False, False, False, True]
    assert await db.run(mentions_off, ANN)
