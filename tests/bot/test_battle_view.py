"""The battle view read in one statement (PostgreSQL), and table by table with Core
statements (SQLite), is what the ORM reads of the same tables."""

from __future__ import annotations

from datetime import datetime

import pytest
from sqlalchemy import select
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from bot.battles.store import BattleView, _read_view, _read_view_table_by_table, plain_records
from bot.storage.models import Battle, Charts, Engagement, Event, General, Unit

from .conftest import CHANNEL, GM_USER, reply
from .test_le_baton import setup

PLAY = [
    '/general add name:Soult side:French unit:"28e Ligne"',
    '/charge le-baton charger:"28e Ligne" target:Buffs dice:"1 6"',  # begins a melee
]


def plain(view) -> dict:
    rows = {"battle": view.battle, "units": view.units, "generals": view.generals,
            "events": view.events, "engagements": view.engagements}
    return {"charts": view.charts,
            **{name: ([dict(r._mapping) for r in found] if isinstance(found, list)
                      else dict(found._mapping)) for name, found in rows.items()}}


def orm_view(channel_id: int, ended_too: bool, events: int | None,
             conn: Connection) -> BattleView | None:
    """The view as the ORM loads it: the reference the quicker reads are held to."""
    with Session(bind=conn) as session:
        query = select(Battle).where(Battle.channel_id == channel_id)
        if ended_too:
            query = query.order_by((Battle.status == "active").desc(), Battle.id.desc())
        else:
            query = query.where(Battle.status == "active")
        found = session.execute(query.outerjoin(Charts, Charts.battle_id == Battle.id)
                                .add_columns(Charts.filename).limit(1)).first()
        if found is None:
            return None
        battle, charts = found
        units = list(session.scalars(
            select(Unit).where(Unit.battle_id == battle.id).order_by(Unit.side, Unit.id)))
        generals = list(session.scalars(
            select(General).where(General.battle_id == battle.id).order_by(General.id)))
        engagements = list(session.scalars(
            select(Engagement).where(Engagement.battle_id == battle.id,
                                     Engagement.status == "active").order_by(Engagement.id)))
        log: list[Event] = []
        if events != 0:
            latest = select(Event).where(Event.battle_id == battle.id).order_by(Event.seq.desc())
            log = list(reversed(list(session.scalars(
                latest if events is None else latest.limit(events)))))
        return BattleView(*(plain_records(rows) for rows in (battle, units, generals, log,
                                                        engagements)), charts=charts)


@pytest.mark.parametrize(("ended_too", "events"), [(False, 0), (False, 2), (True, None)])
async def test_one_statement_reads_what_the_tables_hold(battle_session, ended_too, events):
    await setup(battle_session)
    for line in PLAY:
        assert not (await reply(battle_session, line, user_id=GM_USER)).ephemeral, line
    db = battle_session.client.db
    args = (CHANNEL, ended_too, events)
    at_once = await db.batch(lambda conn: _read_view(*args, conn),
                             one_statement=db.is_postgresql)
    by_table = await db.batch(lambda conn: _read_view_table_by_table(*args, conn))
    by_orm = await db.batch(lambda conn: orm_view(*args, conn))
    assert plain(at_once) == plain(by_table) == plain(by_orm)
    assert len(at_once.units) == 3 and len(at_once.generals) == 1
    assert len(at_once.engagements) == 1
    assert len(at_once.events) == {0: 0, 2: 2, None: 6}[events]
    assert isinstance(at_once.battle.created_at, datetime)
    assert at_once.battle.created_at.tzinfo is not None


async def test_no_battle_reads_as_none(battle_session):
    db = battle_session.client.db
    assert await db.batch(lambda conn: _read_view(CHANNEL, False, 0, conn),
                          one_statement=db.is_postgresql) is None


async def test_a_moves_one_statement_read_is_its_read_table_by_table(battle_session):
    """On PostgreSQL a move reads the battle and its rows in one statement: exactly what
    its read table by table gives (on SQLite both are the read table by table)."""
    from bot.battles.moves import _read_rows, read_by_table

    await setup(battle_session)
    for line in PLAY:
        assert not (await reply(battle_session, line, user_id=GM_USER)).ephemeral, line
    db = battle_session.client.db
    async with db.transaction() as s:
        battle = await s.scalar(select(Battle))
        s.add(Charts(battle_id=battle.id, filename="pack.json", added_by=GM_USER,
                     content={"name": "pack", "table": {"AS": [1, 2.5, None]}}))

    def rows(read) -> dict:
        return {"battle": dict(read.battle._mapping),
                **{name: [dict(r._mapping) for r in getattr(read, name)]
                   for name in ("units", "generals", "engagements")}}

    async with db.reader() as s:
        applied = await s.scalar(select(Event.interaction_id).where(Event.seq == 5))
    for interaction in (None, applied):
        at_once = await db.batch(lambda conn, i=interaction: _read_rows(CHANNEL, i, conn),
                                 one_statement=db.is_postgresql)
        by_table = await db.batch(lambda conn, i=interaction: read_by_table(CHANNEL, i, conn))
        assert rows(at_once) == rows(by_table)
        assert at_once.roster == by_table.roster
        assert (len(at_once.units), len(at_once.generals), len(at_once.engagements)) == (3, 1, 1)
        assert at_once.battle.applied == (5 if interaction else None)
        assert at_once.battle.charts == {"name": "pack", "table": {"AS": [1, 2.5, None]}}
