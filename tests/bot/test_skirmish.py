"""The example rule set (rules/skirmish) through the real command tree: a quick lookup, a
battle move with its question, answered by a button or by /answer, undo, reroll, odds with
expected losses, and its help; all of it from the rule set's declarations alone."""

from __future__ import annotations

from .conftest import GM_USER, PLAYER, reply, send, text_of
from .test_decisions import buttons, press

OTHER = 3000  # the voltigeurs' player
SETUP = [
    ('/battle start ruleset:skirmish name:"Example Ridge"', GM_USER),
    ('/unit add side:British name:Rangers words:"morale=7" strength:4', PLAYER),
    ('/unit add side:French name:Voltigeurs words:"morale=6 stands=3"', OTHER),
]
# Rangers roll 5 4 1 2 (two hits), Voltigeurs 6 3 2 (one hit): the voltigeurs lose.
MELEE = '/melee skirmish attacker:Rangers defender:Voltigeurs dice:"5 4 1 2 6 3 2{more}"'


async def setup(session) -> list:
    return [await reply(session, line, user_id=user) for line, user in SETUP]


async def test_a_quick_lookup_reads_its_units_and_answers_given_ahead(discord_session):
    message = await reply(discord_session, '/melee skirmish attacker:"Rangers: stands=4 '
                          'morale=7" defender:"Voltigeurs: stands=3 morale=6" '
                          'dice:"5 4 1 2 6 3 2 4 5" choices:test')
    text = text_of(message)
    assert message.embeds[0]["title"] == "💥 Voltigeurs loses the melee 2–1 and breaks"
    assert "**Voltigeurs** loses 2 stands\n**Rangers** loses 1 stand\n" in text
    assert "**Voltigeurs break test** 🎲 4 5 = **9** vs 6 or less → breaks" in text


async def test_units_join_in_the_rule_set_s_own_words(battle_session):
    _, rangers, voltigeurs = await setup(battle_session)
    assert rangers.content == "➕ Rangers joins the British side: 4 stands, morale 7 (event #2)."
    assert voltigeurs.content.startswith("➕ Voltigeurs joins the French side: 3 stands, "
                                         "morale 6")
    refused = await reply(battle_session, '/unit add side:French name:Tirailleurs words:'
                          '"stands=3"', user_id=OTHER)
    assert refused.ephemeral and "give the unit's morale" in refused.content


async def test_words_after_a_roster_name_are_refused_not_dropped(battle_session):
    """In a battle the roster gives a unit's stands and morale, and a skirmish takes no
    situation: a word after its name would be lost, so it is refused, saying where the
    unit's own words are changed."""
    await setup(battle_session)
    for word in ("stands=20", "banana"):
        refused = await reply(battle_session, f'/melee skirmish attacker:"Rangers: {word}" '
                              "defender:Voltigeurs", user_id=PLAYER)
        assert refused.ephemeral and refused.content == (
            f"⚠️ attacker: nothing goes after Rangers' name here (`{word}`). The battle's "
            "roster gives the unit's words (`/unit edit` changes them); a fight's situation "
            "goes in the command's own options, where it has them."), refused.content


async def test_the_loser_s_player_chooses_by_button_and_the_battle_says_why_it_is_gone(
        battle_session):
    await setup(battle_session)
    asked = await reply(battle_session, MELEE.format(more=" 4 5"), user_id=PLAYER)
    assert asked.embeds[0]["title"].startswith("❓ Fall back or test: does Voltigeurs fall")
    assert buttons(asked) == ['Fall back 3"', "Take the break test"]
    [not_yours] = await press(battle_session, asked, "Take the break test", PLAYER)
    assert not_yours.ephemeral
    sent = await press(battle_session, asked, "Take the break test", OTHER)
    result = text_of(sent[-1])
    assert "**Voltigeurs break test** 🎲 4 5 = **9** vs 6 or less → breaks" in result
    # "… and breaks" is the headline's: the roster line says what it adds.
    assert "📋 Voltigeurs loses 2 stands (now 1) and leaves the battle" in result.split("\n")
    shown = text_of(await reply(battle_session, "/battle show"))
    assert "Rangers** · 3 stands · morale 7" in shown


async def test_answer_undo_and_reroll(battle_session):
    await setup(battle_session)
    await reply(battle_session, MELEE.format(more=""), user_id=PLAYER)
    answered = await reply(battle_session, "/answer choice:fall-back", user_id=OTHER)
    said = text_of(answered)
    # The question's message, now the result.
    # Typed by its key, the answer is said as its button says it.
    assert said.startswith("✅ Answered by player: “Fall back 3\"”\n🩸 Voltigeurs loses the "
                           "melee 2–1 and falls back\n")
    assert "📋 Voltigeurs loses 2 stands (now 1)" in said
    undone = await reply(battle_session, "/gm undo", user_id=GM_USER)
    assert "Voltigeurs" in text_of(undone)
    shown = text_of(await reply(battle_session, "/battle show"))
    assert "Voltigeurs** · 3 stands" in shown
    await reply(battle_session, MELEE.format(more=""), user_id=PLAYER)
    await reply(battle_session, "/answer choice:fall-back", user_id=OTHER)
    await reply(battle_session, '/gm dice dice:"1 1 1 1 6 6 6"', user_id=GM_USER)
    rerolled = await reply(battle_session, "/gm reroll", user_id=GM_USER)
    assert rerolled.embeds[0]["title"].startswith("❓ Fall back or test: does Rangers")


async def test_odds_give_expected_losses_in_stands(discord_session):
    sent = [m for m in await send(discord_session, '/melee odds skirmish attacker:"Rangers: '
                                  'stands=4 morale=7" defender:"Voltigeurs: stands=3 '
                                  'morale=6"') if m.kind != "deferral"]
    text = text_of(sent[-1])
    assert "stands" in text and "Exact" in text


async def test_the_help_topic_lists_its_words(discord_session):
    message = await reply(discord_session, "/help topic:skirmish")
    text = text_of(message)
    assert "stands=" in text and "morale=" in text and "/melee skirmish" in text


async def test_its_odds_say_who_wins_by_the_kind_it_declares_a_unit_gives_way_by(
        discord_session):
    message = await reply(discord_session, '/melee odds skirmish attacker:"Rangers: stands=4 '
                                           'morale=7" defender:"Voltigeurs: stands=3 morale=6" '
                                           'choices:test')
    assert message.embeds[0]["title"] == (
        "🎯 Odds: both hold 61% · Rangers wins 29% · Voltigeurs wins 9.4%")
    assert "`██▍        29%` Voltigeurs breaks" in message.embeds[0]["description"]
