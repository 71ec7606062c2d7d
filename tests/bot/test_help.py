"""/help on a phone: the overview in two screens, each rule set's topic one part at a time.

What the pages show is read from the registry and the command tree, so a rule set added later
is held to the same: its commands and examples in the overview and its topic, its settings
by the key a GM types in `/battle setting`.
"""

from __future__ import annotations

import re

import pytest
from discord import app_commands

from bot.cogs.help import Part, parts_of, takes, unit_example
from bot.cogs.lookups import Lookups
from bot.render.limits import violations
from bot.rulesets import each_ruleset
from rules.core.fields import Field
from rules.core.notation import quoting_rule
from rules.registry import EXAMPLES, RULESETS

from .conftest import CHANNEL, GM_USER, GUILD, PLAYER, reply, text_of
from .phone import PHONE_SCREEN, phone_lines, screen

COMMANDS = list(each_ruleset(Lookups(store=None)))  # type: ignore[arg-type]
WITH_SETTINGS = [r for r in RULESETS.values() if r.battle and r.battle.settings.fields]


async def test_the_overview_fits_two_phone_screens(discord_session):
    message = await reply(discord_session, "/help")
    assert message.ephemeral
    assert violations(message.embeds, message.content) == []
    assert "cut to fit" not in text_of(message)
    assert phone_lines(message) <= 2 * PHONE_SCREEN, "\n".join(screen(message))


async def test_the_overview_shows_one_example_of_each_rule_set_as_typed(discord_session):
    """One example each while they fit two screens; past them (the example rule set, which
    the tests turn on, counts here) none, each rule set named with its verbs instead."""
    text = text_of(await reply(discord_session, "/help"))
    each = 0 if "**Examples**: `/help topic:`" in text else 1  # examples each, in this mode
    for commands in COMMANDS:
        shown = [sub.example for sub in commands.subcommands if f"`{sub.example}`" in text]
        assert len(shown) == each, (commands.ruleset.key, shown)
        assert f"`{commands.ruleset.key}`: " in text, commands.ruleset.key


def test_more_rule_sets_than_two_screens_hold_an_example_each_are_named_without_one(
        discord_session):
    """A rule set added later never pushes the overview past two screens: past them, each
    is named with its verbs, and `/help topic:` gives the examples."""
    from types import SimpleNamespace

    from bot.cogs.help import overview

    tree = discord_session.client.tree
    many = COMMANDS * 2  # as if there were twice as many rule sets
    [spec] = overview(tree, many)
    message = SimpleNamespace(content=None, embeds=[{"title": spec.title,
                                                     "description": spec.description}],
                              components=[])
    assert phone_lines(message) <= 2 * PHONE_SCREEN, "\n".join(screen(message))
    assert "e.g." not in spec.description and "**Examples**: `/help topic:`" in spec.description
    for commands in COMMANDS:
        assert f"`{commands.ruleset.key}`: " in spec.description
    # The rule sets players see, each with its example: the example rule set, which the
    # tests turn on, is not theirs, and may tip the tests' overview past two screens.
    seen = [c for c in COMMANDS if c.ruleset not in EXAMPLES]
    [shipped] = overview(tree, seen)
    assert shipped.description.count("e.g.") == len(seen), (
        "the /help overview players see no longer fits an example of each rule set in two "
        "phone screens: shorten the longest `shortest_example`, or drop this line if the "
        "overview should now name the rule sets by their verbs alone")


async def test_the_overview_names_every_battle_and_gm_command(discord_session):
    text = text_of(await reply(discord_session, "/help"))
    for name in ("battle", "unit", "general", "gm"):
        group = discord_session.tree.get_command(name)
        assert isinstance(group, app_commands.Group)
        (line,) = [line for line in text.split("\n") if f"`/{name}` " in line]
        named = re.findall(r"[a-z]+", line.split(f"`/{name}` ", 1)[1])
        assert set(named) >= {sub.name for sub in group.commands}, name
    assert "`/answer`" in text
    assert "`/notify off` or `on`" in text


async def test_the_overview_says_where_the_words_settings_and_quoting_are(discord_session):
    text = text_of(await reply(discord_session, "/help"))
    assert "**Words, quoting names, settings**: `/help topic:`" in text


@pytest.mark.parametrize("ruleset", RULESETS.values(), ids=lambda r: r.key)
async def test_the_topic_starts_with_its_commands(discord_session, ruleset):
    plain = await reply(discord_session, f"/help topic:{ruleset.key}")
    commands = await reply(discord_session, f"/help topic:{ruleset.key} part:commands")
    assert plain.embeds == commands.embeds
    assert plain.embeds[0]["title"] == f"{ruleset.title}: commands"
    # How to give a question's answer ahead is said where its commands are.
    assert plain.embeds[0]["description"].endswith(
        "A choice the rules leave to a player comes as buttons; `choices` gives the answers "
        "ahead, in order, as the buttons word them (`;` between two).")


@pytest.mark.parametrize("ruleset", RULESETS.values(), ids=lambda r: r.key)
async def test_each_part_the_footer_offers_has_something_in_it(discord_session, ruleset):
    for part in parts_of(ruleset):
        message = await reply(discord_session, f"/help topic:{ruleset.key} part:{part}")
        assert message.ephemeral and violations(message.embeds) == []
        assert message.embeds[0]["fields"], part
        footer = message.embeds[-1]["footer"]["text"]
        offered = re.findall(r"part:(\w+)", footer)
        assert offered == [p.value for p in parts_of(ruleset) if p is not part]


@pytest.mark.parametrize("ruleset", RULESETS.values(), ids=lambda r: r.key)
async def test_the_words_part_gives_the_quoting_rule(discord_session, ruleset):
    message = await reply(discord_session, f"/help topic:{ruleset.key} part:words")
    [commands] = [c for c in COMMANDS if c.ruleset.key == ruleset.key]
    example = unit_example(commands)
    assert example is not None
    words = example.unit.split(":", 1)[1].strip()
    assert quoting_rule(words) in message.embeds[0]["description"]


@pytest.mark.parametrize("commands", COMMANDS, ids=lambda c: c.ruleset.key)
async def test_the_quoting_rules_unit_is_taken_as_printed(discord_session, commands):
    """`Fraser's Highlanders: …` in a topic's words is in that rule set's own words: typed
    in its example, it is read (Tricorne has no `inf`)."""
    message = await reply(discord_session, f"/help topic:{commands.ruleset.key} part:words")
    [printed] = re.findall(r"An apostrophe is part of a name: `(Fraser's Highlanders: [^`]+)`",
                           message.embeds[0]["description"])
    example = unit_example(commands)
    assert example is not None
    [line] = [sub.example for sub in commands.subcommands
              if f'{example.option}:"{example.unit}"' in sub.example]
    typed = line.replace(f'{example.option}:"{example.unit}"', f'{example.option}:"{printed}"')
    result = await reply(discord_session, typed)
    assert "⚠️" not in text_of(result), text_of(result)
    assert "Fraser's Highlanders" in text_of(result)


async def test_tricorne_words_quote_a_name_with_tricorne_words(discord_session):
    message = await reply(discord_session, "/help topic:tricorne part:words")
    description = message.embeds[0]["description"]
    assert ("An apostrophe is part of a name: `Fraser's Highlanders: regular blocks=3`"
            in description)
    assert '(`"Regiment: 1st Bn": regular blocks=3`)' in description
    assert ": inf`" not in description


async def test_words_every_kind_of_unit_takes_are_listed_once(discord_session):
    message = await reply(discord_session, "/help topic:fire-at-will part:words")
    fields = {f["name"]: f["value"] for f in message.embeds[0]["fields"]}
    assert list(fields)[:3] == ["Every unit", "Melee units (attackers, defenders), also",
                                "Chargers, also"]
    text = "\n".join(fields.values())
    assert text.count("morale=…: basic morale") == 1
    assert "distance=…" in fields["Chargers, also"]
    assert "charging: the unit is charging" in fields["Melee units (attackers, defenders), also"]


async def test_le_baton_words_say_which_a_battles_roster_keeps(discord_session):
    message = await reply(discord_session, "/help topic:le-baton part:words")
    fields = {f["name"]: f["value"] for f in message.embeds[0]["fields"]}
    kept = next(name for name in fields if name.startswith("Figures and markers"))
    assert "the roster keeps them" in kept and "`/gm set`" in kept
    # `/unit add` takes the unit's words; its markers are the roster's, not among them.
    assert "held:" in fields[kept] and "held:" not in fields["Units"]
    assert "column / line / square / skirmish" in fields["Units"]


async def help_parts_offered(session, typed: str, **options: str) -> list[str]:
    choices = await session.autocomplete(["help"], {**options, "part": typed}, "part",
                                         channel_id=CHANNEL, user_id=PLAYER, guild_id=GUILD)
    return [c["value"] for c in choices]


async def test_the_part_list_offers_only_the_parts_the_topic_has(discord_session):
    """Fire at Will has no reference part, Le Baton no settings: neither is offered."""
    assert await help_parts_offered(discord_session, "", topic="fire-at-will") == [
        "commands", "words", "settings"]
    assert await help_parts_offered(discord_session, "", topic="le-baton") == [
        "commands", "words", "reference"]
    assert await help_parts_offered(discord_session, "re", topic="tricorne") == ["reference"]
    assert await help_parts_offered(discord_session, "re", topic="fire-at-will") == []
    # No topic yet: every part some rule set has.
    assert await help_parts_offered(discord_session, "") == [p.value for p in Part]


async def test_a_part_the_rule_set_lacks_is_refused_with_the_parts_it_has(discord_session):
    message = await reply(discord_session, "/help topic:fire-at-will part:reference")
    assert message.ephemeral and not message.embeds
    assert message.content == ("⚠️ Fire at Will has no reference part. Its parts: "
                               "`part:commands` · `part:words` · `part:settings`.")
    message = await reply(discord_session, "/help topic:le-baton part:settings")
    assert message.ephemeral and not message.embeds
    assert message.content == ("⚠️ Le Baton has no settings: a battle plays it as its text "
                               "reads. Its parts: `part:commands` · `part:words` · "
                               "`part:reference`.")


async def test_a_part_typed_in_capitals_or_unknown_is_read_or_refused(discord_session):
    shown = await reply(discord_session, "/help topic:tricorne part:Reference")
    assert shown.embeds[0]["title"] == "Commands & Colors Tricorne: reference"
    message = await reply(discord_session, "/help topic:tricorne part:maps")
    assert message.ephemeral and message.content == (
        "⚠️ Commands & Colors Tricorne has no part `maps`. Its parts: `part:commands` · "
        "`part:words` · `part:settings` · `part:reference`.")
    message = await reply(discord_session, "/help topic:tricorne part:wordz")
    assert message.ephemeral and message.content == (
        "⚠️ Commands & Colors Tricorne has no part `wordz`. Did you mean `words`? Its parts: "
        "`part:commands` · `part:words` · `part:settings` · `part:reference`.")
    message = await reply(discord_session, "/help part:ref")
    assert message.content.startswith("⚠️ `ref` is not a part of a topic. Did you mean "
                                      "`reference`? The parts:")
    message = await reply(discord_session, "/help part:maps")
    assert message.content == (
        "⚠️ `maps` is not a part of a topic. The parts: `part:commands` · `part:words` · "
        "`part:settings` · `part:reference`.")


async def test_a_part_without_a_topic_says_to_name_the_rule_set(discord_session):
    message = await reply(discord_session, "/help part:words")
    assert message.ephemeral
    first = next(iter(RULESETS))
    assert message.content == ("⚠️ `part:words` is a part of a rule set's topic. "
                               f"Name the rule set too: `/help topic:{first} part:words`.")


async def test_a_part_without_a_topic_names_a_rule_set_that_has_it(discord_session):
    """The command the hint gives shows the part: Fire at Will, the first rule set, has no
    reference part, Le Baton no settings."""
    message = await reply(discord_session, "/help part:reference")
    assert message.content == ("⚠️ `part:reference` is a part of a rule set's topic. "
                               "Name the rule set too: `/help topic:le-baton part:reference`.")
    shown = await reply(discord_session, "/help topic:le-baton part:reference")
    assert shown.embeds[0]["title"] == "Le Baton: reference"


@pytest.mark.parametrize("ruleset", WITH_SETTINGS, ids=lambda r: r.key)
async def test_each_setting_shown_is_taken_by_battle_setting_as_shown(discord_session,
                                                                    ruleset):
    """The key and the values the settings part shows are what a GM types."""
    page = await reply(discord_session, f"/help topic:{ruleset.key} part:settings")
    shown = {f["name"].split(":")[0]: f["name"] for f in page.embeds[0]["fields"]}
    await reply(discord_session, f"/battle start ruleset:{ruleset.key} name:Trial",
                user_id=GM_USER)
    for setting in ruleset.battle.settings.fields:
        values = re.findall(r"`([^`]+)`", shown[setting.name])
        if setting.is_enum:
            assert values == [str(member.value) for member in setting.kind]
        for value in (*values, "default"):
            done = await reply(discord_session,
                               f"/battle setting name:{setting.name} value:{value}",
                               user_id=GM_USER)
            if not values:  # nothing set before: already its default, and nothing logged
                assert done.content.startswith(f"⚠️ `{setting.name}` is already its default")
                continue
            said = ("back to its default" if value == "default"
                    else f"= {value}")
            assert done.embeds[0]["title"] == f"⚙️ Setting: {setting.name} {said}"


def test_a_setting_says_the_values_it_takes_as_a_gm_types_them():
    assert [takes(Field("n", int, "", minimum=0, maximum=3)), takes(Field("x", float, "")),
            takes(Field("on", bool, "")), takes(Field("die", str, ""))] == [
        "a whole number, 0 to 3", "a number", "`true` · `false`", "text"]


def test_a_kind_of_unit_with_no_words_of_its_own_says_so():
    from bot.cogs.help import word_fields

    fields = word_fields([("Attackers", ["a: x", "b: y", "c: z", "d: w"]),
                          ("Defenders", ["a: x", "b: y", "c: z"])])
    assert [(f.name, f.value) for f in fields] == [
        ("Every unit", "a: x\nb: y\nc: z"), ("Attackers, also", "d: w"),
        ("Defenders", "The words of every unit, above.")]
