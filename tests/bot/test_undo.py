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
    assert quick.content.startswith("↩️ Undid #6 (resolution): 12th Foot vs Picardie: Attackers "
                                 "win by 4: Picardie routs")
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


def count_undos(monkeypatch) -> list[bool | str]:
    """Each time an undo is worked out: "kept" when from the state this process's last move
    left (no read), True when read outside the lock, False when read under it."""
    from bot.battles import undo

    calls: list[bool | str] = []
    real, real_kept = undo._undo, undo._undo_kept

    def counted(*args, **kwargs):
        calls.append(kwargs.get("lock_key") is not None)
        return real(*args, **kwargs)

    async def counted_kept(*args, **kwargs):
        calls.append("kept")
        return await real_kept(*args, **kwargs)

    monkeypatch.setattr(undo, "_undo", counted)
    monkeypatch.setattr(undo, "_undo_kept", counted_kept)
    return calls


async def test_an_undo_overtaken_by_another_process_is_worked_out_on_what_is_stored(
        battle_session, monkeypatch):
    """On PostgreSQL the undo reads outside the lock and writes on condition that nothing
    moved the battle since; here another process writes in between, so the undo is worked
    out again under the lock. On SQLite it simply waits for the write lock."""
    import asyncio

    from sqlalchemy import update

    from bot.storage import Database

    from .test_battle_safety import ONE_SP, setup

    await setup(battle_session)
    await reply(battle_session, ONE_SP)  # #4: Artois 100 -> 99
    db = battle_session.client.db
    undos = count_undos(monkeypatch)
    async with Database(db.url) as other, \
            other.transaction(channel_id=CHANNEL) as s:  # another process, mid-command
        await s.execute(select(Battle.last_seq))
        undo = asyncio.create_task(reply(battle_session, "/gm undo", user_id=GM_USER))
        await asyncio.sleep(0.3)
        assert not undo.done()  # the undo's write waits for the channel, writing nothing
        await s.execute(update(Unit).where(Unit.name == "Artois").values(strength=50))
        await s.execute(update(Battle).values(last_seq=Battle.last_seq + 1))  # to #5
    message = await asyncio.wait_for(undo, 10)
    assert message.content.startswith("↩️ Undid #4"), message.content
    # On PostgreSQL, the undo of this process's own move is first worked out from the state
    # it left; its write, overtaken, writes nothing, and the undo is read again.
    assert undos == (["kept", True] if db.is_postgresql else [False])
    async with db.reader() as s:
        artois = await s.scalar(select(Unit).where(Unit.name == "Artois"))
        logged = await s.scalar(select(Event).where(Event.kind == "undo"))
    assert artois.strength == 100
    # Logged as #6, after the other writer's #5, with Artois as it really was before.
    assert logged.seq == 6
    [change] = [c for c in logged.changes if c["table"] == "units"]
    assert (change["before"]["strength"], change["after"]["strength"]) == (50, 100)


async def test_an_undo_that_deletes_or_restores_a_row_is_made_under_the_lock(
        battle_session, monkeypatch):
    for line in SETUP:
        await reply(battle_session, line, user_id=GM_USER)
    await reply(battle_session, '/unit add side:French name:Navarre words:"inf" strength:3',
                user_id=GM_USER)
    undos = count_undos(monkeypatch)
    message = await reply(battle_session, "/gm undo", user_id=GM_USER)
    assert message.content.startswith("↩️ Undid #5"), message.content
    postgresql = battle_session.client.db.is_postgresql
    assert undos == ([True, False] if postgresql else [False])
    async with battle_session.client.db.reader() as s:
        names = list(await s.scalars(select(Unit.name).order_by(Unit.id)))
    assert names == ["12th Foot", "Picardie"]


async def test_an_undo_overtaken_even_under_the_lock_says_so_and_changes_nothing(
        battle_session, monkeypatch):
    """Only a writer that skips the channel's lock could overtake the locked undo; if one
    did, the GM is told plainly and nothing is undone."""
    from bot.battles import undo

    from .test_battle_safety import ONE_SP, setup, strength_and_log

    await setup(battle_session)
    await reply(battle_session, ONE_SP)

    def overtaken(*args, **kwargs):
        raise undo._Overtaken

    async def kept_overtaken(*args, **kwargs):
        raise undo._Overtaken

    monkeypatch.setattr(undo, "_undo", overtaken)
    monkeypatch.setattr(undo, "_undo_kept", kept_overtaken)
    message = await reply(battle_session, "/gm undo", user_id=GM_USER)
    assert message.ephemeral and "nothing was undone" in message.content, message.content
    assert await strength_and_log(battle_session.client.db) == (99, [1, 2, 3, 4])


async def test_an_undo_right_after_a_move_reads_nothing_and_logs_what_a_read_one_logs(
        battle_session, monkeypatch):
    """On PostgreSQL the undo of this process's own last move is worked out from the state
    the move left (its rows, and its event as stored): one statement, no read. It stores and
    logs what the undo that reads everything first does."""
    for line in SETUP:
        await reply(battle_session, line, user_id=GM_USER)
    await reply(battle_session, QUEUE, user_id=GM_USER)
    before = await state(battle_session)
    undos = count_undos(monkeypatch)
    await reply(battle_session, MOVE)
    kept = await reply(battle_session, "/gm undo", user_id=GM_USER)
    assert kept.content.startswith("↩️ Undid #6 (resolution)"), kept.content
    assert (await state(battle_session))[:3] == before[:3]
    await reply(battle_session, MOVE)  # the same dice again: the queue was put back
    battle_session.client.store._states.forget(CHANNEL)  # as if another process had moved
    read = await reply(battle_session, "/gm undo", user_id=GM_USER)
    assert read.content.startswith("↩️ Undid #8 (resolution)"), read.content
    assert (await state(battle_session))[:3] == before[:3]
    postgresql = battle_session.client.db.is_postgresql
    assert undos == (["kept", True] if postgresql else [False, False])
    *_, first_move, by_kept, second_move, by_read = (await state(battle_session))[3]
    assert (by_kept.reverts, first_move.undone_by, by_read.reverts, second_move.undone_by) \
        == (6, 7, 8, 9)
    assert by_kept.changes == by_read.changes
    assert {c["table"] for c in by_kept.changes} == {"battles", "units", "generals"}


async def test_a_refusal_after_a_move_comes_from_what_is_stored(battle_session, monkeypatch):
    """A player who is not the GM is refused from the battle as stored, not from the state
    this process's move left (another process may have changed who the GM is)."""
    for line in SETUP:
        await reply(battle_session, line, user_id=GM_USER)
    await reply(battle_session, QUEUE, user_id=GM_USER)
    await reply(battle_session, MOVE)
    undos = count_undos(monkeypatch)
    refused = await reply(battle_session, "/gm undo")
    assert refused.ephemeral and "GM" in refused.content
    postgresql = battle_session.client.db.is_postgresql
    assert undos == (["kept", True] if postgresql else [False])
    events = (await state(battle_session))[3]
    assert [e.kind for e in events][-1] == "resolution" and events[-1].undone_by is None


async def test_undoing_a_new_turn_says_where_the_battle_is_now(battle_session):
    await reply(battle_session, "/battle start ruleset:tricorne name:Minden", user_id=GM_USER)
    for _ in range(5):  # through the five phases of Turn 1, into Turn 2
        moved = await reply(battle_session, "/battle next", user_id=GM_USER)
    assert moved.embeds[0]["title"] == "⏭️ Minden: Turn 2, play a Command card"
    undone = await reply(battle_session, "/gm undo", user_id=GM_USER)
    assert undone.content == "↩️ Undid #6 (turn): back to Turn 1, draw a Command card (event #7)."
    shown = await reply(battle_session, "/battle show")
    assert "Turn 1, draw a Command card" in shown.embeds[0]["description"]
