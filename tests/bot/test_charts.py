"""`/battle charts`: a GM attaches the players' chart pack as a file (a real attachment
option, downloaded from the CDN), procedures read it, and undo takes it back."""

from __future__ import annotations

import json
import re
from pathlib import Path

import aiohttp

from bot.offline.payloads import CDN, OfflineFile, build_command_data

from .conftest import CHANNEL, GM_USER, GUILD, PLAYER, full_text, reply, send, steps_of, text_of
from .test_decisions import buttons

PACK_PATH = Path(__file__).parents[1] / "rules" / "labataille" / "pack.json"
PACK = OfflineFile("bussaco-charts.json", PACK_PATH.read_bytes())
SETUP = [
    "/battle start ruleset:labataille name:Bussaco",
    '/unit add side:French name:1/45e words:"infantry morale=34 melee=20" strength:6',
    '/unit add side:British name:95th words:"infantry morale=34 melee=10" strength:4',
]
ASSAULT = '/assault labataille attackers:1/45e defenders:95th dice:"45 45 1 41"'


async def setup(session) -> None:
    for line in SETUP:
        assert not (await reply(session, line, user_id=GM_USER)).ephemeral


async def attach(session, file: OfflineFile, user_id: int = GM_USER):
    [message] = await session.invoke(["battle", "charts"], {"file": file}, channel_id=CHANNEL,
                                     user_id=user_id, guild_id=GUILD)
    return message


async def test_an_attached_pack_decides_the_assault_until_undo_takes_it_back(battle_session):
    await setup(battle_session)
    attached = await attach(battle_session, PACK)
    assert not attached.ephemeral
    assert attached.embeds[0]["title"] == "📊 Chart pack attached: bussaco-charts.json"
    assert attached.embeds[0]["description"].splitlines() == [
        "• Test pack (made for Huzzah's tests: not a La Bataille chart)",
        "• Assault et Mêlée: 5 columns, 1:2 1:1 2:1 3:1 Firefight",
        "• attacker morale, distance: 3 values",
        "• attacker morale, situations: 1 value",
        "• defender morale, situations: 1 value (test defender chart)",
        "• attacker mêlée multipliers: 1 value",
        "• defender mêlée multipliers: 1 value",
        "• defender mêlée multipliers vs cavalry: 2 values",
        "• roll to stand vs cavalry, situations: 1 value",
        "• recall thresholds: 1 value (test recall thresholds)",
        "• Square (Carré) Realization: any",
        "Event #4; `/gm undo` takes it back.",
    ]
    roster = await reply(battle_session, "/battle show")
    assert ("Chart pack: bussaco-charts.json (`/battle charts` shows it)"
            in roster.embeds[0]["description"])
    shown = await reply(battle_session, "/battle charts")  # any player may look
    assert shown.ephemeral and shown.embeds[0]["title"] == "📊 Chart pack: bussaco-charts.json"

    read = await reply(battle_session, ASSAULT)
    assert read.embeds[0]["title"].endswith("DR1: 95th routs")
    # The pack decided it, and its steps say whose chart it was; no chart question.
    assert "**mêlée** 🎲 41 vs 2:1 column → DR1" in text_of(read)
    assert ("vs 2:1 column → DR1\n  ‣ Test pack: made for Huzzah's tests: not a La "
            "Bataille chart") in await steps_of(battle_session, read)
    assert buttons(read) == ["📜 Steps", "↩️ Undo", "🎲 Reroll"]

    undone = await reply(battle_session, "/gm undo", user_id=GM_USER)
    assert "Undid #5" in text_of(undone)
    undone = await reply(battle_session, "/gm undo", user_id=GM_USER)
    assert "GM attached the chart pack bussaco-charts.json" in text_of(undone)
    asked = await reply(battle_session, ASSAULT)
    assert asked.embeds[0]["title"] == ("❓ Read the Assault et Mêlée chart: the 2:1 column, "
                                        "row 41. What does it say?")


async def test_a_new_pack_replaces_the_old_and_remove_takes_it_off(discord_session):
    await setup(discord_session)
    await attach(discord_session, PACK)
    data = json.loads(PACK.data)
    data["name"] = "Second edition"
    second = await attach(discord_session, OfflineFile("second.json", json.dumps(data).encode()))
    assert second.embeds[0]["title"] == "📊 Chart pack attached: second.json"
    assert "In place of bussaco-charts.json." in second.embeds[0]["description"]
    removed = await reply(discord_session, "/battle charts remove:true", user_id=GM_USER)
    assert removed.embeds[0]["title"] == "📊 Chart pack removed: second.json"
    none = await reply(discord_session, "/battle charts")
    assert none.ephemeral and "This battle has no chart pack" in none.content
    again = await reply(discord_session, "/battle charts remove:true", user_id=GM_USER)
    assert again.ephemeral and "This battle has no chart pack to remove." in again.content
    [undone] = await send(discord_session, "/gm undo", user_id=GM_USER)
    assert "removed the chart pack second.json" in text_of(undone)
    back = await reply(discord_session, "/battle charts")
    assert back.embeds[0]["description"].startswith("• Second edition")


async def test_a_pack_that_is_not_one_is_refused_privately_and_nothing_is_kept(
        discord_session):
    await setup(discord_session)
    data = json.loads(PACK.data)
    data["assault"]["rows"]["31-36"][2] = "XR2"
    wrong_cell = await attach(discord_session, OfflineFile("typo.json", json.dumps(data).encode()))
    assert wrong_cell.ephemeral
    assert ("assault: row 31-36, column 2:1: `XR2` is not an Assault et Mêlée result"
            in wrong_cell.content)
    data["assault"]["rows"]["61-66"][3] = "DS9"
    data["recall"]["french"] = 9
    three = await attach(discord_session, OfflineFile("typos.json", json.dumps(data).encode()))
    assert three.ephemeral
    assert three.content.splitlines() == [
        "⚠️ the chart pack: 3 errors (fix them all; docs/labataille.md gives the format):",
        "• assault: row 31-36, column 2:1: `XR2` is not an Assault et Mêlée result.",
        "• assault: row 61-66, column 3:1: `DS9`: DR# and DS# go from 0 to 5 (hexes of impetus).",
        "• recall: `french` must be a threshold from 1 to 7 (on 1d6)."]
    not_json = await attach(discord_session, OfflineFile("notes.txt", b"AS AR DR1"))
    assert not_json.ephemeral
    assert "notes.txt is not JSON: Expecting value at line 1, column 1." in not_json.content
    nan = await attach(discord_session, OfflineFile("nan.json", b'{"name": NaN}'))
    assert nan.ephemeral and "`NaN` is not a number a chart can hold" in nan.content
    binary = await attach(discord_session, OfflineFile("pack.json", b"\xff\xfe\x00"))
    assert binary.ephemeral and "is not text (UTF-8)" in binary.content
    array = await attach(discord_session, OfflineFile("list.json", b"[1, 2]"))
    assert array.ephemeral and "holds a list, not a JSON object" in array.content
    huge = await attach(discord_session, OfflineFile("huge.json", b" " * (300 * 1024)))
    assert huge.ephemeral and "a chart pack is at most 256 KiB" in huge.content
    both = await discord_session.invoke(["battle", "charts"], {"file": PACK, "remove": True},
                                        channel_id=CHANNEL, user_id=GM_USER, guild_id=GUILD)
    assert both[0].ephemeral and "not both at once" in both[0].content
    none = await reply(discord_session, "/battle charts")
    assert "This battle has no chart pack" in none.content
    log = await reply(discord_session, "/battle log")
    assert "chart pack" not in text_of(log)


async def test_only_a_gm_attaches_and_only_where_a_rule_set_reads_packs(discord_session):
    not_gm = await attach(discord_session, PACK)  # no battle yet
    assert not_gm.ephemeral and "There is no battle in this channel." in not_gm.content
    await setup(discord_session)
    player = await attach(discord_session, PACK, user_id=PLAYER)
    assert player.ephemeral and "Only the battle's GM can attach a chart pack." in \
        player.content
    removing = await reply(discord_session, "/battle charts remove:true", user_id=PLAYER)
    assert removing.ephemeral and "Only the battle's GM can remove" in removing.content
    other = CHANNEL + 1
    await reply(discord_session, "/battle start ruleset:tricorne name:Minden",
                channel_id=other, user_id=GM_USER)
    tricorne = await reply(discord_session, "/battle charts", channel_id=other)
    assert tricorne.ephemeral
    assert "Commands & Colors Tricorne battles take no chart pack" in tricorne.content


async def test_the_attachment_arrives_as_discord_sends_it(discord_session):
    await discord_session.start()
    data = build_command_data(discord_session.tree, ["battle", "charts"], {"file": PACK},
                              guild_id=GUILD)
    [option] = data["options"][0]["options"]
    assert option["type"] == 11 and option["name"] == "file"
    attachment = data["resolved"]["attachments"][option["value"]]
    assert attachment["filename"] == "bussaco-charts.json"
    assert attachment["size"] == len(PACK.data)
    assert CDN[attachment["url"]] == PACK.data


async def test_an_answered_question_plays_on_with_the_pack(discord_session):
    await setup(discord_session)
    await reply(discord_session, '/unit add side:British name:52nd words:"infantry '
                                 'nation=british morale=34 melee=10" strength:5',
                user_id=GM_USER)
    await attach(discord_session, PACK)
    huzzah = await reply(discord_session, '/assault labataille attackers:1/45e '
                                          'defenders:52nd dice:"45 45 1 41"')
    assert buttons(huzzah) == ["Huzzah!", "No Huzzah"]
    [result] = await discord_session.press(huzzah, "No Huzzah", channel_id=CHANNEL,
                                           user_id=GM_USER, guild_id=GUILD)
    assert result.embeds[0]["title"].endswith("DR1: 52nd routs")
    assert "Test pack: made for Huzzah's tests" in await steps_of(discord_session, result)


def with_text(name: str) -> bytes:
    """The test pack named ``name``, written as JSON writes it (``\\ud800`` as an escape)."""
    data = json.loads(PACK.data)
    data["name"] = name
    return json.dumps(data).encode()


async def test_a_pack_holding_text_that_cannot_be_sent_is_refused_and_nothing_is_kept(
        discord_session):
    await setup(discord_session)
    surrogate = await attach(discord_session, OfflineFile("odd.json", with_text("Odd \ud800")))
    assert surrogate.ephemeral
    assert surrogate.content == (
        "⚠️ odd.json: `name` holds `\\ud800` (a lone UTF-16 surrogate), a character I can "
        "neither send nor keep. Take it out of the file and attach it again.")
    data = json.loads(PACK.data)
    data["assault"]["rows"]["\udfff"] = data["assault"]["rows"].pop("31-36")
    in_a_key = await attach(discord_session, OfflineFile("key.json", json.dumps(data).encode()))
    assert in_a_key.ephemeral
    assert in_a_key.content.startswith(
        "⚠️ key.json: a key of `assault.rows` holds `\\udfff` (a lone UTF-16 surrogate)")
    nul = await attach(discord_session, OfflineFile("nul.json", with_text("Nul \u0000")))
    assert nul.ephemeral and "`name` holds `\\u0000` (NUL)" in nul.content
    none = await reply(discord_session, "/battle charts")
    assert "This battle has no chart pack" in none.content
    # The battle plays on: the move asks for the chart, and says so.
    asked = await reply(discord_session, ASSAULT)
    assert asked.embeds[0]["title"].startswith("❓ Read the Assault et Mêlée chart")


async def test_a_pack_nested_too_deeply_is_refused(discord_session):
    await setup(discord_session)
    deep = await attach(discord_session, OfflineFile("deep.json", b"[" * 100_000))
    assert deep.ephemeral
    assert deep.content == ("⚠️ deep.json nests lists or objects too deeply to be a chart "
                            "pack. Attach the chart pack as a JSON file (see the rule set's "
                            "documentation).")


async def test_a_download_that_fails_is_refused_whatever_the_failure(discord_session):
    await setup(discord_session)
    failures = [aiohttp.ClientConnectionError("Connection reset by peer"),
                ConnectionResetError(104, "Connection reset by peer"),
                TimeoutError(),
                aiohttp.ClientPayloadError("Response payload is not completed")]

    async def fail(url: str) -> bytes:
        raise failures.pop(0)

    discord_session.client.http.get_from_cdn = fail
    while failures:
        refused = await attach(discord_session, PACK)
        assert refused.ephemeral
        assert refused.content == ("⚠️ I could not download bussaco-charts.json from Discord. "
                                   "Attach it again; an attachment can expire.")
    none = await reply(discord_session, "/battle charts")
    assert "This battle has no chart pack" in none.content


async def test_new_units_joining_a_battles_firefight_apply_distance_on_either_side(
        discord_session):
    await setup(discord_session)
    for line in ('/unit add side:French name:2/45e words:"infantry morale=34 melee=10" '
                 "strength:6",
                 '/unit add side:British name:52nd words:"infantry morale=34 melee=10" '
                 "strength:5"):
        assert not (await reply(discord_session, line, user_id=GM_USER)).ephemeral
    await attach(discord_session, PACK)
    blank = await reply(discord_session, '/assault labataille attackers:1/45e defenders:95th '
                                         'dice:"45 45 1 23"')
    assert blank.embeds[0]["title"].endswith("Blank: a firefight")
    joined = await reply(discord_session, '/assault labataille attackers:"1/45e; 2/45e: '
                                          'distance=2" defenders:"95th; 52nd: distance=3" '
                                          'dice:"45 45 45 45 1 41"')
    text = await full_text(discord_session, joined)
    assert "2/45e and 52nd join: the assault is resolved as a new mêlée" in text
    # The text: new units "apply Distance modifiers regardless of their role".
    assert "**52nd morale** 🎲 45 −6 distance 3 = **35**" in text
    assert "**2/45e morale** 🎲 45 −3 distance 2 = **42**" in text
    assert "**95th morale** 🎲 45 vs" in text  # locked: none


def test_the_documented_prusse_1806_square_runs_in_the_console(tmp_path):
    from .test_console import ROOT, console

    doc = (ROOT / "docs" / "labataille.md").read_text()
    [example] = [block for block in re.findall(r"```text\n(.*?)```", doc, re.S)
                 if "labataille-prusse-1806-carre.json" in block]
    done = console(*example.splitlines(), database=tmp_path / "jena.db")
    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    assert "Traceback" not in out and "⚠️" not in out, out
    assert "📊 Chart pack attached: labataille-prusse-1806-carre.json" in out
    assert "Premier, not the revised chart" in out
    assert "Square (Carré) Realization: french (column, line)" in out
    assert ("1/17e Ligne square 🎲 23 −6 Square chart modifiers (given) = 13 vs French, from "
            "line, 1 hex → C") in out
    assert "# 🛡️ 1/17e Ligne forms square" in out
    assert "it is moving, not charging, so there is no Recall" in out


async def test_the_pack_may_be_looked_at_while_a_question_waits(battle_session):
    """The chart question is when a player wants the pack: a look changes nothing, so it is
    not refused as a move would be."""
    await setup(battle_session)
    asked = await reply(battle_session, ASSAULT, user_id=GM_USER)
    assert "What does it say?" in text_of(asked)
    shown = await reply(battle_session, "/battle charts", user_id=PLAYER)
    assert shown.ephemeral and shown.content.startswith("This battle has no chart pack"), \
        shown.content
    attached = await attach(battle_session, PACK)  # a change: it waits for the answer
    assert attached.ephemeral and "waiting" in attached.content, attached.content


async def test_a_gm_types_the_chart_code_a_pack_read_to_override_it(battle_session):
    """Read by the pack, the chart asked nothing: its code leads the headline, and a GM who
    reads it off the chart types it, and finds it leading the menu's results."""
    await setup(battle_session)
    await attach(battle_session, PACK)
    played = await reply(battle_session, ASSAULT, user_id=GM_USER)
    assert played.embeds[0]["title"].startswith("🩸 DR1: 95th routs"), played.embeds[0]["title"]
    offered = await battle_session.autocomplete(["gm", "override"], {"result": "DS1"}, "result",
                                                channel_id=CHANNEL, user_id=GM_USER,
                                                guild_id=GUILD)
    assert sorted(c["name"].split(";")[0] for c in offered) == [
        "DS1: 95th is disordered and surrenders", "DS1: 95th surrenders"], offered
    several = await reply(battle_session, "/gm override result:DS1", user_id=GM_USER)
    assert several.ephemeral and several.content.startswith(
        "⚠️ `DS1` fits 2 results, alike but for: “95th surrenders” · “95th is disordered "
        "and surrenders”. Type more"), several.content
    overridden = await reply(battle_session, '/gm override result:"DS1: 95th surrenders"',
                             user_id=GM_USER)
    assert overridden.embeds[0]["title"].startswith("💥 DS1: 95th surrenders"), \
        overridden.embeds[0]["title"]
