"""A battle has two sides, fixed when the second appears or named at `/battle start`; a typo
gets "did you mean", never a third side."""

from __future__ import annotations

from sqlalchemy import select

from bot.offline import OfflineDiscord
from bot.storage.models import Battle, Event, General, Unit

from .conftest import GM_USER, reply, text_of

START = '/battle start ruleset:fire-at-will name:"Quebec 1759"'
INF = 'words:"inf regular morale=4" strength:4'


async def gm(session: OfflineDiscord, line: str):
    return await reply(session, line, user_id=GM_USER)


async def stored(session: OfflineDiscord):
    async with session.client.db.transaction() as s:
        battle = await s.scalar(select(Battle))
        units = {u.name: u.side for u in await s.scalars(select(Unit))}
        generals = {g.name: g.side for g in await s.scalars(select(General))}
        events = len(list(await s.scalars(select(Event))))
    return battle.sides, units, generals, events


async def test_the_second_side_fixes_the_sides_and_a_typo_gets_did_you_mean(discord_session):
    await gm(discord_session, START)
    first = await gm(discord_session, f'/unit add side:British name:"2nd Foot" {INF}')
    assert "sides are now" not in first.content
    second = await gm(discord_session, f'/unit add side:French name:Béarn {INF}')
    assert second.content.endswith("(event #3). The battle's sides are now British and French.")
    typo = await gm(discord_session, f'/unit add side:Britsh name:Rangers {INF}')
    assert typo.ephemeral
    assert typo.content == ("⚠️ `Britsh` is not a side in this battle. Did you mean British? "
                            "Its sides are British and French: use one of them, or "
                            "`/battle side` puts a misspelt one right.")
    third = await gm(discord_session, '/general add name:Washington side:Americans')
    assert third.ephemeral
    assert third.content == ("⚠️ `Americans` is not a side in this battle. Its sides are "
                             "British and French: use one of them, or `/battle side` "
                             "puts a misspelt one right.")
    assert await stored(discord_session) == (
        ["British", "French"], {"2nd Foot": "British", "Béarn": "French"}, {}, 3)


async def test_sides_match_whatever_the_case_and_keep_their_spelling(discord_session):
    await gm(discord_session, START)
    await gm(discord_session, f'/unit add side:British name:"2nd Foot" {INF}')
    added = await gm(discord_session, f'/unit add side:"  british " name:Rangers {INF}')
    assert added.content.startswith("➕ Rangers joins the British side:")
    await gm(discord_session, '/general add name:Montcalm side:FRENCH')
    await gm(discord_session, '/general add name:Wolfe side:BRITISH')
    sides, units, generals, _ = await stored(discord_session)
    assert sides == ["British", "FRENCH"]
    assert units == {"2nd Foot": "British", "Rangers": "British"}
    assert generals == {"Montcalm": "FRENCH", "Wolfe": "British"}


async def test_sides_given_at_start_are_the_only_ones(discord_session):
    started = await gm(discord_session, START + ' sides:"British, French"')
    assert "Sides: British and French" in text_of(started)
    refused = await gm(discord_session, f'/unit add side:Frnech name:Béarn {INF}')
    assert refused.ephemeral and "Did you mean French?" in refused.content
    await gm(discord_session, f'/unit add side:french name:Béarn {INF}')
    shown = await reply(discord_session, "/battle show")
    assert "Sides: British and French" in shown.embeds[0]["description"]
    assert await stored(discord_session) == (["British", "French"], {"Béarn": "French"}, {}, 2)
    # Once each side heads its own units, the line would say them twice.
    await gm(discord_session, f'/unit add side:British name:"2nd Foot" {INF}')
    shown = await reply(discord_session, "/battle show")
    assert "Sides:" not in shown.embeds[0]["description"]
    assert [f["name"] for f in shown.embeds[0]["fields"]] == ["British", "French"]


async def test_start_needs_two_different_sides(discord_session):
    for sides, given in (("British", ""), ("British, british", ""),
                         ("A, B, C", " (`sides` gave 3: A, B, C)")):
        refused = await gm(discord_session, START + f' sides:"{sides}"')
        assert refused.ephemeral
        assert refused.content == (f"⚠️ A battle has two different sides{given}. Name them "
                                   "separated by a comma, e.g. `sides:British, French`.")
    async with discord_session.client.db.transaction() as s:
        assert await s.scalar(select(Battle)) is None


async def test_moving_a_unit_to_a_third_side_is_refused(discord_session):
    await gm(discord_session, START + ' sides:"British, French"')
    await gm(discord_session, f'/unit add side:British name:Rangers {INF}')
    refused = await gm(discord_session, '/unit edit unit:Rangers side:Spanish')
    assert refused.ephemeral and "`Spanish` is not a side in this battle." in refused.content
    moved = await gm(discord_session, '/unit edit unit:Rangers side:french')
    assert moved.content == "✏️ Rangers is now on the French side (event #3)."
    # A unit moved alone is said by name when the move is undone (a side rename is not).
    undone = await gm(discord_session, "/gm undo")
    assert undone.content.endswith("\n📋 Rangers is now on the British side")


async def test_undoing_the_second_side_unfixes_the_sides(discord_session):
    await gm(discord_session, START)
    await gm(discord_session, f'/unit add side:British name:"2nd Foot" {INF}')
    await gm(discord_session, f'/unit add side:Frnch name:Béarn {INF}')
    await gm(discord_session, "/gm undo")
    fixed = await gm(discord_session, f'/unit add side:French name:Béarn {INF}')
    assert fixed.content.endswith("The battle's sides are now British and French.")
    sides, units, _, _ = await stored(discord_session)
    assert sides == ["British", "French"] and units["Béarn"] == "French"


async def test_a_gm_setting_a_side_is_held_to_the_battles_sides(discord_session):
    await gm(discord_session, START)
    await gm(discord_session, f'/unit add side:British name:"2nd Foot" {INF}')
    await gm(discord_session, f'/unit add side:French name:Béarn {INF}')
    await gm(discord_session, '/general add name:Wolfe side:British')
    before = await stored(discord_session)
    typo = await gm(discord_session, '/gm set unit:"2nd Foot" field:side value:Frnech')
    assert typo.ephemeral and "Did you mean French?" in typo.content
    third = await gm(discord_session, '/gm general general:Wolfe field:side value:Americans')
    assert third.ephemeral and "Its sides are British and French" in third.content
    assert await stored(discord_session) == before
    moved = await gm(discord_session, '/gm set unit:"2nd Foot" field:side value:french')
    assert not moved.ephemeral
    assert (await stored(discord_session))[1]["2nd Foot"] == "French"


async def test_no_edit_puts_a_general_with_or_over_a_unit_of_the_other_side(battle_session):
    for line in [START + ' sides:"British, French"',
                 f"/unit add side:British name:U14 {INF}", f"/unit add side:French name:Fr {INF}",
                 "/general add name:Montcalm side:French unit:Fr",
                 "/general add name:Wolfe side:British"]:
        assert not (await reply(battle_session, line, user_id=GM_USER)).ephemeral, line
    before = await battle_session.client.db.run(lambda conn: conn.exec_driver_sql(
        "select count(*) from events").scalar())
    for line, said in [
        ("/unit edit unit:U14 commander:Montcalm", "Montcalm is French and U14 is British"),
        ("/gm set unit:U14 field:commander value:Montcalm", "Montcalm is French and U14 is "
                                                            "British"),
        ("/gm general general:Wolfe field:unit value:Fr", "Wolfe is British and Fr is French"),
        ("/gm general general:Montcalm field:side value:British", "Montcalm is British and Fr "
                                                                   "is French"),
        ("/gm set unit:Fr field:side value:British", "Montcalm is French and Fr is British"),
        ("/unit edit unit:Fr side:British", "Montcalm is French and Fr is British"),
    ]:
        refused = await reply(battle_session, line, user_id=GM_USER)
        assert refused.ephemeral and refused.content.startswith(f"⚠️ {said}: a general takes "
                                                                "the field with a unit of his "
                                                                "own side."), (line, refused)
    after = await battle_session.client.db.run(lambda conn: conn.exec_driver_sql(
        "select count(*) from events").scalar())
    assert after == before
    done = await reply(battle_session, "/unit edit unit:U14 commander:Wolfe", user_id=GM_USER)
    assert done.content.startswith("✏️ U14 is now commanded by Wolfe")


async def test_a_unit_added_under_a_general_of_the_other_side_is_refused(battle_session):
    for line in [START + ' sides:"British, French"', "/general add name:Montcalm side:French"]:
        assert not (await reply(battle_session, line, user_id=GM_USER)).ephemeral, line
    refused = await reply(battle_session, f"/unit add side:British name:U14 {INF} "
                                          "commander:Montcalm", user_id=GM_USER)
    assert refused.content == (
        "⚠️ Montcalm is French and U14 is British: a general takes the field with a unit of "
        "his own side. Name a general of its side as its commander, or `none`.")
    assert "0 units · 2 events" in text_of(await reply(battle_session, "/battle show"))


async def test_a_side_may_not_hold_the_separator_of_sides_anywhere(discord_session):
    three = await gm(discord_session, START + ' sides:"Brit;ish, French"')
    assert three.ephemeral and three.content.startswith(
        "⚠️ A battle has two different sides (`sides` gave 3: Brit, ish, French)."), \
        three.content
    assert not (await gm(discord_session, START)).ephemeral
    for line, between in [(f'/unit add side:"Brit;ish" name:A {INF}', ";"),
                          (f'/unit add side:"Brit,ish" name:A {INF}', ","),
                          ('/general add name:Wolfe side:"Brit;ish"', ";")]:
        refused = await gm(discord_session, line)
        assert refused.ephemeral and refused.content.startswith(
            f"⚠️ A side's name may not hold `{between}`: it separates the two sides at "
            "`/battle start`."), (line, refused.content)
    assert (await stored(discord_session))[1:3] == ({}, {})


async def test_a_side_that_holds_a_separator_from_before_keeps_working(discord_session):
    # Battles started before the rule may hold such a side: it is theirs, not a new one.
    assert not (await gm(discord_session, START)).ephemeral
    assert not (await gm(discord_session, f"/unit add side:British name:A {INF}")).ephemeral
    def older(conn) -> None:  # as an older battle left it (its next command reads it anew)
        conn.exec_driver_sql("update units set side = 'Allies, Dutch'")
        conn.exec_driver_sql("update battles set last_seq = last_seq + 1")

    await discord_session.client.db.run(older, write=True)
    for line in [f'/unit add side:"allies, dutch" name:B {INF}',
                 '/general add name:Orange side:"Allies, Dutch"']:
        added = await gm(discord_session, line)
        assert not added.ephemeral and "Allies, Dutch" in added.content, (line, added.content)


WATERLOO = "/battle start ruleset:le-baton name:Waterloo"
BRITISH = '/unit add side:British name:"52nd Foot" words:"british inf line" strength:12'


async def test_a_misspelt_side_is_renamed_and_its_units_and_generals_follow(discord_session):
    await gm(discord_session, WATERLOO)
    await gm(discord_session, BRITISH)
    await gm(discord_session, '/unit add side:Frnch name:Garde words:"french inf column" '
                              'strength:10')
    await gm(discord_session, "/general add name:Ney side:Frnch unit:Garde")
    refusal = ("⚠️ `French` is not a side in this battle. Did you mean Frnch? Its sides are "
               "British and Frnch: use one of them, or `/battle side` puts a misspelt "
               "one right.")
    for line in ['/unit add side:French name:Tirailleurs words:"french inf line" strength:8',
                 "/unit edit unit:Garde side:French",
                 "/gm set unit:Garde field:side value:French"]:
        refused = await gm(discord_session, line)
        assert refused.ephemeral and refused.content == refusal, (line, refused.content)
    renamed = await gm(discord_session, "/battle side side:frnch name:French")
    assert not renamed.ephemeral
    assert renamed.content == ("✏️ The Frnch side is now French: 1 unit and 1 general with it "
                               "(event #5).")
    assert await stored(discord_session) == (
        ["British", "French"], {"52nd Foot": "British", "Garde": "French"}, {"Ney": "French"},
        5)
    shown = await reply(discord_session, "/battle show")
    assert [f["name"] for f in shown.embeds[0]["fields"]] == ["British", "French"]
    added = await gm(discord_session, '/unit add side:French name:Tirailleurs '
                                      'words:"french inf line" strength:8')
    assert added.content.startswith("➕ Tirailleurs joins the French side:")
    await gm(discord_session, "/gm undo")
    undone = await gm(discord_session, "/gm undo")
    assert undone.content.startswith("↩️ Undid #5 (side rename): Side Frnch renamed French")
    assert (await stored(discord_session))[:3] == (
        ["British", "Frnch"], {"52nd Foot": "British", "Garde": "Frnch"}, {"Ney": "Frnch"})


async def test_undoing_a_side_rename_says_it_in_one_line_not_unit_by_unit(discord_session):
    await gm(discord_session, WATERLOO)
    await gm(discord_session, BRITISH)
    for name in ("5th Ligne", "4th Ligne", "6th Ligne"):
        await gm(discord_session, f'/unit add side:Frnch name:"{name}" '
                                  'words:"french inf column" strength:10')
    await gm(discord_session, '/general add name:Ney side:Frnch unit:"5th Ligne"')
    await gm(discord_session, "/battle side side:Frnch name:French")
    undone = await gm(discord_session, "/gm undo")
    assert undone.content == ("↩️ Undid #7 (side rename): Side Frnch renamed French "
                              "(event #8).\n📋 The French side is Frnch again: 3 units and 1 "
                              "general with it")


async def test_renaming_a_side_is_refused_where_it_would_not_fit(discord_session):
    await gm(discord_session, WATERLOO + ' sides:"British, Allies"')
    await gm(discord_session, BRITISH)
    await gm(discord_session, '/unit add side:Allies name:Nassau words:"british inf line" '
                              'strength:10')
    before = await stored(discord_session)
    for line, said in [
        ("/battle side side:Alies name:Dutch",
         "⚠️ `Alies` is not a side in this battle. Did you mean Allies? Its sides are British "
         "and Allies."),
        ("/battle side side:Allies name:british",
         "⚠️ The battle already has a side called British. A battle has two different sides: "
         "give this one another name. To move a unit across, `/unit edit side:`."),
        ("/battle side side:allies name:Allies",
         "⚠️ The Allies side is already called that. Give `name:` the new spelling."),
        ('/battle side side:Allies name:"Dutch, Belgian"',
         "⚠️ A side's name may not hold `,`: it separates the two sides at `/battle start`. "
         "Name it without one, e.g. British."),
        # Le Baton: a side named for a nation holds that nation's units only.
        ("/battle side side:Allies name:French",
         "⚠️ A British unit cannot be on the French side: it fires, moves and tests in the "
         "British phases. Put it on the British side, or give it `french` in its words."),
    ]:
        refused = await gm(discord_session, line)
        assert refused.ephemeral and refused.content == said, (line, refused.content)
    assert await stored(discord_session) == before


async def test_a_player_renames_a_side_only_he_has_added_to(discord_session):
    await gm(discord_session, START)
    await reply(discord_session, f"/unit add side:British name:Rangers {INF}")
    await reply(discord_session, f"/unit add side:Frnch name:Béarn {INF}", user_id=3000)
    refused = await reply(discord_session, "/battle side side:Frnch name:French")
    assert refused.ephemeral and refused.content == (
        "⚠️ Only a GM can rename the Frnch side: it holds units or generals another player "
        "added. Ask a GM; a player may rename a side only he has added to.")
    renamed = await reply(discord_session, "/battle side side:Frnch name:French",
                          user_id=3000)
    assert renamed.content == "✏️ The Frnch side is now French: 1 unit with it (event #4)."


async def test_a_side_with_nobody_on_it_is_the_gms_to_rename(discord_session):
    """A side named at `/battle start` that nobody has added to yet: the refusal does not
    speak of units another player added."""
    await gm(discord_session, START + ' sides:"Frnch, British"')
    refused = await reply(discord_session, "/battle side side:Frnch name:French")
    assert refused.ephemeral and refused.content == (
        "⚠️ Only a GM can rename the Frnch side: it has no units or generals yet. Ask a GM; "
        "a player may rename a side only he has added to.")


async def test_the_roster_shows_the_sides_in_the_battles_order(discord_session):
    await gm(discord_session, START + ' sides:"French, British"')
    await gm(discord_session, f'/unit add side:British name:"2nd Foot" {INF}')
    await gm(discord_session, f"/unit add side:French name:Béarn {INF}")
    await gm(discord_session, f"/unit add side:British name:Rangers {INF}")
    shown = await reply(discord_session, "/battle show")
    assert [(f["name"], f["value"].count("\n") + 1) for f in shown.embeds[0]["fields"]] == [
        ("French", 1), ("British", 2)]


async def test_without_sides_given_the_first_named_side_comes_first(discord_session):
    await gm(discord_session, START)
    await gm(discord_session, f"/unit add side:French name:Béarn {INF}")
    await gm(discord_session, f'/unit add side:British name:"2nd Foot" {INF}')
    shown = await reply(discord_session, "/battle show")
    assert [f["name"] for f in shown.embeds[0]["fields"]] == ["French", "British"]
