"""One general goes with a unit: every rule set reads one (its leader's die, its casualty
check), so a second is refused where he would join, never left out of a melee unsaid."""

from __future__ import annotations

from .conftest import GM_USER, reply, text_of

SETUP = [
    '/battle start ruleset:tricorne name:Culloden sides:"Government, Jacobite"',
    "/unit add side:Jacobite name:\"Ogilvy's\" words:highland",
    '/unit add side:Jacobite name:"Lochiel’s Camerons" words:highland',
    "/general add name:\"Lord George Murray\" side:Jacobite unit:\"Ogilvy's\"",
]
MOVE_OFF = ('Move him off it first: `/gm general general:"Lord George Murray" field:unit '
            'value:none`.')


async def gm(session, line: str):
    return await reply(session, line, user_id=GM_USER)


async def events(session) -> int:
    return await session.client.db.run(lambda conn: conn.exec_driver_sql(
        "select count(*) from events").scalar())


async def test_a_second_general_with_a_unit_is_refused_until_the_first_moves_off(
        battle_session):
    for line in SETUP:
        assert not (await gm(battle_session, line)).ephemeral, line
    before = await events(battle_session)
    for line in ["/general add name:\"Prince Charles\" side:Jacobite unit:\"Ogilvy's\"",
                 '/general add name:"Prince Charles" side:Jacobite unit:"ogilvy’s"']:
        refused = await gm(battle_session, line)
        assert refused.ephemeral and refused.content == (
            "⚠️ Ogilvy's already has Lord George Murray with it: one general goes with a "
            f"unit. {MOVE_OFF}"), refused.content
    assert await events(battle_session) == before
    added = await gm(battle_session, '/general add name:"Prince Charles" side:Jacobite '
                                     'unit:"Lochiel’s Camerons"')
    assert not added.ephemeral, added.content
    moved = await gm(battle_session, "/gm general general:\"Prince Charles\" field:unit "
                                     "value:\"Ogilvy's\"")
    assert moved.ephemeral and moved.content.endswith(MOVE_OFF), moved.content
    await gm(battle_session, '/gm general general:"Lord George Murray" field:unit value:none')
    moved = await gm(battle_session, "/gm general general:\"Prince Charles\" field:unit "
                                     "value:\"Ogilvy's\"")
    assert moved.content.startswith("🛠️ Prince Charles is now with Ogilvy's"), moved.content


async def test_a_general_back_in_play_may_not_join_a_unit_another_now_leads(battle_session):
    for line in SETUP:
        assert not (await gm(battle_session, line)).ephemeral, line
    for line in ['/gm general general:"Lord George Murray" field:status value:killed',
                 "/general add name:\"Prince Charles\" side:Jacobite unit:\"Ogilvy's\""]:
        assert not (await gm(battle_session, line)).ephemeral, line
    back = await gm(battle_session, '/gm general general:"Lord George Murray" field:status '
                                    'value:active')
    assert back.ephemeral and back.content.startswith(
        "⚠️ Ogilvy's already has Prince Charles with it"), back.content
    assert "Prince Charles" in text_of(await reply(battle_session, "/battle show"))


async def test_a_misspelt_general_gets_did_you_mean(battle_session):
    for line in SETUP:
        assert not (await gm(battle_session, line)).ephemeral, line
    refused = await gm(battle_session, '/general remove name:"Lord Gorge Murray"')
    assert refused.ephemeral and refused.content == (
        "⚠️ There is no general called `Lord Gorge Murray` in this battle. Did you mean "
        "`Lord George Murray`? `/general add` adds one."), refused.content


async def test_a_general_out_of_play_does_not_lead_the_unit_he_was_with(battle_session):
    """A killed or captured general no longer counts as the one general with his unit:
    another may join it, and the GM may still set the fallen one's status and unit, even to
    a unit another general leads."""
    for line in [*SETUP, '/gm general general:"Lord George Murray" field:status value:killed',
                 "/general add name:\"Prince Charles\" side:Jacobite unit:\"Ogilvy's\"",
                 '/general add name:Cluny side:Jacobite unit:"Lochiel’s Camerons"']:
        assert not (await gm(battle_session, line)).ephemeral, line
    captured = await gm(battle_session, '/gm general general:"Lord George Murray" '
                                        'field:status value:captured')
    assert captured.content == "🛠️ Lord George Murray is captured (event #8).", \
        captured.content
    moved = await gm(battle_session, '/gm general general:"Lord George Murray" field:unit '
                                     'value:"Lochiel’s Camerons"')
    assert moved.content == "🛠️ Lord George Murray is now with Lochiel’s Camerons (event #9).", \
        moved.content
    shown = text_of(await reply(battle_session, "/battle show"))
    assert ("**Ogilvy's** · 4 blocks · highland · with Prince Charles\n"
            "**Lochiel’s Camerons** · 4 blocks · highland · with Cluny\n") in shown
    assert "**Lord George Murray** (Jacobite) · was with Lochiel’s Camerons · *captured*\n" \
        in shown
