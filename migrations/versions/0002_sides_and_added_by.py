"""A battle's fixed sides, and who added each unit and general.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23

Existing battles get no fixed sides (they are taken from the roster when it has two); existing
units and generals get no ``added_by``, which means only a GM may edit or remove them.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Batch operations: SQLite cannot alter a table in place, so Alembic rebuilds it.
    with op.batch_alter_table("battles") as batch:
        batch.add_column(sa.Column("sides", sa.JSON(), nullable=True))
    with op.batch_alter_table("units") as batch:
        batch.add_column(sa.Column("added_by", sa.BigInteger(), nullable=True))
    with op.batch_alter_table("generals") as batch:
        batch.add_column(sa.Column("added_by", sa.BigInteger(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("generals") as batch:
        batch.drop_column("added_by")
    with op.batch_alter_table("units") as batch:
        batch.drop_column("added_by")
    with op.batch_alter_table("battles") as batch:
        batch.drop_column("sides")
