"""Small wording helpers for replies."""

from __future__ import annotations


def counted(count: int, word: str, plural: str | None = None) -> str:
    """``1 event``, ``2 events``, ``0 units``."""
    return f"{count} {word if count == 1 else plural or word + 's'}"
