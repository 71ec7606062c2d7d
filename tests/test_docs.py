"""Every JSON example in docs/resolve.md runs through the real `huzzah resolve` as written."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
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
