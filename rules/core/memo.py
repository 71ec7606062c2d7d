"""A bounded memo: what a pure reading gave for a key, kept until too many are kept.

The engine reads the same few things on every move of a battle (a unit's stored attributes,
a fight's words, the names it looks up): each reading is remembered by what it depends on.
Past ``size`` entries the memo starts again, so it never grows with a long game. A refusal
(an exception) is never kept: the caller stores only what it made.
"""

from __future__ import annotations

from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")

MEMO_SIZE = 4096
"""Entries a memo keeps before it starts again."""


class Memo(Generic[K, V]):
    def __init__(self, size: int = MEMO_SIZE) -> None:
        self._size = size
        self._kept: dict[K, V] = {}

    def __len__(self) -> int:
        return len(self._kept)

    def get(self, key: K) -> V | None:
        """What was kept for ``key``, or None. A key that cannot be hashed raises
        ``TypeError``, for the caller to read its value afresh."""
        return self._kept.get(key)

    def keep(self, key: K, value: V) -> V:
        if len(self._kept) >= self._size:
            self._kept.clear()
        self._kept[key] = value
        return value
