"""Engagements: fights that last between units of two sides.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-24

Le Baton's melees that continue and its firefights were markers on the units
(``in_melee_with``, ``firefight_with``); they become engagements, one per pair, and the
markers go. The way back turns each active engagement of two units into the markers again.
"""

from collections.abc import Sequence
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | Sequence[str] | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

MARKERS = {"in_melee_with": "melee", "firefight_with": "firefight"}

units = sa.table("units", sa.column("id", sa.Integer), sa.column("battle_id", sa.Integer),
                 sa.column("name", sa.String), sa.column("name_key", sa.String),
                 sa.column("attributes", sa.JSON))
engagements = sa.table("engagements", sa.column("id", sa.Integer),
                       sa.column("battle_id", sa.Integer), sa.column("kind", sa.String),
                       sa.column("sides", sa.JSON), sa.column("state", sa.JSON),
                       sa.column("status", sa.String),
                       sa.column("created_at", sa.DateTime(timezone=True)))


def _key(name: str) -> str:
    return " ".join(name.split()).casefold()


def upgrade() -> None:
    op.create_table(
        "engagements",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("battle_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("sides", sa.JSON(), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("status IN ('active', 'ended')", name=op.f("ck_engagements_status")),
        sa.ForeignKeyConstraint(["battle_id"], ["battles.id"],
                                name=op.f("fk_engagements_battle_id_battles"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_engagements")),
    )
    op.create_index(op.f("ix_engagements_battle_id"), "engagements", ["battle_id"])
    _markers_to_engagements(op.get_bind())


def _markers_to_engagements(bind: sa.Connection) -> None:
    rows = bind.execute(sa.select(units.c.id, units.c.battle_id, units.c.name,
                                  units.c.attributes)).all()
    names = {(row.battle_id, _key(row.name)): row.name for row in rows}
    seen: set[tuple[int, str, frozenset[str]]] = set()
    now = datetime.now(UTC)
    for row in rows:
        attributes = dict(row.attributes or {})
        for marker, kind in MARKERS.items():
            partner = attributes.pop(marker, None)
            if not partner:
                continue
            other = names.get((row.battle_id, _key(str(partner))), str(partner))
            pair = (row.battle_id, kind, frozenset({_key(row.name), _key(other)}))
            if pair not in seen:
                seen.add(pair)
                bind.execute(engagements.insert().values(
                    battle_id=row.battle_id, kind=kind, sides=[[row.name], [other]],
                    state={}, status="active", created_at=now))
        if attributes != dict(row.attributes or {}):
            bind.execute(units.update().where(units.c.id == row.id)
                         .values(attributes=attributes))


def downgrade() -> None:
    bind = op.get_bind()
    marker_of = {kind: marker for marker, kind in MARKERS.items()}
    active = bind.execute(sa.select(engagements.c.battle_id, engagements.c.kind,
                                    engagements.c.sides)
                          .where(engagements.c.status == "active")).all()
    for engagement in active:
        marker = marker_of.get(engagement.kind)
        first, other = engagement.sides
        if marker is None or len(first) != 1 or len(other) != 1:
            continue  # only the pairs the markers could say
        for name, partner in ((first[0], other[0]), (other[0], first[0])):
            row = bind.execute(sa.select(units.c.id, units.c.attributes).where(
                units.c.battle_id == engagement.battle_id, units.c.name == name)).first()
            if row is not None:
                bind.execute(units.update().where(units.c.id == row.id).values(
                    attributes={**(row.attributes or {}), marker: partner}))
    op.drop_index(op.f("ix_engagements_battle_id"), table_name="engagements")
    op.drop_table("engagements")
