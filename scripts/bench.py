"""Speed and memory figures for Huzzah, each beside a floor measured in the same run.

    .venv/bin/python scripts/bench.py [--quick] [--postgres URL]

The floor is a bare discord.py bot: one slash command that inserts one row (aiosqlite in WAL
mode, or asyncpg) and answers one embed. It runs through the same offline path as Huzzah (raw
interaction payloads through discord.py's real ``CommandTree``; only the network replaced),
so the ratio between the two is what Huzzah itself costs. Ratios, not absolute times, are the
targets: machines are noisy, ratios within one run much less so.

Prints one line per figure: Huzzah's number, the floor's, the ratio, the target and PASS or
MISS. Exits 1 on a MISS.
"""

from __future__ import annotations

import argparse
import asyncio
import compileall
import gc
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import discord  # noqa: E402
from discord import app_commands  # noqa: E402
from sqlalchemy import insert, select, update  # noqa: E402
from sqlalchemy import text as sql_text  # noqa: E402

from bot.client import create_bot  # noqa: E402
from bot.heap import settle_heap  # noqa: E402
from bot.offline import (  # noqa: E402
    OfflineDiscord,
    build_command_data,
    interaction_payload,
    parse_command_line,
)
from bot.render.resolution import resolution_messages  # noqa: E402
from bot.replies import Buttons, gm_buttons  # noqa: E402
from bot.storage import Database  # noqa: E402
from bot.storage.migrate import upgrade_async  # noqa: E402
from bot.storage.models import Base, Battle, Event  # noqa: E402
from bot.workers import ODDS_LEAVES, ODDS_SECONDS  # noqa: E402
from rules.core.dice import RandomSource  # noqa: E402
from rules.core.odds import exact_odds  # noqa: E402
from rules.fire_at_will import resolve_charge, resolve_melee  # noqa: E402
from rules.fire_at_will.inputs import read_chargers, read_melee_side  # noqa: E402
from rules.fire_at_will.units import Arm, Cover, Unit  # noqa: E402
from rules.registry import RULESETS  # noqa: E402

RESULTS: list[bool] = []
DEFAULT_GC_THRESHOLDS = gc.get_threshold()
GUILD, USER = 10, 1000

LOOKUP = ('/melee fire-at-will attackers:"Grenadiers: inf regular charging front; Rangers: inf '
          'open overlap" defenders:"Béarn: inf regular general=Bougainville"')
BATTLE = [
    "/battle start ruleset:fire-at-will name:Bench",
    '/unit add side:A name:Grenadiers words:"inf regular morale=4" strength:999',
    '/unit add side:B name:Artois words:"inf regular morale=4" strength:999',
]
# Artois loses by 1 each time: a move that writes a strength, a marker and a logged event.
MOVE = '/melee fire-at-will attackers:"Grenadiers: charging" defenders:Artois dice:"3 3"'


# --- reporting ---------------------------------------------------------------------------------


def line(name: str, value: str, floor: str, ratio: str, target: str, ok: bool | None) -> None:
    verdict = "" if ok is None else ("PASS" if ok else "MISS")
    if ok is not None:
        RESULTS.append(ok)
    print(f"{name:<46} {value:>12} {floor:>12} {ratio:>8}  {target:<16} {verdict}")


def against_floor(name: str, value: float, floor: float, unit: str, limit: float,
                  *, higher_is_better: bool = False, ratio: float | None = None) -> None:
    """A figure held to a multiple of the floor's (``limit``x); ``ratio`` when it was worked
    out round by round (``Rounds``), else the ratio of the two figures."""
    if ratio is None:
        ratio = value / floor if floor else float("inf")
    ok = ratio >= limit if higher_is_better else ratio <= limit
    sign = ">=" if higher_is_better else "<="
    line(name, f"{value:,.1f} {unit}", f"{floor:,.1f} {unit}", f"{ratio:.2f}x",
         f"ratio {sign} {limit:g}", ok)


def absolute(name: str, value: float, unit: str, limit: float,
             *, higher_is_better: bool = False) -> None:
    ok = value >= limit if higher_is_better else value <= limit
    sign = ">=" if higher_is_better else "<"
    line(name, f"{value:,.1f} {unit}", "", "", f"{sign} {limit:g} {unit}", ok)


def info(name: str, value: float, unit: str) -> None:
    line(name, f"{value:,.1f} {unit}", "", "", "", None)


def percentile(timings: list[float], share: float) -> float:
    ordered = sorted(timings)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


# --- the floor: a bare discord.py command -----------------------------------------------------


class FloorBot(discord.Client):
    """One slash command: insert one row, answer one embed. Nothing else.

    A second command, ``/reply``, inserts the same row and answers with a battle move's
    reply as Huzzah sent it (``reply``: its embeds, and the buttons under it): what
    discord.py itself costs to send that reply, for the figures' reading.
    """

    def __init__(self, url: str) -> None:
        super().__init__(intents=discord.Intents(guilds=True))
        self.url = url
        self.tree = app_commands.CommandTree(self)
        self.write: Callable[[int, str], Awaitable[None]] | None = None
        self.reply: list[dict] = []

        @self.tree.command(name="move", description="Record a move")
        async def move(interaction: discord.Interaction, note: str = "") -> None:
            assert self.write is not None
            await self.write(interaction.channel_id or 0, note)
            embed = discord.Embed(title="Move recorded", description=note or "-")
            await interaction.response.send_message(embed=embed)

        @self.tree.command(name="reply", description="Record a move, answered as Huzzah does")
        async def reply(interaction: discord.Interaction, note: str = "") -> None:
            assert self.write is not None
            await self.write(interaction.channel_id or 0, note)
            embeds = [discord.Embed.from_dict(embed) for embed in self.reply]
            await interaction.response.send_message(embeds=embeds, view=Buttons(gm_buttons(1, 1)))

    async def setup_hook(self) -> None:
        if self.url.startswith("postgresql"):
            import asyncpg

            pool = await asyncpg.create_pool(self.url.replace("+asyncpg", ""), max_size=10)
            await pool.execute("drop table if exists floor_moves")
            await pool.execute("create table floor_moves (id serial primary key, "
                               "channel bigint, note text)")

            async def write(channel: int, note: str) -> None:
                await pool.execute("insert into floor_moves (channel, note) values ($1, $2)",
                                   channel, note)

            self._close = pool.close
        else:
            import aiosqlite

            conn = await aiosqlite.connect(self.url.split("///", 1)[1])
            await conn.execute("pragma journal_mode=wal")
            await conn.execute("create table if not exists floor_moves "
                               "(id integer primary key, channel integer, note text)")

            async def write(channel: int, note: str) -> None:
                await conn.execute("insert into floor_moves (channel, note) values (?, ?)",
                                   (channel, note))
                await conn.commit()

            self._close = conn.close
        self.write = write

    async def close(self) -> None:
        await self._close()
        await super().close()


# --- driving a bot ---------------------------------------------------------------------------


@dataclass
class Driver:
    session: OfflineDiscord

    def __post_init__(self) -> None:
        self._data: dict[str, dict] = {}

    def payload(self, text: str, channel: int) -> dict:
        """The raw interaction Discord would send; the command's data is built once, as the
        Discord client does the parsing, so only what the bot does is timed."""
        if text not in self._data:
            command = parse_command_line(self.session.tree, text, guild_id=GUILD)
            self._data[text] = build_command_data(self.session.tree, command.path,
                                                  command.options, guild_id=GUILD)
        return interaction_payload(
            kind=2, data=self._data[text], application_id=self.session.application_id,
            interaction_id=self.session.ids.next(), channel_id=channel, user_id=USER,
            guild_id=GUILD, permissions=1 << 4)

    async def run(self, text: str, channel: int) -> float:
        """One command, answered; its round trip in milliseconds."""
        payload = self.payload(text, channel)
        start = time.perf_counter()
        sent = await self.session.invoke_raw(payload)
        elapsed = (time.perf_counter() - start) * 1000
        # As a real Discord would, the session keeps nothing of an answered command: kept,
        # thousands of them would weigh on the collector of whichever bot ran later.
        self.session.forget(payload)
        # Every command the benchmark sends is one that works: a refusal (a set-up that
        # found a battle already there, say) would measure something else.
        if not sent or sent[0].ephemeral:
            raise RuntimeError(f"{text!r} was refused: {sent[0].content if sent else 'no reply'}")
        return elapsed

    async def reply(self, text: str, channel: int) -> list[dict]:
        """The embeds of one command's reply."""
        sent = await self.session.invoke_raw(self.payload(text, channel))
        return sent[0].embeds

    async def serial(self, text: str, channel: int, count: int) -> list[float]:
        return [await self.run(text, channel) for _ in range(count)]

    async def load(self, text: str, channels: list[int], total: int,
                   in_flight: int) -> tuple[float, list[float]]:
        """``total`` commands spread over ``channels``, ``in_flight`` at a time."""
        gate = asyncio.Semaphore(in_flight)
        timings: list[float] = []

        async def one(index: int) -> None:
            async with gate:
                timings.append(await self.run(text, channels[index % len(channels)]))

        start = time.perf_counter()
        await asyncio.gather(*(one(i) for i in range(total)))
        return total / (time.perf_counter() - start), timings


def default_collector() -> None:
    """The interpreter's own collector thresholds: the floor is a bare discord.py bot, which
    runs with them (Huzzah tunes its own once set up, as ``huzzah run`` does). What Huzzah
    froze stays frozen, which spares the floor walking Huzzah's objects."""
    gc.set_threshold(*DEFAULT_GC_THRESHOLDS)


@asynccontextmanager
async def floor_bot(url: str):
    default_collector()
    async with OfflineDiscord(FloorBot(url)) as session:
        yield Driver(session)


@asynccontextmanager
async def huzzah_bot(url: str):
    await upgrade_async(url)
    async with Database(url) as db, OfflineDiscord(create_bot(db, settle_heap=True)) as session:
        yield Driver(session), db


async def grow_log(db: Database, channel: int, events: int) -> None:
    """Copy the battle's last event until its log holds ``events`` more (as a long game
    would leave it), keeping the sequence gapless."""
    async with db.transaction() as s:
        battle = await s.scalar(select(Battle).where(Battle.channel_id == channel))
        last = await s.scalar(select(Event).where(Event.battle_id == battle.id)
                              .order_by(Event.seq.desc()).limit(1))
        rows = [{"battle_id": battle.id, "seq": last.seq + i + 1, "interaction_id": None,
                 "user_id": last.user_id, "user_name": last.user_name,
                 "command": last.command, "kind": last.kind, "summary": last.summary,
                 "request": last.request, "resolution": last.resolution,
                 "changes": last.changes, "created_at": last.created_at}
                for i in range(events)]
        for start in range(0, len(rows), 500):
            await s.execute(insert(Event), rows[start:start + 500])
        await s.execute(update(Battle).where(Battle.id == battle.id)
                        .values(last_seq=last.seq + events))


# --- the figures ------------------------------------------------------------------------------


ROUNDS = 5
"""Floor and Huzzah take turns, this many times: a machine's speed drifts over a run, so each
of Huzzah's figures is held to the floor measured beside it, round by round, and the ratio
given is the median of the rounds' ratios."""


@dataclass
class Rounds:
    """Timings of each kind of command, kept per round."""

    timings: dict[str, list[list[float]]]

    def __init__(self) -> None:
        self.timings = {}

    def add(self, kind: str, round_: int, values: list[float]) -> None:
        rounds = self.timings.setdefault(kind, [])
        rounds.extend([] for _ in range(round_ + 1 - len(rounds)))
        rounds[round_].extend(values)

    def all(self, kind: str) -> list[float]:
        return [value for values in self.timings[kind] for value in values]

    def ratio(self, kind: str, floor: str) -> float:
        """The median over the rounds of each round's median against the floor's."""
        return statistics.median(statistics.median(ours) / statistics.median(theirs)
                                 for ours, theirs in zip(self.timings[kind],
                                                         self.timings[floor], strict=True))


def huzzah_collector() -> None:
    """Huzzah's own collector settings, as ``huzzah run`` makes them once set up."""
    settle_heap()


async def emptied(url: str) -> None:
    """A PostgreSQL database as a fresh SQLite file is: migrated, with no row in it. Battles
    left by an earlier run would refuse this run's set-up (a battle already under way), and
    its moves would play on what that run left."""
    await upgrade_async(url)
    async with Database(url) as db, db.engine.begin() as connection:
        tables = ", ".join(table.name for table in Base.metadata.sorted_tables)
        await connection.execute(sql_text(f"TRUNCATE TABLE {tables} RESTART IDENTITY CASCADE"))


async def commands(url: str, floor_url: str, label: str, count: int, load_total: int,
                   channel_count: int) -> None:
    if url.startswith("postgresql"):
        await emptied(url)
    await upgrade_async(url)
    async with floor_bot(floor_url) as floor, huzzah_bot(url) as (huzzah, db):
        await floor.serial('/move note:warm-up', 1, 20)
        await huzzah.serial(LOOKUP, 1, 20)
        for channel in (2, 3):
            for text in BATTLE:
                await huzzah.run(text, channel)
            await huzzah.serial(MOVE, channel, 20)
        floor.session.client.reply = await huzzah.reply(MOVE, 3)
        await serial_figures(label, floor, huzzah, db, count)
        await load_figures(label, floor, huzzah, load_total, channel_count)


async def serial_figures(label: str, floor: Driver, huzzah: Driver, db: Database,
                         count: int) -> None:
    print(f"\n{label}: serial, one channel ({count} commands each, in {ROUNDS} rounds)")
    rounds = Rounds()
    each = max(1, count // ROUNDS)
    for round_ in range(ROUNDS):
        default_collector()
        rounds.add("floor", round_, await floor.serial('/move note:"a move"', 1, each))
        huzzah_collector()
        rounds.add("lookup", round_, await huzzah.serial(LOOKUP, 1, each))
        rounds.add("move", round_, await huzzah.serial(MOVE, 2, each))
        undos = []
        for _ in range(each):
            await huzzah.run(MOVE, 2)
            undos.append(await huzzah.run("/gm undo", 2))
        rounds.add("undo", round_, undos)
        rounds.add("show", round_, await huzzah.serial("/battle show", 2, each))
    # A long log against a short one: the same move, taking turns, in two channels.
    logged = 2000 if count > 10 else 20
    await grow_log(db, 3, logged)
    for round_ in range(ROUNDS):
        rounds.add("short log", round_, await huzzah.serial(MOVE, 2, each))
        rounds.add("long log", round_, await huzzah.serial(MOVE, 3, each))

    floor_p50 = statistics.median(rounds.all("floor"))
    for name, kind, limit in (("quick lookup, p50", "lookup", 2), ("battle move, p50", "move", 3),
                              ("/gm undo, p50", "undo", 3), ("/battle show, p50", "show", 3)):
        against_floor(name, statistics.median(rounds.all(kind)), floor_p50, "ms", limit,
                      ratio=rounds.ratio(kind, "floor"))
        if kind == "move":
            info("battle move, p99", percentile(rounds.all("move"), 0.99), "ms")
    against_floor(f"battle move with {logged:,} events logged, p50",
                  statistics.median(rounds.all("long log")),
                  statistics.median(rounds.all("short log")), "ms", 1.5,
                  ratio=rounds.ratio("long log", "short log"))


async def load_figures(label: str, floor: Driver, huzzah: Driver, load_total: int,
                       channel_count: int) -> None:
    print(f"\n{label}: {channel_count} channels, 50 in flight ({load_total} commands, "
          f"in {ROUNDS} rounds)")
    channels = list(range(1000, 1000 + channel_count))
    for channel in channels:
        for text in BATTLE:
            await huzzah.run(text, channel)
    floor_channels = list(range(100, 100 + channel_count))
    each = max(1, load_total // ROUNDS)
    rates: dict[str, list[float]] = {"floor": [], "huzzah": [], "reply": []}
    timings: dict[str, list[float]] = {"floor": [], "huzzah": []}
    for _ in range(ROUNDS):
        default_collector()
        rate, took = await floor.load('/move note:"a move"', floor_channels, each, 50)
        rates["floor"].append(rate)
        timings["floor"] += took
        huzzah_collector()
        rate, took = await huzzah.load(MOVE, channels, each, 50)
        rates["huzzah"].append(rate)
        timings["huzzah"] += took
        default_collector()
        rates["reply"].append((await floor.load('/reply note:"a move"', floor_channels,
                                                each, 50))[0])
    ratio = statistics.median(ours / theirs
                              for ours, theirs in zip(rates["huzzah"], rates["floor"],
                                                      strict=True))
    against_floor("battle moves per second", statistics.median(rates["huzzah"]),
                  statistics.median(rates["floor"]), "/s", 0.25, higher_is_better=True,
                  ratio=ratio)
    # What sending a move's reply costs discord.py alone, against the floor: the part of
    # the ratio above that no work of Huzzah's own can take back.
    reply_ratio = statistics.median(ours / theirs
                                    for ours, theirs in zip(rates["reply"], rates["floor"],
                                                            strict=True))
    line("floor answering with a move's reply, per second",
         f"{statistics.median(rates['reply']):,.1f} /s",
         f"{statistics.median(rates['floor']):,.1f} /s", f"{reply_ratio:.2f}x", "", None)
    info("floor p50 under load", statistics.median(timings["floor"]), "ms")
    info("battle move p50 under load", statistics.median(timings["huzzah"]), "ms")
    absolute("battle move p99 under load", percentile(timings["huzzah"], 0.99), "ms", 250)


def engine(seconds: float) -> None:
    print("\nengine (no floor: pure Python)")
    dice = RandomSource(1)
    target = Unit("2nd Foot", Arm.INFANTRY, basic_morale=4)
    chargers = read_chargers("Hussars: cav flank; Dragoons: cav")
    small_a = read_melee_side("A: inf regular charging general=G", "attackers")
    small_d = read_melee_side("D: inf open general=H", "defenders")
    big_a = read_melee_side("; ".join(f"A{i}: cav charging front" for i in range(10)),
                            "attackers")
    big_d = read_melee_side("; ".join(f"D{i}: inf deep general=G{i}" for i in range(10)),
                            "defenders")
    result = resolve_melee(big_a, big_d, dice)
    for name, fn, limit in (
        ("charge tests per second", lambda: resolve_charge(target, chargers, Cover.NONE, dice),
         5_000),
        ("1 v 1 melees per second", lambda: resolve_melee(small_a, small_d, dice), 5_000),
        ("10 v 10 melees per second", lambda: resolve_melee(big_a, big_d, dice), 1_000),
        ("10 v 10 melee rendered to embeds per second", lambda: resolution_messages(result),
         1_000),
    ):
        absolute(name, rate(fn, seconds), "/s", limit, higher_is_better=True)


# The fights issue 13 names, as quick lookups: one d6 a unit, two pools of 8 d6, 5 battle
# dice and what follows them.
ODDS_CASES = (
    ("a Fire at Will 3 against 3 melee", "fire-at-will", "melee",
     {"attackers": "A1: inf; A2: inf; A3: inf", "defenders": "D1: inf; D2: inf; D3: inf"}),
    ("a Le Baton 12-figure melee", "le-baton", "melee",
     {"attacker": "4e Léger: french inf column figures=12",
      "defender": "52nd: british inf line figures=12", "phase": 6}),
    ("a Tricorne 5-dice melee", "tricorne", "melee",
     {"attacker": "Black Watch: highland leader=Murray", "defender": "Fusiliers: regular",
      "choices": "take_ground=stay"}),
)


def odds(budget: float, runs: int) -> None:
    """The odds of each fight as the bot's worker works them out, within ``budget`` seconds:
    the median time to the answer over ``runs`` requests, and whether it was exact or an
    estimate."""
    print(f"\nodds (the worker's work, up to {budget:g} s each, median of {runs}; no floor)")
    for name, ruleset, procedure, options in ODDS_CASES:
        rules = RULESETS[ruleset].battle
        assert rules is not None
        timings = []
        for _ in range(runs):
            prepared = rules.prepare(procedure, options, None, {})  # as each request is
            start = time.perf_counter()
            found = exact_odds(prepared, max_leaves=ODDS_LEAVES,
                               deadline=time.monotonic() + budget)
            timings.append((time.perf_counter() - start) * 1000)
        how = "exact" if found.exact else f"estimated, {found.samples:,} samples"
        absolute(f"odds of {name} ({how})", statistics.median(timings), "ms", 50)


def rate(fn: Callable[[], object], seconds: float) -> float:
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        fn()
        count += 1
    return count / (time.perf_counter() - start)


@contextmanager
def scratch_folder() -> Iterator[str]:
    with tempfile.TemporaryDirectory() as folder:
        yield folder


# Started from a small launcher: a child's peak RSS counts the process it was forked from
# (before its exec), and this benchmark's own process is large by the time it gets here.
LAUNCHER = """
import os, subprocess, sys, time
start = time.perf_counter()
child = subprocess.Popen(sys.argv[1:], stdin=sys.stdin, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
_, status, usage = os.wait4(child.pid, 0)
print(os.waitstatus_to_exitcode(status), time.perf_counter() - start, usage.ru_maxrss)
"""


def run_child(command: list[str], text: str, env: dict[str, str]) -> tuple[float, float]:
    """Run a command to its end; its wall time in seconds and its own peak RSS in MiB."""
    done = subprocess.run([sys.executable, "-c", LAUNCHER, *command], input=text, text=True,
                          capture_output=True, env=env, check=True)
    status, seconds, peak_kib = done.stdout.split()
    if int(status) != 0:
        raise RuntimeError(f"{command} exited {status}")
    return float(seconds), int(peak_kib) / 1024


# `huzzah run` up to the point where it would log in: the database prepared, the bot built,
# its commands registered (setup_hook). Only the connection to Discord is left out.
RUN_TO_READY = """
import asyncio
from bot.cli import _migrated_url
from bot.client import create_bot
from bot.offline import OfflineDiscord
from bot.storage.database import Database

async def ready(url):
    async with Database(url) as db, OfflineDiscord(create_bot(db, settle_heap=True)):
        pass

asyncio.run(ready(_migrated_url()))
"""


def start_up(runs: int) -> None:
    """The console from launch to its prompt (and out again), and its peak memory."""
    print("\nstart-up and memory of `huzzah console`")
    # As installed (pip compiles what it installs): an editable checkout in an environment
    # that writes no bytecode (PYTHONDONTWRITEBYTECODE) would compile every module of the
    # bot on every launch, a cost no installed bot pays.
    for package in ("bot", "rules"):
        compileall.compile_dir(ROOT / package, quiet=1)
    huzzah = Path(sys.executable).with_name("huzzah")
    command = [str(huzzah)] if huzzah.exists() else [sys.executable, "-m", "bot.cli"]
    env = {**os.environ, "HUZZAH_LOG_LEVEL": "WARNING"}
    with scratch_folder() as folder:
        console = [*command, "console", "--database", str(Path(folder) / "start.db")]
        run_child(console, "", env)  # creates the database: not what a player waits for
        timings = [run_child(console, "", env)[0] for _ in range(runs)]
        lines = "\n".join([LOOKUP, *BATTLE, MOVE, MOVE, "/battle show", "/gm undo", ""])
        _, peak = run_child([*console, "--user", "1"], lines, env)
        run_env = {**env, "DATABASE_URL": f"sqlite:///{Path(folder) / 'start.db'}"}
        ready = [run_child([sys.executable, "-c", RUN_TO_READY], "", run_env)[0]
                 for _ in range(runs)]
    absolute("console launch to prompt and out, median", statistics.median(timings) * 1000,
             "ms", 1000)
    absolute("`huzzah run` launch to ready (offline), median",
             statistics.median(ready) * 1000, "ms", 1000)
    absolute("console peak RSS over a short battle", peak, "MiB", 90)


# --- instructions: a count that a noisy machine does not change ------------------------------

COUNTED = (50, 250)
"""Serial commands in each of two counted runs: the difference is the commands alone, without
start-up."""


async def counted_commands(kind: str, count: int) -> None:
    """``count`` serial commands of one kind, for ``--instructions`` to count."""
    with scratch_folder() as folder:
        url = f"sqlite+aiosqlite:///{folder}/counted.db"
        if kind == "floor":
            async with floor_bot(url) as floor:
                for _ in range(count):
                    await floor.run('/move note:"a move"', 1)
            return
        async with huzzah_bot(url) as (huzzah, _):
            for text in BATTLE:
                await huzzah.run(text, 2)
            for _ in range(count):
                await huzzah.run(MOVE, 2)


def callgrind_total(kind: str, count: int, folder: str) -> int:
    out = Path(folder) / f"{kind}.{count}.out"
    done = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                           sys.executable, __file__, "--counted", kind, str(count)],
                          env={**os.environ, "PYTHONHASHSEED": "0"}, capture_output=True,
                          text=True)
    if done.returncode != 0:
        raise RuntimeError(f"the counted {kind} run failed:\n{done.stderr[-2000:]}")
    for text in out.read_text().splitlines():
        if text.startswith("totals:"):
            return int(text.split()[1])
    raise RuntimeError(f"no totals in {out}")


def instructions() -> None:
    """Instructions per serial command (SQLite), the floor's and a battle move's, counted by
    callgrind: the same count on a busy machine as on an idle one, so a change can be
    measured where timings drift by half. Informational: the targets are timings."""
    print(f"\ninstructions per command, counted by callgrind (serial, SQLite; "
          f"{COUNTED[1]} commands less {COUNTED[0]})")
    if shutil.which("valgrind") is None:
        print("valgrind is not installed: skipped")
        return
    per: dict[str, float] = {}
    with scratch_folder() as folder:
        for kind in ("floor", "move"):
            short, long = (callgrind_total(kind, n, folder) for n in COUNTED)
            per[kind] = (long - short) / (COUNTED[1] - COUNTED[0])
    line("battle move, instructions", f"{per['move'] / 1e6:.2f} M",
         f"{per['floor'] / 1e6:.2f} M", f"{per['move'] / per['floor']:.2f}x", "", None)


def memory() -> None:
    print("\nengine memory")
    dice = RandomSource(2)
    big_a = read_melee_side("; ".join(f"A{i}: cav charging" for i in range(10)), "attackers")
    big_d = read_melee_side("; ".join(f"D{i}: inf general=G{i}" for i in range(10)),
                            "defenders")
    tracemalloc.start()
    for _ in range(1_000):
        resolution_messages(resolve_melee(big_a, big_d, dice))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    absolute("peak while resolving 1000 10 v 10 melees", peak / 1024, "KiB", 2_048)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="shorter runs")
    parser.add_argument("--smoke", action="store_true",
                        help="a few commands of each kind: checks the script, not the speed")
    parser.add_argument("--postgres", metavar="URL",
                        help="also measure on this PostgreSQL database (a scratch one: "
                             "it is emptied first)")
    parser.add_argument("--instructions", action="store_true",
                        help="only count instructions per command under valgrind (minutes)")
    parser.add_argument("--counted", nargs=2, metavar=("KIND", "COUNT"),
                        help=argparse.SUPPRESS)  # the run --instructions counts
    args = parser.parse_args(argv)
    if args.counted:
        kind, count = args.counted
        if kind not in ("floor", "move"):
            parser.error("--counted takes floor or move")
        asyncio.run(counted_commands(kind, int(count)))
        return 0
    if args.instructions:
        instructions()
        return 0
    # Under load, rounds of 2,000 commands: shorter ones measured the machine's moods.
    count, load_total, channels = (300, 10_000, 200)
    if args.quick:
        count, load_total = 30, 400
    if args.smoke:
        count, load_total, channels = 3, 20, 4
    line("figure", "Huzzah", "floor", "ratio", "target", None)
    with scratch_folder() as folder:
        asyncio.run(commands(f"sqlite+aiosqlite:///{folder}/bench.db",
                             f"sqlite:///{folder}/floor.db", "SQLite", count, load_total, channels))
    if args.postgres:
        asyncio.run(commands(args.postgres, args.postgres, "PostgreSQL", count, load_total,
                             channels))
    start_up(1 if args.smoke else 3 if args.quick else 10)
    engine(0.05 if args.smoke else 0.2 if args.quick else 1.0)
    odds(0.2 if args.smoke else ODDS_SECONDS, 1 if args.smoke else 5)
    memory()
    missed = RESULTS.count(False)
    print(f"\n{len(RESULTS) - missed} of {len(RESULTS)} targets met")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())

