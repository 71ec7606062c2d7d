"""Battles through the real CommandTree: roster, effects applied and logged, undo and the GM."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import select

from bot.offline import OfflineDiscord
from bot.storage.models import Battle, Event, Unit

from .conftest import (
    CHANNEL,
    GM_USER,
    GUILD,
    MANAGE_CHANNELS,
    PLAYER,
    full_text,
    played,
    reply,
    send,
    text_of,
)
from .phone import PHONE_SCREEN, phone_lines

START = '/battle start ruleset:fire-at-will name:"Quebec 1759"'
ROSTER = [
    '/unit add side:British name:"2nd Foot" words:"inf regular morale=4" strength:4',
    '/unit add side:British name:Rangers words:"inf open morale=3" strength:3',
    '/unit add side:French name:Béarn words:"inf regular morale=5" strength:5',
    '/unit add side:French name:Hussars words:"cav morale=4" strength:2',
    '/general add name:Wolfe side:British unit:"2nd Foot"',
]


async def gm(session: OfflineDiscord, line: str):
    return await reply(session, line, user_id=GM_USER)


async def setup_battle(session: OfflineDiscord) -> None:
    message = await gm(session, START)
    assert "Battle started: Quebec 1759" in text_of(message)
    for line in ROSTER:
        message = await gm(session, line)
        assert not message.ephemeral, message.content
    await gm(session, '/unit edit unit:"2nd Foot" commander:Wolfe')


async def units(session: OfflineDiscord) -> dict[str, Unit]:
    db = session.client.db
    async with db.transaction() as s:
        return {u.name: u for u in await s.scalars(select(Unit))}


async def events(session: OfflineDiscord) -> list[Event]:
    async with session.client.db.transaction() as s:
        return list(await s.scalars(select(Event).order_by(Event.seq)))


async def test_a_melee_in_a_battle_changes_the_roster_and_says_so(battle_session):
    await setup_battle(battle_session)
    message = await reply(battle_session, '/melee fire-at-will attackers:"Béarn: charging" '
                                          'defenders:"2nd Foot" dice:"5 2 1 1"')
    embed = message.embeds[0]
    assert embed["title"] == "💥 Attackers win by 4: 2nd Foot routs, −2 SP"
    # The headline says the rout and the loss: the roster line, where the unit now stands.
    assert "📋 2nd Foot: now 2 SP" in embed["description"].split("\n")
    assert "is routing" not in embed["description"]
    assert embed["footer"]["text"].endswith("· #8")
    state = await units(battle_session)
    assert state["2nd Foot"].strength == 2
    assert state["2nd Foot"].attributes["routing"] is True
    log = await events(battle_session)
    assert [e.seq for e in log] == list(range(1, 9))
    assert log[-1].kind == "resolution" and log[-1].user_id == PLAYER


async def test_roster_units_must_exist_and_be_in_the_battle(battle_session):
    await setup_battle(battle_session)
    before = await events(battle_session)
    message = await reply(battle_session, '/melee fire-at-will attackers:"Bearn" '
                                          'defenders:"2nd Foot"')
    assert message.ephemeral
    assert "no unit called `Bearn`" in message.content and "Did you mean `Béarn`?" in \
        message.content
    assert len(await events(battle_session)) == len(before)


async def test_general_killed_shakes_his_command(battle_session):
    await setup_battle(battle_session)
    message = await reply(battle_session, '/melee fire-at-will attackers:"Béarn" '
                                          'defenders:"2nd Foot" dice:"6 1 6 6"')
    text = text_of(message)
    assert "📋 Wolfe is killed" in text.split("\n")
    state = await units(battle_session)
    assert state["2nd Foot"].attributes.get("shaken") is True


async def test_undo_restores_exactly(battle_session):
    await setup_battle(battle_session)
    before = {n: u.snapshot() for n, u in (await units(battle_session)).items()}
    await reply(battle_session, '/melee fire-at-will attackers:"Béarn" defenders:"2nd Foot" '
                                'dice:"6 1 6 6"')
    message = await gm(battle_session, "/gm undo")
    assert "Undid #8" in message.content
    after = {n: u.snapshot() for n, u in (await units(battle_session)).items()}
    assert after == before
    log = await events(battle_session)
    assert log[7].undone_by == 9 and log[8].kind == "undo" and log[8].reverts == 8


async def test_undo_walks_back_through_the_log(battle_session):
    await setup_battle(battle_session)
    await gm(battle_session, "/gm undo")  # the commander edit
    await gm(battle_session, "/gm undo")  # the general
    state = await units(battle_session)
    assert state["2nd Foot"].commander is None
    message = await reply(battle_session, '/unit list')
    assert "Wolfe" not in text_of(message)


async def test_undo_of_a_removal_brings_the_unit_back(battle_session):
    await setup_battle(battle_session)
    await gm(battle_session, "/unit remove unit:Rangers")
    assert "Rangers" not in await units(battle_session)
    await gm(battle_session, "/gm undo")
    assert (await units(battle_session))["Rangers"].strength == 3


async def test_gm_commands_are_refused_to_players(battle_session):
    await setup_battle(battle_session)
    for line in ("/gm undo", "/gm reroll", "/gm dice dice:6", "/gm set unit:Rangers "
                 "field:strength value:1", '/battle end confirm:"Quebec 1759"'):
        message = await reply(battle_session, line)
        assert message.ephemeral, line
        assert "Only the battle's GM can" in message.content
    assert len(await events(battle_session)) == 7


async def test_manage_channel_and_the_gm_role_make_a_gm(battle_session):
    await setup_battle(battle_session)
    message = await reply(battle_session, "/gm dice dice:6", permissions=MANAGE_CHANNELS)
    assert message.ephemeral and "Dice queue: 6" in message.content
    message = await gm(battle_session, "/gm role role:555")
    assert "GM role" in message.content
    message = await reply(battle_session, "/gm dice dice:5", roles=[555])
    assert "Dice queue: 6 5" in message.content


async def test_the_everyone_role_is_refused_as_the_gm_role(battle_session):
    """Discord gives every member @everyone (its id is the server's): as the GM role it would
    make no one a GM, so it is refused, and the battle keeps its GMs."""
    await setup_battle(battle_session)
    before = len(await events(battle_session))
    refused = await gm(battle_session, f"/gm role role:<@&{GUILD}>")
    assert refused.ephemeral
    assert refused.content == (
        "⚠️ @everyone cannot be the GM role: every member has it. Name a role only the GMs "
        "hold, or give them Manage Channel in this channel.")
    async with battle_session.client.db.transaction() as s:
        battle = await s.scalar(select(Battle))
    assert battle.gm_role_id is None and len(await events(battle_session)) == before


async def test_queued_dice_are_used_first(battle_session):
    await setup_battle(battle_session)
    await gm(battle_session, "/gm dice dice:6")
    message = await reply(battle_session, '/charge fire-at-will target:Rangers '
                                          'chargers:"Hussars: distance=5"')
    embed = message.embeds[0]
    assert "🎲 6 +2 non-cavalry charged by cavalry" in text_of(message)
    assert embed["footer"]["text"].startswith("1 die queued by the GM · #")
    async with battle_session.client.db.transaction() as s:
        battle = await s.scalar(select(Battle))
    assert battle.dice_queue == []


@pytest.mark.parametrize("typed", ["6" * 1200, "6" * 6000])
async def test_a_dice_queue_too_long_for_a_message_says_how_many_it_holds(battle_session, typed):
    """More dice than a message can list: the reply lists the first, counts the rest and
    still ends with what the queue is for (it was cut off, mid-list, at 2,000 characters)."""
    await setup_battle(battle_session)
    for line in (f'/gm dice dice:"{typed}"', "/gm dice"):
        shown = await gm(battle_session, line)
        assert shown.ephemeral and len(shown.content) <= 2000
        listed, rest = shown.content.removeprefix("🎲 Dice queue: ").split(" … ")
        assert set(listed.split(" ")) == {"6"}
        assert rest == (f"and {len(typed) - len(listed.split())} more ({len(typed)} in all). "
                        "The next rolls in this channel use them first, in order.")


async def test_queued_dice_given_with_clear_replace_the_queue(battle_session):
    await setup_battle(battle_session)
    await gm(battle_session, '/gm dice dice:"1 2 3"')
    replaced = await gm(battle_session, '/gm dice dice:"6 5" clear:true')
    assert replaced.ephemeral and replaced.content.startswith("🎲 Dice queue: 6 5.")
    emptied = await gm(battle_session, "/gm dice clear:true")
    assert emptied.content.startswith("🎲 Dice queue: empty.")
    async with battle_session.client.db.transaction() as s:
        summaries = list(await s.scalars(select(Event.summary).order_by(Event.seq)))
    assert summaries[-2:] == ["GM replaced the dice queue with 2 dice (2 waiting)",
                              "GM cleared the dice queue"]


async def test_reroll_replaces_the_last_roll(battle_session):
    await setup_battle(battle_session)
    await reply(battle_session, '/melee fire-at-will attackers:"Béarn" defenders:"2nd Foot" '
                                'dice:"6 1 6 6"')
    await gm(battle_session, '/gm dice dice:"1 6"')
    message = await gm(battle_session, "/gm reroll")
    # The first result stays above in the channel: the new one says it stands in its place.
    assert message.content == "🎲 Rerolled by player: this replaces the last result."
    assert message.embeds[0]["title"] == "💥 Defenders win by 5: Béarn routs, −2 SP"
    # The roster against the result it replaces, the one the players read last: the unit
    # the first roll routed is back.
    assert ("📋 Back as before the first roll: 2nd Foot gains 2 SP (now 4), is no longer "
            "routing and is no longer shaken" in text_of(message))
    state = await units(battle_session)
    assert state["2nd Foot"].strength == 4  # the first result was undone
    assert state["Béarn"].strength == 3
    log = await events(battle_session)
    assert [e.kind for e in log[-4:]] == ["resolution", "dice_queue", "undo", "reroll"]
    assert log[-4].undone_by == log[-2].seq


async def test_a_reroll_with_the_same_result_says_it_as_the_first_did(battle_session):
    await setup_battle(battle_session)
    first = await reply(battle_session, '/melee fire-at-will attackers:"Béarn" '
                                        'defenders:"2nd Foot" dice:"6 1 6 6"')
    await gm(battle_session, '/gm dice dice:"6 1 6 6"')
    again = await gm(battle_session, "/gm reroll")
    assert again.embeds[0]["title"] == first.embeds[0]["title"]
    said = [line for line in text_of(again).split("\n") if line.startswith("📋")]
    assert said == [line for line in text_of(first).split("\n") if line.startswith("📋")]
    assert said and "No change to the roster" not in text_of(again)


async def test_a_reroll_that_touches_the_same_unit_says_only_the_new_roll_of_it(
        battle_session):
    """The first roll routed 2nd Foot (−2 SP); the second only shakes it (−1 SP). What the
    new roll did to it is said, and of the first roll's what no longer stands and the new
    roll's line does not say: the rout (its SP the new line gives)."""
    for line in (START, '/unit add side:British name:"2nd Foot" words:"inf regular morale=4" '
                 "strength:4",
                 '/unit add side:French name:Béarn words:"inf regular morale=5" strength:5'):
        assert not (await gm(battle_session, line)).ephemeral, line
    await reply(battle_session, '/melee fire-at-will attackers:"Béarn" defenders:"2nd Foot" '
                                'dice:"6 1"')
    await gm(battle_session, '/gm dice dice:"3 2"')
    again = await gm(battle_session, "/gm reroll")
    assert again.embeds[0]["title"] == "🩸 Attackers win by 1: 2nd Foot retires 3\", −1 SP, shaken"
    assert [line for line in text_of(again).split("\n") if line.startswith("📋")] == [
        "📋 2nd Foot: now 3 SP", "📋 Back as before the first roll: 2nd Foot is no longer routing"]


async def test_gm_dice_clear_typed_as_dice_points_to_the_option(battle_session):
    await setup_battle(battle_session)
    await gm(battle_session, "/gm dice dice:6")
    for word in ("clear", "None", "empty"):  # each a word a GM may try for "no dice"
        refused = await gm(battle_session, f"/gm dice dice:{word}")
        assert refused.ephemeral
        assert refused.content == (f"⚠️ `{word}` is not a die: the queue is emptied with "
                                   "`clear:true`. `/gm dice clear:true` (and no `dice`).")
    async with battle_session.client.db.transaction() as s:
        assert (await s.scalar(select(Battle))).dice_queue == [6]


async def test_undoing_a_reroll_says_the_gms_dice_it_used_are_queued_again(battle_session):
    await setup_battle(battle_session)
    await reply(battle_session, '/melee fire-at-will attackers:"Béarn" defenders:"2nd Foot" '
                                'dice:"6 1 6 6"')
    await gm(battle_session, '/gm dice dice:"1 6"')
    await gm(battle_session, "/gm reroll")
    undone = await gm(battle_session, "/gm undo")
    # The next player's roll would take them: the GM is told.
    said, *roster = undone.content.split("\n")
    assert said.endswith("The GM's queue is back: 2 dice are waiting for the next "
                         "roll here (`/gm dice clear:true` empties it)."), undone.content
    # The result it replaced stands again: the roster says so, unit by unit.
    assert roster == ["📋 Béarn gains 2 SP (now 5) and is no longer routing",
                      "📋 2nd Foot loses 2 SP (now 2), is routing and is shaken",
                      "📋 Wolfe is killed"], undone.content
    async with battle_session.client.db.transaction() as s:
        assert (await s.scalar(select(Battle))).dice_queue == [1, 6]


async def melee_to_override(session: OfflineDiscord) -> None:
    await setup_battle(session)
    await reply(session, '/melee fire-at-will attackers:"Béarn" defenders:"Rangers" '
                         'dice:"6 1"')


async def override_choices(session: OfflineDiscord, typed: str) -> dict[str, str]:
    """What `/gm override`'s list offers a GM who has typed ``typed``: label → value."""
    choices = await session.autocomplete(["gm", "override"], {"result": typed}, "result",
                                         channel_id=100, user_id=GM_USER, guild_id=10)
    return {c["name"]: c["value"] for c in choices}


async def test_override_applies_a_result_the_rules_allow(battle_session):
    await melee_to_override(battle_session)
    # Nothing matches "tie"; the labels name effects.
    assert await override_choices(battle_session, "tie") == {}
    labels = await override_choices(battle_session, "retires")
    tie = 'Béarn retires 3"; Rangers retires 3"'
    assert tie in labels
    message = await gm(battle_session, f"/gm override result:{labels[tie]}")
    assert "Drawn" in message.embeds[0]["title"]
    state = await units(battle_session)
    assert state["Rangers"].strength == 3 and not state["Rangers"].attributes.get("routing")


async def test_gm_set_is_validated_like_unit_add(battle_session):
    await setup_battle(battle_session)
    bad = await gm(battle_session, "/gm set unit:Rangers field:morale value:0")
    assert bad.ephemeral and "cannot be 0" in bad.content
    bad = await gm(battle_session, "/gm set unit:Rangers field:strength value:-1")
    assert bad.ephemeral and "cannot be below 0" in bad.content
    bad = await gm(battle_session, "/gm set unit:Rangers field:colour value:red")
    assert bad.ephemeral and "not a unit field" in bad.content
    good = await gm(battle_session, "/gm set unit:Rangers field:shaken value:yes")
    assert good.content == "🛠️ Rangers is shaken (event #8)."


async def test_gone_units_cannot_be_named_until_restored(battle_session):
    await setup_battle(battle_session)
    dead = await gm(battle_session, "/gm set unit:Hussars field:status value:dead")
    assert dead.ephemeral and dead.content == (
        "⚠️ `status` is `active` or `gone`, not `dead`. `value:gone` takes the unit out of "
        "the battle; `value:active` brings it back.")
    await gm(battle_session, "/gm set unit:Hussars field:status value:gone")
    refused = await reply(battle_session, '/charge fire-at-will target:Rangers '
                                          'chargers:"Hussars"')
    assert refused.ephemeral and "Hussars is out of the battle" in refused.content
    assert "/gm restore" in refused.content
    await gm(battle_session, "/gm restore unit:Hussars")
    ok = await reply(battle_session, '/charge fire-at-will target:Rangers chargers:"Hussars" '
                                     'dice:1')
    assert not ok.ephemeral


async def test_commands_without_a_battle(battle_session):
    for line in ("/battle show", "/unit list", "/gm undo", "/battle log"):
        message = await reply(battle_session, line)
        assert message.ephemeral and "no battle in this channel" in message.content, line


async def test_one_battle_per_channel_and_end_needs_confirmation(battle_session):
    await setup_battle(battle_session)
    again = await gm(battle_session, START)
    assert again.ephemeral and "already has a battle" in again.content
    wrong = await gm(battle_session, "/battle end confirm:Quebec")
    assert wrong.ephemeral and 'confirm:Quebec 1759' in wrong.content
    ended = await gm(battle_session, '/battle end confirm:"quebec 1759"')
    assert "has ended" in text_of(ended)
    fresh = await gm(battle_session, '/battle start ruleset:fire-at-will name:"Montmorency"')
    assert "Montmorency" in text_of(fresh)


async def test_turns_and_phases_advance(battle_session):
    await setup_battle(battle_session)
    message = await gm(battle_session, "/battle next")
    assert "Turn 1, routs and retirements" in text_of(message)
    for _ in range(5):
        message = await gm(battle_session, "/battle next")
    assert "Turn 2, shaken and routing units test" in text_of(message)


async def test_log_and_export(battle_session):
    await setup_battle(battle_session)
    await reply(battle_session, '/melee fire-at-will attackers:"Béarn" defenders:"2nd Foot" '
                                'dice:"5 2 1 1"')
    log = await reply(battle_session, "/battle log count:3")
    assert "`#8` player: Béarn vs 2nd Foot: Attackers win by 3" in log.embeds[0]["description"]
    assert log.embeds[0]["footer"]["text"] == ("Turn 1, shaken and routing units test · "
                                               "whole log: /battle export")
    md = await reply(battle_session, "/battle export")
    (file,) = md.files
    assert file.filename == "quebec-1759.md"
    text = file.data.decode()
    assert "# Quebec 1759" in text and "- 2nd Foot loses 2 SP (now 2) and is routing" in text
    # The Steps, readings under each roll included, as the Steps button shows them.
    assert ("- **Melee rolls**\n  - **Béarn** 🎲 5 +1 European regulars = **6**\n    - ‣ "
            "factors from the melee table's Infantry column\n") in text
    assert "- **Risk to Wolfe (with 2nd Foot, which routed from melee)**\n  - 🎲 1 1 = **2**" \
        in text
    js = await reply(battle_session, "/battle export format:json")
    data = json.loads(js.files[0].data)
    assert data["format"] == "huzzah-battle-log"
    assert [e["seq"] for e in data["events"]] == list(range(1, 9))


async def test_the_log_names_what_befell_a_general(battle_session):
    """Two results that differ only by the general's fate read apart in the log."""
    await setup_battle(battle_session)
    await gm(battle_session, '/melee fire-at-will attackers:"Béarn" defenders:"2nd Foot" '
                             'dice:"5 2 6 6"')
    await gm(battle_session, "/gm undo")
    await gm(battle_session, '/melee fire-at-will attackers:"Béarn" defenders:"2nd Foot" '
                             'dice:"5 2 5 5"')
    lines = (await reply(battle_session, "/battle log count:3")).embeds[0]["description"]
    lines = lines.splitlines()
    assert lines[0].endswith("Béarn vs 2nd Foot: Attackers win by 3: 2nd Foot routs, −2 SP; "
                             "Wolfe is killed~~")
    assert lines[1] == "`#9` player: Undid #8 (Béarn vs 2nd Foot)"
    assert lines[2].endswith("Béarn vs 2nd Foot: Attackers win by 3: 2nd Foot routs, −2 SP; "
                             "Wolfe is captured")


async def test_lookups_in_a_battle_channel_must_use_its_ruleset_but_work_elsewhere(
        battle_session):
    await setup_battle(battle_session)
    elsewhere = await send(battle_session, '/melee fire-at-will attackers:"A: inf" '
                                           'defenders:"D: inf" dice:"1 1"', channel_id=999)
    assert elsewhere[0].embeds[0]["title"].startswith("↔️ Drawn")


async def test_roster_names_autocomplete(battle_session):
    await setup_battle(battle_session)
    where = {"channel_id": 100, "user_id": PLAYER, "guild_id": 10}
    choices = await battle_session.autocomplete(
        ["melee", "fire-at-will"], {"attackers": "Béarn: charging; 2nd"}, "attackers", **where)
    assert [c["value"] for c in choices] == ["Béarn: charging; 2nd Foot"]
    choices = await battle_session.autocomplete(
        ["melee", "fire-at-will"], {"attackers": "Béarn: ch"}, "attackers", **where)
    assert [c["value"] for c in choices] == ["Béarn: charging"]
    choices = await battle_session.autocomplete(
        ["general", "remove"], {"name": "wo"}, "name", **where)
    assert [c["value"] for c in choices] == ["Wolfe"]
    choices = await battle_session.autocomplete(
        ["unit", "add"], {"side": "x", "name": "y", "words": "inf reg"}, "words", **where)
    assert [c["value"] for c in choices] == ["inf regular"]


async def test_counts_read_in_the_singular_for_one(battle_session):
    await reply(battle_session, '/battle start ruleset:fire-at-will name:Minden',
                user_id=GM_USER)
    await reply(battle_session, '/unit add side:British name:"12th Foot" '
                                'words:"inf regular morale=4" strength:4', user_id=GM_USER)
    await reply(battle_session, "/gm dice dice:6", user_id=GM_USER)
    show = await reply(battle_session, "/battle show")
    assert show.embeds[0]["footer"]["text"] == "1 unit · 3 events · values: /unit list"
    assert "1 die queued by the GM for the next roll" in show.embeds[0]["description"]
    log = await reply(battle_session, "/battle log count:1")
    assert log.embeds[0]["title"] == "📜 Minden: the last event"
    export = await reply(battle_session, "/battle export")
    assert export.content.startswith("📎 Minden: 3 events (")


async def test_the_roster_shows_the_qualities_that_change_a_units_dice(battle_session):
    await reply(battle_session, '/battle start ruleset:fire-at-will name:Minden',
                user_id=GM_USER)
    await reply(battle_session, '/unit add side:British name:"12th Foot" '
                                'words:"inf regular morale=4" strength:4', user_id=GM_USER)
    await reply(battle_session, '/unit add side:French name:Rangers '
                                'words:"inf light open morale=3" strength:3', user_id=GM_USER)
    show = (await reply(battle_session, "/battle show")).embeds[0]
    lines = {f["name"]: f["value"] for f in show["fields"]}
    assert lines["British"] == "**12th Foot** · 4 SP · infantry, regular"
    assert lines["French"] == "**Rangers** · 3 SP · infantry, light, open order"
    # Its morale, a value printed on the counter, is `/unit list`'s.
    listed = (await reply(battle_session, "/unit list")).embeds[0]
    lines = {f["name"]: f["value"] for f in listed["fields"]}
    assert lines["British"] == "**12th Foot** · 4 SP · infantry, regular, morale 4"
    assert lines["French"] == "**Rangers** · 3 SP · infantry, light, open order, morale 3"


async def test_battle_end_offers_the_gm_a_button(battle_session):
    await setup_battle(battle_session)
    refused = await reply(battle_session, "/battle end")
    assert refused.ephemeral and "Only the battle's GM can end the battle" in refused.content
    offer = await gm(battle_session, "/battle end")
    assert offer.ephemeral and offer.content.startswith(
        "End **Quebec 1759**? This is final: `/gm undo` does not bring a battle back.")
    [button] = [b for row in offer.components for b in row["components"]]
    assert button["label"] == "🏁 End Quebec 1759"
    [not_gm] = await battle_session.press(offer, button["label"], channel_id=CHANNEL,
                                          user_id=PLAYER, guild_id=GUILD)
    assert not_gm.ephemeral and "Only the battle's GM" in not_gm.content
    update, ended = await battle_session.press(offer, button["label"], channel_id=CHANNEL,
                                               user_id=GM_USER, guild_id=GUILD)
    assert update.components == [] and "Ended by" in update.content
    assert not ended.ephemeral and "has ended" in text_of(ended)
    [again] = await battle_session.press(offer, button["label"], channel_id=CHANNEL,
                                         user_id=GM_USER, guild_id=GUILD)
    assert again.ephemeral and again.content.startswith(
        "⚠️ No battle is going on in this channel: Quebec 1759 has ended.")


async def test_commands_after_the_end_say_which_battle_ended_and_what_still_reads_it(
        battle_session):
    """A player coming back days later to a battle the GM ended is told it ended, not that
    the channel has none (as if it was lost); a channel that never had one says so."""
    await setup_battle(battle_session)
    await gm(battle_session, '/battle end confirm:"Quebec 1759"')
    ended = ("⚠️ No battle is going on in this channel: Quebec 1759 has ended. `/battle log` "
             "and `/battle export` still read it; `/battle start` begins a new one.")
    for line, user in (("/battle show", PLAYER), ("/unit list", PLAYER),
                       ('/unit add side:British name:Late words:"inf morale=4" strength:4',
                        PLAYER), ("/gm undo", GM_USER), ("/battle next", GM_USER),
                       ("/gm override", GM_USER)):
        refused = await reply(battle_session, line, user_id=user)
        assert refused.ephemeral and refused.content == ended, line
    assert not (await reply(battle_session, "/battle log")).ephemeral
    never = await reply(battle_session, "/battle show", channel_id=CHANNEL + 1)
    assert never.ephemeral and never.content == (
        "⚠️ There is no battle in this channel. Start one with `/battle start`, or use the "
        "quick lookups without one.")


async def test_a_gm_ends_a_battle_whose_question_waits(battle_session):
    """The question would move a battle that is over: it stops no end. A player is told
    first that ending is the GM's."""
    await played(battle_session, '/battle start ruleset:tricorne name:Prestonpans '
                                 'sides:"Jacobites, Government"',
                 "/unit add side:Jacobites name:Camerons words:highland",
                 "/unit add side:Government name:Dragoons words:battle-cavalry")
    asked = await reply(battle_session, "/melee tricorne attacker:Camerons defender:Dragoons",
                        user_id=PLAYER)
    assert asked.embeds[0]["title"].startswith("❓ Will Dragoons retire and rally")
    refused = await reply(battle_session, "/battle end confirm:Prestonpans", user_id=PLAYER)
    assert refused.ephemeral and "Only the battle's GM can end the battle" in refused.content
    ended = await gm(battle_session, "/battle end confirm:Prestonpans")
    assert not ended.ephemeral and "Prestonpans has ended" in text_of(ended)
    # The player it waited on is told, where the end is said, that it will not be asked.
    assert ended.embeds[0]["description"] == (
        "Turn 1, play a Command card. The question that waited, “Will Dragoons retire and "
        "rally before Camerons rolls 4 dice?” (#4), is dropped with it. `/battle export` "
        "gives the whole log.")
    async with battle_session.client.db.transaction() as s:  # nor does its backup ask it
        assert (await s.scalar(select(Battle))).pending is None
    [late] = await battle_session.press(asked, "Stand and fight", channel_id=CHANNEL,
                                        user_id=GM_USER, guild_id=GUILD)
    assert late.ephemeral, late.content


async def test_a_gm_sets_a_rule_set_setting_for_the_battle(battle_session):
    await setup_battle(battle_session)
    names = await battle_session.autocomplete(["battle", "setting"], {"name": ""}, "name",
                                              channel_id=CHANNEL, user_id=GM_USER,
                                              guild_id=GUILD)
    assert [c["value"] for c in names] == ["obstacle_reading"]
    refused = await reply(battle_session,
                          "/battle setting name:obstacle_reading value:attacker")
    assert refused.ephemeral and "Only the battle's GM" in refused.content
    wrong = await gm(battle_session, "/battle setting name:obstacle_reading value:defender")
    assert wrong.ephemeral and "attacker" in wrong.content and "either" in wrong.content
    unknown = await gm(battle_session, "/battle setting name:fog value:thick")
    assert unknown.ephemeral and "Its settings: `obstacle_reading`" in unknown.content
    done = await gm(battle_session, "/battle setting name:obstacle_reading value:attacker")
    assert "obstacle_reading = attacker" in text_of(done)
    # The same value again changes nothing, and logs nothing.
    again = await gm(battle_session, "/battle setting name:obstacle_reading value:attacker")
    assert again.ephemeral and "`obstacle_reading` is already attacker." in again.content
    log = text_of(await reply(battle_session, "/battle log count:2"))
    assert log.count(": GM set ") == 1
    show = await reply(battle_session, "/battle show")
    assert "Settings: obstacle reading attacker" in text_of(show)
    await gm(battle_session, "/gm undo")
    assert "Settings:" not in text_of(await reply(battle_session, "/battle show"))


async def test_a_blank_setting_value_is_refused_saying_what_to_give(battle_session):
    await setup_battle(battle_session)
    blank = await gm(battle_session, '/battle setting name:obstacle_reading value:"  "')
    assert blank.ephemeral
    assert blank.content == (
        "⚠️ `value` is empty. Give `obstacle_reading` one of its values, or `default`; "
        "`/help topic:fire-at-will part:settings` lists them.")
    assert "Settings:" not in text_of(await reply(battle_session, "/battle show"))


async def test_the_battle_setting_changes_how_a_melee_reads(battle_session):
    await gm(battle_session, '/battle start ruleset:fire-at-will name:Minden')
    await gm(battle_session, '/unit add side:British name:A words:"inf morale=4" strength:4')
    await gm(battle_session, '/unit add side:French name:D words:"inf morale=4" strength:4')
    melee = '/melee fire-at-will attackers:A defenders:"D: behind-obstacle" dice:"5 2"'
    default = await reply(battle_session, melee)
    assert default.embeds[0]["title"] == "🩸 Attackers win by 3: D retires 6\", −2 SP, shaken"
    await gm(battle_session, "/gm undo")
    await gm(battle_session, "/battle setting name:obstacle_reading value:attacker")
    attacker = await reply(battle_session, melee)
    assert attacker.embeds[0]["title"] == "💥 Attackers win by 3: D routs, −2 SP"


async def test_removing_a_unit_leaves_its_general_alone_and_undo_puts_him_back(battle_session):
    await setup_battle(battle_session)
    removed = await gm(battle_session, '/unit remove unit:"2nd Foot"')
    assert removed.content.endswith("Wolfe is left alone, with no unit.")
    shown = text_of(await reply(battle_session, "/battle show"))
    assert "**Wolfe** (British)\n" in shown + "\n" and "with 2nd Foot" not in shown
    await gm(battle_session, "/gm undo")
    # Back with it: said on its line, not again under Generals.
    shown = await reply(battle_session, "/battle show")
    assert "**2nd Foot** · 4 SP · infantry, regular · with Wolfe" in text_of(shown)
    assert "Generals" not in [f["name"] for f in shown.embeds[0]["fields"]]


async def test_a_unit_with_no_strength_left_is_restored_only_once_given_some(battle_session):
    await setup_battle(battle_session)
    await gm(battle_session, "/gm set unit:Rangers field:strength value:0")
    await gm(battle_session, "/gm set unit:Rangers field:status value:gone")
    refused = await gm(battle_session, "/gm restore unit:Rangers")
    assert refused.ephemeral and "Rangers has no SP left to come back with" in refused.content
    await gm(battle_session, "/gm set unit:Rangers field:strength value:2")
    assert not (await gm(battle_session, "/gm restore unit:Rangers")).ephemeral


async def test_a_roster_command_missing_its_unit_offers_no_quick_lookup(battle_session):
    await setup_battle(battle_session)
    for line in ['/unit edit unit:"Bearnn" strength:3',
                 '/general add name:Montcalm side:French unit:"Bearnn"']:
        refused = await gm(battle_session, line)
        assert refused.ephemeral
        assert "There is no unit called `Bearnn` in this battle. Did you mean `Béarn`?" in \
            refused.content
        assert "lookup" not in refused.content  # neither command has one
    # A move may still be a quick lookup instead.
    move = await gm(battle_session, '/melee fire-at-will attackers:"Bearnn: charging" '
                                    'defenders:Hussars')
    assert move.ephemeral and "lookup:true" in move.content


async def test_a_general_takes_the_field_with_a_unit_of_his_own_side(battle_session):
    await setup_battle(battle_session)
    refused = await gm(battle_session, "/general add name:Foo side:British unit:Béarn")
    assert refused.ephemeral
    assert "Foo is British and Béarn is French: a general takes the field with a unit of " \
        "his own side." in refused.content
    assert not (await gm(battle_session, "/general add name:Montcalm side:French "
                                         "unit:Béarn")).ephemeral


async def test_override_takes_a_result_typed_as_the_list_shows_it(battle_session):
    await melee_to_override(battle_session)
    tie = 'Béarn retires 3"; Rangers retires 3"'
    assert tie in await override_choices(battle_session, "retires")
    # Typed rather than picked: the text the list shows, in any case.
    message = await gm(battle_session, f"/gm override result:'{tie.upper()}'")
    assert not message.ephemeral, message.content
    assert "Drawn" in message.embeds[0]["title"]


async def test_override_takes_words_that_fit_one_result_and_names_several_they_fit(
        battle_session):
    await melee_to_override(battle_session)
    offered = await override_choices(battle_session, "retires")
    several = await gm(battle_session, "/gm override result:retires")
    assert several.ephemeral
    assert several.content.startswith(f"⚠️ `retires` fits {len(offered)} results: “")
    assert "Type more of the one you want" in several.content
    message = await gm(battle_session, "/gm override result:'béarn retires rangers retires'")
    assert not message.ephemeral, message.content
    assert "Drawn" in message.embeds[0]["title"]


async def test_override_takes_the_start_of_one_result_where_its_words_fit_several(
        battle_session):
    await melee_to_override(battle_session)
    offered = list(await override_choices(battle_session, "retires"))
    # "Rangers retires" is in two results, and starts one.
    assert [o for o in offered if "Rangers retires" in o] == [
        'Béarn retires 3"; Rangers retires 3"', 'Rangers retires 3", loses 1 SP and is shaken']
    message = await gm(battle_session, "/gm override result:'rangers  retires'")
    assert not message.ephemeral, message.content
    assert message.embeds[0]["title"].endswith('Rangers retires 3", −1 SP, shaken'), \
        message.embeds[0]["title"]


async def test_the_roster_shows_whose_command_a_unit_is_in(battle_session):
    await setup_battle(battle_session)
    await gm(battle_session, "/unit edit unit:Rangers commander:Wolfe")
    shown = await reply(battle_session, "/battle show", user_id=GM_USER)
    lines = "\n".join(f["value"] for f in shown.embeds[0]["fields"]).splitlines()
    # Wolfe is with 2nd Foot, which he commands; Rangers is in his command from afar.
    assert [line for line in lines if "Wolfe" in line] == [
        "**2nd Foot** · 4 SP · infantry, regular · with Wolfe",
        "**Rangers** · 3 SP · infantry, open order · under Wolfe"], lines


async def test_a_general_with_a_unit_out_of_the_battle_is_said_to_be(battle_session):
    await setup_battle(battle_session)
    await gm(battle_session, '/gm set unit:"2nd Foot" field:status value:gone')
    shown = await reply(battle_session, "/battle show", user_id=GM_USER)
    generals = next(f["value"] for f in shown.embeds[0]["fields"] if f["name"] == "Generals")
    assert generals == "**Wolfe** (British) · with 2nd Foot (out of the battle)", generals
    # Said once: the unit's own line leaves him to the Generals heading.
    british = next(f["value"] for f in shown.embeds[0]["fields"] if f["name"] == "British")
    assert british.split("\n")[0] == ("**2nd Foot** · 4 SP · infantry, regular · *out: removed "
                                       "by the GM*")


async def test_a_general_killed_was_with_his_unit(battle_session):
    await setup_battle(battle_session)
    await gm(battle_session, "/gm general general:Wolfe field:status value:killed")
    shown = await reply(battle_session, "/battle show", user_id=GM_USER)
    generals = next(f["value"] for f in shown.embeds[0]["fields"] if f["name"] == "Generals")
    assert generals == "**Wolfe** (British) · was with 2nd Foot · *killed*", generals


async def test_situation_a_in_a_battle_refuses_a_unit_that_is_not_routing(battle_session):
    await setup_battle(battle_session)
    message = await reply(battle_session, "/surrender fire-at-will unit:Rangers situation:a "
                                          "dice:4")
    assert message.ephemeral
    assert message.content.startswith(
        "⚠️ Rangers is not routing; situation (a) is for a unit charged in the rear that routs.")
    assert (await units(battle_session))["Rangers"].status == "active"


async def test_a_general_typed_on_a_roster_unit_is_pointed_to_the_general_commands(
        battle_session):
    """`/unit edit` refuses a unit's general as a word: the refusal of `general=` in a fight
    points to the commands that put a general with a unit."""
    await setup_battle(battle_session)
    refused = await reply(battle_session, '/melee fire-at-will attackers:"Béarn: charging '
                                          'general=Montcalm" defenders:"2nd Foot"')
    assert refused.ephemeral
    assert refused.content == (
        "⚠️ attackers: `general=Montcalm` names Béarn's general, and in a battle that is one "
        "of its generals. Put him with it: `/general add name:Montcalm side:… unit:Béarn`, "
        "or for one already in the battle a GM's `/gm general general:Montcalm field:unit "
        "value:Béarn`; or drop the word."), refused.content
    for line in ("/general add name:Montcalm side:French unit:Béarn",
                 '/melee fire-at-will attackers:"Béarn: charging" defenders:"2nd Foot" '
                 'dice:"6 1 1 1"'):
        assert not (await reply(battle_session, line)).ephemeral, line


@pytest.mark.parametrize("situation", ["b", "c"])
async def test_situations_b_and_c_in_a_battle_point_only_to_the_routing_marker(
        battle_session, situation):
    """Situation (a) refuses a roster unit that is not routing too: the refusal of (b) and
    (c) does not send the player to it."""
    await setup_battle(battle_session)
    message = await reply(battle_session, "/surrender fire-at-will unit:Rangers "
                                          f"situation:{situation} dice:4")
    assert message.ephemeral
    assert message.content == (
        f"⚠️ Rangers is not routing; situation ({situation}) is for routing units. Give it "
        "the word `routing` (in a battle, `/unit edit unit:… words:routing`).")
    assert (await units(battle_session))["Rangers"].status == "active"


async def test_a_unit_left_with_no_sp_takes_no_surrender_test_and_its_loss_is_said_once(
        battle_session):
    await setup_battle(battle_session)
    await gm(battle_session, '/unit edit unit:Hussars strength:1')
    message = await reply(battle_session, '/melee fire-at-will attackers:"2nd Foot: charging" '
                                          'defenders:"Hussars: rear" dice:"6 1"')
    embed = message.embeds[0]
    assert embed["title"] == "💥 Attackers win by 7: Hussars loses its last SP"
    lines = embed["description"].split("\n")
    assert "📋 Hussars loses 1 SP (now 0) and leaves the battle" in lines
    assert [line for line in lines if "SP" in line] == [
        "📋 Hussars loses 1 SP (now 0) and leaves the battle"]
    assert "surrender" not in embed["description"]
    assert (await units(battle_session))["Hussars"].status == "gone"


async def test_a_surrender_in_a_battle_says_the_unit_leaves_the_roster(battle_session):
    await setup_battle(battle_session)
    await gm(battle_session, '/unit edit unit:Rangers words:routing')
    message = await reply(battle_session, "/surrender fire-at-will unit:Rangers situation:c "
                                          "dice:4")
    embed = message.embeds[0]
    assert embed["title"] == "💥 Rangers surrenders"
    assert "📋 Rangers leaves the battle" in embed["description"].split("\n")
    assert (await units(battle_session))["Rangers"].status == "gone"


async def test_one_side_of_a_large_battle_fits_a_phone(battle_session):
    await reply(battle_session, '/battle start ruleset:fire-at-will name:"Big"',
                user_id=GM_USER)
    for number in range(1, 15):
        side = "British" if number <= 7 else "French"
        message = await gm(battle_session, f'/unit add side:{side} name:"Foot {number}" '
                                           'words:"inf regular morale=4" strength:4')
        assert not message.ephemeral, message.content
    await gm(battle_session, "/general add name:Montcalm side:French")
    whole = (await reply(battle_session, "/battle show")).embeds[0]
    assert whole["footer"]["text"] == ("14 units · 16 events · side: shows one side · "
                                       "values: /unit list")
    shown = (await reply(battle_session, "/battle show side:french")).embeds[0]
    assert [f["name"] for f in shown["fields"]] == ["French", "Generals"]
    assert shown["fields"][0]["value"].count("\n") == 6
    assert "Foot 1 " not in shown["fields"][0]["value"]
    assert shown["footer"]["text"] == "French only: 7 units · 16 events · values: /unit list"
    listed = (await reply(battle_session, "/unit list side:British")).embeds[0]
    assert [f["name"] for f in listed["fields"]] == ["British"]
    refused = await reply(battle_session, "/battle show side:Prussians")
    assert refused.ephemeral
    assert refused.content == ("⚠️ This battle has no side called `Prussians`. "
                               "Its sides: British and French.")
    where = {"channel_id": CHANNEL, "user_id": PLAYER, "guild_id": GUILD}
    choices = await battle_session.autocomplete(["battle", "show"], {"side": "fr"}, "side",
                                                **where)
    assert [c["value"] for c in choices] == ["French"]
    choices = await battle_session.autocomplete(
        ["unit", "add"], {"side": "", "name": "y", "words": "inf"}, "side", **where)
    assert [c["value"] for c in choices] == ["British", "French"]


async def test_a_general_whose_unit_loses_its_last_sp_in_a_rout_risks_the_rout_table(
        battle_session):
    await setup_battle(battle_session)
    await gm(battle_session, '/unit edit unit:"2nd Foot" strength:1')
    message = await reply(battle_session, '/melee fire-at-will attackers:"Béarn: charging" '
                                          'defenders:"2nd Foot" dice:"6 1 2 2"')
    text = await full_text(battle_session, message)
    assert "2nd Foot loses its last SP and leaves the battle instead of routing." in text
    assert "Risk to Wolfe (with 2nd Foot, which lost by 2 or more, its last SP with it)" in text
    assert "vs row 2-7 (routed from melee table) → no effect" in text


async def test_a_ten_event_log_reads_an_event_a_line_and_fits_a_phone(battle_session):
    """Each event leads with who did what; an undo names what it took back in a few words,
    not its whole result again; `count:` and the struck-through undone event still hold."""
    ann, ben = PLAYER, 4000
    names = {GM_USER: "Gus", ann: "Ann", ben: "Ben"}
    moves = [(START, GM_USER), *((line, ben if "British" in line else ann) for line in ROSTER),
             ('/gm dice dice:"3 4"', GM_USER), ("/battle next", GM_USER),
             ('/melee fire-at-will attackers:Béarn defenders:"2nd Foot" dice:"5 2 6 6"', ann),
             ("/gm undo", GM_USER),
             ('/melee fire-at-will attackers:Béarn defenders:"2nd Foot" dice:"5 2 5 5"', ann),
             ("/charge fire-at-will target:Hussars chargers:Rangers dice:1", ben)]
    for line, user in moves:
        asked = await reply(battle_session, line, user_id=user, user_name=names[user])
        assert "⚠️" not in (asked.content or ""), asked.content
    await battle_session.press(asked, "Stand", channel_id=CHANNEL, user_id=ann,
                               guild_id=GUILD, user_name="Ann")
    await reply(battle_session, "/battle next", user_id=GM_USER, user_name="Gus")
    log = await reply(battle_session, "/battle log")
    assert log.embeds[0]["description"].splitlines() == [
        "`#5` Ann: Added Hussars (French)",
        "`#6` Ben: Added general Wolfe",
        "`#7` Gus: GM queued 2 dice (2 waiting)",
        "`#8` Gus: Now Turn 1, routs and retirements",
        "~~`#9` Ann: Béarn vs 2nd Foot: Attackers win by 3: 2nd Foot routs, −2 SP; "
        "Wolfe is killed~~",
        "`#10` Gus: Undid #9 (Béarn vs 2nd Foot)",
        "`#11` Ann: Béarn vs 2nd Foot: Attackers win by 3: 2nd Foot routs, −2 SP; "
        "Wolfe is captured",
        "`#12` Ben: Asked: Does Hussars counter-charge?",
        "`#13` Ann: Answered #12: Stand. Hussars vs Rangers: Hussars stands: melee follows",
        "`#14` Gus: Now Turn 1, movement"]
    # The last line says the turn: the footer does not say it again.
    assert log.embeds[0]["footer"]["text"] == "Whole log: /battle export"
    assert phone_lines(log) <= PHONE_SCREEN
    # Fewer: an undone event whose undo is not shown says which event undid it.
    short = await reply(battle_session, "/battle log count:5")
    assert short.embeds[0]["title"] == "📜 Quebec 1759: the last 5 events"
    assert short.embeds[0]["description"].startswith("`#10` Gus: Undid #9 (Béarn vs 2nd Foot)")


async def test_an_undo_names_a_unit_whose_name_holds_a_full_stop_whole(discord_session):
    """`Régt. de Béarn` is one name: the undo's label does not stop at its full stop."""
    await gm(discord_session, START)
    await gm(discord_session, '/unit add side:French name:"Régt. de Béarn" '
                              'words:"inf regular morale=5" strength:5')
    await gm(discord_session, "/gm undo")
    log = await reply(discord_session, "/battle log count:2")
    assert log.embeds[0]["description"].splitlines()[-1] == (
        "`#3` player: Undid #2 (Added Régt. de Béarn (French))")
