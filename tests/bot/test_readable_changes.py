"""Replies say roster changes as a player would, through the real CommandTree."""

from __future__ import annotations

from .conftest import GM_USER, played, reply, text_of
from .test_le_baton import SETUP, roster, setup  # the same Albuera battle


def effects(message) -> list[str]:
    return [line[2:] for line in text_of(message).split("\n") if line.startswith("📋 ")]


async def test_unit_add_says_the_units_words_plainly(discord_session):
    await reply(discord_session, SETUP[0], user_id=GM_USER)
    added = await reply(discord_session, SETUP[3], user_id=GM_USER)
    assert added.content == ("➕ Lanciers joins the French side: 8 figures, cavalry, lancers, "
                             "veteran (event #2).")


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


async def test_a_unit_that_loses_its_last_sp_leaves_the_battle_and_cannot_be_charged(
        discord_session):
    await played(discord_session, '/battle start ruleset:fire-at-will name:Plains',
                 '/unit add side:British name:"Fraser\'s Highlanders" words:"inf regular '
                 'morale=4" strength:4',
                 '/unit add side:French name:"La Sarre" words:"inf regular morale=4" '
                 'strength:1')
    melee = await reply(discord_session, '/melee fire-at-will attackers:"Fraser\'s '
                                         'Highlanders" defenders:"La Sarre" dice:"6 1"')
    assert text_of(melee).split("\n")[1] == "💥 Attackers win by 5: La Sarre loses its last SP"
    assert effects(melee) == ["La Sarre loses 1 SP (now 0) and leaves the battle"]
    charged = await reply(discord_session, '/charge fire-at-will target:"La Sarre" '
                                           'chargers:"Fraser\'s Highlanders" dice:6')
    assert charged.ephemeral
    assert text_of(charged) == ("⚠️ La Sarre is out of the battle (no SP left). A GM can "
                                "bring it back with `/gm restore`, once `/gm set "
                                "field:strength` gives it some.")


async def test_a_new_formation_the_headline_gives_is_said_once(discord_session):
    await setup(discord_session)
    short = await reply(discord_session, '/morale le-baton unit:"28e Ligne" phase:4 '
                                         'charging:true opponent:Buffs dice:6')
    lines = text_of(short).split("\n")
    assert lines[1] == '↔️ 28e Ligne fails to close: forms line 2" short'
    assert [line for line in lines if "line" in line.split()] == [lines[1]]
    assert (await roster(discord_session))["28e Ligne"].attributes["formation"] == "line"
