"""The rows a channel's last command left, which the next command takes instead of reading
them, are always what the database holds."""

from __future__ import annotations

from sqlalchemy import select

from bot.battles.store import TABLES

from .conftest import CHANNEL, GM_USER, reply
from .test_le_baton import setup as setup_le_baton
from .test_tricorne import MELEE, press
from .test_tricorne import setup as setup_tricorne


async def assert_kept_is_stored(session) -> None:
    kept = session.client.store._kept.get(CHANNEL)
    assert kept is not None
    async with session.client.db.transaction() as s:
        def rows(table, **where):
            query = select(TABLES[table]).where(TABLES[table].c.battle_id == kept.battle.id,
                                                *(TABLES[table].c[k] == v
                                                  for k, v in where.items()))
            return s.execute(query.order_by(TABLES[table].c.id))

        battle = (await s.execute(select(TABLES["battles"]).where(
            TABLES["battles"].c.id == kept.battle.id))).one()
        assert kept.battle.columns() == dict(battle._mapping)
        for table, held, where in (("units", kept.units, {}), ("generals", kept.generals, {}),
                                   ("engagements", kept.engagements, {"status": "active"})):
            if held is not None:
                stored = [dict(r._mapping) for r in await rows(table, **where)]
                assert [r.columns() for r in held] == stored, table


async def test_the_kept_rows_follow_every_kind_of_command(battle_session):
    session = battle_session
    await setup_le_baton(session)
    for line in ('/charge le-baton charger:"28e Ligne" target:Buffs dice:"1 6"',  # a melee
                 '/gm set unit:"28e Ligne" field:status value:gone',  # ends it
                 '/gm restore unit:"28e Ligne"',
                 '/unit edit unit:Buffs rename:"3rd Foot"',
                 '/general add name:Beresford side:British unit:"3rd Foot"',
                 '/unit remove unit:"3rd Foot"',
                 "/gm undo",
                 '/gm dice dice:"6 6"',
                 "/battle next"):
        await reply(session, line, user_id=GM_USER)
        await assert_kept_is_stored(session)


async def test_the_kept_rows_follow_a_move_with_its_questions(battle_session):
    session = battle_session
    await setup_tricorne(session)
    asked = await reply(session, MELEE, user_id=GM_USER)
    await assert_kept_is_stored(session)
    await press(session, asked, "Stand and fight")
    await assert_kept_is_stored(session)
    await reply(session, "/gm reroll", user_id=GM_USER)
    await assert_kept_is_stored(session)


async def test_the_kept_rows_hold_a_melee_an_undo_brings_back(battle_session):
    session = battle_session
    await setup_le_baton(session)
    for line in ('/charge le-baton charger:"28e Ligne" target:Buffs dice:"1 6"',  # a melee
                 '/gm set unit:"28e Ligne" field:status value:gone',  # ends it
                 "/gm undo"):  # and it goes on again
        await reply(session, line, user_id=GM_USER)
        await assert_kept_is_stored(session)
    # The next move sees the melee: a unit in none could not test for losing one.
    tested = await reply(session, '/morale le-baton unit:"28e Ligne" phase:7 dice:1',
                         user_id=GM_USER)
    assert not tested.ephemeral, tested.content
