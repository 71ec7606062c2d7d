"""The README's test command is the one CI runs, word for word."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def readme_commands() -> list[str]:
    return re.findall(r"```sh\n(.*?)\n```", (ROOT / "README.md").read_text(), re.S)


def test_ci_runs_the_readme_test_command_verbatim():
    test_command = next(c for c in readme_commands() if "pytest" in c)
    ci_lines = (ROOT / ".ci" / "run").read_text().splitlines()
    assert test_command in ci_lines


def test_quick_start_has_a_console_command_and_a_test_command():
    commands = readme_commands()
    assert any(c.endswith("huzzah console") for c in commands)
    assert any(c.endswith("python -m pytest") for c in commands)


def test_the_readme_gives_the_quoting_rule_help_gives():
    from rules.core.notation import QUOTING_RULE

    readme = " ".join((ROOT / "README.md").read_text().split())
    assert " ".join(QUOTING_RULE.split()) in readme
