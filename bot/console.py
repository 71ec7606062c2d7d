"""``huzzah console``: the bot offline. Type slash commands; see what the bot would post.

Each line becomes the interaction payload Discord would send, goes through the bot's real
``CommandTree`` and prints what the bot answers. No token, no network. Files the bot attaches
(``/battle export``) are written next to the database.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import re
import sys
import tempfile
import threading
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from sqlalchemy import make_url

from bot.client import create_bot
from bot.config import environment
from bot.offline import (
    OfflineDiscord,
    OfflineInputError,
    SentFile,
    SentMessage,
    UnknownCommand,
    help_text,
    parse_command_line,
    render_messages,
)
from bot.process import (
    EXIT_OK,
    StopSignals,
    checkpoint,
    new_metrics,
    serving_metrics,
    sqlite_file,
)
from bot.storage.database import Database, async_url, is_in_memory, named_url, shown_database
from bot.storage.migrate import upgrade_if_needed

MANAGE_CHANNELS = 1 << 4
PROMPT = "huzzah> "
BANNER = (
    "Huzzah console: type slash commands as in Discord, e.g. /help. "
    "`help` lists the commands, `press <button>` presses a button of the last reply that "
    "has it, `quit` (or Ctrl-D, Ctrl-C) leaves."
)
QUIT = {"quit", "exit", ":q"}
HELP_WORDS = {"help", "?", "/"}
PRESS = "press"
POINTER = "Type `help` (or /help) for the list of commands."
EXIT_REFUSED = 1
"""A script (standard input not a terminal) had lines Discord's client would not send."""


# --------------------------------------------------------------------------- reading lines


class LineReader:
    """Standard input, one line per :meth:`next`, read on a daemon thread.

    Reading on the loop's own thread would stop signals from being handled until Enter, and
    a thread of the loop's default executor would make the loop's shutdown wait for Enter
    too. A daemon thread still blocked in a read is simply left behind when the console stops.
    Piped input is read from the file descriptor, not ``sys.stdin``, so that thread never
    holds a lock the interpreter needs at exit.
    """

    def __init__(self, interactive: bool, fd: int = 0) -> None:
        if interactive:
            with contextlib.suppress(ImportError):
                import readline  # noqa: F401  (line editing and history at the prompt)
        self.interactive = interactive
        self._fd = fd
        self._buffer = b""
        self._eof = False

    async def next(self) -> str | None:
        """The next line without its newline; ``None`` at the end of input."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[str | None] = loop.create_future()
        threading.Thread(target=self._read_into, args=(loop, future), daemon=True,
                         name="console-input").start()
        return await future

    def _read_into(self, loop: asyncio.AbstractEventLoop, future: asyncio.Future[Any]) -> None:
        try:
            line, error = self._read(), None
        except Exception as exc:  # handed to the loop, to be raised where the line is awaited
            line, error = None, exc
        with contextlib.suppress(RuntimeError):  # the loop closed while this thread waited
            loop.call_soon_threadsafe(_settle, future, line, error)

    def _read(self) -> str | None:
        if self.interactive:
            try:
                return input(PROMPT)
            except EOFError:
                print()
                return None
        while b"\n" not in self._buffer and not self._eof:
            try:
                chunk = os.read(self._fd, 65536)
            except OSError:  # standard input closed or unreadable: the same as its end
                chunk = b""
            self._eof = not chunk
            self._buffer += chunk
        if not self._buffer:
            return None
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode("utf-8", errors="replace").rstrip("\r")


def _settle(future: asyncio.Future[Any], line: str | None, error: Exception | None) -> None:
    if future.done():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(line)


async def next_line(reader: LineReader, stop: StopSignals) -> str | None:
    """The next line, or ``None`` at the end of input or once a stop is requested."""
    reading = asyncio.ensure_future(reader.next())
    stopping = asyncio.ensure_future(stop.wait())
    try:
        await asyncio.wait({reading, stopping}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopping.cancel()
    if stop.requested:
        reading.cancel()
        return None
    return reading.result()


@contextlib.contextmanager
def terminal_kept(interactive: bool) -> Iterator[None]:
    """Put the terminal's settings back on the way out.

    Line editing changes them while a line is read; a console stopped in the middle of a read
    would otherwise leave the shell without echo.
    """
    saved = _terminal_settings() if interactive else None
    try:
        yield
    finally:
        if saved is not None:
            import termios

            with contextlib.suppress(termios.error):
                termios.tcsetattr(sys.stdin.fileno(), termios.TCSADRAIN, saved)


def _terminal_settings() -> list[Any] | None:
    try:
        import termios

        return termios.tcgetattr(sys.stdin.fileno())
    except (ImportError, OSError):
        return None


# --------------------------------------------------------------------------- attachments


def files_directory(url: str) -> Path:
    """Where attachments go: beside a SQLite file, else the working directory."""
    path = sqlite_file(url)
    return Path(path).expanduser().resolve().parent if path else Path.cwd()


def save_attachments(messages: Sequence[SentMessage], directory: Path) -> dict[SentFile, str]:
    """Write every attached file into ``directory``; say for each where it went.

    An export is the battle as it now stands, so a second export of the same battle
    replaces the first.
    """
    notes: dict[SentFile, str] = {}
    for message in messages:
        for file in message.files:
            notes[file] = _save(file, directory)
    return notes


def _save(file: SentFile, directory: Path) -> str:
    name = Path(file.filename).name  # a file name only: never a path out of the directory
    if name in ("", ".", ".."):
        return "not saved: it has no usable file name"
    target = directory / name
    replaced = target.exists()
    try:
        target.write_bytes(file.data)
    except OSError as error:
        return f"not saved: {error.strerror or error}"
    return f"saved to {target}" + (" (replacing the earlier copy)" if replaced else "")


# --------------------------------------------------------------------------- the console


def where(args: argparse.Namespace) -> dict[str, object]:
    return {
        "channel_id": args.channel,
        "guild_id": args.guild,
        "user_id": args.user,
        "user_name": args.name,
        "permissions": MANAGE_CHANNELS if args.manage_channel else 0,
        "roles": list(args.role),
    }


def explain(error: OfflineInputError, session: OfflineDiscord, guild_id: int | None) -> str:
    """What Discord's client would have shown instead of sending the line.

    A command it knows gets its own help; anything else a short pointer, not the whole list.
    """
    if error.path:
        return f"{error}\n\n{help_text(session.tree, error.path, guild_id=guild_id)}\n"
    if isinstance(error, UnknownCommand) and not error.suggestions:
        return f"{error}. {POINTER}\n"
    return f"{error}\n{POINTER}\n"


def command_name(line: str) -> str:
    """``/unit add`` out of ``/unit add side:British ...``: the words before the options."""
    words = []
    for word in line.split():
        if ":" in word or word[:1] in "\"'":
            break
        words.append(word)
    return " ".join(words) or line.split()[0]


class Console:
    """Reads lines, runs them as the user in ``args``, prints the bot's replies."""

    def __init__(self, args: argparse.Namespace, interactive: bool, files: Path) -> None:
        self.args = args
        self.interactive = interactive
        self.files = files
        self.refused = 0
        self.interrupted: str | None = None
        self.with_buttons: list[SentMessage] = []  # replies with buttons, latest last

    async def run(self, session: OfflineDiscord, stop: StopSignals) -> int:
        if self.interactive:
            print(BANNER)
        reader = LineReader(self.interactive)
        while not stop.requested:
            raw = await next_line(reader, stop)
            if raw is None or not await self.handle(raw, session, stop):
                break
        self._report_stop(stop)
        return EXIT_REFUSED if self.refused and not self.interactive else EXIT_OK

    async def handle(self, raw: str, session: OfflineDiscord, stop: StopSignals) -> bool:
        """Run one line; ``False`` when it asks to leave."""
        line = raw.strip()
        if not line or line.startswith("#"):
            return True
        if line in QUIT:
            return False
        if not self.interactive:
            print(f"> {line}")
        first, _, rest = line.partition(" ")
        if first in HELP_WORDS:
            print(help_text(session.tree, rest or None, guild_id=self.args.guild))
            return True
        if first == PRESS:
            await self.press(unquoted(rest.strip()), session)
        else:
            await self.run_command(line, session)
        if stop.requested:
            # The signal came while the command ran: it was let finish.
            self.interrupted = command_name(line)
        return True

    async def run_command(self, line: str, session: OfflineDiscord) -> None:
        try:
            command = parse_command_line(session.tree, line, guild_id=self.args.guild)
            messages = await session.invoke(command.path, command.options, **where(self.args))
        except OfflineInputError as error:
            # Discord's own client would not let this line be sent; show what it would.
            self.refused += 1
            print(explain(error, session, self.args.guild))
            return
        self.show(messages, save_attachments(messages, self.files))

    async def press(self, label: str, session: OfflineDiscord) -> None:
        """Press a button as this user, or pick a menu's option, under the latest reply
        that has one so labelled."""
        user = {"channel_id": self.args.channel, "user_id": self.args.user,
                "guild_id": self.args.guild, "user_name": self.args.name,
                "permissions": where(self.args)["permissions"], "roles": list(self.args.role)}
        for message in reversed(self.with_buttons):
            found = _labelled(label, button_labels(message))
            picked = None if found is not None else _labelled(label, option_labels(message))
            several = [(fits, kind) for fits, kind in (
                (_fitting(label, button_labels(message)), "buttons"),
                (_fitting(label, option_labels(message)), "options")) if len(fits) > 1]
            if found is None and picked is None and several:
                # Not an older reply's button of that name: the player meant one of these.
                self.refused += 1
                fits, kind = several[0]
                print(f"`{label}` names {len(fits)} {kind} of that reply: "
                      f"{', '.join(fits[:-1])} and {fits[-1]}. Type more of the label.\n")
                return
            if found is not None or picked is not None:
                messages = await (session.press(message, found, **user) if found is not None
                                  else session.pick(message, picked, **user))
                self.show(messages, save_attachments(messages, self.files))
                return
        self.refused += 1
        shown = sorted({b for m in self.with_buttons
                        for b in (*button_labels(m), *option_labels(m))})
        # A question asked before the console started has no button here: `/answer` takes
        # it. Where this run's replies have buttons, the label is the thing to check.
        print(f"No button `{label}` on the replies so far"
              + (f" (there are: {', '.join(shown)}).\n" if shown else
                 ". A question asked before a restart is answered with `/answer`.\n"))

    def show(self, messages: list[SentMessage], saved: Mapping[SentFile, str]) -> None:
        self.with_buttons += [m for m in messages if button_labels(m) or option_labels(m)]
        if self.args.json:
            print(json.dumps([m.request.payload for m in messages if m.request], indent=2,
                             ensure_ascii=False))
            for file, note in saved.items():
                print(f"[attachment] {file.filename} {note}", file=sys.stderr)
        else:
            print(render_messages(messages, saved))
        print()

    def _report_stop(self, stop: StopSignals) -> None:
        if not stop.requested:
            return
        if self.interactive:
            print()  # past the ^C the terminal echoed
            return
        done = f"; {self.interrupted} was finished first" if self.interrupted else ""
        print(f"huzzah console: stopped by {stop.name}{done}.", file=sys.stderr)


def button_labels(message: SentMessage) -> list[str]:
    labels = []
    for row in message.components or ():
        labels += [c.get("label") for c in row.get("components", ()) if c.get("type") == 2]
    return [label for label in labels if label]


def option_labels(message: SentMessage) -> list[str]:
    """The options of a message's menus (the override's results), as `press` picks them."""
    labels = []
    for row in message.components or ():
        for menu in row.get("components", ()):
            if menu.get("type") == 3:
                labels += [option.get("label") for option in menu.get("options") or ()]
    return [label for label in labels if label]


@contextlib.contextmanager
def scratch_database(url: str) -> Iterator[tuple[str, Path]]:
    """The database to open and the folder for attachments.

    Each connection to an in-memory SQLite database sees a database of its own, so the
    migrated schema would be gone by the first command: a file in a temporary folder,
    removed on the way out, stands in for it. Its attachments go to the working directory.
    """
    if not is_in_memory(url):
        yield url, files_directory(url)
        return
    with tempfile.TemporaryDirectory(prefix="huzzah-console-") as folder:
        yield async_url(f"sqlite:///{Path(folder) / 'console.db'}"), Path.cwd()


class CannotOpen(Exception):
    """The database the console was given cannot be named, opened or migrated."""

    def __init__(self, database: str, cause: Exception) -> None:
        said = (str(cause).splitlines() or [""])[0]  # not SQLAlchemy's "Background on…"
        super().__init__(f"{database} ({type(cause).__name__}: {said})")


def given_database(database: str | None) -> str:
    """The database ``--database`` named (else DATABASE_URL), never with its password."""
    if database is None:
        return "DATABASE_URL"
    try:
        return make_url(database).render_as_string(hide_password=True)
    except Exception:  # too broken to tell its password from the rest
        return "given with --database"


async def run_console(args: argparse.Namespace) -> int:
    interactive = sys.stdin is not None and sys.stdin.isatty()
    try:
        named = named_url(args.database, environment())
    except Exception as error:  # an unsupported or unreadable URL
        # What was typed may hold a password: named as given only when it can be parsed.
        raise CannotOpen(given_database(args.database), error) from error
    with StopSignals() as stop, terminal_kept(interactive), \
            scratch_database(named) as (url, files):
        try:
            await upgrade_if_needed(url)
        except Exception as error:  # a server that does not answer, a file that is no database
            raise CannotOpen(shown_database(url), error) from error
        status = EXIT_OK
        if not stop.requested:
            console = Console(args, interactive, files)
            metrics = new_metrics() if args.metrics else None
            async with Database(url) as db, \
                    OfflineDiscord(create_bot(db, settle_heap=True, metrics=metrics),
                                   on_answered=metrics and metrics.responded) as session:
                # Offline, the console is the bot's whole connection: up while it runs.
                with serving_metrics(metrics, args.metrics, db, connected=lambda: True,
                                     latency=lambda: math.nan):
                    status = await console.run(session, stop)
        await checkpoint(url)
    return stop.exit_status(status)


def unquoted(label: str) -> str:
    """A button's label as typed after `press`: quotes around it go (`press "Take ground"`);
    a quote of its own stays (`press Fall back 3"`)."""
    if len(label) >= 2 and label[0] == label[-1] and label[0] in "\"'":
        return label[1:-1]
    return label


def _labelled(typed: str, labels: Sequence[str]) -> str | None:
    """The button ``typed`` names: its label as shown, or without its emoji and in any
    case (`steps` for "📜 Steps"), or the one label it begins (`D` for "D: disordered",
    `take` for "Take ground"), or the one label holding it as a word of its own (`▶` for
    "words 2/4 ▶": /help names its page buttons by their arrows)."""
    found = _fitting(typed, labels)
    return found[0] if len(found) == 1 else None


def _fitting(typed: str, labels: Sequence[str]) -> list[str]:
    """The labels ``typed`` may name (see ``_labelled``): one, none, or several to say."""
    if typed in labels:
        return [typed]
    wanted = typed.strip().casefold()
    if not wanted:
        return []
    plain = {label: re.sub(r"^\W+", "", label).casefold() for label in labels}
    for fits in (lambda label: plain[label] == wanted,
                 lambda label: re.match(rf"{re.escape(wanted)}\b", plain[label]) is not None,
                 lambda label: wanted in label.casefold().split()):
        found = list(dict.fromkeys(label for label in labels if fits(label)))
        if found:
            return found
    return []
