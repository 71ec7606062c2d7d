"""La Bataille's roster generals carry their value (a leader's dice modifier) into the morale
checks and the mêlée roll of the stack they are with, through the real CommandTree: set with
`/general add` and `/gm general`, taken back by `/gm undo`, refused where a rule set counts
no value."""

from __future__ import annotations

from .conftest import CHANNEL, GM_USER, GUILD, reply, text_of

SETUP = [
    "/battle start ruleset:labataille name:Auerstaedt",
    '/unit add side:French name:"1/85e" words:"infantry morale=34 melee=20" strength:6',
    '/unit add side:Prussian name:"IR 5" words:"infantry morale=34 melee=10" strength:5',
]
ASSAULT = ('/assault labataille attackers:"1/85e" defenders:"IR 5" dice:"45 45 1 41" '
           'choices:"chart_result=DR1"')


async def gm(session, line: str):
    return await reply(session, line, user_id=GM_USER)


async def test_a_roster_general_counts_his_value_in_morale_and_melee(battle_session):
    for line in SETUP:
        assert not (await gm(battle_session, line)).ephemeral, line
    added = await gm(battle_session, '/general add name:Gudin side:French unit:"1/85e" '
                                     "value:2")
    assert added.content == "🎖️ Gudin (French) takes the field with 1/85e, value +2 (event #4)."
    text = text_of(await gm(battle_session, ASSAULT))
    assert "**1/85e morale** 🎲 45 +2 Gudin = **51**" in text
    assert "**mêlée** 🎲 41 +2 Gudin (attacking) = **43**" in text


async def test_gm_general_sets_the_value_and_undo_restores_it(battle_session):
    for line in SETUP:
        await gm(battle_session, line)
    await gm(battle_session, '/general add name:Gudin side:French unit:"1/85e" value:2')
    changed = await gm(battle_session, "/gm general general:Gudin field:value value:3")
    assert changed.content == "🛠️ Gudin now has a value of +3 (event #5)."
    # Said on his stack's line, as a general with a unit is.
    assert "**1/85e** · 6 increments · infantry · with Gudin (value +3)" in text_of(
        await gm(battle_session, "/battle show"))
    undone = await gm(battle_session, "/gm undo")
    assert "Undid #5" in text_of(undone)
    assert "**1/85e** · 6 increments · infantry · with Gudin (value +2)" in text_of(
        await gm(battle_session, "/battle show"))
    out_of_range = await gm(battle_session, "/gm general general:Gudin field:value value:9")
    assert out_of_range.ephemeral and "`value` cannot be above 6." in out_of_range.content


async def test_a_general_without_a_value_is_refused_where_it_counts(battle_session):
    for line in SETUP:
        await gm(battle_session, line)
    await gm(battle_session, '/general add name:Gudin side:French unit:"1/85e"')
    refused = await gm(battle_session, ASSAULT)
    assert refused.ephemeral
    assert "Gudin, with 1/85e, has no value: give it" in refused.content
    assert "/gm general general:Gudin field:value value:2" in refused.content


async def test_a_rule_set_without_leader_values_refuses_the_option(battle_session):
    await gm(battle_session, "/battle start ruleset:fire-at-will name:Quebec")
    await gm(battle_session, '/unit add side:British name:"78th" words:"inf regular '
                             'morale=4" strength:4')
    added = await gm(battle_session, "/general add name:Wolfe side:British value:2")
    assert added.ephemeral
    assert "Fire at Will generals carry no value." in added.content
    assert "Leave `value` out." in added.content
    await gm(battle_session, "/general add name:Wolfe side:British")
    setting = await gm(battle_session, "/gm general general:Wolfe field:value value:2")
    assert setting.ephemeral and "Fire at Will generals carry no value." in setting.content


async def test_gm_general_offers_only_the_fields_the_rule_set_counts(battle_session):
    """La Bataille's generals carry a value and no wounds: `/gm general field:` offers
    `value`, not `wounds`, which it would refuse; Fire at Will's carry wounds, no value."""
    for line in SETUP:
        await gm(battle_session, line)
    await gm(battle_session, "/general add name:Gudin side:French")

    async def offered(typed: str) -> list[str]:
        choices = await battle_session.autocomplete(
            ["gm", "general"], {"general": "Gudin", "field": typed}, "field",
            channel_id=CHANNEL, user_id=GM_USER, guild_id=GUILD)
        return [c["value"] for c in choices]

    assert await offered("") == ["side", "unit", "status", "value"]
    assert await offered("w") == []
    refused = await gm(battle_session, "/gm general general:Gudin field:wound value:1")
    assert refused.content == ("⚠️ `wound` is not a general field. Fields: side, unit, status, "
                               "value.")
    await gm(battle_session, '/battle end confirm:"Auerstaedt"')
    await gm(battle_session, "/battle start ruleset:fire-at-will name:Quebec")
    assert await offered("") == ["side", "unit", "wounds", "status"]
