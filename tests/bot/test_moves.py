"""A move written by the quick path logs exactly what the general battle path would."""

from __future__ import annotations

from sqlalchemy import select

from bot.battles.actor import Actor
from bot.battles.play import play_in_battle
from bot.storage.models import Event

from .conftest import CHANNEL, GM_USER, reply

SETUP = [
    '/battle start ruleset:fire-at-will name:Minden',
    '/unit add side:British name:"12th Foot" words:"inf regular morale=4" strength:4',
    '/unit add side:French name:Picardie words:"inf regular morale=4" strength:4',
    '/general add name:Contades side:French unit:Picardie',
]
OPTIONS = {"attackers": "12th Foot: charging", "defenders": "Picardie"}


async def events(session) -> list[Event]:
    async with session.client.db.reader() as s:
        return list(await s.scalars(select(Event).order_by(Event.seq)))


async def test_the_quick_path_records_the_changes_the_general_path_records(battle_session):
    for line in SETUP:
        await reply(battle_session, line, user_id=GM_USER)
    # Picardie loses by 4 and routs; Contades rolls 6 6 with it: a queue, units, a general.
    await reply(battle_session, '/gm dice dice:"5 2 6 6 4"', user_id=GM_USER)
    quick = await reply(battle_session, '/melee fire-at-will attackers:"12th Foot: charging" '
                                        "defenders:Picardie")
    assert not quick.ephemeral
    await reply(battle_session, "/gm undo", user_id=GM_USER)
    store = battle_session.client.store
    gm = Actor(GM_USER, "gm", True, frozenset())
    async with store.command(CHANNEL, gm, None, "/melee fire-at-will") as tx:
        await play_in_battle(tx, "melee", OPTIONS, None)
    *_, by_quick_path, undo, by_general_path = await events(battle_session)
    assert undo.kind == "undo"
    assert {c["table"] for c in by_quick_path.changes} == {"battles", "units", "generals"}
    assert by_quick_path.changes == by_general_path.changes
    assert by_quick_path.resolution == by_general_path.resolution
