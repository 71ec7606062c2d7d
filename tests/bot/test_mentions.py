"""Nothing the bot posts can ping anyone, whatever names the players type.

Unit, general, side and battle names are echoed back, and so are role names; in Discord
``@everyone``, ``<@id>`` and ``<@&id>`` in a message would notify people. Every payload
the bot sends says so explicitly: ``allowed_mentions`` parses nothing.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.offline import OfflineDiscord, SentMessage, command_payload, parse_command_line
from bot.render.text import escape_prose, own
from bot.respond import answer

from .conftest import CHANNEL, GM_USER, GUILD, send

NO_PINGS = {"parse": []}
ROLE = 5555
GM_ROLE = f"/gm role role:<@&{ROLE}>"  # its role is named @everyone

BATTLE = [
    '/battle start ruleset:fire-at-will name:"@everyone at Quebec"',
    '/unit add side:"@here" name:"@everyone" words:"inf regular morale=4" strength:4',
    '/unit add side:French name:"<@&5555>" words:"inf regular morale=4" strength:4',
    '/general add name:"<@1000>" side:"@here" unit:"@everyone"',
    GM_ROLE,
    '/unit edit unit:"<@&5555>" rename:"<@2000> @here"',
    '/melee fire-at-will attackers:"@everyone: charging" defenders:"<@2000> @here" '
    'dice:"6 1 6 6"',
    "/battle show",
    "/battle log",
    "/gm undo",
    '/charge fire-at-will target:"@everyon" chargers:"<@1000>"',
]


def message_data(message: SentMessage) -> dict[str, Any]:
    """The message part of a request: a callback carries it under ``data``."""
    assert message.request is not None and message.request.payload is not None
    payload = message.request.payload
    return payload.get("data") or {} if message.kind in ("response", "deferral") else payload


def assert_cannot_ping(messages: list[SentMessage]) -> None:
    for message in messages:
        if message.kind == "delete":
            continue  # a public "thinking…" replaced by a private reply: a deletion has no text
        data = message_data(message)
        if message.kind == "deferral":
            # "Huzzah is thinking…" has no text of its own; the follow-up is checked.
            assert "content" not in data and "embeds" not in data, data
            continue
        assert data.get("allowed_mentions") == NO_PINGS, (message.kind, data)


async def gm_role_named_everyone(session: OfflineDiscord) -> list[SentMessage]:
    """/gm role with a role whose name is itself a mention."""
    command = parse_command_line(session.tree, GM_ROLE, guild_id=GUILD)
    payload = command_payload(session.tree, command.path, command.options,
                              application_id=session.application_id,
                              interaction_id=session.ids.next(), channel_id=CHANNEL,
                              user_id=GM_USER, guild_id=GUILD)
    payload["data"]["resolved"]["roles"][str(ROLE)]["name"] = "@everyone"
    return await session.invoke_raw(payload)


async def play_the_battle(session: OfflineDiscord) -> list[SentMessage]:
    sent: list[SentMessage] = []
    for line in BATTLE:
        if line == GM_ROLE:
            sent += await gm_role_named_everyone(session)
        else:
            sent += await send(session, line, user_id=GM_USER)
    return sent


async def test_no_reply_in_a_battle_of_mention_names_can_ping(discord_session):
    sent = await play_the_battle(discord_session)
    texts = [m.content or str(m.embeds) for m in sent]
    # The names are echoed as typed (markdown escaped: `<@1000\>` shows as `<@1000>`); only
    # allowed_mentions keeps them quiet.
    assert any("@everyone" in text for text in texts)
    assert any("<@1000\\>" in text for text in texts)
    assert any("GM role set to @everyone" in text for text in texts), "in the log"
    assert any(m.ephemeral for m in sent), "the misspelt unit is refused"
    assert_cannot_ping(sent)


async def test_deferred_replies_and_their_follow_ups_cannot_ping(discord_session, monkeypatch):
    # Every command answers after "thinking…": its message is a follow-up.
    monkeypatch.setitem(answer.__kwdefaults__, "defer_after", 0.0)
    sent = await play_the_battle(discord_session)
    kinds = {m.kind for m in sent}
    assert {"deferral", "followup"} <= kinds
    assert_cannot_ping(sent)


@pytest.mark.parametrize("line", [
    "/help",
    '/melee fire-at-will attackers:"@everyone: inf" defenders:"@here: inf" dice:"3 4"',
])
async def test_quick_lookups_and_help_cannot_ping(discord_session, line):
    assert_cannot_ping(await send(discord_session, line))


# --- a refusal names a unit as typed, and its player as Discord shows him --------------------

@pytest.mark.parametrize("name,shown", [
    ("<@1000>", "<@1000\\>"),
    ("<@&5555>", "<@&5555\\>"),
    ("<#123>", "<#123\\>"),
    ("<@!1000>", "<@!1000\\>"),
])
async def test_a_private_refusal_shows_a_mention_shaped_name_as_typed(discord_session, name,
                                                                       shown):
    """Only whoever added a unit may remove it: the refusal names him as a mention (it pings
    nobody) and the unit as typed, not as a member, a role, a channel or a time."""
    await send(discord_session, "/battle start ruleset:fire-at-will name:Quebec",
               user_id=GM_USER)
    await send(discord_session, f'/unit add side:French name:"{name}" '
               'words:"inf regular morale=4" strength:4', user_id=GM_USER)
    refused = await send(discord_session, f'/unit remove unit:"{name}"', user_id=3000)
    assert refused[-1].ephemeral
    assert refused[-1].content.startswith(f"⚠️ Only <@{GM_USER}>, who added {shown}, or a GM"), \
        refused[-1].content
    assert_cannot_ping(refused)


def test_prose_shows_player_tags_as_typed_and_the_bots_own_as_discord_does():
    assert escape_prose(f"Only {own('<@2000>')}, who added <@2000> and <#1>, asked "
                        f"{own('<t:5:R>')}: `<@3>` <a:x:9> </melee tricorne:77> @here") == \
        "Only <@2000>, who added <@2000\\> and <#1\\>, asked <t:5:R>: `<@3>` <a:x:9\\> " \
        "</melee tricorne:77\\> @here"
