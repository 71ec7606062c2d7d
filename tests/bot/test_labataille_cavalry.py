"""La Bataille's cavalry in a battle, through the real CommandTree: a Grand Charge met by a
Reaction Charge (a button, across a restart), one attempt per charge, a charge that falls
short, light cavalry's Recall, and refusals that say how to fix them."""

from __future__ import annotations

from sqlalchemy import select

from bot.client import create_bot
from bot.offline import OfflineDiscord
from bot.storage import Database
from bot.storage.models import Unit

from .conftest import CHANNEL, GM_USER, GUILD, full_text, played, reply, text_of
from .test_battle_safety import url_of
from .test_decisions import buttons

CAVALRY = "cavalry morale=34 melee=16 mp=8"
SETUP = [
    "/battle start ruleset:labataille name:Waterloo",
    f'/unit add side:French name:Hussars words:"{CAVALRY} nation=french charge=charging" '
    "strength:4",
    f'/unit add side:French name:Lancers words:"{CAVALRY} nation=french charge=charging" '
    "strength:4",
    f'/unit add side:British name:"Union Brigade" words:"{CAVALRY} nation=british" strength:6',
    f'/unit add side:British name:"13th Light Dragoons" words:"{CAVALRY} light '
    'nation=british" strength:3',
    '/unit add side:British name:"2nd Foot" words:"infantry morale=41 nation=british" '
    "strength:6",
]


async def setup(session) -> None:
    for line in SETUP:
        assert not (await reply(session, line, user_id=GM_USER)).ephemeral, line


async def press(session, message, label: str):
    # The units were added by the GM, whose units they are: theirs is the choice.
    return await session.press(message, label, channel_id=CHANNEL, user_id=GM_USER,
                               guild_id=GUILD)


async def test_a_grand_charge_in_a_battle_one_attempt_per_charge(db):
    url = url_of(db)
    async with Database(url) as first, OfflineDiscord(create_bot(first)) as session:
        await setup(session)
        asked = await reply(session, '/reaction labataille reactor:"Union Brigade" '
                                     'charger:"Hussars; Lancers" gap:3 dice:"45"')
        assert asked.embeds[0]["title"] == ("❓ Which charging stack accepts Union Brigade's "
                                            "Reaction Charge?")
        assert buttons(asked) == ["Hussars", "Lancers"]
    async with Database(url) as second, OfflineDiscord(create_bot(second)) as session:
        [result] = await press(session, asked, "Lancers")
        text = await full_text(session, result)
        assert result.embeds[0]["title"].endswith("Union Brigade counter-charges Lancers")
        assert "Lancers moves 2, Union Brigade 1 (the gap is odd" in text
        assert "Union Brigade now carries a Charge marker" in text
        again = await reply(session, '/reaction labataille reactor:"Union Brigade" '
                                     'charger:Hussars gap:2 dice:"45"')
        assert again.ephemeral
        assert ("Union Brigade has already made its attempt against Hussars and Lancers' "
                "charge.") in again.content
        assert "a Grand Charge is one charge" in again.content
        unnamed = await reply(session, '/square labataille stack:"2nd Foot" distance:2 '
                                       'dice:"35"')
        assert unnamed.ephemeral and "Name the charging cavalry in `cavalry`" in unnamed.content
        square = await reply(session, '/square labataille stack:"2nd Foot" distance:2 '
                                      'cavalry:Hussars dice:"35" choices:"carre_result=D"',
                             user_id=GM_USER)
        assert square.embeds[0]["title"].endswith("2nd Foot is disordered")
        shown = text_of(await reply(session, "/battle show"))
        assert "2nd Foot's attempt against Hussars' charge" in shown


async def test_a_charge_that_falls_short_and_a_light_recall(battle_session):
    await setup(battle_session)
    short = await reply(battle_session, '/cavalry labataille chargers:Hussars targets:"2nd '
                                        'Foot" reached:false')
    text = text_of(short)
    assert short.embeds[0]["title"].endswith("Hussars falls short: disordered")
    # Said once: as it changed on the roster.
    assert "**Hussars** is disordered" not in text
    assert ("Hussars now carries an inverted Charge marker (it charged this turn) and is now "
            "disordered") in text
    heavy = await reply(battle_session, "/recall labataille chargers:Lancers")
    assert heavy.ephemeral and "only light cavalry may Recall at any time" in heavy.content
    # Not charging: "Light cavalry may attempt to Recall at any time during Charge movement."
    idle = await reply(battle_session, '/recall labataille chargers:"13th Light Dragoons" '
                                       'dice:"5"')
    assert idle.ephemeral and idle.content.startswith(
        "⚠️ 13th Light Dragoons carries no Charge marker: only cavalry that is charging may "
        "Recall. A Charge marker is placed when the charge is declared: `/unit edit "
        'unit:"13th Light Dragoons" words:charge=charging` places it (its player or a GM).')
    await reply(battle_session, '/gm set unit:"13th Light Dragoons" field:charge '
                                'value:charging', user_id=GM_USER)
    asked = await reply(battle_session, '/recall labataille chargers:"13th Light Dragoons" '
                                        'dice:"5"')
    assert buttons(asked) == ["Choose a new target", "End the Charge"]
    [ended] = await press(battle_session, asked, "End the Charge")
    assert ended.embeds[0]["title"].endswith("13th Light Dragoons is recalled")
    assert ("**13th Light Dragoons** regroups 2 hexes back along the charge path, is tired"
            in await full_text(battle_session, ended))


async def test_the_public_footer_names_the_odds_default_in_words_that_say_something(
        discord_session):
    bounced = await reply(discord_session, '/cavalry labataille chargers:"Huss: cavalry '
                          'morale=44 melee=12 mp=9 nation=french" targets:"Drag: cavalry '
                          'morale=41 melee=8 inc=4" dice:"52" choices:"chart_result=bounce"')
    assert bounced.embeds[-1]["footer"]["text"] == (
        "Dice typed in: 52 · Project default: Premier chart's columns")


async def test_a_player_may_not_take_off_the_inverted_charge_marker_a_gm_may(battle_session):
    # "marked with an inverted Charge Marker to indicate that they charged this turn": off
    # again, the cavalry could charge a second time in the turn.
    await setup(battle_session)
    added = await reply(battle_session, f'/unit add side:French name:Chasseurs words:"{CAVALRY} '
                                        'nation=french charge=charging" strength:4')
    assert not added.ephemeral, added.content
    short = await reply(battle_session, '/cavalry labataille chargers:Chasseurs targets:"2nd '
                                        'Foot" reached:false')
    assert short.embeds[0]["title"].endswith("Chasseurs falls short: disordered")
    for words in ("charge=charging", "charge=none"):
        refused = await reply(battle_session, f'/unit edit unit:Chasseurs words:"{words}"')
        assert refused.ephemeral and refused.content == (
            "⚠️ Chasseurs: it charged this turn: its inverted Charge marker stays until the "
            "new turn takes it off. A GM may change it (`/gm set`), to put a mistake right."), \
            refused.content
    # Other words stay the player's; the GM may put a mistake right.
    assert not (await reply(battle_session, '/unit edit unit:Chasseurs words:"mp=9"')).ephemeral
    undone = await reply(battle_session, '/unit edit unit:Chasseurs words:"charge=charging"',
                         user_id=GM_USER)
    assert not undone.ephemeral, undone.content


async def test_skirmishing_cavalry_that_formed_up_stands_in_line_and_may_be_charged(
        battle_session):
    """Summary step 5: the stack that forms up is in line, a formation the roster and every
    command read, so the charge it formed up against goes on against it."""
    await played(battle_session, "/battle start ruleset:labataille name:Vitoria",
                 f'/unit add side:French name:Hussars words:"{CAVALRY} nation=french '
                 'charge=charging" strength:4',
                 '/unit add side:British name:Cossacks words:"cavalry skirmish morale=33 '
                 'melee=6 mp=10 nation=british" strength:2')
    formed = await reply(battle_session, '/formup labataille stack:Cossacks charger:Hussars '
                         'dice:"5 5"', user_id=GM_USER)
    assert "📋 Cossacks is now in line\n" in text_of(formed)
    shown = text_of(await reply(battle_session, "/battle show"))
    assert "**Cossacks** · 2 increments · cavalry, line\n" in shown
    # Its one attempt against the charge is a record, not a fight: no crossed swords.
    assert "\n📌 Cossacks' attempt against Hussars' charge\n" in shown
    # A battle kept from before, where Form Up wrote "line (formed up)", reads it as line.
    async with battle_session.client.db.transaction() as s:
        cossacks = await s.scalar(select(Unit).where(Unit.name == "Cossacks"))
        cossacks.attributes = {**cossacks.attributes, "formation": "line (formed up)"}
    charged = await reply(battle_session, "/cavalry labataille chargers:Hussars "
                          "targets:Cossacks spent:2", user_id=GM_USER)
    assert not charged.ephemeral, charged.content


async def test_a_routed_stack_whose_retreat_takes_its_last_increment_is_out(battle_session):
    """Pursuit losses (8 − 2) ÷ 3 = 2, then one for the Zone of Influence it retreats from:
    3 of 3 increments, and a stack with none left is out of the battle, not a routed 0."""
    await played(battle_session, "/battle start ruleset:labataille name:Fuentes",
                 f'/unit add side:British name:"Royal Dragoons" words:"{CAVALRY} '
                 'nation=british charge=charging" strength:4',
                 '/unit add side:French name:"7e Hussards" words:"cavalry light routed '
                 'morale=34 melee=10 mp=10 nation=french" strength:3')
    charged = await reply(battle_session, '/cavalry labataille chargers:"Royal Dragoons" '
                          'targets:"7e Hussards: zoc=1" spent:2', user_id=GM_USER)
    # "Destroyed" once: the headline's; the roster line keeps the loss.
    assert charged.embeds[0]["title"] == "🩸 7e Hussards is destroyed in its rout"
    assert "📋 7e Hussards loses 3 increments (now 0)\n" in text_of(charged)
    assert text_of(charged).count("destroyed") == 1
    shown = text_of(await reply(battle_session, "/battle show"))
    assert "*out: destroyed*" in shown.split("7e Hussards")[1].split("\n")[0]
    refused = await reply(battle_session, '/assault odds labataille attackers:"Royal Dragoons" '
                          'defenders:"7e Hussards"')
    assert refused.ephemeral and "7e Hussards is out of the battle" in refused.content


async def test_a_refused_charge_says_whether_the_cavalry_is_routed_or_exhausted(
        battle_session):
    """The roster knows which: the refusal names it, not "routed or exhausted"."""
    await played(battle_session, "/battle start ruleset:labataille name:Waterloo",
                 f'/unit add side:French name:Hussars words:"{CAVALRY} nation=french '
                 'exhausted charge=charging" strength:4',
                 f'/unit add side:French name:Lancers words:"{CAVALRY} nation=french '
                 'routed" strength:4',
                 '/unit add side:British name:"2nd Foot" words:"infantry morale=41 melee=8 '
                 'nation=british" strength:6')
    alone = await reply(battle_session, '/cavalry labataille chargers:Hussars targets:"2nd '
                        'Foot" spent:2', user_id=GM_USER)
    rest = ("Exhausted cavalry may not initiate a charge: once your rules let it recover, its "
            "marker comes off (`fatigue=fresh`).")
    assert alone.ephemeral and alone.content == \
        f"⚠️ Hussars is exhausted and cannot charge. {rest}", alone.content
    both = await reply(battle_session, '/cavalry labataille chargers:"Hussars; Lancers" '
                       'targets:"2nd Foot" spent:2', user_id=GM_USER)
    assert both.ephemeral and both.content == (
        "⚠️ Lancers is routed and cannot charge; Hussars is exhausted and cannot charge. "
        f"A routed stack rallies before it charges again. {rest}"), both.content


async def test_a_refused_light_recall_says_why_of_each_stack(discord_session):
    refused = await reply(discord_session, '/recall labataille chargers:"16th LD: cavalry '
                          'light routed morale=44 mp=9 nation=british; 23rd LD: cavalry light '
                          'charge=charged morale=44 mp=9 nation=british" dice:"5"')
    assert refused.ephemeral and refused.content == (
        "⚠️ 16th LD has routed; 23rd LD has already charged this turn: only cavalry still "
        "charging may Recall."), refused.content
