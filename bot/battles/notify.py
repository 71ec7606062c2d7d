"""``/notify``: whether a player is pinged when a battle waits on his answer.

The setting is the player's own, the same in every server (``bot.storage.mentions`` keeps
it); on by default. A question's reply reads it in the move's own transaction
(``bot.battles.decisions``).
"""

from __future__ import annotations

from bot.storage.database import Database
from bot.storage.mentions import set_mentions


class MentionSettings:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def turn(self, user_id: int, on: bool) -> bool:
        """Turn the player's mentions on or off; whether they were the other way before."""
        return await self.db.run(set_mentions, user_id, on, write=True)
