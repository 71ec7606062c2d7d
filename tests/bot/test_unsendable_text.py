"""Text no reply could carry (a lone UTF-16 surrogate, NUL) is refused where it comes in; a
reply that fails once the command's change is kept says it was kept, and a refusal quoting
such text still reaches the player."""

from __future__ import annotations

import dataclasses
import json

from sqlalchemy import update

import bot.replies
from bot.offline import autocomplete_payload
from bot.storage.models import Charts

from .conftest import CHANNEL, GM_USER, GUILD, reply, send, text_of
from .test_charts import ASSAULT, PACK, attach
from .test_charts import setup as battle_with_a_pack

START = {"ruleset": "tricorne", "name": "Minden \ud800"}


async def gm(session, path: str, options: dict) -> list:
    return await session.invoke(path, options, channel_id=CHANNEL, user_id=GM_USER,
                                guild_id=GUILD)


async def test_an_option_holding_such_text_is_refused_before_anything_is_done(
        discord_session):
    [refused] = await gm(discord_session, "battle start", START)
    assert refused.ephemeral
    assert refused.content == (
        "⚠️ The `name` option holds `\\ud800` (a lone UTF-16 surrogate), a character I can "
        "neither send nor keep. Type it again without it (text pasted from some editors "
        "carries one).")
    nothing = await reply(discord_session, "/battle show")
    assert "There is no battle in this channel." in nothing.content
    await reply(discord_session, "/battle start ruleset:tricorne name:Minden",
                user_id=GM_USER)
    [unit] = await gm(discord_session, "unit add", {"side": "British", "name": "Foot\x00",
                                                    "words": "line"})
    assert unit.ephemeral and "The `name` option holds `\\u0000` (NUL)" in unit.content
    roster = await reply(discord_session, "/battle show")
    assert "No units yet" in text_of(roster)


async def test_suggestions_for_such_text_are_none_and_still_answered(discord_session):
    await reply(discord_session, "/battle start ruleset:tricorne name:Minden",
                user_id=GM_USER)
    # Suggestions would finish the words typed so far, and so repeat them.
    typed = autocomplete_payload(
        discord_session.tree, ["unit", "add"],
        {"side": "British", "name": "Foot", "words": "line \ud800 "}, "words",
        application_id=discord_session.application_id, channel_id=CHANNEL, user_id=GM_USER,
        guild_id=GUILD)
    answered = await discord_session.dispatch(typed)
    assert [r.callback_type for r in answered.requests] == [8]
    assert answered.choices == []


async def keep_as_before(session, content: dict) -> None:
    """A pack stored as this text was taken before it was refused at the door."""
    async with session.client.db.transaction(channel_id=CHANNEL) as s:
        await s.execute(update(Charts).values(content=content))


async def test_a_move_kept_before_its_reply_failed_is_said_to_be_kept(battle_session,
                                                                      monkeypatch):
    await battle_with_a_pack(battle_session)
    await attach(battle_session, PACK)  # event #4
    data = json.loads(PACK.data)
    data["name"] = "Odd \ud800"  # the move's steps name the pack it read
    await keep_as_before(battle_session, data)
    # The public reply shows the result and its rolls; here it quotes the pack's name too.
    played_reply = bot.replies.played_reply

    def quoting(played, trace=None):
        sent = played_reply(played, trace)
        return dataclasses.replace(sent, content=data["name"])

    monkeypatch.setattr(bot.replies, "played_reply", quoting)
    [failed] = await send(battle_session, ASSAULT)
    assert failed.ephemeral
    assert "after your command was done: it was kept, as event #5 (`/battle log` shows " \
        "it), so do not run it again." in failed.content
    assert "Nothing was changed" not in failed.content
    log = await reply(battle_session, "/battle log")
    assert "`#5` player: " in text_of(log) and "#6" not in text_of(log)


async def test_a_refusal_quoting_such_text_still_reaches_the_player(discord_session):
    await battle_with_a_pack(discord_session)
    await attach(discord_session, PACK)
    data = json.loads(PACK.data)
    data["\udfff"] = 1
    await keep_as_before(discord_session, data)
    refused = await reply(discord_session, "/battle charts")
    assert refused.ephemeral and "unknown key `\\udfff`" in refused.content


async def test_names_and_sides_holding_a_character_nobody_sees_are_refused(battle_session):
    """A zero-width space, a soft hyphen or a right-to-left override would make a name that
    looks like another, or turn a log line around; the joiner and the tags of a flag emoji
    are part of what is seen."""
    for line, said in [
        ('/battle start ruleset:fire-at-will name:"\u200b"', "The battle's name"),
        ('/battle start ruleset:fire-at-will name:Z sides:"British, Fr\u202eench"', "A side"),
    ]:
        refused = await reply(battle_session, line, user_id=GM_USER)
        assert refused.ephemeral and refused.content.startswith(f"⚠️ {said} holds"), line
    started = await reply(battle_session, '/battle start ruleset:fire-at-will name:"Z <@1>"',
                          user_id=GM_USER)
    assert started.embeds[0]["title"] == "⚔️ Battle started: Z <@1\\>"
    for name, unseen in [("A\u200b", "U+200B"), ("A\u00adB", "U+00AD"), ("\u202eEvil", "U+202E"),
                         ("Hus\u200dsars", "U+200D"), ("Hussars\U000e0067", "U+E0067"),
                         ("\u3164", "U+3164"), ("A\u2800", "U+2800"),
                         ("Var\ufe0fSel", "U+FE0F"), ("Comb\u034fName", "U+034F")]:
        refused = await reply(battle_session, f'/unit add side:British name:"{name}" '
                                              'words:inf strength:3', user_id=GM_USER)
        assert refused.content == (
            f"⚠️ The unit's name holds a character that cannot be seen ({unseen}). Type it "
            "again: text pasted from elsewhere can carry one."), refused.content
    for name in ("🏴\u200d☠️ Pirates", "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074"
                 "\U000e007f Scots", "\u2694\ufe0f Guards", "Be\u0301arn"):
        added = await reply(battle_session, f'/unit add side:British name:"{name}" '
                                            'words:inf strength:3', user_id=GM_USER)
        assert not added.ephemeral, added.content
    assert "4 units" in text_of(await reply(battle_session, "/battle show"))
