"""Who has turned off the mention that tells a player a battle waits on his answer.

``/notify off`` keeps the player's id in ``mention_opt_outs``; ``/notify on`` takes it out.
No row is the default: mentioned. The functions are units of work' steps (``Database.run``
hands them the connection of their transaction).
"""

from __future__ import annotations

from sqlalchemy import bindparam, delete, select
from sqlalchemy.engine import Connection

from bot.storage.database import conflict_insert
from bot.storage.models import MentionOptOut, utcnow

OPT_OUTS = MentionOptOut.__table__
_OFF = select(OPT_OUTS.c.user_id).where(OPT_OUTS.c.user_id == bindparam("user"))


def mentions_off(conn: Connection, user_id: int) -> bool:
    """Whether the player asked not to be mentioned."""
    return conn.execute(_OFF, {"user": user_id}).first() is not None


def set_mentions(conn: Connection, user_id: int, on: bool) -> bool:
    """Turn the player's mentions on or off; whether that changed anything (two presses
    of ``/notify off`` at once both find them off, neither fails)."""
    if on:
        return conn.execute(delete(OPT_OUTS).where(OPT_OUTS.c.user_id == user_id)).rowcount > 0
    insert = conflict_insert(conn)
    added = conn.execute(insert(OPT_OUTS).values(user_id=user_id, created_at=utcnow())
                         .on_conflict_do_nothing(index_elements=["user_id"]))
    return added.rowcount > 0
