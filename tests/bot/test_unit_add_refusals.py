"""What `/unit add` and `/general add` say when the words or the name will not do: each
refusal says what to type instead, privately, and adds nothing."""

from __future__ import annotations

import pytest

from bot.offline import OfflineDiscord
from rules.registry import RULESETS

from .conftest import GM_USER, reply, text_of


async def gm(session: OfflineDiscord, line: str):
    return await reply(session, line, user_id=GM_USER)


@pytest.mark.parametrize("blank", ['"   "', '" "'])
async def test_a_blank_unit_name_is_refused_as_missing(discord_session, blank):
    await gm(discord_session, "/battle start ruleset:tricorne name:Culloden")
    refused = await gm(discord_session,
                       f"/unit add side:Government name:{blank} words:regular strength:4")
    assert refused.ephemeral
    assert refused.content == ("⚠️ A unit needs a name. Give `name:` 1 to 64 characters, "
                               "e.g. `2nd Foot`.")
    assert "Government" not in text_of(await gm(discord_session, "/battle show"))


async def test_a_name_in_a_phones_curly_double_quotes_is_refused_as_straight_ones_are(
        discord_session):
    """The notation reads “ ” as double quotes: a name holding them could not then be
    named with a fight's words (`"2nd Bn “The Buffs”: cards=1"`)."""
    await gm(discord_session, "/battle start ruleset:tricorne name:Culloden")
    for name in ('2nd Bn “The Buffs”', '„Buffs“'):
        refused = await gm(discord_session,
                           f'/unit add side:Government name:"{name}" words:regular')
        assert refused.ephemeral and refused.content == (
            f"⚠️ `{name}` cannot be a name. Use 1 to 64 characters, without ; : \" (or a "
            "phone's “ ”) or backticks (an apostrophe is fine).")
    assert "Government" not in text_of(await gm(discord_session, "/battle show"))


async def test_a_blank_general_name_is_refused_as_missing(discord_session):
    await gm(discord_session, "/battle start ruleset:tricorne name:Culloden")
    refused = await gm(discord_session, '/general add side:Government name:"  "')
    assert refused.ephemeral
    assert refused.content.startswith("⚠️ A general needs a name.")


@pytest.mark.parametrize("ruleset", [r for r in RULESETS.values() if r.battle.general_words],
                         ids=lambda r: r.key)
async def test_a_general_among_a_units_words_is_refused_pointing_to_general_add(
        discord_session, ruleset):
    """A quick lookup takes a unit's general among its words (`general="Wolfe"`,
    `leader=Wellington`); a battle's roster attaches him with `/general add`, and says so."""
    (word,) = ruleset.battle.general_words[:1]
    lookup_field = next(spec for _, fields in ruleset.help.words for spec in fields.fields
                        if spec.name == word)
    typed, named = (word, "…") if lookup_field.kind is bool else (f"{word}=Wolfe",
                                                                   '"Wolfe"')
    await gm(discord_session, f"/battle start ruleset:{ruleset.key} name:Trial")
    refused = await gm(discord_session, '/unit add side:British name:"2nd Foot" '
                                        f'words:"{ruleset.battle.unit_example} {typed}" '
                                        "strength:4")
    assert refused.ephemeral
    kind = "one of the battle's generals" if word == "general" else "a general"
    assert refused.content == (
        f"⚠️ words: in a battle a unit's {word} is {kind}, not a word of the unit. "
        f"Add the unit without it, then the {word} with `/general add name:{named} "
        "side:… unit:…`.")
    assert "2nd Foot" not in text_of(await gm(discord_session, "/battle show"))
    added = await gm(discord_session, '/unit add side:British name:"2nd Foot" '
                                      f'words:"{ruleset.battle.unit_example}" strength:4')
    assert not added.ephemeral
    edited = await gm(discord_session, f'/unit edit unit:"2nd Foot" words:"{typed}"')
    assert edited.ephemeral and edited.content == refused.content


def test_each_battle_rule_set_whose_lookups_name_a_general_declares_the_word():
    """The words a lookup takes for a unit's general, that the roster does not."""
    for ruleset in RULESETS.values():
        named = {spec.name for _, fields in ruleset.help.words for spec in fields.fields
                 if spec.name in ("general", "leader")
                 and not ruleset.battle.unit_fields.knows(f"{spec.name}=x")}
        assert named <= set(ruleset.battle.general_words), ruleset.key


async def test_a_name_of_64_characters_is_taken_and_one_of_65_refused(discord_session):
    """A name is 1 to 64 characters: 64 exactly is a name, for a unit and a general; 65 is
    refused where the bot reads it (`/gm set field:name`, `/unit edit rename:`), Discord
    holding `/unit add` to 64."""
    await gm(discord_session, "/battle start ruleset:tricorne name:Culloden")
    longest, too_long = "A" * 62 + "’s", "B" * 65
    added = await gm(discord_session,
                     f'/unit add side:Jacobites name:"{longest}" words:highland')
    assert added.content == f"➕ {longest} joins the Jacobites side: 4 blocks, highland " \
                            "(event #2).", added.content
    general = await gm(discord_session, f'/general add side:Jacobites name:"{"C" * 64}"')
    assert general.content == f"🎖️ {'C' * 64} (Jacobites) takes the field (event #3).", \
        general.content
    for line in (f'/gm set unit:"{longest}" field:name value:"{too_long}"',
                 f'/unit edit unit:"{longest}" rename:"{too_long}"'):
        refused = await gm(discord_session, line)
        assert refused.ephemeral and refused.content == (
            f"⚠️ `{too_long}` cannot be a name. Use 1 to 64 characters, without ; : \" (or a "
            "phone's “ ”) or backticks (an apostrophe is fine)."), (line, refused.content)
    renamed = await gm(discord_session,
                       f'/gm set unit:"{longest}" field:name value:"{"D" * 64}"')
    assert renamed.content == f"🛠️ {longest} is renamed {'D' * 64} (event #4).", \
        renamed.content
    shown = text_of(await gm(discord_session, "/battle show"))
    assert f"**{'D' * 64}** · 4 blocks · highland\n" in shown
    assert too_long not in shown
