"""SIGTERM (``systemctl stop``, ``docker stop``) ends the console and the bot cleanly.

The command in progress finishes, new ones are refused, the database is closed with its
write-ahead log folded in: reopened, it passes ``PRAGMA integrity_check`` and its event log
has no gap.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bot import cli
from bot.client import HuzzahBot, create_bot
from bot.offline import OfflineDiscord
from bot.storage import Database
from tests.bot.conftest import send, text_of, writes_begun
from tests.bot.storage.conftest import SQLITE_NAME, sqlite_template, sqlite_url  # noqa: F401

ROOT = Path(__file__).resolve().parents[2]
START = '/battle start ruleset:fire-at-will name:"Plains of Abraham"'
HANG_GUARD = 60  # seconds: a wait that only keeps a broken test from hanging


def unit_line(number: int) -> str:
    return f'/unit add side:British name:"Company {number}" words:"inf regular morale=4" ' \
           "strength:4"


def reopen(path: Path) -> tuple[str, list[int], list[str]]:
    """Integrity, the event numbers and the unit names, read by a fresh connection."""
    connection = sqlite3.connect(path)
    try:
        integrity = connection.execute("PRAGMA integrity_check").fetchone()[0]
        seqs = [row[0] for row in connection.execute("SELECT seq FROM events ORDER BY seq")]
        names = [row[0] for row in connection.execute("SELECT name FROM units ORDER BY id")]
    finally:
        connection.close()
    return integrity, seqs, names


def signal_taken(pid: int, number: int) -> None:
    """Wait until the process has taken the signal sent to it: no longer pending, its
    handler has run (Python's handler wakes the event loop, which acts on it next)."""
    bit = 1 << (number - 1)
    deadline = time.monotonic() + HANG_GUARD
    while True:
        status = Path(f"/proc/{pid}/status").read_text().splitlines()
        pending = [int(line.split()[1], 16) for line in status
                   if line.startswith(("SigPnd:", "ShdPnd:"))]
        if not any(mask & bit for mask in pending):
            return
        assert time.monotonic() < deadline, f"process {pid} never took signal {number}"
        time.sleep(0.01)


def assert_log_folded(path: Path) -> None:
    wal = path.with_name(path.name + "-wal")
    assert not wal.exists() or wal.stat().st_size == 0, "the write-ahead log was left behind"


class ConsoleProcess:
    """``huzzah console`` on a pipe that stays open, read as it prints."""

    def __init__(self, database: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bot.cli", "console", "--database", str(database),
             "--user", "2000"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"}, text=True,
        )
        self.out: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.out.append(line)

    def type(self, *lines: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write("".join(f"{line}\n" for line in lines))
        self.process.stdin.flush()

    def wait_for(self, text: str, count: int = 1, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while "".join(self.out).count(text) < count:
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise AssertionError(f"never saw {text!r} x{count}:\n{''.join(self.out)}")
            time.sleep(0.02)

    def finish(self, timeout: float = 60) -> tuple[int, str, str]:
        status = self.process.wait(timeout=timeout)
        self._reader.join(timeout)
        assert self.process.stderr is not None
        return status, "".join(self.out), self.process.stderr.read()


def test_sigterm_mid_command_finishes_it_and_runs_nothing_after(tmp_path):
    database = tmp_path / "battle.db"
    console = ConsoleProcess(database)
    console.type(START, unit_line(1), unit_line(2))
    console.wait_for("Company 2", count=2)  # the echoed line, then the reply
    # Hold SQLite's write lock, so the next command stays in the middle of its work.
    blocker = sqlite3.connect(database, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")
    console.type(unit_line(3), unit_line(4), unit_line(5))
    console.wait_for(f"> {unit_line(3)}")  # echoed as its handling starts: it is under way
    console.process.send_signal(signal.SIGTERM)
    signal_taken(console.process.pid, signal.SIGTERM)
    assert console.process.poll() is None, "it must wait for the command in progress"
    blocker.execute("ROLLBACK")
    blocker.close()
    status, out, err = console.finish()

    assert status == 0, out + err
    assert "huzzah console: stopped by SIGTERM; /unit add was finished first." in err
    assert "Traceback" not in out + err
    assert out.count("Company 3") == 2  # echoed, and answered
    assert "Company 4" not in out
    integrity, seqs, names = reopen(database)
    assert integrity == "ok"
    assert names == ["Company 1", "Company 2", "Company 3"]
    assert seqs == list(range(1, len(seqs) + 1)) and len(seqs) == 4
    assert_log_folded(database)


def test_sigterm_at_an_idle_console_closes_the_database(tmp_path):
    database = tmp_path / "idle.db"
    console = ConsoleProcess(database)
    console.type(START)
    console.wait_for("Plains of Abraham", count=2)
    console.process.send_signal(signal.SIGTERM)
    status, out, err = console.finish()
    assert status == 0, out + err
    assert err.strip().endswith("huzzah console: stopped by SIGTERM.")
    integrity, seqs, _ = reopen(database)
    assert (integrity, seqs) == ("ok", [1])
    assert_log_folded(database)


# --------------------------------------------------------------------------- huzzah run


@pytest.fixture
def database_file(tmp_path: Path, sqlite_template: Path) -> Path:  # noqa: F811
    shutil.copyfile(sqlite_template, tmp_path / SQLITE_NAME)
    return tmp_path / SQLITE_NAME


async def until_closed(bot: HuzzahBot) -> None:
    """Stands in for ``bot.start(token)``: connected until the bot is closed."""
    while not bot.is_closed():
        await asyncio.sleep(0.01)


async def closing(bot: HuzzahBot) -> None:
    """Wait until ``serve`` has begun to close: new commands are refused from then on."""
    gate = bot.tree.interaction_check.__self__  # serve's CommandGate hooks the tree
    assert isinstance(gate, cli.CommandGate)
    while not gate.closing:
        await asyncio.sleep(0.01)


async def test_serve_lets_a_command_finish_refuses_new_ones_then_closes(database_file):
    async with Database(sqlite_url(database_file.parent)) as db, \
            OfflineDiscord(create_bot(db)) as session:
        bot = session.client
        writing = writes_begun(db)
        with cli.StopSignals() as stop:
            serving = asyncio.create_task(cli.serve(bot, until_closed(bot), stop,
                                                    grace=HANG_GUARD))
            blocker = sqlite3.connect(database_file, isolation_level=None)
            blocker.execute("BEGIN IMMEDIATE")
            in_progress = asyncio.create_task(send(session, START, user_id=2000))
            await asyncio.wait_for(writing.wait(), HANG_GUARD)  # mid-command, held
            os.kill(os.getpid(), signal.SIGTERM)
            await asyncio.wait_for(closing(bot), HANG_GUARD)
            assert stop.name == "SIGTERM" and not serving.done()

            [refused] = await send(session, unit_line(1), user_id=2000)
            assert refused.ephemeral and refused.content == cli.SHUTTING_DOWN
            assert not serving.done()

            blocker.execute("ROLLBACK")
            blocker.close()
            finished = await in_progress
            await asyncio.wait_for(serving, HANG_GUARD)
        assert "Battle started: Plains of Abraham" in text_of(finished[-1])
        assert bot.is_closed()
    integrity, seqs, names = reopen(database_file)
    assert (integrity, seqs, names) == ("ok", [1], [])


async def test_run_stops_on_sigterm_with_the_database_closed(database_file, monkeypatch):
    connected = asyncio.Event()

    async def start(self: HuzzahBot, token: str) -> None:
        connected.set()  # the stop signals are handled by now
        await until_closed(self)

    monkeypatch.setattr(HuzzahBot, "start", start)
    running = asyncio.create_task(cli._run_bot("token", sqlite_url(database_file.parent)))
    await asyncio.wait_for(connected.wait(), HANG_GUARD)
    assert not running.done()
    os.kill(os.getpid(), signal.SIGTERM)
    assert await asyncio.wait_for(running, HANG_GUARD) == 0
    assert_log_folded(database_file)
    assert reopen(database_file)[0] == "ok"
