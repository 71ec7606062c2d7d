"""Battles in threads and forum posts, sent as Discord sends them from each: the thread is the
interaction's channel (type 11 public, 12 private; a forum post is a public thread whose
parent is a forum channel), with the member's permissions there. A battle in a thread and
another in its parent channel are two battles; ``/battle start thread:true`` opens the thread.
"""

from __future__ import annotations

import asyncio
import re

import discord
import pytest

from bot.offline import OfflineDiscord, ThreadPlace, command_payload, parse_command_line
from bot.offline.payloads import DEFAULT_APP_PERMISSIONS

from .conftest import CHANNEL, GM_USER, GUILD, MANAGE_CHANNELS, PLAYER, reply, text_of
from .phone import phone_lines
from .test_decisions import CHARGE, OTHER, SETUP, buttons

THREAD = 300
PLACES = {
    "public thread": ThreadPlace(parent_id=CHANNEL, owner_id=GM_USER),
    "private thread": ThreadPlace(parent_id=CHANNEL, private=True, owner_id=GM_USER),
    "forum post": ThreadPlace(parent_id=400, forum=True, owner_id=GM_USER),
}
MAY_OPEN_THREADS = DEFAULT_APP_PERMISSIONS | discord.Permissions(
    create_public_threads=True).value


def in_thread(place: ThreadPlace, **where: object) -> dict[str, object]:
    return {"channel_id": THREAD, "thread": place, **where}


async def test_an_interaction_from_each_place_reaches_the_bot_as_that_channel(
        discord_session: OfflineDiscord):
    for thread_id, (label, place) in enumerate(PLACES.items(), start=THREAD):
        line = parse_command_line(discord_session.tree, "/battle show", guild_id=GUILD)
        payload = command_payload(discord_session.tree, line.path, line.options,
                                  application_id=discord_session.application_id,
                                  guild_id=GUILD, user_id=PLAYER,
                                  **in_thread(place, channel_id=thread_id))
        result = await discord_session.dispatch(payload)
        channel = result.interaction.channel
        assert isinstance(channel, discord.Thread), label
        assert channel.id == thread_id and channel.parent_id == place.parent_id
        assert channel.type is (discord.ChannelType.private_thread if place.private
                                else discord.ChannelType.public_thread)
        # The bot knows public threads and forum posts (the guilds intent); a private
        # thread it was never added to reaches it only with the interaction.
        cached = discord_session.client.get_guild(GUILD).get_thread(thread_id)
        assert (cached is None) is place.private, label
        parent = discord_session.client.get_guild(GUILD).get_channel(place.parent_id)
        assert isinstance(parent, discord.ForumChannel if place.forum else discord.TextChannel)


async def test_a_battle_in_a_thread_and_another_in_its_parent_channel(battle_session):
    thread = PLACES["public thread"]
    await reply(battle_session, "/battle start ruleset:fire-at-will name:Parent",
                user_id=GM_USER)
    await reply(battle_session, "/battle start ruleset:fire-at-will name:\"In the thread\"",
                user_id=PLAYER, **in_thread(thread))
    # Both at once: each its own channel, its own lock.
    added = await asyncio.gather(
        reply(battle_session, '/unit add side:British name:"Parent Foot" '
              'words:"inf morale=4" strength:4', user_id=GM_USER),
        reply(battle_session, '/unit add side:French name:"Thread Foot" '
              'words:"inf morale=4" strength:4', user_id=PLAYER, **in_thread(thread)))
    assert not any(message.ephemeral for message in added)
    parent = text_of(await reply(battle_session, "/battle show"))
    there = text_of(await reply(battle_session, "/battle show", **in_thread(thread)))
    assert "Parent" in parent and "Parent Foot" in parent and "Thread Foot" not in parent
    assert "In the thread" in there and "Thread Foot" in there and "Parent Foot" not in there
    # Ending the thread's battle leaves the parent channel's alone.
    ended = await reply(battle_session, '/battle end confirm:"In the thread"', user_id=PLAYER,
                        **in_thread(thread))
    assert not ended.ephemeral
    assert "Parent Foot" in text_of(await reply(battle_session, "/battle show"))


@pytest.mark.parametrize("label", list(PLACES))
async def test_a_question_asked_in_a_thread_is_answered_with_its_button_there(
        discord_session: OfflineDiscord, label: str):
    place = PLACES[label]
    for line, user in SETUP:
        assert not (await reply(discord_session, line, user_id=user,
                                **in_thread(place))).ephemeral
    asked = await reply(discord_session, CHARGE, user_id=OTHER, **in_thread(place))
    assert buttons(asked) == ["Counter-charge Rangers", "Stand"]
    # The question's message becomes the result.
    [answered] = await discord_session.press(
        asked, "Counter-charge Rangers", user_id=PLAYER, guild_id=GUILD, **in_thread(place))
    assert answered.kind == "update" and "Answered by" in answered.content
    assert answered.embeds[0]["title"].endswith("Hussars counter-charges Rangers")
    # The parent channel never had a battle.
    refused = await reply(discord_session, "/battle show",
                          channel_id=place.parent_id)
    assert refused.ephemeral and "no battle" in refused.content.lower()


@pytest.mark.parametrize("label", list(PLACES))
async def test_the_gm_check_reads_the_permissions_discord_sends_from_the_thread(
        discord_session: OfflineDiscord, label: str):
    place = PLACES[label]
    await reply(discord_session, "/battle start ruleset:fire-at-will name:Minden",
                user_id=GM_USER, **in_thread(place))
    refused = await reply(discord_session, "/battle next", user_id=PLAYER, **in_thread(place))
    assert refused.ephemeral and "Only the battle's GM" in refused.content
    # Manage Channel where the command is sent, as Discord computed it for the thread.
    moved = await reply(discord_session, "/battle next", user_id=PLAYER,
                        permissions=MANAGE_CHANNELS, **in_thread(place))
    assert not moved.ephemeral


async def test_battle_start_with_thread_opens_one_and_the_battle_lives_there(
        discord_session: OfflineDiscord):
    started = await reply(discord_session, "/battle start ruleset:fire-at-will "
                          "name:\"Fraser's Raid\" thread:true", user_id=GM_USER,
                          app_permissions=MAY_OPEN_THREADS)
    assert not started.ephemeral
    assert started.embeds[0]["title"] == "⚔️ Battle started: Fraser's Raid"
    [thread_id] = map(int, re.findall(r"<#(\d+)>", text_of(started)))
    assert f"Played in <#{thread_id}>: there, add units with `/unit add`" in text_of(started)
    assert phone_lines(started) <= 20
    thread = discord_session.client.get_guild(GUILD).get_thread(thread_id)
    assert thread is not None and thread.parent_id == CHANNEL
    assert thread.name == "Fraser's Raid" and thread.type is discord.ChannelType.public_thread
    here = {"channel_id": thread_id, "thread": ThreadPlace(parent_id=CHANNEL,
                                                           owner_id=discord_session.application_id)}
    await reply(discord_session, '/unit add side:British name:"78th" words:"inf morale=4" '
                'strength:4', user_id=PLAYER, **here)
    shown = text_of(await reply(discord_session, "/battle show", **here))
    assert "Fraser's Raid" in shown and "78th" in shown
    # The starter is its GM there; the channel it was opened from has no battle.
    assert not (await reply(discord_session, "/battle next", user_id=GM_USER, **here)).ephemeral
    refused = await reply(discord_session, "/battle show")
    assert refused.ephemeral and "no battle" in refused.content.lower()


async def test_battle_start_with_thread_where_the_bot_may_not_open_one_says_so(
        discord_session: OfflineDiscord):
    refused = await reply(discord_session, "/battle start ruleset:fire-at-will name:Minden "
                          "thread:true", user_id=GM_USER)
    assert refused.ephemeral
    assert "Create Public Threads" in refused.content
    assert discord_session.network_attempts == []
    nothing = await reply(discord_session, "/battle show")
    assert nothing.ephemeral and "no battle" in nothing.content.lower()



async def test_battle_start_with_thread_inside_a_thread_is_refused(
        discord_session: OfflineDiscord):
    refused = await reply(discord_session, "/battle start ruleset:fire-at-will name:Minden "
                          "thread:true", user_id=GM_USER, app_permissions=MAY_OPEN_THREADS,
                          **in_thread(PLACES["public thread"]))
    assert refused.ephemeral and "thread already" in refused.content
    assert "without `thread`" in refused.content
