"""Prometheus metrics and a health check for a running bot (``--metrics HOST:PORT``).

Served over HTTP on a thread of its own: ``/metrics`` in Prometheus' text format,
``/health`` 200 only while the bot is connected and its database answers, else 503. What
only the event loop can tell (the database's answer, the questions pending) is asked of the
loop when scraped, with a bound, so a scrape never sees stale figures.

Imported only when metrics are asked for: prometheus_client costs a start without them time.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import logging
import math
import re
import socket
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import aiohttp
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from sqlalchemy import event

from bot.battles.health import battles_awaiting_an_answer, database_answers
from bot.storage.database import Database, database_problem

log = logging.getLogger("huzzah")

PROBE_SECONDS = 5.0
"""How long a scrape or a health check waits for the event loop's answer."""
RECEIPTS_KEPT = 10_000
"""Interactions awaiting their first response that are remembered (a bound, not a target)."""
# Discord answers an interaction within 3 seconds or drops it; the bot defers after 2.
RESPONSE_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 2.5, 3.0, 5.0)
_CALLBACK = re.compile(r"/interactions/(\d+)/[^/]+/callback$")


class Metrics:
    """The figures the bot keeps as it runs, in a registry of their own."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.commands = Counter(
            "huzzah_commands", "Slash commands handled, by command and outcome (ok; refused: "
            "the player was told how to fix it; error)", ["command", "outcome"],
            registry=self.registry)
        self.first_response = Histogram(
            "huzzah_first_response_seconds", "Time from receiving an interaction to its first "
            "response (a reply, a deferral or a button's update)", buckets=RESPONSE_BUCKETS,
            registry=self.registry)
        self.database_errors = Counter(
            "huzzah_database_errors", "Errors the database driver raised, on a statement or "
            "on connecting", registry=self.registry)
        # Interaction id -> when it was received; popped at its first response.
        self._received: OrderedDict[int, float] = OrderedDict()

    # -- fed by the bot --------------------------------------------------------------------

    def received(self, interaction_id: int) -> None:
        self._received[interaction_id] = time.perf_counter()
        if len(self._received) > RECEIPTS_KEPT:  # never answered: forget the oldest
            self._received.popitem(last=False)

    def responded(self, interaction_id: int) -> None:
        started = self._received.pop(interaction_id, None)
        if started is not None:
            self.first_response.observe(time.perf_counter() - started)

    def command_handled(self, command: str, outcome: str) -> None:
        self.commands.labels(command=command, outcome=outcome).inc()

    def watch_database(self, db: Database) -> None:
        """Count the driver's errors on every engine ``db`` runs statements on."""
        for engine in db.sync_engines():
            event.listen(engine, "handle_error", self._database_error)

    def _database_error(self, context: Any) -> None:
        self.database_errors.inc()

    def http_trace(self) -> aiohttp.TraceConfig:
        """For ``huzzah run``: the moment Discord accepts an interaction's first response
        is when its callback request ends well."""
        trace = aiohttp.TraceConfig()

        async def on_request_end(session: Any, context: Any, params: Any) -> None:
            found = _CALLBACK.search(params.url.path)
            if found and params.response.status < 400:
                self.responded(int(found.group(1)))

        trace.on_request_end.append(on_request_end)
        return trace


@dataclass(frozen=True)
class Probes:
    """What the server asks of the running bot; the coroutines run on ``loop``."""

    loop: asyncio.AbstractEventLoop
    db: Database
    connected: Callable[[], bool]
    latency: Callable[[], float]

    def on_loop(self, work: Awaitable[Any]) -> Any:
        """``work``'s result, run on the bot's loop; raises when it fails or takes too long."""
        future = asyncio.run_coroutine_threadsafe(work, self.loop)  # type: ignore[arg-type]
        try:
            return future.result(PROBE_SECONDS)
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise TimeoutError(f"no answer in {PROBE_SECONDS:.0f} s") from None

    def health(self) -> tuple[bool, dict[str, str]]:
        """Healthy, and what each part said."""
        said = {"discord": "connected" if self.connected() else "not connected"}
        try:
            said["database"] = "ok" if self.on_loop(database_answers(self.db)) else "no answer"
        except Exception as error:
            said["database"] = database_problem(error)[:200]  # one line, as the log says it
        return said == {"discord": "connected", "database": "ok"}, said


class _Live:
    """The figures read when scraped: questions pending, gateway latency."""

    def __init__(self, probes: Probes) -> None:
        self.probes = probes

    def collect(self) -> Iterator[Metric]:
        try:
            pending: float = self.probes.on_loop(battles_awaiting_an_answer(self.probes.db))
        except Exception:  # counted among the database errors; the gauge says unknown
            pending = math.nan
        yield GaugeMetricFamily("huzzah_questions_pending",
                                "Battles waiting for a player's answer to a question",
                                value=pending)
        yield GaugeMetricFamily("huzzah_gateway_latency_seconds",
                                "The time between a heartbeat to Discord's gateway and its "
                                "acknowledgement (NaN when not connected)",
                                value=self.probes.latency())


class MetricsServer:
    """``/metrics`` and ``/health`` on ``host:port``, served on a daemon thread."""

    def __init__(self, metrics: Metrics, probes: Probes, host: str, port: int) -> None:
        metrics.registry.register(_Live(probes))  # type: ignore[arg-type]
        handler = type("Handler", (_Handler,), {"metrics": metrics, "probes": probes})
        server_class = _IPv6Server if ":" in host else ThreadingHTTPServer
        self.httpd = server_class((host, port), handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True,
                                       name="huzzah-metrics")

    @property
    def address(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"[{host}]:{port}" if ":" in str(host) else f"{host}:{port}"

    def start(self) -> MetricsServer:
        self.thread.start()
        log.info("metrics on http://%s/metrics, health on http://%s/health",
                 self.address, self.address)
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


class _IPv6Server(ThreadingHTTPServer):
    address_family = socket.AF_INET6


class _Handler(BaseHTTPRequestHandler):
    metrics: Metrics
    probes: Probes

    def do_GET(self) -> None:  # the name http.server calls
        path = self.path.split("?", 1)[0]
        if path == "/metrics":
            self._send(200, CONTENT_TYPE_LATEST, generate_latest(self.metrics.registry))
        elif path == "/health":
            healthy, said = self.probes.health()
            self._send(200 if healthy else 503, "application/json",
                       json.dumps(said).encode() + b"\n")
        else:
            self._send(404, "text/plain; charset=utf-8", b"/metrics or /health\n")

    def _send(self, status: int, content_type: str, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:  # a scrape every 15 s is noise
        log.debug("metrics: " + format, *args)


def serve_metrics(metrics: Metrics, probes: Probes, address: tuple[str, int]) -> MetricsServer:
    """Start serving; raises OSError when the address cannot be bound."""
    return MetricsServer(metrics, probes, *address).start()
