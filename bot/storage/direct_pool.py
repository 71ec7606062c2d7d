"""PostgreSQL connections for one-statement writes, kept in a pool of this module's own.

A battle's write on PostgreSQL is one statement outside any transaction
(``Database.first_row``). Taking a connection for it through SQLAlchemy's async engine (its
pool in a greenlet, the connection's wrappers and events, then the driver's connection under
them) cost about 180 µs of CPU on this project's benchmark machine; asyncpg's own pool, 70 µs
with the statement's own bookkeeping, of which taking and giving back a connection was 22 µs
(its acquire and release each run through several coroutines, a timeout and a reset hook).
Here taking one is a pop from a list and giving it back an append, or a hand-over to the
write waiting longest.

These connections are asyncpg's, opened with the same arguments SQLAlchemy opens its own
with. They carry nothing from one statement to the next (no transaction, no session
setting: the channel's advisory lock is the statement's own and ends with it), so none is
reset on its way back. One left in doubt (anything but the server's refusal of the
statement) is closed, and the next write that finds none free opens another in its place.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from typing import Any, NoReturn

from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.storage.batches import CLOSED

log = logging.getLogger(__name__)

DIRECT_POOL_SIZE = 20
"""Connections a process keeps for one-statement writes, beside the engine's own pool. A
write holds one for a single round trip; with 50 moves in flight, 10 of them made the
slowest moves wait for one (a p99 of 0.4 s against 0.24 s with 20)."""
CLOSE_SECONDS = 10.0
"""How long closing waits for the writes under way before it closes their connections."""

# What SQLAlchemy's asyncpg adapter takes for itself; the rest are asyncpg's own arguments.
_ADAPTER_ONLY = ("async_fallback", "async_creator_fn", "prepared_statement_cache_size",
                 "prepared_statement_name_func")

_OPEN_ANOTHER = None
"""Handed to a waiting write instead of a connection: one was closed, so it opens another."""


class DirectPool:
    """Up to :data:`DIRECT_POOL_SIZE` asyncpg connections to ``engine``'s database, all
    opened together on the first write."""

    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self._options: dict[str, Any] | None = None  # asyncpg's, once the pool is opened
        self._free: list[Any] = []
        self._taken: set[Any] = set()
        self._waiting: deque[asyncio.Future[Any]] = deque()
        self._count = 0  # connections open, or being opened
        self._opening = asyncio.Lock()
        self._all_back: asyncio.Event | None = None  # set once closing has them all back
        self._closed = False

    async def fetchrow(self, sql: str, bound: tuple[Any, ...]) -> Any | None:
        """The statement's first row, or None; its errors as SQLAlchemy raises them."""
        connection = await self._take()
        try:
            return await connection.fetchrow(sql, *bound)
        except BaseException as error:
            if not refused(error):
                connection.terminate()  # left in doubt: another is opened in its place
            raise_translated(sql, bound, error)
        finally:
            self._give_back(connection)

    async def close(self) -> None:
        """Close every connection, once the writes under way are done (or after
        :data:`CLOSE_SECONDS`); a write asked for afterwards opens no other."""
        self._closed = True
        while self._waiting:
            waiting = self._waiting.popleft()
            if not waiting.done():
                waiting.set_exception(RuntimeError(CLOSED))
        try:
            if self._taken:
                if self._all_back is None:  # a second close waits for the same
                    self._all_back = asyncio.Event()
                try:
                    await asyncio.wait_for(self._all_back.wait(), CLOSE_SECONDS)
                except TimeoutError:
                    log.warning("writes still under way after %s s: their connections are "
                                "closed", CLOSE_SECONDS)
                    for connection in self._taken:
                        connection.terminate()
            free, self._free = self._free, []
            await _close_all(free)
        except asyncio.CancelledError:  # shutting down at once: close them outright
            for connection in (*self._taken, *self._free):
                connection.terminate()
            self._free = []
            raise

    async def _take(self) -> Any:
        if self._closed:
            raise RuntimeError(CLOSED)
        if self._options is None:
            await self._open_pool()
        connection = self._free_one()
        if connection is None:
            if self._count < DIRECT_POOL_SIZE:
                connection = await self._open_one()
            else:
                connection = await self._wait_for_one()
        self._taken.add(connection)
        return connection

    def _free_one(self) -> Any | None:
        """A free connection still open (the server may have closed one while it waited)."""
        while self._free:
            connection = self._free.pop()
            if not connection.is_closed():
                return connection
            self._count -= 1
        return None

    def _give_back(self, connection: Any) -> None:
        self._taken.discard(connection)
        if self._closed:
            if self._all_back is None or self._all_back.is_set():
                connection.terminate()  # closing is over: nothing else would close it
                return
            if not connection.is_closed():
                self._free.append(connection)  # closing closes it once all are back
            if not self._taken:
                self._all_back.set()
            return
        if connection.is_closed():
            self._pass_place_on()
        elif not self._hand_over(connection):
            self._free.append(connection)

    def _pass_place_on(self) -> None:
        """A connection is gone (closed, or never opened): its place in the pool goes to the
        write waiting longest, which opens another in it; with none waiting, it is free."""
        if not self._hand_over(_OPEN_ANOTHER):
            self._count -= 1

    def _hand_over(self, connection: Any) -> bool:
        """Give ``connection`` (or leave to open another) to the write waiting longest."""
        while self._waiting:
            waiting = self._waiting.popleft()
            if not waiting.done():
                waiting.set_result(connection)
                return True
        return False

    async def _wait_for_one(self) -> Any:
        waiting: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting.append(waiting)
        try:
            connection = await waiting
        except asyncio.CancelledError:
            # Handed one just as this write was cancelled: it goes to the next.
            if waiting.done() and not waiting.cancelled() and waiting.exception() is None:
                handed = waiting.result()
                if handed is _OPEN_ANOTHER:
                    self._pass_place_on()
                else:
                    self._give_back(handed)
            raise
        if connection is _OPEN_ANOTHER:
            return await self._open_one(place_taken=True)
        if self._closed:  # handed over just before closing began
            connection.terminate()
            raise RuntimeError(CLOSED)
        return connection

    async def _open_one(self, *, place_taken: bool = False) -> Any:
        """A new connection in a place of the pool: a free one, or (``place_taken``) the
        place of one that is gone, passed on to this write."""
        assert self._options is not None
        if not place_taken:
            self._count += 1
        try:
            connection = await _connect(self._options)
        except BaseException:
            self._pass_place_on()  # a write waiting for a connection tries itself
            raise
        if self._closed:
            self._count -= 1
            await _close_all([connection])
            raise RuntimeError(CLOSED)
        return connection

    async def _open_pool(self) -> None:
        """Open the pool's connections all at once: opened one by one as moves came in, they
        held up the first moves of a busy minute (a p99 of 0.6 s)."""
        async with self._opening:
            if self._closed:  # closed while this write waited for its turn to open it
                raise RuntimeError(CLOSED)
            if self._options is None:
                _, options = self._engine.dialect.create_connect_args(self._engine.url)
                for key in _ADAPTER_ONLY:
                    options.pop(key, None)
                connecting = [asyncio.ensure_future(_connect(options))
                              for _ in range(DIRECT_POOL_SIZE)]
                try:
                    opened = await asyncio.gather(*connecting, return_exceptions=True)
                except BaseException:  # cancelled: none of them is kept
                    for task in connecting:
                        if task.done() and not task.cancelled() and task.exception() is None:
                            task.result().terminate()
                        task.cancel()
                    raise
                connections = [c for c in opened if not isinstance(c, BaseException)]
                failed = [c for c in opened if isinstance(c, BaseException)]
                if failed or self._closed:
                    await _close_all(connections)
                    if failed:
                        raise failed[0]
                    raise RuntimeError(CLOSED)
                self._options = options
                self._count = len(connections)
                self._free.extend(connections)


async def _connect(options: dict[str, Any]) -> Any:
    """A new connection; a failure to open one raised as SQLAlchemy raises it."""
    import asyncpg

    try:
        return await asyncpg.connect(**options)
    except BaseException as error:  # the server could not be reached
        raise_translated("", (), error)


async def _close_all(connections: list[Any]) -> None:
    """Close ``connections`` politely, or outright if the server does not answer."""
    async def close(connection: Any) -> None:
        try:
            await asyncio.wait_for(connection.close(), CLOSE_SECONDS)
        except Exception:
            connection.terminate()

    await asyncio.gather(*(close(connection) for connection in connections))


def refused(error: BaseException) -> bool:
    """Whether the connection is as good as before: the server refused the statement, or
    asyncpg could not send a value (its client-side DataError, raised before anything was
    sent)."""
    import asyncpg

    server_refused = isinstance(error, asyncpg.PostgresError) and not isinstance(
        error, asyncpg.PostgresConnectionError)
    return server_refused or isinstance(error, asyncpg.exceptions._base.DataError)


def raise_translated(sql: str, bound: tuple[Any, ...], error: BaseException) -> NoReturn:
    translated = translate(sql, bound, error)
    if translated is error:
        raise error
    raise translated from error


def translate(sql: str, bound: tuple[Any, ...], error: BaseException) -> BaseException:
    """asyncpg's ``error`` as SQLAlchemy raises it: an ``IntegrityError`` for a broken
    constraint (a duplicate delivery), a ``DBAPIError`` for the rest, saying whether the
    connection was dropped. A cancellation or an interrupt is raised as it came."""
    import asyncpg

    if isinstance(error, asyncpg.IntegrityConstraintViolationError):
        return IntegrityError(sql, bound, error)
    if isinstance(error, Exception) and not isinstance(error, DBAPIError):
        return DBAPIError(sql, bound, error, connection_invalidated=not refused(error))
    return error
