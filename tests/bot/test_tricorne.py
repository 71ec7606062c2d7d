"""Tricorne through the real CommandTree: quick lookups, and a whole melee in a battle with
its buttons (retire and rally, take ground, bonus melee), across a restart."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from bot.client import create_bot
from bot.offline import OfflineDiscord
from bot.storage import Database
from bot.storage.models import General, Unit
from rules.core.dice import ScriptedSource
from rules.core.errors import InvalidInput
from rules.core.fields import did_you_mean
from rules.tricorne.inputs import ROSTER_FIELDS

from .conftest import CHANNEL, GM_USER, GUILD, PLAYER, full_text, reply, text_of
from .test_battle_safety import url_of
from .test_decisions import buttons

SETUP = [
    "/battle start ruleset:tricorne name:Prestonpans",
    '/unit add side:Jacobites name:"Black Watch" words:highland strength:4',
    '/unit add side:Government name:Dragoons words:battle-cavalry strength:4',
    '/unit add side:Government name:Fusiliers words:regular strength:3',
    '/general add name:Murray side:Jacobites unit:"Black Watch"',
    "/general add name:Cope side:Government",
]
MELEE = ('/melee tricorne attacker:"Black Watch" defender:Dragoons '
         'dice:"cav cav flag inf inf  flag flag  saber cav cav inf  cav cav"')


async def setup(session) -> None:
    for line in SETUP:
        message = await reply(session, line, user_id=GM_USER)
        assert not message.ephemeral, message.content


async def press(session, message, label: str, user: int = GM_USER):
    return await session.press(message, label, channel_id=CHANNEL, user_id=user,
                               guild_id=GUILD)


async def roster(db: Database) -> tuple[dict[str, Unit], dict[str, General]]:
    async with db.transaction() as s:
        units = {u.name: u for u in await s.scalars(select(Unit))}
        generals = {g.name: g for g in await s.scalars(select(General))}
    return units, generals


async def test_a_quick_lookup_shows_the_dice_arithmetic_and_the_battle_back(discord_session):
    message = await reply(discord_session,
                          '/melee tricorne attacker:"Black Watch: highland leader=Murray" '
                          'defender:"Fusiliers: regular" '
                          'dice:"inf saber art cav cav  inf flag  saber inf  flag flag cav inf"')
    assert not message.ephemeral
    embed = message.embeds[0]
    # The headline as long as two phone lines: who struck first, and how it ended; the
    # whole one in the Steps.
    assert embed["title"] == "🩸 Black Watch scores 2 hits on Fusiliers … Black Watch " \
        "retreats 1 hex"
    assert "🎲 **inf** **saber** art cav cav" in text_of(message)  # as typed in `dice`
    # Step 8's roll is named for what it is.
    assert "**Fusiliers battles back** 🎲 **inf** flag (2 dice: regular) vs Black Watch " \
        "(infantry) → 1 hit" in text_of(message), text_of(message)
    text = await full_text(discord_session, message)
    assert ("Black Watch scores 2 hits on Fusiliers; Fusiliers scores 1 hit on Black Watch; "
            "Black Watch retreats 1 hex") in text
    assert ("2 (highland) + 1 full strength + 1 leader attached + 1 Highland Battle Bonus = 5 "
            "dice") in text
    assert "🎲 **infantry** **saber** artillery cavalry cavalry" in text
    assert "Fusiliers battles back against Black Watch" in text
    assert "Murray survives and stays with Black Watch" in text
    # Named, the two took a second line of a phone: counted beside the Steps' icon, and the
    # Steps name them, the leader's check (step 5) before the rally check (step 6).
    assert embed["footer"]["text"] == "Dice typed in · 📜 2 project defaults"
    assert "Project defaults (see /help): leader casualty check: " in text
    assert text.index("leader casualty check: ") < text.index("rally check: ")


async def test_a_battle_back_without_dice_says_why_in_the_public_reply(discord_session):
    asked = await reply(discord_session, '/melee tricorne attacker:"Atholl: highland '
                                         'terrain=forest" defender:"Cobham\'s: battle-cavalry '
                                         'blocks=3" dice:"inf inf art art"')
    result = (await press(discord_session, asked, "Stand and fight", PLAYER))[-1]
    # No roll line for a roll of no dice: the headline says what took them.
    assert result.embeds[0]["title"] == ("🛡️ Atholl scores no hit on Cobham's; Cobham's has "
                                         "no melee dice (−2 attacking into forest)")


async def test_retire_and_rally_is_asked_before_any_die(discord_session):
    asked = await reply(discord_session,
                        '/melee tricorne attacker:"Grenadiers: grenadier" '
                        'defender:"Hussars: light-cavalry"')
    assert asked.embeds[0]["title"] == "❓ Will Hussars retire and rally before Grenadiers " \
        "rolls 4 dice?"
    assert buttons(asked) == ["Retire and rally", "Stand and fight"]
    assert "🎲" not in text_of(asked)


async def test_the_retire_question_does_not_show_the_dice_typed_for_the_roll_after_it(
        battle_session):
    """The defender announces a retire "before the attacking unit rolls": the question asked
    of him does not show the attacker's typed dice, which he would answer knowing; the
    result shows them."""
    await setup(battle_session)
    asked = await reply(battle_session, '/melee tricorne attacker:"Black Watch" '
                        'defender:Dragoons dice:"cav saber cav flag inf"', user_id=PLAYER)
    assert asked.embeds[0]["title"] == ("❓ Will Dragoons retire and rally before Black Watch "
                                        "rolls 5 dice?")
    footer = asked.embeds[0]["footer"]["text"]
    assert footer.startswith("Dice typed in · #"), footer
    result = (await press(battle_session, asked, "Stand and fight", GM_USER))[-1]
    assert result.embeds[0]["footer"]["text"].startswith(
        "Dice typed in: cav saber cav flag inf"), result.embeds[0]["footer"]["text"]


async def test_the_dice_and_why_are_said_before_the_roll_and_on_its_line(discord_session):
    """A player at the table counts the dice before rolling them: the question asked
    before the roll says how many, and the roll's line says how many and why."""
    asked = await reply(discord_session,
                        '/melee tricorne attacker:"Black Watch: highland leader=Murray" '
                        'defender:"Dragoons: battle-cavalry blocks=3" '
                        'dice:"cav cav art inf art  inf art art art"')
    assert asked.embeds[0]["title"] == ("❓ Will Dragoons retire and rally before Black Watch "
                                        "rolls 5 dice?")
    result = (await press(discord_session, asked, "Stand and fight", PLAYER))[-1]
    lines = text_of(result).split("\n")
    assert ("**Black Watch melee** 🎲 **cav** **cav** art inf art (5 dice: 2 highland, +1 "
            "full strength, +1 leader attached, +1 Highland Battle Bonus) vs Dragoons "
            "(cavalry) → 2 hits") in lines, lines
    assert ("**Dragoons battles back** 🎲 **inf** art (2 dice: battle cavalry) vs Black "
            "Watch (infantry) → 1 hit") in lines, lines


async def test_bad_input_is_refused_with_how_to_fix_it(discord_session, battle_session):
    lone = await reply(discord_session, '/melee tricorne attacker:"Murray: leader" '
                                        'defender:"Fusiliers: regular"')
    assert lone.ephemeral and "a leader may not engage in melee" in lone.content
    typo = await reply(discord_session, '/melee tricorne attacker:"A: highlnd" defender:"B: reg"')
    assert typo.ephemeral and "Did you mean `highland`?" in typo.content
    await setup(battle_session)
    same = await reply(battle_session, '/melee tricorne attacker:Dragoons defender:Fusiliers')
    assert same.ephemeral and "Fusiliers is on Dragoons' side" in same.content
    own = await reply(battle_session, '/melee tricorne attacker:"Black Watch: grenadier" '
                                      'defender:Fusiliers')
    assert own.ephemeral and "the roster says what Black Watch is" in own.content
    blocks = await reply(battle_session, '/unit add side:Jacobites name:X words:"regular '
                                         'type=leader"')
    assert blocks.ephemeral


def test_the_dice_option_shows_battle_dice_as_its_example(discord_session):
    """The form's hint is the first thing a player reads: a d6 example (`3 5`) would be
    refused as no face of a battle die."""
    melee = discord_session.tree.get_command("melee").get_command("tricorne")
    [dice] = [p for p in melee.parameters if p.name == "dice"]
    assert dice.description == ("Your own dice, in the order the reply lists the rolls, e.g. "
                                "`inf saber`; blank: I roll")


async def test_a_whole_melee_in_a_battle_with_its_buttons(battle_session):
    await setup(battle_session)
    db = battle_session.client.db
    asked = await reply(battle_session, MELEE, user_id=PLAYER)
    assert buttons(asked) == ["Retire and rally", "Stand and fight"]
    [_, ground] = await press(battle_session, asked, "Stand and fight")
    assert ground.embeds[0]["title"] == "❓ Will Black Watch take ground (advance into the " \
                                        "vacated hex)?"
    assert "**Dragoons rally check** 🎲" in text_of(ground)  # the rolls so far
    # What the roll did, to choose by: the table shows it once the question is answered,
    # and the question says so.
    assert text_of(ground).split("\n")[3:6] == [
        "So far (kept once answered):",
        "**Dragoons** loses 2 blocks, retreats 2 hexes, routs off the field",
        "**Black Watch** wins a Victory Banner"]
    assert "→ fails" in text_of(ground)
    [_, bonus] = await press(battle_session, ground, "Take ground")
    # The defender's side: the routed dragoons are gone; the fusiliers and Cope are left.
    assert buttons(bonus) == ["Attack Fusiliers", "Attack Cope", "No bonus melee"]
    [result] = await press(battle_session, bonus, "Attack Fusiliers")
    text = await full_text(battle_session, result)
    assert "− 1 moved (ordered infantry) = 4 dice" in text
    assert "Fusiliers battles back against Black Watch" in text
    units, generals = await roster(db)
    assert (units["Dragoons"].status, units["Dragoons"].gone_reason) == ("gone", "routed")
    assert units["Dragoons"].strength == 2
    assert generals["Murray"].unit_name == "Black Watch" and generals["Murray"].status == "active"
    assert units["Fusiliers"].strength == 1
    assert units["Black Watch"].strength == 4 and units["Black Watch"].attributes["moved"]
    shown = text_of(await reply(battle_session, "/battle show"))
    assert "Jacobites: 1 Victory Banner" in shown and "Government: 0 Victory Banners" in shown
    for _ in range(5):  # through the five phases to a new turn
        await reply(battle_session, "/battle next", user_id=GM_USER)
    units, _ = await roster(db)
    assert units["Black Watch"].attributes["moved"] is False


async def test_a_banner_won_stays_in_the_result_whatever_the_leaders_name(battle_session):
    """A bonus melee kills a lone leader whose name holds the effect's words (`Winslow`:
    "wins"; `Bannerman`: "banner"): the banners the melee won are said all the same."""
    for line in ["/battle start ruleset:tricorne name:Culloden",
                 '/unit add side:Jacobites name:"Black Watch" words:highland strength:1',
                 "/unit add side:Government name:Dragoons words:battle-cavalry strength:4",
                 "/general add name:Winslow side:Jacobites"]:
        assert not (await reply(battle_session, line, user_id=GM_USER)).ephemeral, line
    asked = await reply(battle_session, '/melee tricorne attacker:Dragoons defender:"Black '
                                        'Watch" dice:"inf inf inf sab sab sab"')
    [_, bonus] = await press(battle_session, asked, "Take ground")
    [_, again] = await press(battle_session, bonus, "Attack Winslow")
    assert "**Dragoons** wins a Victory Banner ×2, takes ground 1 hex" in text_of(again)
    [result] = await press(battle_session, again, "Stay")
    assert result.embeds[0]["title"] == "💥 Dragoons eliminates Black Watch; Dragoons kills " \
                                        "Winslow"
    assert result.embeds[0]["description"].splitlines()[:3] == [
        "**Dragoons** wins a Victory Banner ×2, takes ground 1 hex",
        # "Dragoons eliminates Black Watch" says its end: the roster line, its loss. Taking
        # ground is its move this turn: no roster line says it has moved.
        "📋 Black Watch loses 1 block (now 0)",
        # The melee's roll stands on the first question's message.
        "🎲 1 earlier roll: on the question above"]
    assert "Government: 2 Victory Banners" in text_of(await reply(battle_session,
                                                                  "/battle show"))


def test_a_name_holding_an_effects_words_does_not_say_the_effect():
    from bot.render.resolution import said_in
    units = ["Dragoons", "Bannerman"]
    assert not said_in(["dragoons kills bannerman"], "Dragoons", "wins a victory banner",
                       units)
    assert said_in(["dragoons kills bannerman"], "Bannerman", "is killed", units)


async def test_the_question_survives_a_restart(db):
    url = url_of(db)
    async with Database(url) as first, OfflineDiscord(create_bot(first)) as session:
        await setup(session)
        asked = await reply(session, MELEE, user_id=PLAYER)
    async with Database(url) as second, OfflineDiscord(create_bot(second)) as session:
        [_, ground] = await press(session, asked, "Stand and fight")
        [_, bonus] = await press(session, ground, "Take ground")
        [done] = await press(session, bonus, "No bonus melee")
        assert "Black Watch makes no bonus melee" in await full_text(session, done)
        units, _ = await roster(second)
        assert units["Dragoons"].gone_reason == "routed"
        undone = await reply(session, "/gm undo", user_id=GM_USER)
        assert not undone.ephemeral
        units, _ = await roster(second)
        assert units["Dragoons"].status == "active" and units["Dragoons"].strength == 4


async def test_a_lone_leader_is_attacked_and_killed(battle_session):
    await setup(battle_session)
    result = await reply(battle_session,
                         '/melee tricorne attacker:"Black Watch" defender:Cope '
                         'dice:"saber inf inf cav flag" choices:"take_ground=stay"',
                         user_id=GM_USER)
    assert result.embeds, result.content
    assert result.embeds[0]["title"] == "💥 Black Watch kills Cope"
    _, generals = await roster(battle_session.client.db)
    assert generals["Cope"].status == "killed"
    assert "Jacobites: 1 Victory Banner" in text_of(await reply(battle_session,
                                                                "/battle show"))


async def test_settings_change_the_checks_and_are_checked_together(battle_session):
    await setup(battle_session)
    bad = await reply(battle_session, '/battle setting name:die value:"inf cav sword"',
                      user_id=GM_USER)
    assert bad.ephemeral and "`sword` is not a battle-die face" in bad.content
    bad = await reply(battle_session, "/battle setting name:leader_dice value:1",
                      user_id=GM_USER)
    assert bad.ephemeral and "cannot need 2 sabers" in bad.content
    done = await reply(battle_session, "/battle setting name:Failed-Rally value:lose-block",
                       user_id=GM_USER)
    assert not done.ephemeral
    result = await reply(battle_session,
                         '/melee tricorne attacker:"Black Watch" defender:Fusiliers '
                         'dice:"art art flag art art  flag flag flag" choices:take_ground=stay',
                         user_id=GM_USER)
    text = await full_text(battle_session, result)
    assert "Fusiliers fails and loses 1 block" in text
    assert "routs off the field" not in text
    assert "a failed rally check routs" not in result.embeds[0]["footer"]["text"]
    units, _ = await roster(battle_session.client.db)
    assert units["Fusiliers"].strength == 2 and units["Fusiliers"].status == "active"


async def test_cavalry_that_entered_a_wood_this_turn_is_refused_its_melee(battle_session):
    await setup(battle_session)
    added = await reply(battle_session, '/unit add side:Jacobites name:"Lord Elcho\'s '
                                        'Lifeguards" words:"battle-cavalry forest moved"')
    assert not added.ephemeral, added.content
    refused = await reply(battle_session, '/melee tricorne attacker:"Lord Elcho\'s '
                                          'Lifeguards" defender:Fusiliers')
    assert refused.ephemeral
    assert refused.content == (
        "⚠️ Lord Elcho's Lifeguards entered forest this turn: cavalry and artillery that "
        "enter forest or buildings must stop and may not battle (the Terrain rules). "
        "It may battle from there next turn. If it did not enter that hex this turn, say so "
        "with `moved=false`.")
    units, _ = await roster(battle_session.client.db)
    assert units["Fusiliers"].strength == 3
    # Infantry that entered the wood battles at one die less.
    await reply(battle_session, '/unit add side:Jacobites name:Ogilvy words:"regular forest '
                                'moved"')
    fought = await reply(battle_session, '/melee tricorne attacker:Ogilvy defender:Fusiliers '
                                         'dice:"art art  art art"')
    assert "− 1 moved into forest (ordered infantry) = 2 dice" in \
        await full_text(battle_session, fought)
    looked = await reply(battle_session, '/melee tricorne attacker:"Guns: trained-artillery '
                                         'buildings moved" defender:"Foot: regular" '
                                         'lookup:true')
    assert looked.ephemeral
    assert looked.content.startswith("⚠️ Guns entered buildings this turn: cavalry and "
                                     "artillery that enter forest or buildings must stop")


async def test_a_leader_whose_unit_routs_is_left_alone_and_undo_puts_him_back(battle_session):
    for line in ["/battle start ruleset:tricorne name:Culloden",
                 '/unit add side:Government name:"Barrell\'s 4th Foot" words:regular strength:2',
                 "/unit add side:Jacobites name:Camerons words:highland strength:4",
                 '/general add name:Cumberland side:Government unit:"Barrell\'s 4th Foot"']:
        assert not (await reply(battle_session, line, user_id=GM_USER)).ephemeral
    # A flag; the rally check (2 blocks + 1 leader) fails; Cumberland's one die is no saber.
    result = await reply(battle_session, '/melee tricorne attacker:Camerons '
                                         'defender:"Barrell\'s 4th Foot" '
                                         'dice:"flag art art art  cav cav cav  flag" '
                                         'choices:"take_ground=stay"', user_id=GM_USER)
    text = await full_text(battle_session, result)
    assert ("Cumberland survives and escapes alone toward the nearest friendly unit: a lone "
            "leader now that Barrell's 4th Foot is gone.") in text
    assert ("**Cumberland** escapes alone toward the nearest friendly unit (a lone leader)\n"
            "📋 Barrell's 4th Foot routs off the field\n"
            "📋 Cumberland has left Barrell's 4th Foot") in text
    _, generals = await roster(battle_session.client.db)
    assert (generals["Cumberland"].unit_name, generals["Cumberland"].status) == (None,
                                                                                 "active")
    shown = text_of(await reply(battle_session, "/battle show"))
    assert "**Barrell's 4th Foot** · 2 blocks · regular · *out: routed*\n" in shown
    assert "**Cumberland** (Government)\n" in shown
    undone = await reply(battle_session, "/gm undo", user_id=GM_USER)
    assert not undone.ephemeral, undone.content
    shown = text_of(await reply(battle_session, "/battle show"))
    assert "**Barrell's 4th Foot** · 2 blocks · regular · with Cumberland\n" in shown
    assert "**Cumberland** (Government)" not in shown  # said on the unit's line


async def test_a_quick_lookups_bonus_melee_target_is_named_in_the_answer(discord_session):
    asked = await reply(discord_session,
                        '/melee tricorne attacker:"Dragoons: battle-cavalry" '
                        'defender:"Fusiliers: regular blocks=1" '
                        'dice:"inf art art  inf art art  art art art"')
    [_, bonus] = await press(discord_session, asked, "Take ground", user=PLAYER)
    assert bonus.embeds[0]["title"] == "❓ Will Dragoons make a bonus melee?"
    assert buttons(bonus) == ["No bonus melee"]
    assert bonus.embeds[0]["description"].startswith(
        "Dragoons' player (<@1000>) decides; or `/answer` with the unit it attacks, written "
        "as in `bonus` (for example `Royal Scots: regular blocks=3`).")
    typo = await reply(discord_session, '/answer choice:"Grenadiers: grenadeer blocks=2"')
    assert typo.ephemeral and "Did you mean `grenadier`?" in typo.content
    # The answer to the question before, typed late: said against the one now waiting.
    late = await reply(discord_session, '/answer choice:"Take ground"')
    assert late.ephemeral and late.content.startswith(
        "⚠️ The question is “Will Dragoons make a bonus melee?”, and `Take ground` is no "
        "target it may attack."), late.content
    result = await reply(discord_session, '/answer choice:"Grenadiers: grenadier blocks=2"')
    assert not result.ephemeral, result.content
    text = await full_text(discord_session, result)
    assert "Dragoons (battle cavalry, 4 blocks) melees Grenadiers (grenadier infantry, " \
           "2 blocks)" in text
    assert "Grenadiers battles back against Dragoons" in text


async def test_an_answer_no_question_takes_is_refused_naming_its_buttons(discord_session):
    """`no` and `yes` are said against the question's answers as its buttons show them,
    not read as a unit's name without its colon; a button's label is an answer."""
    ground = await reply(discord_session,
                         '/melee tricorne attacker:"Horse: battle-cavalry" '
                         'defender:"Foot: regular blocks=2" dice:"inf flag flag inf inf"')
    assert buttons(ground) == ["Take ground", "Stay"]
    no = await reply(discord_session, "/answer choice:no")
    assert no.ephemeral and no.content == (
        "⚠️ `no` is not an answer to “Will Horse take ground (advance into the vacated "
        "hex)?”. Answer “Take ground” (`advance`) or “Stay”.")
    taken = await reply(discord_session, '/answer choice:"take ground"')
    assert "Will Horse make a bonus melee?" in taken.embeds[0]["title"]
    bonus = await reply(discord_session,
                        '/melee tricorne attacker:"Horse: battle-cavalry" '
                        'defender:"Foot: regular blocks=2" dice:"inf inf flag" '
                        'choices:"take_ground=take ground"')
    assert buttons(bonus) == ["No bonus melee"]
    for word in ("no", "yes"):
        refused = await reply(discord_session, f"/answer choice:{word}")
        assert refused.ephemeral and refused.content == (
            f"⚠️ The question is “Will Horse make a bonus melee?”, and `{word}` is no target "
            "it may attack. Answer “No bonus melee” (`none`), or with the unit it attacks, "
            "written as in `bonus` (for example `Royal Scots: regular blocks=3`).")
    done = await reply(discord_session, '/answer choice:"no bonus melee"')
    assert not done.ephemeral, done.content


async def test_in_a_battle_the_bonus_target_may_be_typed_with_its_words(battle_session):
    await setup(battle_session)
    asked = await reply(battle_session, '/melee tricorne attacker:"Black Watch" '
                                        'defender:Dragoons dice:"cav cav flag inf inf  flag '
                                        'flag  saber cav cav inf  cav cav cav"', user_id=PLAYER)
    [_, ground] = await press(battle_session, asked, "Stand and fight")
    [_, bonus] = await press(battle_session, ground, "Take ground")
    assert "; or `/answer` with the name of the enemy unit it attacks." in \
        bonus.embeds[0]["description"]
    missing = await reply(battle_session, '/answer choice:"Nobody: regular"', user_id=GM_USER)
    # An answer, not a command: no `lookup:true` to offer, the roster to read instead.
    assert missing.ephemeral and missing.content.endswith(
        "There is no unit called `Nobody` in this battle. Name the unit its bonus melee "
        "attacks, or answer “Attack Fusiliers” (`Fusiliers`), “Attack Cope” (`Cope`) or "
        "“No bonus melee” (`none`). `/unit list` shows the roster."), missing.content
    result = await reply(battle_session, '/answer choice:"Fusiliers: cards=1"',
                         user_id=GM_USER)
    assert "2 (regular) + 1 Command/Combat cards = 3 dice" in \
        await full_text(battle_session, result)


async def test_a_bonus_target_no_unit_has_keeps_the_answers_given_ahead_and_the_dice(
        battle_session):
    await setup(battle_session)
    asked = await reply(battle_session, '/melee tricorne attacker:"Black Watch" '
                                        'defender:Dragoons dice:"cav cav flag inf inf  flag '
                                        'flag  saber cav cav inf  cav cav cav" '
                                        'choices:"stand; take ground"', user_id=GM_USER)
    assert asked.embeds[0]["title"] == "❓ Will Black Watch make a bonus melee?"
    # A name no unit has, typed with answers given ahead: refused, nothing replayed.
    missing = await reply(battle_session, "/answer choice:Nobody", user_id=GM_USER)
    assert missing.ephemeral and "There is no unit called `Nobody` in this battle." in \
        missing.content, missing.content
    # The start of a button's label is that answer, not a unit's name.
    done = await reply(battle_session, '/answer choice:"No bonus"', user_id=GM_USER)
    text = await full_text(battle_session, done)
    assert "Black Watch makes no bonus melee" in text
    assert "**Black Watch melee** 🎲 **cav** **cav** flag inf inf (5 dice: 2 highland, +1 " \
        "full strength, +1 leader attached, +1 Highland Battle Bonus) vs Dragoons" in text


FIGHT = 'attacker:"A: highland" defender:"D: regular blocks=2"'
AHEAD = 'choices:"take_ground=advance; bonus_melee=D; bonus_take_ground=stay"'


async def test_a_bonus_target_given_ahead_that_the_dice_eliminate_leaves_the_roll_standing(
        discord_session, monkeypatch):
    """Refusing the command once the dice removed the target named ahead would hide the roll
    and let it be sent again for fresh dice: the roll stands, the answer is set aside, and
    with only "No bonus melee" left the melee goes on with it."""
    typed = await reply(discord_session, f'/melee tricorne {FIGHT} dice:"inf inf art art" '
                                         f'{AHEAD}')
    assert not typed.ephemeral, typed.content
    text = await full_text(discord_session, typed)
    assert "**A melee** 🎲 **inf** **inf** art art" in text, text
    assert "A makes no bonus melee" in text
    assert "The answer given ahead, D, no longer applies: D has left the field in this " \
           "melee. “No bonus melee” is the only answer left to “Will A make a bonus melee?”." \
           in text
    # Rolled by the bot: those dice, none rolled again (the stand-in has no more).
    monkeypatch.setattr("bot.battles.play.RandomSource",
                        lambda: ScriptedSource.from_text("inf inf art art"))
    rolled = await reply(discord_session, f"/melee tricorne {FIGHT} {AHEAD}")
    assert not rolled.ephemeral, rolled.content
    assert "**A melee** 🎲 **inf** **inf** art art" in text_of(rolled)
    assert "Dice rolled by the bot" in text_of(rolled)


async def test_in_a_battle_a_bonus_target_the_dice_drove_off_is_set_aside_and_asked(
        battle_session):
    await setup(battle_session)
    dice = MELEE.removesuffix('"') + ' cav"'
    set_aside = "↪️ The answer given ahead, Dragoons, no longer applies: Dragoons has left " \
        "the field in this melee. “Will Black Watch make a bonus melee?” is asked instead."
    first_roll = "**Black Watch melee** 🎲 **cav** **cav** flag inf inf"
    asked = await reply(battle_session, dice + ' choices:"stand; take ground; Dragoons"',
                        user_id=GM_USER)
    assert asked.embeds[0]["title"] == "❓ Will Black Watch make a bonus melee?", \
        asked.content
    assert buttons(asked) == ["Attack Fusiliers", "Attack Cope", "No bonus melee"]
    assert set_aside in text_of(asked) and first_roll in text_of(asked), text_of(asked)
    [result] = await press(battle_session, asked, "Attack Fusiliers")
    text = await full_text(battle_session, result)
    assert first_roll in text
    assert "Fusiliers battles back against Black Watch" in text
    units, _ = await roster(battle_session.client.db)
    assert (units["Dragoons"].status, units["Dragoons"].gone_reason) == ("gone", "routed")
    assert units["Fusiliers"].strength == 1


async def test_a_bonus_target_the_dice_drove_off_after_an_answer_is_set_aside_and_asked(
        battle_session):
    # Played on after the dragoons' player answered: the answers given ahead that still
    # apply are kept (not all dropped and asked again), the one out of reach set aside.
    await setup(battle_session)
    retire = await reply(battle_session, MELEE.removesuffix('"') + ' cav" choices:'
                         '"take_ground=advance; bonus_melee=Dragoons"', user_id=GM_USER)
    assert buttons(retire) == ["Retire and rally", "Stand and fight"]
    [_, asked] = await press(battle_session, retire, "Stand and fight")
    assert asked.embeds[0]["title"] == "❓ Will Black Watch make a bonus melee?"
    assert buttons(asked) == ["Attack Fusiliers", "Attack Cope", "No bonus melee"]
    assert "↪️ The answer given ahead, Dragoons, no longer applies: Dragoons has left the " \
           "field in this melee." in text_of(asked), text_of(asked)
    assert "**Black Watch melee** 🎲 **cav** **cav** flag inf inf" in text_of(asked)


async def test_a_hill_attacked_from_another_hill_ignores_a_flag(battle_session):
    await setup(battle_session)
    for line in ['/unit add side:Jacobites name:Atholl words:"highland hill"',
                 '/unit add side:Government name:Pulteney words:"regular hill" strength:3']:
        assert not (await reply(battle_session, line)).ephemeral
    result = await reply(battle_session, '/melee tricorne attacker:"Atholl: other-hill" '
                                         'defender:Pulteney dice:"flag art art art  art art"')
    text = await full_text(battle_session, result)
    assert ("Pulteney on a hill attacked from another group of hill hexes ignores 1 flag "
            "(the Terrain rules).") in text
    assert "Pulteney battles back against Atholl" in text
    refused = await reply(battle_session, '/melee tricorne attacker:"Black Watch: other-hill" '
                                          'defender:Pulteney')
    assert refused.ephemeral
    assert "Black Watch: `other-hill` says it stands on a hill, but its terrain is open." \
        in refused.content


async def test_a_grenadiers_player_chooses_to_ignore_a_flag_with_a_button(battle_session):
    await setup(battle_session)
    added = await reply(battle_session, '/unit add side:Government name:"Ligonier\'s '
                                        'Grenadiers" words:grenadier strength:4')
    assert not added.ephemeral
    asked = await reply(battle_session, '/melee tricorne attacker:"Black Watch" '
                                        'defender:"Ligonier\'s Grenadiers" '
                                        'dice:"flag art art art art  art art art art"',
                        user_id=GM_USER)
    assert asked.embeds[0]["title"] == ("❓ Will Ligonier's Grenadiers ignore the flag "
                                        "against it?")
    # Each answer names the unit whose choice it is, as the odds' rows say it too.
    assert buttons(asked) == ["Ligonier's Grenadiers ignores 1 flag",
                              "Ligonier's Grenadiers takes every flag"]
    assert f"Ligonier's Grenadiers' player (<@{PLAYER}>) or a GM decides" in \
        asked.embeds[0]["description"]
    [result] = await press(battle_session, asked, "Ligonier's Grenadiers ignores 1 flag",
                           user=PLAYER)
    text = await full_text(battle_session, result)
    assert ("Ligonier's Grenadiers ignores 1 flag: a grenadier may ignore 1 flag (Government "
            "Grenadier unit page).") in text
    assert "Ligonier's Grenadiers battles back against Black Watch" in text


async def test_a_leader_given_as_a_units_word_is_sent_to_general_add(battle_session):
    await reply(battle_session, "/battle start ruleset:tricorne name:Prestonpans",
                user_id=GM_USER)
    refused = await reply(battle_session, '/unit add side:Jacobites name:"Black Watch" '
                                          'words:"highland leader=Murray"', user_id=GM_USER)
    assert refused.ephemeral
    assert "Did you mean `leader`" not in refused.content  # never the word typed
    assert refused.content.startswith(
        "⚠️ words: in a battle a unit's leader is a general, not a word of the unit.")
    assert '`/general add name:"Murray" side:… unit:…`' in refused.content
    units, _ = await roster(battle_session.client.db)
    assert "Black Watch" not in units


def test_a_near_miss_is_never_the_word_typed():
    assert did_you_mean("leader", ["leader", "leaders"]) == " Did you mean `leaders`?"
    assert did_you_mean("leader", ["leader"]) == ""
    # A word that takes no value, given one: said so, not "did you mean" itself.
    with pytest.raises(InvalidInput) as refused:
        ROSTER_FIELDS.read_text("highland leader=Murray", "words", names=False)
    assert str(refused.value).startswith(
        "words: `leader` is a word on its own here, not `leader=…`.")


async def test_a_unit_added_without_its_blocks_stands_at_full_strength_on_the_roster(
        battle_session):
    for line, said in [("/battle start ruleset:tricorne name:Culloden", None),
                       ("/unit add side:Jacobites name:\"Ogilvy's\" words:highland",
                        "➕ Ogilvy's joins the Jacobites side: 4 blocks, highland (event #2)."),
                       ("/unit add side:Jacobites name:Atholl words:\"highland full=3\"",
                        "➕ Atholl joins the Jacobites side: 3 blocks, highland, full strength "
                        "3 (event #3).")]:
        added = await reply(battle_session, line, user_id=GM_USER)
        assert not added.ephemeral and (said is None or added.content == said), added.content
    shown = text_of(await reply(battle_session, "/unit list"))
    assert "**Ogilvy's** · 4 blocks · highland\n" in shown, shown
    # Its full strength put right afterwards: its blocks follow, as it has lost none.
    fixed = await reply(battle_session, "/unit edit unit:\"Ogilvy's\" words:\"full=3\"",
                        user_id=GM_USER)
    assert not fixed.ephemeral, fixed.content
    shown = text_of(await reply(battle_session, "/unit list"))
    assert "**Ogilvy's** · 3 blocks · highland, full strength 3\n" in shown, shown


async def test_a_new_die_must_show_every_symbol_and_an_older_one_stays_usable(battle_session):
    assert not (await reply(battle_session, "/battle start ruleset:tricorne name:Culloden",
                            user_id=GM_USER)).ephemeral
    refused = await reply(battle_session, '/battle setting name:die value:"inf inf cav art '
                                          'flag flag"', user_id=GM_USER)
    assert refused.ephemeral and "this one has no saber" in refused.content, refused.content

    def older(conn) -> None:  # a die set before every symbol was required
        conn.exec_driver_sql("""update battles set settings = '{"die": "inf saber"}',
                                last_seq = last_seq + 1""")

    await battle_session.client.db.run(older, write=True)
    other = await reply(battle_session, "/battle setting name:failed_rally value:lose-block",
                        user_id=GM_USER)
    assert not other.ephemeral, other.content


async def test_a_unit_added_without_its_blocks_loses_them_from_its_full_strength(
        battle_session):
    for line in ["/battle start ruleset:tricorne name:T", "/unit add side:A name:X words:regular",
                 "/unit add side:B name:Y words:regular"]:
        assert not (await reply(battle_session, line, user_id=GM_USER)).ephemeral, line
    fought = await reply(battle_session, '/melee tricorne attacker:X defender:Y dice:"inf inf '
                                         'inf  saber inf" choices:take_ground=stay',
                         user_id=GM_USER)
    lines = text_of(fought).splitlines()
    assert "📋 X loses 2 blocks (now 2)" in lines and "📋 Y loses 3 blocks (now 1)" in lines, \
        lines
    await reply(battle_session, "/gm undo", user_id=GM_USER)
    set_ = await reply(battle_session, "/gm set unit:X field:strength value:3", user_id=GM_USER)
    assert set_.content == "🛠️ X loses 1 block (now 3) (event #6).", set_.content
    edited = await reply(battle_session, "/unit edit unit:Y strength:2", user_id=GM_USER)
    assert edited.content == "✏️ Y loses 2 blocks (now 2) (event #7).", edited.content


async def test_a_loss_as_large_as_the_retreat_is_still_said(battle_session):
    await setup(battle_session)
    asked = await reply(battle_session, '/melee tricorne attacker:"Black Watch" '
                                        'defender:Fusiliers dice:"inf flag cav cav cav  cav cav '
                                        ' cav cav cav cav cav cav"', user_id=GM_USER)
    *_, done = await press(battle_session, asked, "Stay")
    text = text_of(done)
    # "Retreats 1 hex" in the headline does not say the 1 block lost.
    assert "Fusiliers retreats 1 hex" in text
    # "Fusiliers routs" is the headline's: the roster line says the loss alone.
    assert "📋 Fusiliers loses 1 block (now 2)" in text.split("\n"), text


async def test_a_quick_lookups_question_keeps_no_roster_so_says_no_so_far(discord_session):
    """"So far (kept once answered)" is a battle's: a quick lookup keeps nothing."""
    asked = await reply(discord_session, '/melee tricorne attacker:"Black Watch: highland" '
                        'defender:"Dragoons: battle-cavalry blocks=2" '
                        'dice:"cav cav flag flag art inf inf" choices:"retire=stand"')
    assert asked.embeds[0]["title"].startswith("❓ Will Black Watch take ground")
    assert "**Dragoons** loses 2 blocks, is eliminated" in text_of(asked)
    assert "So far" not in text_of(asked)


async def test_a_unit_added_without_a_strength_comes_back_after_the_gm_takes_it_out(
        battle_session):
    """A unit added with its strength left out keeps it unset (the rule set's full strength
    stands for it): unset is not none left, so `/gm restore` and `/gm set field:status
    value:active` bring it back after the GM has taken it out."""
    await reply(battle_session, "/battle start ruleset:tricorne name:Culloden", user_id=GM_USER)
    added = await reply(battle_session, "/unit add side:Jacobites name:Atholl words:highland")
    assert added.content == "➕ Atholl joins the Jacobites side: 4 blocks, highland (event #2)."
    units, _ = await roster(battle_session.client.db)
    assert units["Atholl"].strength is None
    for back, said in (("/gm restore unit:Atholl", "♻️ Atholl is back in the battle (event #4)."),
                       ("/gm set unit:Atholl field:status value:active",
                        "🛠️ Atholl is back in the battle (event #6).")):
        out = await reply(battle_session, "/gm set unit:Atholl field:status value:gone",
                          user_id=GM_USER)
        assert not out.ephemeral, out.content
        restored = await reply(battle_session, back, user_id=GM_USER)
        assert restored.content == said, restored.content
    shown = text_of(await reply(battle_session, "/battle show"))
    assert "**Atholl** · 4 blocks · highland\n" in shown


async def test_a_roll_line_says_why_a_saber_did_nothing(discord_session):
    """Militia's sabers score no hit (step 5): said on the roll's own line, where the
    player reads the dice, not in the Steps alone."""
    militia = await reply(discord_session, '/melee tricorne attacker:"Clan: militia" '
                          'defender:"Foot: regular blocks=3" dice:"saber inf art inf inf"')
    assert ("**Clan melee** 🎲 saber **inf** art (3 dice: 2 militia, +1 full strength) vs "
            "Foot (infantry) → 1 hit (militia: sabers miss)") in text_of(militia).split("\n")


async def test_a_class_changed_on_the_roster_is_said_as_the_roster_prints_it(discord_session):
    """`light-cavalry` is a word typed; the roster and the reply say "light cavalry"."""
    await setup(discord_session)
    edited = await reply(discord_session, "/unit edit unit:Dragoons words:light-cavalry",
                         user_id=GM_USER)
    assert edited.content == "✏️ Dragoons is now light cavalry (event #7).", edited.content
    gm_set = await reply(discord_session,
                         "/gm set unit:Fusiliers field:type value:trained-artillery",
                         user_id=GM_USER)
    assert gm_set.content == "🛠️ Fusiliers is now trained artillery (event #8).", \
        gm_set.content
    shown = text_of(await reply(discord_session, "/battle show"))
    assert "**Dragoons** · 4 blocks · light cavalry" in shown, shown


async def test_status_gone_on_a_unit_already_out_keeps_why_it_left(discord_session):
    """An eliminated unit gave the other side a Victory Banner: the GM setting its status to
    `gone` again changes nothing, rather than make it "removed by the GM" and take the
    banner back."""
    await setup(discord_session)
    melee = await reply(discord_session, '/melee tricorne attacker:"Black Watch" '
                        'defender:Fusiliers dice:"inf inf inf flag flag" '
                        'choices:"take_ground=stay"', user_id=GM_USER)
    assert "💥 Black Watch eliminates Fusiliers\n" in text_of(melee), text_of(melee)
    await reply(discord_session, "/gm set unit:Fusiliers field:status value:gone",
                user_id=GM_USER)
    units, _ = await roster(discord_session.client.db)
    assert (units["Fusiliers"].status, units["Fusiliers"].gone_reason) == ("gone", "eliminated")
    shown = text_of(await reply(discord_session, "/battle show"))
    assert "Jacobites: 1 Victory Banner" in shown, shown
    again = await reply(discord_session, "/gm set unit:Fusiliers field:status value:gone",
                        user_id=GM_USER)
    assert again.ephemeral and again.content == "⚠️ Fusiliers' status is already gone.", \
        again.content


async def test_a_leader_typed_on_a_roster_unit_points_to_the_general_commands(battle_session):
    await setup(battle_session)
    refused = await reply(battle_session, '/melee tricorne attacker:"Black Watch: '
                                          'leader=Murray" defender:Fusiliers')
    assert refused.ephemeral
    assert refused.content == (
        "⚠️ attacker: `leader=Murray` names Black Watch's leader, and in a battle that is one "
        "of its generals. Put him with it: `/general add name:Murray side:… "
        'unit:"Black Watch"`, or for one already in the battle a GM\'s `/gm general '
        'general:Murray field:unit value:"Black Watch"`; or drop the word.'), refused.content


async def test_a_leader_joining_the_unit_that_retires_onto_him_is_said_once(battle_session):
    await setup(battle_session)
    result = await reply(battle_session, '/melee tricorne attacker:"Black Watch" '
                                         'defender:"Dragoons: retire_onto=Cope cannot_retire" '
                                         'dice:"cav art art art art  cav art art art" '
                                         'choices:"retire=retire; take_ground=stay"',
                         user_id=GM_USER)
    lines = result.embeds[0]["description"].splitlines()
    assert "**Dragoons** retires and rallies 1 hex onto Cope" in lines, lines
    # Joining him is the roster's change: said there, once.
    assert [line for line in lines if "Cope" in line and "🎲" not in line] == [
        "**Dragoons** retires and rallies 1 hex onto Cope",
        "📋 Cope is now with Dragoons"], lines
    _, generals = await roster(battle_session.client.db)
    assert generals["Cope"].unit_name == "Dragoons"


async def test_a_roster_unit_named_as_its_own_enemy_is_told_it_cannot_melee_itself(
        battle_session):
    await setup(battle_session)
    refused = await reply(battle_session, '/melee tricorne attacker:"Black Watch" '
                                          'defender:"black watch"', user_id=GM_USER)
    assert refused.ephemeral
    assert refused.content == "⚠️ A unit cannot melee itself. Name an adjacent enemy unit.", \
        refused.content


async def test_a_gm_correction_that_moves_a_victory_banner_says_so(discord_session):
    """The standing is counted from the roster: a correction that kills a leader or brings
    an eliminated unit back moves a Victory Banner, and its reply and its undo say so, as a
    melee's result says the banner it wins."""
    await setup(discord_session)
    killed = await reply(discord_session, "/gm general general:Cope field:status value:killed",
                         user_id=GM_USER)
    assert killed.content == ("🛠️ Cope is killed; Jacobites: 1 Victory Banner (was 0 Victory "
                              "Banners) (event #7)."), killed.content
    undone = await reply(discord_session, "/gm undo", user_id=GM_USER)
    assert undone.content.endswith("\n📋 Cope is back in command\n📋 Jacobites: 0 Victory "
                                   "Banners (was 1 Victory Banner)"), undone.content
    await reply(discord_session, '/melee tricorne attacker:"Black Watch" defender:Fusiliers '
                'dice:"inf inf inf flag flag" choices:"take_ground=stay"', user_id=GM_USER)
    given = await reply(discord_session, "/gm set unit:Fusiliers field:strength value:2",
                        user_id=GM_USER)
    assert "Victory Banner" not in given.content, given.content  # still out, eliminated
    restored = await reply(discord_session, "/gm restore unit:Fusiliers", user_id=GM_USER)
    assert restored.content == ("♻️ Fusiliers is back in the battle; Jacobites: 0 Victory "
                                "Banners (was 1 Victory Banner) (event #11)."), restored.content
    log = text_of(await reply(discord_session, "/battle log count:1"))
    assert "GM restored Fusiliers; Jacobites: 0 Victory Banners (was 1 Victory Banner)" in log


async def test_a_correction_that_reorders_the_sides_moves_no_victory_banner(discord_session):
    """Moving the roster's first unit to the other side lists the sides the other way round:
    each side's standing is compared with its own, and none moved."""
    for line in ("/battle start ruleset:tricorne name:Falkirk",
                 "/unit add side:Jacobites name:Highlanders words:highland strength:4",
                 "/unit add side:Government name:Fusiliers words:regular strength:3",
                 '/unit add side:Jacobites name:"Black Watch" words:highland strength:4'):
        await reply(discord_session, line, user_id=GM_USER)
    moved = await reply(discord_session, "/gm set unit:Highlanders field:side value:Government",
                        user_id=GM_USER)
    assert moved.content == ("🛠️ Highlanders is now on the Government side (event #5)."), \
        moved.content
    undone = await reply(discord_session, "/gm undo", user_id=GM_USER)
    assert "Victory Banner" not in undone.content, undone.content


async def test_an_override_reaches_a_result_where_the_dice_put_a_bonus_target_out_of_reach(
        battle_session):
    """A roll whose dice drove off the bonus target named ahead stands: a GM's override of
    it offers that result, and the other results where the first melee drives it off, and
    applies them as the roll did (the answer set aside, not a refusal)."""
    await setup(battle_session)
    asked = await reply(battle_session, MELEE.removesuffix('"') + ' cav" choices:'
                        '"stand; take ground; Dragoons"', user_id=GM_USER)
    await press(battle_session, asked, "No bonus melee")
    units, _ = await roster(battle_session.client.db)
    assert units["Dragoons"].gone_reason == "routed"
    offered = await battle_session.autocomplete(
        ["gm", "override"], {"result": "Dragoons routs"}, "result", channel_id=CHANNEL,
        user_id=GM_USER, guild_id=GUILD)
    labels = {c["name"]: c["value"] for c in offered}
    routed = next((label for label in labels if label.startswith("Fusiliers: ")),
                  None)
    assert routed is not None, labels
    overridden = await reply(battle_session, f"/gm override result:{labels[routed]}",
                             user_id=GM_USER)
    assert not overridden.ephemeral, overridden.content
    units, _ = await roster(battle_session.client.db)
    assert units["Dragoons"].gone_reason == "routed"


async def test_a_correction_that_takes_the_last_block_says_the_victory_banner(discord_session):
    """A unit set to 0 blocks has lost its last block (step 5): eliminated, a Victory Banner
    to the other side, said by the correction and by its undo; the GM taking a unit out
    with its blocks removes it, and moves no banner."""
    await setup(discord_session)
    gm_set = await reply(discord_session, "/gm set unit:Fusiliers field:strength value:0",
                         user_id=GM_USER)
    assert gm_set.content == ("🛠️ Fusiliers loses 3 blocks (now 0) and is eliminated; "
                              "Jacobites: 1 Victory Banner (was 0 Victory Banners) "
                              "(event #7)."), gm_set.content
    undone = await reply(discord_session, "/gm undo", user_id=GM_USER)
    assert undone.content.endswith("\n📋 Jacobites: 0 Victory Banners (was 1 Victory "
                                   "Banner)"), undone.content
    edited = await reply(discord_session, "/unit edit unit:Fusiliers strength:0",
                         user_id=GM_USER)
    assert edited.content == ("✏️ Fusiliers loses 3 blocks (now 0) and is eliminated; "
                              "Jacobites: 1 Victory Banner (was 0 Victory Banners) "
                              "(event #9)."), edited.content
    await reply(discord_session, "/gm undo", user_id=GM_USER)
    removed = await reply(discord_session, "/gm set unit:Fusiliers field:status value:gone",
                          user_id=GM_USER)
    assert removed.content == "🛠️ Fusiliers is removed from the battle by the GM (event #11).", \
        removed.content
    shown = text_of(await reply(discord_session, "/battle show"))
    assert "Jacobites: 0 Victory Banners" in shown, shown


async def test_a_unit_that_rallies_after_its_retreat_is_not_said_to_undo_it(discord_session):
    """The rally check follows the retreat and decides only whether the unit stays on the
    field: the reply does not read as if rallying cancelled the 2 hexes."""
    message = await reply(discord_session, '/melee tricorne attacker:"Fusiliers: regular" '
                          'defender:"Lochiel’s Camerons: highland" '
                          'dice:"flag flag art  inf art art art"')
    lines = text_of(message).splitlines()
    assert "**Lochiel’s Camerons** retreats 2 hexes" in lines, lines
    assert ("**Lochiel’s Camerons rally check** 🎲 **inf** art art art vs its own symbol or a "
            "saber → rallies: stays on the field") in lines, lines
    stay = await press(discord_session, message, "Stay", user=PLAYER)
    text = await full_text(discord_session, stay[-1])
    assert ("Lochiel’s Camerons rallies where its retreat left it, 2 hexes back: it stays on "
            "the field.") in text, text


async def test_a_setting_refused_is_named_once_with_what_it_takes(battle_session):
    """`/battle setting` gives one setting: its refusal names it once (no `settings:` of a
    whole settings object, no name said twice) and says what it takes."""
    await setup(battle_session)
    die = await reply(battle_session, "/battle setting name:die value:1e309", user_id=GM_USER)
    assert die.ephemeral and die.content == (
        "⚠️ die: `1e309` is not a battle-die face. Faces are inf, cav, art, saber and flag, "
        "like `inf inf cav art saber flag`.")
    leader = await reply(battle_session, "/battle setting name:rally_leader value:-5",
                         user_id=GM_USER)
    assert leader.ephemeral and leader.content == (
        "⚠️ `rally_leader` cannot be -5. Give a whole number from 0 to 3, or `default`.")
    # A unit's field, said of its unit, reads as it did.
    unit = await reply(battle_session, '/melee tricorne attacker:"Black Watch: cards=9" '
                       "defender:Fusiliers", user_id=GM_USER)
    assert unit.ephemeral and unit.content == (
        "⚠️ attacker: Black Watch: `cards` cannot be 9. It must be at most 6."), unit.content


async def test_the_override_list_shows_the_plainest_results_first(battle_session):
    """Of a melee's hundreds of results the list shows 25: those with fewest answers on the
    way (no taking ground, no bonus melee), then fewest effects, not the first by label
    (bonus melees against a unit the roll never touched). Typing still searches them all."""
    await setup(battle_session)
    for line in ("/unit add side:Jacobites name:Camerons words:highland strength:1",
                 "/unit edit unit:Fusiliers strength:1"):
        await reply(battle_session, line, user_id=GM_USER)
    await reply(battle_session, '/melee tricorne attacker:Camerons defender:Fusiliers '
                'dice:"inf inf inf  inf inf inf"', user_id=GM_USER)

    async def offered(typed: str) -> list[str]:
        choices = await battle_session.autocomplete(
            ["gm", "override"], {"result": typed}, "result", channel_id=CHANNEL,
            user_id=GM_USER, guild_id=GUILD)
        return [c["name"] for c in choices]

    shown = await offered("")
    assert shown[:4] == [
        "Camerons scores no hit on Fusiliers; Fusiliers scores no hit on Camerons (no effect "
        "on units)",
        "Camerons retreats 1 hex",
        "Camerons retreats 2 hexes",
        "Camerons loses 1 block and is eliminated (its last block removed); Fusiliers wins a "
        "Victory Banner"], shown
    assert shown[6] == "stay: Fusiliers retreats 1 hex", shown
    first_bonus = next(i for i, name in enumerate(shown) if "Dragoons" in name)
    assert first_bonus > shown.index("Fusiliers retreats 1 hex; Camerons takes ground 1 hex")
    searched = await offered("Dragoons loses")
    # Each holds the words typed (a long one past the "…" its option is cut to), plainest
    # first.
    assert searched[:2] == [
        "Fusiliers retreats 1 hex; Camerons takes ground 1 hex; Dragoons loses 1 block",
        "Fusiliers retreats 1 hex; Camerons takes ground 1 hex; Dragoons loses 2 blocks"], searched


async def test_a_big_melee_cut_short_still_lists_its_plain_exchange_of_hits(battle_session):
    """Black Watch with Murray attacking Fusiliers, Dragoons and Cope beside them: more
    results than the list holds (1,000), most after taking ground and a bonus melee. The
    list keeps the plainest, so the likeliest plain one is there to type: 5 dice (2
    highland, +1 full strength, +1 leader, +1 Highland Battle Bonus), half of whose faces
    hit infantry (inf, inf, saber) and one a flag; 2 hits and no flag (9%, the likeliest
    count that leaves Fusiliers in place) take 2 blocks, and 1 hit of Fusiliers' 2 dice back
    (1 in 3) takes 1 of Black Watch's, Murray surviving his check."""
    await setup(battle_session)
    rolled = await reply(battle_session, '/melee tricorne attacker:"Black Watch" '
                         'defender:Fusiliers dice:"inf saber art cav cav  inf flag  saber inf  '
                         'flag flag cav inf"', user_id=GM_USER)
    assert rolled.embeds[0]["title"] == "🩸 Black Watch scores 2 hits on Fusiliers … Black " \
        "Watch retreats 1 hex", rolled.embeds[0]["title"]
    menu = await reply(battle_session, "/gm override", user_id=GM_USER)
    assert "(the 25 first of 1000 results;" in menu.content, menu.content
    wanted = "Fusiliers loses 2 blocks; Black Watch loses 1 block"
    choices = await battle_session.autocomplete(
        ["gm", "override"], {"result": wanted}, "result", channel_id=CHANNEL,
        user_id=GM_USER, guild_id=GUILD)
    picked = {c["name"]: c["value"] for c in choices}
    assert wanted in picked, list(picked)
    overridden = await reply(battle_session, f"/gm override result:{picked[wanted]}",
                             user_id=GM_USER)
    # As those dice rolled at a table say it (a quick lookup in another channel).
    plain = "🩸 Black Watch scores 2 hits on Fusiliers; Fusiliers scores 1 hit on Black Watch"
    table = await reply(battle_session, '/melee tricorne attacker:"Black Watch: highland '
                        'leader=Murray" defender:"Fusiliers: regular" dice:"inf saber art '
                        'cav cav  inf art  cav cav"', channel_id=CHANNEL + 1)
    assert table.embeds[0]["title"] == plain, table.embeds[0]["title"]
    assert overridden.embeds[0]["title"] == plain, overridden.embeds[0]["title"]
    units, generals = await roster(battle_session.client.db)
    assert units["Fusiliers"].strength == 1 and units["Black Watch"].strength == 3
    assert generals["Murray"].unit_name == "Black Watch"
