"""A general's value: a leader's dice modifier, where the battle's rule set counts one.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-26

Existing generals get none (NULL): no value is assumed for them; a La Bataille procedure that
needs one asks for it by name.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | Sequence[str] | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Batch operations: SQLite cannot alter a table in place, so Alembic rebuilds it.
    with op.batch_alter_table("generals") as batch:
        batch.add_column(sa.Column("value", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("generals") as batch:
        batch.drop_column("value")
