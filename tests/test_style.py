"""The tree stays `ruff` clean, and the benchmark script runs and prints its figures."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_is_clean():
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "."], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def test_benchmark_prints_its_numbers():
    done = subprocess.run([sys.executable, "scripts/bench.py", "--quick"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    lines = [line for line in done.stdout.splitlines() if "target" in line]
    assert len(lines) >= 8, done.stdout + done.stderr
    assert all(("PASS" in line) or ("MISS" in line) for line in lines)
