"""Reroll and override take back a whole move: the roll and the questions answered on its
way, with dice that are never the ones of the roll they replace."""

from __future__ import annotations

from sqlalchemy import select

from bot.battles.rerolls import listing_job
from bot.storage.models import Battle
from rules.core.decisions import ANSWERED

from .conftest import CHANNEL, GM_USER, GUILD, PLAYER, played, reply, send, text_of
from .test_battles import events, gm, setup_battle, units
from .test_charts import ASSAULT
from .test_charts import setup as setup_charts
from .test_decisions import CHARGE, OTHER, buttons
from .test_decisions import setup as setup_charge
from .test_tricorne import MELEE, press
from .test_tricorne import setup as setup_tricorne

FAW_MELEE = '/melee fire-at-will attackers:"Béarn" defenders:"2nd Foot"'


async def queue(session) -> list:
    async with session.client.db.transaction() as s:
        return list((await s.scalar(select(Battle))).dice_queue)


async def test_a_reroll_takes_the_next_queued_dice_not_the_ones_it_replaces(battle_session):
    await setup_battle(battle_session)
    await gm(battle_session, '/gm dice dice:"6 1 6 6 1 6 3 3"')
    first = await reply(battle_session, FAW_MELEE)
    assert first.embeds[0]["title"] == "💥 Attackers win by 5: 2nd Foot routs, −2 SP"
    assert await queue(battle_session) == [1, 6, 3, 3]
    rerolled = await gm(battle_session, "/gm reroll")
    assert rerolled.embeds[0]["footer"]["text"].startswith("2 dice queued by the GM")
    assert rerolled.embeds[0]["title"] == "💥 Defenders win by 5: Béarn routs, −2 SP"
    assert await queue(battle_session) == [3, 3]
    # Undoing the reroll puts back the queue it took, not the dice the first roll used.
    await gm(battle_session, "/gm undo")
    assert await queue(battle_session) == [1, 6, 3, 3]


async def test_a_reroll_after_the_queue_was_cleared_rolls_fresh_dice(battle_session):
    await setup_battle(battle_session)
    await gm(battle_session, '/gm dice dice:"6 1 6 6"')
    await reply(battle_session, FAW_MELEE)
    await gm(battle_session, "/gm dice clear:true")
    rerolled = await gm(battle_session, "/gm reroll")
    assert rerolled.embeds[0]["footer"]["text"].startswith("Dice rolled by the bot")
    assert await queue(battle_session) == []


async def test_a_reroll_never_replays_typed_dice(battle_session):
    await setup_battle(battle_session)
    await gm(battle_session, '/gm dice dice:"1 6"')
    await reply(battle_session, FAW_MELEE + ' dice:"6 1 6 6"')
    rerolled = await gm(battle_session, "/gm reroll")
    assert rerolled.embeds[0]["footer"]["text"].startswith("2 dice queued by the GM")
    assert rerolled.embeds[0]["title"] == "💥 Defenders win by 5: Béarn routs, −2 SP"


async def answered_tricorne_melee(session):
    """A Tricorne melee whose two questions were answered: three events, one move."""
    await setup_tricorne(session)
    asked = await reply(session, MELEE, user_id=PLAYER)
    [_, ground] = await press(session, asked, "Stand and fight")
    [_, bonus] = await press(session, ground, "Take ground")
    [done] = await press(session, bonus, "No bonus melee")
    return done


async def test_a_reroll_takes_back_the_roll_with_its_answers_and_asks_again(battle_session):
    done = await answered_tricorne_melee(battle_session)
    before = [e.seq for e in await events(battle_session) if e.undone_by is None]
    await gm(battle_session, '/gm dice dice:"inf inf inf inf inf  inf inf inf inf"')
    rerolled = await gm(battle_session, "/gm reroll")
    assert not rerolled.ephemeral, rerolled.content
    # The defending dragoons are asked again whether to retire, before any die.
    assert rerolled.embeds[0]["title"].startswith("❓ Will Dragoons retire and rally")
    log = await events(battle_session)
    move = [e for e in log if e.seq in before[-4:]]
    assert [e.kind for e in move] == ["question", "question", "question", "resolution"]
    assert all(e.undone_by is not None for e in move)
    state = await units(battle_session)
    assert state["Dragoons"].status == "active" and state["Dragoons"].strength == 4
    # The Reroll button under the old result is no longer the last roll.
    [refused] = await press(battle_session, done, "🎲 Reroll")
    assert refused.ephemeral and "no longer the last one" in refused.content


async def test_the_reroll_button_under_an_answered_result_works(battle_session):
    done = await answered_tricorne_melee(battle_session)
    [update, rerolled] = await press(battle_session, done, "🎲 Reroll")
    assert "Rerolled by" in update.content
    assert rerolled.embeds[0]["title"].startswith("❓ Will Dragoons retire and rally")
    assert buttons(rerolled) == ["Retire and rally", "Stand and fight"]


async def test_a_reroll_while_a_question_waits_rerolls_the_move(battle_session):
    await setup_tricorne(battle_session)
    asked = await reply(battle_session, MELEE, user_id=PLAYER)
    [_, ground] = await press(battle_session, asked, "Stand and fight")
    assert "take ground" in ground.embeds[0]["title"]
    rerolled = await gm(battle_session, "/gm reroll")
    assert rerolled.embeds[0]["title"].startswith("❓ Will Dragoons retire and rally")
    # The question taken back is said, by its own words: the one below asks another.
    question = ground.embeds[0]["title"].removeprefix("❓ ")
    assert rerolled.content.splitlines()[:2] == [
        "🎲 Rerolled by player: this replaces the last result.",
        f"The question that waited, “{question}” (#{ground_seq(ground)}), is dropped with "
        "it; the one below replaces it."]
    async with battle_session.client.db.transaction() as s:
        pending = (await s.scalar(select(Battle))).pending
    assert pending["question"]["key"] == "retire"


async def test_a_reroll_of_a_move_that_has_rolled_nothing_yet_is_refused(battle_session):
    """The question came before any die: played again, the move would ask it again, and a
    "reroll" would change nothing but the event's number."""
    await setup_tricorne(battle_session)
    await reply(battle_session, MELEE, user_id=PLAYER)
    before = await events(battle_session)
    refused = await gm(battle_session, "/gm reroll")
    assert refused.ephemeral
    assert refused.content == (
        f"⚠️ The last move (#{before[-1].seq}) has rolled no dice yet: it waits on its "
        "question, and a reroll would ask it again. Answer it (its buttons or `/answer`), or "
        "take the move back with `/gm undo`."), refused.content
    assert [e.seq for e in await events(battle_session)] == [e.seq for e in before]


def menu_of(messages):
    [menu] = [m for m in messages if m.components]
    assert menu.ephemeral, menu.content
    return menu


async def test_override_works_out_the_whole_move_with_its_answers_open(battle_session):
    await answered_tricorne_melee(battle_session)
    log = await events(battle_session)
    store = battle_session.client.get_cog("GM").store
    key, job, roster = await store.peek(CHANNEL, lambda tx: (*listing_job(tx), tx.roster()))
    assert key == (log[-1].battle_id, log[-1].seq)
    # The command as first given: every answer is open to the listing.
    assert job.options == {**log[-4].request["options"], ANSWERED: ""}
    dragoons = roster.unit("Dragoons")
    assert (dragoons.status, dragoons.strength) == ("active", 4)
    menu = menu_of(await send(battle_session, "/gm override", user_id=GM_USER))
    assert menu.content.startswith(f"Override #{log[-1].seq} with:")


async def test_override_while_a_question_waits(battle_session):
    await setup_tricorne(battle_session)
    asked = await reply(battle_session, MELEE, user_id=PLAYER)
    await press(battle_session, asked, "Stand and fight")
    menu = menu_of(await send(battle_session, "/gm override", user_id=GM_USER))
    seq = (await events(battle_session))[-1].seq
    assert menu.content.startswith(f"Override #{seq} with:")
    [picked] = [o for row in menu.components for item in row["components"]
                for o in item["options"]][:1]
    messages = await battle_session.pick(menu, picked["label"], channel_id=CHANNEL,
                                         user_id=GM_USER, guild_id=GUILD)
    result = messages[-1]
    assert not result.ephemeral and "GM" in result.embeds[0]["footer"]["text"]
    async with battle_session.client.db.transaction() as s:
        assert (await s.scalar(select(Battle))).pending is None


async def strengths(session) -> dict[str, tuple[int, bool]]:
    return {name: (unit.strength, bool(unit.attributes.get("routing")))
            for name, unit in (await units(session)).items()}


async def test_undoing_a_reroll_or_an_override_brings_back_the_result_it_replaced(
        battle_session):
    await setup_battle(battle_session)
    before = await strengths(battle_session)
    first = await reply(battle_session, f'{FAW_MELEE} dice:"6 1 6 6"')
    assert first.embeds[0]["title"] == "💥 Attackers win by 5: 2nd Foot routs, −2 SP"
    after_first = await strengths(battle_session)
    assert after_first["2nd Foot"] == (before["2nd Foot"][0] - 2, True)
    await gm(battle_session, '/gm dice dice:"1 6 6 6"')
    rerolled = await gm(battle_session, "/gm reroll")
    assert rerolled.embeds[0]["title"] == "💥 Defenders win by 5: Béarn routs, −2 SP"
    assert (await strengths(battle_session))["2nd Foot"] == before["2nd Foot"]

    undone = await gm(battle_session, "/gm undo")
    assert undone.content.startswith("↩️ Undid #11 (reroll)"), undone.content
    assert "The result it replaced (#8) stands again. The GM's queue is back: 4 dice" in \
        undone.content, undone.content
    assert await strengths(battle_session) == after_first
    log = await events(battle_session)
    assert log[7].undone_by is None  # the first roll counts again: undo and reroll reach it
    assert log[9].undone_by == log[10].undone_by == 12  # the reroll and its take-back

    # An override likewise; and a second undo takes back the first roll itself.
    menu = await gm(battle_session, "/gm override")
    [select] = [c for row in menu.components for c in row["components"]]
    tie = next(o for o in select["options"] if o["label"].startswith("Béarn retires"))
    await battle_session.pick(menu, tie["label"], channel_id=CHANNEL, user_id=GM_USER,
                              guild_id=GUILD)
    assert (await strengths(battle_session))["2nd Foot"] == before["2nd Foot"]  # a tie
    undone = await gm(battle_session, "/gm undo")
    assert "(override)" in undone.content and "(#8) stands again" in undone.content
    assert await strengths(battle_session) == after_first
    assert (await gm(battle_session, "/gm undo")).content.startswith("↩️ Undid #9 (dice")
    undone = await gm(battle_session, "/gm undo")
    assert undone.content.startswith("↩️ Undid #8 (resolution)"), undone.content
    assert "stands again" not in undone.content
    assert await strengths(battle_session) == before


async def test_a_gms_reroll_asks_the_player_who_made_the_move_not_the_gm(battle_session):
    """The chart question of a La Bataille assault is for the player who made the move: when
    a GM's reroll asks it again, it still waits on that player and pings him."""
    await setup_charts(battle_session)  # the units are the GM's: the mover is asked
    asked = await reply(battle_session, ASSAULT, user_id=PLAYER)
    assert f"The player who made the move (<@{PLAYER}>) or a GM decides." in text_of(asked)
    await gm(battle_session, '/gm dice dice:"45 45 1 41"')
    again = await gm(battle_session, "/gm reroll")
    # The question taken back is named: the player pinged for it may come back to it.
    assert again.content == (
        "🎲 Rerolled by player: this replaces the last result.\n"
        f"The question that waited (#{ground_seq(asked)}) is dropped with it; the one below "
        f"replaces it.\n<@{PLAYER}>, your answer:")
    assert again.request.payload["data"]["allowed_mentions"] == {"users": [PLAYER],
                                                                 "parse": []}
    assert again.embeds[0]["title"] == ("❓ Read the Assault et Mêlée chart: the 2:1 column, "
                                        "row 41. What does it say?")
    assert again.embeds[0]["description"].startswith(
        f"The player who made the move (<@{PLAYER}>) or a GM decides.")


async def test_reroll_and_override_reach_the_last_roll_past_a_gm_role(battle_session):
    """Naming a GM role touches no unit: `/gm override` and `/gm reroll` pass over it to the
    roll before."""
    await setup_charge(battle_session)
    stood = await reply(battle_session, CHARGE.replace("dice:1", "dice:6"), user_id=OTHER)
    assert stood.embeds[0]["title"].endswith("Hussars stands: melee follows")
    await gm(battle_session, "/gm role role:<@&5555>")
    [menu] = await send(battle_session, "/gm override", user_id=GM_USER)
    assert menu.ephemeral and menu.content == "Override #4 with:"
    await gm(battle_session, '/gm dice dice:"1"')
    again = await gm(battle_session, "/gm reroll")
    assert again.embeds[0]["title"] == "❓ Does Hussars counter-charge?"
    assert again.embeds[0]["footer"]["text"] == "1 die queued by the GM · #8"


# A chart the player reads (no chart pack): an answer given ahead says what one cell says.
CHART_SETUP = (
    '/battle start ruleset:labataille name:Ov sides:"French, British"',
    '/unit add side:French name:X words:"infantry morale=35 melee=8 fire=2 defence=3" '
    "strength:4",
    '/unit add side:British name:Y words:"infantry morale=44 melee=7 fire=3 defence=3 '
    'nation=british" strength:4',
    '/unit add side:British name:Z words:"infantry morale=44 melee=7 fire=3 defence=3" '
    "strength:4",
)
# The mêlée die, 13 −3, lands on row 11 of the 1:2 column.
CHART_ASSAULT = '/assault labataille attackers:X defenders:Z dice:"44 52 5 33 41 13"'
ROW_63 = "❓ Read the Assault et Mêlée chart: the 1:2 column, row 63. What does it say?"
READ_ELSEWHERE = ("↪️ The answer given ahead, DR1, was read at another cell of the Assault "
                  "et Mêlée chart: it is not taken here.")


async def test_a_reroll_asks_a_chart_answered_ahead_again_on_another_cell(battle_session):
    await played(battle_session, *CHART_SETUP, CHART_ASSAULT + ' choices:"DR1"')
    await gm(battle_session, '/gm dice dice:"21 52 5 33 41 66"')
    rerolled = await gm(battle_session, "/gm reroll")
    # 66 −3 = 63: another row of the chart, which DR1 was not read from.
    assert rerolled.embeds[0]["title"] == ROW_63
    assert READ_ELSEWHERE in text_of(rerolled)
    answered = await gm(battle_session, "/answer choice:AS")
    assert answered.embeds[0]["title"] == "💥 AS: X surrenders"


async def test_a_reroll_keeps_a_chart_answer_given_ahead_on_the_same_cell(battle_session):
    await played(battle_session, *CHART_SETUP, CHART_ASSAULT + ' choices:"DR1"')
    await gm(battle_session, '/gm dice dice:"21 52 5 33 41 12"')
    rerolled = await gm(battle_session, "/gm reroll")
    # 12 −3 is row 11 again: the cell DR1 was read from.
    assert rerolled.embeds[0]["title"] == "🩸 DR1: Z routs"


async def test_a_chart_answer_given_ahead_after_a_question_stays_with_its_cell(
        battle_session):
    # Y's Huzzah is asked before the chart: the answer given ahead is read on the move's
    # second event, after that answer.
    await played(battle_session, *CHART_SETUP)
    asked = await gm(battle_session, '/assault labataille attackers:X defenders:Y '
                                     'dice:"44 52 5 33 41 13" choices:"chart_result=DR1"')
    assert asked.embeds[0]["title"] == "❓ Will Y Huzzah and turn the tables on X?"
    done = await gm(battle_session, "/answer choice:no")
    assert done.embeds[0]["title"] == "🩸 DR1: Y routs"
    await gm(battle_session, '/gm dice dice:"44 52 5 33 41 66"')
    again = await gm(battle_session, "/gm reroll")
    assert again.embeds[0]["title"] == "❓ Will Y Huzzah and turn the tables on X?"
    chart = await gm(battle_session, "/answer choice:no")
    assert chart.embeds[0]["title"] == ROW_63
    assert READ_ELSEWHERE in text_of(chart)


async def test_an_override_lists_what_other_cells_say_past_a_chart_answered_ahead(
        battle_session):
    await played(battle_session, *CHART_SETUP, CHART_ASSAULT + ' choices:"DR1"')
    menu = menu_of(await send(battle_session, "/gm override", user_id=GM_USER))
    assert menu.content.startswith("Override #5 with: (the 25 first of 160 results"), \
        menu.content
    # DR1 was read on row 11: other rows may say anything the chart says.
    overridden = await gm(battle_session, '/gm override result:"AS: X is disordered, loses 1 '
                                          'increment and surrenders"')
    assert overridden.embeds[0]["title"] == "💥 AS: X surrenders", text_of(overridden)


async def test_an_answer_typed_to_override_a_move_given_it_ahead_says_how_to_answer_again(
        battle_session):
    await played(battle_session, *CHART_SETUP, CHART_ASSAULT + ' choices:"DR1"')
    refused = await gm(battle_session, "/gm override result:AS")
    assert refused.ephemeral
    # Plainest first.
    assert refused.content.startswith("⚠️ `AS` fits 8 results: “X is disordered and "
                                      "surrenders”; “X is disordered, loses 1 increment and "
                                      "surrenders”;"), refused.content
    assert "…. " not in refused.content
    # Undo takes the move back whole: no question waits to be answered again.
    assert refused.content.endswith(
        "… The move was given its answers ahead (`choices`): to keep its dice and answer `AS` "
        'instead, `/gm undo` it and play it again with `choices:"AS"` and its dice, as its '
        "roll lines show them. Or type more of the result."), refused.content


async def test_an_answer_typed_to_override_a_move_that_asked_it_says_to_answer_again(
        battle_session):
    await played(battle_session, *CHART_SETUP)
    asked = await gm(battle_session, CHART_ASSAULT)
    *_, answered = await battle_session.press(asked, "DR1", channel_id=CHANNEL,
                                              user_id=GM_USER, guild_id=GUILD)
    assert answered.embeds[0]["title"].startswith("🩸 DR1"), text_of(answered)
    refused = await gm(battle_session, "/gm override result:AS")
    assert refused.ephemeral
    assert refused.content.endswith(
        "… To keep the dice and answer again, `/gm undo` puts the roll's questions back, the "
        "last first: then `/answer choice:AS` to the one it answers. Or type more of the "
        "result."), refused.content


def _roster_lines(message) -> list[str]:
    return [line for line in text_of(message).split("\n") if line.startswith("📋")]


async def test_an_override_says_what_the_result_it_replaces_did_that_no_longer_stands(
        battle_session):
    """The volley took 3 figures; the GM sets 0 hits. A's figures coming back is said, as a
    reroll says it, not "No effect on any unit" over a roster the players last read at 3."""
    await played(battle_session, "/battle start ruleset:le-baton name:R",
                 '/unit add side:French name:A words:"french infantry veteran column" '
                 "strength:6",
                 '/unit add side:British name:B words:"british infantry veteran line" '
                 "strength:6")
    await reply(battle_session, '/fire le-baton shooter:B target:A dice:"4 4 4"')
    overridden = await reply(battle_session, '/gm override result:"B fires: A 0 hits"',
                             user_id=GM_USER)
    assert overridden.embeds[0]["title"] == "🛡️ B fires: A 0 hits"
    assert _roster_lines(overridden) == [
        "📋 Back as before the result replaced: A gains 3 figures (now 6) and has no "
        "casualties"]
    assert (await units(battle_session))["A"].strength == 6


async def test_a_reroll_says_the_blocks_a_unit_it_moves_again_gets_back(battle_session):
    """The first roll took 2 blocks and a retreat out of the forest; the second only the
    retreat. Its own line says the forest; the blocks coming back are said as the first
    roll's undoing, not left at the 2 the players last read."""
    await played(battle_session, '/battle start ruleset:tricorne name:F sides:"J, G"',
                 "/unit add side:J name:Camerons words:highland",
                 '/unit add side:G name:Barrells words:"regular terrain=forest"')
    first = await gm(battle_session, '/melee tricorne attacker:Camerons defender:Barrells '
                                     'choices:"take_ground=stay" dice:"inf inf flag art  inf art"')
    assert _roster_lines(first) == ["📋 Barrells loses 2 blocks (now 2) and is no longer in a "
                                    "forest"]
    await gm(battle_session, '/gm dice dice:"flag art art art  inf art art art"')
    again = await gm(battle_session, "/gm reroll")
    assert again.embeds[0]["title"] == "🩸 Camerons scores no hit on Barrells; Barrells " \
                                       "retreats 1 hex"
    assert _roster_lines(again) == [
        "📋 Barrells is no longer in a forest",
        "📋 Back as before the first roll: Barrells gains 2 blocks (now 4)"]
    assert (await units(battle_session))["Barrells"].strength == 4


async def test_a_reroll_that_stops_on_a_question_says_what_it_put_back(battle_session):
    """The first roll cost Black Watch 3 blocks; the reroll's dice stop on a question. Its
    reply says the blocks are back, as a reroll ending with a result says it, before what
    the new roll has done so far (kept only once answered)."""
    await setup_tricorne(battle_session)
    first = await gm(battle_session, '/melee tricorne attacker:"Black Watch" '
                                     'defender:Dragoons choices:"retire=stand" '
                                     'dice:"inf inf inf inf inf  inf inf inf  inf saber"')
    assert _roster_lines(first) == ["📋 Black Watch loses 3 blocks (now 1)"]
    await gm(battle_session, '/gm dice dice:"cav cav flag inf inf  flag flag"')
    again = await gm(battle_session, "/gm reroll")
    assert again.embeds[0]["title"] == ("❓ Will Black Watch take ground (advance into the "
                                        "vacated hex)?")
    assert again.embeds[0]["description"].split("\n")[:4] == [
        f"Black Watch's player (<@{GM_USER}>) or a GM decides.",
        "📋 Back as before the first roll: Black Watch gains 3 blocks (now 4)",
        "So far (kept once answered):",
        "**Dragoons** loses 2 blocks, retreats 2 hexes, routs off the field"]
    assert (await units(battle_session))["Black Watch"].strength == 4


async def test_what_a_reroll_puts_back_of_two_units_is_headed_once(battle_session):
    """Both units lost blocks to the first roll and none to the second: one line says the
    two come back, headed once, not a heading on each unit's line."""
    await played(battle_session, '/battle start ruleset:tricorne name:F sides:"J, G"',
                 "/unit add side:J name:Camerons words:highland",
                 "/unit add side:G name:Barrells words:regular")
    await gm(battle_session, '/melee tricorne attacker:Camerons defender:Barrells '
                             'choices:"take_ground=stay" dice:"inf inf art art  inf art"')
    await gm(battle_session, '/gm dice dice:"art art art art  art art art"')
    again = await gm(battle_session, "/gm reroll")
    assert _roster_lines(again) == [
        "📋 Back as before the first roll: Camerons gains 1 block (now 4); Barrells gains "
        "2 blocks (now 4)"]


async def test_a_reroll_after_a_roster_change_says_what_it_works_on(battle_session):
    """The last event is no roll: the refusal names the rolls it works on, an assault
    among them, and the undo that takes back anything."""
    await played(battle_session, '/battle start ruleset:labataille name:B sides:"F, B"',
                 '/unit add side:F name:1/45e words:"infantry morale=34 melee=12" '
                 'strength:6')
    refused = await gm(battle_session, "/gm reroll")
    assert refused.ephemeral
    assert refused.content == (
        "⚠️ The last event (#2, unit add) is not a roll. Reroll and override work on the last "
        "roll (a melee, charge, assault or test); `/gm undo` takes back anything.")


def ground_seq(message) -> int:
    """The event a question's message asked it at, as its footer says it."""
    return int(message.embeds[0]["footer"]["text"].rsplit(" · #", 1)[1].split()[0])


async def test_a_reroll_whose_dice_ask_nothing_says_the_question_it_dropped(battle_session):
    await setup_charge(battle_session)
    asked = await reply(battle_session, CHARGE, user_id=OTHER)
    await gm(battle_session, "/gm dice dice:6")
    rerolled = await gm(battle_session, "/gm reroll")
    assert not rerolled.embeds[0]["title"].startswith("❓")
    question = asked.embeds[0]["title"].removeprefix("❓ ")
    assert rerolled.content == (
        "🎲 Rerolled by player: this replaces the last result.\n"
        f"The question that waited, “{question}” (#{ground_seq(asked)}), is dropped with it.")


async def test_the_override_menu_says_every_result_does_only_what_all_of_them_do(
        battle_session):
    # A menu of the first 25 of many results: what those 25 share (the defender routed
    # off the field, in every one of them) is not what every result the roll could reach
    # does, and the GM would read it so.
    for line in ("/battle start ruleset:tricorne name:Culloden",
                 '/unit add side:Government name:"Fraser\'s Highlanders" words:highland',
                 '/unit add side:Jacobite name:"Lochiel’s Camerons" words:"highland blocks=3"',
                 '/unit add side:Jacobite name:Militia words:militia',
                 '/general add name:Perth side:Jacobite unit:Militia'):
        await gm(battle_session, line)
    await gm(battle_session, '/melee tricorne attacker:"Fraser\'s Highlanders" '
                             'defender:"Lochiel\'s Camerons" '
                             'dice:"art flag cav flag  flag art inf"')
    menu = menu_of(await send(battle_session, "/gm override", user_id=GM_USER))
    assert menu.content.startswith("Override #6 with: (the 25 first of "), menu.content
    assert "Every one of them" not in menu.content, menu.content
