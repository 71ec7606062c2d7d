"""What an operator asks of the battles as a whole: how many wait for an answer, and whether
the database answers at all. Each is one statement, run outside any channel's lock."""

from __future__ import annotations

from sqlalchemy import Connection, func, select

from bot.storage.database import Database
from bot.storage.models import Battle

_WAITING = (select(func.count()).select_from(Battle)
            .where(Battle.status == "active", Battle.pending.is_not(None)))


def _waiting(conn: Connection) -> int:
    return int(conn.scalar(_WAITING) or 0)


def _answers(conn: Connection) -> bool:
    _waiting(conn)  # raises if it cannot: no connection, no file, no schema
    return True


async def battles_awaiting_an_answer(db: Database) -> int:
    """Battles going on whose procedure stopped on a question nobody has answered yet."""
    return await db.run(_waiting, one_statement=True)


async def database_answers(db: Database) -> bool:
    """Whether the database reads the battles (it raises when it cannot): a server that
    answers with no battles table is no database for the bot."""
    return await db.run(_answers, one_statement=True)
