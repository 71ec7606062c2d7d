"""PostgreSQL connections for one-statement writes, from asyncpg's own pool.

A battle's write on PostgreSQL is one statement outside any transaction
(``Database.first_row``). Taking a connection for it through SQLAlchemy's async engine (its
pool in a greenlet, the connection's wrappers and events, then the driver's connection under
them) cost more CPU than asyncpg's pool takes for the same: about 180 µs against 70 µs on
this project's benchmark machine, on every move and every undo.

These connections are asyncpg's, opened with the same arguments SQLAlchemy opens its own
with. They carry nothing from one statement to the next (no transaction, no session
setting: the channel's advisory lock is the statement's own and ends with it), so none is
reset on its way back to the pool. One left in doubt (anything but the server's refusal of
the statement) is closed, and the pool opens another in its place.
"""

from __future__ import annotations

import asyncio
import logging
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


class DirectPool:
    """asyncpg's pool for ``engine``'s database, opened when first needed."""

    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self._pool: Any = None
        self._opening = asyncio.Lock()
        self._closed = False

    async def fetchrow(self, sql: str, bound: tuple[Any, ...]) -> Any | None:
        """The statement's first row, or None; its errors as SQLAlchemy raises them."""
        pool = await self._opened()
        try:
            async with pool.acquire() as connection:
                try:
                    return await connection.fetchrow(sql, *bound)
                except BaseException as error:
                    if not refused(error):
                        connection.terminate()  # left in doubt: the pool opens another
                    raise
        except BaseException as error:
            raise_translated(sql, bound, error)

    async def close(self) -> None:
        """Close the pool; a write asked for afterwards opens no other."""
        self._closed = True
        pool, self._pool = self._pool, None
        if pool is None:
            return
        try:
            await asyncio.wait_for(pool.close(), CLOSE_SECONDS)
        except TimeoutError:
            log.warning("writes still under way after %s s: their connections are closed",
                        CLOSE_SECONDS)
            pool.terminate()
        except asyncio.CancelledError:
            pool.terminate()
            raise

    async def _opened(self) -> Any:
        if self._pool is not None:
            return self._pool
        async with self._opening:
            if self._closed:  # closed while this write waited for its turn to open it
                raise RuntimeError(CLOSED)
            if self._pool is None:
                import asyncpg

                _, options = self._engine.dialect.create_connect_args(self._engine.url)
                for key in _ADAPTER_ONLY:
                    options.pop(key, None)
                # All opened at once, on the first write: opened one by one as moves came
                # in, they held up the first moves of a busy minute (a p99 of 0.6 s).
                try:
                    self._pool = await asyncpg.create_pool(
                        min_size=DIRECT_POOL_SIZE, max_size=DIRECT_POOL_SIZE,
                        reset=_keep_as_it_is, **options)
                except BaseException as error:  # the server could not be reached
                    raise_translated("", (), error)
        return self._pool


async def _keep_as_it_is(_connection: Any) -> None:
    """Nothing to reset: see the module's description. (asyncpg's own reset is a round
    trip on every release.)"""


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
