"""Chart packs: the charts a GM attaches to a battle (``/battle charts``).

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-25

One row per battle at most. The pack is its own row, not a battle setting, so that the log
snapshots it when it is attached or replaced and not at every change of the battle row.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | Sequence[str] | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "charts",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("battle_id", sa.Integer(), nullable=False),
        sa.Column("filename", sa.String(length=200), nullable=False),
        sa.Column("content", sa.JSON(), nullable=False),
        sa.Column("added_by", sa.BigInteger(), nullable=False),
        sa.Column("added_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["battle_id"], ["battles.id"],
                                name=op.f("fk_charts_battle_id_battles"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_charts")),
        sa.UniqueConstraint("battle_id", name=op.f("uq_charts_battle_id")),
    )


def downgrade() -> None:
    op.drop_table("charts")
