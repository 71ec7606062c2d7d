"""``huzzah resolve``: one JSON request on standard input, one JSON resolution out.

The schema is documented in docs/resolve.md and versioned by ``SCHEMA_VERSION``.
"""

from __future__ import annotations

import json
import sys
import time
from typing import IO, Any

from bot.unsendable import in_json, refusal
from rules.core.decisions import Undecided
from rules.core.errors import InvalidInput, RulesError
from rules.registry import resolve

SCHEMA_VERSION = 1
EXIT_BAD_INPUT = 2


def error_object(kind: str, message: str) -> dict[str, Any]:
    return {"version": SCHEMA_VERSION, "error": {"kind": kind, "message": message}}


def resolve_text(text: str) -> tuple[int, dict[str, Any]]:
    """Exit status and response object for one request text."""
    try:
        request = json.loads(text)
    except json.JSONDecodeError as exc:
        return EXIT_BAD_INPUT, error_object(
            "bad_json", f"The request is not valid JSON: {exc.msg} (line {exc.lineno}, "
            f"column {exc.colno})."
        )
    except ValueError as exc:
        # Python refuses to read an integer of more than a few thousand digits.
        return EXIT_BAD_INPUT, error_object(
            "bad_json", f"The request holds a number too long to read ({exc}). "
            "Numbers in a request are small: a unit's strength, a distance, a morale."
        )
    except RecursionError:
        return EXIT_BAD_INPUT, error_object(
            "bad_json", "The request nests lists or objects too deeply to read.")
    try:
        request = with_files(request)
        found = in_json(request)
        if found is not None:  # a lone surrogate, say: no answer could quote it
            raise refusal(found, "Take it out of the request.")
        if isinstance(request, dict) and request.get("mode") == "odds":
            return 0, {"version": SCHEMA_VERSION, "mode": "odds", **odds_of(request)}
        if isinstance(request, dict) and request.get("mode", "resolve") != "resolve":
            raise InvalidInput(f"Unknown `mode` `{request['mode']}`.",
                               hint="Use `resolve` (the default) or `odds`.")
        resolution = resolve({k: v for k, v in request.items() if k != "mode"}
                             if isinstance(request, dict) else request)
    except Undecided as asked:
        # Like missing dice: nothing is decided for the player; say what to add.
        response = error_object("undecided", f"{asked.question.text} Add the answer to "
                                "`answers` and send the request again.")
        response["error"]["question"] = asked.question.to_dict()
        return EXIT_BAD_INPUT, response
    except RulesError as exc:
        return EXIT_BAD_INPUT, error_object(_kind(exc), str(exc))
    except RecursionError:  # read, but too deep for the checks that walk it
        return EXIT_BAD_INPUT, error_object(
            "invalid_input", "The request nests lists or objects too deeply: no field of a "
            "request goes more than a few levels down.")
    return 0, {"version": SCHEMA_VERSION, **resolution.to_dict()}


ODDS_SECONDS = 10.0
"""How long ``"mode": "odds"`` may work: an exact walk gets three quarters (``WALK_SHARE``),
an estimate the rest."""
ODDS_LEAVES = 200_000


def odds_of(request: dict[str, Any]) -> dict[str, Any]:
    """The distribution of every result of the request, as JSON (docs/resolve.md)."""
    from rules.core.odds import odds_for_request, to_json
    from rules.registry import RULESETS

    deadline = time.monotonic() + ODDS_SECONDS
    return to_json(odds_for_request(RULESETS, request, max_leaves=ODDS_LEAVES,
                                    deadline=deadline))


MAX_FILE_BYTES = 64_000


def with_files(request: Any) -> Any:
    """``"files": {"charts": "pack.json"}``: each named field read from a JSON file, so that
    a chart pack kept on disk need not be pasted into the request."""
    if not isinstance(request, dict) or "files" not in request:
        return request
    files = request.pop("files")
    if not isinstance(files, dict):
        raise InvalidInput('`files` maps a field to a JSON file, like {"charts": "pack.json"}.')
    for key, path in files.items():
        if not isinstance(path, str) or not path.strip():
            raise InvalidInput(f"`files`: `{key}` needs a file path.")
        try:
            with open(path, encoding="utf-8") as handle:
                text = handle.read(MAX_FILE_BYTES + 1)
        except OSError as exc:
            raise InvalidInput(f"`files`: cannot read `{path}` ({exc.strerror}).") from None
        if len(text) > MAX_FILE_BYTES:
            raise InvalidInput(f"`files`: `{path}` is over {MAX_FILE_BYTES:,} characters.")
        try:
            request[str(key)] = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InvalidInput(f"`files`: `{path}` is not valid JSON: {exc.msg} (line "
                               f"{exc.lineno}).") from None
        except RecursionError:
            raise InvalidInput(f"`files`: `{path}` nests lists or objects too deeply to "
                               "read.") from None
    return request


# The kinds version 1 of the request format names (docs/resolve.md): a script branches on
# them, so a narrower error reports the documented kind it is one of.
KINDS = ("invalid_input", "not_allowed", "bad_dice_text", "not_enough_dice", "too_many_dice",
         "undecided")


def _kind(error: RulesError) -> str:
    """The documented kind of the error: the snake_case of its class, or of the nearest
    class above it that is one (an unknown unit is ``invalid_input``)."""
    for kind in type(error).__mro__:
        name = "".join(f"_{c.lower()}" if c.isupper() else c for c in kind.__name__)
        if name.lstrip("_") in KINDS:
            return name.lstrip("_")
    return "invalid_input"


def main(stdin: IO[str] = sys.stdin, stdout: IO[str] = sys.stdout) -> int:
    status, response = resolve_text(stdin.read())
    try:
        json.dump(response, stdout, ensure_ascii=False, indent=2)
        stdout.write("\n")
        stdout.flush()
    except BrokenPipeError:  # the reader stopped early (`| head`): not our failure
        sys.stderr.close()
    return status
