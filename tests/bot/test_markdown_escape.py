"""Player text in a reply: every markdown character behind a backslash, nothing else."""

from __future__ import annotations

import random
import re

from bot.render.resolution import escape

# The rule as written out once: a backslash before each of \ * _ ` ~ | >.
ONE_BY_ONE = re.compile(r"([\\*_`~|>])")


def test_markdown_is_escaped_and_plain_text_is_left_alone():
    assert escape("2nd Foot") == "2nd Foot"
    assert escape("**Gren_adiers** `x` ~y~ |z| > q \\") == \
        "\\*\\*Gren\\_adiers\\*\\* \\`x\\` \\~y\\~ \\|z\\| \\> q \\\\"
    rng = random.Random(3)
    for _ in range(5000):
        text = "".join(rng.choice("ab é🎲\\*_`~|>:") for _ in range(rng.randint(0, 16)))
        assert escape(text) == ONE_BY_ONE.sub(r"\\\1", text)
