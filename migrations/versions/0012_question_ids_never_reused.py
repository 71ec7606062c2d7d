"""A quick lookup's question ids are never used twice (SQLite).

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-27

A question's buttons carry its row id. SQLite gives a new row the largest id plus one, so
the question that follows an answer (its row deleted, the next one inserted) took the
answered one's id, and a stale button under the answered message answered the new question.
With AUTOINCREMENT SQLite never hands out an id again. PostgreSQL's sequences never did.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | Sequence[str] | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _recreate(autoincrement: bool) -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    with op.batch_alter_table("questions", recreate="always",
                              table_kwargs={"sqlite_autoincrement": autoincrement}):
        pass


# Ids handed out before this revision may lie above every row still stored (answered
# questions' rows are deleted), and buttons in the channels name them; nothing records the
# largest. New ids start above this floor, far past what any database of the bot has used.
FIRST_NEW_ID = 1_000_000


def upgrade() -> None:
    _recreate(True)
    if op.get_bind().dialect.name == "sqlite":
        op.execute(sa.text("DELETE FROM sqlite_sequence WHERE name = 'questions'"))
        op.execute(sa.text("INSERT INTO sqlite_sequence (name, seq) SELECT 'questions', "
                           "max(coalesce(max(id), 0), :floor) FROM questions")
                   .bindparams(floor=FIRST_NEW_ID - 1))


def downgrade() -> None:
    _recreate(False)
