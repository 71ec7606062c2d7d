"""What the processes that run the bot share (``huzzah run`` and ``huzzah console``): their
exit statuses, stopping on a signal once the work in progress is done, and leaving a SQLite
database as one file.

Neither discord.py nor SQLAlchemy is imported here at load: ``huzzah --help`` and ``huzzah
resolve`` load this module through ``bot.cli`` and start faster without them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sqlite3
from collections.abc import Callable, Iterator
from typing import Any

log = logging.getLogger("huzzah")

EXIT_OK = 0
EXIT_NETWORK = 1
"""Discord (or the network) could not be reached: worth retrying, so supervisors restart."""
EXIT_CONFIG = 2
"""A configuration error (no token, token rejected, database unusable): restarting cannot help."""
EXIT_INTERRUPTED = 130
"""Stopped with Ctrl-C (SIGINT), as shells report it."""


class StopSignals:
    """SIGTERM and SIGINT as a request to stop, so the work in progress can finish first.

    ``systemctl stop`` and ``docker stop`` send SIGTERM; left to its default, it would end the
    process between two statements of a command. Handlers are installed on the running loop.
    """

    SIGNALS = (signal.SIGTERM, signal.SIGINT)

    def __init__(self) -> None:
        self.received: int | None = None
        self.event = asyncio.Event()
        self._loop: asyncio.AbstractEventLoop | None = None

    def install(self) -> StopSignals:
        self._loop = asyncio.get_running_loop()
        for number in self.SIGNALS:
            self._loop.add_signal_handler(number, self._receive, number)
        return self

    def remove(self) -> None:
        if self._loop is not None:
            for number in self.SIGNALS:
                self._loop.remove_signal_handler(number)
            self._loop = None

    def __enter__(self) -> StopSignals:
        return self.install()

    def __exit__(self, *exc_info: object) -> None:
        self.remove()

    def _receive(self, number: int) -> None:
        if self.received is None:
            self.received = number
            log.info("received %s: stopping once the commands in progress are done",
                     signal.Signals(number).name)
        self.event.set()

    @property
    def requested(self) -> bool:
        return self.received is not None

    @property
    def name(self) -> str:
        return signal.Signals(self.received).name if self.received is not None else ""

    def exit_status(self, otherwise: int = EXIT_OK) -> int:
        """130 after Ctrl-C; SIGTERM is an ordinary stop, so it keeps ``otherwise``."""
        return EXIT_INTERRUPTED if self.received == signal.SIGINT else otherwise

    async def wait(self) -> None:
        await self.event.wait()


def sqlite_file(url: str) -> str | None:
    """The file behind a SQLite URL; ``None`` for PostgreSQL and in-memory databases."""
    from sqlalchemy import make_url

    parsed = make_url(url)
    database = parsed.database or ""
    if parsed.get_backend_name() != "sqlite" or database in ("", ":memory:"):
        return None
    if database.startswith("file:"):
        return None
    return database


async def checkpoint(url: str) -> None:
    """Fold SQLite's write-ahead log into the database file, once every connection is closed.

    The last connection to close normally does this; doing it explicitly leaves one
    self-contained file even when a connection was left open.
    """
    path = sqlite_file(url)
    if path is None:
        return

    def fold() -> None:
        connection = sqlite3.connect(path, timeout=5)
        try:
            connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            connection.close()

    try:
        await asyncio.to_thread(fold)
    except sqlite3.Error as error:  # another process holds it: its own close will fold the log
        log.warning("could not checkpoint the SQLite log: %s", error)


# --------------------------------------------------------------------------- metrics


class MetricsAddressError(Exception):
    """The metrics address could not be served (taken, or not this machine's)."""


def format_address(address: tuple[str, int]) -> str:
    host, port = address
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def new_metrics() -> Any:
    """The figures a process keeps for ``--metrics`` (a ``bot.metrics.Metrics``)."""
    from bot.metrics import Metrics  # prometheus_client: loaded only when asked for

    return Metrics()


@contextlib.contextmanager
def serving_metrics(metrics: Any, address: tuple[str, int] | None, db: Any,
                    connected: Callable[[], bool], latency: Callable[[], float]
                    ) -> Iterator[None]:
    """``/metrics`` and ``/health`` on ``address`` while the block runs (nothing without).

    ``connected`` says whether the bot is connected, ``latency`` its gateway latency; both
    are read on the server's thread.
    """
    if metrics is None or address is None:
        yield
        return
    from bot.metrics import Probes, serve_metrics

    metrics.watch_database(db)
    probes = Probes(asyncio.get_running_loop(), db, connected, latency)
    try:
        server = serve_metrics(metrics, probes, address)
    except OSError as error:
        raise MetricsAddressError(f"{format_address(address)}: "
                                  f"{error.strerror or error}") from None
    try:
        yield
    finally:
        server.stop()
