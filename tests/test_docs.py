"""Every JSON example in docs/resolve.md runs through the real `huzzah resolve` as written."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RESOLVE_DOC = ROOT / "docs" / "resolve.md"
EXAMPLES = re.findall(r"```json\n(.*?)```", RESOLVE_DOC.read_text(), re.S)


def huzzah() -> list[str]:
    exe = shutil.which("huzzah", path=str(Path(sys.executable).parent))
    return [exe] if exe else [sys.executable, "-m", "bot.cli"]


def test_there_is_an_example_per_procedure():
    from rules.registry import RULESETS

    documented = {(json.loads(e)["ruleset"], json.loads(e)["procedure"]) for e in EXAMPLES}
    expected = {(r.key, p) for r in RULESETS.values() for p in r.procedures}
    assert expected <= documented


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: json.loads(e)["procedure"])
def test_documented_example_resolves(example):
    run = subprocess.run([*huzzah(), "resolve"], input=example, capture_output=True, text=True,
                         cwd=ROOT, timeout=60)
    assert run.returncode == 0, run.stdout + run.stderr
    response = json.loads(run.stdout)
    assert response["version"] == 1
    assert response["steps"] and response["headline"]


ODDS_EXAMPLES = re.findall(r"```odds\n(.*?)```", RESOLVE_DOC.read_text(), re.S)


@pytest.mark.parametrize("example", ODDS_EXAMPLES)
def test_the_documented_odds_run_as_written(example):
    run = subprocess.run([*huzzah(), "resolve"], input=example, capture_output=True, text=True,
                         cwd=ROOT, timeout=60)
    assert run.returncode == 0, run.stdout + run.stderr
    response = json.loads(run.stdout)
    assert (response["version"], response["mode"], response["exact"]) == (1, "odds", True)
    (branch,) = response["branches"]
    groups = {g["group"]: g["probability"] for g in branch["groups"]}
    # Two equal regulars: each routs the other on a win by 2 or more.
    assert groups["Artois routs; Artois loses 2 SP"] == "5/18"
    assert groups["Grenadiers routs; Grenadiers loses 2 SP"] == "5/18"
    assert sum(Fraction(g["probability"]) for g in branch["groups"]) == 1
    assert [(s["side"], s["expected"]) for s in branch["side_losses"]] == [
        ("attackers", "25/36"), ("defenders", "25/36")]


def test_an_unknown_mode_is_refused():
    run = subprocess.run([*huzzah(), "resolve"], input='{"mode": "guess"}',
                         capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert run.returncode == 2
    assert "Unknown `mode` `guess`" in json.loads(run.stdout)["error"]["message"]
