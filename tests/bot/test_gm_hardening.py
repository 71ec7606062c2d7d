"""/gm under bad input and in the wrong place: bounded values, private deferrals, servers only."""

from __future__ import annotations

import pytest
from sqlalchemy import select

import bot.respond
from bot.offline import OfflineInputError
from bot.storage.models import General

from .conftest import CHANNEL, GM_USER, GUILD, reply, send
from .test_battle_safety import everything
from .test_battles import gm, setup_battle, units

HUGE = "9223372036854775808"  # one past the largest 64-bit integer
INT64_MAX = "9223372036854775807"


@pytest.mark.parametrize("value", [HUGE, INT64_MAX, "1000", "-1"])
async def test_gm_set_holds_strength_to_the_unit_add_range(discord_session, value):
    await setup_battle(discord_session)
    before = await everything(discord_session.client.db)
    message = await gm(discord_session, f"/gm set unit:Rangers field:strength value:{value}")
    assert message.ephemeral
    assert "Use 0 to 999" in message.content
    assert "Something went wrong" not in message.content
    assert await everything(discord_session.client.db) == before


@pytest.mark.parametrize(("line", "said"), [
    ("/gm set unit:Rangers field:strength value:" + "5" * 4400,
     "⚠️ `strength` cannot be above 999. Use 0 to 999."),
    ("/gm general general:Wolfe field:wounds value:-" + "5" * 4400,
     "⚠️ `wounds` cannot be below 0. Use 0 to 1.")], ids=["strength", "wounds"])
async def test_gm_set_refuses_a_number_of_thousands_of_figures_as_out_of_range(
        discord_session, line, said):
    """Python's int() reads no more than 4,300 figures: so long a number is past the
    range, and said so, not a failed command."""
    await setup_battle(discord_session)
    before = await everything(discord_session.client.db)
    message = await gm(discord_session, line)
    assert message.ephemeral and message.content == said
    assert await everything(discord_session.client.db) == before


async def test_gm_set_takes_the_top_of_the_range(discord_session):
    await setup_battle(discord_session)
    message = await gm(discord_session, "/gm set unit:Rangers field:strength value:999")
    assert not message.ephemeral
    assert (await units(discord_session))["Rangers"].strength == 999


@pytest.mark.parametrize("value", ["٣", "۳", "३"])  # Arabic-Indic, Persian, Devanagari
async def test_gm_set_refuses_other_scripts_digits_as_typed_dice_do(discord_session, value):
    """A number is typed in the figures 0-9 wherever the bot reads one: `/gm set` strength
    and a general's wounds no longer read `٣` as 3 where the dice and a unit's words refuse
    it."""
    await setup_battle(discord_session)
    before = await everything(discord_session.client.db)
    for line, said in (
            (f"/gm set unit:Rangers field:strength value:{value}",
             f"⚠️ `strength` takes a whole number, not `{value}`. Type it in the digits 0-9, "
             "from 0 to 999."),
            (f"/gm general general:Wolfe field:wounds value:{value}",
             f"⚠️ `wounds` takes a whole number, not `{value}`. Type it in the digits 0-9, "
             "from 0 to 1."),
            (f"/gm set unit:Rangers field:morale value:{value}",
             f"⚠️ Rangers: `morale` must be a whole number, not `{value}`. Write it in plain "
             "figures, like `4`."),
            (f'/gm dice dice:"{value} 4"',
             f"⚠️ `{value}` is not a face of a d6. Type each die as a number from 1 to 6, for "
             "example `3 5 6`.")):
        message = await gm(discord_session, line)
        assert message.ephemeral and message.content == said, line
    assert await everything(discord_session.client.db) == before


async def test_a_phones_full_width_figures_read_in_gm_set_as_in_typed_dice(discord_session):
    """A phone's wide figures (２, ５) are 0-9 in another width: read as typed dice read them,
    by every field `/gm set` takes."""
    await setup_battle(discord_session)
    for line in ("/gm set unit:Rangers field:strength value:２",
                 "/gm set unit:Rangers field:morale value:５",
                 '/gm dice dice:"３ ６"'):
        message = await gm(discord_session, line)
        assert "⚠️" not in message.content, message.content
    rangers = (await units(discord_session))["Rangers"]
    assert (rangers.strength, rangers.attributes["morale"]) == (2, 5)


async def wounds(session) -> int:
    async with session.client.db.transaction() as s:
        return (await s.scalar(select(General).where(General.name == "Wolfe"))).wounds


@pytest.mark.parametrize("value", [HUGE, INT64_MAX, "2", "-1", "lots"])
async def test_gm_general_holds_wounds_to_the_general_add_range(discord_session, value):
    await setup_battle(discord_session)
    before = await everything(discord_session.client.db)
    message = await gm(discord_session, f"/gm general general:Wolfe field:wounds value:{value}")
    assert message.ephemeral
    assert "Use 0 to 1" in message.content
    assert "Something went wrong" not in message.content
    assert await everything(discord_session.client.db) == before


async def test_a_general_with_the_wound_that_took_him_out_is_not_put_back_in_play(
        discord_session):
    await setup_battle(discord_session)
    for line in ("/gm general general:Wolfe field:status value:incapacitated",
                 "/gm general general:Wolfe field:wounds value:2"):
        assert not (await gm(discord_session, line)).ephemeral, line
    before = await everything(discord_session.client.db)
    refused = await gm(discord_session, "/gm general general:Wolfe field:status value:active")
    assert refused.content == ("⚠️ Wolfe carries 2 light wounds: in play a general carries at "
                               "most 1. Set his wounds first (`field:wounds`), then his status.")
    assert await everything(discord_session.client.db) == before


async def test_gm_general_takes_one_wound(discord_session):
    await setup_battle(discord_session)
    message = await gm(discord_session, "/gm general general:Wolfe field:wounds value:1")
    assert not message.ephemeral
    assert await wounds(discord_session) == 1


# --- deferral with the visibility of the reply (item 19) -------------------------------------


def defer_at_once(monkeypatch) -> None:
    """From now on every command is deferred before its work can finish."""
    monkeypatch.setattr(bot.respond, "DEFER_AFTER", 0)


async def test_a_slow_gm_dice_defers_privately(discord_session, monkeypatch):
    await setup_battle(discord_session)
    defer_at_once(monkeypatch)
    messages = await send(discord_session, '/gm dice dice:"6 5"', user_id=GM_USER)
    assert [m.kind for m in messages] == ["deferral", "followup"]
    deferral, queue = messages
    assert deferral.request.payload == {"type": 5, "data": {"flags": 64}}
    assert queue.ephemeral and "Dice queue: 6 5" in queue.content


async def test_a_slow_override_menu_defers_privately(discord_session, monkeypatch):
    await setup_battle(discord_session)
    played = await gm(discord_session, '/melee fire-at-will attackers:"2nd Foot: charging" '
                      'defenders:Béarn dice:"6 1"')
    assert not played.ephemeral, played.content
    defer_at_once(monkeypatch)
    messages = await send(discord_session, "/gm override", user_id=GM_USER)
    assert [m.kind for m in messages] == ["deferral", "followup"]
    deferral, menu = messages
    assert deferral.request.payload == {"type": 5, "data": {"flags": 64}}
    assert menu.ephemeral and menu.content.startswith("Override #")


async def test_a_refusal_after_a_public_deferral_replaces_it_privately(discord_session,
                                                                        monkeypatch):
    await setup_battle(discord_session)
    defer_at_once(monkeypatch)
    messages = await send(discord_session, "/gm set unit:Nobody field:strength value:3",
                          user_id=GM_USER)
    assert [m.kind for m in messages] == ["deferral", "delete", "followup"]
    deferral, delete, refusal = messages
    assert not deferral.ephemeral  # a public command: its "thinking…" was public
    assert delete.message_id == "@original"  # ...and is taken away again
    assert refusal.ephemeral and "no unit called `Nobody`" in refusal.content


async def test_a_public_reply_fills_the_public_deferral(discord_session, monkeypatch):
    await setup_battle(discord_session)
    defer_at_once(monkeypatch)
    messages = await send(discord_session, "/gm set unit:Rangers field:strength value:2",
                          user_id=GM_USER)
    assert [m.kind for m in messages] == ["deferral", "followup"]
    assert not messages[1].ephemeral and "Rangers" in messages[1].content


# --- servers only (item 18, the /gm group) -----------------------------------------------------


async def test_the_gm_group_is_registered_for_servers_only(discord_session):
    (group,) = [c for c in discord_session.tree.get_commands() if c.name == "gm"]
    schema = group.to_dict(discord_session.tree)
    assert schema["contexts"] == [0]  # guild only: no bot DM, no group DM
    assert schema["dm_permission"] is False


async def test_discord_does_not_offer_gm_commands_in_a_dm(discord_session):
    with pytest.raises(OfflineInputError):
        await discord_session.invoke(["gm", "undo"], {}, channel_id=CHANNEL, user_id=GM_USER,
                                     guild_id=None)
    message = await reply(discord_session, "/gm undo", user_id=GM_USER, guild_id=GUILD)
    assert message.ephemeral and "no battle" in message.content


async def test_a_general_carries_the_wounds_his_rule_set_allows(discord_session):
    await setup_battle(discord_session)
    two = await gm(discord_session, "/general add name:Monckton side:British wounds:2")
    assert two.ephemeral and "at most 1 light wound" in two.content
    one = await gm(discord_session, "/general add name:Monckton side:British wounds:1")
    assert not one.ephemeral, one.content
    await gm(discord_session, '/battle end confirm:"Quebec 1759"')
    await gm(discord_session, "/battle start ruleset:le-baton name:Albuera")
    none = await gm(discord_session, "/general add name:Beresford side:British wounds:1")
    assert none.ephemeral and "counts no wounds on generals" in none.content


@pytest.mark.parametrize("line", ['/gm set unit:Rangers field:strength value:"   "',
                                  '/gm set unit:Rangers field:morale value:" "',
                                  '/gm general general:Wolfe field:value value:" "'])
async def test_a_blank_value_is_refused_not_taken_as_none(discord_session, line):
    await setup_battle(discord_session)
    before = await everything(discord_session.client.db)
    message = await gm(discord_session, line)
    assert message.ephemeral
    assert message.content == ("⚠️ `value` is empty. Give the new value; `none` clears one "
                               "that may be left out.")
    assert await everything(discord_session.client.db) == before


@pytest.mark.parametrize("line", ["/gm set unit:Rangers field:strength value:0",
                                  "/unit edit unit:Rangers strength:0"])
async def test_a_unit_set_to_no_strength_leaves_the_battle(discord_session, line):
    await setup_battle(discord_session)
    message = await gm(discord_session, line)
    assert not message.ephemeral
    assert "Rangers loses 3 SP (now 0) and leaves the battle" in message.content, message.content
    rangers = (await units(discord_session))["Rangers"]
    assert (rangers.strength, rangers.status, rangers.gone_reason) == (0, "gone", "no SP left")
    refused = await gm(discord_session, '/melee fire-at-will attackers:"2nd Foot: charging" '
                       'defenders:Rangers dice:"6 1"')
    assert refused.ephemeral and "Rangers is out of the battle (no SP left)" in refused.content


async def test_a_unit_is_not_added_with_no_strength(discord_session):
    await setup_battle(discord_session)
    before = await everything(discord_session.client.db)
    message = await gm(discord_session, '/unit add side:French name:Zero words:"inf morale=4" '
                       'strength:0')
    assert message.ephemeral
    assert message.content.startswith("⚠️ A unit starts with at least 1 SP.")
    assert await everything(discord_session.client.db) == before


async def test_a_stack_destroyed_by_the_gm_leaves_whatever_its_rule_sets_least(
        discord_session):
    await gm(discord_session, '/battle start ruleset:labataille name:Talavera')
    await gm(discord_session, '/unit add side:French name:"1/45e" words:"infantry morale=34 '
             'melee=12" strength:4')
    message = await gm(discord_session, '/gm set unit:"1/45e" field:strength value:0')
    assert message.content.startswith(
        "🛠️ 1/45e loses 4 increments (now 0) and is out of the battle (no increments left)")


async def test_a_unit_with_no_strength_left_comes_back_only_once_given_some(discord_session):
    await setup_battle(discord_session)
    await gm(discord_session, "/gm set unit:Rangers field:strength value:0")
    for line in ("/gm set unit:Rangers field:status value:active", "/gm restore unit:Rangers"):
        refused = await gm(discord_session, line)
        assert refused.ephemeral and "Rangers has no SP left to come back with" in \
            refused.content, (line, refused.content)
    edit = await gm(discord_session, "/unit edit unit:Rangers strength:2")
    assert "once `/gm set field:strength` gives it some" in edit.content, edit.content
    given = await gm(discord_session, "/gm set unit:Rangers field:strength value:2")
    # Still out, but no longer for want of SP: the GM is told how to bring it in.
    assert given.content == ("🛠️ Rangers gains 2 SP (now 2) and is still out of the battle "
                             "(event #9). `/gm restore unit:Rangers` brings it back.")
    shown = await gm(discord_session, "/battle show")
    assert "**Rangers** · 2 SP · infantry, open order · *out*" in str(shown.embeds)
    refused = await gm(discord_session, '/melee fire-at-will attackers:"2nd Foot: charging" '
                       'defenders:Rangers dice:"6 1"')
    assert refused.content.startswith("⚠️ Rangers is out of the battle. A GM"), refused.content
    back = await gm(discord_session, "/gm set unit:Rangers field:status value:active")
    assert not back.ephemeral and "Rangers is back in the battle" in back.content


async def test_a_rule_set_without_wounds_says_so_to_gm_general(discord_session):
    await gm(discord_session, '/battle start ruleset:le-baton name:Ligny sides:"French, British"')
    await gm(discord_session, "/general add name:Ney side:French")
    refused = await gm(discord_session, "/gm general general:Ney field:wounds value:1")
    assert refused.ephemeral
    assert refused.content.startswith("⚠️ This rule set counts no wounds on generals.")


@pytest.mark.parametrize(("start", "general", "line", "said"), [
    ("/battle start ruleset:le-baton name:Ligny sides:\"French, British\"", "Ney",
     "/gm general general:Ney field:wounds value:1",
     "⚠️ This rule set counts no wounds on generals. Fields: side, unit, status."),
    ("/battle start ruleset:fire-at-will name:Quebec sides:\"British, French\"", "Ney",
     "/gm general general:Ney field:value value:2",
     "⚠️ Fire at Will generals carry no value. Fields: side, unit, wounds, status."),
])
async def test_gm_general_on_a_field_the_rule_set_lacks_names_the_fields(
        discord_session, start, general, line, said):
    """`value` is `/gm general`'s own option, which cannot be left out: a field the rule set
    does not count is refused with the fields it does, not "Leave `value` out"."""
    await gm(discord_session, start)
    await gm(discord_session, f"/general add name:{general} side:French")
    refused = await gm(discord_session, line)
    assert refused.ephemeral and refused.content == said, refused.content


async def test_one_queued_die_is_said_in_the_singular(discord_session):
    await setup_battle(discord_session)
    await gm(discord_session, '/gm dice dice:"6"')
    log = await gm(discord_session, "/battle log")
    assert "GM queued 1 die (1 waiting)" in str(log.embeds)


async def test_an_edit_that_changes_nothing_says_whether_anything_was_given(discord_session):
    await setup_battle(discord_session)
    before = await everything(discord_session.client.db)
    empty = await gm(discord_session, "/unit edit unit:Rangers")
    assert empty.content == ("⚠️ Nothing to change on Rangers. Give words, strength, side, "
                             "rename or commander.")
    same = await gm(discord_session, '/unit edit unit:Rangers words:"morale=3" strength:3')
    assert same.ephemeral
    assert same.content == ("⚠️ Nothing to change: Rangers already has these values. "
                            "`/unit list` shows it as it is.")
    assert await everything(discord_session.client.db) == before


async def test_a_hint_quotes_a_unit_name_with_a_space_as_it_is_typed(discord_session):
    await setup_battle(discord_session)
    await gm(discord_session, '/gm set unit:"2nd Foot" field:strength value:0')
    refused = await gm(discord_session, '/gm restore unit:"2nd Foot"')
    assert '`/gm set unit:"2nd Foot" field:strength value:…`' in refused.content
    given = await gm(discord_session, '/gm set unit:"2nd Foot" field:strength value:2')
    assert given.content.endswith('`/gm restore unit:"2nd Foot"` brings it back.'), \
        given.content


async def test_a_gm_sets_strength_by_the_rule_sets_own_word(discord_session):
    # As `/unit add` takes `sp=4` among the words, `/gm set` takes `field:sp`.
    await setup_battle(discord_session)
    message = await gm(discord_session, "/gm set unit:Rangers field:SP value:2")
    assert message.content.startswith("🛠️ Rangers loses 1 SP (now 2)"), message.content


@pytest.mark.parametrize("value", ["nan", "-3", "2.5"])
async def test_a_refused_strength_is_named_by_the_word_the_gm_typed(discord_session, value):
    await setup_battle(discord_session)
    refused = await gm(discord_session, f"/gm set unit:Rangers field:SP value:{value}")
    assert refused.ephemeral and refused.content.startswith("⚠️ `sp` "), refused.content
    assert "strength" not in refused.content, refused.content


async def test_a_misspelt_field_gets_did_you_mean(discord_session):
    await setup_battle(discord_session)
    refused = await gm(discord_session, "/gm set unit:Rangers field:strenght value:2")
    assert refused.ephemeral and refused.content.startswith(
        "⚠️ `strenght` is not a unit field. Did you mean `strength`? Fields: name, side, "
        "strength,"), refused.content


@pytest.mark.parametrize(("strength", "said"), [
    # A new strength does not clear why it left (only a unit out for want of strength is
    # no longer out for that).
    (2, "loses 1 SP (now 2)"),
    # Strength 0 does not take it out again: the reply says only the loss.
    (0, "loses 3 SP (now 0)"),
])
async def test_strength_set_on_a_unit_the_gm_removed_keeps_why_it_left(discord_session,
                                                                       strength, said):
    """A unit the GM took out is out for that reason, whatever strength it is given."""
    await setup_battle(discord_session)
    await gm(discord_session, "/gm set unit:Rangers field:status value:gone")
    given = await gm(discord_session, f"/gm set unit:Rangers field:strength value:{strength}")
    assert given.content == f"🛠️ Rangers {said} (event #9).", given.content
    shown = await gm(discord_session, "/battle show")
    assert (f"**Rangers** · {strength} SP · infantry, open order · *out: removed by the GM*"
            ) in str(shown.embeds)


async def test_a_status_typed_with_a_capital_is_taken(discord_session):
    """A phone's keyboard starts a value with a capital: `Gone` and `Killed` are the words
    `/gm set` and `/gm general` take, as they take `Yes` for a marker."""
    await setup_battle(discord_session)
    out = await gm(discord_session, "/gm set unit:Rangers field:status value:Gone")
    assert out.content == "🛠️ Rangers is removed from the battle by the GM (event #8).", \
        out.content
    back = await gm(discord_session, "/gm set unit:Rangers field:status value:Active")
    assert back.content == "🛠️ Rangers is back in the battle (event #9).", back.content
    killed = await gm(discord_session, "/gm general general:Wolfe field:status value:Killed")
    assert killed.content == "🛠️ Wolfe is killed (event #10).", killed.content
    assert (await units(discord_session))["Rangers"].status == "active"
    async with discord_session.client.db.transaction() as s:
        wolfe = await s.scalar(select(General).where(General.name == "Wolfe"))
    assert wolfe.status == "killed"


async def test_an_undo_that_leaves_a_unit_out_says_it_was_out_already(discord_session):
    """Rangers left the battle with no SP; the GM gave it SP (still out), then undid that:
    it stays out, now for want of SP again, and does not "leave the battle" a second time."""
    await setup_battle(discord_session)
    for line in ("/gm set unit:Rangers field:strength value:0",
                 "/gm set unit:Rangers field:strength value:2"):
        assert not (await gm(discord_session, line)).ephemeral, line
    undone = await gm(discord_session, "/gm undo")
    assert undone.content.endswith(
        "\n📋 Rangers loses 2 SP (now 0) and is still out of the battle (no SP left)"), \
        undone.content
