"""Who may change what: a unit or general by the player who added it or a GM; `/battle next`
by a GM. And the battle commands are offered in servers only, the quick lookups everywhere."""

from __future__ import annotations

import pytest
from sqlalchemy import select, update

from bot.offline import OfflineDiscord, OfflineInputError
from bot.storage.models import Battle, Event, General, Unit

from .conftest import GM_USER, MANAGE_CHANNELS, PLAYER, reply

OPPONENT = 3000
START = '/battle start ruleset:fire-at-will name:"Quebec 1759"'
GM_HINT = ("GMs are whoever started the battle, members with Manage Channel, and the GM role "
           "(`/gm role`).")


async def setup(session: OfflineDiscord) -> None:
    await reply(session, START, user_id=GM_USER)
    await reply(session, '/unit add side:British name:Rangers words:"inf open morale=3" '
                         'strength:3', user_id=PLAYER)
    await reply(session, '/general add name:Wolfe side:British', user_id=PLAYER)


async def state(session: OfflineDiscord):
    async with session.client.db.transaction() as s:
        units = {u.name: (u.strength, u.added_by) for u in await s.scalars(select(Unit))}
        generals = {g.name: g.added_by for g in await s.scalars(select(General))}
        battle = await s.scalar(select(Battle))
        events = len(list(await s.scalars(select(Event))))
    return units, generals, (battle.turn, battle.phase), events


async def test_the_adder_is_recorded(discord_session):
    await setup(discord_session)
    units, generals, _, events = await state(discord_session)
    assert units == {"Rangers": (3, PLAYER)} and generals == {"Wolfe": PLAYER} and events == 3


async def test_an_opponent_cannot_edit_or_remove_what_another_player_added(discord_session):
    await setup(discord_session)
    before = await state(discord_session)
    for line, what in (("/unit remove unit:Rangers", "remove"),
                       ("/unit edit unit:Rangers strength:1", "edit"),
                       ("/general remove name:Wolfe", "remove")):
        refused = await reply(discord_session, line, user_id=OPPONENT)
        assert refused.ephemeral, line
        name, pronoun = ("Wolfe", "him") if "general" in line else ("Rangers", "it")
        assert refused.content == (f"⚠️ Only <@{PLAYER}>, who added {name}, or a GM can "
                                   f"{what} {pronoun}. {GM_HINT}")
    assert await state(discord_session) == before


async def test_the_adder_and_a_gm_may(discord_session):
    await setup(discord_session)
    edited = await reply(discord_session, "/unit edit unit:Rangers strength:2", user_id=PLAYER)
    assert edited.content == "✏️ Rangers loses 1 SP (now 2) (event #4)."
    manager = await reply(discord_session, "/unit edit unit:Rangers strength:1",
                          user_id=OPPONENT, permissions=MANAGE_CHANNELS)
    assert not manager.ephemeral
    await reply(discord_session, "/general remove name:Wolfe", user_id=GM_USER)
    removed = await reply(discord_session, "/unit remove unit:Rangers", user_id=PLAYER)
    assert removed.content.startswith("➖ Rangers removed from the roster")
    units, generals, _, _ = await state(discord_session)
    assert units == {} and generals == {}


async def test_units_from_before_added_by_was_kept_are_the_gms(discord_session):
    await setup(discord_session)
    async with discord_session.client.db.transaction(channel_id=100) as s:
        await s.execute(update(Unit).values(added_by=None))
    refused = await reply(discord_session, "/unit remove unit:Rangers", user_id=PLAYER)
    assert refused.ephemeral
    assert refused.content == ("⚠️ Only a GM can remove Rangers: it was added before Huzzah "
                               f"kept track of who adds what. {GM_HINT}")
    done = await reply(discord_session, "/unit remove unit:Rangers", user_id=GM_USER)
    assert not done.ephemeral
    async with discord_session.client.db.transaction(channel_id=100) as s:
        await s.execute(update(General).values(added_by=None))
    general = await reply(discord_session, "/general remove name:Wolfe", user_id=PLAYER)
    assert general.content == ("⚠️ Only a GM can remove Wolfe: he was added before Huzzah "
                               f"kept track of who adds what. {GM_HINT}")


async def test_only_a_gm_moves_the_battle_on(discord_session):
    await setup(discord_session)
    refused = await reply(discord_session, "/battle next", user_id=PLAYER)
    assert refused.ephemeral
    assert refused.content == ("⚠️ Only the battle's GM can move the battle on to the next "
                               f"phase or turn. {GM_HINT}")
    assert (await state(discord_session))[2] == (1, "shaken and routing units test")
    moved = await reply(discord_session, "/battle next", user_id=GM_USER)
    assert not moved.ephemeral
    assert (await state(discord_session))[2] == (1, "routs and retirements")


# --- servers only ---------------------------------------------------------------------------


async def test_battle_unit_and_general_are_for_servers_only(discord_session):
    tree = discord_session.tree
    for name in ("battle", "unit", "general"):
        schema = tree.get_command(name).to_dict(tree)
        assert schema["contexts"] == [0], name  # a server: no bot DM, no group DM
        assert schema["dm_permission"] is False, name


async def test_quick_lookups_stay_available_everywhere(discord_session):
    tree = discord_session.tree
    for name in ("melee", "charge", "help"):
        schema = tree.get_command(name).to_dict(tree)
        assert schema.get("contexts") in (None, [0, 1, 2]), name
        assert schema.get("dm_permission", True) is True, name


async def test_discord_does_not_offer_battle_commands_in_a_dm(discord_session):
    for path, options in ((["battle", "show"], {}), (["unit", "list"], {}),
                          (["general", "remove"], {"name": "Wolfe"})):
        with pytest.raises(OfflineInputError):
            await discord_session.invoke(path, options, channel_id=100, user_id=PLAYER,
                                         guild_id=None)
