"""An index of the events that undo can still take back.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23

Undo looks for the latest event not yet undone. Walking the log from its end passes over every
undone event and every undo, so after a long run of undos each one cost more than the last;
an index holding only the events still undoable makes it one step.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

UNDOABLE = sa.text("undone_by IS NULL AND kind != 'undo'")


def upgrade() -> None:
    op.create_index("ix_events_undoable", "events", ["battle_id", "seq"],
                    sqlite_where=UNDOABLE, postgresql_where=UNDOABLE)


def downgrade() -> None:
    op.drop_index("ix_events_undoable", table_name="events")
