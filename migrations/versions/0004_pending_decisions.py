"""Decisions waiting for a player: a battle's pending question, and quick lookups' questions.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-24

A battle's pending question lives on its row (``battles.pending``), so that asking and
answering are snapshotted and undone like every other change. A quick lookup has no battle:
its question waits in ``questions`` until it is answered.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("battles") as batch:
        batch.add_column(sa.Column("pending", sa.JSON(), nullable=True))
    op.create_table(
        "questions",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_questions")),
    )
    op.create_index("ix_questions_channel_id", "questions", ["channel_id"])


def downgrade() -> None:
    op.drop_index("ix_questions_channel_id", table_name="questions")
    op.drop_table("questions")
    with op.batch_alter_table("battles") as batch:
        batch.drop_column("pending")
