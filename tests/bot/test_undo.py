"""`/gm undo` puts back every row the last event changed, under the channel's lock."""

from __future__ import annotations

from sqlalchemy import select

from bot.storage.models import Battle, Event, General, Unit

from .conftest import CHANNEL, GM_USER, GUILD, PLAYER, played, reply, writes_begun
from .test_decisions import CHARGE, OTHER, buttons
from .test_decisions import SETUP as CHARGE_SETUP
from .test_decisions import setup as setup_charge

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
    async with session.client.db.transaction() as s:
        battle = (await s.scalars(select(Battle))).one().snapshot()
        battle.pop("last_seq")
        units = [u.snapshot() for u in await s.scalars(select(Unit).order_by(Unit.id))]
        generals = [g.snapshot() for g in await s.scalars(select(General).order_by(General.id))]
        events = list(await s.scalars(select(Event).order_by(Event.seq)))
    return battle, units, generals, events


async def test_undo_restores_every_row_and_logs_what_it_put_back(battle_session):
    for line in SETUP:
        await reply(battle_session, line, user_id=GM_USER)
    await reply(battle_session, QUEUE, user_id=GM_USER)
    before = await state(battle_session)
    await reply(battle_session, MOVE)
    undone = await reply(battle_session, "/gm undo", user_id=GM_USER)
    assert undone.content.startswith("↩️ Undid #6 (resolution): 12th Foot vs Picardie: "
                                     "Attackers win by 4: Picardie routs")
    # The GM's dice the move took are queued again, and the GM is told.
    said, *roster = undone.content.split("\n")
    assert said.endswith("(event #7). The GM's queue is back: 5 dice are waiting "
                         "for the next roll here (`/gm dice clear:true` empties it).")
    # The roster as the undo left it: the summary says where the move had left it.
    assert roster == ["📋 Contades is back in command",
                      "📋 Picardie gains 2 SP (now 4) and is no longer routing"]
    after = await state(battle_session)
    assert after[:3] == before[:3]
    *_, move, undo = after[3]
    assert (undo.kind, undo.reverts, move.undone_by) == ("undo", 6, 7)
    assert {c["table"] for c in undo.changes} == {"battles", "units", "generals"}
    for change in undo.changes:  # each row from the move's state after to its state before
        [made] = [c for c in move.changes
                  if (c["table"], c["id"]) == (change["table"], change["id"])]
        assert (change["before"], change["after"]) == (made["after"], made["before"])


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
    for line in ("/gm reroll", "/gm override result:routs"):
        nothing = await reply(battle_session, line, user_id=GM_USER)
        assert nothing.ephemeral
        assert nothing.content == ("⚠️ There is nothing to reroll or override in this battle. "
                                   "Play a move first."), (line, nothing.content)


async def test_an_undo_waits_for_another_process_and_works_on_what_it_wrote(battle_session):
    """Another bot process holds the channel mid-command: the undo waits for it, then puts
    back the rows as they really are."""
    import asyncio

    from sqlalchemy import update

    from bot.storage import Database

    from .test_battle_safety import ONE_SP, setup

    await setup(battle_session)
    await reply(battle_session, ONE_SP)  # #4: Artois 100 -> 99
    db = battle_session.client.db
    writing = writes_begun(db)
    async with Database(db.url) as other, \
            other.transaction(channel_id=CHANNEL) as s:  # another process, mid-command
        await s.execute(select(Battle.last_seq))
        undo = asyncio.create_task(reply(battle_session, "/gm undo", user_id=GM_USER))
        await asyncio.wait_for(writing.wait(), 60)  # the undo's unit of work has begun
        assert not undo.done()  # the undo's write waits for the channel, writing nothing
        await s.execute(update(Unit).where(Unit.name == "Artois").values(strength=50))
        await s.execute(update(Battle).values(last_seq=Battle.last_seq + 1))  # to #5
    message = await asyncio.wait_for(undo, 60)
    assert message.content.startswith("↩️ Undid #4"), message.content
    async with db.transaction() as s:
        artois = await s.scalar(select(Unit).where(Unit.name == "Artois"))
        logged = await s.scalar(select(Event).where(Event.kind == "undo"))
    assert artois.strength == 100
    # Logged as #6, after the other writer's #5, with Artois as it really was before.
    assert logged.seq == 6
    [change] = [c for c in logged.changes if c["table"] == "units"]
    assert (change["before"]["strength"], change["after"]["strength"]) == (50, 100)


async def test_undoing_a_new_turn_says_where_the_battle_is_now(battle_session):
    await reply(battle_session, "/battle start ruleset:tricorne name:Minden", user_id=GM_USER)
    for _ in range(5):  # through the five phases of Turn 1, into Turn 2
        moved = await reply(battle_session, "/battle next", user_id=GM_USER)
    assert moved.embeds[0]["title"] == "⏭️ Minden: Turn 2, play a Command card"
    undone = await reply(battle_session, "/gm undo", user_id=GM_USER)
    assert undone.content == "↩️ Undid #6 (turn): back to Turn 1, draw a Command card (event #7)."
    shown = await reply(battle_session, "/battle show")
    assert "Turn 1, draw a Command card" in shown.embeds[0]["description"]


def test_undo_puts_back_only_the_fields_the_event_changed():
    # Later events may have changed the row's other fields (a GM queueing dice after a
    # roll): those stay as they are.
    from bot.battles.store import restoring

    change = {"before": {"strength": 4, "dice_queue": [], "turn": 2},
              "after": {"strength": 3, "dice_queue": [], "turn": 2}}
    assert restoring(change, exists=True) == ("update", {"strength": 4})
    assert restoring({"before": None, "after": {"strength": 3}}, exists=True) == (
        "delete", {})
    assert restoring({"before": None, "after": {"strength": 3}}, exists=False) is None
    assert restoring({"before": {"strength": 4}, "after": None}, exists=False) == (
        "insert", {"strength": 4})


async def test_only_an_undo_that_puts_queued_dice_back_says_the_queue_is_back(battle_session):
    """The queue is said to be back only when the undo grew it: undoing a unit's addition
    leaves the GM's queued dice as they were, and says nothing of them."""
    await setup_charge(battle_session)
    await reply(battle_session, '/gm dice dice:"6 6"', user_id=GM_USER)
    await reply(battle_session, '/unit add side:British name:Foot words:"inf morale=4" '
                                'strength:4', user_id=OTHER)
    undone = await reply(battle_session, "/gm undo", user_id=GM_USER)
    assert undone.content == "↩️ Undid #5 (unit add): Added Foot (British) (event #6)."
    stood = await reply(battle_session, CHARGE.replace(" dice:1", ""), user_id=OTHER)
    assert stood.embeds[0]["title"].endswith("Hussars stands: melee follows")
    undone = await reply(battle_session, "/gm undo", user_id=GM_USER)
    assert undone.content.endswith(
        "(event #8). The GM's queue is back: 2 dice are waiting for the next roll here "
        "(`/gm dice clear:true` empties it).")


async def test_a_question_an_undo_brings_back_does_not_ping_a_player_who_turned_pings_off(
        battle_session):
    """The question waits again on the hussars' player, who turned mentions off: the undo
    quotes it, with its buttons, and pings nobody; it still names him, as the question's
    own message does, for a player coming back to read whose answer it waits on."""
    await setup_charge(battle_session)
    await reply(battle_session, "/notify off", user_id=PLAYER)
    await reply(battle_session, CHARGE, user_id=OTHER)
    await reply(battle_session, "/answer choice:stand", user_id=PLAYER)
    undone = await reply(battle_session, "/gm undo", user_id=GM_USER)
    assert undone.content == (
        "↩️ Undid #5 (resolution): Answered #4: Stand. Hussars vs Rangers: Hussars stands: "
        "melee follows (event #6). The question (#4) waits again: “Does Hussars "
        f"counter-charge?” Hussars' player (<@{PLAYER}>) or a GM decides.")
    assert undone.request.payload["data"]["allowed_mentions"] == {"parse": []}
    assert buttons(undone) == ["Counter-charge Rangers", "Stand"]


async def test_a_question_an_undo_brings_back_to_the_gm_himself_pings_nobody(battle_session):
    """The GM's own unit's question, waiting again after his undo: he is looking at it."""
    await played(battle_session, *(line for line, _ in CHARGE_SETUP))  # all the GM's units
    await reply(battle_session, CHARGE, user_id=OTHER)
    await reply(battle_session, "/answer choice:stand", user_id=GM_USER)
    undone = await reply(battle_session, "/gm undo", user_id=GM_USER)
    assert undone.content.endswith("The question (#4) waits again: “Does Hussars "
                                   f"counter-charge?” Hussars' player (<@{GM_USER}>) or a "
                                   "GM decides.")
    assert undone.request.payload["data"]["allowed_mentions"] == {"parse": []}


async def test_undoing_queued_dice_says_what_the_queue_holds_now(battle_session):
    """The undone event's summary says the queue as it had left it ("3 waiting"): the
    reply says what is left, or that nothing is."""
    await reply(battle_session, SETUP[0], user_id=GM_USER)
    await reply(battle_session, '/gm dice dice:"5 2"', user_id=GM_USER)
    await reply(battle_session, "/gm dice dice:6", user_id=GM_USER)
    undone = await reply(battle_session, "/gm undo", user_id=GM_USER)
    assert undone.content == ("↩️ Undid #3 (dice queue): GM queued 1 die (3 waiting) "
                              "(event #4). The GM's queue now holds 2 dice.")
    undone = await reply(battle_session, "/gm undo", user_id=GM_USER)
    assert undone.content.endswith("(event #5). The GM's queue is now empty.")


async def test_the_logs_undo_labels_keep_a_full_stop_or_colon_of_player_text(battle_session):
    """An answer whose words hold a full stop ("G. Grenadiers ignores 1 flag") and a side
    whose name holds a colon ("Army: Left Wing") are named whole by the undo's line, not cut
    there as if the summary's own clause ended."""
    for line in ["/battle start ruleset:tricorne name:Prestonpans",
                 '/unit add side:"Army: Left Wing" name:BW words:highland strength:4',
                 '/unit add side:Government name:"G. Grenadiers" words:grenadier strength:4']:
        assert not (await reply(battle_session, line, user_id=GM_USER)).ephemeral, line
    asked = await reply(battle_session, '/melee tricorne attacker:BW defender:"G. Grenadiers" '
                        'dice:"flag art art art art  art art art art"', user_id=GM_USER)
    await battle_session.press(asked, "G. Grenadiers ignores 1 flag", channel_id=CHANNEL,
                               user_id=GM_USER, guild_id=GUILD)
    for _ in range(4):  # the answer, the question, then both units
        assert not (await reply(battle_session, "/gm undo", user_id=GM_USER)).ephemeral
    log = (await reply(battle_session, "/battle log")).embeds[0]["description"].splitlines()
    assert log[-4:] == ["`#6` player: Undid #5 (Answered #4: G. Grenadiers…)",
                        "`#7` player: Undid #4 (Asked: Will G. Grenadiers…)",
                        "`#8` player: Undid #3 (Added G. Grenadiers…)",
                        "`#9` player: Undid #2 (Added BW (Army: Left Wing))"]
