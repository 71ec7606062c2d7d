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


def read_dotenv(path: Path) -> dict[str, str]:
    """``KEY=value`` lines; blank lines and ``#`` comments skipped, and after an unquoted
    value a comment of its own (``KEY=value  # why``, as Docker Compose reads it); a quoted
    value is what its quotes hold."""
    values: dict[str, str] = {}
    if not path.is_file():
        return values
    # utf-8-sig: an editor on Windows may begin the file with a byte order mark, which would
    # otherwise be read as part of the first name (and DISCORD_TOKEN would seem unset).
    for raw in path.read_text(encoding="utf-8-sig").splitlines():
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
