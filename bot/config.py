"""Configuration from the environment, with an optional ``.env`` file beside it."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

DEFAULT_LOG_LEVEL = "INFO"


@dataclass(frozen=True)
class Config:
    token: str | None
    log_level: str
    database_url: str | None


class UnreadableDotenv(Exception):
    """A ``.env`` file that is there but cannot be read: what to do, on one line."""


def read_dotenv(path: Path) -> dict[str, str]:
    """``KEY=value`` lines; blank lines and ``#`` comments skipped, and after an unquoted
    value a comment of its own (``KEY=value  # why``, as Docker Compose reads it); a quoted
    value is what its quotes hold."""
    values: dict[str, str] = {}
    try:
        if not path.is_file():
            return values
    except PermissionError:
        # A folder this user may not look into (`runuser -u huzzah` from root's home) holds
        # no .env it could read.
        return values
    # utf-8-sig: an editor on Windows may begin the file with a byte order mark, which would
    # otherwise be read as part of the first name (and DISCORD_TOKEN would seem unset).
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as error:
        raise UnreadableDotenv(f"cannot read {path}: it is not UTF-8 text. Save it as UTF-8 "
                               "(an editor may have saved it as UTF-16).") from error
    except OSError as error:
        raise UnreadableDotenv(f"cannot read {path} ({error.strerror or error}). Make it "
                               "readable by the user the bot runs as, or move it away: "
                               "variables set in the environment need no .env.") from error
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.removeprefix("export ").partition("=")
        values[key.strip()] = _value(value.strip())
    return values


def _value(text: str) -> str:
    quote = text[:1]
    if quote in ("'", '"') and quote in text[1:]:
        return text[1:text.index(quote, 1)]
    # A `#` that follows a space, or begins the value, begins a comment; one inside a value
    # (a password) does not.
    if text.startswith("#"):
        return ""
    return _COMMENT.split(text, maxsplit=1)[0].strip().strip("'\"")


_COMMENT = re.compile(r"\s+#")


def environment(env: Mapping[str, str] | None = None,
                dotenv: Path | None = None) -> dict[str, str]:
    """The variables the bot reads: the environment, over ``.env`` in the working
    directory."""
    merged = read_dotenv(dotenv or Path.cwd() / ".env")
    merged.update(os.environ if env is None else env)
    return merged


def load_config(env: Mapping[str, str] | None = None, dotenv: Path | None = None) -> Config:
    """The environment wins over ``.env``; ``.env`` is read from the working directory."""
    merged = environment(env, dotenv)
    return Config(
        token=merged.get("DISCORD_TOKEN") or None,
        log_level=(merged.get("HUZZAH_LOG_LEVEL") or DEFAULT_LOG_LEVEL).upper(),
        database_url=merged.get("DATABASE_URL") or None,
    )
