"""Whose move it is: a battle's question pings the one player it waits on, and only him;
``/notify off`` and ``/notify on`` turn that off and on for the player, kept in the database.

Fire at Will's counter-charge (``test_decisions``): the rangers' player (OTHER) charges the
hussars, who roll below zero, so the hussars' player (PLAYER) decides. La Bataille's assault
(``test_questions``): the defending 52nd's player (BRITISH) decides on Huzzah, then the
chart reading is the assaulting player's (PLAYER).
"""

from __future__ import annotations

from typing import Any

from bot.battles.decisions import GM_CHOICE
from bot.client import create_bot
from bot.offline import OfflineDiscord, SentMessage
from bot.respond import answer
from bot.storage import Database
from bot.storage.mentions import mentions_off
from rules.core.decisions import Question
from rules.fire_at_will import charge as fire_at_will_charge

from .conftest import CHANNEL, GM_USER, GUILD, PLAYER, reply, send, text_of
from .test_backups import ELSEWHERE, MID_FIGHT, backup_file, export, import_file, play
from .test_battle_safety import url_of
from .test_decisions import CHARGE, LOOKUP, OTHER, buttons
from .test_decisions import setup as setup_charge
from .test_mentions import NO_PINGS, assert_cannot_ping, message_data
from .test_questions import ASSAULT, BRITISH, setup_assault

PINGS_PLAYER = {"parse": [], "users": [PLAYER]}


def allowed(message: SentMessage) -> dict[str, Any]:
    return message_data(message).get("allowed_mentions")


async def press(session: OfflineDiscord, message: SentMessage, label: str,
                user: int) -> list[SentMessage]:
    return await session.press(message, label, channel_id=CHANNEL, user_id=user,
                               guild_id=GUILD)


async def notify(session: OfflineDiscord, line: str, user: int = PLAYER) -> str:
    said = await reply(session, line, user_id=user)
    assert said.ephemeral, said.content
    assert allowed(said) == NO_PINGS
    return said.content or ""


async def test_the_question_pings_the_player_it_waits_on_and_nobody_else(battle_session):
    await setup_charge(battle_session)
    asked = await reply(battle_session, CHARGE, user_id=OTHER)
    assert asked.content == f"<@{PLAYER}>, your answer:"
    assert allowed(asked) == PINGS_PLAYER
    assert asked.embeds[0]["title"] == "❓ Does Hussars counter-charge?"
    assert buttons(asked) == ["Counter-charge Rangers", "Stand"]


async def test_notify_off_names_the_player_without_a_ping_and_on_pings_again(battle_session):
    await setup_charge(battle_session)
    said = await notify(battle_session, "/notify off")
    assert said.startswith("🔕 Mentions off") and "holds in every server" in said
    assert "already" in await notify(battle_session, "/notify off")  # twice: no harm

    quiet = await reply(battle_session, CHARGE, user_id=OTHER)
    assert not quiet.content  # no mention
    assert allowed(quiet) == NO_PINGS
    # Whose answer it waits on is still said, as a name that pings nobody.
    assert f"Hussars' player (<@{PLAYER}>) or a GM decides" in quiet.embeds[0]["description"]
    await reply(battle_session, "/gm undo", user_id=GM_USER)  # the question taken back

    said = await notify(battle_session, "/notify on")
    assert said.startswith("🔔 Mentions on") and "holds in every server" in said
    asked = await reply(battle_session, CHARGE, user_id=OTHER)
    assert asked.content == f"<@{PLAYER}>, your answer:"
    assert allowed(asked) == PINGS_PLAYER


async def test_the_setting_is_the_players_own(battle_session):
    await setup_charge(battle_session)
    await notify(battle_session, "/notify off", user=OTHER)  # another player's choice
    asked = await reply(battle_session, CHARGE, user_id=OTHER)
    assert allowed(asked) == PINGS_PLAYER
    async with battle_session.client.db.transaction() as session:
        connection = await session.connection()
        assert await connection.run_sync(lambda c: mentions_off(c, OTHER))
        assert not await connection.run_sync(lambda c: mentions_off(c, PLAYER))


async def test_notify_off_survives_a_restart(db):
    url = url_of(db)
    async with Database(url) as first, OfflineDiscord(create_bot(first)) as session:
        await setup_charge(session)
        await notify(session, "/notify off")
    async with Database(url) as second, OfflineDiscord(create_bot(second)) as session:
        quiet = await reply(session, CHARGE, user_id=OTHER)
        assert not quiet.content and allowed(quiet) == NO_PINGS


async def test_no_ping_for_a_question_the_players_own_command_asked(battle_session):
    await setup_charge(battle_session)
    # The hussars' player charges his own hussars: he is looking at the question.
    asked = await reply(battle_session, CHARGE, user_id=PLAYER)
    assert buttons(asked) == ["Counter-charge Rangers", "Stand"]
    assert not asked.content and allowed(asked) == NO_PINGS
    # A quick lookup's question is always for whoever ran it.
    lookup = await reply(battle_session, LOOKUP, user_id=OTHER, channel_id=CHANNEL + 1)
    assert buttons(lookup) == ["Counter-charge Rangers", "Stand"]
    assert not lookup.content and allowed(lookup) == NO_PINGS


async def test_a_further_question_pings_the_player_it_passes_to(battle_session):
    await setup_assault(battle_session)
    huzzah = await reply(battle_session, ASSAULT + ' dice:"44 52 5 33 41 55"', user_id=PLAYER)
    assert huzzah.embeds[0]["title"].startswith("❓ Will 52nd Huzzah")
    assert huzzah.content == f"<@{BRITISH}>, your answer:"
    assert allowed(huzzah) == {"parse": [], "users": [BRITISH]}
    # The 52nd's player answers; the chart reading is the assaulting player's.
    answered, chart = await press(battle_session, huzzah, "No Huzzah", BRITISH)
    # The question's message loses its mention: it says who answered.
    assert answered.kind == "update" and answered.content == "✅ Answered by player"
    assert chart.kind == "followup" and chart.embeds[0]["title"].startswith("❓ Read the")
    assert chart.content == f"<@{PLAYER}>, your answer:"
    assert allowed(chart) == PINGS_PLAYER
    # The chart names no unit: it is the move's, and the refusal says so.
    [refused] = await press(battle_session, chart, "DR1", BRITISH)
    assert refused.ephemeral and refused.content.startswith(
        f"⚠️ This is the choice of the player who made the move (<@{PLAYER}>), or a GM's."), \
        refused.content


async def test_a_gm_answering_for_an_absent_player_passes_the_ping_on(battle_session):
    await setup_assault(battle_session)
    huzzah = await reply(battle_session, ASSAULT + ' dice:"44 52 5 33 41 55"', user_id=PLAYER)
    [refused] = await press(battle_session, huzzah, "No Huzzah", PLAYER)  # not his choice
    assert refused.ephemeral and "52nd's player's choice" in refused.content
    # The GM answers for the 52nd's player: the chart reading pings the assaulting player.
    _, chart = await press(battle_session, huzzah, "No Huzzah", GM_USER)
    assert allowed(chart) == PINGS_PLAYER
    await reply(battle_session, "/gm undo", user_id=GM_USER)  # Huzzah is asked again
    # Answered with /answer, the same.
    chart = await reply(battle_session, "/answer choice:no", user_id=BRITISH)
    assert chart.content == f"<@{PLAYER}>, your answer:" and allowed(chart) == PINGS_PLAYER
    await reply(battle_session, "/gm undo", user_id=GM_USER)
    await notify(battle_session, "/notify off")
    chart = await reply(battle_session, "/answer choice:no", user_id=BRITISH)
    assert chart.embeds[0]["title"].startswith("❓ Read the")
    assert not chart.content and allowed(chart) == NO_PINGS


async def test_no_ping_when_the_next_question_is_for_whoever_answered(battle_session):
    await setup_assault(battle_session)
    # The GM assaults, and answers Huzzah for the 52nd's player: the chart reading is his.
    huzzah = await reply(battle_session, ASSAULT + ' dice:"44 52 5 33 41 55"',
                         user_id=GM_USER)
    assert allowed(huzzah) == {"parse": [], "users": [BRITISH]}
    _, chart = await press(battle_session, huzzah, "No Huzzah", GM_USER)
    assert chart.embeds[0]["title"].startswith("❓ Read the")
    assert not chart.content and allowed(chart) == NO_PINGS


async def test_names_that_look_like_mentions_ping_nobody_beside_the_one_player(
        battle_session):
    await reply(battle_session, '/battle start ruleset:fire-at-will name:"@everyone here"',
                user_id=GM_USER)
    await reply(battle_session, '/unit add side:French name:"<@999> @everyone" '
                                'words:"cav morale=4" strength:4', user_id=PLAYER)
    await reply(battle_session, '/unit add side:British name:"@here" words:"inf open '
                                'morale=4" strength:4', user_id=OTHER)
    charge = '/charge fire-at-will target:"<@999> @everyone" chargers:"@here" dice:1'
    [asked] = await send(battle_session, charge, user_id=OTHER)
    text = text_of(asked)
    assert "@everyone" in text and "<@999\\>" in text  # echoed as typed, escaped
    assert asked.content == f"<@{PLAYER}>, your answer:"
    assert allowed(asked) == PINGS_PLAYER  # not "everyone", no role, not user 999
    await notify(battle_session, "/notify off")
    await reply(battle_session, "/gm undo", user_id=GM_USER)
    quiet = await send(battle_session, charge, user_id=OTHER)
    assert "<@999\\> @everyone" in text_of(quiet[0])
    assert_cannot_ping(quiet)


async def test_battle_show_and_next_say_whom_the_battle_waits_on_without_a_ping(
        battle_session):
    await setup_charge(battle_session)
    await reply(battle_session, CHARGE, user_id=OTHER)
    shown = await reply(battle_session, "/battle show", user_id=OTHER)
    assert f"Hussars' player (<@{PLAYER}>) or a GM" in text_of(shown)
    assert ", asked <t:" in text_of(shown) and "since" not in text_of(shown)
    assert allowed(shown) == NO_PINGS
    refused = await reply(battle_session, "/battle next", user_id=GM_USER)
    assert refused.ephemeral
    assert refused.content.startswith(
        f"⚠️ This battle is waiting for an answer from Hussars' player (<@{PLAYER}>), asked "
        "<t:")
    assert "“Does Hussars counter-charge?” (event #4)" in refused.content
    assert allowed(refused) == NO_PINGS


async def test_notify_is_offered_in_servers_only(battle_session):
    command = battle_session.tree.get_command("notify")
    assert command is not None and command.guild_only
    assert sorted(sub.name for sub in command.commands) == ["off", "on"]


async def test_a_question_the_rules_give_the_gm_pings_the_gm(battle_session, monkeypatch):
    # No rule set yet gives a question to the GM; the counter-charge stands in for one.
    def gms(*args: Any, **fields: Any) -> Question:
        return Question(*args, **{**fields, "by": GM_CHOICE})

    monkeypatch.setattr(fire_at_will_charge, "Question", gms)
    await setup_charge(battle_session)
    asked = await reply(battle_session, CHARGE, user_id=OTHER)
    assert asked.content == f"<@{GM_USER}>, your answer:"
    assert allowed(asked) == {"parse": [], "users": [GM_USER]}
    assert asked.embeds[0]["description"].startswith(f"The GM (<@{GM_USER}>) decides.")
    [refused] = await press(battle_session, asked, "Stand", PLAYER)
    assert refused.ephemeral and refused.content.startswith("⚠️ This is the GM's choice.")
    refused = await reply(battle_session, "/battle next", user_id=GM_USER)
    # Told to the one it waits on: his own answer.
    assert "This battle is waiting for your answer, asked <t:" in refused.content
    [result] = await press(battle_session, asked, "Stand", GM_USER)
    assert result.embeds[0]["title"].endswith("Hussars stands: melee follows")


async def test_a_question_sent_after_thinking_pings_the_same(battle_session, monkeypatch):
    await setup_charge(battle_session)
    # The command answers after "thinking…": the question is the follow-up.
    monkeypatch.setitem(answer.__kwdefaults__, "defer_after", 0.0)
    thinking, asked = await send(battle_session, CHARGE, user_id=OTHER)
    assert thinking.kind == "deferral" and asked.kind == "followup"
    assert asked.content == f"<@{PLAYER}>, your answer:"
    assert allowed(asked) == PINGS_PLAYER


async def imported_fight(session: OfflineDiscord, importer: int) -> SentMessage:
    """Fire at Will's counter-charge, waiting on the hussars' player (PLAYER), moved to
    another channel by ``importer``."""
    await play(session, MID_FIGHT["fire-at-will"])
    return await import_file(session, backup_file(await export(session)), user=importer)


async def test_an_imported_battle_pings_the_player_its_question_waits_on(battle_session):
    restored = await imported_fight(battle_session, GM_USER)
    assert restored.embeds[0]["title"] == "📥 Battle restored: Quiberon"
    assert restored.content == f"<@{PLAYER}>, your answer:"
    assert allowed(restored) == PINGS_PLAYER
    assert buttons(restored) == ["Counter-charge Rangers", "Stand"]
    # Answered there, the message loses its mention, as a question's own does.
    [answered, *_] = await battle_session.press(restored, "Stand", channel_id=ELSEWHERE,
                                                user_id=PLAYER, guild_id=GUILD)
    assert answered.kind == "update" and answered.content == "✅ Answered by player"


async def test_no_ping_when_the_player_imports_it_or_turned_mentions_off(battle_session):
    own = await imported_fight(battle_session, PLAYER)
    assert buttons(own) == ["Counter-charge Rangers", "Stand"]
    assert not own.content and allowed(own) == NO_PINGS

    await notify(battle_session, "/notify off")
    data = await export(battle_session)
    quiet = await import_file(battle_session, backup_file(data), channel=ELSEWHERE + 1)
    assert buttons(quiet) == ["Counter-charge Rangers", "Stand"]
    assert not quiet.content and allowed(quiet) == NO_PINGS
