"""Replies say roster changes as a player would, through the real CommandTree."""

from __future__ import annotations

from .conftest import GM_USER, reply, text_of
from .test_le_baton import SETUP, setup  # the same Albuera battle


def effects(message) -> list[str]:
    return [line[2:] for line in text_of(message).split("\n") if line.startswith("📋 ")]


async def test_unit_add_says_the_units_words_plainly(discord_session):
    await reply(discord_session, SETUP[0], user_id=GM_USER)
    added = await reply(discord_session, SETUP[3], user_id=GM_USER)
    assert added.content == ("➕ Lanciers joins the French side: 8 figures, cavalry, veteran "
                             "(event #2).")


async def test_a_melee_and_a_formation_change_read_as_sentences(discord_session):
    await setup(discord_session)
    melee = await reply(discord_session, '/melee le-baton attacker:"28e Ligne" '
                                         'defender:"Buffs: defensive-terrain" phase:6 '
                                         'dice:"4 4 4 4 4 4 4 4 1 1 1 1"')
    assert effects(melee) == ["Melee: 28e Ligne against Buffs begins"]
    formed = await reply(discord_session, "/gm set unit:Buffs field:formation value:column",
                         user_id=GM_USER)
    assert formed.content == "🛠️ Buffs is now in column (event #6)."


async def test_a_charge_marker_recalled_is_said_so(discord_session):
    await setup(discord_session)
    await reply(discord_session, '/charge le-baton charger:Lanciers target:Buffs dice:"2 2 2"')
    await reply(discord_session, '/melee le-baton attacker:Lanciers defender:Buffs phase:6 '
                                 'dice:4')
    recalled = await reply(discord_session, "/recall le-baton unit:Lanciers dice:1")
    assert "Lanciers has its charge marker removed" in effects(recalled)


async def test_unit_edit_reads_as_a_sentence(discord_session):
    await setup(discord_session)
    edited = await reply(discord_session, '/unit edit unit:Lanciers words:"elite british" '
                                          'strength:7 side:British', user_id=GM_USER)
    assert edited.content == ("✏️ Lanciers is now on the British side, loses 1 figure (now 7), "
                              "is now British and is now elite (event #5).")


async def test_a_move_that_changes_nothing_says_so_once(discord_session):
    for line in ('/battle start ruleset:fire-at-will name:Plains',
                 '/unit add side:British name:"78th Highlanders" words:"inf regular morale=4" '
                 'strength:4',
                 '/unit add side:French name:"La Sarre" words:"inf regular morale=4" '
                 'strength:4'):
        assert not (await reply(discord_session, line, user_id=GM_USER)).ephemeral
    stands = await reply(discord_session, '/charge fire-at-will target:"La Sarre" '
                                          'chargers:"78th Highlanders" dice:1')
    text = text_of(stands)
    assert "No effect on any unit." in text
    assert "No change to the roster" not in text
