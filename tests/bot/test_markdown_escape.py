"""Player text in a reply: every markdown character behind a backslash, nothing else."""

from __future__ import annotations

import random
import re

import pytest

from bot.render.resolution import escape
from bot.render.text import escape_prose

from .conftest import GM_USER, reply, send

# The rule as written out once: a backslash before each of \ * _ ` ~ | >.
ONE_BY_ONE = re.compile(r"([\\*_`~|>])")


def test_markdown_is_escaped_and_plain_text_is_left_alone():
    assert escape("2nd Foot") == "2nd Foot"
    assert escape("**Gren_adiers** `x` ~y~ |z| > q \\") == \
        "\\*\\*Gren\\_adiers\\*\\* \\`x\\` \\~y\\~ \\|z\\| \\> q \\\\"
    rng = random.Random(3)
    for _ in range(5000):
        text = "".join(rng.choice("ab é🎲\\*_`~|>:") for _ in range(rng.randint(0, 16)))
        assert escape(text) == ONE_BY_ONE.sub(r"\\\1", text)


# --- the roster's and the GM's replies, through the command tree ----------------------------

# Each roster reply, and the markdown-laden names it must show as typed.
ROSTER_REPLIES = [
    ('/unit add side:"*French*" name:"La *Sarre*" words:"inf regular morale=4" strength:4',
     ["➕ La \\*Sarre\\* joins the \\*French\\* side"]),
    ('/unit add side:"_British_" name:"78th |Fraser|" words:"inf regular morale=4" strength:4',
     ["➕ 78th \\|Fraser\\| joins the \\_British\\_ side",
      "sides are now \\*French\\* and \\_British\\_"]),
    ('/unit edit unit:"La *Sarre*" rename:"La ~Reine~"',
     ["✏️ La \\*Sarre\\*", "La \\~Reine\\~"]),
    ('/general add name:"**Montcalm**" side:"*French*" unit:"La ~Reine~"',
     ["🎖️ \\*\\*Montcalm\\*\\* (\\*French\\*) takes the field with La \\~Reine\\~"]),
    ("/gm undo", ["Added general \\*\\*Montcalm\\*\\*"]),
    ('/unit remove unit:"78th |Fraser|"', ["➖ 78th \\|Fraser\\| removed"]),
]


@pytest.mark.parametrize("line,shown", ROSTER_REPLIES, ids=lambda v: str(v)[:24])
async def test_roster_and_undo_replies_show_names_as_typed(discord_session, line, shown):
    """A unit called ``La *Sarre*`` is not shown as ``La`` and an italic ``Sarre``: every
    name, side and change in a roster reply (and the summary an undo repeats) is escaped."""
    await send(discord_session, "/battle start ruleset:fire-at-will name:Carillon",
               user_id=GM_USER)
    for earlier, _ in ROSTER_REPLIES[:ROSTER_REPLIES.index((line, shown))]:
        await send(discord_session, earlier, user_id=GM_USER)
    message = await reply(discord_session, line, user_id=GM_USER)
    assert not message.ephemeral, message.content
    for text in shown:
        assert text in message.content, message.content


async def test_battle_show_names_each_side_as_typed(discord_session):
    """A side is a field's name in `/battle show`: ``*French*`` is not shown in italics."""
    await send(discord_session, "/battle start ruleset:fire-at-will name:Carillon",
               user_id=GM_USER)
    await send(discord_session, ROSTER_REPLIES[0][0], user_id=GM_USER)
    shown = await reply(discord_session, "/battle show", user_id=GM_USER)
    names = [field["name"] for embed in shown.embeds for field in embed.get("fields", [])]
    assert "\\*French\\*" in names, names
    assert "*French*" not in names, names


async def test_titles_name_the_battle_and_units_as_typed(discord_session):
    """A battle's name heads `/battle show` and `/battle log`, and a unit's name is in the
    headline a move's title says: each is escaped."""
    for line in ('/battle start ruleset:fire-at-will name:"*Carillon*"',
                 ROSTER_REPLIES[0][0], ROSTER_REPLIES[1][0]):
        await send(discord_session, line, user_id=GM_USER)
    move = await reply(discord_session, '/melee fire-at-will attackers:"78th |Fraser|: charging" '
                       'defenders:"La *Sarre*" dice:"3 3"', user_id=GM_USER)
    assert move.embeds[0]["title"] == \
        "🩸 Attackers win by 1: La \\*Sarre\\* retires 3\", −1 SP, shaken"
    for line, title in (("/battle show", "⚔️ \\*Carillon\\*"), ("/battle log", "📜 \\*Carillon\\*")):
        shown = await reply(discord_session, line, user_id=GM_USER)
        assert shown.embeds[0]["title"].startswith(title), shown.embeds[0]["title"]


async def test_the_next_phase_and_the_end_name_the_battle_as_typed(discord_session):
    await send(discord_session, '/battle start ruleset:fire-at-will name:"*Carillon*"',
               user_id=GM_USER)
    stepped = await reply(discord_session, "/battle next", user_id=GM_USER)
    assert stepped.embeds[0]["title"].startswith("⏭️ \\*Carillon\\*: Turn 1"), \
        stepped.embeds[0]["title"]
    ended = await reply(discord_session, '/battle end confirm:"*Carillon*"', user_id=GM_USER)
    assert ended.embeds[0]["title"] == "🏁 \\*Carillon\\* has ended", ended.embeds[0]


def test_a_message_around_player_text_escapes_it_outside_its_code_spans():
    assert escape_prose("*Royal* _Scots_ Greys: give `defence=N`, e.g. `A_b *c*`.") == \
        "\\*Royal\\* \\_Scots\\_ Greys: give `defence=N`, e.g. `A_b *c*`."
    assert escape_prose("no markdown here") == "no markdown here"


GREYS = '"*Royal* _Scots_ Greys"'


async def test_refusals_reminders_and_the_export_name_units_as_typed(discord_session):
    """Beyond replies and titles: a refusal naming the unit, `/battle next`'s reminders and
    the Markdown export show ``*Royal* _Scots_ Greys`` as typed, commands in them kept."""
    for line in ('/battle start ruleset:labataille name:"*Quatre* Bras"',
                 f'/unit add side:British name:{GREYS} words:"cavalry morale=44 melee=18 '
                 'mp=8 nation=british fatigue=tired" strength:4',
                 '/unit add side:French name:"1/45e" words:"infantry morale=34 melee=12" '
                 'strength:4'):
        assert not (await reply(discord_session, line, user_id=GM_USER)).ephemeral, line
    refused = await reply(discord_session, f'/cavalry labataille chargers:{GREYS} '
                          f'targets:{GREYS} spent:2', user_id=GM_USER)
    assert refused.ephemeral
    assert refused.content.startswith("⚠️ \\*Royal\\* \\_Scots\\_ Greys"), refused.content
    stepped = await reply(discord_session, "/battle next", user_id=GM_USER)
    for _ in range(3):
        if "Tired" in stepped.embeds[0].get("description", ""):
            break
        stepped = await reply(discord_session, "/battle next", user_id=GM_USER)
    assert "• Tired: \\*Royal\\* \\_Scots\\_ Greys: clear the marker when your rules let " \
        "them recover (`/unit edit unit:… words:fatigue=fresh`)" in stepped.embeds[0]["description"]
    export = await reply(discord_session, "/battle export", user_id=GM_USER)
    assert export.content.startswith("📎 \\*Quatre\\* Bras:"), export.content
    exported = export.files[0].data.decode()
    assert exported.startswith("# \\*Quatre\\* Bras\n"), exported[:80]
    assert "*Royal* _Scots_" not in exported.replace("\\*", "").replace("\\_", ""), exported


async def test_a_rolls_target_and_its_steps_name_units_as_typed(discord_session):
    """What a roll was read against names the unit it was rolled at: escaped as the unit's
    own line is, in the reply and in its steps."""
    for line in ("/battle start ruleset:tricorne name:Falkirk",
                 '/unit add side:Jacobites name:"*Black* Watch" words:highland strength:4',
                 '/unit add side:Government name:"Fus_il_iers" words:regular strength:3'):
        await send(discord_session, line, user_id=GM_USER)
    move = await reply(discord_session, '/melee tricorne attacker:"*Black* Watch" '
                       'defender:"Fus_il_iers" dice:"inf inf saber flag cav saber art"',
                       user_id=GM_USER)
    shown = move.embeds[0]["description"]
    assert "Battle Bonus) vs Fus\\_il\\_iers (infantry) → 3 hits, 1 flag" in shown, shown
