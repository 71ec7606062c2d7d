"""Capture what the bot sends in answer to interactions, answering as Discord would.

discord.py sends every interaction response, follow-up and edit through one
method of its webhook adapter. Replacing that method (and nothing else) keeps
all of discord.py's own payload building in play, while no request leaves the
process; :mod:`bot.offline.discord_internals` holds the replacement's side that
depends on discord.py.

Requests are routed by the interaction token in their URL, so each interaction
has its own Discord-side record (acknowledged or not, its messages) no matter
which task sends. Each *dispatch* of an interaction has its own request log,
found through a context variable; two dispatches of the same payload therefore
share Discord's state (the second callback is refused with 40060, as Discord
refuses it) but not their logs.
"""

from __future__ import annotations

import asyncio
import contextvars
import copy
import datetime
import mimetypes
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import discord

from .discord_internals import (
    CALLBACK_ROUTE,
    EXECUTE_ROUTE,
    MESSAGE_PATH,
    ORIGINAL_MESSAGE_PATH,
    WebhookRequest,
    WebhookRoute,
    http_error,
    json_codec,
    replace_webhook_request,
    upload_bytes,
    webhook_request_stand_in,
)
from .payloads import Snowflakes, user_payload

__all__ = [
    "InteractionCapture",
    "OfflineNetworkError",
    "OfflineTransport",
    "SentFile",
    "SentMessage",
    "SentRequest",
    "autocomplete_choices",
    "sent_messages",
]

#: Callback types (Discord's INTERACTION_CALLBACK_TYPE).
PONG, CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE = 1, 4, 5, 6, 7
AUTOCOMPLETE_RESULT, MODAL = 8, 9

# The JSON codec discord.py's own HTTP adapter uses (orjson when it is installed, as it is
# with Huzzah): the stand-in for the network spends on JSON what the real request would.
_to_json, _from_json = json_codec()


def _detached(value: Any) -> Any:
    """A copy sharing nothing with ``value``: what a JSON round trip over the wire gives
    (and several times quicker than ``copy.deepcopy`` on message payloads)."""
    try:
        return _from_json(_to_json(value))
    except (TypeError, ValueError):
        return copy.deepcopy(value)

EPHEMERAL = 64
LOADING = 128

#: Discord's documented limits, checked on every message the bot sends.
_LIMITS = {
    "content": 2000,
    "embeds": 10,
    "title": 256,
    "description": 4096,
    "fields": 25,
    "field.name": 256,
    "field.value": 1024,
    "footer.text": 2048,
    "author.name": 256,
    "embed.total": 6000,
    "choices": 25,
    "choice.name": 100,
}
#: Seconds Discord allows before the first response to an interaction.
RESPONSE_DEADLINE = 3.0


class OfflineNetworkError(RuntimeError):
    """Something tried to reach Discord from an offline session."""


# --------------------------------------------------------------------------- records


@dataclass(frozen=True)
class SentFile:
    """A file uploaded with a message."""

    filename: str
    data: bytes
    description: str | None = None

    @property
    def size(self) -> int:
        return len(self.data)


@dataclass
class SentRequest:
    """One HTTP request the bot made, and Discord's (offline) answer.

    ``payload`` is the JSON body, also when discord.py sent it as the
    ``payload_json`` part of a multipart upload. ``message`` is the message
    this request created or changed, as Discord holds it afterwards, whether
    or not Discord's answer included it (follow-ups without ``wait`` get none).
    """

    method: str
    url: str
    payload: dict[str, Any] | None
    files: list[SentFile] = field(default_factory=list)
    route: str = ""
    params: dict[str, Any] | None = None
    status: int = 200
    response: Any = None
    message: dict[str, Any] | None = None

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300

    @property
    def callback_type(self) -> int | None:
        """The interaction callback type (4 message, 5 deferral, 8 autocomplete ...)."""
        if self.route != CALLBACK_ROUTE or self.payload is None:
            return None
        return self.payload.get("type")


@dataclass(frozen=True)
class SentMessage:
    """A message the user would see, or a change to one.

    ``kind`` is ``response`` (type 4), ``deferral`` (type 5, "is thinking"),
    ``followup``, ``edit``, ``update`` (type 7), ``delete`` or ``modal``.
    For edits the content, embeds and flags are those of the edited message
    as it now stands.
    """

    kind: str
    content: str | None = None
    embeds: list[dict[str, Any]] = field(default_factory=list)
    flags: int = 0
    files: list[SentFile] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    message_id: str | None = None
    title: str | None = None
    request: SentRequest | None = field(default=None, repr=False, compare=False)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def deferred(self) -> bool:
        return self.kind == "deferral"


# --------------------------------------------------------------------------- Discord's answers


def _discord_error(status: int, code: int, message: str, errors: dict | None = None) -> Exception:
    body: dict[str, Any] = {"code": code, "message": message}
    if errors:
        body["errors"] = errors
    reason = {400: "Bad Request", 403: "Forbidden", 404: "Not Found"}.get(status, "Error")
    error_type = {403: discord.Forbidden, 404: discord.NotFound}.get(status, discord.HTTPException)
    error = http_error(error_type, status, reason, body)
    error.offline_body = body  # type: ignore[attr-defined]
    return error


def _too_long(errors: dict, key: str, limit: int) -> None:
    errors[key] = {
        "_errors": [
            {"code": "BASE_TYPE_MAX_LENGTH", "message": f"Must be {limit} or fewer in length."}
        ]
    }


def _embed_problems(embed: Mapping[str, Any], prefix: str, errors: dict) -> int:
    """Record limit violations of one embed; return its character count."""
    texts = {
        "title": embed.get("title") or "",
        "description": embed.get("description") or "",
        "footer.text": (embed.get("footer") or {}).get("text") or "",
        "author.name": (embed.get("author") or {}).get("name") or "",
    }
    for key, text in texts.items():
        if len(text) > _LIMITS[key]:
            _too_long(errors, f"{prefix}.{key}", _LIMITS[key])
    fields = embed.get("fields") or []
    if len(fields) > _LIMITS["fields"]:
        _too_long(errors, f"{prefix}.fields", _LIMITS["fields"])
    total = sum(len(text) for text in texts.values())
    for index, item in enumerate(fields):
        for part in ("name", "value"):
            text = str(item.get(part) or "")
            total += len(text)
            if not text:
                errors[f"{prefix}.fields.{index}.{part}"] = {
                    "_errors": [{"code": "BASE_TYPE_REQUIRED", "message": "This field is required"}]
                }
            elif len(text) > _LIMITS[f"field.{part}"]:
                _too_long(errors, f"{prefix}.fields.{index}.{part}", _LIMITS[f"field.{part}"])
    return total


def check_message(data: Mapping[str, Any], files: Sequence[SentFile], *, creating: bool) -> None:
    """Refuse a message body the way Discord does (400 with error details)."""
    errors: dict[str, Any] = {}
    content = data.get("content") or ""
    if len(content) > _LIMITS["content"]:
        _too_long(errors, "content", _LIMITS["content"])
    embeds = data.get("embeds") or []
    if len(embeds) > _LIMITS["embeds"]:
        _too_long(errors, "embeds", _LIMITS["embeds"])
    total = sum(_embed_problems(e, f"embeds.{i}", errors) for i, e in enumerate(embeds))
    if total > _LIMITS["embed.total"]:
        _too_long(errors, "embeds", _LIMITS["embed.total"])
    if errors:
        raise _discord_error(400, 50035, "Invalid Form Body", errors)
    empty = not (content or embeds or files or data.get("components") or data.get("poll"))
    if creating and empty:
        raise _discord_error(400, 50006, "Cannot send an empty message")


def check_choices(data: Mapping[str, Any]) -> None:
    """Refuse an autocomplete answer Discord would refuse."""
    choices = data.get("choices") or []
    errors: dict[str, Any] = {}
    if len(choices) > _LIMITS["choices"]:
        _too_long(errors, "data.choices", _LIMITS["choices"])
    for index, choice in enumerate(choices):
        if not 1 <= len(str(choice.get("name", ""))) <= _LIMITS["choice.name"]:
            _too_long(errors, f"data.choices.{index}.name", _LIMITS["choice.name"])
    if errors:
        raise _discord_error(400, 50035, "Invalid Form Body", errors)


@dataclass
class InteractionCapture:
    """Discord's side of one interaction: whether it was answered, and its messages."""

    payload: dict[str, Any]
    ids: Snowflakes
    author: dict[str, Any] | None = None
    response_deadline: float | None = RESPONSE_DEADLINE
    created: float = field(default_factory=time.monotonic)
    acknowledged: int | None = None
    messages: dict[str, dict[str, Any]] = field(default_factory=dict)
    original_id: str | None = None
    requests: list[SentRequest] = field(default_factory=list)
    on_answered: Callable[[int], None] | None = None
    """Told the interaction's id once its first response is accepted (a metric's clock)."""

    @property
    def token(self) -> str:
        return self.payload["token"]

    # -- routing -------------------------------------------------------------

    def answer(self, route: WebhookRoute, request: SentRequest) -> Any:
        """Discord's JSON answer to ``request``, or raise the HTTP error Discord would.

        The answer may share objects with the stored messages: the caller sends it over the
        "wire" (``_offline_request``), which copies it.
        """
        if route.key == CALLBACK_ROUTE:
            if route.webhook_id != self.payload["id"]:
                raise _discord_error(404, 10062, "Unknown interaction")
            return self._callback(request)
        if route.webhook_id != self.payload["application_id"]:
            raise _discord_error(404, 10015, "Unknown Webhook")
        if route.key == EXECUTE_ROUTE:
            return self._execute(request)
        if route.path in (ORIGINAL_MESSAGE_PATH, MESSAGE_PATH):
            message_id = route.url.rsplit("/", 1)[-1]
            return self._on_message(route.method, message_id, request)
        raise OfflineNetworkError(f"no offline answer for {route.method} {route.path}")

    # -- callback --------------------------------------------------------------

    def _callback(self, request: SentRequest) -> dict[str, Any]:
        if self.acknowledged is not None:
            raise _discord_error(400, 40060, "Interaction has already been acknowledged.")
        elapsed = time.monotonic() - self.created
        if self.response_deadline is not None and elapsed > self.response_deadline:
            raise _discord_error(404, 10062, "Unknown interaction")
        payload = request.payload or {}
        callback_type = payload.get("type")
        data = payload.get("data") or {}
        if callback_type == CHANNEL_MESSAGE:
            check_message(data, request.files, creating=True)
        elif callback_type == AUTOCOMPLETE_RESULT:
            check_choices(data)
        self.acknowledged = callback_type
        if self.on_answered is not None:
            self.on_answered(int(self.payload["id"]))
        return self._callback_answer(callback_type, data, request.files)

    def _callback_answer(
        self, callback_type: int | None, data: Mapping[str, Any], files: Sequence[SentFile]
    ) -> dict[str, Any]:
        interaction: dict[str, Any] = {
            "id": self.payload["id"],
            "type": self.payload["type"],
        }
        answer: dict[str, Any] = {"interaction": interaction}
        if callback_type in (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE):
            flags = int(data.get("flags") or 0)
            if callback_type == DEFERRED_CHANNEL_MESSAGE:
                data, flags = {}, flags | LOADING
            message = self._create_message(data, files, flags=flags, original=True)
            interaction.update(
                response_message_id=message["id"],
                response_message_loading=callback_type == DEFERRED_CHANNEL_MESSAGE,
                response_message_ephemeral=bool(flags & EPHEMERAL),
            )
            answer["resource"] = {"type": callback_type, "message": message}
        elif callback_type in (DEFERRED_UPDATE, UPDATE_MESSAGE) and self.payload.get("message"):
            # A button's interaction answered by updating the message it sits under: that
            # message becomes the interaction's original, as Discord treats it.
            message = _detached(self.payload["message"])
            if callback_type == UPDATE_MESSAGE:
                message = self._edit_message(message, data, files)
                # Discord answers an update with the message as it now stands.
                answer["resource"] = {"type": callback_type, "message": message}
            self.messages[message["id"]] = message
            self.original_id = message["id"]
        return answer

    # -- webhook routes ------------------------------------------------------------

    def _execute(self, request: SentRequest) -> dict[str, Any] | None:
        """A follow-up; the first one after a deferral fills in the "thinking" message.

        That first follow-up keeps the deferral's visibility whatever flags it
        asks for, which is how Discord behaves.
        """
        if self.acknowledged is None:
            raise _discord_error(404, 10015, "Unknown Webhook")
        data = request.payload or {}
        check_message(data, request.files, creating=True)
        thinking = self.messages.get(self.original_id or "")
        if thinking is not None and thinking["flags"] & LOADING:
            message = self._edit_message(thinking, data, request.files, mark_edited=False)
        else:
            flags = int(data.get("flags") or 0)
            message = self._create_message(data, request.files, flags=flags)
        request.message = _detached(message)
        wait = str((request.params or {}).get("wait", "0")) in ("1", "True", "true")
        return message if wait else None

    def _on_message(self, method: str, message_id: str, request: SentRequest) -> Any:
        if self.acknowledged is None:
            raise _discord_error(404, 10015, "Unknown Webhook")
        key = self.original_id if message_id == "@original" else message_id
        message = self.messages.get(key or "")
        if message is None:
            raise _discord_error(404, 10008, "Unknown Message")
        if method == "GET":
            return message
        if method == "DELETE":
            del self.messages[message["id"]]
            return None
        data = request.payload or {}
        check_message(data, request.files, creating=False)
        edited = self._edit_message(message, data, request.files)
        request.message = _detached(edited)
        return edited

    # -- messages ----------------------------------------------------------------------

    def _author(self) -> dict[str, Any]:
        if self.author is not None:
            return dict(self.author)
        return user_payload(int(self.payload["application_id"]), "bot", bot=True)

    def _invoker(self) -> dict[str, Any]:
        member = self.payload.get("member")
        return dict(member["user"] if member else self.payload["user"])

    def _attachments(self, data: Mapping[str, Any], files: Sequence[SentFile]) -> list[dict]:
        channel_id = self.payload["channel_id"]
        attachments = []
        for file in files:
            attachment_id = str(self.ids.next())
            url = f"https://cdn.discordapp.com/attachments/{channel_id}/{attachment_id}/{file.filename}"
            attachments.append(
                {
                    "id": attachment_id,
                    "filename": file.filename,
                    "size": file.size,
                    "url": url,
                    "proxy_url": url.replace("cdn.discordapp.com", "media.discordapp.net"),
                    "content_type": mimetypes.guess_type(file.filename)[0]
                    or "application/octet-stream",
                    **({"description": file.description} if file.description else {}),
                }
            )
        return attachments

    def _create_message(
        self,
        data: Mapping[str, Any],
        files: Sequence[SentFile],
        *,
        flags: int,
        original: bool = False,
    ) -> dict[str, Any]:
        message_id = str(self.ids.next())
        message = {
            "id": message_id,
            "type": 20 if original else 0,
            "channel_id": self.payload["channel_id"],
            "author": self._author(),
            "content": data.get("content") or "",
            "timestamp": datetime.datetime.now(datetime.UTC).isoformat(),
            "edited_timestamp": None,
            "tts": bool(data.get("tts", False)),
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": self._attachments(data, files),
            "embeds": [dict(embed) for embed in data.get("embeds") or []],
            "components": list(data.get("components") or []),
            "pinned": False,
            "flags": flags,
            "webhook_id": self.payload["application_id"],
            "application_id": self.payload["application_id"],
            "interaction_metadata": {
                "id": self.payload["id"],
                "type": self.payload["type"],
                "user": self._invoker(),
                "authorizing_integration_owners": self.payload.get(
                    "authorizing_integration_owners", {}
                ),
            },
        }
        self.messages[message_id] = message
        if original:
            self.original_id = message_id
        return message

    def _edit_message(
        self,
        message: dict[str, Any],
        data: Mapping[str, Any],
        files: Sequence[SentFile],
        *,
        mark_edited: bool = True,
    ) -> dict[str, Any]:
        if "content" in data:
            message["content"] = data["content"] or ""
        if "components" in data:
            message["components"] = list(data["components"] or [])
        if "embeds" in data:
            message["embeds"] = [dict(embed) for embed in data["embeds"] or []]
        if "attachments" in data or files:
            kept_ids = {str(a.get("id")) for a in data.get("attachments") or []}
            kept = [a for a in message["attachments"] if a["id"] in kept_ids]
            message["attachments"] = kept + self._attachments(data, files)
        message["flags"] = message["flags"] & ~LOADING
        if mark_edited:
            message["edited_timestamp"] = datetime.datetime.now(datetime.UTC).isoformat()
        return message


# --------------------------------------------------------------------------- the patch


_current_log: contextvars.ContextVar[tuple[str, list[SentRequest]] | None] = contextvars.ContextVar(
    "huzzah_offline_request_log", default=None
)


def _read_files(files: Sequence[discord.File] | None) -> list[SentFile]:
    """Copy upload bytes now: discord.py closes the files once the request returns."""
    sent = []
    for file in files or []:
        sent.append(SentFile(file.filename or "untitled", upload_bytes(file), file.description))
    return sent


def _json_body(
    payload: dict[str, Any] | None, multipart: list[dict[str, Any]] | None
) -> dict[str, Any] | None:
    if payload is not None:
        # Sent as discord.py sends it (its adapter encodes the body with ``_to_json``): a
        # payload that could not go over the wire fails here as it would live, and the log
        # keeps what Discord would have received, not the bot's own objects.
        return _from_json(_to_json(payload))
    for part in multipart or ():
        if part.get("name") == "payload_json":
            return _from_json(part["value"])
    return None


def record_request(request: SentRequest) -> None:
    """Log a REST request (not a webhook one) with the dispatch running in this context."""
    current = _current_log.get()
    if current is not None:
        current[1].append(request)


def discord_error(status: int, code: int, message: str) -> Exception:
    """The exception discord.py raises when Discord answers ``status`` with ``code``."""
    return _discord_error(status, code, message)


class _Router:
    """Process-wide switchboard behind the replaced webhook adapter's ``request``.

    The patch is shared by every open transport (reference counted) so that
    sessions can overlap and close in any order.
    """

    def __init__(self) -> None:
        self.captures: dict[str, InteractionCapture] = {}
        self.users = 0
        self.original: Any = None

    def install(self) -> None:
        if self.users == 0:
            self.original = replace_webhook_request(_offline_request)
        self.users += 1

    def uninstall(self) -> None:
        self.users -= 1
        if self.users == 0:
            replace_webhook_request(self.original)
            self.original = None

    def log_for(self, capture: InteractionCapture) -> list[SentRequest]:
        """The log of the dispatch running in this context, else the interaction's latest."""
        current = _current_log.get()
        if current is not None and current[0] == capture.token:
            return current[1]
        return capture.requests


_router = _Router()


async def _answer_offline(sent: WebhookRequest) -> Any:
    """Discord's answer to one webhook request, with no network.

    It yields to the loop once, as a real request would, so that concurrent
    handlers interleave the way they do live.
    """
    await asyncio.sleep(0)
    route, payload, params = sent.route, sent.payload, sent.params
    capture = _router.captures.get(route.webhook_token or "")
    if capture is None:
        raise OfflineNetworkError(
            f"{route.method} {route.path} is not addressed to an offline interaction"
        )
    request = SentRequest(
        method=route.method,
        url=route.url,
        payload=_json_body(payload, sent.multipart),
        files=_read_files(sent.files),
        route=route.key,
        params=dict(params) if params else None,
    )
    _router.log_for(capture).append(request)
    try:
        answer = capture.answer(route, request)
    except discord.HTTPException as error:
        request.status = error.status
        request.response = getattr(error, "offline_body", None)
        raise
    # Over the wire once: one copy kept in the log, one for discord.py to build from.
    wire = _to_json(answer)
    request.response = _from_json(wire)
    if route.key == CALLBACK_ROUTE and request.response and "resource" in request.response:
        request.message = request.response["resource"]["message"]
    return _from_json(wire)


#: In place of ``AsyncWebhookAdapter.request`` while a transport is installed.
_offline_request = webhook_request_stand_in(_answer_offline)


class OfflineTransport:
    """Installs the capture and keeps the interactions opened through it.

    Use as a context manager, or call :meth:`install` and :meth:`uninstall`.
    Closing forgets this transport's interactions, so a late follow-up to
    one of them fails instead of going anywhere.
    """

    def __init__(
        self,
        *,
        ids: Snowflakes | None = None,
        author: dict[str, Any] | None = None,
        response_deadline: float | None = RESPONSE_DEADLINE,
        on_answered: Callable[[int], None] | None = None,
    ) -> None:
        self.ids = ids or Snowflakes()
        self.author = author
        self.response_deadline = response_deadline
        self.on_answered = on_answered
        self._tokens: set[str] = set()
        self._installed = False

    def install(self) -> None:
        if not self._installed:
            _router.install()
            self._installed = True

    def uninstall(self) -> None:
        if self._installed:
            for token in self._tokens:
                _router.captures.pop(token, None)
            self._tokens.clear()
            _router.uninstall()
            self._installed = False

    def forget(self, token: str) -> None:
        """Drop one interaction's record: nothing more can be sent for it (a real Discord
        keeps it for 15 minutes; a long benchmark need not keep thousands)."""
        self._tokens.discard(token)
        _router.captures.pop(token, None)

    def __enter__(self) -> OfflineTransport:
        self.install()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.uninstall()

    def open(self, payload: dict[str, Any]) -> InteractionCapture:
        """Discord's record of this interaction, created on first delivery."""
        token = payload["token"]
        capture = _router.captures.get(token)
        if capture is None:
            capture = InteractionCapture(
                payload=payload,
                ids=self.ids,
                author=self.author,
                response_deadline=self.response_deadline,
                on_answered=self.on_answered,
            )
            _router.captures[token] = capture
            self._tokens.add(token)
        return capture

    def edit_channel_message(self, channel_id: int, message_id: int,
                             data: Mapping[str, Any]) -> dict[str, Any]:
        """Edit, as the bot's own REST call does, a public message sent in answer to one of
        this transport's interactions in ``channel_id``; Discord's 404 for any other."""
        for token in self._tokens:
            capture = _router.captures.get(token)
            message = capture.messages.get(str(message_id)) if capture else None
            if (capture is not None and message is not None
                    and str(message["channel_id"]) == str(channel_id)
                    and not message["flags"] & EPHEMERAL):
                check_message(data, (), creating=False)
                return capture._edit_message(message, data, ())
        raise _discord_error(404, 10008, "Unknown Message")

    def drop_message(self, message_id: str) -> None:
        """A message deleted in Discord (by a moderator, say): no longer there to edit."""
        for token in self._tokens:
            capture = _router.captures.get(token)
            if capture is not None:
                capture.messages.pop(message_id, None)

    @staticmethod
    @contextmanager
    def recording(
        capture: InteractionCapture, log: list[SentRequest] | None = None
    ) -> Iterator[list[SentRequest]]:
        """Collect into ``log`` what this context (and tasks it starts) sends for the interaction.

        Tasks copy the context they are created in, so a follow-up sent from a
        task the command spawned still lands in this dispatch's log.
        """
        log = [] if log is None else log
        # Requests from contexts that never saw this dispatch (a task started
        # earlier, another command using a stored interaction) land here too.
        capture.requests = log
        reset = _current_log.set((capture.token, log))
        try:
            yield log
        finally:
            _current_log.reset(reset)


# --------------------------------------------------------------------------- reading the log


def _request_kind(request: SentRequest) -> str | None:
    if request.route == CALLBACK_ROUTE:
        return {
            CHANNEL_MESSAGE: "response",
            DEFERRED_CHANNEL_MESSAGE: "deferral",
            UPDATE_MESSAGE: "update",
            MODAL: "modal",
        }.get(request.callback_type or 0)
    if request.route == EXECUTE_ROUTE:
        return "followup"
    if request.route.startswith("PATCH "):
        return "edit"
    if request.route.startswith("DELETE "):
        return "delete"
    return None


def _message_id(request: SentRequest) -> str | None:
    """The message a request created, or for edits and deletions the one it targeted.

    Targets keep Discord's ``@original`` alias, which is how a reader tells an
    edit of the reply from an edit of a follow-up.
    """
    if request.route.startswith(("PATCH ", "DELETE ")):
        return request.url.rsplit("/", 1)[-1]
    return None if request.message is None else request.message.get("id")


def _to_message(request: SentRequest, kind: str) -> SentMessage:
    """One request as a message record.

    Follow-ups and edits read the resulting message, so that a follow-up which
    filled in a deferral, or an edit, shows what the user now sees, with the
    visibility Discord gave it.
    """
    payload = request.payload or {}
    data = (payload.get("data") or {}) if request.route == CALLBACK_ROUTE else payload
    if kind in ("followup", "edit") and request.message is not None:
        data = request.message
    return SentMessage(
        kind=kind,
        content=data.get("content"),
        embeds=[dict(e) for e in data.get("embeds") or []],
        flags=int(data.get("flags") or 0) & ~LOADING,
        files=list(request.files),
        components=list(data.get("components") or []),
        message_id=_message_id(request),
        title=data.get("title") if kind == "modal" else None,
        request=request,
    )


def sent_messages(requests: Iterable[SentRequest]) -> list[SentMessage]:
    """What the user would see, in order; failed requests showed nothing and are left out."""
    messages = []
    for request in requests:
        kind = _request_kind(request) if request.ok else None
        if kind is not None:
            messages.append(_to_message(request, kind))
    return messages


def autocomplete_choices(requests: Iterable[SentRequest]) -> list[dict[str, Any]]:
    """The choices of the (first successful) autocomplete answer, ``[]`` if none was sent."""
    for request in requests:
        if request.ok and request.callback_type == AUTOCOMPLETE_RESULT:
            return list(((request.payload or {}).get("data") or {}).get("choices") or [])
    return []
