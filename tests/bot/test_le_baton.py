"""Le Baton through the real CommandTree: quick lookups and battle state."""

from __future__ import annotations

from sqlalchemy import select

from bot.storage.models import Engagement, Unit

from .conftest import CHANNEL, GM_USER, GUILD, full_text, played, reply, text_of

SETUP = [
    "/battle start ruleset:le-baton name:Albuera",
    '/unit add side:French name:"28e Ligne" words:"french inf veteran column" strength:12',
    '/unit add side:British name:Buffs words:"british inf conscript line" strength:8',
    '/unit add side:French name:Lanciers words:"french cav veteran horse=lancers" strength:8',
]


async def setup(session) -> None:
    for line in SETUP:
        message = await reply(session, line, user_id=GM_USER)
        assert not message.ephemeral, message.content


async def roster(session) -> dict[str, Unit]:
    async with session.client.db.transaction() as s:
        return {u.name: u for u in await s.scalars(select(Unit))}


async def engagements(session) -> list[tuple[str, list, str]]:
    """Every engagement the battle has had: kind, sides, status."""
    async with session.client.db.transaction() as s:
        return [(e.kind, e.sides, e.status)
                for e in await s.scalars(select(Engagement).order_by(Engagement.id))]


async def test_morale_shows_the_arithmetic(discord_session):
    message = await reply(discord_session,
                          '/morale le-baton unit:"Buffs: british inf conscript column '
                          'casualties=6 general" phase:7 dice:2')
    text = text_of(message)
    assert ("**Buffs morale** 🎲 2 vs 2 or less (conscript 4 −2 for 6 casualties (−1 per 3) "
            "+1 general attached to unit −1 British infantry in column) → passes") in text
    assert "continue to fight in phase 11" in await full_text(discord_session, message)


async def test_wrong_phase_for_the_nation_is_refused_with_the_right_one(discord_session):
    message = await reply(discord_session,
                          '/morale le-baton unit:"Buffs: british inf line" phase:4 dice:3')
    assert message.ephemeral
    assert "Buffs is British: phase 4 is for French units" in message.content
    assert "phase 9" in message.content


async def test_fire_dice_are_shown_against_the_number(discord_session):
    message = await reply(discord_session,
                          '/fire le-baton shooter:"Buffs: british inf figures=8" target:"28e" '
                          'target_type:line dice:"5 6 4 1"')
    embed = message.embeds[0]
    assert embed["title"] == "↔️ Buffs fires: 28e 2 hits"
    assert "🎲 **5** **6** 4 1 vs 5+ (line) → 2 hits" in text_of(message)


async def test_a_rows_name_is_written_in_words_not_as_its_key(discord_session):
    """The row a roll is read against is the sheet's "Charging Cavalry", as Discord shows the
    choice, not the option's key `charging-cavalry`."""
    fire = await reply(discord_session,
                       '/fire le-baton shooter:"Buffs: british inf square figures=8" '
                       'target:"28e" target_type:charging-cavalry distance:3 dice:"6 2 4 1"')
    assert "🎲 **6** 2 4 1 vs 6+ (charging cavalry) → 1 hit" in text_of(fire)
    guns = await reply(discord_session,
                       '/artillery le-baton battery:"Ross: british art figures=4 guns=9" '
                       'target:"28e" target_type:enfiladed-line range:close dice:"3 4 5 6"')
    assert ("🎲 **3** **4** **5** **6** (each die +1 close range) vs 4+ (enfiladed line) "
            "→ 4 hits") in text_of(guns)


async def test_a_charge_in_a_battle_locks_both_units_in_melee_and_undo_frees_them(
        battle_session):
    await setup(battle_session)
    message = await reply(battle_session,
                          '/charge le-baton charger:"28e Ligne" target:Buffs dice:"1 6"')
    assert "melee in phase 6" in message.embeds[0]["title"]
    # Buffs fail to stand (a 6): both are locked in one melee, kept as an engagement.
    assert await engagements(battle_session) == [
        ("melee", [["28e Ligne"], ["Buffs"]], "active")]
    # The result leads; the melee names the charger first, as the result does; then each
    # roll, in the order it was made.
    assert text_of(message).split("\n")[1:5] == [
        "↔️ 28e Ligne contacts Buffs: melee in phase 6",
        "📋 Melee: 28e Ligne against Buffs begins",
        "**28e Ligne morale** 🎲 1 vs 4 or less (veteran 5 −1 infantry charging) → passes",
        "**Buffs morale** 🎲 6 vs 4 or less (conscript 4) → fails by 2"]
    show = await reply(battle_session, "/battle show")
    assert "⚔️ Melee: 28e Ligne against Buffs" in text_of(show)
    await reply(battle_session, "/gm undo", user_id=GM_USER)
    assert await engagements(battle_session) == []  # undo takes the new row back


async def test_a_rout_removes_the_unit_and_frees_its_opponent(battle_session):
    await setup(battle_session)
    await reply(battle_session, '/charge le-baton charger:"28e Ligne" target:Buffs dice:"1 6"')
    formed = await reply(battle_session, "/gm set unit:Buffs field:formation value:column",
                         user_id=GM_USER)
    assert "Buffs is now in column" in formed.content
    # conscript 4, −1 British infantry in column: a 6 fails by 3
    message = await reply(battle_session,
                          '/morale le-baton unit:Buffs phase:7 opponent:"28e Ligne" dice:6')
    assert "routs, removed" in message.embeds[0]["title"]
    state = await roster(battle_session)
    assert state["Buffs"].status == "gone" and state["Buffs"].gone_reason == "routed"
    assert await engagements(battle_session) == [
        ("melee", [["28e Ligne"], ["Buffs"]], "ended")]
    refused = await reply(battle_session,
                          '/fire le-baton shooter:Buffs target:"28e Ligne" dice:"1 1 1 1"')
    assert refused.ephemeral and "Buffs is out of the battle (routed)" in refused.content
    # Undo puts the rout back, and the melee with it.
    await reply(battle_session, "/gm undo", user_id=GM_USER)
    assert await engagements(battle_session) == [
        ("melee", [["28e Ligne"], ["Buffs"]], "active")]
    assert (await roster(battle_session))["Buffs"].status == "active"


async def test_lancers_charge_a_line_that_forms_square_and_pass_through(battle_session):
    await setup(battle_session)
    charge = await reply(battle_session,
                         '/charge le-baton charger:Lanciers target:Buffs dice:"2 2 2"')
    assert charge.embeds[0]["title"] == "↔️ Lanciers contacts Buffs: melee in phase 6"
    assert "📋 Buffs is now in square" in text_of(charge)
    # Formed in phase 5, after the charge's move, the square fires nothing at the lancers.
    assert "Buffs → Lanciers" not in text_of(charge)
    # Each change said once: by the roster's line, not again by the effect beside it.
    assert "Buffs forms square" not in text_of(charge)
    assert "leaves a charge marker" not in text_of(charge)
    melee = await reply(battle_session,
                        '/melee le-baton attacker:Lanciers defender:Buffs phase:6 dice:4')
    assert melee.embeds[0]["title"] == "↔️ Lanciers passes through Buffs: 1 casualty"
    # The marker the charge left holds it to its recall: none is placed again.
    assert melee.embeds[0]["description"].split("\n")[:3] == [
        "📋 Lanciers: now 7 figures", "📋 Melee: Lanciers against Buffs ends",
        "**Lanciers past Buffs** 🎲 4 vs 4+ → a casualty"]
    assert "charge marker" not in text_of(melee)
    state = await roster(battle_session)
    assert state["Lanciers"].strength == 7
    assert state["Lanciers"].attributes["charge_marker"] is True
    assert [status for _, _, status in await engagements(battle_session)] == ["ended"]


async def test_situation_words_follow_roster_names_in_melee(battle_session):
    await setup(battle_session)
    message = await reply(battle_session,
                          '/melee le-baton attacker:"28e Ligne" defender:"Buffs: '
                          'defensive-terrain" phase:6 dice:"4 4 4 4 4 4 4 4 1 1 1 1"')
    text = text_of(message)
    assert "**28e Ligne** 🎲 4 4 4 4 4 4 4 4 (each die −1 enemy in defensive terrain)" in text
    assert "28e Ligne and Buffs tie their melee, 0 all: they fight on in phase 11" in text
    assert "📋 Melee: 28e Ligne against Buffs begins" in text
    state = await roster(battle_session)
    assert state["Buffs"].strength == 8 and state["28e Ligne"].strength == 12


async def test_engagements_follow_a_renamed_unit_and_end_with_a_removed_one(battle_session):
    await setup(battle_session)
    await reply(battle_session, '/charge le-baton charger:"28e Ligne" target:Buffs dice:"1 6"')
    renamed = await reply(battle_session, '/unit edit unit:Buffs rename:"3rd Foot"',
                          user_id=GM_USER)
    assert not renamed.ephemeral, renamed.content
    assert await engagements(battle_session) == [
        ("melee", [["28e Ligne"], ["3rd Foot"]], "active")]
    await reply(battle_session, '/unit remove unit:"28e Ligne"', user_id=GM_USER)
    assert await engagements(battle_session) == [
        ("melee", [["28e Ligne"], ["3rd Foot"]], "ended")]
    await reply(battle_session, "/gm undo", user_id=GM_USER)  # the removal, and its end
    assert await engagements(battle_session) == [
        ("melee", [["28e Ligne"], ["3rd Foot"]], "active")]


async def test_gm_corrections_keep_engagements_in_step(battle_session):
    await setup(battle_session)
    await reply(battle_session, '/charge le-baton charger:"28e Ligne" target:Buffs dice:"1 6"')
    await reply(battle_session, '/gm set unit:Buffs field:name value:"3rd Foot"',
                user_id=GM_USER)
    assert await engagements(battle_session) == [
        ("melee", [["28e Ligne"], ["3rd Foot"]], "active")]
    await reply(battle_session, '/gm set unit:"28e Ligne" field:status value:gone',
                user_id=GM_USER)
    assert [status for _, _, status in await engagements(battle_session)] == ["ended"]


async def test_a_second_volley_says_its_loss_once(discord_session):
    await played(discord_session, "/battle start ruleset:le-baton name:Busaco",
                 '/unit add side:British name:52nd words:"british inf veteran line" strength:8',
                 '/unit add side:British name:71st words:"british inf veteran line" strength:8',
                 '/unit add side:French name:"4e Leger" words:"french inf veteran column" '
                 'strength:8')
    fire = '/fire le-baton shooter:{} target:"4e Leger" distance:3 dice:"4 4 1 1"'
    await reply(discord_session, fire.format("52nd"), user_id=GM_USER)
    # A unit shoots once a turn.
    again = await reply(discord_session, fire.format("52nd"), user_id=GM_USER)
    assert again.ephemeral and again.content.startswith("⚠️ 52nd has shot this turn: a unit "
                                                        "shoots once, in its side's fire phase")
    # A GM who takes the volley back lets it shoot again.
    await reply(discord_session, "/gm undo", user_id=GM_USER)
    redone = await reply(discord_session, fire.format("52nd"), user_id=GM_USER)
    assert not redone.ephemeral, redone.content
    second = await reply(discord_session, fire.format("71st"), user_id=GM_USER)
    lines = second.embeds[0]["description"].splitlines()
    # "takes 2 casualties" is the roster's "loses 2 figures": said once.
    assert "📋 4e Leger loses 2 figures (now 4) and has 4 casualties in all" in lines
    assert not any("takes 2 casualties" in line for line in lines), lines


async def test_a_gm_sets_a_units_casualties_and_markers_and_the_rules_read_them(
        battle_session):
    await setup(battle_session)
    set_casualties = await reply(battle_session, "/gm set unit:Buffs field:casualties value:3",
                                 user_id=GM_USER)
    assert set_casualties.content.startswith("🛠️ Buffs has 3 casualties in all (event #")
    held = await reply(battle_session, "/gm set unit:Lanciers field:held value:yes",
                       user_id=GM_USER)
    assert held.content.startswith("🛠️ Lanciers is held (failed recall)")
    bad = await reply(battle_session, "/gm set unit:Buffs field:casualties value:-1",
                      user_id=GM_USER)
    assert bad.ephemeral and "`casualties` cannot be -1" in bad.content
    units = await roster(battle_session)
    assert (units["Buffs"].attributes["casualties"], units["Lanciers"].attributes["held"]) == (
        3, True)
    # Conscripts pass on 4 or less; 3 casualties take one off: a 4 now fails.
    check = await reply(battle_session, '/morale le-baton unit:Buffs phase:9 dice:"4"')
    assert check.embeds[0]["title"] == "↔️ Buffs fails by 1: remains in place"
    assert "vs 3 or less (conscript 4 −1 for 3 casualties (−1 per 3))" in text_of(check)


async def test_gm_markers_are_cavalrys_where_only_cavalry_has_them(battle_session):
    await setup(battle_session)
    refused = await reply(battle_session, "/gm set unit:Buffs field:held value:yes",
                          user_id=GM_USER)
    assert refused.content == ("⚠️ Buffs: only cavalry has `held`, and Buffs is infantry. "
                               "Leave it off infantry and artillery.")
    marked = await reply(battle_session, "/gm set unit:Lanciers field:Charge-Marker value:yes",
                         user_id=GM_USER)
    assert marked.content.startswith("🛠️ Lanciers has a charge marker")
    bookkeeping = await reply(battle_session, "/gm set unit:Lanciers field:fought value:yes",
                              user_id=GM_USER)
    assert bookkeeping.content.startswith("⚠️ `fought` is not a unit field.")


async def test_a_unit_on_a_side_named_for_a_nation_is_of_that_nation(battle_session):
    await setup(battle_session)  # sides French and British, as the units give them
    for line in ['/unit add side:British name:Turncoats words:"french inf veteran column" '
                 "strength:6", "/unit edit unit:Buffs side:French",
                 "/gm set unit:Buffs field:nation value:french"]:
        refused = await reply(battle_session, line, user_id=GM_USER)
        assert refused.ephemeral and " unit cannot be on the " in refused.content, line
    turncoat = await reply(battle_session, "/unit add side:British name:Turncoats "
                                           'words:"french inf veteran column" strength:6',
                           user_id=GM_USER)
    assert turncoat.content == (
        "⚠️ A French unit cannot be on the British side: it fires, moves and tests in the "
        "French phases. Put it on the French side, or give it `british` in its words.")


async def test_a_unit_added_to_a_side_named_for_a_nation_takes_its_nation(battle_session):
    await played(battle_session, '/battle start ruleset:le-baton name:Test sides:"French, '
                                 'British"',
                 '/unit add side:French name:"45e Ligne" words:"inf column veteran" '
                 "strength:9",
                 '/unit add side:british name:"2nd Foot" words:"inf line" strength:12')
    refused = await reply(battle_session, '/morale le-baton unit:"45e Ligne" phase:9 dice:1')
    assert refused.ephemeral and refused.content.startswith(
        "⚠️ 45e Ligne is French: phase 9 is for British units."), refused.content
    tested = await reply(battle_session, '/morale le-baton unit:"2nd Foot" phase:9 dice:1')
    assert "🛡️ 2nd Foot passes\n" in text_of(tested), text_of(tested)
    # A side named for no nation gives none: the words must say it.
    await played(battle_session, "/battle end confirm:Test",
                 '/battle start ruleset:le-baton name:Hills sides:"Left, Right"')
    unsaid = await reply(battle_session, '/unit add side:Left name:Buffs words:"inf line" '
                                         "strength:6", user_id=GM_USER)
    assert unsaid.ephemeral and "say the unit's nation" in unsaid.content


async def test_cavalry_that_failed_its_recall_rolls_again_next_turn_not_at_once(
        discord_session):
    await setup(discord_session)
    await reply(discord_session, '/charge le-baton charger:Lanciers target:Buffs dice:"2 2 2"')
    failed = await reply(discord_session, "/recall le-baton unit:Lanciers dice:6")
    assert "Lanciers fails recall: 1 casualty, held" in text_of(failed)
    # The headline says the casualty and the hold; the roster's line says only what is left.
    assert "📋 Lanciers: now 7 figures\n" in text_of(failed)
    assert "loses 1 figure" not in text_of(failed) and "is held" not in text_of(failed)
    again = await reply(discord_session, "/recall le-baton unit:Lanciers dice:1")
    assert again.ephemeral
    assert text_of(again).startswith("⚠️ Lanciers failed its recall this turn: it rolls "
                                     "again in phase 13 next turn.")
    for _ in range(13):
        await reply(discord_session, "/battle next", user_id=GM_USER)
    passed = await reply(discord_session, "/recall le-baton unit:Lanciers dice:1")
    assert "Lanciers is recalled" in text_of(passed).split("\n")[1]


async def test_only_the_loser_of_a_melee_tests_for_losing_it(discord_session):
    await setup(discord_session)
    # 28e Ligne's 8 dice: 3 hits; the Buffs' 4: 2 hits. The Buffs lose, and test in phase 7.
    melee = await reply(discord_session, '/melee le-baton attacker:"28e Ligne" defender:Buffs '
                                         'phase:6 dice:"4 4 4 1 1 1 1 1 1 1 4 5"')
    assert "Buffs tests in phase 7" in text_of(melee).split("\n")[1]
    refused = await reply(discord_session, '/morale le-baton unit:"28e Ligne" phase:7 dice:6')
    assert refused.ephemeral
    assert text_of(refused) == (
        "⚠️ 28e Ligne won its melee with Buffs: only the loser tests morale in phase 7. Test "
        "Buffs: `/morale le-baton unit:Buffs phase:7`.")
    tested = await reply(discord_session, "/morale le-baton unit:Buffs phase:7 dice:1")
    assert not tested.ephemeral


async def test_a_gm_takes_back_an_infantry_charge_entered_by_mistake(discord_session):
    await setup(discord_session)
    await reply(discord_session, '/unit add side:French name:"4e Léger" words:"french inf '
                                 'veteran column" strength:12', user_id=GM_USER)
    await reply(discord_session, '/charge le-baton charger:"28e Ligne" target:Buffs dice:6')
    second = await reply(discord_session, '/charge le-baton charger:"4e Léger" target:Buffs '
                                          'dice:"1 1"')
    assert second.ephemeral and "28e Ligne has charged Buffs this turn" in second.content
    assert "a GM takes it back with `/gm undo`" in second.content
    await reply(discord_session, "/gm undo", user_id=GM_USER)
    again = await reply(discord_session, '/charge le-baton charger:"4e Léger" target:Buffs '
                                         'dice:"1 1"')
    assert not again.ephemeral, again.content
    assert (await roster(discord_session))["Buffs"].attributes["charged_by_infantry"] == \
        "4e Léger"


async def test_an_answer_given_ahead_and_not_asked_is_said_as_typed(discord_session):
    message = await reply(discord_session, '/morale le-baton unit:"X: french inf column" '
                                           'phase:4 dice:3 choices:"Form Square"')
    assert "Not asked: Form Square" in message.embeds[0]["footer"]["text"]


async def test_a_passed_morale_test_in_a_battle_says_it_changes_nothing_once(discord_session):
    # The turn's bookkeeping (it has tested in phase 2) is no effect to say.
    await played(discord_session, "/battle start ruleset:le-baton name:Busaco",
                 '/unit add side:British name:52nd words:"british inf veteran line" strength:8')
    passed = await reply(discord_session, "/morale le-baton unit:52nd phase:2 dice:3",
                         user_id=GM_USER)
    lines = passed.embeds[0]["description"].splitlines()
    assert lines[0] == "No effect on any unit.", lines
    assert not any("No change to the roster" in line for line in lines), lines


def test_bookkeeping_has_no_words_in_a_request_s_answer():
    from rules.core.records import Effect
    from rules.le_baton.effects import EffectKind

    assert Effect(EffectKind.TESTED, "52nd", 2, ruleset="le-baton").describe() == ""


async def test_a_halt_the_headline_says_is_not_said_again_on_the_roster(discord_session):
    await setup(discord_session)
    message = await reply(discord_session, '/morale le-baton unit:"28e Ligne" phase:2 dice:6')
    text = text_of(message)
    assert message.embeds[0]["title"] == "↔️ 28e Ligne fails by 1: halts"
    assert "halted" not in text, text
    assert (await roster(discord_session))["28e Ligne"].attributes["halted"] is True


async def test_a_marker_among_a_roster_units_words_says_how_a_gm_sets_it(discord_session):
    await setup(discord_session)
    for line, said in [
        ('/unit add side:British name:r15 words:"british inf casualties=5" strength:3',
         "`/gm set unit:… field:casualties value:5`"),
        # A value `/gm set` would refuse is not suggested.
        ('/unit add side:British name:X words:"british inf veteran column casualties=nan" '
         'strength:6', "`/gm set unit:… field:casualties value:…`"),
        ('/unit edit unit:Buffs words:"halted"', "`/gm set unit:… field:halted value:true`")]:
        refused = await reply(discord_session, line, user_id=GM_USER)
        assert refused.ephemeral and refused.content.startswith(
            "⚠️ words: in a battle `"), refused.content
        assert "is a marker the rules keep, not a word of the unit." in refused.content
        assert refused.content.endswith(f"a GM sets it with {said}."), refused.content
    assert set(await roster(discord_session)) == {"28e Ligne", "Buffs", "Lanciers"}
    assert not (await roster(discord_session))["Buffs"].attributes.get("halted")


async def test_casualties_on_a_unit_without_figures_are_counted_and_not_called_lost(
        discord_session):
    await setup(discord_session)
    await reply(discord_session, '/unit add side:British name:Rifles words:"british inf '
                                 'veteran line"', user_id=GM_USER)
    shot = await reply(discord_session, '/fire le-baton shooter:"28e Ligne" target:Rifles '
                                        'target_type:line dice:"5 6 4 1 1 1"')
    # Le Baton keeps casualties apart from figures: they are counted, and say so.
    assert "📋 Rifles has 2 casualties in all" in text_of(shot)
    assert "not kept" not in text_of(shot)


async def test_a_ride_down_says_the_unit_destroyed_once(discord_session):
    await setup(discord_session)
    ridden = text_of(await reply(discord_session, "/melee le-baton attacker:Lanciers "
                                                  "defender:Buffs phase:6"))
    assert "Lanciers rides down Buffs" in ridden
    # "Infantry destroyed": one line says it, in the roster's words as the sheet's.
    assert ridden.count("destroyed") == 1 and "removed from the game" not in ridden, ridden


async def test_a_reroll_of_a_pass_through_says_the_melee_ended_and_nothing_begun(
        discord_session):
    await setup(discord_session)
    await reply(discord_session, '/charge le-baton charger:Lanciers target:Buffs '
                                 'dice:"2 2 2"')
    await reply(discord_session, "/melee le-baton attacker:Lanciers defender:Buffs phase:6 "
                                 "dice:4")
    await reply(discord_session, "/gm dice dice:4", user_id=GM_USER)
    again = text_of(await reply(discord_session, "/gm reroll", user_id=GM_USER))
    assert "📋 Melee: Lanciers against Buffs ends" in again
    assert "begins" not in again, again


async def test_a_melee_or_check_without_a_phase_is_in_the_battles_phase(battle_session):
    """The battle knows its phase: a melee in phase 6 and a check in phase 7 need none
    typed. A check left without one outside a check's phase is still asked for it."""
    for line in SETUP[:3]:
        assert not (await reply(battle_session, line, user_id=GM_USER)).ephemeral, line
    asked = await reply(battle_session, '/morale le-baton unit:Buffs dice:3', user_id=GM_USER)
    assert asked.ephemeral and asked.content == (
        "⚠️ Say which phase the check is for. `phase:` 2, 4, 5, 7, 9, 10 or 12: the battle "
        "is in none of those phases now."), asked.content
    lookup = await reply(battle_session, '/morale le-baton unit:"Buffs: british inf '
                         'conscript line" dice:3 lookup:true')
    assert lookup.content == ("⚠️ Say which phase the check is for. `phase:` 2, 4, 5, 7, 9, "
                              "10 or 12."), lookup.content
    for _ in range(5):  # to phase 6, melees
        await reply(battle_session, "/battle next", user_id=GM_USER)
    melee = await reply(battle_session, '/melee le-baton attacker:"28e Ligne" defender:Buffs '
                        'dice:"2 2 1 4 3 1 6 4 2 6 2 4"', user_id=GM_USER)
    assert melee.embeds[0]["title"] == "🩸 28e Ligne wins the melee (3–2): Buffs tests in phase 7"
    assert "Out of phase" not in text_of(melee)
    await reply(battle_session, "/battle next", user_id=GM_USER)  # phase 7
    odds = await reply(battle_session, "/morale odds le-baton unit:Buffs")
    assert not odds.ephemeral, odds.content  # the odds of phase 7's check too
    check = await reply(battle_session, "/morale le-baton unit:Buffs dice:6", user_id=GM_USER)
    assert check.embeds[0]["title"] == "💥 Buffs fails by 3: routs, removed"


async def test_a_melee_without_a_phase_outside_the_melee_phases_is_asked_for_it(
        battle_session):
    """A British charge in phase 8 makes a melee of phase 11: fought then without `phase:`,
    it is not taken for phase 6's, whose loser would test in phase 7. It is asked for, as a
    check is."""
    await setup(battle_session)
    await reply(battle_session, '/unit add side:British name:Greys words:"british cav veteran '
                                'heavy-dragoons" strength:8', user_id=GM_USER)
    for _ in range(7):  # to phase 8, British move
        await reply(battle_session, "/battle next", user_id=GM_USER)
    charge = await reply(battle_session, '/charge le-baton charger:Greys target:Lanciers '
                                         'dice:"3 4"', user_id=GM_USER)
    assert charge.embeds[0]["title"] == "↔️ Greys contacts Lanciers: melee in phase 11"
    asked = await reply(battle_session, '/melee le-baton attacker:Greys defender:Lanciers '
                                        'dice:"1 1 1 1 4 4 1 1"', user_id=GM_USER)
    assert asked.ephemeral and asked.content == (
        "⚠️ Say which phase the melee is for. `phase:` 6 or 11: the battle is in neither "
        "now."), asked.content
    fought = await reply(battle_session, '/melee le-baton attacker:Greys defender:Lanciers '
                                         'phase:11 dice:"1 1 1 1 4 4 1 1"', user_id=GM_USER)
    assert fought.embeds[0]["title"] == ("🩸 Lanciers wins the melee (2–0): Greys tests in "
                                         "phase 12")


async def test_a_free_formation_change_to_line_is_said_once(battle_session):
    """Phase 7, fail by 1 or 2: the loser forms line and the winner forms line too. The
    roster's line says both are now in line: "forms line" is not said again beside it."""
    await played(battle_session, SETUP[0], SETUP[1],
                 '/unit add side:British name:Buffs words:"british inf veteran column" '
                 'strength:8',
                 '/charge le-baton charger:"28e Ligne" target:Buffs dice:"1 6"',
                 '/melee le-baton attacker:"28e Ligne" defender:Buffs phase:6 '
                 'dice:"4 4 4 1 1 1 1 1 1 1 4 5 1"')
    asked = await reply(battle_session, "/morale le-baton unit:Buffs phase:7 dice:5",
                        user_id=GM_USER)
    assert asked.embeds[0]["title"] == "❓ Does 28e Ligne make a free formation change?"
    [answered] = await battle_session.press(asked, "Form line", channel_id=CHANNEL,
                                            user_id=GM_USER, guild_id=GUILD)
    assert answered.embeds[0]["title"] == "🩸 Buffs fails by 2: falls back into line"
    assert answered.embeds[0]["description"].split("\n")[:3] == [
        "**Buffs** is placed 2\" back from 28e Ligne",
        "📋 28e Ligne and Buffs: each is now in line",
        "📋 Melee: 28e Ligne against Buffs ends"]


async def test_a_rout_the_headline_gives_is_not_said_again_on_the_roster(battle_session):
    """"Fail by 3+: Rout. Remove the unit from the game": the headline says it routs and is
    removed; the roster's "routs off the field" would say it a second time."""
    await played(battle_session, SETUP[0], SETUP[1], SETUP[2],
                 '/gm set unit:"28e Ligne" field:casualties value:3')
    routed = await reply(battle_session, '/charge le-baton charger:"28e Ligne" target:Buffs '
                                         'dice:"6"', user_id=GM_USER)
    assert routed.embeds[0]["title"] == "💥 28e Ligne fails by 3: routs, removed"
    assert routed.embeds[0]["description"].split("\n")[0] == (
        "**28e Ligne morale** 🎲 6 vs 3 or less (veteran 5 −1 for 3 casualties (−1 per 3) "
        "−1 infantry charging) → fails by 3")


async def test_a_reroll_says_what_the_first_roll_did_is_undone_not_done_anew(discord_session):
    """The first volley took 3 figures; the reroll hits nothing. A's figures coming back is
    the first roll's undoing, not the new volley's doing."""
    for line in ("/battle start ruleset:le-baton name:R",
                 '/unit add side:French name:A words:"french infantry veteran column" '
                 "strength:6",
                 '/unit add side:British name:B words:"british infantry veteran line" '
                 "strength:6"):
        assert not (await reply(discord_session, line, user_id=GM_USER)).ephemeral, line
    await reply(discord_session, '/fire le-baton shooter:B target:A dice:"4 4 4"')
    await reply(discord_session, '/gm dice dice:"1 1 1"', user_id=GM_USER)
    again = await reply(discord_session, "/gm reroll", user_id=GM_USER)
    assert again.embeds[0]["title"] == "🛡️ B fires: A 0 hits"
    assert [line for line in text_of(again).split("\n") if line.startswith("📋")] == [
        "📋 Back as before the first roll: A gains 3 figures (now 6) and has no casualties"]


async def test_an_undo_says_the_unit_as_it_left_it_not_as_the_undone_event_did(
        discord_session):
    """The GM's set left A at 2 figures; its undo puts A back at 6, which the undone event's
    summary ("now 2") no longer says."""
    for line in ("/battle start ruleset:le-baton name:R",
                 '/unit add side:French name:A words:"french infantry veteran column" '
                 "strength:6"):
        assert not (await reply(discord_session, line, user_id=GM_USER)).ephemeral, line
    await reply(discord_session, "/gm set unit:A field:figures value:2", user_id=GM_USER)
    undone = await reply(discord_session, "/gm undo", user_id=GM_USER)
    assert undone.content.split("\n") == [
        "↩️ Undid #3 (gm set): GM set: A loses 4 figures (now 2) (event #4).",
        "📋 A gains 4 figures (now 6)"]


async def test_a_gm_setting_strength_is_told_the_rule_sets_range(battle_session):
    """Le Baton's units have 0 to 60 figures: a refused strength says so, not 0 to 999."""
    await setup(battle_session)
    for value, said in (("-1", "`strength` cannot be below 0."),
                        ("many", "`figures` takes a whole number, not `many`.")):
        field = "figures" if value == "many" else "strength"
        refused = await reply(battle_session, f"/gm set unit:Buffs field:{field} "
                                              f"value:{value}", user_id=GM_USER)
        assert refused.ephemeral
        assert refused.content == f"⚠️ {said} Use 0 to 60.", refused.content


async def test_a_line_shooting_at_cavalry_in_line_is_locked_in_no_firefight(battle_session):
    """"Opposing lines of infantry within 4" of each other are locked in a firefight": cavalry
    drawn up in line is read on the line row, but locks nobody, and may still charge."""
    await setup(battle_session)
    shot = await reply(battle_session, '/fire le-baton shooter:Buffs target:Lanciers '
                                       'target_type:line dice:"5 5 1 1"')
    assert shot.embeds[0]["title"] == "↔️ Buffs fires: Lanciers 2 hits"
    assert "Firefight" not in text_of(shot)
    assert await engagements(battle_session) == []
    charge = await reply(battle_session,
                         '/charge le-baton charger:Lanciers target:Buffs dice:"2 2 2"')
    assert charge.embeds[0]["title"] == "↔️ Lanciers contacts Buffs: melee in phase 6"
    # A line of infantry shot at is locked as before.
    await reply(battle_session, "/gm undo", user_id=GM_USER)
    await reply(battle_session, "/gm set unit:\"28e Ligne\" field:formation value:line",
                user_id=GM_USER)
    for _ in range(13):  # the next turn: Buffs may shoot again
        await reply(battle_session, "/battle next", user_id=GM_USER)
    locked = await reply(battle_session, '/fire le-baton shooter:Buffs target:"28e Ligne" '
                                         'dice:"5 5 1 1"')
    assert "📋 Firefight: Buffs against 28e Ligne begins" in text_of(locked)


async def test_an_undo_says_the_melee_it_puts_back_or_takes_away(battle_session):
    """Undoing a pass-through puts the cavalry back in melee with the square, and undoing
    the charge ends that melee: the reply says so beside the units, as a reroll does."""
    await setup(battle_session)
    await reply(battle_session, '/charge le-baton charger:Lanciers target:Buffs dice:"2 2 2"')
    await reply(battle_session, '/melee le-baton attacker:Lanciers defender:Buffs phase:6 '
                                'dice:4')
    passed = await reply(battle_session, "/gm undo", user_id=GM_USER)
    assert passed.content.split("\n")[1:] == [
        "📋 Lanciers gains 1 figure (now 8) and has no casualties",
        "📋 Melee: Lanciers against Buffs goes on again"]
    assert await engagements(battle_session) == [("melee", [["Lanciers"], ["Buffs"]], "active")]
    charged = await reply(battle_session, "/gm undo", user_id=GM_USER)
    assert charged.content.split("\n")[1:] == [
        "📋 Lanciers has its charge marker removed", "📋 Buffs is now in line",
        "📋 Melee: Lanciers against Buffs ends"]
    assert await engagements(battle_session) == []


async def test_undoing_a_reroll_that_ended_a_melee_says_it_goes_on_again(battle_session):
    """A melee the first roll left going, which the reroll's rout ended, is the same fight
    when the reroll is undone: it goes on again, it does not begin."""
    await setup(battle_session)
    for line in ('/charge le-baton charger:"28e Ligne" target:Buffs dice:"1 6"',
                 "/gm set unit:Buffs field:formation value:column",
                 '/morale le-baton unit:Buffs phase:7 opponent:"28e Ligne" dice:1'):
        assert not (await reply(battle_session, line, user_id=GM_USER)).ephemeral, line
    await reply(battle_session, "/gm dice dice:6", user_id=GM_USER)
    rerolled = await reply(battle_session, "/gm reroll", user_id=GM_USER)
    assert "📋 Melee: 28e Ligne against Buffs ends" in text_of(rerolled)
    undone = await reply(battle_session, "/gm undo", user_id=GM_USER)
    assert undone.content.split("\n")[1:] == [
        "📋 Buffs is back in the battle", "📋 Melee: 28e Ligne against Buffs goes on again"]
    assert await engagements(battle_session) == [
        ("melee", [["28e Ligne"], ["Buffs"]], "active")]


async def test_undoing_a_reroll_of_a_charge_that_began_a_melee_says_it_begins(
        battle_session):
    await setup(battle_session)
    await reply(battle_session, '/charge le-baton charger:"28e Ligne" target:Buffs dice:"1 6"')
    await reply(battle_session, '/gm dice dice:"6 1"', user_id=GM_USER)
    rerolled = await reply(battle_session, "/gm reroll", user_id=GM_USER)
    assert "fails to close" in rerolled.embeds[0]["title"]
    undone = await reply(battle_session, "/gm undo", user_id=GM_USER)
    assert undone.content.split("\n")[-1] == "📋 Melee: 28e Ligne against Buffs begins"


async def test_a_check_to_stand_reads_what_charges_from_the_opponent_named(battle_session):
    """Phase 5, pass: the charging French infantry are placed 2" away (no melee), while
    cavalry comes on into contact. Named from the roster, the charger says which, as
    `charged_by` would: a pass is not a "fight in phase 6" against a column."""
    await setup(battle_session)
    stood = await reply(battle_session, '/morale le-baton unit:Buffs phase:5 '
                                        'opponent:"28e Ligne" dice:1')
    assert stood.embeds[0]["title"] == "🛡️ Buffs stands: the charge stops 2\" short"
    assert "28e Ligne** is placed 2\" from Buffs" in text_of(stood)
    assert await engagements(battle_session) == []
    await reply(battle_session, "/gm undo", user_id=GM_USER)
    squared = await reply(battle_session, '/morale le-baton unit:Buffs phase:5 '
                                          'opponent:Lanciers dice:1')
    assert squared.embeds[0]["title"] == "🛡️ Buffs stands and forms square"
    assert await engagements(battle_session) == [("melee", [["Lanciers"], ["Buffs"]], "active")]


async def test_a_check_to_stand_in_a_battle_is_refused_until_its_charger_is_named(
        battle_session):
    """Every outcome of phases 5 and 10 but a rout turns on who charges (placed 2" away, or
    into contact): in a battle the roster needs it, with `charged_by` or without."""
    await setup(battle_session)
    for line in ('/morale le-baton unit:Buffs phase:5 dice:6',
                 '/morale le-baton unit:Buffs phase:5 charged_by:cavalry dice:6'):
        refused = await reply(battle_session, line)
        arm = " charged_by:cavalry" if "charged_by" in line else ""
        assert refused.ephemeral and refused.content == (
            "⚠️ Name the unit charging Buffs with `opponent:`: the check decides whether it "
            f"makes contact. e.g. `/morale le-baton unit:Buffs phase:5{arm} "
            "opponent:Lancers`; `/charge` makes the check itself.")
    assert await engagements(battle_session) == []
    stood = await reply(battle_session, '/morale le-baton unit:Buffs phase:5 '
                                        'opponent:"28e Ligne" dice:6')
    assert stood.embeds[0]["title"] == "↔️ Buffs stands: melee in phase 6"
    assert await engagements(battle_session) == [("melee", [["28e Ligne"], ["Buffs"]], "active")]


async def test_a_quick_check_to_stand_says_nothing_of_the_enemy_it_does_not_name(
        discord_session):
    """"The enemy" is no unit: the outcome says the charger comes on; no line of its own,
    which would start with a small letter."""
    message = await reply(discord_session, '/morale le-baton unit:"52nd: british infantry '
                                           'veteran line" phase:5 dice:6')
    assert message.embeds[0]["title"] == "↔️ 52nd stands: melee in phase 6"
    assert message.embeds[0]["description"] == (
        "**52nd morale** 🎲 6 vs 5 or less (veteran 5) → fails by 1")
    assert "The charging unit moves into contact; fight in phase 6." in await full_text(
        discord_session, message)
    placed = await reply(discord_session, '/morale le-baton unit:"1er: french inf line" '
                                          'phase:10 charged_by:infantry dice:1 choices:stay')
    assert "the enemy" not in text_of(placed).lower()
    assert ("The charging British infantry are placed 2\" away: no melee." in
            await full_text(discord_session, placed))


async def test_an_override_not_allowed_gives_the_tested_unit_as_its_example(battle_session):
    """The example names the unit whose roll it is, not the opponent its results touch,
    though the opponent comes first on the roster."""
    await played(battle_session,
                 "/battle start ruleset:le-baton name:Culloden",
                 '/unit add side:French name:"1er Léger" words:"french inf veteran column" '
                 'strength:12',
                 '/unit add side:British name:"Lochiel\'s Camerons" words:"british inf '
                 'veteran column" strength:12',
                 '/charge le-baton charger:"1er Léger" target:"Lochiel\'s Camerons" dice:"1 6"',
                 '/melee le-baton attacker:"1er Léger" defender:"Lochiel\'s Camerons" phase:6 '
                 'dice:"6 6 6 6 6 6 6 6 1 1 1 1 1 1 1 1"',
                 '/gm set unit:"Lochiel\'s Camerons" field:casualties value:0')
    await reply(battle_session, '/morale le-baton unit:"Lochiel\'s Camerons" phase:7 dice:1')
    # Veteran 5 −1 in column: a 6 fails by 2 at worst, and no rout is among its results.
    refused = await reply(battle_session, "/gm override result:rout", user_id=GM_USER)
    assert refused.ephemeral and refused.content == (
        "⚠️ That is not a result the rules allow here. Type a word of the one you want in the "
        "`result` option (`Lochiel's Camerons`, say) and pick it from what the option offers, "
        "or use `/gm override` alone for a menu.")


async def test_cavalry_tied_in_phase_6_fight_no_round_in_phase_11(battle_session):
    """The sheet: "Cavalry units that tie test for recall in phase 13"; infantry that tie
    fight on. Phase 11 does not call the tied cavalry's melee on."""
    await setup(battle_session)
    await reply(battle_session, '/unit add side:British name:Greys words:"british cav veteran '
                                'heavy-dragoons" strength:8', user_id=GM_USER)
    for _ in range(5):  # to phase 6, melees
        await reply(battle_session, "/battle next", user_id=GM_USER)
    # Lanciers' 4 dice against the Greys' 4 (−1, first combat vs. lancers): a hit each.
    tie = await reply(battle_session, '/melee le-baton attacker:Lanciers defender:Greys '
                                      'dice:"4 1 1 1 5 1 1 1"', user_id=GM_USER)
    assert tie.embeds[0]["title"].endswith("Lanciers and Greys tie their melee, 1 all: both "
                                           "test for recall in phase 13")
    assert ("the cavalry test for recall in phase 13 and do not fight in phase 11. If still in "
            "contact after the recall, they may fight on next turn in phase 6."
            ) in await full_text(battle_session, tie)
    for _ in range(5):  # to phase 11, melees
        moved = await reply(battle_session, "/battle next", user_id=GM_USER)
    assert text_of(moved).strip() == (
        "⏭️ Albuera: Turn 1, 11. melees\n"
        "• Lanciers and Greys tied their melee: they do not fight in phase 11, and test recall "
        "in phase 13.")
    # Fought there all the same (a GM may): played, with the slip said.
    fought = await reply(battle_session, '/melee le-baton attacker:Lanciers defender:Greys '
                                         'dice:"4 1 1 5 1 1"', user_id=GM_USER)
    assert not fought.ephemeral
    assert ("⏱️ Out of phase: Lanciers and Greys tied their melee in phase 6: they test for "
            "recall in phase 13 before they fight again, not in phase 11 (melees)."
            ) in text_of(fought)


async def test_the_odds_of_a_charge_say_what_each_result_is_not_who_holds(discord_session):
    """A charge is decided by the melee that follows: its odds name each result, as a Fire at
    Will charge's do, and do not lump a charge not made with one that goes in."""
    message = await reply(discord_session, '/charge odds le-baton charger:"52nd: british inf '
                                           'column figures=8" target:"4e Léger: french inf '
                                           'column figures=12"')
    (embed,) = message.embeds
    assert embed["title"] == "🎯 Odds: charge (Le Baton)"
    assert embed["description"].split("\n") == [
        "`██████▋    83%` 52nd does not charge",
        "`▌         6.9%` 4e Léger stands",
        "`▌         5.6%` 52nd fails to close",
        "`▎         2.8%` 52nd routs",
        "`▏         1.4%` 52nd contacts 4e Léger"]
    melee = await reply(discord_session, '/melee odds le-baton attacker:"52nd: british inf '
                                         'figures=2" defender:"4e Léger: french inf column '
                                         'figures=2"')
    # A melee still says who wins.
    assert melee.embeds[0]["title"] == "🎯 Odds: drawn 50% · 4e Léger wins 25% · 52nd wins 25%"


async def test_a_closing_check_of_a_square_charged_into_melee_says_it_cannot_charge(
        battle_session):
    """A French square in melee only as the target of a British charge never charged: the
    refusal says why it cannot be charging, not that "its charge has closed"."""
    for line in (SETUP[0],
                 '/unit add side:French name:Garde words:"french inf elite square" '
                 'strength:12',
                 '/unit add side:British name:Buffs words:"british inf veteran column" '
                 'strength:8'):
        assert not (await reply(battle_session, line, user_id=GM_USER)).ephemeral
    # Buffs rolls its 6 and closes on a 1; Garde, charged in flank, fails to stand by 1.
    contact = await reply(battle_session, '/charge le-baton charger:Buffs target:Garde '
                          'flank_or_rear:true dice:"6 1 6"')
    assert contact.embeds[0]["title"].endswith("Buffs contacts Garde: melee in phase 11")
    refused = await reply(battle_session,
                          "/morale le-baton unit:Garde phase:4 charging:true dice:3")
    assert refused.ephemeral
    assert refused.content == (
        "⚠️ Garde is French infantry in square: French infantry may only charge in column. "
        "Drop `charging` to test Garde for shooting casualties, or give it in column.")


async def test_unsupported_guns_taken_say_what_befalls_them_under_the_headline(
        discord_session):
    """No dice are rolled: the line under the headline is the battery's fate, not empty."""
    message = await reply(discord_session,
                          '/melee le-baton attacker:"Lancers: french cav horse=lancers '
                          'figures=8" defender:"Ross: british art guns=9 figures=4"')
    assert message.embeds[0]["title"] == "💥 Lancers overruns Ross"
    assert message.embeds[0]["description"] == "**Ross** is destroyed"


async def test_a_tied_cavalry_melee_says_each_thing_once(discord_session):
    """The tie is the melee's result: both stay in it, as a win's headline says too; the
    casualties alike are one line."""
    message = await reply(discord_session,
                          '/melee le-baton attacker:"Lancers: french cav horse=lancers '
                          'figures=8" defender:"Scots Greys: british cav horse=heavy-dragoons '
                          'figures=8" dice:"4 4 1 1 5 5 1 1"')
    assert message.embeds[0]["title"] == ("↔️ Lancers and Scots Greys tie their melee, 2 all: "
                                          "both test for recall in phase 13")
    lines = message.embeds[0]["description"].split("\n")
    assert lines[0] == "**Lancers** and **Scots Greys**: each takes 2 casualties"
    assert not any("locked in melee" in line for line in lines), lines


async def test_a_setting_in_a_rule_set_without_settings_says_there_are_none(battle_session):
    await setup(battle_session)
    refused = await reply(battle_session, "/battle setting name:fog value:thick",
                          user_id=GM_USER)
    assert refused.ephemeral
    assert refused.content == (
        "⚠️ Le Baton has no battle settings to change. `/gm set` changes a unit's field "
        "by hand.")
