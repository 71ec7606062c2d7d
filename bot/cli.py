"""The ``huzzah`` command: run, sync, console, resolve."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from collections.abc import Sequence

import discord

from bot.config import load_config
from bot.logs import setup_logging

log = logging.getLogger("huzzah")

NO_TOKEN = (
    "huzzah: DISCORD_TOKEN is not set. Put the bot token from the Discord Developer Portal "
    "in the DISCORD_TOKEN environment variable or in a .env file (DISCORD_TOKEN=...)."
)
BAD_TOKEN = (
    "huzzah: Discord rejected the token in DISCORD_TOKEN. Reset it in the Developer Portal "
    "(Bot > Reset Token) and set DISCORD_TOKEN again."
)


def fail(message: str, status: int = 2) -> int:
    print(message, file=sys.stderr)
    return status


def _token_or_none() -> str | None:
    config = load_config()
    setup_logging(config.log_level, [config.token or ""])
    return config.token


def _migrated_url() -> str:
    """The configured database, brought to the newest schema."""
    from bot.storage.database import database_url
    from bot.storage.migrate import upgrade

    url = database_url()
    upgrade(url)
    return url


async def _run_bot(token: str, url: str) -> None:
    from bot.client import create_bot
    from bot.storage.database import Database

    async with Database(url) as db, create_bot(db) as bot:
        await bot.start(token)


def cmd_run(args: argparse.Namespace) -> int:
    token = _token_or_none()
    if not token:
        return fail(NO_TOKEN)
    try:
        url = _migrated_url()
    except Exception as exc:  # a database we cannot open or migrate: say so in one line
        return fail(f"huzzah: cannot prepare the database ({type(exc).__name__}: {exc}). "
                    "Check DATABASE_URL.")
    try:
        asyncio.run(_run_bot(token, url))
    except discord.LoginFailure:
        return fail(BAD_TOKEN)
    except discord.PrivilegedIntentsRequired:
        return fail("huzzah: Discord refused the gateway intents this bot asked for.")
    except OSError as exc:
        return fail(f"huzzah: could not reach Discord ({type(exc).__name__}). Check the network.",
                    1)
    return 0


async def _sync(token: str, guild_id: int | None) -> int:
    from bot.client import create_bot
    from bot.storage.database import Database

    # Syncing only reads the command tree; the database is never opened.
    async with Database("sqlite+aiosqlite://") as db, create_bot(db) as bot:
        await bot.login(token)
        if guild_id is not None:
            guild = discord.Object(id=guild_id)
            bot.tree.copy_global_to(guild=guild)
            synced = await bot.tree.sync(guild=guild)
            print(f"Synced {len(synced)} commands to guild {guild_id}: usable there now.")
        else:
            synced = await bot.tree.sync()
            print(f"Synced {len(synced)} commands globally: every server the bot is in gets "
                  "them (Discord may take a few minutes to show them).")
    return 0


def cmd_sync(args: argparse.Namespace) -> int:
    token = _token_or_none()
    if not token:
        return fail(NO_TOKEN)
    try:
        return asyncio.run(_sync(token, args.guild))
    except discord.LoginFailure:
        return fail(BAD_TOKEN)
    except discord.Forbidden:
        return fail(f"huzzah: the bot is not in guild {args.guild}, or was invited without the "
                    "applications.commands scope. Invite it again (see README).")
    except OSError as exc:
        return fail(f"huzzah: could not reach Discord ({type(exc).__name__}). Check the network.",
                    1)


def cmd_console(args: argparse.Namespace) -> int:
    from bot.console import run_console

    config = load_config()
    setup_logging(config.log_level if args.verbose else "WARNING")
    return asyncio.run(run_console(args))


def cmd_db(args: argparse.Namespace) -> int:
    from bot.storage.database import database_url
    from bot.storage.migrate import current, downgrade, upgrade

    config = load_config()
    setup_logging(config.log_level)
    url = database_url()
    try:
        if args.action == "upgrade":
            upgrade(url, args.revision or "head")
        elif args.action == "downgrade":
            if not args.revision:
                return fail("huzzah: say which revision to go down to, e.g. "
                            "`huzzah db downgrade base`.")
            downgrade(url, args.revision)
        print(f"database at revision {current(url) or 'base'}")
    except Exception as exc:
        return fail(f"huzzah: {args.action} failed ({type(exc).__name__}: {exc}).")
    return 0


def cmd_resolve(args: argparse.Namespace) -> int:
    from bot.resolve_cli import main

    return main()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="huzzah", description="Huzzah: a Discord dice-bot for horse-and-musket wargames."
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    run = sub.add_parser("run", help="start the bot on Discord (token from DISCORD_TOKEN)")
    run.set_defaults(func=cmd_run)

    sync = sub.add_parser("sync", help="push the slash commands to Discord")
    sync.add_argument("--guild", type=int, metavar="ID",
                      help="sync to one guild only (instant; for development)")
    sync.set_defaults(func=cmd_sync)

    console = sub.add_parser("console", help="try the bot offline: type slash commands")
    console.add_argument("--channel", type=int, default=100, metavar="ID",
                         help="the channel id to pretend to be in (default 100)")
    console.add_argument("--guild", type=int, default=10, metavar="ID",
                         help="the guild id (default 10)")
    console.add_argument("--user", type=int, default=1000, metavar="ID",
                         help="the user id to pretend to be (default 1000)")
    console.add_argument("--name", default="player", help="the user's name (default player)")
    console.add_argument("--manage-channel", action="store_true",
                         help="give the user the Manage Channel permission")
    console.add_argument("--role", type=int, action="append", default=[], metavar="ID",
                         help="a role id the user holds (repeatable)")
    console.add_argument("--database", metavar="URL_OR_FILE",
                         help="the database (default: DATABASE_URL, else ./huzzah.db)")
    console.add_argument("--json", action="store_true",
                         help="print the raw payloads the bot sends instead of text")
    console.add_argument("-v", "--verbose", action="store_true", help="show the bot's log")
    console.set_defaults(func=cmd_console)

    db = sub.add_parser("db", help="migrate the database named by DATABASE_URL")
    db.add_argument("action", choices=["upgrade", "downgrade", "current"])
    db.add_argument("revision", nargs="?", help="target revision (upgrade: head by default; "
                    "downgrade: required, `base` for an empty database)")
    db.set_defaults(func=cmd_db)

    resolve = sub.add_parser("resolve", help="resolve one JSON request from standard input")
    resolve.set_defaults(func=cmd_resolve)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
