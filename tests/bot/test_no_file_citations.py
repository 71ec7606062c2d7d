"""No reply cites a file a player does not have: not the documented examples' results and
questions, on every path of their dice and answers, nor any refusal the rules or the bot can
send."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from rules.registry import RULESETS

from .citations import citations
from .conftest import text_of
from .test_ruleset_contract import PROCEDURES, documented, every_message, ids

ROOT = Path(__file__).resolve().parents[2]
SEEDS = 20  # the contract test sweeps 200 seeds for length; the words do not need as many

# The calls that make a message a player is refused with.
REFUSALS = ("InvalidInput", "NotAllowed", "RulesError", "BattleError", "InputRefused",
            "refusal")


@pytest.mark.parametrize("pair", PROCEDURES, ids=ids)
def test_no_result_or_question_of_a_documented_example_cites_a_file(pair):
    ruleset, procedure = pair
    for example in documented(ruleset, procedure):
        request = {k: v for k, v in example.items() if k not in ("dice", "seed")}
        for seed in range(SEEDS):
            for shown in every_message({**request, "seed": seed}):
                assert citations(text_of(shown)) == [], (seed, text_of(shown))


def refusal_texts(path: Path) -> list[tuple[int, str]]:
    """The words of every refusal made in a module: its string literals, and the module's
    string constants it names (``f"... ({REFERENCE} §5)"``)."""
    module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    names = vars(importlib.import_module(module))
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if not (isinstance(node, ast.Call) and getattr(node.func, "id", getattr(
                node.func, "attr", None)) in REFUSALS):
            continue
        words = []
        for part in ast.walk(node):
            if isinstance(part, ast.Constant) and isinstance(part.value, str):
                words.append(part.value)
            elif isinstance(part, ast.Name) and isinstance(names.get(part.id), str):
                words.append(names[part.id])
        found.append((node.lineno, " ".join(words)))
    return found


def modules() -> list[Path]:
    return sorted(p for folder in ("rules", "bot") for p in (ROOT / folder).rglob("*.py")
                  if "offline" not in p.parts)


def test_the_refusals_are_found():
    """The sweep below sees the refusals it is about (a Tricorne melee's among them)."""
    melee = refusal_texts(ROOT / "rules" / "tricorne" / "melee.py")
    assert any("forest or buildings" in words for _, words in melee), melee


def test_no_refusal_cites_a_file():
    cited = {f"{path.relative_to(ROOT)}:{line}": found
             for path in modules() for line, words in refusal_texts(path)
             if (found := citations(words))}
    assert cited == {}


def test_the_help_cites_no_file_either():
    for ruleset in RULESETS.values():
        for _, words in (*ruleset.help.words, *ruleset.help.reference):
            assert citations(str(words)) == [], ruleset.key
