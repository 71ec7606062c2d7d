"""Backups and moving a battle: `/battle export format:json` holds everything needed to
rebuild the battle, and `/battle import` rebuilds it in another channel, through the real
CommandTree, for a battle of every registered rule set; a bad file is refused privately
with the reason, and nothing is written."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from sqlalchemy import func, select

from bot.battles.backup_file import MAX_BYTES, SCHEMA
from bot.offline import OfflineDiscord, SentMessage
from bot.offline.payloads import OfflineFile
from bot.storage.models import Battle, Charts, Engagement, Event, General, Unit
from rules.registry import RULESETS

from .conftest import CHANNEL, GM_USER, GUILD, PLAYER, reply, text_of
from .test_charts import ASSAULT as CHARTS_ASSAULT
from .test_charts import PACK
from .test_charts import SETUP as CHARTS_SETUP
from .test_decisions import buttons, press
from .test_engine_input import FAW_BATTLE

OTHER = 3000
ELSEWHERE = CHANNEL + 50
# A battle of each rule set, played until it waits on a question, in the middle of a fight
# that lasts where the rule set keeps one: lines typed, and by whom.
MID_FIGHT: dict[str, list[tuple[str, int]]] = {
    "fire-at-will": [
        ("/battle start ruleset:fire-at-will name:Quiberon", GM_USER),
        ('/unit add side:French name:Hussars words:"cav morale=4" strength:4', PLAYER),
        ('/unit add side:British name:Rangers words:"inf open morale=4" strength:4', OTHER),
        ("/general add name:Wolfe side:British unit:Rangers", GM_USER),
        ("/gm dice dice:3", GM_USER),
        ("/charge fire-at-will target:Hussars chargers:Rangers dice:1", OTHER),
    ],
    "le-baton": [
        ("/battle start ruleset:le-baton name:Albuera", GM_USER),
        ('/unit add side:French name:"28e Ligne" words:"french inf veteran column" '
         'strength:12', GM_USER),
        ('/unit add side:British name:Buffs words:"british inf conscript line" strength:8',
         PLAYER),
        ('/unit add side:French name:Lanciers words:"french cav veteran horse=lancers" '
         'strength:8', OTHER),
        ('/charge le-baton charger:"28e Ligne" target:Buffs dice:"1 6"', GM_USER),
        ("/recall le-baton unit:Lanciers dice:4", OTHER),
    ],
    "tricorne": [
        ("/battle start ruleset:tricorne name:Prestonpans", GM_USER),
        ('/unit add side:Jacobites name:"Black Watch" words:highland strength:4', PLAYER),
        ("/unit add side:Government name:Dragoons words:battle-cavalry strength:4", OTHER),
        ('/general add name:Murray side:Jacobites unit:"Black Watch"', GM_USER),
        ('/melee tricorne attacker:"Black Watch" defender:Dragoons '
         'dice:"cav cav flag inf inf  flag flag  saber cav cav inf  cav cav"', PLAYER),
    ],
    "labataille": [
        ("/battle start ruleset:labataille name:Bussaco", GM_USER),
        ('/unit add side:French name:1/45e words:"infantry morale=34 melee=20" strength:6',
         PLAYER),
        ('/unit add side:British name:95th words:"infantry morale=34 melee=10" strength:4',
         OTHER),
        ('/unit add side:French name:2/45e words:"infantry morale=34 melee=20" strength:6',
         PLAYER),
        ('/unit add side:British name:88th words:"infantry morale=34 melee=10" strength:4',
         OTHER),
        ("/general add name:Ney side:French value:2", GM_USER),
        ('/assault labataille attackers:1/45e defenders:95th dice:"45 45 1 41"', PLAYER),
        ("/answer choice:firefight", PLAYER),
        ('/assault labataille attackers:2/45e defenders:88th dice:"45 45 1 41"', PLAYER),
    ],
    "skirmish": [
        ('/battle start ruleset:skirmish name:"Example Ridge"', GM_USER),
        ('/unit add side:British name:Rangers words:"morale=7" strength:4', PLAYER),
        ('/unit add side:French name:Voltigeurs words:"morale=6 stands=3"', OTHER),
        ('/unit add side:French name:Chasseurs words:"morale=6 stands=3"', OTHER),
        ("/unit remove unit:Chasseurs", OTHER),
        ('/melee skirmish attacker:Rangers defender:Voltigeurs dice:"5 4 1 2 6 3 2 4 5"',
         PLAYER),
    ],
}
BATTLE_RULESETS = [key for key, ruleset in RULESETS.items() if ruleset.battle is not None]
# Ids and times differ in the new channel; all else is the same battle.
# So do the rolls a question's messages show above it (``Pending.shown``): none there.
NOT_COMPARED = {"id", "battle_id", "channel_id", "guild_id", "interaction_id", "created_at",
                "ended_at", "added_at", "asked_at", "shown", "above"}


def compared(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: compared(v) for k, v in data.items() if k not in NOT_COMPARED}
    if isinstance(data, list):
        return [compared(item) for item in data]
    return data


async def export(session: OfflineDiscord, channel: int = CHANNEL) -> dict[str, Any]:
    message = await reply(session, "/battle export format:json", channel_id=channel)
    (file,) = message.files
    return json.loads(file.data)


async def import_file(session: OfflineDiscord, file: OfflineFile, *,
                      channel: int = ELSEWHERE, user: int = GM_USER) -> SentMessage:
    [message] = await session.invoke(["battle", "import"], {"file": file}, channel_id=channel,
                                     user_id=user, guild_id=GUILD)
    return message


def backup_file(data: Any, name: str = "backup.json") -> OfflineFile:
    return OfflineFile(name, json.dumps(data, ensure_ascii=False).encode())


async def play(session: OfflineDiscord, lines: list[tuple[str, int]]) -> SentMessage:
    message = None
    for line, user in lines:
        message = await reply(session, line, user_id=user)
        assert "⚠️" not in (message.content or ""), (line, message.content)
    assert message is not None and message.components, "the battle waits on a question"
    return message


async def counts(session: OfflineDiscord) -> dict[str, int]:
    async with session.client.db.transaction() as s:
        return {model.__tablename__: await s.scalar(select(func.count()).select_from(model))
                for model in (Battle, Unit, General, Engagement, Charts, Event)}


def test_every_rule_set_that_plays_battles_has_a_battle_to_move():
    assert sorted(MID_FIGHT) == sorted(BATTLE_RULESETS), (
        "give each rule set a battle in MID_FIGHT: the round trip covers every one")


@pytest.mark.parametrize("ruleset", BATTLE_RULESETS)
async def test_a_battle_moves_to_another_channel_and_plays_on_there(battle_session, ruleset):
    asked = await play(battle_session, MID_FIGHT[ruleset])
    before = await export(battle_session)
    assert before["schema"] == SCHEMA
    assert before["battle"]["pending"] is not None, (
        f"MID_FIGHT[{ruleset!r}] should end on a move that asks a question (no `choices`): "
        "the round trip carries the question and its buttons")
    if RULESETS[ruleset].battle.charts is not None or ruleset == "le-baton":
        assert [e["status"] for e in before["engagements"]] == ["active"], "mid-fight"

    restored = await import_file(battle_session, backup_file(before, "moved.json"))
    assert not restored.ephemeral, restored.content
    title = restored.embeds[0]["title"]
    assert title == f"📥 Battle restored: {before['battle']['name']}"
    described = restored.embeds[0]["description"]
    assert f"{len(before['events'])} events of its log" in described
    assert "❓ Waiting" in described
    # The question's buttons come with it, answering it in the new channel.
    assert buttons(restored) == buttons(asked)

    after = await export(battle_session, ELSEWHERE)
    assert compared(after) == compared(before)
    assert after["battle"]["channel_id"] == ELSEWHERE
    # The old channel's battle is untouched.
    assert compared(await export(battle_session)) == compared(before)

    answered = await battle_session.press(restored, buttons(restored)[0],
                                          channel_id=ELSEWHERE, user_id=GM_USER,
                                          guild_id=GUILD)
    assert answered and not answered[-1].ephemeral, answered[-1].content
    seq = len(before["events"]) + 1
    played = await export(battle_session, ELSEWHERE)
    assert played["battle"]["last_seq"] == seq and played["battle"]["pending"] != \
        before["battle"]["pending"]
    # Undo takes the answer back, then the question (asked before the import).
    undone = await reply(battle_session, "/gm undo", channel_id=ELSEWHERE, user_id=GM_USER)
    assert f"Undid #{seq}" in text_of(undone), text_of(undone)
    assert compared((await export(battle_session, ELSEWHERE))["battle"]["pending"]) == \
        compared(before["battle"]["pending"])
    undone = await reply(battle_session, "/gm undo", channel_id=ELSEWHERE, user_id=GM_USER)
    assert f"Undid #{before['battle']['pending']['seq']}" in text_of(undone), text_of(undone)
    back = await export(battle_session, ELSEWHERE)
    assert back["battle"]["pending"] is None


async def test_undo_puts_back_a_unit_removed_before_the_import(battle_session):
    lines = [line for line in MID_FIGHT["skirmish"] if not line[0].startswith("/melee")]
    for line, user in lines:
        assert not (await reply(battle_session, line, user_id=user)).ephemeral
    await import_file(battle_session, backup_file(await export(battle_session)))
    # A unit added after the import takes an id of its own: undo then brings back the
    # removed one without taking its place.
    added = await reply(battle_session, '/unit add side:French name:Tirailleurs '
                        'words:"morale=5" strength:2', channel_id=ELSEWHERE, user_id=OTHER)
    assert "(event #6)" in added.content, added.content
    undone = await reply(battle_session, "/gm undo", channel_id=ELSEWHERE, user_id=GM_USER)
    assert "Undid #6" in text_of(undone)
    undone = await reply(battle_session, "/gm undo", channel_id=ELSEWHERE, user_id=GM_USER)
    assert "Undid #5 (unit remove): Removed Chasseurs" in text_of(undone)
    shown = text_of(await reply(battle_session, "/battle show", channel_id=ELSEWHERE))
    assert "Chasseurs" in shown and "Voltigeurs" in shown and "Tirailleurs" not in shown


async def test_the_importer_becomes_the_gm(battle_session):
    await play(battle_session, MID_FIGHT["fire-at-will"])
    data = await export(battle_session)
    restored = await import_file(battle_session, backup_file(data), user=PLAYER)
    assert f"GM: <@{PLAYER}>" in restored.embeds[0]["description"]
    undone = await reply(battle_session, "/gm undo", channel_id=ELSEWHERE, user_id=PLAYER)
    assert not undone.ephemeral


def spoiled(change) -> Any:
    """A copy of a good export, changed by ``change`` (which edits it in place)."""
    def spoil(data: dict[str, Any]) -> dict[str, Any]:
        data = json.loads(json.dumps(data))
        change(data)
        return data
    return spoil


def strength(data: dict[str, Any]) -> None:
    data["units"][0]["strength"] = 10**9


def unknown_field(data: dict[str, Any]) -> None:
    data["units"][0]["colour"] = "red"


def newer(data: dict[str, Any]) -> None:
    data["schema"] = SCHEMA + 1


def unknown_ruleset(data: dict[str, Any]) -> None:
    data["battle"]["ruleset"] = "napoleon-total-war"


def log_strength(data: dict[str, Any]) -> None:
    change = next(c for e in data["events"] for c in e["changes"] if c["table"] == "units")
    change["after"]["strength"] = 10**9


def third_side(data: dict[str, Any]) -> None:
    data["units"][0]["side"] = "Prussians"


def queued_dice(data: dict[str, Any]) -> None:
    data["battle"]["dice_queue"] = [6, 6, 6]


def no_battle(data: dict[str, Any]) -> None:
    data["battle"] = None


def two_generals(data: dict[str, Any]) -> None:
    [ney] = data["generals"]
    ney["unit_name"] = "1/45e"
    data["generals"].append({**ney, "id": ney["id"] + 1, "name": "Reynier",
                             "name_key": "reynier"})


def blank_name(data: dict[str, Any]) -> None:
    data["units"][0]["name"] = data["units"][0]["name_key"] = ""


REFUSALS = [
    (spoiled(strength), "`strength` cannot be above 999"),
    (spoiled(queued_dice), "`dice_queue` holds dice; an export leaves the GM's queued dice out"),
    (spoiled(unknown_field), "unknown field `colour`"),
    (spoiled(newer), f"written by a newer Huzzah (schema {SCHEMA + 1}"),
    (spoiled(unknown_ruleset), "`napoleon-total-war` is not a rule set"),
    (spoiled(log_strength), "`strength` cannot be above 999"),
    (spoiled(third_side), "Prussians"),
    (spoiled(no_battle), "the battle: a JSON object was expected, not `null`."),
    (spoiled(two_generals), "general Reynier: 1/45e already has Ney with it: one general "
                            "goes with a unit."),
    # A unit without a name is placed by its place in the list.
    (spoiled(blank_name), "The backup cannot be imported: unit 1 of the file's list: A name "
                          "cannot be blank."),
]


@pytest.mark.parametrize(("spoil", "said"), REFUSALS,
                         ids=["strength", "queued-dice", "unknown-field", "newer-schema",
                              "unknown-ruleset",
                              "strength-in-the-log", "third-side", "no-battle", "two-generals",
                              "blank-name"])
async def test_a_spoiled_backup_is_refused_privately_and_nothing_is_written(
        battle_session, spoil, said):
    await play(battle_session, MID_FIGHT["labataille"])
    good = await export(battle_session)
    before = await counts(battle_session)
    refused = await import_file(battle_session, backup_file(spoil(good)))
    assert refused.ephemeral and said in refused.content, refused.content
    assert "⚠️" in refused.content
    assert await counts(battle_session) == before


@pytest.mark.parametrize(("text", "said"), [
    (b'{"format": "huzzah-battle-log", "turn": NaN}', "`NaN` is not a number"),
    (b"{not json", "backup.json is not JSON: Expecting property name"),
    (b'{"format": "huzzah-battl', "not JSON: Unterminated string starting at line 1, column 12."),
    (b"[1, 2]", "backup.json holds a list, not a JSON object."),
    (b"null", "backup.json holds `null`, not a JSON object."),
    (b'"text"', "backup.json holds a string, not a JSON object."),
    (b'{"format": "huzzah-battle-log", "version": 1, "battle": {}}', "holds no `schema`"),
])
async def test_a_file_that_is_no_backup_is_refused(battle_session, text, said):
    before = await counts(battle_session)
    refused = await import_file(battle_session, OfflineFile("backup.json", text))
    assert refused.ephemeral and said in refused.content, refused.content
    assert await counts(battle_session) == before


async def test_a_file_over_the_size_cap_is_refused_before_it_is_read(battle_session):
    big = OfflineFile("huge.json", b" " * (MAX_BYTES + 1))
    refused = await import_file(battle_session, big)
    assert refused.ephemeral and "huge.json is 4.0 MiB; a battle's backup is at most 4 MiB" \
        in refused.content, refused.content
    assert await counts(battle_session) == {name: 0 for name in await counts(battle_session)}


async def test_a_channel_with_a_battle_takes_no_import(battle_session):
    await play(battle_session, MID_FIGHT["skirmish"])
    data = await export(battle_session)
    before = await counts(battle_session)
    refused = await import_file(battle_session, backup_file(data), channel=CHANNEL)
    assert refused.ephemeral
    assert "This channel already has a battle: Example Ridge" in refused.content
    assert "End it with `/battle end` first" in refused.content
    assert await counts(battle_session) == before


async def test_the_readable_parts_of_the_export_stay(battle_session):
    await play(battle_session, MID_FIGHT["tricorne"])
    data = await export(battle_session)
    assert (data["format"], data["version"]) == ("huzzah-battle-log", 1)
    # As `/battle show` lists them: the side first named first, not by the sides' names.
    assert [u["name"] for u in data["units"]] == ["Black Watch", "Dragoons"]
    assert [g["name"] for g in data["generals"]] == ["Murray"]
    assert [e["seq"] for e in data["events"]] == list(range(1, 6))


def attribute(data: dict[str, Any]) -> None:
    data["units"][0]["attributes"]["morale"] = 37


def general_value(data: dict[str, Any]) -> None:
    data["generals"][0]["value"] = 99


def question(data: dict[str, Any]) -> None:
    data["battle"]["pending"]["question"]["colour"] = "red"


def no_dice(data: dict[str, Any]) -> None:
    data["battle"]["pending"]["faces"] = []


def other_defenders(data: dict[str, Any]) -> None:
    data["battle"]["pending"]["options"]["defenders"] = "Nobody"


def asker_as_words(data: dict[str, Any]) -> None:
    data["battle"]["pending"]["asked_by"] = "x"


def answerer_as_a_list(data: dict[str, Any]) -> None:
    data["battle"]["pending"]["answerer"] = [1]


async def test_words_generals_and_the_question_are_checked_as_their_commands_check_them(
        battle_session):
    await play(battle_session, MID_FIGHT["labataille"])
    good = await export(battle_session)
    before = await counts(battle_session)
    for spoil, said in [(attribute, "morale 37 is not a d66 value"),
                        (general_value, "general Ney: `value` cannot be above"),
                        (question, "the question waiting: it is not a question as Huzzah "
                                   "keeps one"),
                        # Its move, played again, must stop at it: else no answer plays on.
                        (no_dice, "the question waiting: its move does not play on this "
                                  "battle"),
                        (other_defenders, "the question waiting:"),
                        (asker_as_words, "the question waiting: `asked_by` is a Discord "
                                         "user's id, a whole number, not `\"x\"`."),
                        (answerer_as_a_list, "the question waiting: `answerer` is a Discord "
                                             "user's id, a whole number, not `[1]`.")]:
        refused = await import_file(battle_session, backup_file(spoiled(spoil)(good)))
        assert refused.ephemeral and said in refused.content, refused.content
    assert await counts(battle_session) == before


def _unit_in_the_log(data: dict[str, Any]) -> dict[str, Any]:
    return next(c for e in data["events"] for c in e["changes"] if c["table"] == "units")["after"]


def log_attribute(data: dict[str, Any]) -> None:
    _unit_in_the_log(data)["attributes"]["morale"] = "banana"


def log_name(data: dict[str, Any]) -> None:
    unit = _unit_in_the_log(data)
    unit["name"] = unit["name_key"] = "1/45e: the `best`"


def log_general_name(data: dict[str, Any]) -> None:
    general = next(c for e in data["events"] for c in e["changes"]
                   if c["table"] == "generals")["after"]
    general["name"] = "Ney;"


async def test_units_and_generals_in_the_log_are_checked_as_the_roster_is(battle_session):
    # Undo puts these back on the roster: a unit no command could make would then be there,
    # and neither `/unit edit` nor a move could use it.
    await play(battle_session, MID_FIGHT["labataille"])
    good = await export(battle_session)
    before = await counts(battle_session)
    for spoil, said in [(log_attribute, "`morale` must be a whole number, not `banana`"),
                        (log_name, "A name cannot hold"),
                        (log_general_name, "`Ney;` cannot be a name")]:
        refused = await import_file(battle_session, backup_file(spoiled(spoil)(good)))
        assert refused.ephemeral and said in refused.content, refused.content
        assert refused.content.startswith("⚠️ The backup cannot be imported: event #"), \
            refused.content
    assert await counts(battle_session) == before


def second_event_as(kind: str):
    def spoil(data: dict[str, Any]) -> None:
        data["events"][1]["kind"] = kind
    return spoil


def undone_by_itself(data: dict[str, Any]) -> None:
    data["events"][1]["undone_by"] = data["events"][1]["seq"]


async def test_the_log_undo_walks_is_checked_as_commands_write_it(battle_session):
    # `/gm undo` passes over undo events, the battle's start and what was undone: a move
    # relabelled so, or marked undone by itself, could never be taken back.
    await play(battle_session, MID_FIGHT["labataille"])
    good = await export(battle_session)
    before = await counts(battle_session)
    for spoil, said in [
            (second_event_as("undo"), "event #2: `kind` is `undo`, but it reverts no event: "
                                      "only an undo does."),
            (second_event_as("battle_start"), "event #2: `kind` is `battle_start`; only "
                                              "event #1 starts the battle."),
            (undone_by_itself, "event #2: `undone_by` names no later event.")]:
        refused = await import_file(battle_session, backup_file(spoiled(spoil)(good)))
        assert refused.ephemeral and said in refused.content, refused.content
    assert await counts(battle_session) == before


async def test_an_event_of_a_kind_huzzah_never_logs_is_refused(battle_session):
    await play(battle_session, MID_FIGHT["labataille"])
    good = await export(battle_session)
    before = await counts(battle_session)
    refused = await import_file(battle_session, backup_file(spoiled(second_event_as(
        "teleport"))(good)))
    assert refused.ephemeral
    assert refused.content.startswith(
        "⚠️ The backup cannot be imported: event #2: `kind` `\"teleport\"` is not a kind "
        "of event Huzzah logs."), refused.content
    assert await counts(battle_session) == before


async def test_the_chart_pack_moves_with_the_battle_and_undo_takes_it_off_there(
        battle_session):
    for line in CHARTS_SETUP:
        assert not (await reply(battle_session, line, user_id=GM_USER)).ephemeral
    [attached] = await battle_session.invoke(["battle", "charts"], {"file": PACK},
                                             channel_id=CHANNEL, user_id=GM_USER,
                                          guild_id=GUILD)
    assert not attached.ephemeral
    await reply(battle_session, CHARTS_ASSAULT)
    data = await export(battle_session)
    assert data["charts"]["filename"] == "bussaco-charts.json"
    await import_file(battle_session, backup_file(data))
    moved = await export(battle_session, ELSEWHERE)
    assert compared(moved) == compared(data)
    shown = await reply(battle_session, "/battle charts", channel_id=ELSEWHERE)
    assert shown.embeds[0]["title"] == "📊 Chart pack: bussaco-charts.json"
    await reply(battle_session, "/gm undo", channel_id=ELSEWHERE, user_id=GM_USER)
    undone = await reply(battle_session, "/gm undo", channel_id=ELSEWHERE, user_id=GM_USER)
    assert "GM attached the chart pack bussaco-charts.json" in text_of(undone)
    assert (await export(battle_session, ELSEWHERE))["charts"] is None
    assert (await export(battle_session))["charts"] is not None  # the old channel keeps it

    spoilt = json.loads(json.dumps(data))
    spoilt["charts"]["content"] = {"name": "Not a pack"}
    before = await counts(battle_session)
    refused = await import_file(battle_session, backup_file(spoilt), channel=ELSEWHERE + 1)
    assert refused.ephemeral and "the chart pack:" in refused.content, refused.content
    assert await counts(battle_session) == before


async def test_an_ended_battle_is_restored_ended_and_a_new_one_may_start_there(battle_session):
    await play(battle_session, MID_FIGHT["skirmish"])
    await reply(battle_session, "/gm undo", user_id=GM_USER)  # the question, taken back
    await reply(battle_session, '/battle end confirm:"Example Ridge"', user_id=GM_USER)
    data = await export(battle_session)
    assert data["battle"]["status"] == "ended"
    restored = await import_file(battle_session, backup_file(data))
    assert restored.embeds[0]["title"] == "📥 Ended battle imported: Example Ridge"
    assert "/gm undo" not in restored.embeds[0]["description"]  # nothing under way to undo
    assert ("It had ended, and stays ended: `/battle export` and `/battle log` read it; "
            "`/battle start` begins a new one here.") in restored.embeds[0]["description"]
    assert not restored.components
    assert compared(await export(battle_session, ELSEWHERE)) == compared(data)
    started = await reply(battle_session, "/battle start ruleset:skirmish name:Again",
                          channel_id=ELSEWHERE, user_id=GM_USER)
    assert not started.ephemeral, started.content


async def test_a_unit_whose_general_was_removed_still_moves(battle_session):
    for line, user in [
        ("/battle start ruleset:fire-at-will name:Minden", GM_USER),
        ("/general add name:Wolfe side:British", GM_USER),
        ('/unit add side:British name:"12th Foot" words:"inf regular morale=4" strength:4 '
         "commander:Wolfe", PLAYER),
        ("/general remove name:Wolfe", GM_USER),
    ]:
        assert not (await reply(battle_session, line, user_id=user)).ephemeral
    data = await export(battle_session)
    assert data["units"][0]["commander"] == "Wolfe" and data["generals"] == []
    restored = await import_file(battle_session, backup_file(data))
    assert not restored.ephemeral, restored.content
    undone = await reply(battle_session, "/gm undo", channel_id=ELSEWHERE, user_id=GM_USER)
    assert "Undid #4 (general remove): Removed general Wolfe" in text_of(undone)
    assert [g["name"] for g in (await export(battle_session, ELSEWHERE))["generals"]] == \
        ["Wolfe"]


async def test_a_refusal_names_the_unit_once(battle_session):
    await play(battle_session, MID_FIGHT["labataille"])
    data = await export(battle_session)
    data["units"][0]["attributes"]["colour"] = "blue"
    refused = await import_file(battle_session, backup_file(data))
    name = data["units"][0]["name"]
    assert refused.ephemeral
    assert f"The backup cannot be imported: unit {name}: unknown field `colour`." \
        in refused.content, refused.content
    assert refused.content.count(name) == 1, refused.content


async def test_the_markdown_export_says_each_roll_once_with_what_it_gave(battle_session):
    for line in [*FAW_BATTLE, '/general add name:Montcalm side:French unit:"La Sarre"']:
        assert not (await reply(battle_session, line, user_id=GM_USER)).ephemeral, line
    await reply(battle_session, '/melee fire-at-will attackers:"2nd Foot" '
                                'defenders:"La Sarre" dice:"6 1 1 1"')
    (file,) = (await reply(battle_session, "/battle export")).files
    log = file.data.decode().split("### #7 resolution")[1].split("\n")
    assert log[5:17] == [
        # As the Steps button shows them, the readings under each roll.
        "- **Melee rolls**",
        "  - **2nd Foot** 🎲 6 +1 European regulars = **7**",
        "    - ‣ factors from the melee table's Infantry column",
        "  - **La Sarre** 🎲 1 +1 European regulars = **2**",
        "    - ‣ factors from the melee table's Infantry column",
        "  - Attackers' highest score 7, defenders' highest 2.",
        "- **Risk to Montcalm (with La Sarre, which routed from melee)**",
        "  - 🎲 1 1 = **2** vs row 2-7 (routed from melee table) → no effect",
        "- Reminder: Out of phase: for melee, not rout tests",
        "- Reminder: Routing units move directly away from the cause at rout speed towards the "
        "nearest friendly cover, and may not end nearer to any visible enemy unit.",
        "- La Sarre loses 2 SP (now 2) and is routing",
        "",
    ]


async def test_an_export_leaves_out_the_gms_secret_dice(battle_session):
    lines = [line for line in MID_FIGHT["skirmish"] if not line[0].startswith("/melee")]
    for line, user in lines:
        assert not (await reply(battle_session, line, user_id=user)).ephemeral
    assert (await reply(battle_session, '/gm dice dice:"6 6 2"', user_id=GM_USER)).ephemeral
    data = await export(battle_session)
    assert data["battle"]["dice_queue"] == []
    assert "6, 6, 2" not in json.dumps(data) and "[6, 6, 2]" not in json.dumps(data)
    # The queue is still there for the next roll in this channel.
    shown = await reply(battle_session, "/gm dice", user_id=GM_USER)
    assert shown.ephemeral and shown.content.startswith("🎲 Dice queue: 6 6 2.")


async def test_gm_dice_alone_says_an_empty_queue_leaves_the_rolls_to_huzzah(battle_session):
    lines = [line for line in MID_FIGHT["skirmish"] if not line[0].startswith("/melee")]
    for line, user in lines:
        assert not (await reply(battle_session, line, user_id=user)).ephemeral
    shown = await reply(battle_session, "/gm dice", user_id=GM_USER)
    assert shown.ephemeral
    assert shown.content == ("🎲 Dice queue: empty. The bot rolls the next dice in this "
                             "channel itself.")


async def test_a_general_the_second_wound_took_out_of_play_moves_with_his_battle(
        battle_session):
    # Fire at Will: "a second light wound incapacitates". The wound stays on him.
    for line in ['/battle start ruleset:fire-at-will name:Rep',
                 '/unit add side:A name:X words:"inf regular morale=4" strength:4',
                 '/unit add side:B name:Y words:"inf regular morale=4" strength:4',
                 '/general add name:G side:B unit:Y wounds:1',
                 '/melee fire-at-will attackers:"X: charging" defenders:"Y" dice:"4 4 5 5"']:
        assert not (await reply(battle_session, line, user_id=GM_USER)).ephemeral, line
    before = await export(battle_session)
    assert [(g["status"], g["wounds"]) for g in before["generals"]] == [("incapacitated", 2)]
    restored = await import_file(battle_session, backup_file(before))
    assert not restored.ephemeral, restored.content
    assert compared(await export(battle_session, ELSEWHERE)) == compared(before)
    # A GM may give a general out of play that wound again (one in play carries at most 1).
    for value in (1, 2):
        kept = await reply(battle_session, f"/gm general general:G field:wounds value:{value}",
                           channel_id=ELSEWHERE, user_id=GM_USER)
        assert not kept.ephemeral, kept.content


async def test_the_markdown_export_says_the_settings_and_chart_pack_as_battle_show_does(
        battle_session):
    for line in [*CHARTS_SETUP, "/battle setting name:fire_below_chart value:none"]:
        assert not (await reply(battle_session, line, user_id=GM_USER)).ephemeral, line
    await battle_session.invoke(["battle", "charts"], {"file": PACK}, channel_id=CHANNEL,
                                user_id=GM_USER, guild_id=GUILD)
    shown = text_of(await reply(battle_session, "/battle show"))
    assert "Settings: fire below chart none" in shown
    (file,) = (await reply(battle_session, "/battle export")).files
    head = file.data.decode().split("## Roster")[0].split("\n")
    # A reader of the archive learns what the battle played by without replaying its log.
    assert "- Settings: fire below chart none" in head
    assert "- Chart pack: bussaco-charts.json" in head


async def test_the_markdown_export_gives_its_times_to_the_second_in_utc(battle_session):
    await play(battle_session, MID_FIGHT["fire-at-will"])
    (file,) = (await reply(battle_session, "/battle export")).files
    text = file.data.decode()
    # Read on a phone: `2026-11-27 21:00:31 UTC`, not ISO 8601 down to the microsecond.
    stamp = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC"
    assert re.search(rf"^- Started: {stamp} by player$", text, re.M), text
    assert re.search(rf"\(#6, asked {stamp}\)", text), text
    assert re.search(rf"^### #2 unit add\n\n{stamp} · ", text, re.M), text
    assert not re.search(r"\d\d:\d\d:\d\d\.\d", text)


async def test_the_markdown_export_shows_the_rolls_before_the_question_waiting(
        battle_session):
    asked = await play(battle_session, MID_FIGHT["tricorne"])
    [_, ground] = await press(battle_session, asked, "Stand and fight", OTHER)
    assert "**Dragoons rally check** 🎲" in text_of(ground)
    (file,) = (await reply(battle_session, "/battle export")).files
    waiting = file.data.decode().split("### #6 question")[1].split("\n")
    # As the question's message says them: a reader of the archive sees where the battle
    # stands, not only what it asks.
    assert waiting[4] == "Answered #5: Stand and fight. Asked: Will Black Watch take ground " \
                         "(advance into the vacated hex)?"
    assert waiting[5:7] == ["- **Melee: announce**",
                            "  - Black Watch (highland infantry, 4 blocks, with Murray) melees "
                            "Dragoons (battle cavalry, 4 blocks)."]
    assert waiting[-8:] == [
        "- **Rally check**",
        "  - **Dragoons rally check** 🎲 flag flag vs its own symbol or a saber → fails",
        "    - ‣ 2 (blocks left) = 2 dice",
        "  - Dragoons fails and routs off the field.",
        "- So far (kept once answered):",
        "  - **Dragoons** loses 2 blocks, retreats 2 hexes, routs off the field",
        "  - **Black Watch** wins a Victory Banner",
        "",
    ]


async def test_the_markdown_export_of_a_battle_without_units_says_so_once(battle_session):
    await reply(battle_session, "/battle start ruleset:fire-at-will name:Empty",
                user_id=GM_USER)
    (file,) = (await reply(battle_session, "/battle export")).files
    text = file.data.decode()
    assert "### Roster" not in text, text
    assert text.split("## Roster\n\n")[1].split("\n")[0] == "No units."


async def test_the_markdown_export_names_people_as_its_log_does(battle_session):
    await reply(battle_session, "/battle start ruleset:fire-at-will name:Quiberon",
                user_id=GM_USER, user_name="Hawke")
    await reply(battle_session, '/unit add side:French name:Hussars words:"cav morale=4" '
                                'strength:4', user_id=PLAYER, user_name="Conflans")
    await reply(battle_session, '/unit add side:British name:Rangers words:"inf open '
                                'morale=4" strength:4', user_id=OTHER, user_name="Rogers")
    await reply(battle_session, "/charge fire-at-will target:Hussars chargers:Rangers dice:1",
                user_id=OTHER, user_name="Rogers")
    (file,) = (await reply(battle_session, "/battle export")).files
    head = file.data.decode().split("## Roster")[0]
    # A raw <@id> means nothing in a file: the names the log gives them.
    assert "<@" not in head, head
    assert re.search(r"^- Started: .* by Hawke$", head, re.M), head
    assert "Hussars' player (Conflans) or a GM" in head


async def test_the_export_lists_the_units_in_the_battles_order(battle_session):
    # Sides as first named (French before British), units as added: not by the side's name.
    for line, user in [("/battle start ruleset:fire-at-will name:Quiberon", GM_USER),
                       ('/unit add side:French name:Hussars words:"cav morale=4"', PLAYER),
                       ('/unit add side:British name:Rangers words:"inf morale=4"', OTHER),
                       ('/unit add side:French name:Chasseurs words:"inf morale=4"', PLAYER)]:
        assert not (await reply(battle_session, line, user_id=user)).ephemeral
    shown = text_of(await reply(battle_session, "/battle show"))
    assert shown.index("Hussars") < shown.index("Chasseurs") < shown.index("Rangers"), shown
    before = await export(battle_session)
    assert [u["name"] for u in before["units"]] == ["Hussars", "Chasseurs", "Rangers"]
    # The import keeps that order: its export and its roster list them alike.
    await import_file(battle_session, backup_file(before))
    after = await export(battle_session, ELSEWHERE)
    assert [u["name"] for u in after["units"]] == ["Hussars", "Chasseurs", "Rangers"]
    assert compared(after) == compared(before)
    moved = text_of(await reply(battle_session, "/battle show", channel_id=ELSEWHERE))
    assert moved.index("Hussars") < moved.index("Chasseurs") < moved.index("Rangers"), moved


async def test_an_answer_in_the_new_channel_gives_the_rolls_the_old_channel_showed(
        battle_session):
    """The rolls of a move's answered questions stay on their messages in the channel the
    battle left: in the new one nothing above shows them, so what follows the answer gives
    them, and does not point to a question that is not there."""
    from .test_tricorne import MELEE as TRICORNE_MELEE
    from .test_tricorne import press as tricorne_press
    from .test_tricorne import setup as tricorne_setup

    await tricorne_setup(battle_session)
    asked = await reply(battle_session, TRICORNE_MELEE, user_id=PLAYER)
    [_, ground] = await tricorne_press(battle_session, asked, "Stand and fight")
    [_, bonus] = await tricorne_press(battle_session, ground, "Take ground")
    assert "🎲 2 earlier rolls: on the question above" in text_of(bonus)
    restored = await import_file(battle_session, backup_file(await export(battle_session)))
    [result] = await battle_session.press(restored, "Attack Fusiliers",
                                          channel_id=ELSEWHERE, user_id=GM_USER,
                                          guild_id=GUILD)
    lines = result.embeds[0]["description"].splitlines()
    assert not any("earlier roll" in line for line in lines)
    # The bonus melee joins its unit's first roll on one line.
    assert [line.split(" 🎲")[0] for line in lines if "🎲" in line] == [
        "**Black Watch melee**", "**Dragoons rally check**", "**Fusiliers battles back**"]
