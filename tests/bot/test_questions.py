"""Questions in a battle: whose each is, what the footer says of the dice, what the log and
/battle show say of them, and a button that answers exactly the question it was sent with."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select

from bot.battles import decisions, play
from bot.storage.models import Battle, Event
from rules.core.dice import ScriptedSource, parse_dice

from .conftest import CHANNEL, GM_USER, GUILD, PLAYER, reply, send, text_of
from .test_decisions import CHARGE, OTHER, buttons
from .test_decisions import setup as setup_charge
from .test_tricorne import MELEE
from .test_tricorne import setup as setup_tricorne

BRITISH = 4000
LA_BATAILLE = [
    ("/battle start ruleset:labataille name:Talavera", GM_USER),
    ('/unit add side:French name:"1/45e" words:"infantry morale=34 melee=12 fire=6 '
     'defence=9" strength:4', PLAYER),
    ('/unit add side:British name:"52nd" words:"infantry nation=british morale=41 melee=8 '
     'fire=5 defence=9" strength:4', BRITISH),
]
ASSAULT = '/assault labataille attackers:"1/45e: distance=2" defenders:"52nd"'


async def press(session, message, label: str, user: int):
    return await session.press(message, label, channel_id=CHANNEL, user_id=user,
                               guild_id=GUILD)


async def setup_assault(session) -> None:
    for line, user in LA_BATAILLE:
        assert not (await reply(session, line, user_id=user)).ephemeral


async def test_the_chart_reading_is_the_movers_after_the_defender_answers_huzzah(
        battle_session):
    await setup_assault(battle_session)
    huzzah = await reply(battle_session, ASSAULT + ' dice:"44 52 5 33 41 55"', user_id=PLAYER)
    assert f"52nd's player (<@{BRITISH}>) or a GM" in text_of(huzzah)
    [refused] = await press(battle_session, huzzah, "No Huzzah", PLAYER)
    assert refused.ephemeral and "52nd's player" in refused.content
    [_, chart] = await press(battle_session, huzzah, "No Huzzah", BRITISH)
    assert f"The player who made the move (<@{PLAYER}>) or a GM" in text_of(chart)
    [refused] = await press(battle_session, chart, "DR2", BRITISH)
    assert refused.ephemeral and f"<@{PLAYER}>" in refused.content
    [result] = await press(battle_session, chart, "DR2", PLAYER)  # the chart's message
    assert result.embeds[0]["title"].endswith("DR2: 52nd routs")


async def test_the_footer_says_where_the_dice_came_from_after_an_answer(battle_session,
                                                                         monkeypatch):
    # Huzzah's own dice, made foreseeable: every roll it makes reads these faces.
    monkeypatch.setattr(play, "RandomSource",
                        lambda: ScriptedSource(parse_dice("44 52 5 33 41 55")))
    await setup_assault(battle_session)
    huzzah = await reply(battle_session, ASSAULT, user_id=PLAYER)
    assert huzzah.embeds[0]["footer"]["text"].startswith("Dice rolled by the bot ·")
    [_, chart] = await press(battle_session, huzzah, "No Huzzah", BRITISH)
    assert chart.embeds[0]["footer"]["text"].startswith("Dice rolled by the bot ·")


async def test_queued_dice_are_counted_over_the_whole_move(battle_session):
    await setup_assault(battle_session)
    await reply(battle_session, '/gm dice dice:"44 52 5 33 41"', user_id=GM_USER)
    huzzah = await reply(battle_session, ASSAULT, user_id=PLAYER)
    assert huzzah.embeds[0]["footer"]["text"].startswith("9 dice queued by the GM ·")
    [_, chart] = await press(battle_session, huzzah, "No Huzzah", BRITISH)
    assert chart.embeds[0]["footer"]["text"].startswith("9 dice queued by the GM, 2 rolled ·")


async def test_dice_past_the_typed_ones_come_from_the_gms_queue_first(battle_session):
    await setup_assault(battle_session)
    # Typed dice that run out at the question; the GM queues what follows the answer.
    huzzah = await reply(battle_session, ASSAULT + ' dice:"44 52 5 33 41"', user_id=PLAYER)
    await reply(battle_session, '/gm dice dice:"6 3"', user_id=GM_USER)
    [_, chart] = await press(battle_session, huzzah, "No Huzzah", BRITISH)
    # The mêlée roll after the answer is the GM's 63, not Huzzah's.
    assert chart.embeds[0]["footer"]["text"].startswith(
        "Dice typed in: 44 52 5 33 41, then 2 dice queued by the GM ·"), chart.embeds[0]["footer"]
    assert "🎲 63" in text_of(chart), text_of(chart)
    show = await reply(battle_session, "/battle show", user_id=GM_USER)
    assert "queued by the GM" not in show.embeds[0]["description"]


async def test_typed_dice_a_path_did_not_need_are_named(battle_session):
    await setup_charge(battle_session)
    asked = await reply(battle_session, CHARGE.replace("dice:1", 'dice:"1 6 6"'), user_id=OTHER)
    [result] = await press(battle_session, asked, "Stand", PLAYER)
    assert result.embeds[0]["footer"]["text"].startswith(
        "Dice typed in: 1 6 6; left over after the answers: 6 6 ·")


async def test_battle_show_says_which_question_waits_whose_it_is_and_since_when(
        battle_session):
    await setup_charge(battle_session)
    await reply(battle_session, CHARGE, user_id=OTHER)
    async with battle_session.client.db.transaction() as s:
        asked_at = (await s.scalar(select(Battle))).pending["asked_at"]
    shown = text_of(await reply(battle_session, "/battle show"))
    stamp = int(datetime.fromisoformat(asked_at).timestamp())
    assert (f"❓ Waiting for an answer to “Does Hussars counter-charge?” "
            f"(#4, asked <t:{stamp}:R>): Hussars' player (<@{PLAYER}>) or a GM") in shown


async def test_the_log_names_the_units_and_who_answered_what(battle_session):
    await setup_assault(battle_session)
    huzzah = await reply(battle_session, ASSAULT + ' dice:"44 52 5 33 41 55"', user_id=PLAYER)
    [_, chart] = await press(battle_session, huzzah, "No Huzzah", BRITISH)
    await press(battle_session, chart, "DR2", PLAYER)
    log = text_of(await reply(battle_session, "/battle log"))
    # The chart's result leads with the answer: said once.
    assert "`#6` player: Answered #5: 1/45e vs 52nd: DR2: 52nd routs" in log, log
    assert log.count("Read the Assault et Mêlée chart") == 1  # the question, said once
    late = await reply(battle_session, "/answer choice:DR1", user_id=PLAYER)
    assert late.ephemeral and late.content == (
        f"⚠️ No question is waiting here: the last one (#5) was answered by <@{PLAYER}> "
        "(event #6: 1/45e vs 52nd: DR2: 52nd routs). `/battle log` shows what happened "
        "since.")
    (file,) = (await reply(battle_session, "/battle export")).files
    assert "Answered #5: 1/45e vs 52nd: DR2: 52nd routs" in file.data.decode()
    await reply(battle_session, "/gm undo", user_id=GM_USER)
    log = text_of(await reply(battle_session, "/battle log"))
    assert "Undid #6 (Answered #5: 1/45e vs 52nd)" in log, log


async def test_a_gms_button_answers_the_battles_question_not_his_own_lookup(battle_session):
    await setup_charge(battle_session)
    asked = await reply(battle_session, CHARGE, user_id=OTHER)
    # The GM has a quick-lookup question of his own waiting in the channel.
    own = await reply(battle_session, '/melee tricorne attacker:"A: grenadier" '
                                      'defender:"B: light-cavalry" lookup:true', user_id=GM_USER)
    assert buttons(own) == ["Retire and rally", "Stand and fight"]
    [result] = await press(battle_session, asked, "Counter-charge Rangers", GM_USER)
    assert result.embeds[0]["title"].endswith("Hussars counter-charges Rangers")
    # And his own question is still there, answered by its own buttons.
    *_, mine = await press(battle_session, own, "Stand and fight", GM_USER)  # may ask on
    assert not mine.ephemeral


async def test_answer_takes_a_players_own_lookup_asked_after_the_battles_question(
        battle_session, monkeypatch):
    # The clock as the questions see it, one minute a question: the order they were asked in.
    minutes = iter(range(10, 60))
    monkeypatch.setattr(decisions, "_now", lambda: f"2026-11-27T12:{next(minutes)}:00")
    await setup_charge(battle_session)
    asked = await reply(battle_session, CHARGE, user_id=OTHER)
    assert f"Hussars' player (<@{PLAYER}>)" in text_of(asked)
    own = await reply(battle_session, '/melee tricorne attacker:"A: grenadier" '
                                      'defender:"B: light-cavalry" lookup:true', user_id=PLAYER)
    assert buttons(own) == ["Retire and rally", "Stand and fight"]
    # The question he has just been asked, not the battle's older one.
    answered = await reply(battle_session, '/answer choice:"Stand and fight"', user_id=PLAYER)
    assert not answered.ephemeral, answered.content
    assert "**A melee** 🎲" in text_of(answered)  # the lookup's melee, played on
    # The battle's question still waits for him.
    show = text_of(await reply(battle_session, "/battle show"))
    assert "Waiting for" in show, show


async def test_a_bad_answer_given_ahead_for_a_later_question_is_set_aside(battle_session):
    await setup_tricorne(battle_session)
    asked = await reply(battle_session, MELEE + ' choices:"take_ground=charge"', user_id=GM_USER)
    assert buttons(asked) == ["Retire and rally", "Stand and fight"]
    [_, ground] = await press(battle_session, asked, "Stand and fight", GM_USER)
    assert not ground.ephemeral, ground.content
    assert ground.embeds[0]["title"] == ("❓ Will Black Watch take ground (advance into the "
                                         "vacated hex)?")
    assert ("The answer given ahead, charge, does not fit “Will Black Watch take ground "
            "(advance into the vacated hex)?”: it is asked instead.") in text_of(ground)
    [_, bonus] = await press(battle_session, ground, "Take ground", GM_USER)
    assert buttons(bonus)[-1] == "No bonus melee"


async def test_a_bad_answer_given_with_the_command_is_refused_at_once(battle_session):
    await setup_tricorne(battle_session)
    refused = await reply(battle_session, MELEE + ' choices:"retire=maybe"', user_id=GM_USER)
    assert refused.ephemeral and "`maybe` is not an answer" in refused.content
    async with battle_session.client.db.transaction() as s:
        assert [e.kind for e in await s.scalars(select(Event))][-1] == "general_add"


async def test_an_answer_that_leads_to_another_question_is_logged_too(battle_session):
    await setup_tricorne(battle_session)
    asked = await reply(battle_session, MELEE, user_id=PLAYER)
    await press(battle_session, asked, "Stand and fight", GM_USER)
    log = text_of(await reply(battle_session, "/battle log"))
    assert ("player: Answered #7: Stand and fight. Asked: Will Black Watch "
            "take ground") in log


async def test_a_move_whose_answer_given_ahead_was_set_aside_can_be_rerolled(battle_session):
    await setup_tricorne(battle_session)
    asked = await reply(battle_session, MELEE + ' choices:"take_ground=charge"', user_id=GM_USER)
    [_, ground] = await press(battle_session, asked, "Stand and fight", GM_USER)
    assert "does not fit" in text_of(ground)
    rerolled = await reply(battle_session, "/gm reroll", user_id=GM_USER)
    assert not rerolled.ephemeral, rerolled.content
    assert rerolled.embeds[0]["title"].startswith("❓ Will Dragoons retire and rally")
    menu = await send(battle_session, "/gm override", user_id=GM_USER)
    assert [m for m in menu if m.components], [m.content for m in menu]


async def test_the_gm_may_queue_dice_while_a_question_waits(battle_session):
    await setup_charge(battle_session)
    await reply(battle_session, CHARGE, user_id=OTHER)
    queued = await reply(battle_session, '/gm dice dice:"6 6"', user_id=GM_USER)
    assert queued.ephemeral and queued.content.startswith("🎲 Dice queue: 6 6.")


ANN, BOB = 4000, 5000
CULLODEN = [
    ("/battle start ruleset:tricorne name:Culloden", GM_USER),
    ("/unit add side:Jacobite name:Camerons words:highland strength:4", ANN),
    ("/unit add side:Government name:Dragoons words:battle-cavalry strength:3", BOB),
    ("/unit add side:Government name:Kerrs words:battle-cavalry strength:3", BOB),
]
CAMERONS = '/melee tricorne attacker:Camerons defender:Dragoons dice:"cav cav cav cav cav" '


async def culloden(session) -> None:
    for line, user in CULLODEN:
        assert not (await reply(session, line, user_id=user)).ephemeral, line


async def test_answers_in_order_pair_with_the_questions_in_order_once_one_is_passed_over(
        battle_session):
    """Ann's first answer was for Bob's question, which is asked of Bob: her others still
    answer her own questions, in their order, once Bob has answered."""
    await culloden(battle_session)
    asked = await reply(battle_session, CAMERONS + 'choices:"stand; advance; none"', user_id=ANN)
    assert asked.content == f"<@{BOB}>, your answer:"
    done = await reply(battle_session, "/answer choice:stand", user_id=BOB)
    assert done.embeds[0]["title"] == "💥 Camerons eliminates Dragoons"
    assert "takes ground 1 hex" in text_of(done)
    assert "Not asked" not in done.embeds[0]["footer"]["text"]


async def test_an_answer_given_ahead_a_later_path_cannot_take_is_asked_instead(
        battle_session):
    """Bob's answer is not refused for an answer Ann gave ahead (a bonus melee on a unit
    there is none of): her answers are set aside and her questions asked."""
    await culloden(battle_session)
    await reply(battle_session, CAMERONS + 'choices:"take_ground=advance; bonus_melee=Nobody"',
                user_id=ANN)
    next_question = await reply(battle_session, "/answer choice:stand", user_id=BOB)
    assert not next_question.ephemeral, next_question.content
    assert next_question.content == f"<@{ANN}>, your answer:"
    assert next_question.embeds[0]["title"] == ("❓ Will Camerons take ground (advance into "
                                                "the vacated hex)?")


async def test_the_gm_role_may_change_while_a_question_waits(battle_session):
    await setup_charge(battle_session)
    asked = await reply(battle_session, CHARGE, user_id=OTHER)
    role = await reply(battle_session, "/gm role role:555", user_id=GM_USER)
    assert not role.ephemeral and role.content == "👑 GM role: <@&555>."
    # A member of the new role answers for the absent player, as a GM may.
    [result] = await battle_session.press(asked, "Stand", channel_id=CHANNEL, user_id=7000,
                                          guild_id=GUILD, roles=[555])
    assert not result.ephemeral, result.content
    assert result.embeds[0]["title"].startswith("🛡️ Hussars"), result.embeds[0]["title"]
    undone = await reply(battle_session, "/gm undo", user_id=GM_USER)
    assert "The question (#4) waits again" in text_of(undone), text_of(undone)


async def test_a_blank_answer_is_refused_with_the_answers_to_give(battle_session):
    await setup_tricorne(battle_session)
    asked = await reply(battle_session, MELEE, user_id=GM_USER)
    assert buttons(asked) == ["Retire and rally", "Stand and fight"]
    blank = await reply(battle_session, '/answer choice:"   "', user_id=GM_USER)
    assert blank.ephemeral
    assert blank.content == (
        "⚠️ `choice` is empty: it takes an answer to “Will Dragoons retire and rally before "
        "Black Watch rolls 5 dice?”. Answer “Retire and rally” (`retire`) or “Stand and fight” "
        "(`stand`).")
    assert "Waiting for" in text_of(await reply(battle_session, "/battle show"))


async def test_a_question_an_undo_asks_again_gives_the_rolls_after_its_answer(battle_session):
    """The undo's reply asks the question again without its rolls, and the question's
    first message may be far up the channel: what follows the answer gives them again
    rather than pointing to a question above that does not show them."""
    await setup_assault(battle_session)
    await reply(battle_session, ASSAULT + ' dice:"44 52 5 33 41 55"', user_id=PLAYER)
    chart = await reply(battle_session, "/answer choice:huzzah", user_id=BRITISH)
    assert "🎲 5 earlier rolls: on the question above" in text_of(chart)
    await reply(battle_session, "/answer choice:DR2", user_id=PLAYER)
    for _ in range(2):  # the result, then the Huzzah
        await reply(battle_session, "/gm undo", user_id=GM_USER)
    again = await reply(battle_session, "/answer choice:no", user_id=BRITISH)
    lines = again.embeds[0]["description"].splitlines()
    assert not any("earlier roll" in line for line in lines)
    assert [line.split(" 🎲")[0] for line in lines if "🎲" in line] == [
        "**1/45e morale**", "**52nd morale**", "**defender column shifts**",
        "**1/45e fire**", "**52nd fire**", "**mêlée**"]
    # The result takes the chart question's place: it keeps the rolls that question gave.
    result = await reply(battle_session, "/answer choice:DR2", user_id=PLAYER)
    assert "earlier roll" not in text_of(result)
    assert "**1/45e morale** 🎲 44" in text_of(result)
