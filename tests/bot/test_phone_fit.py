"""Battle replies with regiments' full names (15 to 25 characters) read on a phone: a
remark or a roster line does not wrap onto a line of its own for a few characters, nor
say again what the headline says."""

from __future__ import annotations

from .conftest import GM_USER, played, reply
from .phone import phone_lines, screen

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
