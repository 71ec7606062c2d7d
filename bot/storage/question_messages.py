"""Which message holds a question's buttons (``question_messages``), for `/answer` to turn
into the result. The functions are units of work's steps (``Database.run`` hands them the
connection of their transaction)."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import delete
from sqlalchemy.engine import Connection

from bot.storage.database import conflict_insert
from bot.storage.models import QuestionMessage, utcnow

MESSAGES = QuestionMessage.__table__


def keep_message(conn: Connection, question: str, channel_id: int, message_id: int) -> None:
    """The message now holding ``question``'s buttons (a later one replaces an earlier).
    A battle waits on one question at a time: its earlier questions' messages (taken back
    by an undo or a reroll, never answered) are forgotten here."""
    where, _, _ = question.partition(":")
    if where.startswith("b"):
        conn.execute(delete(MESSAGES).where(MESSAGES.c.question.startswith(f"{where}:"),
                                            MESSAGES.c.question != question))
    insert = conflict_insert(conn)
    row = {"question": question, "channel_id": channel_id, "message_id": message_id,
           "created_at": utcnow()}
    conn.execute(insert(MESSAGES).values(row).on_conflict_do_update(
        index_elements=["question"], set_={k: row[k] for k in row if k != "question"}))


def take_message(conn: Connection, question: str, channel_id: int) -> int | None:
    """The message holding ``question``'s buttons in this channel, forgotten as it is
    answered; None when none was kept (asked before messages were kept, or elsewhere)."""
    return conn.execute(delete(MESSAGES).where(MESSAGES.c.question == question,
                                               MESSAGES.c.channel_id == channel_id)
                        .returning(MESSAGES.c.message_id)).scalar()


def forget_battle_messages(conn: Connection, prefix: str) -> None:
    """Forget the messages of every question whose id starts ``prefix`` (``b12:``: a
    battle that ended, whose questions nobody can answer any more)."""
    conn.execute(delete(MESSAGES).where(MESSAGES.c.question.startswith(prefix)))


def forget_old_messages(conn: Connection, prefix: str, kept: timedelta) -> None:
    """Forget the messages of questions starting ``prefix`` asked longer than ``kept`` ago
    (a quick lookup's questions are cleared after a fortnight)."""
    conn.execute(delete(MESSAGES).where(MESSAGES.c.question.startswith(prefix),
                                        MESSAGES.c.created_at < utcnow() - kept))
