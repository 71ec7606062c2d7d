"""Every reach of the offline harness into discord.py's private or undocumented API.

discord.py has no public way to hand it an interaction without the gateway, nor to see
what it sends without the network, so the harness leans on its internals: names with a
leading underscore, objects built from raw payloads, its HTTP routes and its own tasks.
They are all here, each behind a small function whose docstring says what it relies on;
the rest of :mod:`bot.offline` calls only these. ``tests/bot/test_discord_internals.py``
checks each against the installed discord.py, so an upgrade that moves one fails there,
naming it. pyproject.toml pins discord.py's minor version for the same reason.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands
from discord.http import Route
from discord.user import ClientUser
from discord.webhook import async_ as webhook_async

__all__ = [
    "CALLBACK_ROUTE",
    "EXECUTE_ROUTE",
    "LIBRARY_TIMERS",
    "MESSAGE_PATH",
    "NETWORK_METHODS",
    "NO_DESCRIPTION",
    "ORIGINAL_MESSAGE_PATH",
    "WebhookRequest",
    "WebhookRoute",
    "cache_guild",
    "cached_guild",
    "command_schema",
    "dispatch_component",
    "emit_event",
    "http_error",
    "is_library_timer",
    "json_codec",
    "known_application_id",
    "make_interaction",
    "prepare_client",
    "replace_http_methods",
    "replace_webhook_request",
    "restore_http_methods",
    "route_channel",
    "route_label",
    "route_message",
    "run_app_command",
    "set_identity",
    "upload_bytes",
    "webhook_request_stand_in",
]

JsonEncoder = Callable[[Any], str]
JsonDecoder = Callable[[str | bytes], Any]


# --------------------------------------------------------------------------- the client


async def prepare_client(client: discord.Client) -> None:
    """What ``Client.login`` does before its first HTTP call: bind the loop-bound objects.

    Relies on ``Client._async_setup_hook`` (private), which ``login`` awaits first.
    """
    await client._async_setup_hook()


def known_application_id(client: discord.Client) -> int | None:
    """The application id the client was built with, if any.

    Relies on ``Client._connection`` (private) holding it as ``application_id``.
    """
    return client._connection.application_id


def set_identity(client: discord.Client, application_id: int, user: Mapping[str, Any]) -> None:
    """Make the client know itself as ``login`` and READY would: its application id (unless
    it was given one) and its own user, built from a user payload with ``bot: true``.

    Relies on ``Client._connection`` (private), its ``application_id`` and ``user``
    attributes, and on ``ClientUser(state=..., data=...)`` (undocumented constructor).
    """
    state = client._connection
    if state.application_id is None:
        state.application_id = application_id
    state.user = ClientUser(state=state, data=user)  # type: ignore[arg-type]


def make_interaction(
    client: discord.Client, payload: Mapping[str, Any]
) -> discord.Interaction[Any]:
    """An interaction built from a raw INTERACTION_CREATE payload, as the gateway builds it.

    Relies on ``Interaction(data=..., state=...)`` (undocumented constructor) and on
    ``Client._connection`` (private) being the state it takes.
    """
    return discord.Interaction(data=payload, state=client._connection)  # type: ignore[arg-type]


def emit_event(client: discord.Client, event: str, *args: Any) -> None:
    """Run the client's ``on_<event>`` handlers and listeners, as the gateway does.

    Relies on ``Client.dispatch`` (undocumented).
    """
    client.dispatch(event, *args)


def dispatch_component(client: discord.Client, interaction: discord.Interaction[Any]) -> None:
    """Hand a MESSAGE_COMPONENT interaction to the view store, as the connection state does:
    it finds the pressed item (a persistent view's, or a dynamic item by its custom id) and
    runs its callback in a task of its own.

    Relies on ``Client._connection._view_store.dispatch_view(component_type, custom_id,
    interaction)`` (private).
    """
    data = interaction.data or {}
    client._connection._view_store.dispatch_view(
        data["component_type"], data["custom_id"], interaction  # type: ignore[typeddict-item]
    )


async def run_app_command(
    tree: app_commands.CommandTree[Any], interaction: discord.Interaction[Any]
) -> None:
    """Run an APPLICATION_COMMAND or AUTOCOMPLETE interaction through the tree, awaited
    rather than spawned: the checks, option parsing, transformers, the command and the
    tree's error handler all run as they do live.

    Relies on ``CommandTree._call`` and ``CommandTree._dispatch_error`` (private), used as
    ``CommandTree._from_interaction``'s own wrapper uses them.
    """
    try:
        await tree._call(interaction)
    except app_commands.AppCommandError as error:
        await tree._dispatch_error(interaction, error)


def cached_guild(client: discord.Client, guild_id: int) -> discord.Guild | None:
    """The guild as the client holds it in cache, if it does.

    Relies on ``Client._connection._get_guild`` (private).
    """
    return client._connection._get_guild(guild_id)


def cache_guild(client: discord.Client, data: Mapping[str, Any]) -> discord.Guild:
    """Put a guild in the client's cache from a GUILD_CREATE payload, replacing any held,
    as the gateway does.

    Relies on ``Guild(data=..., state=...)`` (undocumented constructor) and on
    ``Client._connection._add_guild`` (private).
    """
    state = client._connection
    guild = discord.Guild(data=data, state=state)  # type: ignore[arg-type]
    state._add_guild(guild)
    return guild


# --------------------------------------------------------------------------- client.http

#: The only ``client.http`` entry points that reach the network: REST calls all funnel
#: through ``request``; ``get_from_cdn`` downloads attachments, ``static_login`` and
#: ``ws_connect`` open the session and the gateway.
NETWORK_METHODS = ("request", "get_from_cdn", "static_login", "ws_connect")


def replace_http_methods(
    client: discord.Client, replacements: Mapping[str, Callable[..., Awaitable[Any]]]
) -> None:
    """Put ``replacements`` (by method name) in place of ``client.http``'s own methods,
    on this client alone.

    Relies on ``Client.http`` (undocumented), an ``HTTPClient`` whose methods are looked up
    on the instance.
    """
    for name, replacement in replacements.items():
        setattr(client.http, name, replacement)


def restore_http_methods(client: discord.Client) -> None:
    """Undo :func:`replace_http_methods`: ``client.http`` uses its class's methods again.

    Relies on ``Client.http`` (undocumented) keeping no instance attribute of those names.
    """
    for name in NETWORK_METHODS:
        client.http.__dict__.pop(name, None)


def route_channel(value: object) -> int | None:
    """The channel a REST route addresses (``/channels/{channel_id}/...``), else None.

    Relies on ``discord.http.Route`` keeping the ``channel_id`` it was given.
    """
    channel_id = getattr(value, "channel_id", None) if isinstance(value, Route) else None
    return int(channel_id) if channel_id is not None else None


def route_message(value: object) -> int | None:
    """The message a REST route addresses (``/channels/{c}/messages/{message_id}``), else
    None.

    Relies on ``discord.http.Route`` keeping the ``url`` it formatted from its path.
    """
    url = getattr(value, "url", "") if isinstance(value, Route) else ""
    last = url.rsplit("/", 1)[-1]
    return int(last) if "/messages/" in url and last.isdigit() else None


def route_label(value: object) -> str | None:
    """``"GET /users/@me"`` for the route ``client.http.request`` was given, else None.

    Relies on ``discord.http.Route`` (an undocumented module) and its ``method`` and
    ``path`` attributes.
    """
    if isinstance(value, Route):
        return f"{value.method} {value.path}"
    return None


# --------------------------------------------------------------------------- the webhook adapter

#: How discord.py names the routes of an interaction's responses (``Route.key`` and
#: ``Route.path``): the callback, a follow-up, and an edit or deletion of a message.
CALLBACK_ROUTE = "POST /interactions/{webhook_id}/{webhook_token}/callback"
EXECUTE_ROUTE = "POST /webhooks/{webhook_id}/{webhook_token}"
ORIGINAL_MESSAGE_PATH = "/webhooks/{webhook_id}/{webhook_token}/messages/@original"
MESSAGE_PATH = "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"


@dataclass(frozen=True)
class WebhookRoute:
    """Where a webhook request goes: discord.py's route, read once."""

    method: str
    path: str  # the template, as CALLBACK_ROUTE and the others spell it
    key: str  # "METHOD path"
    url: str
    webhook_id: str | None
    webhook_token: str | None


@dataclass(frozen=True)
class WebhookRequest:
    """What discord.py hands its webhook adapter for one request."""

    route: WebhookRoute
    payload: dict[str, Any] | None
    multipart: list[dict[str, Any]] | None
    files: Sequence[discord.File]
    params: dict[str, Any] | None


WebhookHandler = Callable[[WebhookRequest], Awaitable[Any]]


def _webhook_route(route: Route) -> WebhookRoute:
    """Relies on ``Route.method``, ``path``, ``key``, ``url``, ``webhook_id`` and
    ``webhook_token``."""
    webhook_id = None if route.webhook_id is None else str(route.webhook_id)
    return WebhookRoute(route.method, route.path, route.key, route.url, webhook_id,
                        route.webhook_token)


def webhook_request_stand_in(handler: WebhookHandler) -> Callable[..., Awaitable[Any]]:
    """A stand-in for ``AsyncWebhookAdapter.request`` that hands ``handler`` the request.

    Every interaction response, follow-up and edit goes through that one method, looked up
    on the class through the ``async_context`` variable's adapter. The stand-in takes every
    parameter the real one takes, by the same names; ``handler``'s answer is the JSON
    Discord would have answered.

    Relies on ``discord.webhook.async_.AsyncWebhookAdapter.request(route, session, *,
    payload, multipart, proxy, proxy_auth, files, reason, auth_token, params)`` (an
    undocumented module).
    """

    async def request(
        self: webhook_async.AsyncWebhookAdapter,
        route: Route,
        session: Any = None,
        *,
        payload: dict[str, Any] | None = None,
        multipart: list[dict[str, Any]] | None = None,
        proxy: str | None = None,
        proxy_auth: Any = None,
        files: Sequence[discord.File] | None = None,
        reason: str | None = None,
        auth_token: str | None = None,
        params: dict[str, Any] | None = None,
    ) -> Any:
        sent = WebhookRequest(_webhook_route(route), payload, multipart, files or (), params)
        return await handler(sent)

    return request


def replace_webhook_request(
    request: Callable[..., Awaitable[Any]],
) -> Callable[..., Awaitable[Any]]:
    """Put ``request`` in place of ``AsyncWebhookAdapter.request``; return what was there.

    Relies on ``discord.webhook.async_.AsyncWebhookAdapter`` (an undocumented module)
    being the class whose ``request`` every interaction response goes through.
    """
    previous = webhook_async.AsyncWebhookAdapter.request
    webhook_async.AsyncWebhookAdapter.request = request  # type: ignore[method-assign]
    return previous


def upload_bytes(file: discord.File) -> bytes:
    """The bytes of a file the bot uploads, read now: discord.py closes the file once the
    request returns. The file is left rewound, as discord.py leaves it for a retry.

    Relies on ``File.reset()`` (undocumented) rewinding to where the file began.
    """
    file.reset()
    data = file.fp.read()
    file.reset()
    return data


def json_codec() -> tuple[JsonEncoder, JsonDecoder]:
    """The JSON encoder and decoder discord.py's HTTP adapters use (orjson when installed).

    Relies on ``discord.utils._to_json`` and ``discord.utils._from_json`` (private).
    """
    return discord.utils._to_json, discord.utils._from_json


@dataclass(frozen=True)
class _ErrorResponse:
    """The part of an aiohttp response discord.HTTPException reads."""

    status: int
    reason: str


def http_error(
    kind: type[discord.HTTPException], status: int, reason: str, body: dict[str, Any]
) -> discord.HTTPException:
    """The exception discord.py raises for an HTTP error answered with the JSON ``body``.

    Relies on ``HTTPException(response, message)`` reading only ``response.status`` and
    ``response.reason`` (its documented ``response`` is an aiohttp response).
    """
    return kind(_ErrorResponse(status, reason), body)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- schemas


#: The description discord.py registers for a command or option given none.
NO_DESCRIPTION = "…"


def command_schema(
    command: app_commands.Command[Any, ..., Any] | app_commands.Group,
    tree: app_commands.CommandTree[Any],
) -> dict[str, Any]:
    """The JSON a command is registered with at sync time: its options, choices, ranges,
    contexts, as the Discord client knows them.

    Relies on ``Command.to_dict(tree)`` and ``Group.to_dict(tree)`` (undocumented), which
    ``CommandTree.sync`` sends.
    """
    return command.to_dict(tree)


# --------------------------------------------------------------------------- library tasks

#: discord.py's own delayed jobs, by the qualified name of their coroutine: a view's
#: timeout, ``delete_after`` on a webhook message and on a message, and a typing loop.
LIBRARY_TIMERS = (
    "BaseView.__timeout_task_impl",
    ".<locals>.inner_call",
    ".<locals>.delete",
    "Typing.do_typing",
)


def is_library_timer(task: asyncio.Task[Any]) -> bool:
    """Whether ``task`` runs one of discord.py's delayed jobs (:data:`LIBRARY_TIMERS`).

    Relies on the names of coroutines inside discord.py (``BaseView.__timeout_task_impl``,
    ``WebhookMessage.delete``'s ``inner_call``, ``PartialMessage.delete``'s ``delete``,
    ``Typing.do_typing``) and on their module being under ``discord.``.
    """
    coro = task.get_coro()
    code = getattr(coro, "cr_code", None)
    frame = getattr(coro, "cr_frame", None)
    if code is None or frame is None:
        return False
    module = frame.f_globals.get("__name__", "")
    return module.startswith("discord.") and code.co_qualname.endswith(LIBRARY_TIMERS)
