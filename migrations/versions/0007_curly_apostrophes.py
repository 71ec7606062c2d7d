"""A name typed with a phone's curly apostrophe is the same name: keys read ’ and ‘ as '.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-26

Every lookup finds a unit or a general by its key (``name_key``), which now reads
``Lochiel’s Camerons`` and ``Lochiel's Camerons`` alike: the stored keys of names holding ’ or
‘ are worked out again. Names are unique among a battle's units and generals, so where two
differed only by their apostrophes, the one with the curly apostrophe (the later one, if both
have one) is renamed with a number, ``Barrell’s (2)``, and what names it follows: generals'
units, units' commanders, fights, and the rows the log would put back on an undo. The way
back works the keys out as they were; a name renamed stays renamed.
"""

from collections.abc import Callable, Iterator, Sequence
from itertools import count
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | Sequence[str] | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

MAX_NAME = 64
_STRAIGHT = str.maketrans({"’": "'", "‘": "'"})

units = sa.table("units", sa.column("id", sa.Integer), sa.column("battle_id", sa.Integer),
                 sa.column("name", sa.String), sa.column("name_key", sa.String),
                 sa.column("commander", sa.String))
generals = sa.table("generals", sa.column("id", sa.Integer), sa.column("battle_id", sa.Integer),
                    sa.column("name", sa.String), sa.column("name_key", sa.String),
                    sa.column("unit_name", sa.String))
engagements = sa.table("engagements", sa.column("id", sa.Integer),
                       sa.column("battle_id", sa.Integer), sa.column("sides", sa.JSON))
events = sa.table("events", sa.column("id", sa.Integer), sa.column("battle_id", sa.Integer),
                  sa.column("changes", sa.JSON))
NAMED = (units, generals)

Key = Callable[[str], str]
# Per battle, per table of the named ("units", "generals"): the key a renamed name had
# before, and its new name.
Renames = dict[int, dict[str, dict[str, str]]]


def folded(name: str) -> str:
    return " ".join(name.translate(_STRAIGHT).split()).casefold()


def unfolded(name: str) -> str:
    return " ".join(name.split()).casefold()


def upgrade() -> None:
    bind = op.get_bind()
    renames = _rekey(bind, folded)
    if renames:
        _follow(bind, renames)


def downgrade() -> None:
    # The keys as they were are finer than the folded ones: two never meet.
    _rekey(op.get_bind(), unfolded)


def _rekey(bind: sa.Connection, key: Key) -> Renames:
    """Store ``key`` of every name; a name whose new key is taken in its battle is renamed.
    Names whose key stays as it is are counted first: they keep their names."""
    rows = [(table, row) for table in NAMED for row in bind.execute(
        sa.select(table.c.id, table.c.battle_id, table.c.name, table.c.name_key)
        .order_by(table.c.id))]
    taken: dict[int, set[str]] = {}
    for _, row in rows:
        if key(row.name) == row.name_key:
            taken.setdefault(row.battle_id, set()).add(row.name_key)
    renames: Renames = {}
    for table, row in rows:
        if key(row.name) == row.name_key:
            continue
        keys = taken.setdefault(row.battle_id, set())
        name = row.name if key(row.name) not in keys else _free_name(row.name, keys, key)
        if name != row.name:
            renames.setdefault(row.battle_id, {}).setdefault(table.name, {})[
                row.name_key] = name
        keys.add(key(name))
        bind.execute(table.update().where(table.c.id == row.id)
                     .values(name=name, name_key=key(name)))
    return renames


def _free_name(name: str, taken: set[str], key: Key) -> str:
    return next(candidate for candidate in _numbered(name) if key(candidate) not in taken)


def _numbered(name: str) -> Iterator[str]:
    for number in count(2):
        suffix = f" ({number})"
        yield name[:MAX_NAME - len(suffix)].rstrip() + suffix


def _follow(bind: sa.Connection, renames: Renames) -> None:
    """What names a renamed unit or general is renamed with it: in the rows as they are,
    and in the rows the log keeps for undo. A name was found by its key as it was."""
    battles = sorted(renames)
    for table, column in ((units, "commander"), (generals, "unit_name"),
                          (engagements, "sides")):
        for row in bind.execute(sa.select(table.c.id, table.c.battle_id, table.c[column])
                                .where(table.c.battle_id.in_(battles))):
            values = _renamed(table.name, {column: getattr(row, column)},
                              renames[row.battle_id])
            if values is not None:
                bind.execute(table.update().where(table.c.id == row.id).values(values))
    for event in bind.execute(sa.select(events.c.id, events.c.battle_id, events.c.changes)
                              .where(events.c.battle_id.in_(battles))):
        changes = _renamed_changes(event.changes or [], renames[event.battle_id])
        if changes is not None:
            bind.execute(events.update().where(events.c.id == event.id)
                         .values(changes=changes))


def _renamed_changes(changes: list[Any], renames: dict[str, dict[str, str]]
                     ) -> list[Any] | None:
    """An event's changes with the renamed names in their snapshots; None when none is."""
    result, touched = [], False
    for change in changes:
        change = dict(change)
        for side in ("before", "after"):
            if change.get(side):
                snapshot = _renamed(change["table"], change[side], renames)
                if snapshot is not None:
                    change[side], touched = {**change[side], **snapshot}, True
        result.append(change)
    return result if touched else None


def _renamed(table: str, values: dict[str, Any], renames: dict[str, dict[str, str]]
             ) -> dict[str, Any] | None:
    """The columns of ``values`` (a row of ``table``, or part of one) that name a renamed
    unit or general, with its new name; None when none does."""
    unit_names, general_names = renames.get("units", {}), renames.get("generals", {})
    own = {"units": unit_names, "generals": general_names}.get(table, {})
    changed: dict[str, Any] = {}
    for column, names in (("name", own), ("commander", general_names),
                          ("unit_name", unit_names)):
        name = values.get(column)
        if isinstance(name, str) and unfolded(name) in names:
            changed[column] = names[unfolded(name)]
    if "name" in changed and "name_key" in values:
        changed["name_key"] = folded(changed["name"])
    sides = values.get("sides")
    if table == "engagements" and isinstance(sides, list):
        new_sides = [[unit_names.get(unfolded(n), n) if isinstance(n, str) else n
                      for n in side] for side in sides]
        if new_sides != sides:
            changed["sides"] = new_sides
    return changed or None
