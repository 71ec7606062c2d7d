"""The ``huzzah`` command: run, sync, console, db, health, resolve, and battle backups."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import socket
import sys
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.config import UnreadableDotenv, environment, load_config
from bot.logs import setup_logging
from bot.process import (
    EXIT_CONFIG,
    EXIT_INTERRUPTED,
    EXIT_NETWORK,
    EXIT_OK,
    MetricsAddressError,
    StopSignals,
    checkpoint,
    format_address,
    new_metrics,
    serving_metrics,
)

if TYPE_CHECKING:
    import discord
    from discord import app_commands

    from rules.core.errors import RulesError

# discord.py and SQLAlchemy are imported by the commands that use them: `huzzah resolve`
# and `huzzah --help` need neither, and start several times faster without them.

log = logging.getLogger("huzzah")

HEALTH_SECONDS = 8.0
"""How long ``huzzah health`` waits: the bot's own check of its database takes up to 5."""

STOP_GRACE = 8.0
"""Seconds that commands in progress get to finish on shutdown: under ``docker stop``'s 10."""

SHUTTING_DOWN = "⏳ Huzzah is restarting. Nothing was changed: send the command again in a minute."

NO_TOKEN = (
    "huzzah: DISCORD_TOKEN is not set. Put the bot token from the Discord Developer Portal "
    "in the DISCORD_TOKEN environment variable or in a .env file (DISCORD_TOKEN=...)."
)
BAD_TOKEN = (
    "huzzah: Discord rejected the token in DISCORD_TOKEN. Reset it in the Developer Portal "
    "(Bot > Reset Token) and set DISCORD_TOKEN again."
)


def fail(message: str, status: int = EXIT_CONFIG) -> int:
    print(message, file=sys.stderr)
    return status


def _token_or_none() -> str | None:
    config = load_config()
    setup_logging(config.log_level, [config.token or ""])
    return config.token


def token_problem(token: str) -> str | None:
    """Why ``token`` cannot be a bot token, if it cannot: a line break inside it would make
    the HTTP library raise, and a space means "Bot " or a comment came along with it.
    (discord.py strips the ends itself.)"""
    inner = token.strip()
    if any(char in "\r\n" for char in inner):
        what = "a line break"
    elif any(char.isspace() for char in inner):
        what = "a space"
    elif not inner.isascii() or not inner.isprintable():
        what = "a character no token has"
    else:
        return None
    return (f"huzzah: DISCORD_TOKEN holds {what}: a token is one word. Copy it again from the "
            "Developer Portal (Bot > Reset Token), alone, without \"Bot \" or a comment, and "
            "set DISCORD_TOKEN again.")


def discord_status(error: discord.HTTPException) -> int:
    """Worth a restart (Discord's side, or a rate limit), or not (a request it refuses)."""
    return EXIT_NETWORK if error.status >= 500 or error.status == 429 else EXIT_CONFIG


def discord_down(error: discord.HTTPException) -> str:
    """Discord answered, but with an error status: its words, or for its own side's (5xx)
    to try again later."""
    said = f"huzzah: Discord answered {error.status} {error.response.reason}."
    if error.status >= 500:
        return f"{said} It is Discord's side: try again in a few minutes."
    return f"{said} {' '.join(error.text.split())}".rstrip()


def database_problem(error: BaseException, url: str | None = None) -> str:
    """Why a database could not be used, on one line, never with its password (imported
    here when needed: the commands that open no database start faster without SQLAlchemy)."""
    from bot.storage.database import database_problem as problem

    return problem(error, url)


def disk_full(error: BaseException, url: str | Mapping[str, str], again: str) -> str | None:
    """What to do when a SQLite file's disk would not take a write (full, or perhaps full:
    SQLite says "disk I/O error" when it cannot grow its files), on one line that ends with
    ``again`` ("start the bot again"); None for any other failure. ``url`` is the database,
    or the environment that configures it."""
    from bot.storage.database import database_url, disk_trouble, sqlite_file

    disk = disk_trouble(error)
    if disk is None:
        return None
    with contextlib.suppress(Exception):  # an unparsable URL names no file
        file = sqlite_file(url if isinstance(url, str) else database_url(url))
        if file is not None:
            return (f"huzzah: cannot write the database {file} "
                    f"({database_problem(error)}): {disk}. Free space on it "
                    f"(df -h {file.parent}) and {again}.")
    return None


# PostgreSQL's "the database system is starting up" (SQLSTATE 57P03): up, not ready yet.
CANNOT_CONNECT_NOW = "57P03"


def unreachable(error: BaseException, url: str | None) -> bool:
    """Whether a database server failed for want of being reached or ready (refused, timed
    out, its host name not resolved yet, still starting up) rather than for what it was
    told (a password, a database that does not exist). A SQLite file is no server: its
    errors (a folder that cannot be made) are the setting's."""
    if url and url.split(":", 1)[0].startswith("sqlite"):
        return False
    seen: BaseException | None = error
    while seen is not None:
        if isinstance(seen, (ConnectionError, TimeoutError, socket.gaierror)) or \
                getattr(seen, "sqlstate", None) == CANNOT_CONNECT_NOW:
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def configured_database() -> str | None:
    """The configured database as messages name it (never with its password); None for a
    URL that cannot name one."""
    from bot.storage.database import database_url, shown_database

    try:
        return shown_database(database_url(environment()))
    except Exception:  # an unsupported or unparsable URL: its error says what is wrong
        return None


def newer_schema(error: BaseException) -> str | None:
    """What to do about a database a newer version of Huzzah upgraded; None for any other
    failure."""
    from bot.storage.migrate import NewerSchema

    return f"huzzah: {error}" if isinstance(error, NewerSchema) else None


def _migrated_url(url: str | None = None) -> str:
    """The database (default: the configured one), brought to the newest schema."""
    from bot.storage.database import database_url
    from bot.storage.migrate import upgrade_if_needed

    url = url or database_url(environment())
    asyncio.run(upgrade_if_needed(url))
    return url


# --------------------------------------------------------------------------- stopping cleanly


class CommandGate:
    """Counts commands in progress and, once closing, refuses new ones.

    It hooks the tree's ``interaction_check``, which runs inside the task that handles the
    interaction: that task's end is the command's end, error handling included.
    """

    def __init__(self, tree: app_commands.CommandTree[Any]) -> None:
        self.tree = tree
        self.closing = False
        self.in_progress: set[asyncio.Task[Any]] = set()
        self._previous: Callable[[discord.Interaction[Any]], Awaitable[bool]] | None = None

    def install(self) -> CommandGate:
        self._previous = self.tree.interaction_check
        self.tree.interaction_check = self._check  # type: ignore[method-assign]
        return self

    async def _check(self, interaction: discord.Interaction[Any]) -> bool:
        if self.closing:
            await _refuse(interaction)
            return False
        task = asyncio.current_task()
        if task is not None:
            self.in_progress.add(task)
            task.add_done_callback(self.in_progress.discard)
        return await self._previous(interaction) if self._previous else True

    async def close(self, grace: float = STOP_GRACE) -> int:
        """Refuse new commands, wait up to ``grace`` seconds; return how many did not finish."""
        self.closing = True
        pending = {task for task in self.in_progress if task is not asyncio.current_task()}
        if not pending:
            return 0
        _, unfinished = await asyncio.wait(pending, timeout=grace)
        if unfinished:
            log.warning("%d command(s) still running after %.0f s; stopping anyway",
                        len(unfinished), grace)
        return len(unfinished)


async def _refuse(interaction: discord.Interaction[Any]) -> None:
    """Tell the user the command was not run; autocomplete just gets no suggestions."""
    import discord

    if interaction.type is not discord.InteractionType.application_command:
        return
    with contextlib.suppress(discord.HTTPException):
        await interaction.response.send_message(SHUTTING_DOWN, ephemeral=True)


async def serve(
    bot: discord.Client,
    start: Awaitable[None],
    stop: StopSignals,
    *,
    grace: float = STOP_GRACE,
) -> None:
    """Run ``start`` (the bot's connection) until it ends or a stop is requested.

    On a stop, commands in progress finish (new ones are refused with a message), then the
    bot closes. Errors from the connection (a rejected token) propagate.
    """
    gate = CommandGate(bot.tree).install()  # type: ignore[attr-defined]
    running = asyncio.ensure_future(start)
    stopping = asyncio.ensure_future(stop.wait())
    try:
        await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopping.cancel()
    if running.done():
        return running.result()
    await gate.close(grace)
    await bot.close()
    # The connection ends once the bot is closed; what it raises while closing is expected.
    with contextlib.suppress(Exception):
        await running
    return None


@dataclass(frozen=True)
class RunOptions:
    """How ``huzzah run`` runs: where it serves metrics, which shards it serves."""

    metrics: tuple[str, int] | None = None
    shard_count: int | None = None
    shard_ids: list[int] | None = None


async def _run_bot(token: str, url: str, options: RunOptions = RunOptions()) -> int:
    from bot.client import create_bot
    from bot.storage.database import Database

    metrics = new_metrics() if options.metrics else None
    with StopSignals() as stop:
        async with Database(url) as db, \
                create_bot(db, settle_heap=True, metrics=metrics,
                           shard_count=options.shard_count,
                           shard_ids=options.shard_ids) as bot:
            with serving_metrics(metrics, options.metrics, db,
                                  connected=lambda: bot.is_ready() and not bot.is_closed(),
                                  latency=lambda: bot.latency):
                await serve(bot, bot.start(token), stop)
            await _log_awaiting(db)
    await checkpoint(url)
    if stop.requested:
        print(f"huzzah: stopped ({stop.name}).", file=sys.stderr)
    return stop.exit_status()


async def _log_awaiting(db: Any) -> None:
    """Say how many battles wait for an answer as the bot stops: their questions are kept,
    and their buttons work again once it is back."""
    from bot.battles.health import battles_awaiting_an_answer

    try:
        waiting = await battles_awaiting_an_answer(db)
    except Exception as error:
        log.warning("could not count the battles awaiting an answer: %s", type(error).__name__)
        return
    log.info("stopping with %d battle%s awaiting an answer (kept: answered after the restart)",
             waiting, "" if waiting == 1 else "s")


def cmd_run(args: argparse.Namespace) -> int:
    import discord

    token = _token_or_none()
    if not token:
        return fail(NO_TOKEN)
    if problem := token_problem(token):
        return fail(problem)
    try:
        url = _migrated_url()
    except Exception as exc:  # a database we cannot open or migrate: say so in one line
        if newer := newer_schema(exc):
            return fail(newer)
        configured = environment().get("DATABASE_URL")
        why = database_problem(exc, configured)
        # Which database: the default file when DATABASE_URL is unset, a host name not known.
        shown = configured_database()
        if unreachable(exc, configured):
            # A server still starting after a reboot: worth trying again, as a service
            # manager does on this status (deploy/huzzah.service), not a setting to fix.
            return fail(f"huzzah: the database server{f' at {shown}' if shown else ''} could "
                        f"not be reached ({why}). It may still be starting; check "
                        "DATABASE_URL if it goes on.", EXIT_NETWORK)
        if full := disk_full(exc, environment(), "start the bot again"):
            return fail(full)
        return fail(f"huzzah: cannot prepare the database{f' {shown}' if shown else ''} "
                    f"({why}). Check DATABASE_URL.")
    from bot.storage.database import InUse, hold_sqlite_file, is_in_memory, shown_database

    try:
        claim = hold_sqlite_file(url)  # held while open: closed as the bot stops
    except InUse as held:
        which = f" (process {held})" if str(held) else ""
        return fail(f"huzzah: another bot{which} already runs on {shown_database(url)}: two "
                    "would answer every command twice. Stop it first; bot processes that "
                    "share a database need PostgreSQL.")
    if is_in_memory(url):  # the console's scratch battles; a bot's are kept for weeks
        logging.getLogger("huzzah").warning(
            "DATABASE_URL names a SQLite database in memory: every battle is lost when the "
            "bot stops. Name a file (sqlite:////var/lib/huzzah/huzzah.db) to keep them.")
    options = RunOptions(metrics=args.metrics, shard_count=args.shard_count,
                         shard_ids=args.shard_ids)
    try:
        return asyncio.run(_run_bot(token, url, options))
    except MetricsAddressError as error:
        return fail(f"huzzah: cannot serve metrics on {error}. Give another --metrics address.")
    except discord.LoginFailure:
        return fail(BAD_TOKEN)
    except discord.PrivilegedIntentsRequired:
        return fail("huzzah: Discord refused the gateway intents this bot asked for.")
    except discord.HTTPException as error:
        return fail(discord_down(error), discord_status(error))
    except OSError as exc:
        return fail(f"huzzah: could not reach Discord ({type(exc).__name__}). Check the network.",
                    EXIT_NETWORK)
    finally:
        if claim is not None:
            claim.close()


# --------------------------------------------------------------------------- sync


async def _sync(token: str, guild_id: int | None, clear: bool = False) -> int:
    import discord

    from bot.client import create_bot
    from bot.storage.database import Database

    # Syncing only reads the command tree; the database is never opened.
    async with Database("sqlite+aiosqlite://") as db, create_bot(db) as bot:
        await bot.login(token)
        if guild_id is None:
            synced = await bot.tree.sync()
            print(f"Synced {_commands(len(synced))} globally: every server the bot is in gets "
                  "them (Discord may take a few minutes to show them).")
            return EXIT_OK
        guild = discord.Object(id=guild_id)
        if clear:
            bot.tree.clear_commands(guild=guild)
            await bot.tree.sync(guild=guild)
            print(f"Removed the commands synced to guild {guild_id}. Commands synced globally "
                  "stay, and now show there once instead of twice.")
            return EXIT_OK
        bot.tree.copy_global_to(guild=guild)
        synced = await bot.tree.sync(guild=guild)
        print(f"Synced {_commands(len(synced))} to guild {guild_id}: usable there now.")
    return EXIT_OK


def _commands(count: int) -> str:
    return f"{count} command" if count == 1 else f"{count} commands"


def cmd_sync(args: argparse.Namespace) -> int:
    import discord

    if args.clear and args.guild is None:
        return fail("huzzah: --clear removes one server's commands: give it with --guild ID. "
                    "(Global commands are replaced by the next `huzzah sync`.)")
    token = _token_or_none()
    if not token:
        return fail(NO_TOKEN)
    if problem := token_problem(token):
        return fail(problem)
    try:
        return asyncio.run(_sync(token, args.guild, args.clear))
    except discord.LoginFailure:
        return fail(BAD_TOKEN)
    except discord.Forbidden:
        return fail(f"huzzah: the bot is not in guild {args.guild}, or was invited without the "
                    "applications.commands scope. Invite it again (see README).")
    except discord.HTTPException as error:
        return fail(discord_down(error), discord_status(error))
    except OSError as exc:
        return fail(f"huzzah: could not reach Discord ({type(exc).__name__}). Check the network.",
                    EXIT_NETWORK)


# --------------------------------------------------------------------------- options


def add_metrics_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--metrics", type=metrics_address, metavar="HOST:PORT",
                        help="serve Prometheus metrics at http://HOST:PORT/metrics and a health "
                             "check at /health (e.g. 127.0.0.1:9108; off by default)")


def add_database_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--database", metavar="URL_OR_FILE",
                        help="the database (default: DATABASE_URL, else ./huzzah.db)")


def metrics_address(text: str) -> tuple[str, int]:
    """``127.0.0.1:9108``, ``[::1]:9108`` or ``0.0.0.0:9108`` as (host, port)."""
    host, colon, port = text.rpartition(":")
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if not colon or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not HOST:PORT (e.g. 127.0.0.1:9108, or 0.0.0.0:9108 for every "
            "interface)")
    return host, int(port)


def shard_count(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of shards (1 or more)")
    return int(text)


def shard_ids(text: str) -> list[int]:
    words = [word.strip() for word in text.split(",")]
    if not all(word.isdigit() for word in words):
        raise argparse.ArgumentTypeError(f"{text!r} is not a list of shard numbers, e.g. 0,1")
    return sorted({int(word) for word in words})


def shards_problem(count: int | None, ids: list[int]) -> str | None:
    """Why these shard options cannot run together, if they cannot."""
    if count is None:
        return "--shard-ids needs --shard-count (the number of shards over every process)"
    beyond = [number for number in ids if number >= count]
    if beyond:
        return (f"shard {beyond[0]} does not exist with --shard-count {count}: shards are "
                f"numbered 0 to {count - 1}")
    return None


# --------------------------------------------------------------------------- the rest


def cmd_console(args: argparse.Namespace) -> int:
    from bot.console import CannotOpen, run_console

    config = load_config()
    setup_logging(config.log_level if args.verbose else "WARNING")
    try:
        return asyncio.run(run_console(args))
    except CannotOpen as error:
        return fail(f"huzzah: cannot open the database {error}. Check --database or "
                    "DATABASE_URL.")
    except MetricsAddressError as error:
        return fail(f"huzzah: cannot serve metrics on {error}. Give another --metrics address.")


def cmd_db(args: argparse.Namespace) -> int:
    from bot.storage.database import database_url, shown_database, sqlite_file
    from bot.storage.migrate import current, downgrade, known, upgrade

    config = load_config()
    setup_logging(config.log_level)
    try:
        url = database_url(environment())
    except Exception as exc:  # an unsupported or unreadable URL
        return fail(f"huzzah: cannot use DATABASE_URL ({type(exc).__name__}: {exc}).")
    file = sqlite_file(url)
    if args.action != "upgrade" and file is not None and not file.exists():
        # Asking, or going down, would create an empty database, which would look like a
        # healthy new one; only an upgrade makes a new database on purpose.
        return fail(MISSING_DB_FILE.format(path=file))
    try:
        if args.action == "upgrade":
            known(url, current(url))  # a newer version's schema is left as it is
            upgrade(url, args.revision or "head")
        elif args.action == "downgrade":
            if not args.revision:
                return fail("huzzah: say which revision to go down to, e.g. "
                            "`huzzah db downgrade base`.")
            downgrade(url, args.revision)
        print(f"database at revision {current(url) or 'base'}")
    except Exception as exc:
        if newer := newer_schema(exc):
            return fail(newer)
        again = f"run `huzzah db {args.action}{f' {args.revision}' if args.revision else ''}` again"
        return fail(disk_full(exc, url, again)
                    or f"huzzah: {args.action} failed on the database {shown_database(url)} "
                       f"({database_problem(exc, url)}). Check DATABASE_URL.")
    return EXIT_OK


def cmd_health(args: argparse.Namespace) -> int:
    """Ask a running bot's ``/health``: 0 when healthy, 1 otherwise (a container's check)."""
    import urllib.error
    import urllib.request

    url = f"http://{format_address(args.address)}/health"
    try:
        with urllib.request.urlopen(url, timeout=HEALTH_SECONDS) as answer:
            print(answer.read().decode().strip())
            return EXIT_OK
    except urllib.error.HTTPError as unhealthy:
        print(unhealthy.read().decode().strip())
    except (OSError, ValueError) as error:
        print(f"huzzah: {url} did not answer ({error}).", file=sys.stderr)
    return EXIT_NETWORK


OPERATOR_NAME = "operator"
"""Who ``huzzah battle import`` acts as: nobody on Discord, so the battle keeps its GM."""


NO_DATABASE = (
    "huzzah: no database to read: {path} does not exist and DATABASE_URL is not set. Name the "
    "bot's database with --database URL_OR_FILE (or set DATABASE_URL)."
)
MISSING_FILE = (
    "huzzah: no database to read: {path} does not exist. Check the path given to --database "
    "(or in DATABASE_URL)."
)
MISSING_DB_FILE = "huzzah: no database to read: {path} does not exist. Check DATABASE_URL."


def cmd_battle(args: argparse.Namespace) -> int:
    """``huzzah battle export|import``: a battle's backup, on the database ``--database`` or
    DATABASE_URL names, read and written by the same service as `/battle export format:json`
    and `/battle import`. Each message names the database it read."""

    from sqlalchemy.exc import SQLAlchemyError

    from bot.storage.database import (
        cannot_write,
        named_url,
        read_only_url,
        shown_database,
        sqlite_file,
    )
    from rules.core.errors import RulesError

    config = load_config()
    setup_logging(config.log_level)
    env = environment()
    try:
        url = named_url(args.database, env)
    except Exception as error:  # an unsupported or unreadable URL
        return fail(f"huzzah: cannot use that database ({error}). Check --database or "
                    "DATABASE_URL.")
    shown = shown_database(url)
    file = sqlite_file(url)
    if file is not None and not file.exists():
        # Opening it would create an empty database, which holds no battle to export; and
        # a battle imported into the default file nobody named would be lost to the bot.
        if args.database is None and not env.get("DATABASE_URL"):
            return fail(NO_DATABASE.format(path=file.resolve()))
        if args.action == "export":
            return fail(MISSING_FILE.format(path=file))
    refused_as = f"huzzah: channel {args.channel} of {shown}:"
    try:
        # A file that cannot be imported is refused before the database is opened.
        data = _backup_in(args.file) if args.action == "import" else None
    except OSError as error:
        return fail(f"{refused_as} cannot read {args.file} ({error.strerror or error}).")
    except RulesError as refused:
        return fail(f"{refused_as} {command_line(refused)}")
    again = f"run `huzzah battle {args.action}` again"
    named = url
    if args.action == "export":  # a backup copy the operator may read but not write
        url = read_only_url(url)
    try:
        url = _migrated_url(url)
    except Exception as exc:  # a database we cannot open or migrate: say so in one line
        if newer := newer_schema(exc):
            return fail(newer)
        if args.action == "export" and file is not None and cannot_write(file):
            return fail(f"huzzah: cannot read the database {shown} "
                        f"({database_problem(exc, url)}): it, or its folder, cannot be written. "
                        "Copy it (and its -wal file) into a folder you can write, and export "
                        "from the copy.")
        return fail(disk_full(exc, named, again)
                    or f"huzzah: cannot open the database {shown} "
                       f"({database_problem(exc, url)}). Check --database or DATABASE_URL.")
    try:
        if data is None:
            return asyncio.run(_export_battle(url, shown, args.channel, args.output))
        return asyncio.run(_import_battle(url, shown, args.channel, data))
    except RulesError as refused:
        return fail(f"{refused_as} {command_line(refused)}")
    except SQLAlchemyError as exc:  # the database failed midway: at the commit, a full disk
        # An import is one transaction: a failure writes nothing of it.
        return fail(disk_full(exc, named, again)
                    or f"huzzah: the database {shown} failed ({database_problem(exc, url)}): "
                       f"nothing was {args.action}ed. Check --database or DATABASE_URL, and "
                       f"{again}.")


def command_line(refused: RulesError) -> str:
    """A refusal of the service as the command line says it: its hints that name what to do
    on Discord name what to do here instead."""
    from bot.battles.backup_file import EXPORT_AGAIN_HINT, IMPORT_HINT
    from bot.battles.errors import NoBattle

    if isinstance(refused, NoBattle):
        hint = ("Check the channel id, and the database (--database URL_OR_FILE, else "
                "DATABASE_URL).")
    else:
        hint = {IMPORT_HINT: "Give the file `huzzah battle export` or `/battle export "
                             "format:json` wrote, as it was written.",
                EXPORT_AGAIN_HINT: "Export the battle again with `huzzah battle export` or "
                                   "`/battle export format:json`."}.get(refused.hint or "",
                                                                         refused.hint)
    return f"{refused.message} {hint}" if hint else refused.message


async def _export_battle(url: str, shown: str, channel: int, output: str | None) -> int:
    from bot.battles.backup import backup_text
    from bot.battles.service import BattleStore
    from bot.storage.database import Database
    from rules.core.notation import counted

    async with Database(url) as db:
        data = await BattleStore(db).backup(channel)
    text = backup_text(data) + "\n"
    events = counted(len(data["events"]), "event", "events")
    said = f"{data['battle']['name']}: {events} from channel {channel} of {shown}"
    if output is None:
        sys.stdout.write(text)
        print(f"huzzah: exported {said}", file=sys.stderr)
        return EXIT_OK
    from pathlib import Path

    try:
        Path(output).write_text(text, encoding="utf-8")
    except OSError as error:
        return fail(f"huzzah: cannot write {output} ({error.strerror or error}).")
    print(f"huzzah: exported {said} to {output}")
    return EXIT_OK


def _backup_in(path: str) -> dict[str, Any]:
    """The JSON object of a backup file; its size is checked before it is read."""
    from pathlib import Path

    from bot.battles.backup_file import check_size, read_backup

    file = Path(path)
    check_size(file.name, file.stat().st_size)
    return read_backup(file.read_bytes(), file.name)


async def _import_battle(url: str, shown: str, channel: int, data: dict[str, Any]) -> int:
    from bot.battles.actor import Actor
    from bot.battles.service import BattleStore, Command
    from bot.storage.database import Database
    from rules.core.notation import counted

    command = Command(channel, Actor(0, OPERATOR_NAME, True, frozenset()), None,
                      "huzzah battle import")
    async with Database(url) as db:
        restored = await BattleStore(db).restore(command, data, guild_id=None, gm=None)
    print(f"huzzah: restored {restored.battle.name} in channel {channel} of {shown}: "
          f"{counted(restored.units, 'unit', 'units')}, "
          f"{counted(restored.generals, 'general', 'generals')}, "
          f"{counted(restored.events, 'event', 'events')}"
          + (", waiting for an answer" if restored.pending else ""))
    return EXIT_OK


def snowflake(what: str, copy: str) -> Callable[[str], int]:
    """A Discord id (a snowflake) on the command line: a positive whole number, refused
    saying where Discord shows it (``copy``: its menu item)."""
    def read(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a {what} id (a number; Discord "
                                             f"shows it with Developer Mode, {copy})") from None
        if not 0 < value < 2**63:
            raise argparse.ArgumentTypeError(f"{text} is not a {what} id")
        return value
    return read


channel_id = snowflake("channel", "Copy Channel ID")
guild_id = snowflake("server", "Copy Server ID")


def cmd_resolve(args: argparse.Namespace) -> int:
    from bot.resolve_cli import main

    return main()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="huzzah", description="Huzzah: a Discord dice-bot for horse-and-musket wargames."
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    run = sub.add_parser("run", help="start the bot on Discord (token from DISCORD_TOKEN)")
    add_metrics_option(run)
    run.add_argument("--shard-count", type=shard_count, metavar="N",
                     help="the bot's number of shards, over every process (Discord requires "
                          "sharding past 2,500 servers; see deploy/README.md)")
    run.add_argument("--shard-ids", type=shard_ids, metavar="IDS",
                     help="the shards this process serves, e.g. 0,1 (needs --shard-count; "
                          "default: all of them)")
    run.set_defaults(func=cmd_run)

    sync = sub.add_parser("sync", help="push the slash commands to Discord")
    sync.add_argument("--guild", type=guild_id, metavar="ID",
                      help="sync to one guild only (instant; for development)")
    sync.add_argument("--clear", action="store_true",
                      help="with --guild: remove the commands synced to that guild, e.g. a test "
                           "server that would otherwise list every command twice")
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
    add_database_option(console)
    console.add_argument("--json", action="store_true",
                         help="print the raw payloads the bot sends instead of text")
    console.add_argument("-v", "--verbose", action="store_true", help="show the bot's log")
    add_metrics_option(console)
    console.set_defaults(func=cmd_console)

    db = sub.add_parser("db", help="migrate the database named by DATABASE_URL")
    db.add_argument("action", choices=["upgrade", "downgrade", "current"])
    db.add_argument("revision", nargs="?", help="target revision (upgrade: head by default; "
                    "downgrade: required, `base` for an empty database)")
    db.set_defaults(func=cmd_db)

    health = sub.add_parser("health", help="ask a bot run with --metrics whether it is healthy "
                            "(exit status 0) or not (1)")
    health.add_argument("address", type=metrics_address, nargs="?",
                        default=("127.0.0.1", 9108), metavar="HOST:PORT",
                        help="where its --metrics serve (default 127.0.0.1:9108)")
    health.set_defaults(func=cmd_health)

    battle = sub.add_parser("battle", help="back up a battle to a file, or restore one "
                            "(on --database, else DATABASE_URL)")
    actions = battle.add_subparsers(dest="action", required=True, metavar="ACTION")
    export = actions.add_parser("export", help="write the channel's battle as JSON (what "
                                "`/battle export format:json` writes)")
    export.add_argument("--channel", type=channel_id, required=True, metavar="ID",
                        help="the Discord channel (or thread) the battle is in")
    export.add_argument("--output", "-o", metavar="FILE",
                        help="the file to write (default: standard output)")
    restore = actions.add_parser("import", help="rebuild a battle from its JSON export in a "
                                 "channel without one (as `/battle import`)")
    restore.add_argument("--channel", type=channel_id, required=True, metavar="ID",
                         help="the Discord channel (or thread) to rebuild it in")
    restore.add_argument("file", metavar="FILE", help="the JSON file an export wrote")
    add_database_option(export)
    add_database_option(restore)
    battle.set_defaults(func=cmd_battle)

    resolve = sub.add_parser("resolve", help="resolve one JSON request from standard input")
    resolve.set_defaults(func=cmd_resolve)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "shard_ids", None) is not None:
        problem = shards_problem(args.shard_count, args.shard_ids)
        if problem:
            parser.error(problem)
    try:
        return args.func(args)
    except UnreadableDotenv as unreadable:
        return fail(f"huzzah: {unreadable}")
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
