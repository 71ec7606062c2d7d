"""Quick lookups' steps, for the Steps button under a lookup's result.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-26

A battle's steps are in its event log; a quick lookup has none, so its resolution is kept
here, keyed by the interaction that asked for it, and removed after a fortnight.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | Sequence[str] | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "traces",
        sa.Column("id", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_traces")),
    )
    op.create_index(op.f("ix_traces_created_at"), "traces", ["created_at"])


def downgrade() -> None:
    op.drop_index(op.f("ix_traces_created_at"), table_name="traces")
    op.drop_table("traces")
