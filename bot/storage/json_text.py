"""The JSON text of stored columns (an event's request, record and changes; a unit's
attributes), written and read by orjson.

A move stores a few kilobytes of JSON: through the standard library's encoder that was a
fifteenth of its whole cost, through orjson a small part of it. What orjson cannot write
exactly as the standard library would (an integer past 64 bits, a type it does not know) is
written by the standard library, and text orjson will not read is read by it too, so every
value stored before reads back the same. The text itself differs (orjson writes no spaces and
keeps non-ASCII letters as UTF-8); the values are the same.

Non-finite numbers never reach a column (every input refuses them), which matters here
because orjson writes them as ``null``.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS  # number keys become text, as the standard library does


def dumps(value: Any) -> str:
    try:
        return orjson.dumps(value, option=_OPTIONS).decode()
    except TypeError:
        return json.dumps(value)


def loads(text: str | bytes) -> Any:
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)


ENGINE_OPTIONS: dict[str, Any] = {"json_serializer": dumps, "json_deserializer": loads}
"""For ``create_engine``: how the engine's JSON columns are written and read."""
