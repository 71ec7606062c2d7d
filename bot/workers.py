"""CPU-heavy rule work in a worker process, so the event loop keeps answering everyone.

Listing every result a roll could have had (for ``/gm override``) runs a procedure thousands
of times: seconds of pure Python for a big melee. A thread would not help, since the GIL keeps
the loop waiting all the same; a process does. Results are cached per event, so the
autocomplete and the command that follows it share one piece of work. The odds of a command
(``/<verb> odds``) walk the same tree, with probabilities, in the same process.

This module is imported by the worker processes too, so it keeps Discord and the database out.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from bot.render.limits import EmbedSpec
from bot.render.odds import odds_specs
from rules.core.errors import InvalidInput, RulesError
from rules.core.fields import unit_parts
from rules.core.names import name_key
from rules.core.notation import split_name
from rules.core.odds import Odds, Prepared, exact_odds
from rules.core.outcomes import Enumeration, enumerate_outcomes
from rules.core.roster import Roster
from rules.registry import RULESETS

OUTCOME_SECONDS = 5.0
"""How long one listing of results may run before it stops with what it found."""
MAX_OUTCOMES = 1_000
"""How many distinct results one listing may collect."""
CACHE_SIZE = 64
"""Listings kept, one per (battle, event); a GM only ever overrides recent events."""
T = TypeVar("T")
LISTINGS, ODDS = "listings", "odds"  # each has a process of its own
GRACE_SECONDS = 5.0
"""Extra wait past the deadline before giving up on a worker (a queue behind other work)."""


@dataclass(frozen=True)
class OutcomeJob:
    """Everything a worker needs to run a procedure again: plain, picklable data (a quick
    lookup, for the odds, has no roster)."""

    ruleset: str
    procedure: str
    options: Mapping[str, Any]
    roster: Roster | None
    settings: Mapping[str, Any]


def work_out(job: OutcomeJob, seconds: float, max_outcomes: int) -> Enumeration:
    """Runs in the worker process: every result the rules allow for the job's command."""
    with rules_refusals():
        found = enumerate_outcomes(prepared(job), deadline=time.monotonic() + seconds,
                                   max_outcomes=max_outcomes)
    units = tuple(unit.name for unit in job.roster.units) if job.roster else ()
    typed = {name_key(split_name(part)[0] or part) for value in job.options.values()
             if isinstance(value, str) for part in unit_parts(value)}
    return replace(found, units=units,
                   named=tuple(unit for unit in units if name_key(unit) in typed))


ODDS_SECONDS = 8.0
"""How long the odds of one command may be worked out: an exact walk gets three quarters of
it, and an estimate from random resolutions the rest, when the walk cannot finish."""
ODDS_LEAVES = 200_000
"""Paths an exact walk of the odds may visit (a 3 against 3 Fire at Will melee is 46,656)."""


def work_out_odds(job: OutcomeJob, deadline: float) -> Odds:
    """Runs in the worker process: the odds of every result of the job's command, by
    ``deadline`` (``time.monotonic()``, the same clock in every process): a job that waited
    behind another still answers in time, with a smaller estimate if need be."""
    with rules_refusals():
        return exact_odds(prepared(job), max_leaves=ODDS_LEAVES, deadline=deadline,
                          sides=unit_sides(job.options, job.roster))


def work_out_odds_reply(job: OutcomeJob, deadline: float,
                        notes: Sequence[str]) -> list[list[EmbedSpec]]:
    """Runs in the worker process: the odds, as the reply's embeds (``notes`` in the
    footer). Grouping and summing thousands of outcomes would otherwise hold the event loop,
    and the embeds cost far less to send back than the odds themselves."""
    return odds_specs(work_out_odds(job, deadline), job.ruleset, job.procedure, notes)


def prepared(job: OutcomeJob) -> Prepared:
    rules = RULESETS[job.ruleset].battle
    assert rules is not None
    return rules.prepare(job.procedure, dict(job.options), job.roster, dict(job.settings))


@contextmanager
def rules_refusals() -> Iterator[None]:
    """Rule errors with their own constructors do not survive pickling; the text does."""
    try:
        yield
    except RulesError as error:
        raise InvalidInput(str(error)) from None


def unit_sides(options: Mapping[str, Any], roster: Roster | None) -> dict[str, str]:
    """Each unit's side, for expected losses per side: in a battle, the roster's side of each
    unit the command names (a side with one unit in the fight is named by it, whatever else
    the roster holds); in a quick lookup, the option that names it (``attackers``)."""
    sides: dict[str, str] = {}
    named: set[str] = set()  # in a battle a part without a colon is a roster unit's name
    for key, value in options.items():
        if not isinstance(value, str):
            continue
        for part in unit_parts(value):
            name, words = split_name(part)
            if name:
                sides.setdefault(name, key)
            named.add(name_key(name or words))
    if roster is None:
        return sides
    return {unit.name: unit.side for unit in roster.units if name_key(unit.name) in named} \
        or {unit.name: unit.side for unit in roster.units}


class TooSlow(RulesError):
    """The worker did not answer in time (it is busy with other listings)."""


class OutcomeWorker:
    """A worker process for outcome listings, with a small cache in front of it, and one for
    the odds of commands (each started on first use)."""

    def __init__(self, *, seconds: float = OUTCOME_SECONDS, max_outcomes: int = MAX_OUTCOMES,
                 cache_size: int = CACHE_SIZE, processes: int = 1,
                 odds_seconds: float = ODDS_SECONDS) -> None:
        self.seconds = seconds
        self.odds_seconds = odds_seconds
        self.max_outcomes = max_outcomes
        self._cache_size = cache_size
        self._processes = processes
        self._cache: OrderedDict[Hashable, asyncio.Future[Enumeration]] = OrderedDict()
        self._pools: dict[str, concurrent.futures.ProcessPoolExecutor] = {}
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
            future = asyncio.wrap_future(
                self._submit(work_out, job, self.seconds, self.max_outcomes))
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

    async def odds(self, job: OutcomeJob) -> Odds:
        """A command's odds, worked out in a process of their own (so a GM's listing never
        waits behind them), by a deadline counted from now; not cached: a roster moves on."""
        return await self._odds(work_out_odds, job)

    async def odds_reply(self, job: OutcomeJob,
                         notes: Sequence[str] = ()) -> list[list[EmbedSpec]]:
        """As ``odds``, rendered in the worker too: the reply's embeds."""
        return await self._odds(work_out_odds_reply, job, tuple(notes))

    async def _odds(self, work: Callable[..., T], job: OutcomeJob, *args: Any) -> T:
        deadline = time.monotonic() + self.odds_seconds
        try:
            future = self._submit(work, job, deadline, *args, pool=ODDS)
            return await asyncio.wait_for(asyncio.wrap_future(future),
                                          self.odds_seconds + GRACE_SECONDS)
        except (TimeoutError, BrokenProcessPool):
            raise TooSlow("Working out the odds is taking too long.",
                          hint="Try again in a minute.") from None
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if not self._closed or (task is not None and task.cancelling()):
                raise
            raise TooSlow("The bot is shutting down.", hint="Try again in a minute.") from None

    def _submit(self, work: Callable[..., T], *args: Any,
                pool: str = LISTINGS) -> concurrent.futures.Future[T]:
        if self._closed:
            raise RuntimeError("the outcome worker is closed")
        try:
            return self._executor(pool).submit(work, *args)
        except BrokenProcessPool:
            # A worker died (killed by the host, out of memory): start afresh once.
            self._pools.pop(pool, None)
            return self._executor(pool).submit(work, *args)

    def _executor(self, pool: str) -> concurrent.futures.ProcessPoolExecutor:
        if pool not in self._pools:
            # "spawn": a fresh interpreter, not a fork of a process holding an event loop,
            # database connections and their threads. Started on first use only.
            self._pools[pool] = concurrent.futures.ProcessPoolExecutor(
                max_workers=self._processes, mp_context=multiprocessing.get_context("spawn"))
        return self._pools[pool]

    async def close(self) -> None:
        """Stop the workers: queued work is dropped, what is running is let finish."""
        self._closed = True
        self._cache.clear()
        pools, self._pools = list(self._pools.values()), {}
        for pool in pools:
            # shutdown(wait=True) blocks; keep the loop free while the worker winds down.
            await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)
