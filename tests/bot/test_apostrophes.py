"""Names with an apostrophe (Fraser's, Lochiel's, Barrell's) through the real CommandTree:
an apostrophe is a letter of a name in every option, double quotes alone group text, and a
phone's curly apostrophe (’ or ‘) finds the name typed with a straight one, and back."""

from __future__ import annotations

from sqlalchemy import select

from bot.storage.models import General, Unit
from rules.core.notation import quoting_rule

from .conftest import CHANNEL, GM_USER, GUILD, PLAYER, full_text, played, reply, text_of
from .help_pages import pages, text_of_pages
from .test_cli import resolve
from .test_decisions import buttons

WHERE = {"channel_id": CHANNEL, "user_id": PLAYER, "guild_id": GUILD}


async def roster(session) -> tuple[dict[str, Unit], dict[str, General]]:
    async with session.client.db.transaction() as s:
        return ({u.name: u for u in await s.scalars(select(Unit))},
                {g.name: g for g in await s.scalars(select(General))})


# --- quick lookups ----------------------------------------------------------------------------


async def test_a_fire_at_will_lookup_reads_names_with_an_apostrophe(discord_session):
    message = await reply(discord_session,
                          '/melee fire-at-will attackers:"Fraser\'s Highlanders: inf regular '
                          'charging" defenders:"Béarn: inf regular" dice:"5 2"')
    assert not message.ephemeral, message.content
    assert message.embeds[0]["title"] == "💥 Attackers win by 4: Béarn routs, −2 SP"
    assert "**Fraser's Highlanders** 🎲 5 +1 charging +1 European regulars = **7**" in \
        text_of(message)


async def test_a_general_with_an_apostrophe_and_a_quoted_name_with_a_colon(discord_session):
    message = await reply(discord_session,
                          '/melee fire-at-will attackers:"Fraser\'s Highlanders: inf charging '
                          'general=\\"Lord George\'s\\"" defenders:"\\"Régiment: de Béarn\\": inf '
                          'regular; \\"Ogilvy\'s; 2nd Bn\\": inf" dice:"5 1 3"')
    assert not message.ephemeral, message.content
    assert message.embeds[0]["title"] == "💥 Attackers win by 3: Régiment: de Béarn routs, −2 SP"
    assert "**Ogilvy's; 2nd Bn** retires 3\"" in text_of(message)


async def test_an_unclosed_double_quote_says_how_to_close_it(discord_session):
    message = await reply(discord_session,
                          '/melee fire-at-will attackers:"A: inf general=\\"Lord George\'s" '
                          'defenders:"B: inf"')
    assert message.ephemeral
    assert message.content.startswith("⚠️ attackers #1: a double quote is not closed")
    assert message.content.endswith("Close it (`\"Lord George's\"`), or leave it out: double "
                                    "quotes group a value with spaces; an apostrophe is part "
                                    "of a name and needs none.")
    # Tricorne's words are not Fire at Will's: the hint names none of either.
    tricorne = await reply(discord_session, '/melee tricorne attacker:"Black Watch: highland '
                                            'leader=“Lord Murray" defender:Fusiliers')
    assert tricorne.content.endswith("Close it (`\"Lord Murray\"`), or leave it out: double "
                                     "quotes group a value with spaces; an apostrophe is part "
                                     "of a name and needs none."), tricorne.content


async def test_a_tricorne_lookup_reads_names_and_leaders_with_an_apostrophe(discord_session):
    message = await reply(discord_session,
                          '/melee tricorne attacker:"Lochiel\'s Camerons: highland '
                          'leader=\\"Lord George\'s\\"" defender:"Barrell\'s: regular" '
                          'dice:"inf saber art cav cav  inf flag  saber inf  flag flag cav inf"')
    assert not message.ephemeral, message.content
    assert message.embeds[0]["title"] == (
        "🩸 Lochiel's Camerons scores 2 hits on Barrell's … Lochiel's Camerons retreats 1 hex")
    assert "Lord George's survives and stays with Lochiel's Camerons" in \
        await full_text(discord_session, message)


async def test_le_baton_and_la_bataille_lookups_read_names_with_an_apostrophe(discord_session):
    morale = await reply(discord_session, '/morale le-baton unit:"Barrell\'s: british inf '
                                          'veteran line figures=8" phase:2 dice:4')
    assert morale.embeds[0]["title"] == "🛡️ Barrell's passes"
    assault = await reply(discord_session,
                          '/assault labataille attackers:"Ney\'s 1/45e: infantry morale=34 '
                          'melee=12 fire=6 defence=9 distance=2 inc=4 leader=\\"Ney\'s\\" '
                          'lv=2" defenders:"Wellington\'s 52nd: infantry nation=british '
                          'morale=41 melee=8 fire=5 defence=9 inc=4" dice:"44 52 5 33 41 55" '
                          'choices:no')
    assert not assault.ephemeral, assault.content
    # The question's rolls so far name the units as typed.
    assert "**Ney's 1/45e fire** 🎲 33 vs 1:1 (12:9)" in text_of(assault)
    assert "**Wellington's 52nd fire** 🎲 41 vs 1:1 (10:9)" in text_of(assault)


# --- battles ----------------------------------------------------------------------------------

FIRE_AT_WILL = [
    "/battle start ruleset:fire-at-will name:Culloden",
    '/unit add side:Jacobite name:"Lochiel\'s Camerons" words:"inf morale=4" strength:4',
    '/unit add side:Government name:"Barrell’s" words:"cav morale=4" strength:4',
    '/general add name:"Lord George\'s" side:Jacobite unit:"Lochiel’s Camerons"',
]


async def test_a_fire_at_will_battle_finds_either_apostrophe(battle_session):
    await played(battle_session, *FIRE_AT_WILL)
    charge = await reply(battle_session, '/charge fire-at-will target:"Barrell\'s" '
                                         'chargers:"Lochiel’s Camerons" dice:1 '
                                         'choices:"counter_charge=Lochiel‘s Camerons"',
                         user_id=GM_USER)
    assert charge.embeds[0]["title"] == "↔️ Barrell’s counter-charges Lochiel's Camerons"
    melee = await reply(battle_session, '/melee fire-at-will attackers:"Lochiel’s Camerons: '
                                        'charging" defenders:"Barrell\'s" dice:"6 1"')
    assert not melee.ephemeral, melee.content
    assert melee.embeds[0]["title"] == "💥 Attackers win by 4: Barrell’s routs, −2 SP"
    units, generals = await roster(battle_session)
    # The roster keeps each name as it was first typed.
    assert set(units) == {"Lochiel's Camerons", "Barrell’s"}
    assert generals["Lord George's"].unit_name == "Lochiel's Camerons"


async def test_roster_and_gm_commands_find_either_apostrophe(battle_session):
    await played(battle_session, *FIRE_AT_WILL,
                 '/unit add side:Jacobite name:"Ogilvy’s" words:"inf morale=4" strength:4',
                 '/unit edit unit:"Lochiel’s Camerons" commander:"Lord George’s"',
                 '/gm set unit:"Barrell\'s" field:strength value:3',
                 '/gm general general:"Lord George’s" field:unit value:"Ogilvy\'s"',
                 '/gm set unit:"Barrell\'s" field:status value:gone',
                 '/gm restore unit:"Barrell\'s"')
    units, generals = await roster(battle_session)
    assert units["Lochiel's Camerons"].commander == "Lord George's"
    assert (units["Barrell’s"].strength, units["Barrell’s"].status) == (3, "active")
    assert generals["Lord George's"].unit_name == "Ogilvy’s"
    await played(battle_session, '/general remove name:"Lord George’s"',
                 '/unit remove unit:"Barrell\'s"')
    units, generals = await roster(battle_session)
    assert set(units) == {"Lochiel's Camerons", "Ogilvy’s"} and generals == {}


async def test_a_name_is_taken_whichever_apostrophe_and_may_be_spelled_anew(battle_session):
    await played(battle_session, *FIRE_AT_WILL)
    taken = await reply(battle_session, '/unit add side:Government name:"Barrell\'s" '
                                        'words:"cav morale=4"')
    assert taken.ephemeral
    assert taken.content.startswith(
        "⚠️ There is already a unit or general called `Barrell’s` in this battle.")
    quoted = await reply(battle_session, '/unit add side:Government name:"\\"Wolfe\'s\\"" '
                                         'words:"inf morale=4"')
    assert quoted.ephemeral and "or backticks (an apostrophe is fine)" in \
        quoted.content
    ticked = await reply(battle_session, '/unit add side:Government name:"78th `Fraser`" '
                                         'words:"inf morale=4"')
    assert ticked.content.startswith("⚠️ A name cannot hold a backtick. Use 1 to"), \
        ticked.content
    renamed = await reply(battle_session, '/unit edit unit:"Barrell’s" rename:"Barrell\'s"',
                          user_id=GM_USER)
    assert renamed.content == "✏️ Barrell’s is renamed Barrell's (event #5)."
    units, _ = await roster(battle_session)
    assert set(units) == {"Lochiel's Camerons", "Barrell's"}


TRICORNE = [
    "/battle start ruleset:tricorne name:Culloden",
    '/unit add side:Jacobite name:"Lochiel\'s Camerons" words:highland strength:4',
    '/unit add side:Government name:"Barrell\'s" words:regular strength:4',
    '/unit add side:Government name:"Wolfe’s" words:regular strength:3',
    '/general add name:"Lord Ogilvy’s" side:Government',
]


async def test_a_tricorne_battle_reads_a_name_with_an_apostrophe_before_its_words(
        battle_session):
    await played(battle_session, *TRICORNE)
    message = await reply(battle_session,
                          '/melee tricorne attacker:"Lochiel\'s Camerons: cards=1" '
                          'defender:"Barrell’s" choices:"take_ground=stay" '
                          'dice:"inf inf inf art saber"', user_id=GM_USER)
    assert not message.ephemeral, message.content
    assert message.embeds[0]["title"] == "💥 Lochiel's Camerons eliminates Barrell's"
    assert "+ 1 Command/Combat cards = 5 dice" in await full_text(battle_session, message)
    units, _ = await roster(battle_session)
    assert units["Barrell's"].status == "gone"


async def test_tricorne_answers_and_lone_leaders_find_either_apostrophe(battle_session):
    await played(battle_session, *TRICORNE)
    lone = await reply(battle_session, '/melee tricorne attacker:"Lochiel’s Camerons" '
                                       'defender:"Lord Ogilvy\'s" dice:"saber inf inf cav" '
                                       'choices:"take_ground=stay"', user_id=GM_USER)
    assert lone.embeds[0]["title"] == "💥 Lochiel's Camerons kills Lord Ogilvy’s", lone.content
    asked = await reply(battle_session,
                        '/melee tricorne attacker:"Lochiel’s Camerons" defender:"Barrell’s" '
                        'choices:"take_ground=advance" dice:"inf inf inf inf  flag flag flag"',
                        user_id=GM_USER)
    assert buttons(asked) == ["Attack Wolfe’s", "No bonus melee"]
    answered = await reply(battle_session, "/answer choice:\"Wolfe's\"", user_id=GM_USER)
    # The bonus melee against Wolfe's is rolled; the next question follows it.
    assert "melee** 🎲" in text_of(answered) and "vs Wolfe’s" in text_of(answered)


async def test_le_baton_and_la_bataille_battles_find_either_apostrophe(battle_session):
    await played(battle_session,
                 "/battle start ruleset:le-baton name:Albuera",
                 '/unit add side:French name:"Girard\'s Ligne" words:"french inf veteran '
                 'column" strength:12',
                 '/unit add side:British name:"Colborne\'s Buffs" words:"british inf conscript '
                 'line" strength:8')
    charge = await reply(battle_session, '/charge le-baton charger:"Girard’s Ligne" '
                                         'target:"Colborne’s Buffs" dice:"4 2"')
    assert charge.embeds[0]["title"] == "🛡️ Colborne's Buffs stands: the charge stops 2\" short"
    await played(battle_session,
                 "/battle start ruleset:labataille name:Waterloo",
                 '/unit add side:French name:"Ney\'s 1/45e" words:"infantry morale=34 melee=12 '
                 'fire=6 defence=9" strength:4',
                 '/unit add side:British name:"Wellington\'s 52nd" words:"infantry '
                 'nation=british morale=41 melee=8 fire=5 defence=9" strength:4',
                 channel=CHANNEL + 1)
    assault = await reply(battle_session,
                          '/assault labataille attackers:"Ney’s 1/45e: distance=2" '
                          'defenders:"Wellington’s 52nd" dice:"44 52 5 33 41 55" choices:no',
                          channel_id=CHANNEL + 1, user_id=GM_USER)
    assert not assault.ephemeral, assault.content
    # The question's rolls so far name the units as typed.
    assert "**Ney's 1/45e fire** 🎲 33 vs 1:1 (12:9)" in text_of(assault)
    assert "**Wellington's 52nd fire** 🎲 41 vs 1:1 (10:9)" in text_of(assault)


async def test_autocomplete_finds_either_apostrophe(battle_session):
    await played(battle_session, *FIRE_AT_WILL)
    choices = await battle_session.autocomplete(
        ["melee", "fire-at-will"], {"attackers": "Lochiel’s"}, "attackers", **WHERE)
    assert [c["value"] for c in choices] == ["Lochiel's Camerons"]
    choices = await battle_session.autocomplete(
        ["unit", "edit"], {"unit": "barrell's"}, "unit", **WHERE)
    assert [c["value"] for c in choices] == ["Barrell’s"]
    choices = await battle_session.autocomplete(
        ["melee", "fire-at-will"], {"attackers": '"Lochiel\'s Camerons": char'}, "attackers",
        **WHERE)
    assert [c["value"] for c in choices] == ['"Lochiel\'s Camerons": charging']


# --- huzzah resolve -----------------------------------------------------------------------


def test_resolve_reads_names_with_an_apostrophe_and_answers_naming_them():
    status, response = resolve({"ruleset": "le-baton", "procedure": "morale", "phase": 2,
                                "unit": "Barrell's: british inf veteran line figures=8",
                                "dice": "4"})
    assert (status, response["headline"]) == (0, "Barrell's passes")
    status, response = resolve({
        "ruleset": "fire-at-will", "procedure": "charge",
        "target": {"name": "Barrell's", "arm": "cavalry", "morale": 4},
        "chargers": [{"name": "Fraser's Highlanders", "arm": "infantry", "order": "open"}],
        "dice": "1", "answers": {"counter_charge": "Fraser’s Highlanders"}})
    assert (status, response["headline"]) == (
        0, "Barrell's counter-charges Fraser's Highlanders")
    status, response = resolve({
        "ruleset": "fire-at-will", "procedure": "melee", "dice": "1 2",
        "attackers": [{"name": "Fraser's", "arm": "infantry"}],
        "defenders": [{"name": "Fraser’s", "arm": "infantry"}]})
    assert (status, response["error"]["message"]) == (
        2, "Two units are called `Fraser’s`. Give each unit its own name so the results say "
           "who is who.")


async def test_help_gives_the_quoting_rule(discord_session):
    overview = text_of_pages(await pages(discord_session, "/help"))
    assert "quoting names, settings**: `/help topic:`" in overview
    message = await reply(discord_session, "/help topic:tricorne part:words")
    assert quoting_rule("regular blocks=3") in message.embeds[0]["description"]


async def test_answers_autocomplete_and_a_battle_ends_whichever_apostrophe(battle_session):
    await played(battle_session, *TRICORNE)
    await reply(battle_session, '/melee tricorne attacker:"Lochiel’s Camerons" '
                                'defender:"Barrell’s" choices:"take_ground=advance" '
                                'dice:"inf inf inf inf  flag flag flag"', user_id=GM_USER)
    choices = await battle_session.autocomplete(["answer"], {"choice": "wolfe's"}, "choice",
                                                **WHERE)
    assert [c["value"] for c in choices] == ["Wolfe’s"]
    await played(battle_session, "/battle start ruleset:tricorne name:\"The Prince's Battle\"",
                 channel=CHANNEL + 1)
    ended = await reply(battle_session, "/battle end confirm:\"the prince’s battle\"",
                        user_id=GM_USER, channel_id=CHANNEL + 1)
    assert not ended.ephemeral, ended.content


async def test_a_backtick_typed_in_a_lookup_is_quoted_back_whole_and_battles_refuse_one(
        discord_session):
    refused = await reply(discord_session, '/battle start ruleset:tricorne name:"a`b"')
    assert refused.content.startswith("⚠️ A battle's name cannot hold a backtick."), \
        refused.content
    await reply(discord_session, "/battle start ruleset:tricorne name:Culloden")
    for line, said in [('/unit edit unit:"tick`z" strength:3',
                        "⚠️ There is no unit called `` tick`z `` in this battle."),
                       ('/general remove name:"x`"',
                        "⚠️ There is no general called `` x` `` in this battle.")]:
        missing = await reply(discord_session, line)
        assert missing.ephemeral and missing.content.startswith(said), missing.content


async def test_none_is_no_name_for_a_unit_or_general(discord_session):
    await reply(discord_session, '/battle start ruleset:fire-at-will name:Quebec')
    for line, kind in [('/general add name:None side:French', "general"),
                       ('/unit add name:NONE side:French words:"inf regular morale=4" '
                        'strength:4', "unit")]:
        refused = await reply(discord_session, line)
        assert refused.ephemeral and refused.content.startswith(
            f"⚠️ A {kind} cannot be called `"), refused.content
        assert "the word clears a commander" in refused.content
    assert "0 units" in text_of(await reply(discord_session, "/battle show"))


async def test_a_name_taken_that_reads_as_a_mention_is_quoted_not_shown_as_one(battle_session):
    await played(battle_session, *FIRE_AT_WILL, '/general add name:"<@2>" side:Government')
    taken = await reply(battle_session, '/unit add side:Government name:"<@2>" '
                                        'words:"cav morale=4"')
    assert taken.ephemeral
    assert taken.content.startswith(
        "⚠️ There is already a unit or general called `<@2>` in this battle."), taken.content
