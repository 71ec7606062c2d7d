"""La Bataille through the real CommandTree: the chart result asked with buttons, Huzzah,
the order of assaults, and bad input refused privately with how to fix it."""

from __future__ import annotations

import pytest

from .conftest import CHANNEL, GM_USER, GUILD, PLAYER, full_text, played, reply, send, text_of
from .phone import PHONE_SCREEN, phone_lines, screen
from .test_decisions import buttons

ASSAULT = ('/assault labataille attackers:"1/45e: infantry morale=34 melee=12 fire=6 defence=9 '
           'inc=6 distance=2 leader=Ney lv=2" defenders:"52nd: infantry nation=british '
           'morale=41 melee=8 fire=5 defence=9 inc=5"')


async def press(session, message, label: str):
    return await session.press(message, label, channel_id=CHANNEL, user_id=PLAYER,
                               guild_id=GUILD)


async def test_a_quick_assault_asks_huzzah_then_the_chart_with_buttons(discord_session):
    huzzah = await reply(discord_session, ASSAULT + ' dice:"44 52 5 33 41 55"')
    assert huzzah.embeds[0]["title"] == "❓ Will 52nd Huzzah and turn the tables on 1/45e?"
    assert buttons(huzzah) == ["Huzzah!", "No Huzzah"]
    [_, chart] = await press(discord_session, huzzah, "No Huzzah")
    assert chart.embeds[0]["title"] == ("❓ Read the Assault et Mêlée chart: the 1:2 column, "
                                        "row 61. What does it say?")
    assert buttons(chart)[:4] == ["AS", "AR", "Blank: firefight", "DR0"]
    [result] = await press(discord_session, chart, "DR2")
    text = await full_text(discord_session, result)
    assert result.embeds[0]["title"].endswith("DR2: 52nd routs")
    assert "2 left shifts: 1.5:1 → 1:2" in text
    assert "1/45e: distance 2 has no modifier without a chart pack (give it in `mod`)" in text
    assert "Advance 2 more hexes along the defenders' exact path of retreat" in text


async def test_the_order_of_assaults_on_a_tie(discord_session):
    message = await reply(discord_session, "/order labataille first:French first_assaults:2 "
                                           'second:British second_assaults:2 dice:"3 5"')
    assert message.embeds[0]["title"].endswith(
        "British chooses the first assault (tie: the dice decided)")


async def test_who_chooses_the_first_cavalry_melee(discord_session):
    message = await reply(discord_session, "/order labataille first:French first_assaults:3 "
                                           "second:British second_assaults:1 kind:cavalry")
    assert message.embeds[0]["title"].endswith("French chooses the first cavalry mêlée")
    assert "project reading" in await full_text(discord_session, message)


async def test_bad_input_is_refused_with_how_to_fix_it(discord_session):
    no_morale = await reply(discord_session, '/assault labataille attackers:"A: infantry" '
                                             'defenders:"B: infantry morale=34"')
    assert no_morale.ephemeral and "give A's morale (`morale=34`)" in no_morale.content
    not_d66 = await reply(discord_session, '/assault labataille attackers:"A: morale=37" '
                                           'defenders:"B: morale=34"')
    assert not_d66.ephemeral and "morale 37 is not a d66 value" in not_d66.content
    two = await reply(discord_session, '/charge labataille attackers:"A: morale=34; B: '
                                       'morale=34" defenders:"C: morale=34"')
    assert two.ephemeral and "An Old Guard Charge is one charging stack." in two.content
    no_defence = await reply(discord_session, '/assault labataille attackers:"A: morale=34 '
                                              'melee=12 fire=6" defenders:"B: morale=34 '
                                              'melee=8"')
    assert no_defence.ephemeral and "B: give `defence=N`" in no_defence.content


async def test_a_value_left_out_is_refused_by_name_not_taken_as_zero(discord_session):
    no_melee = await reply(discord_session, '/assault labataille attackers:"A: infantry '
                                            'morale=34" defenders:"B: infantry morale=34 '
                                            'melee=8"')
    assert no_melee.ephemeral
    assert no_melee.content.startswith("⚠️ A has no mêlée value: give it (`melee=12`")
    no_increments = await reply(discord_session, '/assault labataille attackers:"A: morale=34 '
                                                 'melee=12 fire=6 inc=4" defenders:"B: '
                                                 'morale=34 melee=8 defence=9"')
    assert no_increments.ephemeral
    assert ("B's increments are not given, and fire may cost it some: give them (`inc=5`)"
            in no_increments.content)
    no_value = await reply(discord_session, '/assault labataille attackers:"A: morale=34 '
                                            'melee=12 leader=Ney" defenders:"B: morale=34 '
                                            'melee=8"')
    assert no_value.ephemeral and "Ney, with A, has no value: give it (`leader_value=2`)" in \
        no_value.content
    no_threshold = await reply(discord_session, '/cavalry labataille chargers:"Hussars: '
                                                'cavalry morale=44 melee=18 mp=8 '
                                                'nation=prussian" targets:"Jäger: infantry '
                                                'morale=34 melee=4 retreats" spent:2')
    assert no_threshold.ephemeral
    assert "Hussars: no Recall threshold for prussian" in no_threshold.content


FIRE_SETUP = [
    "/battle start ruleset:labataille name:Talavera",
    '/unit add side:French name:"Voltigeurs" words:"infantry morale=34 melee=4 fire=1 '
    'defence=9" strength:2',
    '/unit add side:British name:"Guards" words:"infantry morale=34 melee=12 defence=9" '
    "strength:4",
]
LONG_ODDS = '/assault labataille attackers:Voltigeurs defenders:Guards dice:"45 45 1 65 23"'


async def test_fire_below_the_chart_is_a_battle_setting_named_when_it_applies(battle_session):
    for line in FIRE_SETUP:
        assert not (await reply(battle_session, line, user_id=GM_USER)).ephemeral, line
    lowest = await full_text(battle_session, await reply(
        battle_session, LONG_ODDS + ' choices:"chart_result=AR"'))
    assert "**Voltigeurs fire** 🎲 65 vs 1:3 (2:9) → 1 casualty" in lowest
    assert ("odds below the chart: read on its lowest column, 1:3 (battle setting "
            "`fire_below_chart`: lowest, as the public La Bataille apps read it)") in lowest
    await reply(battle_session, "/gm undo", user_id=GM_USER)
    setting = await reply(battle_session, "/battle setting name:fire_below_chart value:none",
                          user_id=GM_USER)
    assert setting.embeds[0]["title"] == "⚙️ Setting: fire_below_chart = none"
    none = await full_text(battle_session, await reply(
        battle_session, '/assault labataille attackers:Voltigeurs defenders:Guards '
        'dice:"45 45 1 23" choices:"chart_result=AR"'))
    # The setting as typed, in a code span that shows its underscores.
    assert ("Voltigeurs fires on Guards: odds below the chart, no effect (battle setting "
            "`fire_below_chart`: none).") in none


async def test_a_charge_into_a_square_says_how_the_square_counts(discord_session):
    message = await reply(discord_session, '/cavalry labataille chargers:"2e Cuirassiers: '
                                           'cavalry morale=44 melee=18 mp=8 nation=french" '
                                           'targets:"2nd Foot: infantry morale=41 melee=8 '
                                           'inc=5 formation=square" spent:2 dice:"45 1 41" '
                                           'choices:"chart_result=AR"')
    text = await full_text(discord_session, message)
    assert ("2nd Foot is in Square: no chart pack, so the Roll to Stand chart's square "
            "modifier must be given in `mod` (published charts: +12 at Talavera and most games, "
            "+6 in later ones)") in text
    assert ("2nd Foot is in Square: no chart pack, so the Mêlée Modifiers for Cavalry's "
            "square multiplier must be counted in the mêlée values given") in text


async def test_a_result_that_needed_no_die_says_none_was_rolled(discord_session):
    message = await reply(discord_session, '/cavalry labataille chargers:"C: cavalry morale=44 '
                                           'melee=18 mp=8 increments=4" targets:"F: infantry '
                                           'routed morale=41 melee=8 increments=5 zoc=0" '
                                           'spent:5')
    assert message.embeds[0]["footer"]["text"] == "No dice rolled"


async def test_an_answer_given_ahead_that_no_question_took_is_said(discord_session):
    message = await reply(discord_session, '/assault labataille attackers:"1/45e: infantry '
                                           'morale=34 melee=12 fire=6 defence=9 inc=6" '
                                           'defenders:"52nd: infantry morale=41 melee=8 fire=5 '
                                           'defence=9 inc=5" dice:"44 52 5 33 41 55" '
                                           'choices:"chart=DR2; chart_result=DR1; '
                                           'After-Recall=end"')
    # Said as typed, as `/help` writes them.
    assert message.embeds[0]["footer"]["text"].startswith(
        "Dice typed in: 44 52 5 33 41 55 · Not asked: chart=DR2; after_recall=end · ")


def test_a_gm_overrides_with_the_chart_result_he_reads():
    from bot.battles.errors import BattleError
    from bot.cogs.gm import typed_result
    from rules.core.outcomes import Enumeration, Outcome

    # The results of an assault whose chart the player read: the answers on their way.
    found = Enumeration((Outcome("52nd routs; 1/45e advances 2 hexes", (), ("DR1",)),
                         Outcome("52nd is disordered and routs; 1/45e advances 2 hexes", (),
                                 ("DR1",)),
                         Outcome("52nd routs; 1/45e advances 3 hexes", (), ("DR2",))),
                        units=("1/45e", "52nd"))
    assert typed_result(found, "dr2") == found.outcomes[2].key
    with pytest.raises(BattleError) as several:
        typed_result(found, "DR1")
    # Said by what tells them apart, not twice whole.
    assert several.value.message == ("`DR1` fits 2 results, alike but for: “52nd routs” · "
                                     "“52nd is disordered and routs”.")
    # An answer on the roll's way: the same dice, answered again, is the question's.
    assert several.value.hint == ("To keep the dice and answer again, `/gm undo` puts the "
                                  "roll's questions back, the last first: then `/answer "
                                  "choice:DR1` to the one it answers. Or type more of the "
                                  "result.")
    # As the morale and fire dice before the chart vary them.
    many = Enumeration(tuple(
        Outcome(f"1/45e is disordered{' and loses 1 increment' * (n % 2)}; 52nd is "
                f"disordered{' and loses 1 increment' * (n % 3 == 0)}; 52nd routs{'; x' * n}; "
                "1/45e advances 2 hexes", (), ("DR1",)) for n in range(1, 18)),
        units=("1/45e", "52nd"))
    with pytest.raises(BattleError) as seventeen:
        typed_result(many, "DR1")
    assert seventeen.value.message == ("`DR1` answers a question on this roll's way; 17 "
                                       "results follow from it on other dice.")
    found = Enumeration((Outcome("52nd surrenders; Greys advances 1 hex", (), ("DS",)),
                         Outcome("Greys loses 1 increment; 52nd surrenders; Greys advances "
                                 "1 hex", (), ("DS",))), units=("52nd", "Greys"))
    with pytest.raises(BattleError) as several:
        typed_result(found, "DS")
    assert several.value.message == ("`DS` fits 2 results, alike but for: nothing more · "
                                     "“Greys loses 1 increment”.")


def test_a_chart_code_typed_without_its_number_is_told_how_to_pick_one():
    """`DS` for a chart that reads DS3 and DS4 (the impetus after the letters) fits both:
    the refusal says the whole codes, where "not a result the rules allow" was untrue."""
    from bot.battles.errors import BattleError
    from bot.cogs.gm import typed_result
    from rules.core.outcomes import Enumeration, Outcome

    found = Enumeration((Outcome("52nd surrenders; 1/45e advances 4 hexes", (), ("DS3",)),
                         Outcome("52nd surrenders; 1/45e advances 5 hexes", (), ("DS4",)),
                         Outcome("52nd routs; 1/45e advances 2 hexes", (), ("DR1",))),
                        units=("1/45e", "52nd"))
    with pytest.raises(BattleError) as several:
        typed_result(found, "ds")
    assert several.value.message == ("`ds` fits 2 results, alike but for: “1/45e advances "
                                     "4 hexes” · “1/45e advances 5 hexes”.")
    assert several.value.hint == "Type the whole code (`DS3` or `DS4`), or more of the result."
    assert typed_result(found, "DR") == found.outcomes[2].key


def test_an_override_not_found_names_a_unit_of_this_fight_as_an_example():
    from bot.battles.rerolls import not_listed
    from rules.core.outcomes import Enumeration, Outcome

    found = Enumeration((Outcome("52nd routs; 1/45e advances 2 hexes", ()),),
                        units=("1/31e Léger", "1/45e", "52nd"))
    assert "(`1/45e`, say)" in not_listed(found).hint


async def test_the_roster_names_a_nation_once_where_it_is_the_side(battle_session):
    for line in ("/battle start ruleset:labataille name:Talavera",
                 '/unit add side:French name:"1/45e" words:"infantry morale=34 melee=12 '
                 'nation=french" strength:6',
                 '/unit add side:Allies name:"52nd" words:"infantry morale=41 melee=7.5 '
                 'nation=british" strength:5'):
        assert not (await reply(battle_session, line, user_id=GM_USER)).ephemeral, line
    shown = await reply(battle_session, "/unit list", user_id=GM_USER)
    fields = {f["name"]: f["value"] for f in shown.embeds[0]["fields"]}
    assert fields["French"] == "**1/45e** · 6 increments · infantry, morale 34, melee 12"
    assert fields["Allies"] == ("**52nd** · 5 increments · infantry, morale 41, melee 7.5, "
                                "British")


async def test_three_stacks_a_side_are_named_as_a_list(discord_session):
    three = ('/assault labataille attackers:"1/45e: infantry morale=34 melee=12 fire=6 '
             'defence=9 inc=6; 2/45e: infantry morale=34 melee=12 fire=6 defence=9 inc=6; '
             '3/45e: infantry morale=34 melee=12 fire=6 defence=9 inc=6" defenders:"52nd: '
             'infantry morale=41 melee=8 fire=5 defence=9 inc=5 nation=british; 71st: infantry '
             'morale=41 melee=8 fire=5 defence=9 inc=5 nation=british; 95th: infantry '
             'morale=41 melee=8 fire=5 defence=9 inc=5 nation=british" '
             'dice:"61 45 45 65 56 62 5 42 24 31 12 51 34"')
    huzzah = await reply(discord_session, three)
    assert huzzah.embeds[0]["title"] == ("❓ Will 52nd, 71st and 95th Huzzah and turn the tables "
                                         "on 1/45e, 2/45e and 3/45e?")
    # Six morale checks and six volleys: each roll one line of a phone, the question on
    # one screen.
    assert "**1/45e fire** 🎲 42 vs 1:1 (12:9) → 0 casualties" in huzzah.embeds[0]["description"]
    assert phone_lines(huzzah) <= PHONE_SCREEN, "\n".join(screen(huzzah))


async def test_a_gm_setting_strength_past_every_bound_is_told_the_rule_sets_own(battle_session):
    for line in ("/battle start ruleset:labataille name:Talavera",
                 '/unit add side:French name:Hussards words:"cavalry light morale=42 melee=10 '
                 'mp=10 nation=french" strength:3'):
        assert not (await reply(battle_session, line, user_id=GM_USER)).ephemeral, line
    for value in ("41", "1000"):
        refused = await reply(battle_session, f"/gm set unit:Hussards field:strength "
                                              f"value:{value}", user_id=GM_USER)
        assert refused.ephemeral
        assert refused.content == (f"⚠️ Hussards: `increments` cannot be {value}. It must be "
                                   "at most 40."), refused.content


async def test_a_gm_setting_strength_is_told_the_rule_sets_range(battle_session):
    """A value no rule set's check reads (below 0, not a number, past any bound) is refused
    with La Bataille's range, 0 to 40 increments, not the bot's 0 to 999."""
    for line in ("/battle start ruleset:labataille name:Talavera",
                 '/unit add side:French name:Hussards words:"cavalry light morale=42 melee=10 '
                 'mp=10 nation=french" strength:3'):
        assert not (await reply(battle_session, line, user_id=GM_USER)).ephemeral, line
    for value, said in (("-1", "`strength` cannot be below 0."),
                        ("many", "`strength` takes a whole number, not `many`."),
                        ("9" * 20, "`strength` cannot be above 40.")):
        refused = await reply(battle_session, f"/gm set unit:Hussards field:strength "
                                              f"value:{value}", user_id=GM_USER)
        assert refused.ephemeral
        assert refused.content == f"⚠️ {said} Use 0 to 40.", refused.content


def test_a_whole_result_typed_out_is_that_one_though_others_begin_with_it():
    from bot.cogs.gm import typed_result
    from bot.render.words import result_label
    from rules.core.outcomes import Enumeration, Outcome

    start = "52nd loses 1 increment; 52nd routs; " + "1/45e advances 2 hexes; " * 4
    found = Enumeration((Outcome(start + "1/45e is disordered", ()),
                         Outcome(start + "1/45e is disordered; Ney is killed", ())),
                        units=("1/45e", "52nd", "Ney"))
    shown = result_label(start + "1/45e is disordered", found.units, limit=300)
    assert len(shown) > 100  # past the menu's cut: typed out whole
    assert typed_result(found, shown) == found.outcomes[0].key


async def test_a_fire_value_of_0_fires_nothing(discord_session):
    """`fire=0` is read as a stack with no fire value: no shot on the 1:3 column, no
    casualty, no mêlée modifier from one (and no die rolled for it)."""
    message = await reply(discord_session, '/assault labataille attackers:"E: infantry '
                          'morale=11 melee=20 fire=0 defence=6 inc=3" defenders:"F: infantry '
                          'morale=66 melee=2 fire=0 defence=6 inc=2" dice:"2 5 4 6 1 1" '
                          'choices:"chart_result=DR0"')
    assert not message.ephemeral, message.content
    text = await full_text(discord_session, message)
    assert "4. Offensive and Defensive Fire\nNo stack has a fire value: no fire." in text
    assert "casualt" not in text


async def test_the_roster_names_a_nation_its_side_does_not_say_for_every_unit(battle_session):
    """A British stack may Huzzah, one of no nation given may not: on a side called British
    with both, the heading does not say which is which, so the British stack's line does."""
    for line in ('/battle start ruleset:labataille name:Ov sides:"French, British"',
                 '/unit add side:British name:Y words:"infantry morale=44 melee=7 fire=3 '
                 'defence=3 nation=british" strength:4',
                 '/unit add side:British name:Z words:"infantry morale=44 melee=7 fire=3 '
                 'defence=3" strength:4'):
        assert not (await reply(battle_session, line, user_id=GM_USER)).ephemeral, line
    shown = await reply(battle_session, "/unit list", user_id=GM_USER)
    fields = {f["name"]: f["value"] for f in shown.embeds[0]["fields"]}
    assert fields["British"] == (
        "**Y** · 4 increments · infantry, morale 44, melee 7, fire 3, defence 3, British\n"
        "**Z** · 4 increments · infantry, morale 44, melee 7, fire 3, defence 3")


async def test_a_gm_setting_a_units_state_as_its_status_is_pointed_to_the_state(battle_session):
    """`disordered` is no status (`active` or `gone`) but a word of La Bataille's `state`:
    the refusal names that field."""
    for line in ("/battle start ruleset:labataille name:Talavera",
                 '/unit add side:British name:Y words:"infantry morale=44 melee=7 fire=3 '
                 'defence=3 nation=british" strength:4'):
        assert not (await reply(battle_session, line, user_id=GM_USER)).ephemeral, line
    refused = await reply(battle_session, "/gm set unit:Y field:status value:disordered",
                          user_id=GM_USER)
    assert refused.ephemeral
    assert refused.content == (
        "⚠️ `status` is `active` or `gone`, not `disordered`. For `disordered`, use "
        "`field:state value:disordered`. `value:gone` takes the unit out of the battle; "
        "`value:active` brings it back."), refused.content
    done = await reply(battle_session, "/gm set unit:Y field:state value:disordered",
                       user_id=GM_USER)
    assert done.content == "🛠️ Y is now disordered (event #3)."


async def test_a_gm_set_number_reads_as_the_roster_prints_it(battle_session):
    """A melee strength is read as a number that may be a half: 9 is said `9`, as the
    roster line prints it, not `9.0`; a half stays `7.5`."""
    for line in ("/battle start ruleset:labataille name:Talavera",
                 '/unit add side:French name:X words:"infantry morale=35 melee=8 fire=2 '
                 'defence=3" strength:4'):
        assert not (await reply(battle_session, line, user_id=GM_USER)).ephemeral, line
    done = await reply(battle_session, "/gm set unit:X field:melee value:9", user_id=GM_USER)
    assert done.content == "🛠️ X now has melee 9 (event #3)."
    shown = await reply(battle_session, "/unit list", user_id=GM_USER)
    fields = {f["name"]: f["value"] for f in shown.embeds[0]["fields"]}
    assert fields["French"] == ("**X** · 4 increments · infantry, morale 35, melee 9, fire 2, "
                                "defence 3")
    done = await reply(battle_session, "/gm set unit:X field:melee value:7.5", user_id=GM_USER)
    assert done.content == "🛠️ X now has melee 7.5 (event #4)."


BUSSACO = [
    "/battle start ruleset:labataille name:Bussaco",
    '/unit add side:French name:1/45e words:"infantry morale=34 melee=20" strength:6',
    '/unit add side:British name:52nd words:"infantry nation=british morale=34 melee=10" '
    "strength:5",
    '/unit add side:British name:95th words:"infantry morale=34 melee=10" strength:4',
]


async def test_the_markdown_export_says_the_firefights_and_the_question_waiting(battle_session):
    for line in BUSSACO:
        assert not (await reply(battle_session, line, user_id=GM_USER)).ephemeral, line
    huzzah = await reply(battle_session, '/assault labataille attackers:1/45e defenders:52nd '
                                         'dice:"45 45 1 41"')
    # Both sides' units are the GM's: he answers for each.
    where = {"channel_id": CHANNEL, "user_id": GM_USER, "guild_id": GUILD}
    [_, chart] = await battle_session.press(huzzah, "No Huzzah", **where)
    await battle_session.press(chart, "Blank: firefight", **where)
    asked = await reply(battle_session, '/assault labataille attackers:1/45e '
                                        'defenders:"52nd; 95th" dice:"45 45 45 1 41"')
    assert buttons(asked)[0] == "AS"
    exported = await reply(battle_session, "/battle export")
    text = exported.files[0].data.decode()
    assert "### Engagements\n\n- ⚔️ Firefight: 1/45e against 52nd\n" in text
    head = text.split("## Roster")[0]
    assert ("- ❓ Waiting for an answer to “Read the Assault et Mêlée chart: the 1:1 column, "
            "row 41. What does it say?” (#8, asked 20") in head
    assert "<t:" not in text
    # In a file a mention is a bare number: the player is named as the log names him.
    assert head.rstrip().endswith("the player who made the move (player) or a GM")


async def test_a_stack_removed_from_a_firefight_leaves_the_others_locked_in_it(battle_session):
    """The 95th removed, the 52nd is still locked with 1/45e: the firefight goes on, and the
    next Mêlée Segment reminds of it."""
    for line in BUSSACO:
        assert not (await reply(battle_session, line, user_id=GM_USER)).ephemeral, line
    where = {"channel_id": CHANNEL, "user_id": GM_USER, "guild_id": GUILD}
    huzzah = await reply(battle_session, '/assault labataille attackers:1/45e defenders:52nd '
                                         'dice:"45 45 1 41"')
    [_, chart] = await battle_session.press(huzzah, "No Huzzah", **where)
    await battle_session.press(chart, "Blank: firefight", **where)
    await reply(battle_session, '/assault labataille attackers:1/45e defenders:"52nd; 95th" '
                                'dice:"45 45 45 1 41" choices:"chart_result=firefight"')
    removed = await reply(battle_session, "/unit remove unit:95th", user_id=GM_USER)
    assert not removed.ephemeral, removed.content
    shown = text_of(await reply(battle_session, "/battle show"))
    assert "Firefight: 52nd against 1/45e" in shown
    for _ in range(3):
        turn = await reply(battle_session, "/battle next", user_id=GM_USER)
    assert "Firefight: 52nd against 1/45e: fight it again" in text_of(turn)


TWO_STACKS_IN_A_FIREFIGHT = (
    "/battle start ruleset:labataille name:Bussaco",
    '/unit add side:French name:1/45e words:"infantry morale=34 melee=20" strength:6',
    '/unit add side:French name:2/45e words:"infantry morale=34 melee=20" strength:6',
    '/unit add side:British name:52nd words:"infantry nation=british morale=34 melee=10" '
    "strength:5",
    '/unit add side:British name:Hussars words:"cavalry nation=british morale=34 melee=10" '
    "strength:5",
    '/assault labataille attackers:"1/45e; 2/45e" defenders:52nd dice:"45 45 45 1 41" '
    'choices:"huzzah=no; chart_result=firefight"',
)


async def test_a_stack_routed_out_of_a_firefight_is_said_to_leave_it(battle_session):
    """The firefight goes on without the routed stack: "ends" then "begins" would read as a
    new mêlée, with its Huzzah and distance modifiers."""
    for line in TWO_STACKS_IN_A_FIREFIGHT:
        assert not (await reply(battle_session, line, user_id=GM_USER)).ephemeral, line
    routed = await reply(battle_session, '/square labataille stack:2/45e distance:2 '
                                         'cavalry:Hussars dice:35 choices:carre_result=R',
                         user_id=GM_USER)
    text = text_of(routed)
    assert "📋 Firefight: 1/45e against 52nd goes on without 2/45e" in text
    assert "begins" not in text and " ends" not in text, text


async def test_undoing_a_rout_out_of_a_firefight_puts_the_stack_back_in_it(battle_session):
    """The undo says the stack is back in the firefight that went on without it, and a
    firefight the rout had ended goes on again: neither begins as a new mêlée."""
    for line in (*TWO_STACKS_IN_A_FIREFIGHT,
                 '/square labataille stack:2/45e distance:2 cavalry:Hussars dice:35 '
                 'choices:carre_result=R'):
        assert not (await reply(battle_session, line, user_id=GM_USER)).ephemeral, line
    undone = await reply(battle_session, "/gm undo", user_id=GM_USER)
    assert undone.content.splitlines()[1:] == [
        "📋 2/45e is in good order",
        "📋 Firefight: 1/45e and 2/45e against 52nd goes on with 2/45e back in it",
        "📋 2/45e's attempt against Hussars' move is cleared"]
    for line in ('/square labataille stack:2/45e distance:2 cavalry:Hussars dice:35 '
                 'choices:carre_result=R',
                 '/square labataille stack:1/45e distance:2 cavalry:Hussars dice:35 '
                 'choices:carre_result=R'):
        assert not (await reply(battle_session, line, user_id=GM_USER)).ephemeral, line
    undone = await reply(battle_session, "/gm undo", user_id=GM_USER)
    assert "📋 Firefight: 1/45e against 52nd goes on again" in undone.content.splitlines()
    assert "begins" not in undone.content and " ends" not in undone.content, undone.content


async def test_a_stacks_refused_value_names_the_stack_and_a_hint_quotes_a_leader(
        discord_session):
    """A stack with a name is named in what is refused of it, not numbered; a leader's name
    with a space is quoted in the command a hint gives, as it must be typed."""
    nan = await reply(discord_session, '/assault labataille attackers:"1/45e: infantry '
                                       'morale=34 melee=12 leader=Ney leader_value=nan" '
                                       'defenders:"52nd: infantry morale=41 melee=8"')
    assert nan.ephemeral and nan.content == (
        "⚠️ attackers: 1/45e: `leader_value` must be a whole number, not `nan`. Write it in "
        "plain figures, like `4`.")
    unquoted = await reply(discord_session, '/assault labataille attackers:"1/45e: infantry '
                                            'morale=34 melee=12 fire=6 defence=9 '
                                            'leader=“Sir John”" defenders:"52nd: infantry '
                                            'morale=41 melee=8 fire=5 defence=9 '
                                            'nation=british"')
    assert unquoted.ephemeral and unquoted.content.endswith(
        "In a battle: `/gm general general:\"Sir John\" field:value value:2`.")


async def test_no_assaults_leave_nothing_to_order_and_roll_no_dice(discord_session):
    """The text orders the assaults there are: with none on either side nobody chooses, and
    no die is rolled to decide it."""
    for kind, many in (("", "assaults"), (" kind:cavalry", "cavalry-vs-cavalry mêlées")):
        message = await reply(discord_session, "/order labataille first:French "
                                               "first_assaults:0 second:British "
                                               f"second_assaults:0{kind}")
        embed = message.embeds[0]
        assert embed["title"] == f"🛡️ No {many} to resolve: nothing to order"
        assert embed["footer"]["text"] == "No dice rolled"
        assert "🎲" not in text_of(message)
    one_side = await reply(discord_session, "/order labataille first:French first_assaults:0 "
                                            "second:British second_assaults:2")
    assert one_side.embeds[0]["title"] == "🛡️ British orders its assaults: French has none"
    assert ("French 0, British 2: British has the most assaults and chooses first; the other "
            "side has none to alternate with") in await full_text(discord_session, one_side)


async def test_the_old_guards_exploitation_is_said_in_the_public_reply(discord_session):
    """Step 10 is what the Guard's player does next: the public reply says it, not only
    the Steps, beside how the targets left."""
    done = await reply(discord_session, '/charge labataille attackers:"1/1er Grenadiers: '
                       'infantry morale=51 melee=16 fire=8 defence=9 inc=4" '
                       'defenders:"Ross\'s Troop: artillery unsupplied morale=31 melee=4 inc=2"')
    assert done.embeds[0]["title"] == ("🩸 Ross's Troop routs for want of ammunition; "
                                       "1/1er Grenadiers may exploit")


async def test_a_stack_added_with_the_help_examples_inc_takes_it_as_its_increments(
        battle_session):
    """`/help` gives stacks as `inc=5`: copied into `/unit add`, it is the stack's strength,
    as `increments=5` is, not an unknown word "did you mean `inf`?"."""
    for line in ('/battle start ruleset:labataille name:Bussaco sides:"French, British"',
                 '/unit add side:French name:1/45e words:"infantry morale=34 melee=12 inc=6"',
                 '/unit edit unit:1/45e words:"INC=4"'):
        done = await reply(battle_session, line, user_id=GM_USER)
        assert not done.ephemeral, done.content
    assert "**1/45e** · 4 increments" in text_of(await reply(battle_session, "/battle show"))
    twice = await reply(battle_session, '/unit add side:British name:52nd words:"infantry '
                        'morale=41 melee=8 inc=5 increments=6"', user_id=GM_USER)
    assert twice.ephemeral and "given twice, with different numbers" in twice.content


TWO_STACKS = [
    "/battle start ruleset:labataille name:Test",
    *(f'/unit add side:French name:"{n}/31e Léger" words:"infantry morale=34 melee=12 fire=6 '
      'defence=9" strength:4' for n in (1, 2)),
    '/unit add side:British name:"1/88th Foot" words:"infantry nation=british morale=41 '
    'melee=8 fire=5 defence=9" strength:5',
]


async def test_a_typed_answer_says_which_huzzah_it_took(discord_session):
    """`huzzah` is the key of "Huzzah on all" and the start of each Huzzah's label: taken as
    the key, said by its label; a start that several share is refused with them."""
    await played(discord_session, *TWO_STACKS)
    asked = await reply(discord_session, '/assault labataille attackers:"1/31e Léger: '
                        'distance=1; 2/31e Léger: distance=1" defenders:"1/88th Foot" '
                        'dice:"53 44 66 4 31 62 66 41 14 21"', user_id=GM_USER)
    refused = await reply(discord_session, '/answer choice:"Huzzah on"', user_id=GM_USER)
    assert refused.ephemeral and refused.content == (
        "⚠️ `Huzzah on` is the start of several answers to “Will 1/88th Foot Huzzah and turn "
        "the tables on 1/31e Léger and 2/31e Léger?”. Answer “Huzzah on all” (`huzzah`), "
        "“Huzzah on 1/31e Léger only” (`only 1/31e Léger`) or “Huzzah on 2/31e Léger only” "
        "(`only 2/31e Léger`).")
    answered, chart = await send(discord_session, "/answer choice:huzzah", user_id=GM_USER)
    assert answered.message_id == asked.message_id
    assert answered.content == "✅ Answered by player: “Huzzah on all”"
    assert chart.embeds[0]["title"].startswith("❓ Read the Assault et Mêlée chart")
    # The label typed is not said again.
    done, _ = await send(discord_session, "/answer choice:DR1", user_id=GM_USER)
    assert done.content == "✅ Answered by player"
