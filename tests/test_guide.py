"""docs/adding-a-rule-set.md shows the example rule set whole: each block of code it shows is
its file, word for word, so the guide cannot drift from the code the tests run."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GUIDE = (ROOT / "docs" / "adding-a-rule-set.md").read_text()
# A block follows the line that names its file: "`rules/skirmish/__init__.py`, the engine:".
SHOWN = dict(re.findall(r"^`([\w/.]+\.py)`[^\n]*:\n\n```python\n(.*?)```", GUIDE, re.S | re.M))


@pytest.mark.parametrize("path", ["rules/skirmish/__init__.py", "bot/rulesets/skirmish.py"])
def test_the_guide_shows_the_example_s_file_word_for_word(path):
    assert SHOWN[path] == (ROOT / path).read_text()


def test_the_guide_s_registry_lines_are_the_registry_s():
    (block,) = re.findall(r"registry line.*?```text\n(.*?)```", GUIDE, re.S)
    registry = (ROOT / "rules" / "registry.py").read_text()
    assert all(line in registry for line in block.splitlines())


def test_the_example_is_as_small_as_the_guide_says():
    lines = sum(len((ROOT / path).read_text().splitlines()) for path in SHOWN)
    assert f"in {lines} lines and two files" in " ".join(GUIDE.split())
    assert lines <= 150
