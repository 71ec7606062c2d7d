"""Battle replies with regiments' full names (15 to 25 characters) read on a phone: a
remark or a roster line does not wrap onto a line of its own for a few characters, nor
say again what the headline says."""

from __future__ import annotations

from .conftest import GM_USER, played, reply
from .phone import phone_lines, screen
from .test_labataille import press

QUEBEC = [
    "/battle start ruleset:fire-at-will name:Quebec",
    '/unit add side:British name:"78th Fraser\'s Highlanders" words:"inf regular morale=4" '
    "strength:4",
    '/unit add side:French name:"Régiment de la Sarre" words:"inf regular morale=4" strength:4',
    '/unit add side:French name:"Milice de Beauport" words:"inf routing morale=3" strength:4',
    '/general add name:Montcalm side:French unit:"Régiment de la Sarre"',
]


async def test_the_out_of_phase_remark_takes_two_lines_of_a_phone(battle_session):
    await played(battle_session, *QUEBEC)
    message = await reply(battle_session, '/charge fire-at-will target:"Régiment de la Sarre" '
                                          'chargers:"78th Fraser\'s Highlanders: distance=3" '
                                          "dice:3", user_id=GM_USER)
    remark = ("⏱️ Out of phase: a charge is for “charges”, not “shaken and routing units "
              "test”.")
    assert remark in message.embeds[0]["description"].split("\n")
    assert screen(message)[-4:-2] == ["⏱️ Out of phase: a charge is for “charges”,",
                                      "not “shaken and routing units test”."]
    assert phone_lines(message) == 8


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
    assert phone_lines(message) == 16


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
    [answered, chart] = await press(discord_session, asked, "Huzzah on all")
    assert answered.content == "✅ Answered by player" and "embeds" not in \
        answered.request.payload["data"]  # the question keeps its rolls
    assert chart.embeds[0]["title"] == ("❓ Read the Assault et Mêlée chart: the 1:2 column, "
                                        "row 15. What does it say?")
    assert described(chart)[3:] == since
    assert phone_lines(chart) <= 22, "\n".join(screen(chart))
    [result] = await press(discord_session, chart, "DR2")
    assert result.embeds[0]["title"] == "🩸 2/45e routs; DR2: all 3 defenders rout"
    assert described(result)[4:] == since
    assert phone_lines(result) <= 22, "\n".join(screen(result))
