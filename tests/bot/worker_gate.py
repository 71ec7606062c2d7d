"""A gate that holds a worker process until the test opens it: work "still running" for as
long as a test needs, with no sleep and no clock.

The gate is a file: worker processes are started with "spawn" and share no memory with the
test. This module imports nothing heavy, as each worker process imports it again.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

HANG_GUARD_SECONDS = 120.0
"""A gate left shut this long is a test that failed before opening it: the worker gives up."""


def wait_for_gate(path: str) -> None:
    """Runs in a worker process: return once the gate file exists."""
    deadline = time.monotonic() + HANG_GUARD_SECONDS
    while not os.path.exists(path):
        if time.monotonic() > deadline:
            raise TimeoutError(f"the gate {path} was never opened")
        time.sleep(0.01)


def after_gate(path: str, work: Any, *args: Any) -> Any:
    """Runs in a worker process: ``work(*args)`` once the gate is open."""
    wait_for_gate(path)
    return work(*args)


@contextmanager
def gate(folder: Path) -> Iterator[Path]:
    """A shut gate in ``folder``; ``open_gate`` opens it, and leaving the block always does,
    so that no worker process is left waiting (closing the worker waits for it)."""
    path = folder / "gate"
    try:
        yield path
    finally:
        open_gate(path)


def open_gate(path: Path) -> None:
    path.touch()
