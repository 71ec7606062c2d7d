"""Speed and memory figures for Huzzah, with the targets they are held to.

    .venv/bin/python scripts/bench.py [--quick]

Prints one line per measure: the number, the target, and PASS or MISS. Exits 1 on a MISS.
Targets: Discord wants an answer within 3 seconds, so a whole command (parse, resolve,
render, respond) must take a small fraction of that even on a slow host.
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.client import create_bot
from bot.offline import OfflineDiscord, parse_command_line
from bot.render.resolution import resolution_messages
from bot.storage import Database
from bot.storage.migrate import upgrade_async
from rules.core.dice import RandomSource
from rules.fire_at_will import resolve_charge, resolve_melee
from rules.fire_at_will.inputs import read_chargers, read_melee_side
from rules.fire_at_will.units import Arm, Cover, Unit

RESULTS: list[bool] = []


def report(name: str, value: float, unit: str, target: float, higher_is_better: bool) -> None:
    ok = value >= target if higher_is_better else value <= target
    RESULTS.append(ok)
    sign = ">=" if higher_is_better else "<="
    print(f"{name:<44} {value:>12,.1f} {unit:<10} target {sign} {target:,.0f}  "
          f"{'PASS' if ok else 'MISS'}")


def rate(fn: Callable[[], object], seconds: float) -> float:
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        fn()
        count += 1
    return count / (time.perf_counter() - start)


def engine(seconds: float) -> None:
    dice = RandomSource(1)
    target = Unit("2nd Foot", Arm.INFANTRY, basic_morale=4)
    chargers = read_chargers("Hussars: cav flank; Dragoons: cav")
    small_a = read_melee_side("A: inf regular charging general=G", "attackers")
    small_d = read_melee_side("D: inf open general=H", "defenders")
    big_a = read_melee_side("; ".join(f"A{i}: cav charging front" for i in range(10)),
                            "attackers")
    big_d = read_melee_side("; ".join(f"D{i}: inf deep general=G{i}" for i in range(10)),
                            "defenders")
    report("engine: charge tests per second",
           rate(lambda: resolve_charge(target, chargers, Cover.NONE, dice), seconds),
           "/s", 5_000, True)
    report("engine: 1 v 1 melees per second",
           rate(lambda: resolve_melee(small_a, small_d, dice), seconds), "/s", 5_000, True)
    report("engine: 10 v 10 melees per second",
           rate(lambda: resolve_melee(big_a, big_d, dice), seconds), "/s", 1_000, True)
    result = resolve_melee(big_a, big_d, dice)
    report("render: 10 v 10 melee to embeds per second",
           rate(lambda: resolution_messages(result), seconds), "/s", 1_000, True)


async def dispatch(count: int) -> None:
    """Quick lookups, then battle moves (each one a locked, logged transaction on SQLite)."""
    lines = [
        '/melee fire-at-will attackers:"Grenadiers: inf regular charging front; Rangers: inf '
        'open overlap" defenders:"Béarn: inf regular general=Bougainville"',
        '/charge fire-at-will target:"2nd Foot" target_type:infantry morale:4 '
        'chargers:"Hussars: cav distance=5"',
    ]
    battle = [
        '/battle start ruleset:fire-at-will name:Bench',
        '/unit add side:A name:Grenadiers words:"inf regular morale=4" strength:999',
        '/unit add side:B name:Artois words:"inf regular morale=4" strength:999',
    ]
    move = '/melee fire-at-will attackers:"Grenadiers: charging" defenders:Artois'
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite+aiosqlite:///{folder}/bench.db"
        await upgrade_async(url)
        async with Database(url) as db, OfflineDiscord(create_bot(db)) as session:

            async def timed(line: str, channel: int) -> float:
                start = time.perf_counter()
                command = parse_command_line(session.tree, line, guild_id=10)
                await session.invoke(command.path, command.options, channel_id=channel,
                                     user_id=1000, guild_id=10)
                return (time.perf_counter() - start) * 1000

            lookups = sorted([await timed(lines[i % 2], 100) for i in range(count)])
            for line in battle:
                await timed(line, 200)
            moves = sorted([await timed(move, 200) for _ in range(count)])
    for name, timings in (("quick lookup", lookups), ("battle move", moves)):
        report(f"bot: {name} round trip, median", statistics.median(timings), "ms", 50, False)
        report(f"bot: {name} round trip, p99", timings[int(len(timings) * 0.99) - 1], "ms",
               250, False)


def memory() -> None:
    dice = RandomSource(2)
    big_a = read_melee_side("; ".join(f"A{i}: cav charging" for i in range(10)), "attackers")
    big_d = read_melee_side("; ".join(f"D{i}: inf general=G{i}" for i in range(10)),
                            "defenders")
    tracemalloc.start()
    for _ in range(1_000):
        resolution_messages(resolve_melee(big_a, big_d, dice))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    report("memory: peak while resolving 1000 melees", peak / 1024, "KiB", 2_048, False)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    report("memory: process max RSS", rss, "MiB", 200, False)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="shorter runs (for a smoke test)")
    args = parser.parse_args()
    seconds = 0.2 if args.quick else 1.0
    engine(seconds)
    asyncio.run(dispatch(50 if args.quick else 400))
    memory()
    return 0 if all(RESULTS) else 1


if __name__ == "__main__":
    sys.exit(main())
