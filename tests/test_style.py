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


def test_benchmark_prints_each_figure_beside_the_floor():
    done = subprocess.run([sys.executable, "scripts/bench.py", "--smoke"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode in (0, 1), done.stdout + done.stderr
    judged = [line for line in done.stdout.splitlines()
              if line.rstrip().endswith(("PASS", "MISS"))]
    by_floor = [line for line in judged if "ratio" in line]
    for figure in ("quick lookup, p50", "battle move, p50", "/gm undo, p50",
                   "/battle show, p50", "battle move with", "battle moves per second"):
        assert any(line.startswith(figure) for line in by_floor), (figure, done.stdout)
    for figure in ("battle move p99 under load", "console launch", "`huzzah run` launch",
                   "console peak RSS"):
        assert any(line.startswith(figure) for line in judged), (figure, done.stdout)
    reply = [line for line in done.stdout.splitlines()
             if line.startswith("floor answering with a move's reply")]
    assert reply and reply[0].split()[-1].endswith("x"), done.stdout  # a ratio, no target
    assert "targets met" in done.stdout


def test_the_runs_the_instruction_count_measures_play_their_commands():
    """``--instructions`` counts these runs under valgrind (minutes, so not here): each
    must play its commands to the end."""
    for kind in ("floor", "move"):
        done = subprocess.run([sys.executable, "scripts/bench.py", "--counted", kind, "3"],
                              cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stdout + done.stderr
