"""What `/unit add` and `/general add` say when the words or the name will not do: each
refusal says what to type instead, privately, and adds nothing."""

from __future__ import annotations

import pytest

from bot.offline import OfflineDiscord

from .conftest import GM_USER, reply, text_of


async def gm(session: OfflineDiscord, line: str):
    return await reply(session, line, user_id=GM_USER)


@pytest.mark.parametrize("blank", ['"   "', '" "'])
async def test_a_blank_unit_name_is_refused_as_missing(discord_session, blank):
    await gm(discord_session, "/battle start ruleset:tricorne name:Culloden")
    refused = await gm(discord_session,
                       f"/unit add side:Government name:{blank} words:regular strength:4")
    assert refused.ephemeral
    assert refused.content == ("⚠️ A unit needs a name. Give `name:` 1 to 64 characters, "
                               "e.g. `2nd Foot`.")
    assert "Government" not in text_of(await gm(discord_session, "/battle show"))


async def test_a_blank_general_name_is_refused_as_missing(discord_session):
    await gm(discord_session, "/battle start ruleset:tricorne name:Culloden")
    refused = await gm(discord_session, '/general add side:Government name:"  "')
    assert refused.ephemeral
    assert refused.content.startswith("⚠️ A general needs a name.")
