"""The message holding each waiting question's buttons.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-26

A question's reply keeps its message id here, so that answering with `/answer` turns that
message into the result (as a press of its buttons does) instead of leaving buttons that
look live above a second copy of the procedure. A question asked before this revision has
no row: its `/answer` posts the result as a reply of its own, as before.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | Sequence[str] | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "question_messages",
        sa.Column("question", sa.String(length=64), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("message_id", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("question", name=op.f("pk_question_messages")),
    )


def downgrade() -> None:
    op.drop_table("question_messages")
