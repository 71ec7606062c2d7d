"""/help on a phone: the overview, and each rule set's topic one part at a time, in pages of
one phone screen that ◀ and ▶ step through.

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
from rules.registry import RULESETS

from .conftest import CHANNEL, GM_USER, GUILD, PLAYER, reply, text_of
from .help_pages import fields_of, labels, pages, text_of_pages, turn
from .phone import PHONE_SCREEN, phone_lines, screen

COMMANDS = list(each_ruleset(Lookups(store=None)))  # type: ignore[arg-type]
WITH_SETTINGS = [r for r in RULESETS.values() if r.battle and r.battle.settings.fields]


async def test_every_page_of_the_overview_fits_a_phone_screen(discord_session):
    shown = await pages(discord_session, "/help")
    assert len(shown) > 1
    for message in shown:
        assert message.ephemeral
        assert violations(message.embeds, message.content) == []
        assert "cut to fit" not in text_of(message)
        assert phone_lines(message) <= PHONE_SCREEN, "\n".join(screen(message))


async def test_the_overview_shows_one_example_of_each_rule_set_as_typed(discord_session):
    text = text_of_pages(await pages(discord_session, "/help"))
    for commands in COMMANDS:
        shown = [sub.example for sub in commands.subcommands if f"`{sub.example}`" in text]
        assert len(shown) == 1, (commands.ruleset.key, shown)
        assert f"`{commands.ruleset.key}`: " in text, commands.ruleset.key


def test_more_rule_sets_run_on_over_more_pages_each_a_phone_screen(discord_session):
    """A rule set added later never pushes a page of the overview past one screen: the
    overview takes another page, each rule set still with its example."""
    from types import SimpleNamespace

    from bot.cogs.help import overview

    many = COMMANDS * 2  # as if there were twice as many rule sets
    specs = overview(discord_session.client.tree, many)
    for spec in specs:
        message = SimpleNamespace(content=None, embeds=[{
            "title": spec.title, "description": spec.description,
            "footer": {"text": spec.footer}}], components=[{"components": [{}, {}]}])
        assert phone_lines(message) <= PHONE_SCREEN, "\n".join(screen(message))
    text = "\n".join(spec.description for spec in specs)
    assert text.count("e.g.") == len(many)


async def test_the_overview_names_every_battle_and_gm_command(discord_session):
    text = text_of_pages(await pages(discord_session, "/help"))
    for name in ("battle", "unit", "general", "gm"):
        group = discord_session.tree.get_command(name)
        assert isinstance(group, app_commands.Group)
        (line,) = [line for line in text.split("\n") if f"`/{name}` " in line]
        named = re.findall(r"[a-z]+", line.split(f"`/{name}` ", 1)[1])
        assert set(named) >= {sub.name for sub in group.commands}, name
    assert "`/answer`" in text
    assert "`/notify off` or `on`" in text


async def test_the_overview_says_where_the_words_settings_and_quoting_are(discord_session):
    text = text_of_pages(await pages(discord_session, "/help"))
    assert "**Words, quoting names, settings**: `/help topic:`" in text


@pytest.mark.parametrize("ruleset", RULESETS.values(), ids=lambda r: r.key)
async def test_every_page_of_every_topic_fits_a_phone_screen(discord_session, ruleset):
    """Next steps from the commands' first page through every page of every part, each
    private, within Discord's limits and one phone screen, its footer numbering it."""
    shown = await pages(discord_session, f"/help topic:{ruleset.key}", part="*")
    titles = []
    for message in shown:
        assert message.ephemeral
        assert violations(message.embeds, message.content) == []
        assert "cut to fit" not in text_of(message)
        assert phone_lines(message) <= PHONE_SCREEN, "\n".join(screen(message))
        titles.append(message.embeds[0]["title"])
    # Every part, in order, each once and whole before the next.
    parts = [title.split(": ", 1)[1] for title in dict.fromkeys(titles)]
    assert len(parts) == len(parts_of(ruleset))
    assert titles == sorted(titles, key=titles.index)
    for part in parts_of(ruleset):
        each = await pages(discord_session, f"/help topic:{ruleset.key} part:{part}",
                           part=part.value)
        footers = [m.embeds[-1]["footer"]["text"] for m in each]
        if len(each) > 1:
            assert [f.split(" · ", 1)[0] for f in footers] == [
                f"{n}/{len(each)}" for n in range(1, len(each) + 1)]


async def test_a_field_run_on_to_the_next_page_starts_there_with_a_sentence(discord_session):
    """The strength field's example stays with the sentence that leads into it ("e.g.:"),
    so the page it runs on to does not start mid-sentence with the example."""
    shown = await pages(discord_session, "/help topic:labataille part:words", part="words")
    last = shown[-1].embeds[0]["fields"]
    assert [(f["name"], f["value"]) for f in last] == [(
        "In a battle: strength in increments",
        "A unit's strength counts increments, in `/battle show` and every reply. Give it "
        "with `strength` on `/unit add` or `/unit edit`, or among the words as "
        "`increments=N`, e.g.:\n`/unit add side:British name:\"2nd Foot\" "
        "words:\"infantry morale=34 melee=8\" strength:4`\nA unit's general is added with "
        "`/general add … unit:`, not among its words.")]
    # Le Baton's field does not fit whole after its words: it runs on at a sentence.
    shown = await pages(discord_session, "/help topic:le-baton part:words", part="words")
    assert [(f["name"], f["value"]) for f in shown[-1].embeds[0]["fields"]] == [(
        "In a battle: strength in figures (cont.)",
        "A unit's general is added with `/general add … unit:`, not among its words.")]
    assert shown[-2].embeds[0]["fields"][-1]["value"].endswith(
        "e.g.:\n`/unit add side:British name:\"2nd Foot\" words:\"british inf veteran "
        "line\" strength:4`")


async def test_back_shows_the_page_before_and_steps_back_across_parts(discord_session):
    first = await reply(discord_session, "/help topic:labataille part:words")
    assert labels(first) == ["◀ commands 5/5", "words 2/6 ▶"]
    second = await turn(discord_session, first, "words 2/6 ▶")
    assert second.ephemeral and labels(second) == ["◀ words 1/6", "words 3/6 ▶"]
    back = await turn(discord_session, second, "◀ words 1/6")
    assert back.embeds == first.embeds
    commands = await turn(discord_session, first, "◀ commands 5/5")
    assert commands.embeds[0]["footer"]["text"].startswith("5/5 · ")
    assert commands.embeds[0]["title"] == "La Bataille: commands"


async def test_a_help_button_works_from_its_id_alone(discord_session):
    """The page a button shows is read from its custom id, as after a restart: one past
    the last page (the help changed since) shows the last; a rule set no longer there is
    refused privately."""
    message = await reply(discord_session, "/help topic:tricorne")
    where = {"channel_id": CHANNEL, "user_id": PLAYER, "guild_id": GUILD}
    (shown,) = await discord_session.press_forged(
        message, "words 1/4 ▶", "huzzah:help:tricorne:words:2", **where)
    assert shown.embeds[0]["title"] == "Commands & Colors Tricorne: unit words"
    assert shown.embeds[0]["footer"]["text"].startswith("3/4 · ")
    (last,) = await discord_session.press_forged(
        message, "words 1/4 ▶", "huzzah:help:tricorne:reference:99", **where)
    assert last.embeds[0]["footer"]["text"].startswith("2/2 · ")
    assert labels(last) == ["◀ reference 1/2"]
    (gone,) = await discord_session.press_forged(
        message, "words 1/4 ▶", "huzzah:help:napoleon:words:0", **where)
    assert gone.ephemeral and gone.content == (
        "⚠️ That help page is no longer there. `/help` gives the overview.")


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
        shown = await pages(discord_session, f"/help topic:{ruleset.key} part:{part}",
                            part=part.value)
        assert all(m.ephemeral and violations(m.embeds) == [] for m in shown)
        assert fields_of(shown), part
        for message in shown:
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
    fields = fields_of(await pages(discord_session, "/help topic:fire-at-will part:words",
                                   part="words"))
    assert list(fields)[:3] == ["Every unit", "Melee units (attackers, defenders), also",
                                "Chargers, also"]
    text = "\n".join(fields.values())
    assert text.count("morale=…: basic morale") == 1
    assert "distance=…" in fields["Chargers, also"]
    assert "charging: the unit is charging" in fields["Melee units (attackers, defenders), also"]


async def test_le_baton_words_say_which_a_battles_roster_keeps(discord_session):
    fields = fields_of(await pages(discord_session, "/help topic:le-baton part:words",
                                   part="words"))
    kept = next(name for name in fields if name.startswith("Figures and markers"))
    assert "the roster keeps them" in kept and "`/gm set`" in kept
    # `/unit add` takes the unit's words; its markers are the roster's, not among them.
    assert "held:" in fields[kept] and "held:" not in fields["Units"]
    assert "column / line / square / skirmish" in fields["Units"]


async def test_la_bataille_words_name_a_choice_once_not_again_after_it(discord_session):
    """A line's words are not listed a second time as what they mean."""
    fields = fields_of(await pages(discord_session, "/help topic:labataille part:words",
                                   part="words"))
    lines = fields["Stacks (attackers, defenders)"].splitlines()
    assert [line for line in lines if " / " in line or line.startswith("increments")] == [
        "infantry (inf) / artillery (art, arty) / cavalry (cav): the stack's arm",
        "column / line / square (carre, carré) / skirmish / general: its formation "
        "(general: General Order)",
        "good / disordered (disorder) / routed (rout): its order",
        "fresh / tired / exhausted: cavalry's fatigue after a charge",
        "none / charging / charged: its Charge marker (charged: inverted)",
        "increments=…: its strength, needed where fire or a pursuit may cost some"]


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
    for typed in ("settings", "setings", "Setting"):  # a near miss is told the same
        message = await reply(discord_session, f"/help topic:le-baton part:{typed}")
        assert message.ephemeral and not message.embeds
        assert message.content == ("⚠️ Le Baton has no settings: its rules leave nothing to "
                                   "choose. Its parts: `part:commands` · `part:words` · "
                                   "`part:reference`."), typed
    message = await reply(discord_session, "/help topic:fire-at-will part:refrence")
    assert message.content.startswith("⚠️ Fire at Will has no reference part. Its parts:")


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
    shown = {name.split(":")[0]: name for name in fields_of(
        await pages(discord_session, f"/help topic:{ruleset.key} part:settings",
                    part="settings"))}
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
