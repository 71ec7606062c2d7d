"""``--metrics``: Prometheus metrics and a health check served over HTTP by a running process,
scraped here from a real ``huzzah console`` fed commands on its standard input."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from aiohttp import ClientSession, web
from prometheus_client import generate_latest

from bot import cli
from bot.client import HuzzahBot
from bot.metrics import Metrics, MetricsServer, Probes, serve_metrics
from bot.storage import Database

from .storage.conftest import SQLITE_NAME, sqlite_url
from .test_decisions import CHARGE, SETUP

ROOT = Path(__file__).resolve().parents[2]
HANG_GUARD = 60.0  # seconds: a bound that only keeps a broken test from hanging
TRIES = 1200  # the port is polled at most this many times, 0.05 s apart


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=HANG_GUARD) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read().decode()


def first_answer(url: str, process: subprocess.Popen[str]) -> tuple[int, str]:
    """``url``'s answer once its port opens: retried a bounded number of times."""
    for _ in range(TRIES):
        assert process.poll() is None, "the console stopped before serving"
        try:
            return get(url)
        except urllib.error.URLError:
            time.sleep(0.05)
    raise AssertionError(f"{url} never answered")


def samples(text: str) -> dict[str, float]:
    """Prometheus' text format as {'name{labels}': value}."""
    found = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            found[name] = float(value)
    return found


class Console:
    def __init__(self, *args: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bot.cli", "console", *args],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"}, text=True)
        self.out: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.out.append(line)

    def type(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def answered(self, count: int) -> None:
        """Wait until ``count`` commands have been answered (each reply ends with a blank
        line after the `> line` echo)."""
        deadline = time.monotonic() + HANG_GUARD
        while "".join(self.out).count("\n\n") < count:
            assert self.process.poll() is None, "".join(self.out)
            assert time.monotonic() < deadline, "".join(self.out)
            time.sleep(0.02)

    def finish(self) -> tuple[int, str]:
        assert self.process.stdin is not None
        self.process.stdin.close()
        status = self.process.wait(HANG_GUARD)
        self.reader.join(HANG_GUARD)
        assert self.process.stderr is not None
        return status, self.process.stderr.read()


def test_a_console_serves_its_counters_and_health_over_http(tmp_path):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    console = Console("--database", str(tmp_path / "metrics.db"), "--user", "3000",
                      "--metrics", f"127.0.0.1:{port}")
    try:
        status, body = first_answer(f"{base}/health", console.process)
        assert (status, json.loads(body)) == (200, {"discord": "connected", "database": "ok"})
        lines = [line for line, _ in SETUP] + [
            CHARGE,  # a question: the battle waits for the hussars' answer
            '/unit add side:British name:Foot words:"inf morale=4" strength:4',  # refused
        ]
        for count, line in enumerate(lines, start=1):
            console.type(line)
            console.answered(count)
        status, text = get(f"{base}/metrics")
        assert status == 200
        got = samples(text)
        assert got['huzzah_commands_total{command="battle start",outcome="ok"}'] == 1
        assert got['huzzah_commands_total{command="unit add",outcome="ok"}'] == 2
        assert got['huzzah_commands_total{command="charge fire-at-will",outcome="ok"}'] == 1
        assert got['huzzah_commands_total{command="unit add",outcome="refused"}'] == 1
        assert got["huzzah_first_response_seconds_count"] == len(lines)
        assert got['huzzah_first_response_seconds_bucket{le="+Inf"}'] == len(lines)
        assert got["huzzah_questions_pending"] == 1
        assert got["huzzah_database_errors_total"] == 0
        assert "huzzah_gateway_latency_seconds" in got  # NaN offline: no gateway
        assert get(f"{base}/nothing")[0] == 404
        # A container's health check: huzzah health asks the same endpoint.
        asked = huzzah_health(f"127.0.0.1:{port}")
        assert asked.returncode == 0 and json.loads(asked.stdout)["database"] == "ok"
    finally:
        status, err = console.finish()
    assert status == 0, err
    assert "Traceback" not in err


def huzzah_health(address: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot.cli", "health", address],
                          capture_output=True, text=True, cwd=ROOT, timeout=HANG_GUARD)


def test_huzzah_health_fails_where_nothing_answers():
    asked = huzzah_health(f"127.0.0.1:{free_port()}")
    assert asked.returncode == 1 and "did not answer" in asked.stderr


def test_a_console_told_a_port_in_use_says_so(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "bot.cli", "console", "--database",
             str(tmp_path / "x.db"), "--metrics", f"127.0.0.1:{port}"],
            input="/help\n", capture_output=True, text=True, cwd=ROOT, timeout=HANG_GUARD)
    assert done.returncode == 2
    assert f"cannot serve metrics on 127.0.0.1:{port}" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("address", ["9108", "localhost", "127.0.0.1:http", "127.0.0.1:0",
                                     "127.0.0.1:70000"])
def test_a_metrics_address_that_is_not_host_and_port_is_refused(address, capsys):
    with pytest.raises(SystemExit) as stopped:
        cli.main(["console", "--metrics", address])
    assert stopped.value.code == 2
    assert "is not HOST:PORT" in capsys.readouterr().err


async def serving(db: Database, connected: bool) -> tuple[str, MetricsServer]:
    metrics = Metrics()
    metrics.watch_database(db)
    probes = Probes(asyncio.get_running_loop(), db, lambda: connected, lambda: 0.042)
    server = serve_metrics(metrics, probes, ("127.0.0.1", free_port()))
    return f"http://{server.address}", server


async def test_health_is_503_while_the_bot_is_not_connected(db):
    base, server = await serving(db, connected=False)
    try:
        status, body = await asyncio.to_thread(get, f"{base}/health")
        _, text = await asyncio.to_thread(get, f"{base}/metrics")
        asked = await asyncio.to_thread(huzzah_health, server.address)
    finally:
        server.stop()
    assert asked.returncode == 1 and json.loads(asked.stdout)["discord"] == "not connected"
    assert (status, json.loads(body)) == (503, {"discord": "not connected", "database": "ok"})
    assert samples(text)["huzzah_gateway_latency_seconds"] == 0.042


async def test_health_is_503_and_errors_counted_when_the_database_does_not_answer(tmp_path):
    missing = tmp_path / "no such folder" / "huzzah.db"
    async with Database(f"sqlite+aiosqlite:///{missing}") as db:
        base, server = await serving(db, connected=True)
        try:
            status, body = await asyncio.to_thread(get, f"{base}/health")
            _, text = await asyncio.to_thread(get, f"{base}/metrics")
        finally:
            server.stop()
    said = json.loads(body)
    assert status == 503 and said["discord"] == "connected"
    # What failed in the driver's words, on one line (no SQLAlchemy "[SQL: …]" after it).
    assert said["database"] == "OperationalError: no such table: battles", said
    got = samples(text)
    assert got["huzzah_database_errors_total"] >= 1
    assert got["huzzah_questions_pending"] != got["huzzah_questions_pending"]  # NaN: unknown


def test_a_console_without_metrics_never_loads_prometheus_client(tmp_path):
    probe = ("import sys; from bot.cli import main; "
             f"status = main(['console', '--database', {str(tmp_path / 'x.db')!r}]); "
             "print('prometheus_client' in sys.modules, status)")
    done = subprocess.run([sys.executable, "-c", probe], input="/help\n", capture_output=True,
                          text=True, cwd=ROOT, timeout=HANG_GUARD)
    assert done.stdout.strip().splitlines()[-1] == "False 0", done.stdout + done.stderr


async def test_on_discord_a_first_response_is_timed_when_its_callback_is_accepted():
    """``huzzah run`` times the response by discord.py's own HTTP session (its documented
    ``http_trace``): here against a local server standing in for Discord's API."""
    async def callback(request: web.Request) -> web.Response:
        accepted = request.match_info["interaction"] != "2"
        return web.json_response({}, status=200 if accepted else 400)

    app = web.Application()
    app.router.add_post("/api/v10/interactions/{interaction}/{token}/callback", callback)
    runner = web.AppRunner(app)
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    metrics = Metrics()
    try:
        async with ClientSession(trace_configs=[metrics.http_trace()]) as session:
            for interaction in (1, 2, 3):
                metrics.received(interaction)
            for interaction in (1, 2):  # 2 is refused: not a response
                url = (f"http://127.0.0.1:{port}/api/v10/interactions/{interaction}/"
                       "token/callback?with_response=true")
                async with session.post(url, json={"type": 4}) as answer:
                    await answer.read()
    finally:
        await runner.cleanup()
    got = samples(generate_latest(metrics.registry).decode())
    assert got["huzzah_first_response_seconds_count"] == 1


async def test_run_with_metrics_serves_them_while_it_runs(tmp_path, sqlite_template, monkeypatch):
    shutil.copyfile(sqlite_template, tmp_path / SQLITE_NAME)
    connected = asyncio.Event()

    async def start(self: HuzzahBot, token: str) -> None:  # no Discord: never ready
        connected.set()
        while not self.is_closed():
            await asyncio.sleep(0.01)

    monkeypatch.setattr(HuzzahBot, "start", start)
    port = free_port()
    options = cli.RunOptions(metrics=("127.0.0.1", port))
    running = asyncio.create_task(cli._run_bot("token", sqlite_url(tmp_path), options))
    await asyncio.wait_for(connected.wait(), HANG_GUARD)
    status, body = await asyncio.to_thread(get, f"http://127.0.0.1:{port}/health")
    _, text = await asyncio.to_thread(get, f"http://127.0.0.1:{port}/metrics")
    os.kill(os.getpid(), signal.SIGTERM)
    assert await asyncio.wait_for(running, HANG_GUARD) == 0
    assert (status, json.loads(body)) == (503, {"discord": "not connected", "database": "ok"})
    got = samples(text)
    assert got["huzzah_questions_pending"] == 0
    assert got["huzzah_gateway_latency_seconds"] != got["huzzah_gateway_latency_seconds"]
    # Stopped, it serves no more.
    with pytest.raises(urllib.error.URLError):
        await asyncio.to_thread(get, f"http://127.0.0.1:{port}/health")
