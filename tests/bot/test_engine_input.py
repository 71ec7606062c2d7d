"""Bad input to the rules procedures, through the real CommandTree: each refusal is private,
says what is wrong and how to write it, and changes nothing."""

from __future__ import annotations

from sqlalchemy import select

from bot.storage.models import Battle, Event, Unit

from .conftest import GM_USER, reply, text_of

FORM = ("Write each unit as `Name: words`; where an option takes several, separate them with "
        "`;`: `Name: words; Name: words`.")
CHARGE = '/charge fire-at-will target:"2nd Foot" target_type:infantry morale:4 '

FAW_BATTLE = [
    '/battle start ruleset:fire-at-will name:"Quebec 1759"',
    '/unit add side:British name:"2nd Foot" words:"inf regular morale=4" strength:4',
    '/unit add side:British name:Rangers words:"inf open morale=3" strength:3',
    '/unit add side:French name:Béarn words:"inf regular morale=5 routing" strength:5',
    '/unit add side:French name:"La Sarre" words:"inf regular morale=4" strength:4',
]
LB_BATTLE = [
    "/battle start ruleset:le-baton name:Albuera",
    '/unit add side:French name:"28e Ligne" words:"french inf veteran column" strength:12',
    '/unit add side:British name:Buffs words:"british inf conscript line" strength:8',
    '/unit add side:British name:Guns words:"british art veteran guns=9" strength:4',
]


async def setup(session, lines: list[str]) -> None:
    for line in lines:
        message = await reply(session, line, user_id=GM_USER)
        assert not message.ephemeral, message.content


async def refusal(session, line: str, **where) -> str:
    message = await reply(session, line, **where)
    assert message.ephemeral and not message.embeds, message
    return message.content


async def event_count(session) -> int:
    async with session.client.db.transaction() as s:
        return len(list(await s.scalars(select(Event))))


# --- numbers -------------------------------------------------------------------------------


async def test_a_nan_distance_is_refused_not_read_as_in_reach(discord_session):
    content = await refusal(discord_session, CHARGE + 'chargers:"Hussars: cav distance=nan"')
    # Named by its name, as a roster unit is (below), not by its place in the list.
    assert content == ("⚠️ chargers: Hussars: `distance` must be a number, not `nan`. Write "
                       "it in plain figures, like `4` or `4.5`.")
    unnamed = await refusal(discord_session, CHARGE + 'chargers:"cav distance=nan"')
    assert unnamed.startswith("⚠️ chargers #1: `distance` must be a number, not `nan`.")


async def test_infinite_and_overflowing_distances_are_refused(discord_session):
    for written in ("inf", "infinity", "1e999", "-inf"):
        content = await refusal(discord_session,
                                CHARGE + f'chargers:"Hussars: cav distance={written}"')
        assert f"`distance` must be a number, not `{written}`" in content


async def test_an_absurd_distance_gets_a_bounded_refusal(discord_session):
    content = await refusal(discord_session, CHARGE + 'chargers:"Hussars: cav distance='
                            + "9" * 400 + '"')
    assert content == ("⚠️ chargers: Hussars: `distance` must be a number, not "
                       "`9999999999999999…`. Write it in plain figures, like `4` or `4.5`.")
    content = await refusal(discord_session, CHARGE + 'chargers:"Hussars: cav distance=5000"')
    assert content == "⚠️ chargers: Hussars: `distance` cannot be 5000. It must be at most 1000."


async def test_a_nan_distance_in_a_battle_leaves_no_trace_in_the_log(battle_session):
    await setup(battle_session, FAW_BATTLE)
    before = await event_count(battle_session)
    content = await refusal(battle_session, '/charge fire-at-will target:"2nd Foot" '
                                            'chargers:"La Sarre: distance=nan" dice:3')
    assert content == ("⚠️ chargers: La Sarre: `distance` must be a number, not `nan`. Write "
                       "it in plain figures, like `4` or `4.5`.")
    assert await event_count(battle_session) == before


# --- the unit notation ------------------------------------------------------------------------


async def test_a_name_without_its_colon_is_named_as_such(discord_session):
    content = await refusal(discord_session, CHARGE + 'chargers:"Hussars cav distance=5"')
    assert content == ("⚠️ chargers #1: `Hussars` reads as the unit's name without its colon: "
                       f"write `Hussars: cav distance=5`. {FORM}")


async def test_units_run_together_with_a_comma_are_named_as_such(discord_session):
    content = await refusal(discord_session, '/melee fire-at-will attackers:"A: inf charging, '
                                             'B: inf open" defenders:"C: inf" dice:"1 2 3"')
    assert content == ("⚠️ attackers #1: `A: inf charging, B: inf open` holds more than one "
                       f"unit (`B:` starts another). {FORM} Here: `A: inf charging; B: inf open`.")


async def test_a_roster_name_without_its_colon_in_a_battle(battle_session):
    await setup(battle_session, FAW_BATTLE)
    content = await refusal(battle_session, '/melee fire-at-will attackers:"La Sarre charging" '
                                            'defenders:"2nd Foot" dice:"1 2"')
    assert content == ("⚠️ attackers: put a colon after the unit's name: `La Sarre: charging`. "
                       + FORM)


async def test_a_long_option_naming_no_unit_is_echoed_short_and_says_how_to_fix_it(
        battle_session):
    """A 6,000-character option (Discord's most) is quoted back cut short, so the reply
    keeps the roster's hint instead of being cut off inside the player's text."""
    await setup(battle_session, FAW_BATTLE)
    content = await refusal(battle_session, '/melee fire-at-will attackers:"'
                            + ("x " * 3000)[:6000] + '" defenders:"2nd Foot"')
    assert content == (f"⚠️ There is no unit called `{'x ' * 40}…` in this battle. "
                       "`/unit list` shows the roster; `/unit add` adds a unit; or add "
                       "`lookup:true` for a quick lookup that leaves the battle alone.")


async def test_roster_units_run_together_in_a_battle(battle_session):
    await setup(battle_session, FAW_BATTLE)
    content = await refusal(battle_session, '/melee fire-at-will attackers:"La Sarre" '
                                            'defenders:"2nd Foot: front, Rangers: flank" '
                                            'dice:"1 2 3"')
    assert content == ("⚠️ defenders: `2nd Foot: front, Rangers: flank` holds more than one "
                       f"unit (`Rangers:` starts another). {FORM} Here: "
                       "`2nd Foot: front; Rangers: flank`.")


async def test_one_unit_options_say_so_when_two_are_given(discord_session):
    content = await refusal(discord_session, '/melee le-baton attacker:"A: french inf column '
                            'figures=12, B: british inf line figures=8" defender:"C: british '
                            'inf line figures=8" phase:6')
    assert content.endswith("This option takes one unit, written `Name: words`: give each unit "
                            "its own.")


async def test_a_second_unit_run_in_is_named_whole_not_by_its_last_word(discord_session):
    """Most unit names are two words or more: the refusal names the unit that starts after
    the comma, not the one word its colon is typed on."""
    content = await refusal(discord_session, '/melee fire-at-will attackers:"Grenadiers: inf '
                                             'charging, Black Watch: inf open" '
                                             'defenders:"Béarn: inf"')
    assert content == ("⚠️ attackers #1: `Grenadiers: inf charging, Black Watch: inf open` "
                       "holds more than one unit (`Black Watch:` starts another). "
                       f"{FORM} Here: `Grenadiers: inf charging; Black Watch: inf open`.")
    one = await refusal(discord_session, '/melee le-baton attacker:"Old Guard: french inf '
                        'column figures=12, 2nd Foot: british inf line figures=8" '
                        'defender:"Rifles: british inf skirmish figures=4" phase:6')
    assert "(`2nd Foot:` starts another)" in one


# --- dice ------------------------------------------------------------------------------------


async def test_dice_notation_is_told_apart_from_faces(discord_session):
    content = await refusal(discord_session,
                            '/melee fire-at-will attackers:"A: inf" defenders:"C: inf" dice:2d6')
    assert content == ("⚠️ `2d6` names dice to roll; this option takes the faces you rolled. "
                       "Type the faces you rolled, like `3 5`, not the dice to roll; or leave "
                       "`dice` blank and I roll.")


async def test_dice_errors_name_only_the_dice_the_rule_set_uses(discord_session):
    content = await refusal(discord_session,
                            '/melee fire-at-will attackers:"A: inf" defenders:"C: inf" dice:"3 x"')
    assert content == "⚠️ `x` is not a face of a d6. Type d6 faces as numbers 1 to 6 (`3 5`)."
    content = await refusal(discord_session,
                            '/melee fire-at-will attackers:"A: inf" defenders:"C: inf" '
                            'dice:"inf sab"')
    assert "battle" not in content and "saber" not in content


async def test_the_gm_queue_takes_only_the_battles_dice(battle_session):
    await setup(battle_session, FAW_BATTLE)
    content = await refusal(battle_session, "/gm dice dice:flag", user_id=GM_USER)
    assert content == "⚠️ `flag` is not a face of a d6. Type d6 faces as numbers 1 to 6 (`3 5`)."
    content = await refusal(battle_session, "/gm dice dice:d6", user_id=GM_USER)
    assert content.startswith("⚠️ `d6` names dice to roll")


async def test_the_dice_note_says_exactly_what_the_queue_gave(battle_session):
    await setup(battle_session, FAW_BATTLE)
    await reply(battle_session, '/gm dice dice:"3 4"', user_id=GM_USER)
    message = await reply(battle_session, '/melee fire-at-will attackers:"La Sarre" '
                                          'defenders:"2nd Foot"')
    assert message.embeds[0]["footer"]["text"].startswith("2 dice queued by the GM · #")
    await reply(battle_session, "/gm dice dice:3", user_id=GM_USER)
    message = await reply(battle_session, '/melee fire-at-will attackers:"La Sarre" '
                                          'defenders:"Rangers"')
    assert message.embeds[0]["footer"]["text"].startswith("1 die queued by the GM, 1 rolled · ")


async def test_a_queue_that_ends_inside_a_roll_gives_its_first_dice(battle_session):
    await setup(battle_session, FAW_BATTLE)
    await reply(battle_session, '/general add name:Wolfe side:British unit:"2nd Foot"')
    await reply(battle_session, '/gm dice dice:"6 1 6"', user_id=GM_USER)
    message = await reply(battle_session, '/melee fire-at-will attackers:"La Sarre" '
                                          'defenders:"2nd Foot"')
    embed = message.embeds[0]
    assert embed["footer"]["text"].startswith("3 dice queued by the GM, 1 rolled · ")
    assert "**Risk to Wolfe** 🎲 6 " in embed["description"]


# --- Fire at Will: routing units in melee -----------------------------------------------------


async def test_a_routing_unit_cannot_be_fought_in_melee(battle_session):
    await setup(battle_session, FAW_BATTLE)
    before = await event_count(battle_session)
    content = await refusal(battle_session, '/melee fire-at-will attackers:"2nd Foot: charging" '
                                            'defenders:Béarn dice:"6 1"')
    assert content == (
        "⚠️ Béarn is routing: a routing unit does not fight a melee. A charge on it is settled "
        "by the charge test (`/charge fire-at-will`): it may surrender, otherwise it routs again "
        "and loses 1 SP. If it has rallied, mark it `routing=no` first (in a battle: "
        "`/unit edit`).")
    assert await event_count(battle_session) == before
    async with battle_session.client.db.transaction() as s:
        bearn = await s.scalar(select(Unit).where(Unit.name == "Béarn"))
    assert bearn.strength == 5 and not bearn.attributes.get("shaken")


# --- Le Baton: figures, formations and phases ---------------------------------------------


async def test_a_le_baton_melee_without_figures_is_refused(discord_session):
    content = await refusal(discord_session, '/melee le-baton attacker:"A: french infantry '
                            'column" defender:"B: british infantry line" phase:6')
    assert content == ("⚠️ A needs its number of figures for its melee dice. Give it as "
                       "`figures=N`, 1 or more: a unit of none rolls no dice (in a battle, the "
                       "unit's strength: `/unit edit strength:N`).")


async def test_cavalry_take_no_infantry_formation(discord_session):
    content = await refusal(discord_session, '/morale le-baton unit:"Greys: british cavalry '
                            'heavy-dragoons veteran column" phase:2 dice:3')
    assert content == ("⚠️ Greys is cavalry: column, line, square and skirmish are infantry "
                       "formations. Drop `column`.")


async def test_a_roster_cavalry_unit_cannot_be_given_a_formation(battle_session):
    await setup(battle_session, LB_BATTLE)
    content = await refusal(battle_session, '/unit add side:British name:Greys '
                            'words:"british cav heavy-dragoons column" strength:8',
                            user_id=GM_USER)
    assert content == ("⚠️ Greys is cavalry: column, line, square and skirmish are infantry "
                       "formations. Drop `column`.")


async def test_a_procedure_out_of_its_phase_is_played_with_a_warning(battle_session):
    await setup(battle_session, LB_BATTLE)
    message = await reply(battle_session, '/melee le-baton attacker:"28e Ligne" '
                                          'defender:Buffs phase:6 '
                                          'dice:"4 5 6 1 2 3 4 1 4 4 4 1"')
    assert not message.ephemeral
    warning = "Out of phase: for phase 6, not 1"
    assert f"⏱️ {warning}" in text_of(message)  # said with the result, not only its steps
    async with battle_session.client.db.transaction() as s:
        event = await s.scalar(select(Event).order_by(Event.seq.desc()))
    assert event.resolution["notes"][0] == warning


async def test_a_move_out_of_its_phase_that_asks_says_so_with_the_question(battle_session):
    await setup(battle_session, LB_BATTLE)
    asked = await reply(battle_session, '/morale le-baton unit:"28e Ligne" phase:10 '
                                        'opponent:Buffs dice:3')
    assert asked.embeds[0]["title"] == "❓ 28e Ligne stands. Does it form square?"
    # Said before anyone answers, not only with the result.
    assert asked.embeds[0]["description"].endswith(
        "⏱️ Out of phase: for phase 10, not 1")


async def test_a_procedure_in_its_phase_has_no_warning(battle_session):
    await setup(battle_session, LB_BATTLE)
    message = await reply(battle_session, '/artillery le-baton battery:Guns target:"28e Ligne" '
                                          'target_type:column dice:"1 2 3 1"')
    assert "Out of phase" not in text_of(message)
    for _ in range(2):
        await reply(battle_session, "/battle next", user_id=GM_USER)
    async with battle_session.client.db.transaction() as s:
        battle = await s.scalar(select(Battle))
    assert battle.phase == "3. French move, British shoot"
    message = await reply(battle_session, '/fire le-baton shooter:Buffs target:"28e Ligne" '
                                          'dice:"1 2 3 1"')
    assert "Out of phase" not in text_of(message)
    message = await reply(battle_session, '/fire le-baton shooter:"28e Ligne" target:Buffs '
                                          'dice:"1 2 3 4 5 6"')
    assert "⏱️ Out of phase: for phase 8, not 3" in text_of(message)
