"""Logging to standard error, with secrets masked wherever they would appear."""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterable

FORMAT = "%(asctime)s %(levelname)-7s %(name)s: %(message)s"


class Redact(logging.Filter):
    """Replace every secret in a record's final text, arguments and traceback included."""

    def __init__(self, secrets: Iterable[str]) -> None:
        super().__init__()
        self._secrets = [s for s in secrets if s]

    def filter(self, record: logging.LogRecord) -> bool:
        if not self._secrets:
            return True
        message = record.getMessage()
        if record.exc_info:
            message += "\n" + logging.Formatter().formatException(record.exc_info)
            record.exc_info = None
            record.exc_text = None
        for secret in self._secrets:
            message = message.replace(secret, "[redacted]")
        record.msg, record.args = message, None
        return True


class DropVoiceNotice(logging.Filter):
    """discord.py warns at start-up that voice is unsupported; a dice-bot has no voice."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "voice will NOT be supported" not in record.getMessage()


def setup_logging(level: str, secrets: Iterable[str] = ()) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter(FORMAT))
    handler.addFilter(Redact(secrets))
    handler.addFilter(DropVoiceNotice())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    numeric = logging.getLevelName(level.upper())
    root.setLevel(numeric if isinstance(numeric, int) else logging.INFO)
    if not isinstance(numeric, int):
        # A typo would otherwise go unnoticed: the operator expects the level they asked for.
        logging.getLogger("huzzah").warning(
            "HUZZAH_LOG_LEVEL=%s is not a level: give DEBUG, INFO, WARNING or ERROR. "
            "Logging at INFO.", level)
    # Alembic lists every plugin it loads at INFO: noise beside the bot's own log.
    logging.getLogger("alembic.runtime.plugins").setLevel(logging.WARNING)
