"""`lookup:true`: a quick lookup in a channel with a battle, which leaves the battle alone."""

from __future__ import annotations

from sqlalchemy import select

from bot.offline import OfflineDiscord
from bot.storage.models import Battle, Event, Unit

from .conftest import CHANNEL, GM_USER, GUILD, PLAYER, reply, text_of

SETUP = [
    '/battle start ruleset:fire-at-will name:"Quebec 1759"',
    '/unit add side:British name:Rangers words:"inf open morale=3" strength:3',
    '/unit add side:French name:Béarn words:"inf regular morale=5" strength:5',
]
HUSSARS = ('/charge fire-at-will target:"2nd Foot" target_type:infantry morale:4 '
           'chargers:"Hussars: cav distance=5" dice:2')
PROCEDURES = ["charge", "melee", "surrender", "fire", "artillery", "morale", "recall"]


async def setup(session: OfflineDiscord) -> None:
    for line in SETUP:
        assert not (await reply(session, line, user_id=GM_USER)).ephemeral, line


async def battle_state(session: OfflineDiscord) -> tuple:
    """Everything a lookup must not touch: the events, the units and the dice queue."""
    async with session.client.db.transaction() as s:
        log = [(e.seq, e.kind) for e in await s.scalars(select(Event).order_by(Event.seq))]
        units = [(u.name, u.strength, dict(u.attributes)) for u in await s.scalars(select(Unit))]
        queue = [list(b.dice_queue or []) for b in await s.scalars(select(Battle))]
    return log, units, queue


async def test_a_lookup_in_a_battle_channel_resolves_as_in_any_other_channel(discord_session):
    elsewhere = await reply(discord_session, HUSSARS, channel_id=CHANNEL + 1)
    await setup(discord_session)
    before = await battle_state(discord_session)
    message = await reply(discord_session, HUSSARS + " lookup:true")
    assert not message.ephemeral
    assert message.embeds == elsewhere.embeds
    assert message.embeds[0]["title"] == "💥 2nd Foot routs, −1 SP"
    assert await battle_state(discord_session) == before


async def test_a_lookup_does_not_use_the_dice_the_gm_queued(discord_session):
    await setup(discord_session)
    await reply(discord_session, "/gm dice dice:6", user_id=GM_USER)
    before = await battle_state(discord_session)
    message = await reply(discord_session, '/surrender fire-at-will unit:Pickets situation:a '
                          "unit_type:infantry lookup:true")
    assert message.embeds[0]["footer"]["text"] == "Dice rolled by the bot"
    assert await battle_state(discord_session) == before


async def test_a_lookup_may_use_another_rule_set_than_the_battle(discord_session):
    await setup(discord_session)
    message = await reply(discord_session, '/morale le-baton unit:"Buffs: british inf '
                          'conscript line" phase:7 dice:2 lookup:true')
    assert not message.ephemeral
    assert "Buffs morale" in text_of(message)


async def test_an_unknown_unit_in_a_battle_says_how_to_look_it_up(discord_session):
    await setup(discord_session)
    message = await reply(discord_session, HUSSARS)
    assert message.ephemeral
    assert message.content == (
        "⚠️ There is no unit called `2nd Foot` in this battle. `/unit list` shows the roster; "
        "`/unit add` adds a unit; or add `lookup:true` for a quick lookup that leaves the "
        "battle alone.")


async def test_lookup_false_is_a_move_in_the_battle(discord_session):
    await setup(discord_session)
    message = await reply(discord_session, '/melee fire-at-will attackers:Béarn '
                          'defenders:Rangers dice:"6 1" lookup:false')
    assert message.embeds[0]["footer"]["text"].endswith(" · #4")


async def test_every_procedure_command_takes_the_lookup_option(discord_session):
    await discord_session.start()
    commands = [group.get_command(ruleset)
                for group in map(discord_session.tree.get_command, PROCEDURES)
                for ruleset in ("fire-at-will", "le-baton")]
    commands = [c for c in commands if c is not None]
    assert len(commands) == 9
    for command in commands:
        option = next(p for p in command.parameters if p.name == "lookup")
        assert not option.required, command.qualified_name
        assert option.description == "Just look it up: leave this channel's battle alone"


async def test_lookup_autocompletes_unit_words_not_roster_names(discord_session):
    await setup(discord_session)
    where = {"channel_id": CHANNEL, "user_id": PLAYER, "guild_id": GUILD}
    path = ["melee", "fire-at-will"]
    in_battle = await discord_session.autocomplete(path, {"attackers": "Bé"}, "attackers",
                                                   **where)
    assert [c["value"] for c in in_battle] == ["Béarn"]
    looked_up = await discord_session.autocomplete(
        path, {"attackers": "Grenadiers: inf reg", "lookup": True}, "attackers", **where)
    assert "Grenadiers: inf regular" in [c["value"] for c in looked_up]


async def test_another_rule_set_in_a_battle_channel_points_to_lookup_true(discord_session):
    await setup(discord_session)
    before = await battle_state(discord_session)
    message = await reply(discord_session, '/morale le-baton unit:"Buffs: british inf '
                          'conscript line" phase:7 dice:2')
    assert message.ephemeral
    assert "played with Fire at Will" in text_of(message)
    assert "add `lookup:true` for a quick Le Baton lookup" in text_of(message)
    # Fire at Will has no /morale: the hint names no command that does not exist.
    assert "`/help topic:fire-at-will` lists its commands" in text_of(message)
    assert "/morale fire-at-will" not in text_of(message)
    assert await battle_state(discord_session) == before
    # Its /melee and /charge are named, before the rolls and with the odds.
    for typed, named in (
            ('/melee le-baton attacker:"A: french cav figures=6" defender:"B: british cav '
             'figures=7" phase:6', "/melee fire-at-will"),
            ('/charge odds le-baton charger:"A: french inf column figures=9" target:"B: '
             'british inf line figures=9"', "/charge odds fire-at-will")):
        refused = await reply(discord_session, typed)
        assert refused.ephemeral
        assert f"Use `{named}` here, or add `lookup:true`" in text_of(refused)
    assert await battle_state(discord_session) == before
