"""CPU-heavy rule work in a worker process, so the event loop keeps answering everyone.

Listing every result a roll could have had (for ``/gm override``) runs a procedure thousands
of times: seconds of pure Python for a big melee. A thread would not help, since the GIL keeps
the loop waiting all the same; a process does. Results are cached per event, so the
autocomplete and the command that follows it share one piece of work.

This module is imported by the worker processes too, so it keeps Discord and the database out.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing
import time
from collections import OrderedDict
from collections.abc import Hashable, Mapping
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from rules.core.errors import InvalidInput, RulesError
from rules.core.outcomes import Enumeration, enumerate_outcomes
from rules.core.roster import Roster
from rules.registry import RULESETS

OUTCOME_SECONDS = 5.0
"""How long one listing of results may run before it stops with what it found."""
MAX_OUTCOMES = 1_000
"""How many distinct results one listing may collect."""
CACHE_SIZE = 64
"""Listings kept, one per (battle, event); a GM only ever overrides recent events."""
GRACE_SECONDS = 5.0
"""Extra wait past the deadline before giving up on a worker (a queue behind other work)."""


@dataclass(frozen=True)
class OutcomeJob:
    """Everything a worker needs to run a procedure again: plain, picklable data."""

    ruleset: str
    procedure: str
    options: Mapping[str, Any]
    roster: Roster
    settings: Mapping[str, Any]


def work_out(job: OutcomeJob, seconds: float, max_outcomes: int) -> Enumeration:
    """Runs in the worker process: every result the rules allow for the job's command."""
    rules = RULESETS[job.ruleset].battle
    assert rules is not None
    try:
        prepared = rules.prepare(job.procedure, dict(job.options), job.roster,
                                 dict(job.settings))
        return enumerate_outcomes(prepared, deadline=time.monotonic() + seconds,
                                  max_outcomes=max_outcomes)
    except RulesError as error:
        # Rule errors with their own constructors do not survive pickling; the text does.
        raise InvalidInput(str(error)) from None


class TooSlow(RulesError):
    """The worker did not answer in time (it is busy with other listings)."""


class OutcomeWorker:
    """A one-process pool for outcome listings, with a small cache in front of it."""

    def __init__(self, *, seconds: float = OUTCOME_SECONDS, max_outcomes: int = MAX_OUTCOMES,
                 cache_size: int = CACHE_SIZE, processes: int = 1) -> None:
        self.seconds = seconds
        self.max_outcomes = max_outcomes
        self._cache_size = cache_size
        self._processes = processes
        self._cache: OrderedDict[Hashable, asyncio.Future[Enumeration]] = OrderedDict()
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._closed = False

    @property
    def size(self) -> int:
        """Listings kept or under way."""
        return len(self._cache)

    def cached(self, key: Hashable) -> asyncio.Future[Enumeration] | None:
        """The listing for ``key`` if one is done or under way (failed ones are forgotten)."""
        future = self._cache.get(key)
        if future is None:
            return None
        if future.done() and (future.cancelled() or future.exception() is not None):
            del self._cache[key]
            return None
        self._cache.move_to_end(key)
        return future

    def start(self, key: Hashable, job: OutcomeJob) -> asyncio.Future[Enumeration]:
        """The listing for ``key``: the cached one, or a new one started in the worker."""
        future = self.cached(key)
        if future is None:
            future = asyncio.wrap_future(self._submit(job))
            self._cache[key] = future
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
        return future

    async def result(self, future: asyncio.Future[Enumeration],
                     timeout: float | None = None) -> Enumeration:
        """Wait for a listing without cancelling it: others may be waiting for it too."""
        limit = self.seconds + GRACE_SECONDS if timeout is None else timeout
        try:
            return await asyncio.wait_for(asyncio.shield(future), limit)
        except TimeoutError:
            raise TooSlow("Working out the possible results is taking too long.",
                          hint="Try again in a minute.") from None
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if not future.cancelled() or (task is not None and task.cancelling()):
                raise
            # The listing itself was dropped (the bot is closing), not this command.
            raise TooSlow("The bot is shutting down; nothing was changed.",
                          hint="Try again in a minute.") from None

    def _submit(self, job: OutcomeJob) -> concurrent.futures.Future[Enumeration]:
        if self._closed:
            raise RuntimeError("the outcome worker is closed")
        try:
            return self._executor().submit(work_out, job, self.seconds, self.max_outcomes)
        except BrokenProcessPool:
            # A worker died (killed by the host, out of memory): start afresh once.
            self._pool = None
            return self._executor().submit(work_out, job, self.seconds, self.max_outcomes)

    def _executor(self) -> concurrent.futures.ProcessPoolExecutor:
        if self._pool is None:
            # "spawn": a fresh interpreter, not a fork of a process holding an event loop,
            # database connections and their threads.
            self._pool = concurrent.futures.ProcessPoolExecutor(
                max_workers=self._processes, mp_context=multiprocessing.get_context("spawn"))
        return self._pool

    async def close(self) -> None:
        """Stop the worker: queued listings are dropped, a running one is let finish."""
        self._closed = True
        self._cache.clear()
        pool, self._pool = self._pool, None
        if pool is not None:
            # shutdown(wait=True) blocks; keep the loop free while the worker winds down.
            await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)
