"""A battle as the cogs and renderers see it: typed, read-only records of its rows, read in
one read-only transaction (one snapshot of the battle, on either database)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields, replace
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy import bindparam, select
from sqlalchemy.engine import Connection

from bot.battles.decisions import Pending, so_far
from bot.battles.errors import BattleError
from bot.battles.play import play_settings
from bot.battles.store import TABLES, roster_engagement, roster_general, roster_unit
from bot.storage.models import plain_values
from rules.core.errors import code
from rules.core.names import name_key
from rules.core.records import Resolution
from rules.core.roster import Roster

UNDID_KIND, UNDID_ANSWER = "undid", "answer"
"""What an undo's event keeps of the event it took back, for the log's short label of it
(``bot.render.battle.undone_label``): its kind, which says how its summary is built, and
the answer it played on with, where the summary says one apart. Player text in a summary
may hold what would read as the end of a clause there (a side "Army: Left Wing", an answer
"G. Grenadiers ignores 1 flag")."""


@dataclass(frozen=True)
class BattleRecord:
    id: int
    channel_id: int
    guild_id: int | None
    ruleset: str
    name: str
    status: str
    created_by: int
    gm_role_id: int | None
    sides: list[str] | None
    settings: dict[str, Any]
    turn: int
    phase: str | None
    last_seq: int
    dice_queue: list[Any]
    created_at: datetime
    ended_at: datetime | None
    pending: dict[str, Any] | None


@dataclass(frozen=True)
class UnitRecord:
    id: int
    battle_id: int
    name: str
    name_key: str
    side: str
    strength: int | None
    status: str
    gone_reason: str | None
    attributes: dict[str, Any]
    commander: str | None
    added_by: int | None


@dataclass(frozen=True)
class GeneralRecord:
    id: int
    battle_id: int
    name: str
    name_key: str
    side: str
    unit_name: str | None
    wounds: int
    status: str
    added_by: int | None
    value: int | None  # a leader's value, where the rule set counts one


@dataclass(frozen=True)
class EngagementRecord:
    id: int
    battle_id: int
    kind: str
    sides: list[Any]
    state: dict[str, Any]
    status: str
    created_at: datetime


@dataclass(frozen=True)
class EventRecord:
    id: int
    battle_id: int
    seq: int
    interaction_id: int | None
    user_id: int
    user_name: str
    command: str
    kind: str
    summary: str
    request: dict[str, Any] | None
    resolution: dict[str, Any] | None
    changes: list[Any]
    undone_by: int | None
    reverts: int | None
    created_at: datetime


@dataclass(frozen=True)
class BattleView:
    """A consistent read of a battle, as plain read-only records (never database rows)."""

    battle: BattleRecord
    units: list[UnitRecord]
    generals: list[GeneralRecord]
    events: list[EventRecord]
    engagements: list[EngagementRecord] = field(default_factory=list)  # still going on
    charts: str | None = None  # the file name of the chart pack attached, if any
    roster: Roster = field(default_factory=Roster)  # as the rules read it
    side: str | None = None  # the one side whose units and generals these are, if only one
    # The question waiting's move up to it (``so_far``): read for the archive only.
    so_far: Resolution | None = None


def one_side(view: BattleView, typed: str) -> BattleView:
    """The battle with one side's units and generals, and the fights they are in: a large
    battle's roster in half the lines of a phone (`/battle show side:`)."""
    key = name_key(typed)
    sides = dict.fromkeys([*(view.battle.sides or ()), *(u.side for u in view.units),
                           *(g.side for g in view.generals)])
    side = next((s for s in sides if name_key(s) == key), None)
    if side is None:
        said = " and ".join(sides)
        raise BattleError(f"This battle has no side called {code(typed)}.",
                          hint=f"Its sides: {said}." if said else
                          "It has no units yet: `/unit add` adds one.")
    units = [u for u in view.units if name_key(u.side) == key]
    names = {name_key(u.name) for u in units}
    engagements = [e for e in view.engagements
                   if any(name_key(n) in names for engaged in e.sides for n in engaged)]
    return replace(view, units=units, generals=[g for g in view.generals
                                                if name_key(g.side) == key],
                   engagements=engagements, side=side)


R = TypeVar("R")


def record(kind: type[R], row: Any) -> R:
    """The record of a row: every column, as it is."""
    return kind(**{f.name: getattr(row, f.name) for f in fields(kind)})  # type: ignore[arg-type]


def snapshot(found: Any) -> dict[str, Any]:
    """A record's columns as JSON-safe data (datetimes as ISO 8601 text), as the log keeps a
    row's: for an export."""
    return plain_values(asdict(found))


_BATTLES, _EVENTS, _UNITS = TABLES["battles"], TABLES["events"], TABLES["units"]
_GENERALS, _ENGAGEMENTS, _CHARTS = TABLES["generals"], TABLES["engagements"], TABLES["charts"]
_ACTIVE = (select(_BATTLES).where(_BATTLES.c.channel_id == bindparam("channel"),
                                  _BATTLES.c.status == "active").limit(1))
# The active battle, or else the one that ended last.
_LATEST = (select(_BATTLES).where(_BATTLES.c.channel_id == bindparam("channel"))
           .order_by((_BATTLES.c.status == "active").desc(), _BATTLES.c.id.desc()).limit(1))
_LOG = select(_EVENTS).where(_EVENTS.c.battle_id == bindparam("battle")).order_by(
    _EVENTS.c.seq.desc())
_LATEST_LOG = _LOG.limit(bindparam("count"))
_UNITS_OF = (select(_UNITS).where(_UNITS.c.battle_id == bindparam("battle"))
              .order_by(_UNITS.c.id))
_GENERALS_OF = (select(_GENERALS).where(_GENERALS.c.battle_id == bindparam("battle"))
                .order_by(_GENERALS.c.id))
_ENGAGED = (select(_ENGAGEMENTS).where(_ENGAGEMENTS.c.battle_id == bindparam("battle"),
                                       _ENGAGEMENTS.c.status == "active")
            .order_by(_ENGAGEMENTS.c.id))
_CHARTS_FILE = select(_CHARTS.c.filename).where(_CHARTS.c.battle_id == bindparam("battle"))
_CHARTS_CONTENT = select(_CHARTS.c.content).where(_CHARTS.c.battle_id == bindparam("battle"))


def by_side(sides: list[str] | None, units: list[Any]) -> list[Any]:
    """Units (in the order they were added) side by side, the sides in the battle's order:
    as started (`sides:"French, British"`), else as first named."""
    order: dict[str, int] = {}
    for side in [*(sides or ()), *(u.side for u in units)]:
        order.setdefault(name_key(side), len(order))
    return sorted(units, key=lambda u: order[name_key(u.side)])


def read_view(conn: Connection, channel_id: int, ended_too: bool = False,
              events: int | None = 0) -> BattleView | None:
    """The channel's battle (the active one, or with ``ended_too`` the latest), its units by
    side, generals, engagements still going on, its latest ``events`` (None: all of them)
    and its chart pack's file name; None when there is none."""
    battle = conn.execute(_LATEST if ended_too else _ACTIVE, {"channel": channel_id}).first()
    if battle is None:
        return None
    where = {"battle": battle.id}
    log = []
    if events != 0:
        log = list(conn.execute(_LOG, where) if events is None else
                   conn.execute(_LATEST_LOG, {**where, "count": events}))
        log.reverse()
    units = by_side(battle.sides, list(conn.execute(_UNITS_OF, where)))
    generals = list(conn.execute(_GENERALS_OF, where))
    engagements = list(conn.execute(_ENGAGED, where))
    roster = Roster(tuple(map(roster_unit, units)), tuple(map(roster_general, generals)),
                    tuple(map(roster_engagement, engagements)))
    return BattleView(record(BattleRecord, battle), [record(UnitRecord, u) for u in units],
                      [record(GeneralRecord, g) for g in generals],
                      [record(EventRecord, e) for e in log],
                      [record(EngagementRecord, e) for e in engagements],
                      conn.execute(_CHARTS_FILE, where).scalar(), roster)


def read_archive(conn: Connection, channel_id: int) -> BattleView | None:
    """The channel's battle (the active one, else the latest) with its whole log, for its
    Markdown export: and, while a question waits, the rolls its move made before it, which
    no event keeps until it is answered."""
    view = read_view(conn, channel_id, ended_too=True, events=None)
    if view is None or not view.battle.pending:
        return view
    battle = view.battle
    charts = conn.execute(_CHARTS_CONTENT, {"battle": battle.id}).scalar()
    settings = play_settings(battle.ruleset, battle.settings, charts)
    return replace(view, so_far=so_far(Pending.from_dict(battle.pending), view.roster,
                                       settings))
