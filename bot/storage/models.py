"""The battle state: battles, their units and generals, and the event log that makes undo possible.

Everything a Discord command changes lives in these four tables, so that a restart, a second bot
process or a replayed interaction never loses or duplicates a move. Discord snowflakes exceed 32
bits, hence ``BigInteger`` for every Discord id.
"""

from __future__ import annotations

import json
import math
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    CheckConstraint,
    DateTime,
    Dialect,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    TypeDecorator,
    UniqueConstraint,
    text,
)
from sqlalchemy.ext.mutable import MutableDict, MutableList
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

# The lookup form of a unit's or general's name ("1ST FOOT", "Lochiel’s" find "1st Foot",
# "Lochiel's"): the engine's, so that a stored key is the one a lookup computes.
from rules.core.names import name_key

#: Constraint names are spelled out by convention so that migrations (and SQLite batch
#: rebuilds, which must name what they drop) see the same names on every database.
NAMING_CONVENTION: dict[str, str] = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

BATTLE_STATUSES = ("active", "ended")
UNIT_STATUSES = ("active", "gone")
GENERAL_STATUSES = ("active", "incapacitated", "captured", "killed")
ENGAGEMENT_STATUSES = ("active", "ended")


def utcnow() -> datetime:
    """The current time, timezone-aware, in UTC: the only kind of timestamp stored."""
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """``DateTime(timezone=True)`` that always hands back aware UTC datetimes.

    PostgreSQL keeps the offset itself, but SQLite stores text without one and would return naive
    datetimes; normalising on the way in and out keeps the two databases interchangeable.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError(f"naive datetime {value!r}: store timezone-aware UTC times only")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


def _json_dict() -> Any:
    """A JSON object column whose top-level keys are change-tracked (``d[k] = v`` is saved)."""
    return MutableDict.as_mutable(JSON())


def _json_list() -> Any:
    """A JSON array column whose top-level items are change-tracked (``append`` is saved)."""
    return MutableList.as_mutable(JSON())


def _status_check(statuses: tuple[str, ...]) -> CheckConstraint:
    allowed = ", ".join(f"'{status}'" for status in statuses)
    return CheckConstraint(f"status IN ({allowed})", name="status")


def from_snapshot(model: type[Base], snapshot: dict[str, Any]) -> dict[str, Any]:
    """A snapshot's values as the model's columns take them (ISO text back to datetimes);
    keys that are not columns of the model are left out."""
    values: dict[str, Any] = {}
    for attribute in model.__mapper__.column_attrs:
        if attribute.key not in snapshot:
            continue
        value = snapshot[attribute.key]
        if isinstance(attribute.columns[0].type, UTCDateTime) and isinstance(value, str):
            value = datetime.fromisoformat(value)
        elif isinstance(value, dict | list):
            value = detached(value)
        values[attribute.key] = value
    # A name's key is worked out from the name put back, never taken from the snapshot: a
    # snapshot logged before the key's form changed would put back a key no lookup finds.
    values.pop("name_key", None)
    if "name" in values and "name_key" in model.__mapper__.column_attrs:
        values["name_key"] = name_key(values["name"])
    return values


def plain_values(values: dict[str, Any]) -> dict[str, Any]:
    """Column values made JSON-safe (datetimes as ISO 8601 text) and detached: what the event
    log stores as a row's state, from an ORM row or a Core row alike."""
    return {key: _plain(value) for key, value in values.items()}


def _plain(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, dict | list):
        return detached(value)
    return value


def detached(value: Any) -> Any:
    """A deep, detached copy made of plain dicts/lists, so snapshots never alias live state:
    what a trip through JSON gives, made directly when the value is plain JSON already (a
    move copies a few small objects; the trip cost five times as much)."""
    try:
        return _copied(value)
    except _NotPlain:
        return json.loads(json.dumps(value))


class _NotPlain(Exception):
    """A value JSON would change on the way (a tuple, an enum, a number key): take the trip."""


def _copied(value: Any) -> Any:
    kind = type(value)
    if kind is dict:
        copy = {}
        for key, item in value.items():
            if type(key) is not str:
                raise _NotPlain
            copy[key] = _copied(item)
        return copy
    if kind is list:
        return [_copied(item) for item in value]
    if kind is str or kind is int or kind is bool or value is None:
        return value
    if kind is float and math.isfinite(value):
        return value
    raise _NotPlain


UNDOABLE = "undone_by IS NULL AND kind != 'undo'"
"""The events undo may still take back: an index's condition, repeated in the query using it."""


class Base(DeclarativeBase):
    """Declarative base carrying the shared naming convention and the snapshot helpers."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)

    def snapshot(self) -> dict[str, Any]:
        """Every column value as a JSON-safe dict (datetimes as ISO 8601 text).

        The event log stores these as before/after states, which is what undo writes back.
        """
        return plain_values({c.key: getattr(self, c.key) for c in self.__mapper__.column_attrs})

    def restore(self, snapshot: dict[str, Any]) -> None:
        """Write a :meth:`snapshot` back onto this instance; the primary key is left alone.

        Keys absent from the snapshot are left untouched, so snapshots taken before a column was
        added still restore.
        """
        primary_keys = {column.key for column in self.__mapper__.primary_key}
        for key, value in from_snapshot(type(self), snapshot).items():
            if key not in primary_keys:
                setattr(self, key, value)


class Battle(Base):
    """One game in one Discord channel; a channel has at most one active battle at a time."""

    __tablename__ = "battles"
    __table_args__ = (
        Index(
            "uq_battles_active_channel_id",
            "channel_id",
            unique=True,
            sqlite_where=text("status = 'active'"),
            postgresql_where=text("status = 'active'"),
        ),
        _status_check(BATTLE_STATUSES),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    channel_id: Mapped[int] = mapped_column(BigInteger)
    guild_id: Mapped[int | None] = mapped_column(BigInteger)
    ruleset: Mapped[str] = mapped_column(String(32))
    name: Mapped[str] = mapped_column(String(100))
    status: Mapped[str] = mapped_column(String(16), default="active")
    created_by: Mapped[int] = mapped_column(BigInteger)
    gm_role_id: Mapped[int | None] = mapped_column(BigInteger)
    # The two sides, in their canonical spelling, once fixed (at start, or when a second side
    # first appears); None until then.
    sides: Mapped[list[str] | None] = mapped_column(JSON())
    settings: Mapped[dict[str, Any]] = mapped_column(_json_dict(), default=dict)
    turn: Mapped[int] = mapped_column(Integer, default=1)
    phase: Mapped[str | None] = mapped_column(String(64))
    last_seq: Mapped[int] = mapped_column(Integer, default=0)
    dice_queue: Mapped[list[Any]] = mapped_column(_json_list(), default=list)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    # A question the rules put to a player mid-procedure, waiting for the answer: the move
    # so far (see ``bot.battles.decisions``). While it waits, the battle takes no other move.
    # SQL NULL when there is none (not JSON ``null``): moves test ``pending IS NULL``.
    pending: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))

    # Commands read units and generals with one query each, when they need them; a load
    # through the relationship would be a hidden round trip, so it raises instead.
    units: Mapped[list[Unit]] = relationship(
        back_populates="battle", cascade="all, delete-orphan", passive_deletes=True,
        order_by="Unit.id", lazy="raise",
    )
    generals: Mapped[list[General]] = relationship(
        back_populates="battle", cascade="all, delete-orphan", passive_deletes=True,
        order_by="General.id", lazy="raise",
    )
    # The log grows without bound, so it is never loaded by accident: query it, or ask for it
    # with ``selectinload(Battle.events)``.
    events: Mapped[list[Event]] = relationship(
        back_populates="battle", cascade="all, delete-orphan", passive_deletes=True,
        order_by="Event.seq", lazy="raise",
    )

    def __repr__(self) -> str:
        return f"<Battle {self.id} {self.name!r} channel={self.channel_id} {self.status}>"


class Unit(Base):
    """A unit on the table; rule-set specific details live in ``attributes``."""

    __tablename__ = "units"
    __table_args__ = (
        UniqueConstraint("battle_id", "name_key"),
        _status_check(UNIT_STATUSES),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    battle_id: Mapped[int] = mapped_column(
        ForeignKey("battles.id", ondelete="CASCADE"), index=True
    )
    name: Mapped[str] = mapped_column(String(64))
    name_key: Mapped[str] = mapped_column(String(64))
    side: Mapped[str] = mapped_column(String(32))
    strength: Mapped[int | None] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16), default="active")
    gone_reason: Mapped[str | None] = mapped_column(String(64))
    attributes: Mapped[dict[str, Any]] = mapped_column(_json_dict(), default=dict)
    commander: Mapped[str | None] = mapped_column(String(64))
    # Who added it: they (or a GM) may edit or remove it. None for units added before this
    # was kept, which only a GM may change.
    added_by: Mapped[int | None] = mapped_column(BigInteger)

    battle: Mapped[Battle] = relationship(back_populates="units")

    def __repr__(self) -> str:
        return f"<Unit {self.id} {self.name!r} {self.side} {self.status}>"


class General(Base):
    """A general (commander) of one side, possibly attached to a unit."""

    __tablename__ = "generals"
    __table_args__ = (
        UniqueConstraint("battle_id", "name_key"),
        _status_check(GENERAL_STATUSES),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    battle_id: Mapped[int] = mapped_column(
        ForeignKey("battles.id", ondelete="CASCADE"), index=True
    )
    name: Mapped[str] = mapped_column(String(64))
    name_key: Mapped[str] = mapped_column(String(64))
    side: Mapped[str] = mapped_column(String(32))
    unit_name: Mapped[str | None] = mapped_column(String(64))
    wounds: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[str] = mapped_column(String(16), default="active")
    # His value where the rule set counts one (La Bataille: a leader's dice modifier); None:
    # not given, never taken as 0.
    value: Mapped[int | None] = mapped_column(Integer)
    # Who added him: as for units, they or a GM may remove him; None means GM only.
    added_by: Mapped[int | None] = mapped_column(BigInteger)

    battle: Mapped[Battle] = relationship(back_populates="generals")

    def __repr__(self) -> str:
        return f"<General {self.id} {self.name!r} {self.side} {self.status}>"


class Engagement(Base):
    """A fight that lasts between units of two sides (see ``rules.core.engagements``):
    changed only by events, and undone like units."""

    __tablename__ = "engagements"
    __table_args__ = (_status_check(ENGAGEMENT_STATUSES),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    battle_id: Mapped[int] = mapped_column(ForeignKey("battles.id", ondelete="CASCADE"),
                                           index=True)
    kind: Mapped[str] = mapped_column(String(32))
    sides: Mapped[list[Any]] = mapped_column(JSON())  # [[unit, ...], [unit, ...]]
    state: Mapped[dict[str, Any]] = mapped_column(_json_dict(), default=dict)
    status: Mapped[str] = mapped_column(String(16), default="active")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)

    def __repr__(self) -> str:
        return f"<Engagement {self.id} {self.kind} {self.sides} {self.status}>"


class Charts(Base):
    """The chart pack a GM attached to a battle (``/battle charts``): kept as its own row, so
    that the log snapshots it only when it changes, and undone like units."""

    __tablename__ = "charts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    battle_id: Mapped[int] = mapped_column(ForeignKey("battles.id", ondelete="CASCADE"),
                                           unique=True)
    filename: Mapped[str] = mapped_column(String(200))
    content: Mapped[dict[str, Any]] = mapped_column(JSON())
    added_by: Mapped[int] = mapped_column(BigInteger)
    added_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)

    def __repr__(self) -> str:
        return f"<Charts {self.id} {self.filename!r} battle={self.battle_id}>"


class Event(Base):
    """One recorded command in a battle's log, numbered by ``seq`` within the battle.

    ``interaction_id`` is unique so a Discord interaction delivered twice is recorded once;
    ``changes`` holds the before/after snapshots that undo replays in reverse.
    """

    __tablename__ = "events"
    __table_args__ = (
        UniqueConstraint("battle_id", "seq"),
        # The events undo can still take back (see ``BattleTx.last_undoable``).
        Index("ix_events_undoable", "battle_id", "seq",
              sqlite_where=text(UNDOABLE), postgresql_where=text(UNDOABLE)),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    battle_id: Mapped[int] = mapped_column(ForeignKey("battles.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    interaction_id: Mapped[int | None] = mapped_column(BigInteger, unique=True)
    user_id: Mapped[int] = mapped_column(BigInteger)
    user_name: Mapped[str] = mapped_column(String(100))
    command: Mapped[str] = mapped_column(String(200))
    kind: Mapped[str] = mapped_column(String(32))
    summary: Mapped[str] = mapped_column(String(500))
    request: Mapped[dict[str, Any] | None] = mapped_column(JSON())
    resolution: Mapped[dict[str, Any] | None] = mapped_column(JSON())
    changes: Mapped[list[Any]] = mapped_column(_json_list(), default=list)
    undone_by: Mapped[int | None] = mapped_column(Integer)
    reverts: Mapped[int | None] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)

    battle: Mapped[Battle] = relationship(back_populates="events")

    def __repr__(self) -> str:
        return f"<Event {self.battle_id}#{self.seq} {self.kind} {self.summary!r}>"


class Question(Base):
    """A quick lookup's question to its player, waiting for the answer (no battle to hold it)."""

    __tablename__ = "questions"
    # Its buttons carry its id: one never handed out again (SQLite would reuse the largest).
    __table_args__ = ({"sqlite_autoincrement": True},)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    channel_id: Mapped[int] = mapped_column(BigInteger, index=True)
    user_id: Mapped[int] = mapped_column(BigInteger)
    data: Mapped[dict[str, Any]] = mapped_column(JSON())
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class Trace(Base):
    """A quick lookup's steps, for the Steps button under its result (a battle's are in its
    event log): kept a fortnight, keyed by the interaction that asked for the lookup."""

    __tablename__ = "traces"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    data: Mapped[dict[str, Any]] = mapped_column(JSON())
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow, index=True)


class MentionOptOut(Base):
    """A player who asked (``/notify off``) not to be pinged when a battle waits on his
    answer: one row per Discord user, for every server (the default, no row, is on)."""

    __tablename__ = "mention_opt_outs"

    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class QuestionMessage(Base):
    """The message that holds a question's buttons, so that an answer typed with `/answer`
    turns that message into the result as a press of its buttons does. Keyed by the id the
    buttons carry (``b<battle>:<seq>``, ``q<question>:0``); taken away by the answer."""

    __tablename__ = "question_messages"

    question: Mapped[str] = mapped_column(String(64), primary_key=True)
    channel_id: Mapped[int] = mapped_column(BigInteger)
    message_id: Mapped[int] = mapped_column(BigInteger)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
