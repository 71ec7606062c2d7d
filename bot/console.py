"""``huzzah console``: the bot offline. Type slash commands; see what the bot would post.

Each line becomes the interaction payload Discord would send, goes through the bot's real
``CommandTree`` and prints what the bot answers. No token, no network.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sys
from collections.abc import AsyncIterator

from bot.client import create_bot
from bot.offline import (
    OfflineDiscord,
    OfflineInputError,
    help_text,
    parse_command_line,
    render_messages,
)
from bot.storage.database import Database, async_url, database_url
from bot.storage.migrate import upgrade_async

MANAGE_CHANNELS = 1 << 4
BANNER = (
    "Huzzah console: type slash commands as in Discord, e.g. /help. "
    "`help` lists the commands, `quit` (or Ctrl-D) leaves."
)
QUIT = {"quit", "exit", ":q"}


async def lines(interactive: bool) -> AsyncIterator[str]:
    if interactive:
        with contextlib.suppress(ImportError):
            import readline  # noqa: F401  (line editing and history at the prompt)
        while True:
            try:
                yield await asyncio.to_thread(input, "huzzah> ")
            except EOFError:
                print()
                return
    else:
        for line in sys.stdin:
            yield line.rstrip("\n")


def where(args: argparse.Namespace) -> dict[str, object]:
    return {
        "channel_id": args.channel,
        "guild_id": args.guild,
        "user_id": args.user,
        "user_name": args.name,
        "permissions": MANAGE_CHANNELS if args.manage_channel else 0,
        "roles": list(args.role),
    }


def console_url(database: str | None) -> str:
    """A URL as given, a bare path as a SQLite file, or the configured default."""
    if database is None:
        return database_url()
    return async_url(database if "://" in database else f"sqlite:///{database}")


async def run_console(args: argparse.Namespace) -> int:
    interactive = sys.stdin.isatty()
    refused = 0
    url = console_url(args.database)
    await upgrade_async(url)
    async with Database(url) as db, OfflineDiscord(create_bot(db)) as session:
        if interactive:
            print(BANNER)
        async for raw in lines(interactive):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            if line in QUIT:
                break
            if not interactive:
                print(f"> {line}")
            if line in {"help", "?", "/"}:
                print(help_text(session.tree))
                continue
            try:
                command = parse_command_line(session.tree, line, guild_id=args.guild)
                messages = await session.invoke(command.path, command.options, **where(args))
            except OfflineInputError as error:
                # Discord's own client would not let this line be sent; show what it would.
                refused += 1
                print(f"{error}\n\n{help_text(session.tree, error.path or None)}\n")
                continue
            if args.json:
                print(json.dumps([m.request.payload for m in messages], indent=2,
                                 ensure_ascii=False))
            else:
                print(render_messages(messages))
            print()
    return 1 if refused and not interactive else 0
