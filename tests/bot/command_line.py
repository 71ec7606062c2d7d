"""`huzzah ARGS` run in the test's own process: what ``python -m bot.cli ARGS`` prints and the
status it exits with (``bot/cli.py`` exits with what ``main`` returns), without the second or
so a new interpreter takes to start. Tests about the process itself (its imports, a limit set
on it, another user running it) start one instead."""

from __future__ import annotations

import logging
import subprocess
from collections.abc import Mapping
from pathlib import Path

import pytest


def run_main(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
             *args: str, env: Mapping[str, str | None], cwd: Path
             ) -> subprocess.CompletedProcess[str]:
    """``huzzah ARGS`` in ``cwd`` with ``env``'s variables set (None: unset), each undone
    once it returns; its standard output and error are what it wrote, and only that."""
    from bot.cli import main

    capsys.readouterr()  # what was written before is not this command's
    # ``main`` sets the log up as a process's (its handler to stderr, in place of any): the
    # test's own capture is put back once it returns.
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    with monkeypatch.context() as patch:
        for name, value in env.items():
            if value is None:
                patch.delenv(name, raising=False)
            else:
                patch.setenv(name, value)
        patch.chdir(cwd)
        try:
            status = main(list(args))
        except SystemExit as exit:  # argparse: --help (0), or an option it refuses (2)
            status = exit.code if isinstance(exit.code, int) else 0 if exit.code is None else 1
        finally:
            for handler in list(root.handlers):
                root.removeHandler(handler)
            for handler in handlers:
                root.addHandler(handler)
            root.setLevel(level)
    out, err = capsys.readouterr()
    return subprocess.CompletedProcess(["huzzah", *args], status, out, err)
