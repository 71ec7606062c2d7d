"""/charge, /melee and /surrender for Fire at Will, through the real CommandTree."""

from __future__ import annotations

from bot.offline import OfflineDiscord, command_payload
from bot.render.limits import violations
from bot.render.resolution import COLOURS
from rules.core.records import Severity

from .conftest import reply, steps_of
from .help_pages import fields_of, pages, text_of_pages


def field(embed: dict, name: str) -> str:
    return next(f["value"] for f in embed["fields"] if f["name"].startswith(name))


async def test_charge_posts_the_result_first_with_every_factor(discord_session: OfflineDiscord):
    message = await reply(
        discord_session,
        '/charge fire-at-will target:"2nd Foot" target_type:infantry morale:4 '
        'chargers:"Hussars: cav flank distance=5" dice:2',
    )
    assert message.kind == "response" and not message.ephemeral
    payload = message.request.payload
    assert payload["type"] == 4
    (embed,) = payload["data"]["embeds"]
    assert embed["title"] == "💥 2nd Foot routs, −1 SP"
    assert embed["color"] == COLOURS[Severity.DECISIVE]
    # The headline says the rout and the SP lost: the description has only the roll.
    assert embed["description"] == (
        "**2nd Foot charge test** 🎲 2 +2 non-cavalry charged by cavalry "
        "+1 charged in the flank = **5** vs basic morale 4 → routs"
    )
    assert "fields" not in embed and "author" not in embed
    assert embed["footer"]["text"] == "Dice typed in: 2"


async def test_charge_that_stands_is_green(discord_session):
    message = await reply(
        discord_session,
        '/charge fire-at-will target:Line target_type:infantry morale:5 chargers:"Foot: inf" '
        "dice:3",
    )
    embed = message.embeds[0]
    assert embed["title"] == "🛡️ Line stands: melee follows"
    assert embed["color"] == COLOURS[Severity.NONE]
    assert embed["description"].split("\n") == [
        "No effect on any unit.", "**Line charge test** 🎲 3 vs basic morale 5 → stands"]


async def test_melee_several_units_a_side(discord_session):
    message = await reply(
        discord_session,
        '/melee fire-at-will attackers:"Grenadiers: inf regular charging front; '
        'Rangers: inf open overlap" defenders:"Béarn: inf regular general=Bougainville" '
        'dice:"5 2 3 6 5"',
    )
    embed = message.embeds[0]
    assert embed["title"] == "💥 Attackers win by 3: Béarn routs, −2 SP"
    # The result is said once: Béarn's rout and SP in the title, then one line per unit
    # it falls on besides, then one line per roll with what it was read against.
    assert embed["description"].split("\n") == [
        '**Bougainville** is killed, units of his command within 18" are shaken',
        # Read against no number: the higher score wins.
        "**Grenadiers** 🎲 5 +1 charging +1 European regulars = **7**",
        "**Rangers** 🎲 2 −2 open order or artillery +1 overlapping enemy unit = **1**",
        "**Béarn** 🎲 3 +1 European regulars = **4**",
        "**Risk to Bougainville** 🎲 6 5 = **11** vs row 11-12 (routed from melee table) → "
        "dead",
    ]
    assert "fields" not in embed
    assert violations(message.embeds) == []
    # The steps, with the reminders, are behind the Steps button.
    steps = await steps_of(discord_session, message)
    for name in ("Melee rolls", "factors from the melee table's Infantry column",
                 "Risk to Bougainville (with Béarn, which routed from melee)", "Reminders"):
        assert name in steps
    assert "Attackers' highest score 7, defenders' highest 4." in steps


async def test_obstacle_rule_option_changes_the_reading(discord_session):
    base = ('/melee fire-at-will attackers:"A: inf" defenders:"D: inf behind-obstacle" '
            'dice:"5 2"')
    default = await reply(discord_session, base)
    attacker = await reply(discord_session, base + " obstacle_rule:attacker")
    assert default.embeds[0]["title"] == "🩸 Attackers win by 3: D retires 6\", −2 SP, shaken"
    assert attacker.embeds[0]["title"] == "💥 Attackers win by 3: D routs, −2 SP"


async def test_surrender_situation_choice(discord_session):
    message = await reply(
        discord_session,
        "/surrender fire-at-will unit:Dragoons unit_type:cavalry situation:c dice:5",
    )
    assert message.embeds[0]["title"] == "💥 Dragoons surrenders"


async def test_random_dice_are_used_when_none_are_typed(discord_session):
    message = await reply(
        discord_session, '/melee fire-at-will attackers:"A: cav" defenders:"D: inf"'
    )
    assert message.embeds[0]["footer"]["text"] == "Dice rolled by the bot"


# --- bad input: ephemeral, says how to fix it, never a traceback ------------------------------


async def assert_private(session, line: str, *expected: str) -> None:
    message = await reply(session, line)
    assert message.ephemeral, message
    assert not message.embeds
    for text in expected:
        assert text in message.content, message.content
    assert "Traceback" not in message.content


async def test_typo_in_a_unit_word(discord_session):
    await assert_private(
        discord_session,
        '/melee fire-at-will attackers:"A: inf chargin" defenders:"D: inf"',
        "I don't know `chargin`", "Did you mean `charging`?", "Words you can use",
    )


async def test_typo_in_dice(discord_session):
    await assert_private(
        discord_session,
        '/melee fire-at-will attackers:"A: inf" defenders:"D: inf" dice:"3 8"',
        "`8` is not a face of a d6", "1 to 6",
    )


async def test_too_few_and_too_many_dice(discord_session):
    await assert_private(
        discord_session,
        '/melee fire-at-will attackers:"A: inf" defenders:"D: inf" dice:"3"',
        "Not enough dice: D melee roll needs 1d6",
    )
    await assert_private(
        discord_session,
        '/melee fire-at-will attackers:"A: inf" defenders:"D: inf" dice:"3 3 3"',
        "Too many dice", "unused: 3",
    )


async def test_shaken_charger_is_refused(discord_session):
    await assert_private(
        discord_session,
        '/charge fire-at-will target:T target_type:infantry morale:4 chargers:"C: inf shaken"',
        "C is shaken and may not declare a charge",
    )


async def test_charge_reach_is_enforced(discord_session):
    await assert_private(
        discord_session,
        '/charge fire-at-will target:T target_type:infantry morale:4 '
        'chargers:"C: inf distance=4"',
        'beyond its charge reach of 3"',
    )


async def test_missing_morale_says_which_option(discord_session):
    await assert_private(
        discord_session,
        '/charge fire-at-will target:T target_type:infantry chargers:"C: inf"',
        "T needs its basic morale", "`morale`",
    )


async def test_unit_without_a_type(discord_session):
    await assert_private(
        discord_session,
        '/melee fire-at-will attackers:"Rangers: open" defenders:"D: inf"',
        "say what Rangers is", "cavalry, infantry, artillery or other",
    )


async def test_out_of_range_morale_in_a_raw_payload_is_refused(discord_session):
    # Discord's client enforces min/max itself; a raw payload that breaks it still gets a
    # clear private answer from the engine's own check, not a traceback.
    payload = command_payload(
        discord_session.tree, ["charge", "fire-at-will"],
        {"target": "T", "target_type": "infantry", "chargers": "C: inf"},
        channel_id=100, user_id=1000, guild_id=10,
        application_id=discord_session.application_id,
    )
    payload["data"]["options"][0]["options"].append({"name": "morale", "type": 4, "value": 99})
    dispatch = await discord_session.dispatch(payload)
    (message,) = dispatch.messages
    assert message.ephemeral
    assert "basic morale 99 is out of range" in message.content
    assert "from 1 to 20" in message.content


# --- autocomplete and help ----------------------------------------------------------------------


async def test_unit_words_autocomplete(discord_session):
    choices = await discord_session.autocomplete(
        ["melee", "fire-at-will"], {"attackers": "2nd Foot: inf ch"},
        "attackers", channel_id=100, user_id=1000, guild_id=10,
    )
    assert [c["value"] for c in choices] == ["2nd Foot: inf charging"]
    choices = await discord_session.autocomplete(
        ["melee", "fire-at-will"], {"defenders": "D: "},
        "defenders", channel_id=100, user_id=1000, guild_id=10,
    )
    assert 0 < len(choices) <= 25
    assert all(c["value"].startswith("D: ") for c in choices)


async def test_unit_words_autocomplete_puts_right_an_earlier_misspelt_word(discord_session):
    """The choice picked is the text sent: a typo before the word being finished would go
    with it into the command."""
    async def offered(text: str) -> list[str]:
        choices = await discord_session.autocomplete(
            ["melee", "fire-at-will"], {"attackers": text}, "attackers", channel_id=100,
            user_id=1000, guild_id=10)
        return [c["value"] for c in choices]

    assert await offered("2nd Foot: inf regulr mor") == ["2nd Foot: inf regular morale="]
    assert (await offered("inf chargng "))[0].startswith("inf charging ")
    # A word put right is used: it is not offered again.
    assert await offered("inf regulr re") == ["inf regular rear"]
    # A value, a quoted word and a known word stay as typed.
    assert await offered('2nd Foot: inf general="Sir Jon" ch') == [
        '2nd Foot: inf general="Sir Jon" charging']


async def test_help_lists_every_command_privately(discord_session):
    shown = await pages(discord_session, "/help")
    assert all(message.ephemeral for message in shown)
    commands = text_of_pages(shown)
    assert "**Fire at Will** `fire-at-will`: `/charge` · `/melee` · `/surrender`" in commands
    for name in ("/battle", "/unit", "/gm"):
        assert f"`{name}`" in commands
    assert "`/battle` start · show" in commands and "`/gm` undo · reroll" in commands


async def test_help_topic_lists_the_unit_words(discord_session):
    fields = fields_of(await pages(discord_session, "/help topic:fire-at-will part:words",
                                   part="words"))
    words = next(value for name, value in fields.items() if name.startswith("Melee units"))
    assert "over-obstacle: charging over an obstacle" in words


async def test_le_baton_help_lists_its_words_and_movement(discord_session):
    fields = fields_of(await pages(discord_session, "/help topic:le-baton part:words",
                                   part="words"))
    assert "elite / veteran / conscript" in fields["Units"]
    fields = fields_of(await pages(discord_session, "/help topic:le-baton part:reference",
                                   part="reference"))
    movement = fields["Movement (phases 1, 3 and 8)"]
    assert 'infantry square 0"' in movement and 'light cavalry 14"' in movement
    assert "locked in a firefight" in movement
    assert "horse artillery may unlimber" in movement
