"""Slash commands typed as text, the way they read in Discord's message box.

``/melee fire-at-will attackers:"2nd Foot: infantry charging" dice:"3 4 5"``
becomes ``(["melee", "fire-at-will"], {"attackers": "2nd Foot: infantry
charging", "dice": "3 4 5"})``. Values stay text here; the option types are
applied by :func:`bot.offline.payloads.build_command_data`, exactly as for
values given from Python.

The command tree decides how many leading words form the command path, since
only it knows which names are groups.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from discord import app_commands

from .discord_internals import NO_DESCRIPTION
from .payloads import (
    OPTION_TYPE_NAMES,
    OfflineInputError,
    RegisteredCommand,
    UnknownCommand,
    resolve_command,
    top_level_schemas,
)

__all__ = [
    "CommandLine",
    "CommandLineError",
    "command_paths",
    "help_text",
    "parse_command_line",
    "suggest_commands",
]

_QUOTES = "\"'"
#: How a mention-type value is typed in the console.
_PLACEHOLDERS = {6: "<@user-id>", 7: "<#channel-id>", 8: "<@&role-id>", 9: "<@id>"}


class CommandLineError(OfflineInputError):
    """The line is not well formed (no leading slash, unclosed quote, missing value...)."""

    def __init__(self, message: str, *, path: Sequence[str] = (), column: int | None = None):
        super().__init__(message, path=path)
        self.column = column


class CommandLine(NamedTuple):
    """A parsed line: the command path and the option values as typed."""

    path: list[str]
    options: dict[str, str]


@dataclass(frozen=True)
class _Token:
    """A bare word (``name`` only) or an option (``name`` and ``value``)."""

    name: str
    value: str | None
    column: int


# --------------------------------------------------------------------------- tokenizing


class _Scanner:
    """Reads a line left to right; ``column`` is where the current token began."""

    def __init__(self, text: str, offset: int) -> None:
        self.text = text
        self.pos = offset

    def at_end(self) -> bool:
        return self.pos >= len(self.text)

    def peek(self) -> str:
        return "" if self.at_end() else self.text[self.pos]

    def skip_space(self) -> None:
        while not self.at_end() and self.peek().isspace():
            self.pos += 1

    def read_word(self) -> str:
        """Up to whitespace, a colon or a quote."""
        start = self.pos
        while not self.at_end() and not (self.peek().isspace() or self.peek() in ":" + _QUOTES):
            self.pos += 1
        return self.text[start : self.pos]

    def read_unquoted(self) -> str:
        start = self.pos
        while not self.at_end() and not self.peek().isspace():
            self.pos += 1
        return self.text[start : self.pos]

    def read_quoted(self) -> str:
        """A quoted value; backslash escapes the quote character and itself."""
        quote, start = self.peek(), self.pos
        self.pos += 1
        chars: list[str] = []
        while not self.at_end():
            char = self.peek()
            self.pos += 1
            if char == "\\" and self.peek() in (quote, "\\"):
                chars.append(self.peek())
                self.pos += 1
            elif char == quote:
                return "".join(chars)
            else:
                chars.append(char)
        raise CommandLineError(f"unclosed {quote} starting at column {start + 1}", column=start)


def _read_value(scanner: _Scanner, name: str) -> str:
    if scanner.at_end() or scanner.peek().isspace():
        raise CommandLineError(
            f'option {name!r} has no value; write {name}:value or {name}:"a value"',
            column=scanner.pos,
        )
    if scanner.peek() not in _QUOTES:
        return scanner.read_unquoted()
    value = scanner.read_quoted()
    if not (scanner.at_end() or scanner.peek().isspace()):
        raise CommandLineError(
            f"put a space after the closing quote of {name!r}", column=scanner.pos
        )
    if value == "":
        raise CommandLineError(
            f"option {name!r} is empty; leave it out instead", column=scanner.pos
        )
    return value


def _next_token(scanner: _Scanner) -> _Token:
    column = scanner.pos
    name = scanner.read_word()
    if scanner.peek() == ":":
        if not name:
            raise CommandLineError("an option needs a name before ':'", column=column)
        scanner.pos += 1
        return _Token(name.lower(), _read_value(scanner, name), column)
    if scanner.peek() and scanner.peek() in _QUOTES:
        raise CommandLineError(
            'quoted text must follow an option name, as in name:"some text"', column=scanner.pos
        )
    return _Token(name.lower(), None, column)


def _tokens(line: str) -> list[_Token]:
    text = line.strip()
    if not text.startswith("/"):
        raise CommandLineError("commands start with '/'", column=0)
    scanner = _Scanner(text, 1)
    tokens = []
    scanner.skip_space()
    while not scanner.at_end():
        tokens.append(_next_token(scanner))
        scanner.skip_space()
    return tokens


# --------------------------------------------------------------------------- parsing


def _split_words(tokens: list[_Token]) -> tuple[list[str], list[_Token]]:
    """Leading bare words, then the options; nothing bare may follow an option."""
    words: list[str] = []
    for index, token in enumerate(tokens):
        if token.value is not None:
            options = tokens[index:]
            stray = next((t for t in options if t.value is None), None)
            if stray is not None:
                raise CommandLineError(
                    f"unexpected {stray.name!r}: options are written name:value",
                    path=words,
                    column=stray.column,
                )
            return words, options
        words.append(token.name)
    return words, []


def _command_words(
    tree: app_commands.CommandTree[Any], words: list[str], guild_id: int | None
) -> list[str]:
    """The shortest prefix of ``words`` naming an invocable command; the rest is an error."""
    for length in range(1, len(words) + 1):
        try:
            resolve_command(tree, words[:length], guild_id=guild_id)
        except OfflineInputError:
            continue
        if length < len(words):
            option_names = _option_names(tree, words[:length], guild_id)
            raise CommandLineError(
                f"unexpected {words[length]!r}: options are written name:value"
                + (f" ({', '.join(option_names)})" if option_names else ""),
                path=words[:length],
            )
        return words
    resolve_command(tree, words, guild_id=guild_id)  # raises the precise UnknownCommand
    return words


def _option_names(
    tree: app_commands.CommandTree[Any], path: list[str], guild_id: int | None
) -> list[str]:
    return [o["name"] for o in resolve_command(tree, path, guild_id=guild_id).options]


def parse_command_line(
    tree: app_commands.CommandTree[Any], line: str, *, guild_id: int | None = None
) -> CommandLine:
    """Split a typed slash command into its path and raw option values.

    Raises :class:`CommandLineError` for malformed text and ``UnknownCommand``
    when the words name no command; option names and values are checked later,
    when the payload is built.
    """
    words, option_tokens = _split_words(_tokens(line))
    try:
        path = _command_words(tree, words, guild_id)
    except UnknownCommand as error:
        raise _with_suggestions(error, words, command_paths(tree, guild_id=guild_id)) from None
    options: dict[str, str] = {}
    for token in option_tokens:
        if token.name in options:
            raise CommandLineError(
                f"option {token.name!r} is given twice", path=path, column=token.column
            )
        options[token.name] = token.value or ""
    return CommandLine(path, options)


# --------------------------------------------------------------------------- suggestions


def command_paths(
    tree: app_commands.CommandTree[Any], *, guild_id: int | None = None
) -> list[tuple[str, ...]]:
    """Every invocable command here, subcommands spelled out: ``("melee", "fire-at-will")``."""
    paths: list[tuple[str, ...]] = []
    for name, registered in top_level_schemas(tree, guild_id=guild_id).items():
        paths.extend(_leaf_paths(registered.schema, (name,)))
    return paths


def _leaf_paths(schema: Mapping[str, Any], prefix: tuple[str, ...]) -> list[tuple[str, ...]]:
    children = [o for o in schema.get("options") or [] if o.get("type") in (1, 2)]
    if not children:
        return [prefix]
    return [path for child in children for path in _leaf_paths(child, (*prefix, child["name"]))]


def suggest_commands(
    words: Sequence[str], paths: Sequence[tuple[str, ...]], limit: int = 3
) -> list[str]:
    """Commands close to what was typed, as many words long as was typed.

    ``mele`` suggests ``/melee``, ``mele fire-at-will`` suggests ``/melee fire-at-will``, and
    a subcommand typed without its group (``export``) suggests the whole command
    (``/battle export``).
    """
    width = len(words)
    spelled: dict[str, list[str]] = {}
    for path in paths:
        if len(path) >= width:
            spelled.setdefault(" ".join(path[:width]), []).append(" ".join(path[:width]))
        if len(path) > width:
            spelled.setdefault(" ".join(path[-width:]), []).append(" ".join(path))
    typed = " ".join(word.lower() for word in words)
    scores = {key: _likeness(typed, key) for key in spelled}
    best = max(scores.values(), default=0.0)
    # Only the nearest few: "mele fire-at-will" is /melee fire-at-will, not every fire-at-will.
    close = sorted((key for key, score in scores.items() if score >= max(0.6, best - 0.1)),
                   key=lambda key: -scores[key])
    found: list[str] = []
    for key in close:
        found.extend(f"/{command}" for command in spelled[key] if f"/{command}" not in found)
    return found[:limit]


def _likeness(typed: str, candidate: str) -> float:
    return difflib.SequenceMatcher(None, typed, candidate).ratio()


def _with_suggestions(
    error: UnknownCommand, words: Sequence[str], paths: Sequence[tuple[str, ...]]
) -> UnknownCommand:
    # A group typed without its subcommand (nothing misspelt) is answered by its own help.
    suggestions = suggest_commands(words, paths) if error.typed else []
    if not suggestions:
        return error
    message = f"{error}. Did you mean {_either(suggestions)}?"
    return UnknownCommand(message, path=error.path, typed=error.typed, known=error.known,
                          suggestions=suggestions)


def _either(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} or {items[-1]}"


# --------------------------------------------------------------------------- help


def _describe(schema: Mapping[str, Any]) -> str:
    description = str(schema.get("description") or "")
    return "" if description == NO_DESCRIPTION else description


def _line(label: str, description: str, indent: int = 0) -> str:
    text = " " * indent + label
    return f"{text} - {description}" if description else text


def _subcommand_lines(schema: Mapping[str, Any], prefix: str, indent: int) -> list[str]:
    lines = []
    for child in schema.get("options") or []:
        if child.get("type") not in (1, 2):
            continue
        label = f"{prefix} {child['name']}"
        lines.append(_line(label, _describe(child), indent))
        lines.extend(_subcommand_lines(child, label, indent + 2))
    return lines


def _overview(commands: Mapping[str, RegisteredCommand]) -> str:
    if not commands:
        return "No commands are available here."
    lines = ["Commands:"]
    for name, registered in commands.items():
        lines.append(_line(f"/{name}", _describe(registered.schema), 2))
        lines.extend(_subcommand_lines(registered.schema, f"/{name}", 4))
    lines.append("")
    lines.append("Options are written name:value, quoted when they hold spaces.")
    return "\n".join(lines)


def _option_kind(option: Mapping[str, Any]) -> str:
    parts = [OPTION_TYPE_NAMES.get(option["type"], "value")]
    parts.append("required" if option.get("required") else "optional")
    low, high = option.get("min_value"), option.get("max_value")
    if low is not None or high is not None:
        parts.append(f"{'' if low is None else low}..{'' if high is None else high}")
    low, high = option.get("min_length"), option.get("max_length")
    if low is not None or high is not None:
        parts.append(f"{low or 0}..{'' if high is None else high} characters")
    if option.get("autocomplete"):
        parts.append("suggestions")
    return ", ".join(parts)


def _option_lines(option: Mapping[str, Any]) -> list[str]:
    lines = [_line(f"{option['name']} ({_option_kind(option)})", _describe(option), 2)]
    choices = option.get("choices") or []
    if choices:
        rendered = ", ".join(
            c["name"] if str(c["name"]) == str(c["value"]) else f"{c['name']} ({c['value']})"
            for c in choices
        )
        lines.append(f"      choices: {rendered}")
    return lines


def _placeholder(option: Mapping[str, Any]) -> str:
    kind = option["type"]
    return _PLACEHOLDERS.get(kind) or f"<{OPTION_TYPE_NAMES.get(kind, 'value')}>"


def _command_help(schema: Mapping[str, Any], path: Sequence[str]) -> str:
    title = "/" + " ".join(path)
    lines = [_line(title, _describe(schema))]
    options = list(schema.get("options") or [])
    if not options:
        lines.append("  (no options)")
        return "\n".join(lines)
    lines.append("Options:")
    for option in options:
        lines.extend(_option_lines(option))
    usage = " ".join(
        f"{o['name']}:{_placeholder(o)}" if o.get("required") else f"[{o['name']}:...]"
        for o in options
    )
    lines.append(f"Usage: {title} {usage}")
    return "\n".join(lines)


def _group_help(schema: Mapping[str, Any], path: Sequence[str]) -> str:
    title = "/" + " ".join(path)
    lines = [_line(title, _describe(schema)), "Subcommands:"]
    lines.extend(_subcommand_lines(schema, title, 2))
    return "\n".join(lines)


def _find_schema(
    commands: Mapping[str, RegisteredCommand], path: Sequence[str]
) -> Mapping[str, Any] | None:
    registered = commands.get(path[0])
    if registered is None:
        return None
    schema: Mapping[str, Any] = registered.schema
    for word in path[1:]:
        children = [o for o in schema.get("options") or [] if o.get("type") in (1, 2)]
        found = next((child for child in children if child["name"] == word), None)
        if found is None:
            return None
        schema = found
    return schema


def help_text(
    tree: app_commands.CommandTree[Any],
    path: Sequence[str] | str | None = None,
    *,
    guild_id: int | None = None,
) -> str:
    """Plain-text help as a Discord user would find it in the command picker.

    Without a path: every command available here with its description and
    subcommands. With a path: a group's subcommands, or a command's options
    with type, required/optional, limits, description and choices.
    """
    commands = top_level_schemas(tree, guild_id=guild_id)
    words = path.lstrip("/").split() if isinstance(path, str) else list(path or [])
    words = [word.lower() for word in words]
    if not words:
        return _overview(commands)
    schema = _find_schema(commands, words)
    if schema is None:
        return f"No command /{' '.join(words)} here.\n\n" + _overview(commands)
    if any(o.get("type") in (1, 2) for o in schema.get("options") or []):
        return _group_help(schema, words)
    return _command_help(schema, words)
