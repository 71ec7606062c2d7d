"""Persistent battle state: the SQLAlchemy models, the database and its migrations.

Typical use (``upgrade_async`` is in :mod:`bot.storage.migrate`)::

    url = database_url()
    await upgrade_async(url)
    db = Database(url)
    async with db.transaction(channel_id=interaction.channel_id) as session:
        battle = await session.scalar(select(Battle).where(...))
"""

from __future__ import annotations

from .database import (
    DEFAULT_URL,
    Database,
    async_url,
    crash_point,
    database_url,
)
from .models import (
    BATTLE_STATUSES,
    GENERAL_STATUSES,
    UNIT_STATUSES,
    Base,
    Battle,
    Event,
    General,
    Unit,
    name_key,
    utcnow,
)

__all__ = [
    "BATTLE_STATUSES",
    "DEFAULT_URL",
    "GENERAL_STATUSES",
    "UNIT_STATUSES",
    "Base",
    "Battle",
    "Database",
    "Event",
    "General",
    "Unit",
    "async_url",
    "crash_point",
    "database_url",
    "name_key",
    "utcnow",
]
