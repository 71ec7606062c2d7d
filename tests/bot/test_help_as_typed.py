"""Each rule set's words page works as written: the example units it shows are taken when
typed, in a quick lookup and in a battle, and a word is spelled the same on the page and in
a refusal's list of the words a unit takes."""

from __future__ import annotations

import re

import pytest

from bot.cogs.lookups import Lookups
from bot.rulesets import each_ruleset
from rules.registry import RULESETS

from .conftest import GM_USER, reply, text_of
from .help_pages import pages, text_of_pages

COMMANDS = list(each_ruleset(Lookups(store=None)))  # type: ignore[arg-type]
BATTLE_RULESETS = [r for r in RULESETS.values() if r.battle is not None]


@pytest.mark.parametrize("ruleset", RULESETS.values(), ids=lambda r: r.key)
async def test_a_word_is_spelled_alike_on_the_words_page_and_in_a_refusal(discord_session,
                                                                         ruleset):
    page = text_of_pages(await pages(discord_session, f"/help topic:{ruleset.key} part:words",
                                     part="words"))
    for _, fields in ruleset.help.words:
        listed = [w for w in fields.words() if w.endswith("=")]  # what a refusal lists
        for word in listed:
            assert f"{word}…" in page, (ruleset.key, word)
        for spec in fields.fields:
            if spec.kind in (int, float, str) and "_" in spec.name:
                dashed = spec.name.replace("_", "-")
                assert f"{dashed}=" not in page, (ruleset.key, dashed)
                assert fields.knows(f"{spec.name}=1") and fields.knows(f"{dashed}=1")


def words_page_description(message) -> str:
    return message.embeds[0]["description"]


@pytest.mark.parametrize("commands", COMMANDS, ids=lambda c: c.ruleset.key)
async def test_the_unit_the_words_page_shows_is_taken_by_its_command(discord_session,
                                                                     commands):
    """The unit shown is in the rule set's own words: typed in the quick lookup the page
    names, it is read and the lookup rolls."""
    ruleset = commands.ruleset
    page = await reply(discord_session, f"/help topic:{ruleset.key} part:words")
    shown = re.search(r'e\.g\. `(\w+:"[^"]+")` in `/(\w+) ([\w-]+)`',
                      words_page_description(page))
    assert shown, words_page_description(page)
    option, verb, key = shown.groups()
    assert key == ruleset.key
    (typed,) = [sub.example for sub in commands.subcommands
                if sub.verb == verb and f" {option}" in sub.example]
    rolled = await reply(discord_session, typed)
    assert not rolled.ephemeral and "⚠️" not in text_of(rolled), text_of(rolled)


@pytest.mark.parametrize("ruleset", BATTLE_RULESETS, ids=lambda r: r.key)
async def test_the_unit_add_the_words_page_shows_works_as_typed(discord_session, ruleset):
    page = text_of_pages(await pages(discord_session, f"/help topic:{ruleset.key} part:words",
                                     part="words"))
    (typed,) = re.findall(r"`(/unit add [^`]+)`", page)
    assert f'words:"{ruleset.battle.unit_example}"' in typed
    await reply(discord_session, f"/battle start ruleset:{ruleset.key} name:Trial",
                user_id=GM_USER)
    added = await reply(discord_session, typed, user_id=GM_USER)
    assert not added.ephemeral, added.content
    assert added.content.startswith("➕ 2nd Foot joins the British side: ")
    assert "**2nd Foot**" in text_of(await reply(discord_session, "/battle show"))


async def test_no_words_page_shows_another_rule_sets_words(discord_session):
    """Fire at Will's `regular` and `general=` were once every page's example."""
    for commands in COMMANDS:
        if commands.ruleset.key == "fire-at-will":
            continue
        page = await reply(discord_session, f"/help topic:{commands.ruleset.key} part:words")
        assert "inf regular charging" not in words_page_description(page)
