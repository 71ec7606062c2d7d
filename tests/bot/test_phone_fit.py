"""Battle replies with regiments' full names (15 to 25 characters) read on a phone: a
remark or a roster line does not wrap onto a line of its own for a few characters, nor
say again what the headline says."""

from __future__ import annotations

from bot.render.text import phone_lines as text_lines

from .conftest import GM_USER, PLAYER, played, reply, steps_of
from .phone import phone_lines, repeated_effects, screen
from .test_tricorne import MELEE as TRICORNE_MELEE
from .test_tricorne import SETUP as TRICORNE
from .test_tricorne import press

QUEBEC = [
    "/battle start ruleset:fire-at-will name:Quebec",
    '/unit add side:British name:"78th Fraser\'s Highlanders" words:"inf regular morale=4" '
    "strength:4",
    '/unit add side:French name:"Régiment de la Sarre" words:"inf regular morale=4" strength:4',
    '/unit add side:French name:"Milice de Beauport" words:"inf routing morale=3" strength:4',
    '/general add name:Montcalm side:French unit:"Régiment de la Sarre"',
]


async def test_the_out_of_phase_remark_takes_one_line_of_a_phone(battle_session):
    """"a charge is for “charges”, not “shaken and routing units test”" took two lines: the
    remark names the charge's phase and the battle's by their short names."""
    await played(battle_session, *QUEBEC)
    message = await reply(battle_session, '/charge fire-at-will target:"Régiment de la Sarre" '
                                          'chargers:"78th Fraser\'s Highlanders: distance=3" '
                                          "dice:3", user_id=GM_USER)
    remark = "⏱️ Out of phase: for charges, not rout tests"
    assert message.embeds[0]["description"].split("\n")[-1] == remark
    assert text_lines(remark) == 1
    assert screen(message)[-3] == remark
    assert phone_lines(message) == 7


async def test_a_surrender_is_said_in_the_headline_and_the_roster_line_says_what_else(
        battle_session):
    await played(battle_session, *QUEBEC)
    message = await reply(battle_session, '/surrender fire-at-will unit:"Milice de Beauport" '
                                          "situation:c dice:4", user_id=GM_USER)
    assert message.embeds[0]["title"] == "💥 Milice de Beauport surrenders"
    assert screen(message)[:3] == ["💥 Milice de Beauport surrenders",
                                   "📋 Milice de Beauport leaves the battle",
                                   "Milice de Beauport surrender test 🎲 4 vs 4+"]


TWO_A_SIDE = [
    "/battle start ruleset:fire-at-will name:Quebec",
    '/unit add side:British name:"78th Fraser\'s Highlanders" words:"inf regular morale=4" '
    "strength:4",
    '/unit add side:British name:"2nd Foot Guards" words:"inf regular morale=4" strength:4',
    '/unit add side:French name:"Régiment de la Sarre" words:"inf regular morale=4" strength:4',
    '/unit add side:French name:"Régiment de Béarn" words:"inf regular morale=4" strength:4',
]


async def test_a_loss_the_headline_gives_with_an_aside_is_not_said_again_on_the_roster(
        battle_session):
    await played(battle_session, *TWO_A_SIDE)
    message = await reply(battle_session, '/melee fire-at-will attackers:"78th Fraser\'s '
                          'Highlanders: charging; 2nd Foot Guards: charging" '
                          'defenders:"Régiment de la Sarre; Régiment de Béarn" '
                          'dice:"1 3 1 1"', user_id=GM_USER)
    embed = message.embeds[0]
    # The headline's aside has a colon of its own ("tied lowest: first listed"): the loss
    # and the rout are still the headline's, and the roster's line says where it stands.
    assert embed["title"].endswith("Régiment de la Sarre routs, −2 SP (tied lowest: first "
                                   "listed)")
    assert "📋 Régiment de la Sarre: now 2 SP" in embed["description"].split("\n")
    # The factors alike said once above the rolls; the out-of-phase remark on one line.
    assert phone_lines(message) == 13


TALAVERA = [
    "/battle start ruleset:labataille name:Talavera",
    '/unit add side:French name:"1/45e Ligne" words:"infantry morale=34 melee=12 fire=6 '
    'defence=9" strength:6',
    '/unit add side:French name:"2/45e Ligne" words:"infantry morale=34 melee=12 fire=6 '
    'defence=9" strength:6',
    '/unit add side:French name:"1/24e Léger" words:"infantry morale=35 melee=10 fire=5 '
    'defence=8" strength:5',
    '/unit add side:French name:"2e Cuirassiers" words:"cavalry morale=44 melee=18 mp=8 '
    'defence=9 nation=french" strength:4',
    '/unit add side:French name:"3e Cuirassiers" words:"cavalry morale=44 melee=16 mp=8 '
    'defence=9 nation=french" strength:4',
    '/unit add side:French name:"Foot Battery 6/1" words:"artillery morale=33 melee=2 fire=8 '
    'defence=6" strength:2',
    '/unit add side:British name:"1/52nd Foot" words:"infantry morale=41 melee=8 fire=5 '
    'defence=9 nation=british" strength:5',
    '/unit add side:British name:"2/52nd Foot" words:"infantry morale=41 melee=8 fire=5 '
    'defence=9 nation=british" strength:5',
    '/unit add side:British name:"1/95th Rifles" words:"infantry morale=44 melee=6 fire=6 '
    'defence=10 nation=british" strength:4',
    '/unit add side:British name:"16th Light Dragoons" words:"cavalry light morale=44 '
    'melee=12 mp=9 nation=british" strength:3',
    '/unit add side:British name:"Ross\'s Troop RHA" words:"artillery morale=41 melee=2 '
    'fire=7 defence=6 nation=british" strength:2',
    '/unit add side:British name:"2nd Foot" words:"infantry morale=41 melee=8 fire=5 '
    'defence=9 nation=british" strength:5',
    '/general add name:Ney side:French unit:"1/45e Ligne" value:2',
    '/general add name:Wellington side:British unit:"1/52nd Foot" value:2',
]


async def test_battle_show_gives_twelve_stacks_a_line_each_and_leaves_their_values_to_unit_list(
        battle_session):
    """Each stack's morale, melee, fire and defence wrapped its line onto two or three lines of
    a phone (35 in all): `/battle show` gives a line a stack, its general's value on it, and
    `/unit list` the values."""
    await played(battle_session, *TALAVERA)
    shown = await reply(battle_session, "/battle show")
    assert screen(shown) == [
        "⚔️ Talavera", "La Bataille · Turn 1, Maneuver Segment", "GM: <@2000>",
        "French",  # the side first named first
        "1/45e Ligne · 6 increments · infantry · with", "Ney (value +2)",
        "2/45e Ligne · 6 increments · infantry",
        "1/24e Léger · 5 increments · infantry",
        "2e Cuirassiers · 4 increments · cavalry,", "French",
        "3e Cuirassiers · 4 increments · cavalry,", "French",
        "Foot Battery 6/1 · 2 increments · artillery",
        "British",
        "1/52nd Foot · 5 increments · infantry · with", "Wellington (value +2)",
        "2/52nd Foot · 5 increments · infantry",
        "1/95th Rifles · 4 increments · infantry",
        "16th Light Dragoons · 3 increments · light", "cavalry",
        "Ross's Troop RHA · 2 increments · artillery",
        "2nd Foot · 5 increments · infantry",
        "12 units · 15 events · side: shows one side ·", "values: /unit list"]
    listed = await reply(battle_session, "/unit list")
    lines = "\n".join(screen(listed))
    assert ("1/52nd Foot · 5 increments · infantry, morale\n41, melee 8, fire 5, defence 9 · "
            "with\nWellington (value +2)") in lines, lines
    assert "Generals" not in lines
    assert screen(listed)[-1] == "12 units · 15 events · side: shows one side"
    assert phone_lines(listed) == 32


STACK = "infantry morale=34 melee=12 fire=6 defence=9 inc=6"
BRITISH = "infantry morale=41 melee=8 fire=5 defence=9 inc=5 nation=british"
THREE_ON_THREE = (f'/assault labataille attackers:"1/45e: {STACK} distance=2 leader=Ney lv=2; '
                  f'2/45e: {STACK} distance=2 disordered; 3/45e: {STACK} distance=1" '
                  f'defenders:"52nd: {BRITISH}; 71st: {BRITISH} leader=Crauford lv=1; '
                  f'95th: {BRITISH} disordered" ')
def described(message) -> list[str]:
    return message.embeds[0]["description"].split("\n")


async def test_the_replies_after_the_huzzah_do_not_repeat_the_rolls_on_the_question_above(
        discord_session):
    """The Huzzah question keeps its thirteen rolls once answered: the chart's question
    after it (34 lines of a phone) and the result that takes its place (36) gave them
    again. They point to them, and give the rolls made since."""
    asked = await reply(discord_session, THREE_ON_THREE + 'dice:"61 45 45 65 56 62 5 62 64 61 '
                        '62 61 64 52 32 66 14"')
    assert asked.embeds[0]["title"] == ("❓ Will 52nd, 71st and 95th Huzzah and turn the tables "
                                        "on 1/45e, 2/45e and 3/45e?")
    assert len([line for line in described(asked) if "🎲" in line]) == 13
    since = [
        "🎲 13 earlier rolls: on the question above",
        "**1/45e Huzzah morale** 🎲 52 +2 Ney = **54** vs > 34 → passes",
        "**2/45e Huzzah morale** 🎲 32 −3 disordered infantry = **25** vs > 34 → fails",
        "**3/45e Huzzah morale** 🎲 66 vs > 34 → passes",
        "**mêlée** 🎲 14 +9 attackers' fire −9 defenders' fire +2 Ney (attacking) −1 Crauford "
        "(defending) = **15** vs 1:2 column"]
    [answered, chart] = await press(discord_session, asked, "Huzzah on all", user=PLAYER)
    assert answered.content == "✅ Answered by player" and "embeds" not in \
        answered.request.payload["data"]  # the question keeps its rolls
    assert chart.embeds[0]["title"] == ("❓ Read the Assault et Mêlée chart: the 1:2 column, "
                                        "row 15. What does it say?")
    assert described(chart)[3:] == since
    assert phone_lines(chart) <= 22, "\n".join(screen(chart))
    [result] = await press(discord_session, chart, "DR2", user=PLAYER)
    assert result.embeds[0]["title"] == "🩸 2/45e routs; DR2: all 3 defenders rout"
    assert described(result)[3:] == since
    assert phone_lines(result) <= 22, "\n".join(screen(result))


HUZZAH_DICE = 'dice:"61 45 45 65 56 62 5 62 64 61 62 61 64 52 32 66 14"'


async def test_an_assault_given_every_answer_ahead_says_a_sides_target_once(discord_session):
    """The Huzzah's assault with its answers given ahead, its seventeen rolls in one reply,
    took 34 lines of a phone: a side's morale checks, read against its morale and passed
    alike, have the target and the result said once above them, each stack's dice and
    total still on a line of its own; units on which the same effects fall are named
    together (30 lines)."""
    result = await reply(discord_session, THREE_ON_THREE + HUZZAH_DICE +
                         ' choices:"huzzah=huzzah; chart_result=DR2"')
    assert result.embeds[0]["title"] == "🩸 2/45e routs; DR2: all 3 defenders rout"
    assert described(result) == [
        "**52nd** and **1/45e**: each loses 3 increments",
        "**52nd**, **71st** and **95th**: each routs",
        "**1/45e** and **3/45e**: each advances 3 hexes (the target hex + 2 impetus), is "
        "disordered",
        "Morale vs > 34, each passes:",
        "**1/45e** 🎲 61 +2 Ney = **63**",
        "**2/45e** 🎲 45 −3 disordered infantry = **42**",
        "**3/45e** 🎲 45",
        "Morale vs > 41, each passes:",
        "**52nd** 🎲 65",
        "**71st** 🎲 56 +1 Crauford = **61**",
        "**95th** 🎲 62 −3 disordered infantry = **55**",
        "**defender column shifts** 🎲 5 → 2 left",
        "**1/45e fire** 🎲 62 vs 1:1 (12:9) → 1 casualty",
        "**2/45e fire** 🎲 64 vs 1:1 (12:9) → 1 casualty",
        "**3/45e fire** 🎲 61 vs 1:1 (12:9) → 1 casualty",
        "**52nd fire** 🎲 62 vs 1:1 (10:9) → 1 casualty",
        "**71st fire** 🎲 61 vs 1:1 (10:9) → 1 casualty",
        "**95th fire** 🎲 64 vs 1:1 (10:9) → 1 casualty",
        # Their results differ: a line each says its own, as the target said once would not
        # save a line.
        "**1/45e Huzzah morale** 🎲 52 +2 Ney = **54** vs > 34 → passes",
        "**2/45e Huzzah morale** 🎲 32 −3 disordered infantry = **25** vs > 34 → fails",
        "**3/45e Huzzah morale** 🎲 66 vs > 34 → passes",
        "**mêlée** 🎲 14 +9 attackers' fire −9 defenders' fire +2 Ney (attacking) −1 Crauford "
        "(defending) = **15** vs 1:2 column"]
    assert phone_lines(result) == 30, "\n".join(screen(result))
    assert not repeated_effects(result)
    # The Steps give each roll whole: its label, its target and its result.
    steps = (await steps_of(discord_session, result)).split("\n")
    assert "**2/45e morale** 🎲 4 5 −3 disordered infantry = **42** vs > 34 → passes" in steps


THREE_A_SIDE = [
    *TWO_A_SIDE,
    '/unit add side:British name:"15th Regiment of Foot" words:"inf regular morale=4" '
    "strength:4",
    '/unit add side:French name:"Régiment de Guyenne" words:"inf regular morale=4" strength:4',
    '/general add name:Montcalm side:French unit:"Régiment de la Sarre"',
    '/general add name:Wolfe side:British unit:"78th Fraser\'s Highlanders"',
]
THREE_CHARGE = ('/melee fire-at-will attackers:"78th Fraser\'s Highlanders: charging; 2nd Foot '
                'Guards: charging; 15th Regiment of Foot: charging" defenders:"Régiment de la '
                'Sarre{sarre}; Régiment de Béarn; Régiment de Guyenne" dice:"{dice}"')


async def test_three_charging_battalions_against_three_say_their_shared_factors_once(
        battle_session):
    """Six melee rolls wrapped onto two phone lines each (25 lines in all, with a surrender
    test and a general's risk): units whose factors are alike have them said once, above
    their rolls, each roll still on a line of its own with its die and total."""
    await played(battle_session, *THREE_A_SIDE)
    message = await reply(battle_session, THREE_CHARGE.format(sarre=": rear",
                                                              dice="6 1 1 1 1 1 1 1 1"),
                          user_id=GM_USER)
    lines = message.embeds[0]["description"].split("\n")
    assert message.embeds[0]["title"] == "💥 Attackers win by 6: Régiment de la Sarre routs, " \
                                         "−2 SP"
    assert lines[2:10] == [
        "Each +1 charging +1 European regulars:",
        "**78th Fraser's Highlanders** 🎲 6 = **8**",
        "**2nd Foot Guards** 🎲 1 = **3**",
        "**15th Regiment of Foot** 🎲 1 = **3**",
        "**Régiment de la Sarre** 🎲 1 +1 European regulars −2 attacked in the rear = **0**",
        "Each +1 European regulars:",
        "**Régiment de Béarn** 🎲 1 = **2**",
        "**Régiment de Guyenne** 🎲 1 = **2**"]
    assert "**Régiment de la Sarre surrender test** 🎲 1 vs 4+ (foot) → does not surrender" \
        in lines
    assert phone_lines(message) == 21
    assert not repeated_effects(message)
    # The Steps give each roll whole, with the column its factors come from.
    steps = (await steps_of(battle_session, message)).split("\n")
    assert "**2nd Foot Guards** 🎲 1 +1 charging +1 European regulars = **3**" in steps
    assert "  ‣ factors from the melee table's Infantry column" in steps


async def test_a_three_a_side_melee_lost_by_the_attackers_fits_a_phone(battle_session):
    """Each side's three units roll alike: their factors said once a side, above a line
    for each unit's die and total (24 phone lines before, with the out-of-phase remark)."""
    await played(battle_session, *THREE_A_SIDE)
    message = await reply(battle_session, THREE_CHARGE.format(sarre="",
                                                              dice="1 1 1 4 2 2 3 4"),
                          user_id=GM_USER)
    assert screen(message) == [
        "💥 Defenders win by 2: 78th Fraser's", "Highlanders routs, −2 SP (tied lowest: first",
        "listed)", "2nd Foot Guards and 15th Regiment of Foot:", 'each retires 3"',
        "📋 78th Fraser's Highlanders: now 2 SP",
        "Each +1 charging +1 European regulars:", "78th Fraser's Highlanders 🎲 1 = 3",
        "2nd Foot Guards 🎲 1 = 3", "15th Regiment of Foot 🎲 1 = 3",
        "Each +1 European regulars:", "Régiment de la Sarre 🎲 4 = 5",
        "Régiment de Béarn 🎲 2 = 3", "Régiment de Guyenne 🎲 2 = 3",
        "Risk to Wolfe 🎲 3 4 = 7 vs row 2-7 (routed", "from melee table) → no effect",
        "⏱️ Out of phase: for melee, not rout tests",
        "Dice typed in: 1 1 1 4 2 2 3 4 · #10", "[row of 3]"]
    assert not repeated_effects(message)


async def test_a_tricorne_melee_with_its_bonus_melee_and_battle_back_fits_a_phone(
        battle_session):
    """The melee of `test_tricorne`'s battle, with its three questions: the roster's line
    said again the rout the headline gives ("and routs off the field") and the move that
    taking ground is ("has moved this turn"), 21 lines in all."""
    await played(battle_session, *TRICORNE)
    asked = await reply(battle_session, TRICORNE_MELEE, user_id=PLAYER)
    [_, ground] = await press(battle_session, asked, "Stand and fight")
    [_, bonus] = await press(battle_session, ground, "Take ground")
    [result] = await press(battle_session, bonus, "Attack Fusiliers")
    assert screen(result) == [
        "✅ Answered by player",
        "💥 Black Watch scores 2 hits on Dragoons;", "Dragoons retreats 2 hexes and routs …",
        "Black Watch wins a Victory Banner, takes", "ground 1 hex",
        "📋 Dragoons loses 2 blocks (now 2)", "📋 Fusiliers loses 2 blocks (now 1)",
        # The question above gives the melee and the rally check; the bonus melee's and the
        # battle back's dice say how many and why, as the screen has room.
        "🎲 2 earlier rolls: on the question above",
        "Black Watch melee 🎲 saber cav cav inf (4",
        "dice: 2 highland, +1 full strength, +1 leader",
        "attached, +1 Highland Battle Bonus, −1 moved",
        "(ordered infantry)) vs Fusiliers (infantry) →", "2 hits",
        "Fusiliers battles back 🎲 cav cav (2 dice:",
        "regular) vs Black Watch (infantry) → 0 hits",
        "⏱️ Out of phase: for combat, not card play",
        "Dice typed in · #10 · 📜 2 project defaults",
        "[row of 3]"]
    assert not repeated_effects(result)
    # The Steps keep what taking ground is; the roster keeps the move.
    assert "Black Watch takes ground: it counts as movement." in \
        await steps_of(battle_session, result)
    listed = await reply(battle_session, "/unit list")
    assert "moved" in next(line for line in screen(listed) if "Black Watch" in line)


COPE_WITH_FUSILIERS = [*TRICORNE[:-1], "/general add name:Cope side:Government unit:Fusiliers",
                       *["/battle next"] * 3]  # to the combat phase


async def test_a_bonus_melee_that_hits_a_leader_and_a_battle_back_fit_a_phone(battle_session):
    """A bonus melee whose hits call for the attached leader's casualty check, then the
    battle back: the roster's lines no longer say the rout and the move again."""
    await played(battle_session, *COPE_WITH_FUSILIERS)
    result = await reply(battle_session, '/melee tricorne attacker:"Black Watch" '
                         'defender:Dragoons dice:"cav cav flag inf inf  flag flag  inf inf cav '
                         'cav  inf inf  cav art art" choices:"retire=stand; take_ground=advance; '
                         'bonus_melee=Fusiliers"', user_id=GM_USER)
    assert screen(result) == [
        "💥 Black Watch scores 2 hits on Dragoons;", "Dragoons retreats 2 hexes and routs …",
        "Black Watch wins a Victory Banner, takes", "ground 1 hex",
        "📋 Dragoons loses 2 blocks (now 2)", "📋 Fusiliers loses 2 blocks (now 1)",
        "Black Watch melee 🎲 cav cav flag inf inf vs",
        "Dragoons (cavalry) → 2 hits, 1 flag; 🎲 inf",
        "inf cav cav vs Fusiliers (infantry) → 2 hits",
        "Dragoons rally check 🎲 flag flag vs its own", "symbol or a saber → fails",
        "Cope leader casualty check 🎲 inf inf vs 2", "sabers kill → survives",
        "Fusiliers battles back 🎲 cav art art vs Black", "Watch (infantry) → 0 hits",
        "Dice typed in · #10 · 📜 3 project defaults",
        "[row of 3]"]
    assert not repeated_effects(result)


def test_every_out_of_phase_remark_takes_one_line_of_a_phone():
    """Each rule set's remark, for each procedure that has a phase, in each phase of its
    battle: the phases' short names (Le Baton's numbers) keep it to one line."""
    from rules.core.roster import Roster
    from rules.registry import RULESETS
    options = [{}, {"phase": 7}, {"phase": 11}]
    remarks = set()
    for entry in RULESETS.values():
        rules = entry.battle
        if rules is None or rules.phase_warning is None:
            continue
        for procedure in ("melee", "charge", "assault", "fire", "artillery-fire", "morale",
                          "recall"):
            for phase in rules.phases:
                # A morale check without its phase is refused before it is played.
                remarks.update(rules.phase_warning(procedure, given, Roster(), phase)
                               for given in options if given or procedure != "morale")
    remarks.discard(None)
    assert "Out of phase: for phases 3–5, 8–10, not 1" in remarks  # a charger of no nation
    assert len(remarks) > 40
    assert [r for r in remarks if text_lines(f"⏱️ {r}") > 1] == []


def test_rolls_read_alike_keep_every_word_of_their_units_names():
    """"1/45e Ligne morale" and "2/45e Ligne morale" end alike in "Ligne morale", but only
    "morale" is what they roll for (the step says it): the names keep "Ligne"."""
    from bot.render.resolution import public_roll_lines
    from rules.core.dice import plain_readings
    from rules.core.records import Modifier, Roll, Step

    rolls = tuple(Roll(f"{name} morale", "d66", (4, 5), (Modifier(-3, "disordered infantry"),),
                       total=42, target="> 34", result="passes",
                       readings=plain_readings((4, 5)))
                  for name in ("1/45e Ligne", "2/45e Ligne", "3/45e Ligne"))
    lines = public_roll_lines([Step("3a. Attacker morale check", "All pass.", rolls)])
    # Said together, "morale" above, each stack by its whole name.
    assert lines == ["Morale vs > 34, each passes:",
                     *(f"**{n}/45e Ligne** 🎲 45 −3 disordered infantry = **42**"
                       for n in (1, 2, 3))]
