"""The battle view read in one statement (PostgreSQL) is the view read table by table."""

from __future__ import annotations

from datetime import datetime

import pytest

from bot.battles.store import _read_view, _read_view_table_by_table

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
    assert plain(at_once) == plain(by_table)
    assert len(at_once.units) == 3 and len(at_once.generals) == 1
    assert len(at_once.engagements) == 1
    assert len(at_once.events) == {0: 0, 2: 2, None: 6}[events]
    assert isinstance(at_once.battle.created_at, datetime)
    assert at_once.battle.created_at.tzinfo is not None


async def test_no_battle_reads_as_none(battle_session):
    db = battle_session.client.db
    assert await db.batch(lambda conn: _read_view(CHANNEL, False, 0, conn),
                          one_statement=db.is_postgresql) is None
