"""A result reads on a phone: the headline, a line per unit it falls on, a line per roll,
within 20 lines of 45 characters, each effect said once, no file a player does not have, ⚠️
for errors only; the steps behind a Steps button, privately, after a restart too; an answer
turns its question's message into the result.

Every rule set's `/help` examples are read from the registry, so a rule set added later is
held to this too; its battle moves are in ``BATTLE_MOVES``.
"""

from __future__ import annotations

import shutil
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import insert, select

from bot.client import create_bot
from bot.cogs.lookups import Lookups
from bot.offline import OfflineDiscord, SentMessage
from bot.render.resolution import footer_text, summed
from bot.render.text import phone_lines as text_lines
from bot.rulesets import each_ruleset
from bot.storage import Database
from bot.storage.models import Trace, utcnow
from rules.core.records import Effect, EffectKind
from tests.bot.phone import PHONE_SCREEN, phone_lines, repeated_effects, screen

from .conftest import CHANNEL, GM_USER, GUILD, PLAYER, played, reply, send, text_of
from .storage.conftest import SQLITE_NAME, sqlite_url
from .test_battle_safety import url_of

EXAMPLES = [(commands.ruleset.key, sub) for commands in each_ruleset(Lookups(store=None))  # type: ignore[arg-type]
            for sub in commands.subcommands]
STEPS = "📜 Steps"
FILES = (".txt", "reference/", ".md")


def labels(message: SentMessage) -> list[str]:
    return [b["label"] for row in message.components for b in row["components"]]


def reads_on_a_phone(message: SentMessage) -> None:
    """The bar every public result and question meets."""
    assert not message.ephemeral, message.content
    shown = "\n".join(screen(message))
    assert phone_lines(message) <= PHONE_SCREEN, shown
    assert repeated_effects(message) == [], shown
    assert not any(name in text_of(message) for name in FILES), shown
    assert "⚠️" not in text_of(message), shown


async def press(session: OfflineDiscord, message: SentMessage, label: str,
                user: int = PLAYER) -> list[SentMessage]:
    return await session.press(message, label, channel_id=CHANNEL, user_id=user,
                               guild_id=GUILD)


async def steps_of(session: OfflineDiscord, message: SentMessage,
                   user: int = PLAYER) -> list[SentMessage]:
    shown = await press(session, message, STEPS, user)
    assert shown and all(m.ephemeral for m in shown), [m.content for m in shown]
    return shown


async def answered(session: OfflineDiscord, message: SentMessage,
                   user: int = PLAYER) -> list[SentMessage]:
    """Every public message of the procedure, answering each question with its first
    button until it ends: (question, result) pairs and the result."""
    seen = [message]
    while labels(message) and labels(message)[0] != STEPS:
        sent = await press(session, message, labels(message)[0], user)
        assert sent[0].kind == "update", sent
        message = sent[-1]
        seen.append(message)
    return seen


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: f"{e[0]}-{e[1].procedure}")
async def test_each_example_reads_on_a_phone_through_every_answer(discord_session, example):
    _, sub = example
    first = await reply(discord_session, sub.example)
    for message in await answered(discord_session, first):
        reads_on_a_phone(message)
    assert labels(message) == [STEPS]


# Each rule set's examples as battle moves: the roster, then the moves on it.
BATTLE_MOVES: dict[str, tuple[list[str], list[str]]] = {
    "fire-at-will": ([
        "/battle start ruleset:fire-at-will name:Quiberon",
        '/unit add side:French name:Hussars words:"cav morale=4" strength:4',
        '/unit add side:British name:"2nd Foot" words:"inf regular morale=4" strength:4',
        '/unit add side:British name:Rangers words:"inf open morale=4" strength:4',
        '/general add name:Conflans side:French unit:Hussars',
    ], [
        '/charge fire-at-will target:"2nd Foot" chargers:"Hussars: distance=5" dice:3',
        '/melee fire-at-will attackers:"Hussars: charging" defenders:Rangers dice:"5 2"',
        "/surrender fire-at-will unit:Rangers situation:c dice:4",
    ]),
    "le-baton": ([
        "/battle start ruleset:le-baton name:Albuera",
        '/unit add side:French name:"4e Léger" words:"french inf column" strength:12',
        '/unit add side:British name:52nd words:"british inf elite line" strength:8',
        '/unit add side:British name:Ross words:"british art guns=9" strength:4',
        '/unit add side:French name:Cuirassiers words:"french cav cuirassiers" strength:8',
    ], [
        '/fire le-baton shooter:52nd target:"4e Léger" distance:3 dice:"6 4 2 1"',
        '/artillery le-baton battery:Ross target:"4e Léger" range:close dice:"3 4 5 6"',
        '/morale le-baton unit:"4e Léger" phase:4 charging:true opponent:52nd dice:3',
        '/charge le-baton charger:Cuirassiers target:52nd dice:"3 4 6"',
        '/melee le-baton attacker:"4e Léger" defender:"52nd: defensive_terrain" phase:6 '
        'dice:"4 5 6 1 2 3 4 1 4 4 4"',
        "/recall le-baton unit:Cuirassiers initiated_charge:true dice:4",
    ]),
    "tricorne": ([
        "/battle start ruleset:tricorne name:Prestonpans",
        '/unit add side:Jacobites name:"Black Watch" words:highland strength:4',
        "/unit add side:Government name:Fusiliers words:regular strength:3",
        '/general add name:Murray side:Jacobites unit:"Black Watch"',
    ], [
        '/melee tricorne attacker:"Black Watch" defender:Fusiliers '
        'dice:"inf inf saber flag cav saber art"',
    ]),
    "labataille": ([
        "/battle start ruleset:labataille name:Talavera",
        '/unit add side:French name:"1/45e" words:"infantry morale=34 melee=12 fire=6 '
        'defence=9" strength:6',
        '/unit add side:British name:52nd words:"infantry morale=41 melee=8 fire=5 '
        'defence=9" strength:5',
        '/unit add side:French name:Cuirassiers words:"cavalry morale=44 melee=18 mp=8 '
        'defence=9 nation=french" strength:4',
        '/unit add side:British name:"16th Light Dragoons" words:"cavalry light morale=44 '
        'mp=9 nation=british charging" strength:3',
        '/unit add side:British name:"2nd Foot" words:"infantry morale=41 melee=8" strength:5',
    ], [
        '/assault labataille attackers:"1/45e" defenders:52nd dice:"44 52 5 33 41 55" '
        'choices:"chart_result=DR2"',
        '/cavalry labataille chargers:Cuirassiers targets:"2nd Foot" spent:2 dice:"45 1 41" '
        'choices:"chart_result=DR"',
        '/recall labataille chargers:"16th Light Dragoons" dice:5 choices:"after_recall=end"',
        "/order labataille first:French first_assaults:2 second:British second_assaults:2 "
        'dice:"3 5"',
    ]),
    "skirmish": ([
        '/battle start ruleset:skirmish name:"Example Ridge"',
        '/unit add side:British name:Rangers words:"morale=7" strength:4',
        '/unit add side:French name:Voltigeurs words:"morale=6" strength:3',
    ], [
        '/melee skirmish attacker:Rangers defender:Voltigeurs dice:"5 4 1 2 6 3 2 4 5" '
        'choices:test',
    ]),
}


def test_every_rule_set_has_its_battle_moves():
    assert sorted(BATTLE_MOVES) == sorted({key for key, _ in EXAMPLES}), (
        "give each rule set a battle's set-up and moves in BATTLE_MOVES: the phone checks "
        "cover every one")


@pytest.mark.parametrize("ruleset", sorted(BATTLE_MOVES))
async def test_battle_moves_read_on_a_phone_through_every_answer(battle_session, ruleset):
    setup, moves = BATTLE_MOVES[ruleset]
    for line in setup:
        added = await reply(battle_session, line, user_id=GM_USER)
        assert not added.ephemeral, added.content
    for line in moves:
        first = await reply(battle_session, line, user_id=GM_USER)
        for message in await answered(battle_session, first, GM_USER):
            reads_on_a_phone(message)
        assert labels(message) == [STEPS, "↩️ Undo", "🎲 Reroll"], line


LOOKUP = ('/assault labataille attackers:"1/45e: infantry morale=34 melee=12 fire=6 defence=9 '
          'inc=6" defenders:"52nd: infantry morale=41 melee=8 fire=5 defence=9 inc=5" '
          'dice:"44 52 5 33 41 55" choices:"chart_result=DR2"')
# The procedure's steps, which the public reply leaves to the Steps button.
ASSAULT_STEPS = ["3a. Attacker morale check", "3b. Defender morale check", "3b. Column shifts",
                 "4. Offensive and Defensive Fire", "4. Offensive and Defensive Fire",
                 "6. Mêlée odds", "7. Mêlée resolution",
                 "7. Chart result", "7d. DR2", "8. Advance after Mêlée", "9. Assault Impetus"]


def field_names(messages: list[SentMessage]) -> list[str]:
    return [f["name"] for m in messages for e in m.embeds for f in e.get("fields", [])]


async def test_a_lookup_leads_with_the_result_and_its_rolls_and_keeps_the_steps(
        tmp_path: Path, sqlite_template: Path):
    shutil.copyfile(sqlite_template, tmp_path / SQLITE_NAME)
    async with Database(sqlite_url(tmp_path)) as db, \
            OfflineDiscord(create_bot(db)) as session:
        result = await reply(session, LOOKUP)
        embed = result.embeds[0]
        assert embed["title"] == "🩸 DR2: 52nd routs"
        assert embed["description"].splitlines() == [
            # "52nd routs" is the headline's: said once.
            # The Advance after Mêlée and the impetus as one move.
            "**1/45e** advances 3 hexes (the target hex + 2 impetus), is disordered",
            # A d66 shows as its two dice side by side.
            "**1/45e morale** 🎲 44 vs > 34 → passes",
            "**52nd morale** 🎲 52 vs > 41 → passes",
            "**defender column shifts** 🎲 5 → 2 left",
            "**1/45e fire** 🎲 33 vs 1:1 (12:9) → 0 casualties",
            "**52nd fire** 🎲 41 vs 1:1 (10:9) → 0 casualties",
            "**mêlée** 🎲 55 vs 1:2 column",
        ]
        assert "fields" not in embed or embed["fields"] == []
        # The defaults that decided it stay public: the attacker's distance modifier, which
        # no chart gave, the column, and the Zones of Influence the 52nd's rout was not given.
        assert embed["footer"]["text"] == (
            "Dice typed in: 44 52 5 33 41 55 · Project defaults: no distance modifier and 2 "
            "more (📜 Steps)")
        assert labels(result) == [STEPS]
        shown = await steps_of(session, result)
        assert [n for n in field_names(shown) if n != "Reminders"] == ASSAULT_STEPS
        assert "No morale checks for casualties from offensive and defensive fire." in \
            text_of(shown[0])
    # After a restart, on the same database: the button still shows every step.
    async with Database(sqlite_url(tmp_path)) as db, \
            OfflineDiscord(create_bot(db)) as session:
        again = await steps_of(session, result, GM_USER)  # anyone may look
        assert [n for n in field_names(again) if n != "Reminders"] == ASSAULT_STEPS


async def test_a_battle_results_steps_come_from_its_log_after_a_restart_too(db):
    url = url_of(db)
    setup, moves = BATTLE_MOVES["labataille"]
    async with Database(url) as first, OfflineDiscord(create_bot(first)) as session:
        for line in setup:
            await reply(session, line, user_id=GM_USER)
        result = await reply(session, moves[0], user_id=GM_USER)
        assert labels(result) == [STEPS, "↩️ Undo", "🎲 Reroll"]
        shown = await steps_of(session, result)
        assert [n for n in field_names(shown) if n != "Reminders"] == ASSAULT_STEPS
        assert "📋 52nd" in text_of(shown[0])  # what changed on the roster
    async with Database(url) as second, OfflineDiscord(create_bot(second)) as session:
        again = await steps_of(session, result)
        assert field_names(again) == field_names(shown)
        export = await reply(session, "/battle export")
        exported = export.files[0].data.decode()
        for step in ASSAULT_STEPS:
            assert step in exported


async def test_steps_of_another_channels_battle_are_not_shown(battle_session):
    setup, moves = BATTLE_MOVES["labataille"]
    for line in setup:
        await reply(battle_session, line, user_id=GM_USER)
    result = await reply(battle_session, moves[0], user_id=GM_USER)
    [refused] = await battle_session.press(result, STEPS, channel_id=CHANNEL + 1,
                                           user_id=PLAYER, guild_id=GUILD)
    assert refused.ephemeral and "no longer in this channel's battle" in refused.content


QUESTION = ('/charge fire-at-will target:Hussars target_type:cavalry morale:4 '
            'chargers:"Rangers: inf open" dice:1')


async def test_answering_turns_the_question_into_the_result(discord_session):
    asked = await reply(discord_session, QUESTION)
    assert asked.embeds[0]["title"] == "❓ Does Hussars counter-charge?"
    reads_on_a_phone(asked)
    assert STEPS not in labels(asked)
    [update] = await press(discord_session, asked, "Stand")
    assert update.kind == "update"
    assert update.content == "✅ Answered by player"
    assert not update.embeds[0]["title"].startswith("❓")
    assert labels(update) == [STEPS]  # the answers are gone; the result's button is there
    reads_on_a_phone(update)
    shown = await steps_of(discord_session, update)
    assert any(n.startswith("Hussars") or "counter" in n.lower()
               for n in field_names(shown)), field_names(shown)


async def test_an_answer_by_command_turns_the_question_into_the_result(discord_session):
    asked = await reply(discord_session, QUESTION)
    edited, pointer = await send(discord_session, "/answer choice:stand")
    # The question's message is now the result, its answer buttons gone: as a press does.
    assert edited.kind == "edit" and edited.message_id == asked.message_id
    assert edited.content == "✅ Answered by player"
    assert edited.embeds[0]["title"].endswith("Hussars stands: melee follows")
    assert labels(edited) == [STEPS]
    reads_on_a_phone(edited)
    # `/answer` itself says where the result is, in a line, without the procedure again.
    assert pointer.kind == "response" and not pointer.ephemeral and pointer.embeds == []
    assert pointer.content == ("✅ Answered: 🛡️ Hussars stands: melee follows\n"
                               f"https://discord.com/channels/{GUILD}/{CHANNEL}/"
                               f"{asked.message_id}")
    # A second `/answer` finds nothing waiting, privately.
    again = await reply(discord_session, "/answer choice:stand")
    assert again.ephemeral and "No question is waiting for you here" in again.content


async def test_an_answer_to_a_question_whose_message_is_gone_is_its_own_reply(
        discord_session):
    asked = await reply(discord_session, QUESTION)
    discord_session.delete(asked)  # by a moderator, say
    result = await reply(discord_session, "/answer choice:stand")
    assert not result.ephemeral and result.kind == "response"
    assert result.embeds[0]["title"].endswith("Hussars stands: melee follows")
    assert labels(result) == [STEPS]
    reads_on_a_phone(result)


async def test_a_lookups_steps_are_kept_a_fortnight(tmp_path: Path, sqlite_template: Path):
    shutil.copyfile(sqlite_template, tmp_path / SQLITE_NAME)
    async with Database(sqlite_url(tmp_path)) as db:
        async with db.transaction() as s:
            await s.execute(insert(Trace), [
                {"id": 1, "data": {}, "created_at": utcnow() - timedelta(days=15)},
                {"id": 2, "data": {}, "created_at": utcnow() - timedelta(days=13)}])
        async with OfflineDiscord(create_bot(db)) as session:
            result = await reply(session, LOOKUP)
        # The bot, stopping, wrote the lookup's trace, and cleared the one past a fortnight.
        async with db.transaction() as s:
            kept = sorted(await s.scalars(select(Trace.id)))
    assert kept == [2, int(labels_ids(result)[0].rsplit("t", 1)[1])]


def labels_ids(message: SentMessage) -> list[str]:
    return [b["custom_id"] for row in message.components for b in row["components"]]


def test_the_footer_names_project_defaults_in_one_short_line():
    three = ["rally check: a unit rallies on its own symbol or a saber",
             "leader casualty check: 2 sabers kill a leader with his unit",
             "a failed rally check routs the unit off the field"]
    # Their names take more than a line: counted beside the Steps button's icon, which
    # lists them whole, the footer keeps to one line of a phone (it took two).
    assert footer_text("Dice rolled by the bot", three, short=True) == (
        "Dice rolled by the bot · 📜 3 project defaults")
    typed = footer_text("Dice typed in · #10", three[:2], short=True)
    assert typed == "Dice typed in · #10 · 📜 2 project defaults"
    assert text_lines(typed) == 1
    # A footer two lines long all the same names the first (the Steps list them all).
    assert footer_text("Dice typed in: 44 52 5 33 41 55", three, short=True) == (
        "Dice typed in: 44 52 5 33 41 55 · Project defaults: rally check and 2 more "
        "(📜 Steps)")
    # Names that fit one line are all said.
    two = [three[0], "battle back: a unit still there fights back"]
    assert footer_text("Dice rolled by the bot", two, short=True) == (
        "Dice rolled by the bot · Project defaults: rally check; battle back")


def test_losses_of_one_unit_are_said_as_one_whatever_their_plural():
    lost = summed([Effect(EffectKind.DAMAGE, "Fusiliers", 1, measure="blocks"),
                   Effect(EffectKind.DAMAGE, "Fusiliers", 2, measure="blocks")])
    # "loses 1 block" and "loses 2 blocks" are one loss.
    assert [e.describe() for e in lost] == ["Fusiliers loses 3 blocks"]


async def test_a_general_killed_in_a_battle_reads_as_one_sentence_each_line(discord_session):
    await played(discord_session, '/battle start ruleset:fire-at-will name:Quebec',
                 '/unit add side:British name:78th words:"inf regular morale=4" strength:4',
                 '/unit add side:French name:"La Sarre" words:"inf regular morale=4" '
                 'strength:4',
                 '/general add name:Montcalm side:French unit:"La Sarre"')
    result = await reply(discord_session, '/melee fire-at-will attackers:"78th: charging" '
                         'defenders:"La Sarre" dice:"6 1 6 6"', user_id=GM_USER)
    lines = result.embeds[0]["description"].splitlines()
    # Killed is the roster's line; what it does to his command keeps its colon: no unit
    # has him as its commander (he only takes the field with La Sarre, still in the battle).
    assert "**Montcalm**: no unit is shaken (none in the battle has him as commander)" in lines
    assert "📋 Montcalm is killed" in lines
    reads_on_a_phone(result)


async def test_a_general_killed_with_his_last_unit_shakes_nobody(discord_session):
    await played(discord_session, '/battle start ruleset:fire-at-will name:Quebec',
                 '/unit add side:British name:78th words:"inf regular morale=4" strength:4',
                 '/unit add side:French name:"La Sarre" words:"inf regular morale=4" '
                 'strength:2',
                 '/general add name:Montcalm side:French unit:"La Sarre"',
                 '/unit edit unit:"La Sarre" commander:Montcalm')
    result = await reply(discord_session, '/melee fire-at-will attackers:"78th: charging" '
                         'defenders:"La Sarre" dice:"6 1 6 6"', user_id=GM_USER)
    lines = result.embeds[0]["description"].splitlines()
    # La Sarre, his only command, leaves the battle with its last SP: no unit is left to be
    # shaken, and the reply does not say that any is.
    assert "📋 La Sarre loses 2 SP (now 0) and leaves the battle" in lines
    assert "**Montcalm**: no unit is shaken (none in the battle has him as commander)" in lines
    reads_on_a_phone(result)


async def test_a_drawn_melee_says_that_both_sides_retire_once(discord_session):
    result = await reply(discord_session, '/melee fire-at-will attackers:"Grens: inf regular '
                         'charging" defenders:"Bearn: inf regular" dice:"3 4"')
    assert result.embeds[0]["title"] == '↔️ Drawn at 5: both sides retire 3"'
    # The headline's "both sides" says it of each unit: no line says it again.
    assert result.embeds[0]["description"].splitlines() == [
        "**Grens** 🎲 3 +1 charging +1 European regulars = **5**",
        "**Bearn** 🎲 4 +1 European regulars = **5**"]
    reads_on_a_phone(result)


def test_a_headline_said_of_both_sides_covers_every_unit_of_the_result():
    from bot.render.resolution import effect_lines
    from rules.core.records import Resolution, Severity

    moved = tuple(Effect(EffectKind.MOVED, unit, 3, measure="inches", direction="back")
                  for unit in ("A", "B", "C"))
    drawn = Resolution("tricorne", "melee", "Drawn: both sides move 3 inches back",
                       Severity.MINOR, (), moved)
    assert effect_lines(drawn, said=[drawn.headline]) == []
    # A phrase of both sides says only what it says: another effect keeps its line.
    more = Resolution("tricorne", "melee", "Drawn: both sides move 3 inches back",
                      Severity.MINOR, (), (*moved, Effect(EffectKind.MOVED, "C", 1,
                                                          measure="hex", direction="back")))
    assert effect_lines(more, said=[more.headline]) == ["**C** moves 1 hex back"]


async def test_a_charge_test_that_takes_the_last_sp_does_not_say_the_unit_routs(
        discord_session):
    await played(discord_session, '/battle start ruleset:fire-at-will name:Quebec',
                 '/unit add side:British name:78th words:"inf regular morale=4" strength:4',
                 '/unit add side:French name:Hussars words:"cav morale=4" strength:1')
    result = await reply(discord_session, '/charge fire-at-will target:Hussars '
                         'chargers:"78th: rear" dice:6', user_id=GM_USER)
    assert result.embeds[0]["title"] == "💥 Hussars loses its last SP"
    # The roll reads as the headline, the roster and the Steps do: it does not rout.
    assert result.embeds[0]["description"].splitlines() == [
        "📋 Hussars loses 1 SP (now 0) and leaves the battle",
        "**Hussars charge test** 🎲 6 +2 charged in the rear −2 cavalry only charged by "
        "non-cavalry = **6** vs basic morale 4 → loses its last SP",
        "⏱️ Out of phase: for charges, not rout tests"]
    reads_on_a_phone(result)


async def test_a_generals_light_wound_says_his_half_speed_once(discord_session):
    result = await reply(discord_session, '/melee fire-at-will attackers:"Grens: inf regular '
                         'charging" defenders:"Bearn: inf regular general=Ney" dice:"6 1 4 4"')
    assert result.embeds[0]["title"] == "💥 Attackers win by 6: Bearn routs, −2 SP"
    assert result.embeds[0]["description"].splitlines() == [
        "**Ney** is lightly wounded",
        "**Grens** 🎲 6 +1 charging +1 European regulars = **8**",
        "**Bearn** 🎲 1 +1 European regulars = **2**",
        "**Risk to Ney** 🎲 4 4 = **8** vs row 8-9 (routed from melee table) → light wound, "
        "moves at 1/2 speed"]
    # A second wound: the roll reads the row, the effect what it does to him.
    second = await reply(discord_session, '/melee fire-at-will attackers:"Grens: inf regular '
                         'charging" defenders:"Bearn: inf regular general=Ney general_wounded" '
                         'dice:"6 1 4 4"')
    assert second.embeds[0]["description"].splitlines()[0::3] == [
        "**Ney** is incapacitated (removed from play)",
        "**Risk to Ney** 🎲 4 4 = **8** vs row 8-9 (routed from melee table) → second light "
        "wound"]
    reads_on_a_phone(result)
    reads_on_a_phone(second)


def test_a_headline_cut_short_keeps_how_the_fight_ended_for_a_unit():
    from bot.render.resolution import HEADLINE_ROOM, short_headline

    headline = ("Black Watch scores 2 hits on Prescott Rgt; Prescott Rgt is eliminated; "
                "Black Watch takes ground 1 hex; Black Watch scores 1 hit on Stark Militia; "
                "Stark Militia retreats 2 hexes")
    short = short_headline(headline)
    # How it ended for a unit and who caused it; "…" where phrases were left out.
    assert short == "Black Watch scores 2 hits on Prescott Rgt; Prescott Rgt is eliminated …"
    assert len(short) <= HEADLINE_ROOM
    # Nothing decisive: the first phrase, then the latest.
    assert short_headline("A scores 1 hit on B; " * 4 + "B retreats 2 hexes") == (
        "A scores 1 hit on B … " + "A scores 1 hit on B; " * 2 + "B retreats 2 hexes")


async def test_a_title_too_long_keeps_who_struck_first_and_never_opens_on_the_gap_mark(
        discord_session):
    result = await reply(discord_session, '/melee tricorne attacker:"Royal Artillery: '
                         'trained-artillery" defender:"Atholl Brigade: lowland blocks=3" '
                         'dice:"flag art inf art"')
    # The hits and who made them lead; how it ended follows the gap mark; the retreat left
    # out of the title is said on its unit's line.
    assert result.embeds[0]["title"] == (
        "💥 Royal Artillery scores 1 hit on Atholl Brigade … Atholl Brigade routs")
    lines = result.embeds[0]["description"].splitlines()
    assert "**Atholl Brigade** loses 1 block, retreats 2 hexes" in lines
    reads_on_a_phone(result)


async def test_a_state_passed_through_is_not_said_beside_the_one_the_roster_ends_in(
        discord_session):
    await played(discord_session, '/battle start ruleset:labataille name:Bussaco',
                 '/unit add side:French name:"1/45e" words:"infantry morale=34 melee=12 fire=6 '
                 'defence=9 column" strength:6',
                 '/unit add side:British name:"52nd" words:"infantry morale=41 melee=8 fire=5 '
                 'defence=9 nation=british line" strength:5')
    await reply(discord_session, '/assault labataille attackers:"1/45e: distance=1" '
                'defenders:"52nd" dice:"26 23 34 54 36"', user_id=GM_USER)
    result = await reply(discord_session, "/answer choice:DR1", user_id=GM_USER)
    lines = result.embeds[0]["description"].splitlines()
    # The failed morale check disordered 52nd; the DR1 routed it: the end is said, once
    # (the headline names it), and the state it passed through is not.
    assert result.embeds[0]["title"] == "🩸 DR1: 52nd routs"
    assert not any("52nd" in line and "disordered" in line for line in lines), lines
    assert not any(line.startswith(("**52nd**", "📋 52nd")) for line in lines), lines
    reads_on_a_phone(result)


def test_a_long_headline_says_a_units_phrases_one_after_another_as_one():
    from bot.render.resolution import short_headline

    headline = ("Royal Scots scores 1 hit on Atholl Brigade; Atholl Brigade retreats 2 hexes; "
                "Atholl Brigade routs")
    assert short_headline(headline, {"Royal Scots", "Atholl Brigade"}) == (
        "Royal Scots scores 1 hit on Atholl Brigade; Atholl Brigade retreats 2 hexes and "
        "routs")
    three = ("Lochiel’s Camerons loses 1 block; Lochiel’s Camerons retreats 2 hexes; "
             "Lochiel’s Camerons routs")
    assert short_headline(three, {"Lochiel’s Camerons"}) == (
        "Lochiel’s Camerons loses 1 block, retreats 2 hexes and routs")


@pytest.mark.parametrize("other", ["Rangers", "B"])
async def test_a_unit_whose_name_is_inside_anothers_keeps_its_own_line(discord_session, other):
    # Only the front unit takes the result; the other loser retires 3". Its name inside
    # "Rogers Rangers" (or "B" inside "by") is not the headline saying its retreat.
    result = await reply(discord_session, '/melee fire-at-will attackers:"Grenadiers: inf '
                         f'charging" defenders:"{other}: inf; Rogers Rangers: inf front" '
                         'dice:"4 4 4"')
    lines = result.embeds[0]["description"].splitlines()
    assert result.embeds[0]["title"].endswith("Rogers Rangers retires 3\", −1 SP, shaken")
    assert f'**{other}** retires 3"' in lines
    reads_on_a_phone(result)


async def test_a_short_name_inside_the_headlines_words_does_not_hide_what_it_says(
        discord_session):
    # "A" is in "shaken": the headline still says that A is shaken, so no line says it again.
    result = await reply(discord_session, '/melee fire-at-will attackers:"A: inf charging '
                         'vs-fortification" defenders:"C: inf" dice:"1 6"')
    assert result.embeds[0]["title"].endswith('A retires 6", −2 SP, shaken')
    assert not any("shaken" in line for line in result.embeds[0]["description"].splitlines())
    reads_on_a_phone(result)


def test_a_roster_change_of_a_unit_named_inside_another_is_said():
    from bot.render.resolution import effects_block
    from rules.core.records import Resolution, Severity

    routs = [Effect(EffectKind.REMOVED, unit, detail="routs") for unit in
             ("Canadien Rangers", "Rangers")]
    result = Resolution("fire-at-will", "melee", "Canadien Rangers routs", Severity.MAJOR,
                        (), tuple(routs))
    block = effects_block(result, ["Canadien Rangers routs", "Rangers routs"], once=True)
    # The headline says the first unit's rout only: the second's is said on its own line.
    assert "📋 Rangers routs" in block.splitlines(), block
    assert "📋 Canadien Rangers routs" not in block.splitlines(), block


@pytest.mark.parametrize(("unit", "other"), [("Guard", "Old Guard"), ("1/45e", "11/45e")])
def test_a_state_the_headline_says_of_a_longer_named_unit_is_not_said_of_the_shorter(
        unit, other):
    from bot.render.resolution import effects_block
    from rules.core.records import Resolution, Severity

    routs = tuple(Effect(EffectKind.MARKER_SET, name, value="routing") for name in (other, unit))
    result = Resolution("fire-at-will", "melee", f"{unit} vs {other}: {other} routs",
                        Severity.MAJOR, (), routs)
    block = effects_block(result, [f"{other} is routing", f"{unit} is routing"], once=True)
    # "routs" is said of the other unit only: this one's rout is said on its own line.
    assert block.splitlines() == [f"📋 {unit} is routing"]


async def test_an_amount_in_another_units_phrase_does_not_say_this_units_effect(
        discord_session):
    asked = await reply(discord_session, '/melee tricorne attacker:"Grens: grenadier" '
                        'defender:"Fus: regular" dice:"inf inf saber flag saber"')
    [result] = await press(discord_session, asked, "Take ground")
    lines = result.embeds[0]["description"].splitlines()
    # "Fus retreats 1 hex" is in the headline: it does not say Grens takes ground 1 hex.
    assert result.embeds[0]["title"].endswith("Grens scores 3 hits on Fus; Fus retreats 1 hex")
    assert "**Grens** takes ground 1 hex" in lines, lines
    reads_on_a_phone(result)


async def test_phrases_a_shortened_headline_leaves_out_are_said_on_the_units_lines(
        discord_session):
    """"A scores 1 hit on B … A retreats 1 hex" is two phrases: the second's "1 hex" says
    neither that B retreats 1 hex nor that A takes ground 1 hex."""
    result = await reply(discord_session,
                         '/melee tricorne attacker:"Black Watch: highland" '
                         'defender:"Fusiliers: regular" bonus:"Grenadiers: grenadier" '
                         'dice:"inf flag art art  inf art art  inf art art  inf flag art  '
                         'art inf art" choices:"take_ground=advance; bonus_melee=Grenadiers"')
    assert result.embeds[0]["title"].endswith(
        "Black Watch scores 1 hit on Fusiliers … Black Watch retreats 1 hex")
    lines = result.embeds[0]["description"].splitlines()
    assert "**Fusiliers** loses 1 block, retreats 1 hex" in lines, lines
    assert "**Black Watch** takes ground 1 hex, loses 1 block" in lines, lines
    reads_on_a_phone(result)


async def test_many_typed_dice_are_not_repeated_in_the_footer(discord_session):
    """Each roll's line shows its own dice: fourteen battle dice again in the footer would
    take three more lines of a phone. A few are still echoed."""
    many = await reply(discord_session,
                       '/melee tricorne attacker:"Black Watch: highland" '
                       'defender:"Fusiliers: regular" bonus:"Grenadiers: grenadier" '
                       'dice:"inf flag art art  inf art art  inf art art  inf flag art  '
                       'art inf art" choices:"take_ground=advance; bonus_melee=Grenadiers"')
    assert many.embeds[0]["footer"]["text"] == "Dice typed in · Project default: rally check"
    few = await reply(discord_session, '/melee fire-at-will attackers:"A: inf" '
                                       'defenders:"B: inf" dice:"5 2"')
    assert few.embeds[0]["footer"]["text"].startswith("Dice typed in: 5 2")


async def test_an_effect_the_headline_says_after_its_colon_is_not_said_again(discord_session):
    short = await reply(discord_session, '/cavalry labataille chargers:"Hussars: cavalry '
                        'morale=34 melee=16 mp=8 nation=french" targets:"2nd Foot: infantry '
                        'morale=41 melee=8" reached:false')
    assert short.embeds[0]["title"].endswith("Hussars falls short: disordered")
    assert short.embeds[0]["description"].splitlines()[0] == (
        "**Hussars** is marked with an inverted Charge marker")


async def test_words_that_read_like_a_slip_are_said_under_the_rolls(discord_session):
    result = await reply(discord_session, '/melee fire-at-will attackers:"Light Dragoons: cav '
                         'regular charging flank" defenders:"La Sarre: inf regular" '
                         'dice:"4 1"')
    assert result.embeds[0]["description"].splitlines()[-1] == (
        "🔎 Check: Light Dragoons is charging and marked flank, which in a melee means "
        "attacked in its flank.")
    reads_on_a_phone(result)


def test_units_on_which_the_same_things_fall_share_one_line():
    from bot.render.resolution import effect_lines
    from rules.core.records import Resolution, Severity

    effects = (*(Effect(EffectKind.MOVED, unit, 2, measure="hexes", direction="back")
                 for unit in ("A", "B", "C")),
               Effect(EffectKind.MOVED, "D", 3, measure="hexes", direction="back"))
    result = Resolution("tricorne", "melee", "A wins", Severity.MINOR, (), effects)
    assert effect_lines(result, said=[]) == [
        "**A**, **B** and **C**: each moves 2 hexes back", "**D** moves 3 hexes back"]
    # A name that holds a list's own words is said on its own.
    listed = Resolution("tricorne", "melee", "A wins", Severity.MINOR, (), tuple(
        Effect(EffectKind.MOVED, unit, 2, measure="hexes", direction="back")
        for unit in ("A, B", "C and D", "E")))
    assert effect_lines(listed, said=[]) == [
        "**A, B** moves 2 hexes back", "**C and D** moves 2 hexes back", "**E** moves 2 hexes back"]
    # The Steps keep a line per unit.
    assert effect_lines(result) == ["**A** moves 2 hexes back", "**B** moves 2 hexes back",
                                    "**C** moves 2 hexes back", "**D** moves 3 hexes back"]


async def test_a_stack_assault_says_what_falls_alike_on_its_battalions_once(discord_session):
    units = [f'/unit add side:French name:"{n}/45e" words:"infantry morale=34 melee=12 fire=6 '
             'defence=9" strength:6' for n in (1, 2, 3)]
    units += [f'/unit add side:British name:"{n}" words:"infantry morale=41 melee=8 fire=5 '
              'defence=9" strength:5' for n in ("52nd", "71st", "95th")]
    await played(discord_session, "/battle start ruleset:labataille name:Talavera", *units)
    result = await reply(discord_session, '/assault labataille attackers:"1/45e; 2/45e; 3/45e" '
                         'defenders:"52nd; 71st; 95th" dice:"61 45 45 65 36 62 5 42 24 31 12 51 '
                         '34 26" choices:"chart_result=DR2"', user_id=GM_USER)
    lines = result.embeds[0]["description"].splitlines()
    assert lines[:3] == [
        "**1/45e**, **2/45e** and **3/45e**: each advances 3 hexes (the target hex + 2 impetus)",
        "📋 1/45e, 2/45e and 3/45e: each is now disordered",
        "📋 52nd, 71st and 95th: each is now routed",
    ]
    assert not repeated_effects(result)


def test_a_roster_line_the_headline_says_keeps_only_where_the_unit_now_stands():
    from bot.render.resolution import effects_block
    from rules.core.records import Resolution, Severity

    routs = (Effect(EffectKind.MARKER_SET, "La Sarre", value="routing"),)
    result = Resolution("fire-at-will", "melee", "Attackers win by 6: La Sarre routs, −2 SP",
                        Severity.MAJOR, (), routs)
    said = effects_block(result, ["La Sarre loses 2 SP (now 1) and is routing"], once=True)
    assert said.splitlines() == ["📋 La Sarre: now 1 SP"]
    figures = Resolution("le-baton", "melee", "La Sarre loses 2 figures and routs",
                         Severity.MAJOR, (), routs)
    one = effects_block(figures, ["La Sarre loses 2 figures (now 1) and is routing"], once=True)
    assert one.splitlines() == ["📋 La Sarre: now 1 figure"]
    # A phrase the headline does not say stays beside where it now stands.
    more = "La Sarre loses 2 SP (now 1), is routing and is now disordered"
    assert effects_block(result, [more], once=True).splitlines() == [
        "📋 La Sarre: now 1 SP, is now disordered"]
    # Gone, with more to say: said whole.
    gone = "La Sarre loses 2 SP (now 0), is routing and is now disordered"
    assert effects_block(result, [gone], once=True).splitlines() == [f"📋 {gone}"]


def test_a_roster_line_less_the_phrase_the_headline_says_still_reads_as_a_list():
    from bot.render.resolution import effects_block
    from rules.core.records import Resolution, Severity

    gone = (Effect(EffectKind.MARKER_SET, "52nd", value="destroyed"),)
    result = Resolution("le-baton", "melee", "Ney wins the melee (12–0): 52nd is destroyed",
                        Severity.DECISIVE, (), gone)
    for line in ("52nd loses 12 figures (now 0), has 12 casualties in all and is destroyed",
                 "52nd loses 12 figures (now 0), is destroyed and has 12 casualties in all"):
        assert effects_block(result, [line], once=True).splitlines()[-1] == (
            "📋 52nd loses 12 figures (now 0) and has 12 casualties in all")


@pytest.mark.parametrize(("headline", "units", "line"), [
    # Another unit on a line of several: said whole.
    ("52nd routs, −1 SP", ["52nd"], "52nd and 71st: each loses 1 SP (now 2) and is routing"),
    # A unit whose name begins with another's.
    ("Fus routs, −1 SP", ["Fus"], "Fus Gren loses 1 SP (now 2) and is routing"),
    # A general's line.
    ("Wolfe routs, −1 SP; Wolfe Jr is wounded (1 wound)", ["Wolfe"],
     "Wolfe Jr is wounded (1 wound) and is now with Wolfe"),
    # Another unit's phrase, whose name ends with this one's: not this unit's to drop.
    ("Foot Guards is shaken; Guards routs, −1 SP", ["Guards", "Foot Guards"],
     "Guards loses 2 SP (now 3) and is shaken"),
    ("Old Buffs is destroyed; Buffs routs", ["Buffs", "Old Buffs"],
     "Buffs loses 2 SP (now 0) and is destroyed"),
])
def test_a_roster_line_the_headline_does_not_say_of_its_own_unit_is_said_whole(
        headline, units, line):
    from bot.render.resolution import effects_block
    from rules.core.records import Resolution, Severity

    result = Resolution("fire-at-will", "melee", headline, Severity.MAJOR, (), tuple(
        Effect(EffectKind.MARKER_SET, unit, value="routing") for unit in units))
    assert f"📋 {line}" in effects_block(result, [line], once=True).splitlines()


def test_a_loss_the_headline_gives_to_another_unit_stays_and_the_rout_it_says_goes():
    from bot.render.resolution import effects_block
    from rules.core.records import Resolution, Severity

    result = Resolution("fire-at-will", "melee", "71st loses 1 SP to 52nd; 52nd routs",
                        Severity.MAJOR, (), tuple(
                            Effect(EffectKind.MARKER_SET, unit, value="routing")
                            for unit in ("52nd", "71st")))
    said = effects_block(result, ["52nd loses 1 SP (now 2) and is routing"], once=True)
    assert "📋 52nd loses 1 SP (now 2)" in said.splitlines()


@pytest.mark.parametrize("state", ["is now routed", "is routing"])
def test_a_state_the_headline_says_of_a_list_of_units_is_not_said_again_after_a_loss(state):
    from bot.render.resolution import effects_block
    from rules.core.records import Resolution, Severity

    result = Resolution("labataille", "assault", "AR: 1/31e and 2/31e rout", Severity.DECISIVE,
                        (), tuple(Effect(EffectKind.MARKER_SET, unit, value="routed")
                                  for unit in ("1/31e", "2/31e")))
    said = effects_block(result, [f"1/31e loses 1 increment (now 3) and {state}",
                                  f"2/31e {state}"], once=True)
    assert said.splitlines() == ["📋 1/31e loses 1 increment (now 3)"]
    # Said of another unit in a phrase of its own, the state stays.
    other = replace(result, headline="AR: 2/31e routs; 1/31e is disordered")
    assert effects_block(other, [f"1/31e loses 1 increment (now 3) and {state}"],
                         once=True).splitlines() == [
        f"📋 1/31e loses 1 increment (now 3) and {state}"]


async def test_a_stack_that_routs_after_a_loss_says_its_rout_once(discord_session):
    units = [f'/unit add side:French name:"{n}/31e Léger" words:"infantry morale=34 melee=12 '
             'fire=6 defence=9" strength:4' for n in (1, 2)]
    units.append('/unit add side:British name:"1/88th Foot" words:"infantry nation=british '
                 'morale=41 melee=8 fire=5 defence=9" strength:5')
    await played(discord_session, "/battle start ruleset:labataille name:Test", *units)
    result = await reply(discord_session, '/assault labataille attackers:"1/31e Léger: '
                         'distance=1; 2/31e Léger: distance=1" defenders:"1/88th Foot" '
                         'dice:"53 44 66 4 31 62 66 41 14 21" '
                         'choices:"huzzah=huzzah; chart_result=AR"', user_id=GM_USER)
    assert result.embeds[0]["title"] == "🩸 AR: 1/31e Léger and 2/31e Léger rout"
    assert result.embeds[0]["description"].splitlines()[:2] == [
        "📋 1/31e Léger loses 1 increment (now 3)",
        "📋 1/88th Foot loses 1 increment (now 4)",
    ]
    assert not repeated_effects(result)


def test_a_unit_whose_end_the_headline_says_gets_no_roster_line_of_none_left():
    from bot.render.resolution import effects_block
    from rules.core.records import Resolution, Severity

    result = Resolution("le-baton", "melee", "La Sarre loses 2 SP and is destroyed",
                        Severity.DECISIVE, (), (Effect(EffectKind.REMOVED, "La Sarre"),))
    said = effects_block(result, ["La Sarre loses 2 SP (now 0) and is destroyed"], once=True)
    assert "now 0" not in said and "📋" not in said


def test_an_amount_after_a_verb_of_several_words_is_said_by_it_alone():
    """"takes ground 1 hex" is said where the headline says it; "retreats 1 hex" says
    another effect."""
    from bot.render.resolution import said_in

    for effect in ("takes ground 1 hex", "retires and rallies 1 hex onto Cope"):
        head = f"black watch {effect.split(' onto')[0]}"
        assert said_in([head], "Black Watch", effect), effect
        assert not said_in(["black watch retreats 1 hex"], "Black Watch", effect), effect


def test_a_roster_line_left_to_its_aside_keeps_the_longest_name_it_begins_with():
    from bot.render.resolution import effects_block
    from rules.core.records import Resolution, Severity

    effects = (Effect(EffectKind.MARKER_SET, "Rangers", value="shaken"),
               Effect(EffectKind.REMOVED, "Rangers Light", detail="surrenders"))
    result = Resolution("fire-at-will", "melee", "Rangers Light surrenders; Rangers is shaken",
                        Severity.DECISIVE, (), effects)
    assert effects_block(result, ["Rangers Light surrenders (leaves the battle)"],
                         once=True).splitlines()[-1] == "📋 Rangers Light leaves the battle"


def test_a_roster_line_whose_aside_is_a_count_is_kept_whole():
    from bot.render.resolution import _aside_left
    from rules.core.records import Resolution, Severity

    result = Resolution("fire-at-will", "melee", "Montcalm is wounded", Severity.MINOR, (),
                        (Effect(EffectKind.LEADER_CASUALTY, "Montcalm", value="wounded"),))
    assert _aside_left(result, "Montcalm is wounded (1 wound)") == \
        "Montcalm is wounded (1 wound)"


def test_a_rolls_dice_and_why_are_said_while_the_reply_fits_a_phone():
    """How many dice a roll was, and why, is said after its dice; a reply it would push
    past a phone's screen leaves it to the Steps, which say it under the roll."""
    from bot.render.resolution import resolution_specs
    from rules.core.dice import Reading, Symbol
    from rules.core.records import Resolution, Roll, Severity, Step

    roll = Roll("A melee", "3 battle dice", (Symbol.INFANTRY, Symbol.ARTILLERY, Symbol.FLAG),
                hits=1, readings=(Reading.HIT, Reading.MISS, Reading.FLAG),
                target="B (infantry)", result="1 hit, 1 flag",
                notes=("2 (regular) + 1 full strength = 3 dice",),
                count="3 dice: 2 regular, +1 full strength")
    steps = (Step("A rolls against B", "B loses 1 block.", (roll,)),)
    hit = (Effect(EffectKind.DAMAGE, "B", 1, measure="block"),)
    short = resolution_specs(Resolution("tricorne", "melee", "A scores 1 hit on B",
                                        Severity.MAJOR, steps, hit))[0][0]
    assert short.description.splitlines()[-1] == (
        "**A melee** 🎲 **inf** art flag (3 dice: 2 regular, +1 full strength) vs B "
        "(infantry) → 1 hit, 1 flag")
    crowded = hit + tuple(Effect(EffectKind.MOVED, f"Unit {n}", n, measure="hexes",
                                 direction="back") for n in range(2, 19))
    long = resolution_specs(Resolution("tricorne", "melee", "A scores 1 hit on B",
                                       Severity.MAJOR, steps, crowded))[0][0]
    assert long.description.splitlines()[-1] == (
        "**A melee** 🎲 **inf** art flag vs B (infantry) → 1 hit, 1 flag")


SURRENDERING = ('attackers:"1/45e: infantry morale=34 melee=12 fire=6 defence=9 inc=6; 2/45e: '
                'infantry morale=34 melee=12 fire=6 defence=9 inc=6" defenders:"52nd: infantry '
                'morale=41 melee=8 fire=5 defence=9 inc=5; 2nd Foot: infantry morale=41 melee=8 '
                'fire=5 defence=9 inc=5" dice:"66 66 11 11 11 11 11 11 11" '
                'choices:"chart_result=DS1"')


async def test_a_marker_on_a_unit_the_same_result_takes_out_of_the_battle_is_not_said(
        discord_session):
    result = await reply(discord_session, f"/assault labataille {SURRENDERING}")
    lines = result.embeds[0]["description"].splitlines()
    # Both defenders failed their morale check (disordered), then surrendered: the marker is
    # moot, and the public reply does not say it.
    assert result.embeds[0]["title"] == "💥 DS1: 52nd and 2nd Foot surrender"
    assert not any("disordered" in line for line in lines if "52nd" in line), lines
    # The attackers' own marker stays.
    assert "**1/45e** and **2/45e**: each advances 2 hexes (the target hex + 1 impetus), " \
        "is disordered" in lines
    # The Steps keep everything.
    steps = await steps_of(discord_session, result)
    assert "**52nd** is disordered, surrenders" in text_of(steps[0])


def test_what_a_move_is_made_of_is_said_once_under_the_units_a_place_stays_on_its_line():
    from bot.render.resolution import effect_lines
    from rules.core.records import Resolution, Severity

    def advance(unit: str, direction: str) -> Effect:
        return Effect(EffectKind.MOVED, unit, 3, value="advances", measure="hexes",
                      direction=direction)
    made_of = "(the target hex + 2 impetus)"
    result = Resolution("labataille", "assault", "DR2: 52nd routs", Severity.MAJOR, (), (
        advance("2e Cuirassiers", made_of), advance("1/45e Ligne", made_of),
        Effect(EffectKind.MARKER_SET, "1/45e Ligne", value="disordered")))
    assert effect_lines(result, said=[]) == [
        "**2e Cuirassiers** advances 3 hexes", "**1/45e Ligne** advances 3 hexes, is disordered",
        "3 hexes = the target hex + 2 impetus"]
    # Each unit's line took two lines of a phone with the making on it.
    assert [text_lines(line) for line in effect_lines(result, said=[])] == [1, 1, 1]
    # The Steps keep it on each unit's line; so does a unit alone that moves so.
    assert effect_lines(result)[0] == f"**2e Cuirassiers** advances 3 hexes {made_of}"
    alone = Resolution("labataille", "assault", "DR2: 52nd routs", Severity.MAJOR, (),
                       result.effects[1:])
    assert effect_lines(alone, said=[]) == [
        f"**1/45e Ligne** advances 3 hexes {made_of}, is disordered"]
    # A place in brackets is the unit's own: the terrain a unit takes ground into.
    forest = Resolution("tricorne", "melee", "A wins", Severity.MINOR, (), (
        Effect(EffectKind.MOVED, "Black Watch", 1, value="takes ground", measure="hex",
               direction="(forest)"),))
    assert effect_lines(forest, said=[]) == ["**Black Watch** takes ground 1 hex (forest)"]


def test_a_state_on_a_unit_gone_in_the_same_result_is_left_out_but_its_loss_is_said():
    from bot.render.resolution import effect_lines
    from rules.core.records import Resolution, Severity

    effects = (Effect(EffectKind.MARKER_SET, "A", value="disordered"),
               Effect("formation", "A", value="square", ruleset="labataille"),
               Effect(EffectKind.DAMAGE, "A", 2, measure="SP"),
               Effect(EffectKind.REMOVED, "A"),
               Effect(EffectKind.MARKER_SET, "B", value="disordered"))
    result = Resolution("tricorne", "melee", "B wins", Severity.DECISIVE, (), effects)
    assert effect_lines(result, said=[]) == [
        "**A** loses 2 SP, is removed from the game", "**B** is disordered"]
    assert len(effect_lines(result)[0].split(", ")) == 4  # the Steps keep everything


@pytest.mark.parametrize("other", ["Guard Grenadiers", "Old Guard"])
def test_a_rout_the_headline_gives_a_longer_named_unit_is_still_said_of_the_shorter(other):
    from bot.render.resolution import effects_block
    from rules.core.records import Resolution, Severity

    result = Resolution("tricorne", "melee", f"{other} routs; Guard retreats 1 hex",
                        Severity.MAJOR, (), tuple(
                            Effect(EffectKind.DAMAGE, unit, 1, measure="blocks")
                            for unit in ("Guard", other)))
    said = effects_block(result, ["Guard loses 1 block (now 2) and routs off the field"],
                         once=True)
    assert "📋 Guard loses 1 block (now 2) and routs off the field" in said.splitlines()


def test_a_loss_the_headline_gives_a_longer_named_unit_is_still_said_of_the_shorter():
    from bot.render.resolution import effects_block
    from rules.core.records import Resolution, Severity

    # "Guard Grenadiers loses 1 block" is not Guard's loss: Guard's line keeps its own.
    result = Resolution("tricorne", "melee", "Guard Grenadiers loses 1 block; Guard retreats "
                        "1 hex", Severity.MAJOR, (), tuple(
                            Effect(EffectKind.DAMAGE, unit, 1, measure="blocks")
                            for unit in ("Guard", "Guard Grenadiers")))
    said = effects_block(result, ["Guard loses 1 block (now 2)",
                                  "Guard Grenadiers loses 1 block (now 3)"], once=True)
    lines = said.splitlines()
    assert "📋 Guard loses 1 block (now 2)" in lines, lines
    assert "📋 Guard Grenadiers: now 3 blocks" in lines, lines
