"""Undo and Reroll under a battle result: GMs only, only while it is the last roll, and
still working after a restart."""

from __future__ import annotations

import asyncio

from bot.client import create_bot
from bot.offline import OfflineDiscord
from bot.storage import Database

from .conftest import CHANNEL, GM_USER, GUILD, PLAYER, played, reply, text_of
from .test_battle_safety import ONE_SP, setup, strength_and_log, url_of


async def press(session, message, label, user):
    return await session.press(message, label, channel_id=CHANNEL, user_id=user,
                               guild_id=GUILD)


def labels(message) -> list[str]:
    return [b["label"] for row in message.components for b in row["components"]]


async def test_a_result_carries_undo_and_reroll_for_the_gm(battle_session):
    await setup(battle_session)
    result = await reply(battle_session, ONE_SP)
    assert labels(result) == ["📜 Steps", "↩️ Undo", "🎲 Reroll"]
    [refused] = await press(battle_session, result, "↩️ Undo", PLAYER)
    assert refused.ephemeral and "Only the battle's GM can undo" in refused.content
    update, undone = await press(battle_session, result, "↩️ Undo", GM_USER)
    assert update.kind == "update" and update.components == []
    assert undone.content.startswith("↩️ Undid #4 (resolution)")
    assert await strength_and_log(battle_session.client.db) == (100, [1, 2, 3, 4, 5])


async def test_reroll_rolls_the_same_command_again(battle_session):
    await setup(battle_session)
    result = await reply(battle_session, ONE_SP)
    update, rerolled = await press(battle_session, result, "🎲 Reroll", GM_USER)
    assert "Rerolled by" in update.content
    assert rerolled.embeds[0]["footer"]["text"].endswith(" · #6")
    assert labels(rerolled) == ["📜 Steps", "↩️ Undo", "🎲 Reroll"]  # the new result has its own


async def test_undo_under_the_last_roll_acts_though_the_gm_queued_dice_since(battle_session):
    """Dice queued for the next roll are no roll: the Undo under the last result still takes
    it back, as its Reroll would, and the queue stays for the next roll."""
    await setup(battle_session)
    result = await reply(battle_session, ONE_SP)
    queued = await reply(battle_session, '/gm dice dice:"6 6"', user_id=GM_USER)
    assert queued.ephemeral and "Dice queue: 6 6." in queued.content
    update, undone = await press(battle_session, result, "↩️ Undo", GM_USER)
    assert update.kind == "update" and update.components == []
    assert undone.content.startswith("↩️ Undid #4 (resolution)"), undone.content
    assert await strength_and_log(battle_session.client.db) == (100, [1, 2, 3, 4, 5, 6])
    queue = await reply(battle_session, "/gm dice", user_id=GM_USER)
    assert "Dice queue: 6 6." in queue.content


async def test_buttons_under_an_older_result_refuse_to_act(battle_session):
    await setup(battle_session)
    first = await reply(battle_session, ONE_SP)
    await reply(battle_session, ONE_SP)
    for label in ("↩️ Undo", "🎲 Reroll"):
        [refused] = await press(battle_session, first, label, GM_USER)
        assert refused.ephemeral and "#4 is no longer the last one (the last is now #5)" in \
            refused.content
    assert (await strength_and_log(battle_session.client.db))[0] == 98


async def test_buttons_under_an_ended_battles_result_say_so(battle_session):
    await setup(battle_session)
    first = await reply(battle_session, ONE_SP)
    name = (await reply(battle_session, "/battle show")).embeds[0]["title"].removeprefix("⚔️ ")
    for line in (f'/battle end confirm:"{name}"', "/battle start ruleset:fire-at-will name:Next"):
        assert not (await reply(battle_session, line, user_id=GM_USER)).ephemeral
    for label in ("↩️ Undo", "🎲 Reroll"):
        [refused] = await press(battle_session, first, label, GM_USER)
        assert refused.ephemeral, refused.content
        assert refused.content.startswith("⚠️ Event #4 is of another battle (one that has "
                                          "ended, or another channel's)"), refused.content


async def test_buttons_under_a_result_say_why_they_no_longer_act(battle_session):
    await setup(battle_session)
    first = await reply(battle_session, ONE_SP)
    await reply(battle_session, "/gm undo", user_id=GM_USER)
    # Its result undone: not "the last event is not a roll".
    [refused] = await press(battle_session, first, "🎲 Reroll", GM_USER)
    assert refused.content.startswith("⚠️ Event #4 is no longer the last one"), refused.content
    name = (await reply(battle_session, "/battle show")).embeds[0]["title"].removeprefix("⚔️ ")
    await reply(battle_session, f'/battle end confirm:"{name}"', user_id=GM_USER)
    # Its battle ended and no other begun: not "start a battle", nor `/gm undo` (refused
    # with no battle going on).
    for label in ("↩️ Undo", "🎲 Reroll"):
        [refused] = await press(battle_session, first, label, GM_USER)
        assert refused.content == (
            "⚠️ Event #4 is of another battle (one that has ended, or another channel's): "
            "these buttons only act on the result they sit under. No battle is going on in "
            "this channel now: `/battle log` and `/battle export` read the one that ended."), \
            refused.content


async def test_the_buttons_work_after_a_restart(db):
    url = url_of(db)
    async with Database(url) as first, OfflineDiscord(create_bot(first)) as session:
        await setup(session)
        result = await reply(session, ONE_SP)
    async with Database(url) as second, OfflineDiscord(create_bot(second)) as session:
        _, undone = await press(session, result, "↩️ Undo", GM_USER)
        assert undone.content.startswith("↩️ Undid #4")
        assert (await strength_and_log(second))[0] == 100


async def test_override_without_a_result_offers_the_results_in_a_menu(battle_session):
    await setup(battle_session)
    await reply(battle_session, ONE_SP)
    refused = await reply(battle_session, "/gm override")
    assert refused.ephemeral and "Only the battle's GM can override a result" in \
        refused.content
    menu = await reply(battle_session, "/gm override", user_id=GM_USER)
    assert menu.ephemeral and menu.content.startswith("Override #4 with:")
    [select] = [c for row in menu.components for c in row["components"]]
    labels_ = [o["label"] for o in select["options"]]
    assert 1 < len(labels_) <= 25
    tie = 'Grenadiers retires 3"; Artois retires 3"'  # a drawn melee: both retire, no loss
    assert tie in labels_
    [not_gm] = await battle_session.pick(menu, tie, channel_id=CHANNEL, user_id=PLAYER,
                                         guild_id=GUILD)
    assert not_gm.ephemeral and "Only the battle's GM" in not_gm.content
    update, overridden = await battle_session.pick(menu, tie, channel_id=CHANNEL,
                                                   user_id=GM_USER, guild_id=GUILD)
    assert "Overridden by" in update.content and update.components == []
    assert not overridden.ephemeral and overridden.embeds[0]["footer"]["text"].endswith(" · #6")
    assert (await strength_and_log(battle_session.client.db))[0] == 100  # a tie: no loss
    [stale] = await battle_session.pick(menu, tie, channel_id=CHANNEL, user_id=GM_USER,
                                        guild_id=GUILD)
    assert stale.ephemeral and "#4 is no longer the last one (the last is now #6)" in \
        stale.content


async def test_a_slow_press_is_deferred_then_answered(battle_session, monkeypatch):
    import bot.buttons

    await setup(battle_session)
    result = await reply(battle_session, ONE_SP)
    monkeypatch.setattr(bot.buttons, "DEFER_AFTER", 0)  # every press counts as slow
    quick = Database.run

    async def slow_run(*args, **kwargs):  # a database that keeps the press waiting
        await asyncio.sleep(0.01)
        return await quick(*args, **kwargs)

    monkeypatch.setattr(Database, "run", slow_run)
    sent = await press(battle_session, result, "↩️ Undo", GM_USER)
    assert [m.kind for m in sent] == ["edit", "followup"]
    assert sent[0].components == [] and "Undone by" in sent[0].content
    assert sent[1].content.startswith("↩️ Undid #4")


async def test_buttons_are_sent_as_their_items_would_be_and_nothing_is_kept(battle_session):
    """The buttons go out as plain component dicts: the same dicts discord.py would make of
    the registered items, and no view kept per message (a press finds its item by id)."""
    import discord

    from bot.replies import AnswerButton, Buttons, EndButton, GMButton, end_view, gm_buttons

    def items_view(*items) -> list[dict]:
        view = discord.ui.View(timeout=None)
        for item in items:
            view.add_item(item)
        return view.to_components()

    assert Buttons(gm_buttons(7, 12)).to_components() == items_view(
        GMButton("undo", 7, 12), GMButton("reroll", 7, 12))
    assert end_view(7, "Minden " * 20).to_components() == items_view(
        EndButton(7, "Minden " * 20))
    assert [AnswerButton.label_for(""), AnswerButton.label_for("x" * 99)] == \
        ["answer", "x" * 39 + "…" + "x" * 40]
    await setup(battle_session)
    store = battle_session.client._connection._view_store
    await reply(battle_session, ONE_SP)
    assert store._views == {} and store._synced_message_views == {}


async def test_the_steps_of_an_undone_result_say_it_was_undone(battle_session):
    await setup(battle_session)
    first = await reply(battle_session, ONE_SP)
    await reply(battle_session, "/gm undo", user_id=GM_USER)
    [steps] = await press(battle_session, first, "📜 Steps", PLAYER)
    assert steps.ephemeral
    assert "event #4, undone by #5" in steps.embeds[-1]["footer"]["text"], steps.embeds[-1]


async def test_a_result_with_no_dice_has_no_reroll_and_the_command_says_why(discord_session):
    """Cavalry against unsupported guns takes them without a roll (Le Baton): rolling again
    would give the same, so no Reroll is offered, and `/gm reroll` says so, changing nothing."""
    await played(discord_session, "/battle start ruleset:le-baton name:Talavera",
                 '/unit add side:British name:Ross words:"british art figures=4 guns=9" '
                 'strength:4',
                 '/unit add side:French name:Cuirassiers words:"french cav cuirassiers '
                 'figures=8" strength:8')
    result = await reply(discord_session, "/melee le-baton attacker:Cuirassiers defender:Ross "
                         "phase:6", user_id=GM_USER)
    assert "No dice rolled · #4" in result.embeds[-1]["footer"]["text"]
    assert labels(result) == ["📜 Steps", "↩️ Undo"]
    refused = await reply(discord_session, "/gm reroll", user_id=GM_USER)
    assert refused.ephemeral and refused.content == (
        "⚠️ The last result (#4) rolled no dice: a reroll would give it again. "
        "`/gm undo` takes it back; `/gm set` changes a unit by hand.")
    shown = text_of(await reply(discord_session, "/battle show"))
    assert "4 events" in shown and "*out: destroyed*" in shown


async def test_a_result_with_no_dice_after_a_question_keeps_reroll_which_asks_again(
        discord_session):
    """Cavalry that need not roll for recall, and don't: no die, but a reroll asks the
    question again, so the button and the command agree that it may be rerolled."""
    await played(discord_session, "/battle start ruleset:le-baton name:Talavera",
                 '/unit add side:French name:Cuirassiers words:"french cav cuirassiers '
                 'figures=8" strength:8')
    asked = await reply(discord_session, "/recall le-baton unit:Cuirassiers", user_id=GM_USER)
    [result] = await discord_session.press(asked, "Don't roll", channel_id=CHANNEL,
                                           user_id=GM_USER, guild_id=GUILD)
    assert "No dice rolled" in result.embeds[-1]["footer"]["text"]
    assert labels(result) == ["📜 Steps", "↩️ Undo", "🎲 Reroll"]
    again = await reply(discord_session, "/gm reroll", user_id=GM_USER)
    assert again.embeds[0]["title"] == "❓ Cuirassiers need not roll for recall. Roll anyway?"


async def test_the_override_menu_of_an_ended_battle_says_so(battle_session):
    """Its battle ended and no other begun: the menu says whose it was, as Undo and Reroll
    do, not "start a battle"."""
    await setup(battle_session)
    await reply(battle_session, ONE_SP)
    menu = await reply(battle_session, "/gm override", user_id=GM_USER)
    [select] = [c for row in menu.components for c in row["components"]]
    name = (await reply(battle_session, "/battle show")).embeds[0]["title"].removeprefix("⚔️ ")
    await reply(battle_session, f'/battle end confirm:"{name}"', user_id=GM_USER)
    [refused] = await battle_session.pick(menu, select["options"][0]["label"],
                                          channel_id=CHANNEL, user_id=GM_USER, guild_id=GUILD)
    assert refused.ephemeral
    assert refused.content.startswith("⚠️ Event #4 is of another battle (one that has "
                                      "ended, or another channel's)"), refused.content
    assert refused.content.endswith("No battle is going on in this channel now: `/battle "
                                    "log` and `/battle export` read the one that ended.")
