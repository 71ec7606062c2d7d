"""Battles, units, generals and the event log: per-channel battle state.

Revision ID: 0001
Revises: None
Create Date: 2026-11-22
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ACTIVE = sa.text("status = 'active'")


def upgrade() -> None:
    op.create_table(
        "battles",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=True),
        sa.Column("ruleset", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("created_by", sa.BigInteger(), nullable=False),
        sa.Column("gm_role_id", sa.BigInteger(), nullable=True),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("phase", sa.String(length=64), nullable=True),
        sa.Column("last_seq", sa.Integer(), nullable=False),
        sa.Column("dice_queue", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("status IN ('active', 'ended')", name=op.f("ck_battles_status")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_battles")),
    )
    # A channel has at most one active battle; ended ones are kept for the record.
    op.create_index(
        "uq_battles_active_channel_id",
        "battles",
        ["channel_id"],
        unique=True,
        sqlite_where=ACTIVE,
        postgresql_where=ACTIVE,
    )

    op.create_table(
        "events",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("battle_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("interaction_id", sa.BigInteger(), nullable=True),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("user_name", sa.String(length=100), nullable=False),
        sa.Column("command", sa.String(length=200), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("summary", sa.String(length=500), nullable=False),
        sa.Column("request", sa.JSON(), nullable=True),
        sa.Column("resolution", sa.JSON(), nullable=True),
        sa.Column("changes", sa.JSON(), nullable=False),
        sa.Column("undone_by", sa.Integer(), nullable=True),
        sa.Column("reverts", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["battle_id"],
            ["battles.id"],
            name=op.f("fk_events_battle_id_battles"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_events")),
        sa.UniqueConstraint("battle_id", "seq", name=op.f("uq_events_battle_id_seq")),
        sa.UniqueConstraint("interaction_id", name=op.f("uq_events_interaction_id")),
    )
    op.create_table(
        "generals",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("battle_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("name_key", sa.String(length=64), nullable=False),
        sa.Column("side", sa.String(length=32), nullable=False),
        sa.Column("unit_name", sa.String(length=64), nullable=True),
        sa.Column("wounds", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.CheckConstraint(
            "status IN ('active', 'incapacitated', 'captured', 'killed')",
            name=op.f("ck_generals_status"),
        ),
        sa.ForeignKeyConstraint(
            ["battle_id"],
            ["battles.id"],
            name=op.f("fk_generals_battle_id_battles"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_generals")),
        sa.UniqueConstraint("battle_id", "name_key", name=op.f("uq_generals_battle_id_name_key")),
    )
    op.create_index(op.f("ix_generals_battle_id"), "generals", ["battle_id"])

    op.create_table(
        "units",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("battle_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("name_key", sa.String(length=64), nullable=False),
        sa.Column("side", sa.String(length=32), nullable=False),
        sa.Column("strength", sa.Integer(), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("gone_reason", sa.String(length=64), nullable=True),
        sa.Column("attributes", sa.JSON(), nullable=False),
        sa.Column("commander", sa.String(length=64), nullable=True),
        sa.CheckConstraint("status IN ('active', 'gone')", name=op.f("ck_units_status")),
        sa.ForeignKeyConstraint(
            ["battle_id"],
            ["battles.id"],
            name=op.f("fk_units_battle_id_battles"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_units")),
        sa.UniqueConstraint("battle_id", "name_key", name=op.f("uq_units_battle_id_name_key")),
    )
    op.create_index(op.f("ix_units_battle_id"), "units", ["battle_id"])


def downgrade() -> None:
    # Children first; their indexes and constraints go with their tables.
    op.drop_table("units")
    op.drop_table("generals")
    op.drop_table("events")
    op.drop_table("battles")
