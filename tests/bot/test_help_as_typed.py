"""Each rule set's words page works as written: the example units it shows are taken when
typed, in a quick lookup and in a battle, and a word is spelled the same on the page and in
a refusal's list of the words a unit takes."""

from __future__ import annotations

import pytest

from rules.registry import RULESETS

from .conftest import reply, text_of


@pytest.mark.parametrize("ruleset", RULESETS.values(), ids=lambda r: r.key)
async def test_a_word_is_spelled_alike_on_the_words_page_and_in_a_refusal(discord_session,
                                                                         ruleset):
    page = text_of(await reply(discord_session, f"/help topic:{ruleset.key} part:words"))
    for _, fields in ruleset.help.words:
        listed = [w for w in fields.words() if w.endswith("=")]  # what a refusal lists
        for word in listed:
            assert f"{word}…" in page, (ruleset.key, word)
        for spec in fields.fields:
            if spec.kind in (int, float, str) and "_" in spec.name:
                dashed = spec.name.replace("_", "-")
                assert f"{dashed}=" not in page, (ruleset.key, dashed)
                assert fields.knows(f"{spec.name}=1") and fields.knows(f"{dashed}=1")
