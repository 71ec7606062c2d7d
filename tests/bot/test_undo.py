"""`/gm undo` by Core statements logs exactly what the general battle path would."""

from __future__ import annotations

from sqlalchemy import select

from bot.battles.actor import Actor
from bot.storage.models import Battle, Event, General, Unit

from .conftest import CHANNEL, GM_USER, reply

SETUP = [
    '/battle start ruleset:fire-at-will name:Minden',
    '/unit add side:British name:"12th Foot" words:"inf regular morale=4" strength:4',
    '/unit add side:French name:Picardie words:"inf regular morale=4" strength:4',
    '/general add name:Contades side:French unit:Picardie',
]
# Picardie loses by 4 and routs; Contades rolls 6 6 with it: a queue, units, a general.
QUEUE = '/gm dice dice:"5 2 6 6 4"'
MOVE = '/melee fire-at-will attackers:"12th Foot: charging" defenders:Picardie'


async def state(session) -> tuple:
    async with session.client.db.reader() as s:
        battle = (await s.scalars(select(Battle))).one().snapshot()
        battle.pop("last_seq")
        units = [u.snapshot() for u in await s.scalars(select(Unit).order_by(Unit.id))]
        generals = [g.snapshot() for g in await s.scalars(select(General).order_by(General.id))]
        events = list(await s.scalars(select(Event).order_by(Event.seq)))
    return battle, units, generals, events


async def test_undo_restores_every_row_and_logs_what_the_general_path_logs(battle_session):
    for line in SETUP:
        await reply(battle_session, line, user_id=GM_USER)
    await reply(battle_session, QUEUE, user_id=GM_USER)
    before = await state(battle_session)
    await reply(battle_session, MOVE)
    quick = await reply(battle_session, "/gm undo", user_id=GM_USER)
    assert quick.content.startswith("↩️ Undid #6 (resolution): Attackers win by 4: Picardie routs")
    assert quick.content.endswith("(event #7).")
    after_quick = await state(battle_session)
    assert after_quick[:3] == before[:3]

    await reply(battle_session, MOVE)
    store = battle_session.client.store
    gm = Actor(GM_USER, "gm", True, frozenset())
    async with store.command(CHANNEL, gm, None, "/gm undo") as tx:
        event = await tx.last_undoable()
        await tx.undo(event, f"Undid #{event.seq}: {event.summary}")
    *_, by_core, move, by_orm = (await state(battle_session))[3]
    assert (by_core.kind, by_core.reverts, move.undone_by) == ("undo", 6, 9)
    assert {c["table"] for c in by_core.changes} == {"battles", "units", "generals"}
    assert by_core.changes == by_orm.changes


async def test_undo_is_for_gms_and_needs_something_to_undo(battle_session):
    for line in SETUP:
        await reply(battle_session, line, user_id=GM_USER)
    refused = await reply(battle_session, "/gm undo")
    assert refused.ephemeral and "GM" in refused.content
    await reply(battle_session, "/gm undo", user_id=GM_USER)  # the general
    await reply(battle_session, "/gm undo", user_id=GM_USER)  # Picardie
    await reply(battle_session, "/gm undo", user_id=GM_USER)  # 12th Foot
    nothing = await reply(battle_session, "/gm undo", user_id=GM_USER)
    assert nothing.ephemeral
    assert "There is nothing to undo in this battle." in nothing.content
