"""Players who turned off the mention that tells them a battle waits on their answer.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-26

``/notify off`` adds the player's Discord id here and ``/notify on`` removes it: the
default, with no row, is to be mentioned. One row per user, whatever the server: the choice
is about a person being pinged, not about one server's battles.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | Sequence[str] | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "mention_opt_outs",
        sa.Column("user_id", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_mention_opt_outs")),
    )


def downgrade() -> None:
    op.drop_table("mention_opt_outs")
