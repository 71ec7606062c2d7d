"""A short piece of synchronous database work run as one round trip.

The async driver for SQLite hands every cursor call to its own thread and back: three or four
hops of the event loop per statement, about half a millisecond each. A command's reads, or its
writes, are a handful of statements; run together on a thread that owns a plain synchronous
SQLite connection, they cost one hop, and SQLite's write lock is held for the time the
statements take rather than for the hops between them.

PostgreSQL needs no such thing (asyncpg is quick per statement): the same function runs
inside an ordinary async transaction through ``run_sync``.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from sqlalchemy import URL, create_engine
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError
from sqlalchemy.pool import StaticPool

T = TypeVar("T")

Work = Callable[[Connection], T]
"""Synchronous database work: given a connection inside a transaction, returns its result."""


class SqliteThread:
    """One thread owning one synchronous SQLite connection; work runs there, one job at a time.

    ``configure`` installs the same pragmas and BEGIN as the async engine's connections.
    """

    def __init__(self, url: URL, configure: Callable[[Engine], None], name: str) -> None:
        # One connection, only ever used from this one thread.
        self._engine = create_engine(url.set(drivername="sqlite"), poolclass=StaticPool,
                                     connect_args={"check_same_thread": False})
        configure(self._engine)
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix=name)
        self._open: Connection | None = None  # used only on the executor's thread
        self._options: dict[str, object] = {}

    async def run(self, work: Work[T], options: dict[str, object],
                  on_commit: Callable[[str], None] | None = None) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, self._call, work, options, on_commit)

    def _call(self, work: Work[T], options: dict[str, object],
              on_commit: Callable[[str], None] | None) -> T:
        connection = self._connection(options)
        try:
            with connection.begin():
                result = work(connection)
                if on_commit:
                    on_commit("before_commit")
        except BaseException as error:
            # Rolled back. A refusal raised by the work leaves the connection as good as
            # new; one the driver failed on (or an interrupt) is not trusted again.
            if not isinstance(error, Exception) or isinstance(error, DBAPIError | sqlite3.Error):
                self._drop_connection()
            raise
        if on_commit:
            on_commit("after_commit")
        return result

    def _connection(self, options: dict[str, object]) -> Connection:
        """The thread's connection, kept open between batches: checking it out of the pool
        and back (which rolls back on return) cost more than a move's statements."""
        if self._open is None or self._options != options:
            self._drop_connection()
            self._open = self._engine.connect()
            self._open.execution_options(**options)
            self._options = dict(options)
        return self._open

    def _drop_connection(self) -> None:
        if self._open is not None:
            self._open.close()
            self._open = None

    def _close_on_thread(self) -> None:
        self._drop_connection()
        self._engine.dispose()

    def close(self) -> None:
        """Finish the work queued, then close the connection."""
        self._executor.submit(self._close_on_thread).result()
        self._executor.shutdown(wait=True)
