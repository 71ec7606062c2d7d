"""The pool of PostgreSQL connections for one-statement writes: taking, waiting, replacing a
connection left in doubt, and closing."""

from __future__ import annotations

import asyncio
import os
from typing import Any

import pytest
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import create_async_engine

from bot.storage import async_url, direct_pool
from bot.storage.batches import CLOSED
from bot.storage.direct_pool import DirectPool

from .conftest import POSTGRES_ENV, POSTGRES_SKIP

pytestmark = pytest.mark.skipif(not os.environ.get(POSTGRES_ENV), reason=POSTGRES_SKIP)

BACKEND = "SELECT pg_backend_pid()"


@pytest.fixture
async def pool(monkeypatch):
    monkeypatch.setattr(direct_pool, "DIRECT_POOL_SIZE", 2)
    engine = create_async_engine(async_url(os.environ[POSTGRES_ENV]))
    pool = DirectPool(engine)
    yield pool
    await pool.close()
    await engine.dispose()


async def backend_after(pool: DirectPool, seconds: float) -> int:
    """The server process that ran a statement taking ``seconds``."""
    row = await pool.fetchrow(f"SELECT pg_backend_pid() FROM pg_sleep({seconds})", ())
    return row[0]


async def test_writes_beyond_the_pool_wait_for_a_connection(pool):
    backends = await asyncio.gather(*(backend_after(pool, 0.05) for _ in range(8)))
    assert len(set(backends)) == 2  # every write done, on the pool's two connections
    assert pool._count == 2 and len(pool._free) == 2 and not pool._taken


async def test_a_connection_left_in_doubt_is_replaced_for_the_write_waiting(pool):
    """A write whose connection failed under it (here: cancelled mid-statement) closes it;
    a write waiting for a connection then opens another and goes through."""
    first = asyncio.ensure_future(backend_after(pool, 5))
    second = asyncio.ensure_future(backend_after(pool, 5))
    await asyncio.sleep(0.2)
    waiting = asyncio.ensure_future(backend_after(pool, 0))
    await asyncio.sleep(0.05)
    assert not waiting.done()
    in_doubt = set(pool._taken)
    first.cancel()
    await asyncio.wait_for(waiting, 3)  # long before the other write's 5 s are up
    assert [c for c in in_doubt if c.is_closed()] and pool._count == 2
    second.cancel()
    await asyncio.gather(first, second, return_exceptions=True)
    assert not pool._taken


async def test_a_write_that_stops_waiting_leaves_the_pool_whole(pool):
    busy = [asyncio.ensure_future(backend_after(pool, 0.2)) for _ in range(2)]
    await asyncio.sleep(0.05)
    gave_up = asyncio.ensure_future(backend_after(pool, 0))
    after = asyncio.ensure_future(backend_after(pool, 0))
    await asyncio.sleep(0.05)
    gave_up.cancel()
    await asyncio.wait_for(asyncio.gather(*busy, after), 3)
    with pytest.raises(asyncio.CancelledError):
        await gave_up
    assert pool._count == 2 and len(pool._free) == 2 and not pool._taken


async def test_a_connection_handed_to_a_write_just_cancelled_goes_back(pool):
    taken = [await pool._take(), await pool._take()]
    waiting = asyncio.ensure_future(pool._take())
    await asyncio.sleep(0.05)
    pool._give_back(taken[0])  # handed to the waiting write...
    waiting.cancel()  # ...which gives up before it runs again
    with pytest.raises(asyncio.CancelledError):
        await waiting
    assert pool._free == [taken[0]] and pool._taken == {taken[1]}
    pool._give_back(taken[1])


async def test_closing_lets_the_writes_under_way_finish_and_refuses_those_waiting(pool):
    under_way = [asyncio.ensure_future(backend_after(pool, 0.3)) for _ in range(2)]
    await asyncio.sleep(0.05)
    waiting = asyncio.ensure_future(backend_after(pool, 0))
    await asyncio.sleep(0.05)
    connections = list(pool._taken)
    await pool.close()
    assert all(write.done() for write in under_way)  # closing waited for them
    assert all(isinstance(backend, int) for backend in await asyncio.gather(*under_way))
    with pytest.raises(RuntimeError, match=CLOSED):
        await waiting
    assert all(connection.is_closed() for connection in connections)
    with pytest.raises(RuntimeError, match=CLOSED):
        await backend_after(pool, 0)


async def test_a_server_that_cannot_be_reached_fails_as_sqlalchemy_says():
    engine = create_async_engine("postgresql+asyncpg://nobody@127.0.0.1:9/none")
    pool = DirectPool(engine)
    with pytest.raises(DBAPIError):
        await pool.fetchrow("SELECT 1", ())
    assert pool._options is None and pool._count == 0
    await pool.close()
    await engine.dispose()


async def test_a_place_passed_on_is_not_taken_twice(pool):
    """A connection gone: its place goes to the write waiting longest, and a write that
    comes meanwhile waits too, so the pool never holds more than its size."""
    first, second = await pool._take(), await pool._take()
    waiting = asyncio.ensure_future(pool._take())
    await asyncio.sleep(0.05)
    first.terminate()
    newcomer = asyncio.ensure_future(pool._take())  # runs before the waiting write wakes
    pool._give_back(first)
    replacement = await asyncio.wait_for(waiting, 3)
    await asyncio.sleep(0.05)
    assert not newcomer.done() and pool._count == 2
    pool._give_back(second)
    assert await asyncio.wait_for(newcomer, 3) is second
    for connection in (replacement, second):
        pool._give_back(connection)
    assert pool._count == 2 and len(pool._free) == 2


async def test_closing_cut_short_closes_every_connection_outright(pool):
    under_way = asyncio.ensure_future(backend_after(pool, 1))
    await asyncio.sleep(0.1)
    free = await pool._take()
    pool._give_back(free)
    connections = [*pool._taken, *pool._free]
    closing = asyncio.ensure_future(pool.close())
    await asyncio.sleep(0.05)
    closing.cancel()
    with pytest.raises(asyncio.CancelledError):
        await closing
    assert all(connection.is_closed() for connection in connections)
    with pytest.raises(DBAPIError):
        await under_way  # its connection was closed under it


async def test_a_first_write_cancelled_while_the_pool_opens_keeps_no_connection(
        pool, monkeypatch):
    opened: list[Any] = []

    class Connection:
        def __init__(self) -> None:
            self.closed = False

        def terminate(self) -> None:
            self.closed = True

    async def connect(options):
        if len(opened) == 1:
            await asyncio.sleep(5)  # the second connection is slow to open
        opened.append(Connection())
        return opened[-1]

    monkeypatch.setattr(direct_pool, "_connect", connect)
    first = asyncio.ensure_future(pool.fetchrow("SELECT 1", ()))
    await asyncio.sleep(0.1)
    first.cancel()
    with pytest.raises(asyncio.CancelledError):
        await first
    assert len(opened) == 1 and opened[0].closed
    assert pool._options is None and pool._count == 0 and not pool._free
