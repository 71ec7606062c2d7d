"""Where a reply would cite a file a player does not have: the rules texts and reference notes
the project was built from (``tricorne-melee.txt step 2``, ``reference/tricorne.md §5``,
``reference A.7``). A reply names the rule as the rulebook does; the sources are in docs/."""

from __future__ import annotations

import re

CITATION = re.compile(r"reference/|\.txt\b|\.md §|\breference (?:A\.|§)")


def citations(text: str) -> list[str]:
    return CITATION.findall(text)
