"""A JSON file a player attaches (a chart pack, a battle's backup), read as strictly as the
commands that take the same data: text, JSON, an object, no NaN, nothing Discord cannot send."""

from __future__ import annotations

import json
from typing import Any, NoReturn

from bot.battles.errors import BattleError
from bot.unsendable import in_json, refusal
from rules.core.fields import json_kind


def read_json_object(data: bytes, filename: str, *, kind: str, holder: str, hint: str,
                     again: str) -> dict[str, Any]:
    """The JSON object in the file, or a refusal that says what is wrong with it. ``kind``
    names the file (``a chart pack``), ``holder`` what holds its numbers (``a chart``),
    ``again`` what to do once a character Discord cannot send is taken out."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise BattleError(f"{filename} is not text (UTF-8).", hint=hint) from None

    def no_constant(name: str) -> NoReturn:
        raise ValueError(f"`{name}` is not a number {holder} can hold.")

    try:
        content = json.loads(text, parse_constant=no_constant)
    except RecursionError:
        raise BattleError(f"{filename} nests lists or objects too deeply to be {kind}.",
                          hint=hint) from None
    except json.JSONDecodeError as error:
        # Some of the parser's messages end with "at" already ("… starting at").
        at = "" if error.msg.endswith(" at") else " at"
        raise BattleError(f"{filename} is not JSON: {error.msg}{at} line {error.lineno}, "
                          f"column {error.colno}.", hint=hint) from None
    except ValueError as error:
        raise BattleError(f"{filename}: {error}", hint=hint) from None
    if not isinstance(content, dict):
        raise BattleError(f"{filename} holds {json_kind(content)}, not a JSON object.",
                          hint=hint)
    found = in_json(content)
    if found is not None:
        raise refusal(found, again, filename)
    return content
