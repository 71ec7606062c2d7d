"""One word for a unit's strength, named by its rule set: SP in Fire at Will, figures in
Le Baton. The words of `/unit add` and `/unit edit` take it, and every reply uses it."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from bot.offline import OfflineDiscord
from bot.storage.models import Event, Unit
from rules.core.roster import strength_count, strength_word
from rules.registry import RULESETS

from .conftest import GM_USER, reply, text_of
from .help_pages import fields_of, pages

LE_BATON = '/battle start ruleset:le-baton name:Bussaco'
FIRE_AT_WILL = '/battle start ruleset:fire-at-will name:"Quebec 1759"'
BATTLE_RULESETS = [r for r in RULESETS.values() if r.battle is not None]


async def gm(session: OfflineDiscord, line: str):
    return await reply(session, line, user_id=GM_USER)


async def strengths(session: OfflineDiscord) -> dict[str, int | None]:
    async with session.client.db.transaction() as s:
        return {u.name: u.strength for u in await s.scalars(select(Unit))}


async def event_count(session: OfflineDiscord) -> int:
    async with session.client.db.transaction() as s:
        return len(list(await s.scalars(select(Event))))


async def test_figures_among_le_baton_words_set_the_strength(discord_session):
    await gm(discord_session, LE_BATON)
    added = await gm(discord_session, '/unit add side:French name:"4e Léger" '
                                      'words:"french inf veteran column figures=12"')
    assert added.content == ("➕ 4e Léger joins the French side: 12 figures, infantry, "
                             "veteran, column (event #2).")
    assert (await strengths(discord_session)) == {"4e Léger": 12}
    shown = await reply(discord_session, "/battle show")
    assert "**4e Léger** · 12 figures · infantry, veteran, column" in text_of(shown)


async def test_sp_among_fire_at_will_words_sets_the_strength(discord_session):
    await gm(discord_session, FIRE_AT_WILL)
    added = await gm(discord_session, '/unit add side:French name:"La Sarre" '
                                      'words:"inf regular morale=4 sp=4"')
    assert added.content == ("➕ La Sarre joins the French side: 4 SP, infantry, regular, "
                             "morale 4 (event #2).")
    assert (await strengths(discord_session)) == {"La Sarre": 4}


async def test_the_option_confirms_in_the_rule_sets_word(discord_session):
    await gm(discord_session, LE_BATON)
    added = await gm(discord_session, '/unit add side:British name:52nd '
                                      'words:"british inf veteran line" strength:8')
    assert added.content.startswith("➕ 52nd joins the British side: 8 figures, ")
    same = await gm(discord_session, '/unit add side:British name:Buffs '
                                     'words:"british inf line figures=6" strength:6')
    assert not same.ephemeral and (await strengths(discord_session))["Buffs"] == 6


async def test_two_different_strengths_are_refused_and_nothing_changes(discord_session):
    await gm(discord_session, LE_BATON)
    refused = await gm(discord_session, '/unit add side:British name:52nd '
                                        'words:"british inf line figures=10" strength:12')
    assert refused.ephemeral
    assert refused.content == ("⚠️ The strength is given twice: `strength:12` and "
                               "`figures=10`. Give it once, either way.")
    assert await strengths(discord_session) == {}
    assert await event_count(discord_session) == 1


async def test_a_bad_strength_word_says_how_to_write_it(discord_session):
    await gm(discord_session, LE_BATON)
    refused = await gm(discord_session, '/unit add side:British name:52nd '
                                        'words:"british inf line figures=lots"')
    assert refused.ephemeral
    assert refused.content == ("⚠️ words: `figures=lots` is not a strength. Give a whole "
                               "number, like `figures=4`.")


async def test_a_number_past_any_strength_is_told_the_rule_sets_bound(discord_session):
    await gm(discord_session, "/battle start ruleset:le-baton name:Waterloo")
    for figures in ("9999", "9" * 40):
        refused = await gm(discord_session, "/unit add side:French name:Garde "
                                            f'words:"french inf column figures={figures}"')
        assert refused.ephemeral
        shown = figures if len(figures) <= 16 else figures[:15] + "…"
        assert refused.content == (f"⚠️ words: `figures={shown}` is more than any unit's "
                                   "strength. It must be at most 60."), refused.content
    assert await event_count(discord_session) == 1


async def test_unit_edit_takes_the_word_and_says_the_change_in_it(discord_session):
    await gm(discord_session, LE_BATON)
    await gm(discord_session, '/unit add side:French name:"4e Léger" '
                              'words:"french inf column figures=12"')
    edited = await gm(discord_session, '/unit edit unit:"4e Léger" words:"figures=11 line"')
    assert edited.content == "✏️ 4e Léger loses 1 figure (now 11) and is now in line (event #3)."
    assert (await strengths(discord_session)) == {"4e Léger": 11}


async def test_the_strength_option_is_described_once_for_every_rule_set(discord_session):
    unit = discord_session.tree.get_command("unit")
    add = unit.to_dict(discord_session.tree)["options"][0]
    assert add["name"] == "add"
    (strength,) = [o for o in add["options"] if o["name"] == "strength"]
    assert strength["autocomplete"] is True
    assert strength["description"] == ("Strength, in the rule set's own word (offered as you "
                                       "type a number)")


@pytest.mark.parametrize("ruleset", BATTLE_RULESETS, ids=lambda r: r.key)
async def test_the_strength_is_offered_in_the_battle_s_own_word(discord_session, ruleset):
    await gm(discord_session, f"/battle start ruleset:{ruleset.key} name:Somewhere")
    label = ruleset.battle.strength_label
    for command, given in ((["unit", "add"], {"side": "x", "name": "y"}),
                           (["unit", "edit"], {"unit": "y"})):
        offered = await discord_session.autocomplete(
            command, {**given, "strength": "4"}, "strength", channel_id=100, user_id=GM_USER,
            guild_id=10)
        assert offered == [{"name": strength_count(4, label), "value": 4}]
    first = await discord_session.autocomplete(
        ["unit", "add"], {"side": "x", "name": "y"}, "strength", channel_id=100,
        user_id=GM_USER, guild_id=10)
    assert [c["name"] for c in first][:2] == [strength_count(1, label), strength_count(2, label)]


@pytest.mark.parametrize("ruleset", BATTLE_RULESETS, ids=lambda r: r.key)
async def test_help_names_each_rule_sets_strength_word(discord_session, ruleset):
    label = ruleset.battle.strength_label
    fields = fields_of(await pages(discord_session, f"/help topic:{ruleset.key} part:words",
                                   part="words"))
    text = fields[f"In a battle: strength in {label}"]
    assert f"`{strength_word(label)}=N`" in text and f"counts {label}" in text


async def test_words_autocomplete_offers_the_strength_word(discord_session):
    await gm(discord_session, LE_BATON)
    choices = await discord_session.autocomplete(
        ["unit", "add"], {"side": "x", "name": "y", "words": "french inf fig"}, "words",
        channel_id=100, user_id=GM_USER, guild_id=10)
    assert [c["value"] for c in choices] == ["french inf figures="]


async def test_one_block_is_said_in_the_singular(discord_session):
    session = discord_session
    await gm(session, "/battle start ruleset:tricorne name:Culloden")
    added = await gm(session, '/unit add side:Government name:Barrell words:regular strength:1')
    assert "side: 1 block, regular" in text_of(added)
    shown = text_of(await gm(session, "/battle show"))
    assert "**Barrell** · 1 block · regular" in shown


@pytest.mark.parametrize("ruleset", BATTLE_RULESETS, ids=lambda r: r.key)
async def test_unit_add_says_the_unit_as_its_rule_set_words_it_on_the_roster(discord_session,
                                                                           ruleset):
    """The confirmation leads with the strength in the rule set's word (`3 SP`, `3 figures`,
    `3 blocks`), then what the unit is in its own words: `/unit list`'s line for it."""
    rules = ruleset.battle
    assert rules.unit_example, f"{ruleset.key}: give BattleRules.unit_example"
    await gm(discord_session, f"/battle start ruleset:{ruleset.key} name:Somewhere")
    added = await gm(discord_session, '/unit add side:Blue name:"Test Unit" '
                                      f'words:"{rules.unit_example}" strength:3')
    assert not added.ephemeral
    count = strength_count(3, rules.strength_label)
    assert added.content.startswith(f"➕ Test Unit joins the Blue side: {count}")
    said = added.content.split(" side: ", 1)[1].rsplit(" (event #", 1)[0]
    line = next(line for line in text_of(await reply(discord_session, "/unit list")
                                         ).split("\n") if line.startswith("**Test Unit**"))
    parts = [part.replace("*", "") for part in line.split(" · ")[1:]]
    assert said == ", ".join(parts), "the confirmation and the roster line say the unit alike"


async def test_a_loss_on_a_unit_whose_strength_is_unset_is_said_not_kept(discord_session):
    for line in [FIRE_AT_WILL, '/unit add side:British name:"Fraser\'s Highlanders" '
                 'words:"inf regular morale=4" strength:4',
                 '/unit add side:French name:"Lochiel’s Camerons" words:"inf regular morale=4"',
                 ]:
        assert not (await gm(discord_session, line)).ephemeral, line
    lost = await gm(discord_session, '/melee fire-at-will attackers:"Fraser\'s Highlanders: '
                                     'charging" defenders:"Lochiel\'s Camerons" dice:"6 1"')
    assert "Lochiel’s Camerons routs, −2 SP" in text_of(lost)
    # The headline's −2 SP would seem applied: the roster's line says it is kept nowhere.
    assert ("📋 Lochiel’s Camerons has no SP on the roster: its loss of 2 is not kept (a GM "
            "sets its strength with /gm set)") in text_of(lost)
    assert (await strengths(discord_session))["Lochiel’s Camerons"] is None
