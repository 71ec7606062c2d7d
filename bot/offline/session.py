"""Run a discord.py bot's slash commands with no token and no network.

:class:`OfflineDiscord` prepares the client the way ``Client.login`` would
(loop-bound objects, the bot's own user, ``setup_hook`` so cogs register their
commands) but skips the HTTP login. Interactions are then built from raw
payloads and handed to the real ``CommandTree``, so option parsing,
transformers, checks and error handlers all run as they do live; only the
webhook layer underneath is replaced (see :mod:`bot.offline.transport`).

It relies on discord.py's private API, through :mod:`bot.offline.discord_internals`
alone (hence the pinned minor version).
"""

from __future__ import annotations

import asyncio
import contextvars
import copy
import weakref
from collections.abc import Awaitable, Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord
from discord import app_commands

from .discord_internals import (
    NETWORK_METHODS,
    cache_guild,
    cached_guild,
    dispatch_component,
    emit_event,
    is_library_timer,
    known_application_id,
    make_interaction,
    prepare_client,
    replace_http_methods,
    restore_http_methods,
    route_channel,
    route_label,
    route_message,
    run_app_command,
    set_identity,
)
from .payloads import (
    CDN,
    DEFAULT_APP_PERMISSIONS,
    PRIVATE_THREAD,
    OfflineInputError,
    Snowflakes,
    ThreadPlace,
    build_command_data,
    guild_payload,
    interaction_payload,
    thread_channel_payload,
    user_payload,
)
from .transport import (
    RESPONSE_DEADLINE,
    InteractionCapture,
    OfflineNetworkError,
    OfflineTransport,
    SentMessage,
    SentRequest,
    autocomplete_choices,
    discord_error,
    record_request,
    sent_messages,
)

__all__ = ["Dispatch", "OfflineDiscord"]

_COMMAND, _COMPONENT, _AUTOCOMPLETE = 2, 3, 4
_BUTTON, _SELECT = 2, 3
THREADS_ROUTE = "POST /channels/{channel_id}/threads"
MESSAGE_ROUTE = "PATCH /channels/{channel_id}/messages/{message_id}"
_CREATE_THREADS = {
    False: discord.Permissions(create_public_threads=True).value,
    True: discord.Permissions(create_private_threads=True).value,
}


# --------------------------------------------------------------------------- task tracking


class _TaskScope:
    """Tasks started, directly or transitively, while one interaction is handled.

    A command may hand its follow-up to a task of its own, and discord.py runs
    event listeners as tasks; the dispatch is only finished when those are.
    Library timers (view timeouts, ``delete_after``, typing loops) belong to the
    interaction but would keep a dispatch waiting for minutes: they are kept
    apart, and cancelled when the session closes rather than waited for.
    """

    def __init__(self) -> None:
        self.tasks: set[asyncio.Task[Any]] = set()
        self.timers: set[asyncio.Task[Any]] = set()
        self.errors: list[BaseException] = []

    def adopt(self, task: asyncio.Task[Any]) -> None:
        if is_library_timer(task):
            self.timers.add(task)
            return
        self.tasks.add(task)
        task.add_done_callback(self._finished)

    def _finished(self, task: asyncio.Task[Any]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            self.errors.append(task.exception())  # type: ignore[arg-type]

    async def settle(self, timeout: float) -> set[asyncio.Task[Any]]:
        """Wait for the tasks (and the tasks they start); return those still running."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while pending := {task for task in self.tasks if not task.done()}:
            remaining = deadline - loop.time()
            if remaining <= 0:
                return pending
            await asyncio.wait(pending, timeout=remaining)
        return set()


_scope: contextvars.ContextVar[_TaskScope | None] = contextvars.ContextVar(
    "huzzah_offline_task_scope", default=None
)

TaskFactory = Callable[..., "asyncio.Future[Any]"]


class _TaskFactoryHook:
    """A loop task factory that files each new task under the creating context's scope.

    ``loop.create_task`` calls the factory synchronously in the caller's
    context, which is what lets the scope be read there. Installs are counted
    per loop so overlapping sessions can close in any order.
    """

    def __init__(self) -> None:
        self._loops: weakref.WeakKeyDictionary[
            asyncio.AbstractEventLoop, tuple[TaskFactory | None, int]
        ] = weakref.WeakKeyDictionary()

    def install(self, loop: asyncio.AbstractEventLoop) -> None:
        if loop in self._loops:
            previous, users = self._loops[loop]
            self._loops[loop] = (previous, users + 1)
            return
        previous = loop.get_task_factory()
        loop.set_task_factory(self._factory(previous))
        self._loops[loop] = (previous, 1)

    def uninstall(self, loop: asyncio.AbstractEventLoop) -> None:
        previous, users = self._loops[loop]
        if users > 1:
            self._loops[loop] = (previous, users - 1)
            return
        del self._loops[loop]
        loop.set_task_factory(previous)

    @staticmethod
    def _factory(previous: TaskFactory | None) -> TaskFactory:
        def factory(
            loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, Any], **kwargs: Any
        ) -> asyncio.Future[Any]:
            if previous is None:
                task = asyncio.Task(coro, loop=loop, **kwargs)
            else:
                task = previous(loop, coro, **kwargs)
            scope = _scope.get()
            if scope is not None and isinstance(task, asyncio.Task):
                scope.adopt(task)
            return task

        return factory


_task_hook = _TaskFactoryHook()


# --------------------------------------------------------------------------- results


@dataclass
class Dispatch:
    """Everything that came of delivering one interaction payload."""

    interaction: discord.Interaction[Any]
    requests: list[SentRequest]
    errors: list[BaseException] = field(default_factory=list)
    still_running: int = 0

    @property
    def messages(self) -> list[SentMessage]:
        return sent_messages(self.requests)

    @property
    def choices(self) -> list[dict[str, Any]]:
        return autocomplete_choices(self.requests)

    def raise_errors(self) -> None:
        """Re-raise the first exception the handling let escape (a live bot would only log it)."""
        if self.errors:
            raise self.errors[0]


# --------------------------------------------------------------------------- the session


class OfflineDiscord:
    """A Discord stand-in for one bot: deliver interactions, collect the replies.

    ``client`` is a ``commands.Bot`` or any ``discord.Client`` with a ``tree``
    attribute holding its ``app_commands.CommandTree``. Use as an async
    context manager, or call :meth:`start` (also done on first use) and
    :meth:`close`.

    ``settle_timeout`` bounds how long a dispatch waits for tasks the handling
    started; ``response_deadline`` is Discord's 3-second limit on the first
    response (``None`` disables it, e.g. under a debugger); ``on_answered`` is told
    an interaction's id when its first response is accepted.
    """

    def __init__(
        self,
        client: discord.Client,
        *,
        application_id: int | None = None,
        bot_user_id: int | None = None,
        bot_name: str = "Huzzah",
        settle_timeout: float = 5.0,
        response_deadline: float | None = RESPONSE_DEADLINE,
        ids: Snowflakes | None = None,
        on_answered: Callable[[int], None] | None = None,
    ) -> None:
        tree = getattr(client, "tree", None)
        if not isinstance(tree, app_commands.CommandTree):
            raise TypeError("OfflineDiscord needs a client with a CommandTree as .tree")
        self.client = client
        self.tree: app_commands.CommandTree[Any] = tree
        self.ids = ids or Snowflakes()
        self.application_id: int = (
            application_id or known_application_id(client) or self.ids.next()
        )
        self.bot_user: dict[str, Any] = user_payload(
            bot_user_id or self.application_id, bot_name, bot=True
        )
        self.settle_timeout = settle_timeout
        self.network_attempts: list[str] = []
        self._transport = OfflineTransport(
            ids=self.ids, author=self.bot_user, response_deadline=response_deadline,
            on_answered=on_answered,
        )
        self._guilds: dict[int, _KnownGuild] = {}
        # channel id -> (guild id, the bot's permissions there), from the latest interaction
        self._seen_channels: dict[int, tuple[int, int]] = {}
        self._leftovers: set[asyncio.Task[Any]] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._start_lock = asyncio.Lock()
        self._closed = False

    # -- lifecycle -----------------------------------------------------------------------

    async def __aenter__(self) -> OfflineDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def start(self) -> None:
        """Do what ``Client.login`` does, minus the HTTP calls; run ``setup_hook``."""
        async with self._start_lock:
            if self._closed:
                raise RuntimeError("this offline session is closed")
            if self._loop is not None:
                return
            self._loop = asyncio.get_running_loop()
            self._transport.install()
            _task_hook.install(self._loop)
            self._block_network()
            try:
                await self._log_in()
            except BaseException:
                self._closed = True
                self._teardown()
                raise

    async def _log_in(self) -> None:
        await prepare_client(self.client)
        set_identity(self.client, self.application_id, self.bot_user)
        await self.client.setup_hook()

    async def close(self) -> None:
        """Cancel tasks still running from earlier dispatches, close the client, unpatch."""
        if self._closed:
            return
        self._closed = True
        if self._loop is None:
            return
        self._leftovers = {task for task in self._leftovers if not task.done()}
        for task in self._leftovers:
            task.cancel()
        await asyncio.gather(*self._leftovers, return_exceptions=True)
        try:
            await self.client.close()
        finally:
            self._teardown()

    def _teardown(self) -> None:
        self._transport.uninstall()
        if self._loop is not None:
            _task_hook.uninstall(self._loop)
        restore_http_methods(self.client)

    def _block_network(self) -> None:
        """Make every network entry point of ``client.http`` fail loudly and be counted."""
        refusals = {name: self._refusal(name) for name in NETWORK_METHODS}
        replace_http_methods(self.client, {**refusals, "get_from_cdn": self._cdn,
                                           "request": self._rest})

    async def _rest(self, route: Any, **kwargs: Any) -> Any:
        """Discord's REST API as far as an offline session answers it: opening a thread
        from a channel an interaction came from, and editing a message the bot sent in
        answer to an interaction. Any other call is refused and counted."""
        label = route_label(route)
        if label == THREADS_ROUTE:
            return await self._open_thread(route_channel(route) or 0, kwargs.get("json") or {})
        if label == MESSAGE_ROUTE and "json" in kwargs:
            return await self._edit_message(route_channel(route) or 0,
                                            route_message(route) or 0, kwargs["json"] or {})
        return await self._refusal("request")(route, **kwargs)

    async def _edit_message(self, channel_id: int, message_id: int,
                            body: Mapping[str, Any]) -> dict[str, Any]:
        """``PATCH /channels/{id}/messages/{id}`` with the bot's token: the message as
        edited, when it is one the bot sent in that channel and not a private one (the
        channel's messages do not include those); else Discord's 404 Unknown Message."""
        await asyncio.sleep(0)
        request = SentRequest(method="PATCH",
                              url=f"/channels/{channel_id}/messages/{message_id}",
                              payload=dict(body), route=MESSAGE_ROUTE)
        record_request(request)
        try:
            edited = self._transport.edit_channel_message(channel_id, message_id, body)
        except discord.HTTPException as error:
            request.status = error.status
            raise
        request.message = copy.deepcopy(edited)
        request.response = copy.deepcopy(edited)
        return copy.deepcopy(edited)

    async def _open_thread(self, channel_id: int, body: Mapping[str, Any]) -> dict[str, Any]:
        """``POST /channels/{id}/threads`` without a message: the thread, when the bot may
        open one there (its permissions there are those the channel's latest interaction
        carried as ``app_permissions``); else Discord's 403 Missing Permissions."""
        await asyncio.sleep(0)
        request = SentRequest(method="POST", url=f"/channels/{channel_id}/threads",
                              payload=dict(body), route=THREADS_ROUTE)
        record_request(request)
        seen = self._seen_channels.get(channel_id)
        if seen is None:
            request.status = 404
            raise discord_error(404, 10003, "Unknown Channel")
        guild_id, app_permissions = seen
        private = body.get("type") == PRIVATE_THREAD
        if not app_permissions & _CREATE_THREADS[private]:
            request.status = 403
            raise discord_error(403, 50013, "Missing Permissions")
        place = ThreadPlace(parent_id=channel_id, private=private,
                            owner_id=int(self.bot_user["id"]))
        thread = thread_channel_payload(self.ids.next(), guild_id, place,
                                        name=str(body.get("name") or "thread"))
        del thread["permissions"]  # only an interaction's channel carries them
        thread["thread_metadata"]["auto_archive_duration"] = body.get(
            "auto_archive_duration", 4320)
        # THREAD_CREATE: the gateway tells the bot of a thread it opened, private or not.
        known = self._guilds.setdefault(guild_id, _KnownGuild())
        known.threads[int(thread["id"])] = thread
        cache_guild(self.client, known.payload(guild_id))
        request.response = thread
        return copy.deepcopy(thread)

    async def _cdn(self, url: str) -> bytes:
        """What Discord's CDN serves: the files attached offline; nothing else is reachable."""
        await asyncio.sleep(0)  # a download yields to the loop, as a real one does
        if url in CDN:
            return CDN[url]
        return await self._refusal("get_from_cdn")(url)

    def _refusal(self, name: str) -> Callable[..., Awaitable[Any]]:
        async def refuse(*args: Any, **kwargs: Any) -> Any:
            what = f"client.http.{name}{_describe(args)}"
            self.network_attempts.append(what)
            raise OfflineNetworkError(f"{what}: an offline session cannot reach Discord")

        return refuse

    # -- delivering interactions ---------------------------------------------------------

    async def invoke(
        self,
        path: str | Sequence[str],
        options: Mapping[str, object] | None = None,
        *,
        channel_id: int,
        user_id: int,
        guild_id: int | None,
        permissions: int = 0,
        roles: Sequence[int] = (),
        user_name: str = "player",
        thread: ThreadPlace | None = None,
        app_permissions: int = DEFAULT_APP_PERMISSIONS,
        locale: str = "en-US",
    ) -> list[SentMessage]:
        """Run ``/path options`` as ``user_id`` and return what the bot sent, in order.

        Raises an ``OfflineInputError`` for input the Discord client would
        refuse, and re-raises any exception the bot let escape.
        """
        await self.start()
        data = build_command_data(self.tree, _words(path), options or {}, guild_id=guild_id)
        payload = self._payload(
            _COMMAND,
            data,
            channel_id=channel_id,
            user_id=user_id,
            guild_id=guild_id,
            permissions=permissions,
            roles=roles,
            user_name=user_name,
            locale=locale,
            thread=thread,
            app_permissions=app_permissions,
        )
        return await self.invoke_raw(payload)

    async def autocomplete(
        self,
        path: str | Sequence[str],
        options: Mapping[str, object] | None,
        focused: str,
        *,
        channel_id: int,
        user_id: int,
        guild_id: int | None,
        permissions: int = 0,
        roles: Sequence[int] = (),
        user_name: str = "player",
        thread: ThreadPlace | None = None,
        app_permissions: int = DEFAULT_APP_PERMISSIONS,
        locale: str = "en-US",
    ) -> list[dict[str, Any]]:
        """Ask for suggestions while ``focused`` is being typed; return the bot's choices."""
        await self.start()
        data = build_command_data(
            self.tree, _words(path), options or {}, guild_id=guild_id, focused=focused
        )
        payload = self._payload(
            _AUTOCOMPLETE,
            data,
            channel_id=channel_id,
            user_id=user_id,
            guild_id=guild_id,
            permissions=permissions,
            roles=roles,
            user_name=user_name,
            locale=locale,
            thread=thread,
            app_permissions=app_permissions,
        )
        result = await self.dispatch(payload)
        result.raise_errors()
        return result.choices

    async def press(
        self,
        message: SentMessage,
        label: str,
        *,
        channel_id: int,
        user_id: int,
        guild_id: int | None,
        permissions: int = 0,
        roles: Sequence[int] = (),
        user_name: str = "player",
        thread: ThreadPlace | None = None,
        app_permissions: int = DEFAULT_APP_PERMISSIONS,
    ) -> list[SentMessage]:
        """Press the button labelled ``label`` under ``message``, as ``user_id``; return
        what the bot sent (MESSAGE_COMPONENT, type 3, as Discord delivers it)."""
        await self.start()
        buttons = {b.get("label"): b for b in _buttons(message.components)}
        if label not in buttons:
            raise OfflineInputError(f"no button {label!r} under that message "
                                    f"(there are: {', '.join(map(str, buttons)) or 'none'})")
        return await self._use(
            message, {"custom_id": buttons[label]["custom_id"], "component_type": _BUTTON},
            channel_id=channel_id, user_id=user_id, guild_id=guild_id,
            permissions=permissions, roles=roles, user_name=user_name,
            thread=thread, app_permissions=app_permissions)

    async def press_forged(
        self,
        message: SentMessage,
        label: str,
        custom_id: str,
        *,
        channel_id: int,
        user_id: int,
        guild_id: int | None,
        permissions: int = 0,
        roles: Sequence[int] = (),
        user_name: str = "player",
        thread: ThreadPlace | None = None,
        app_permissions: int = DEFAULT_APP_PERMISSIONS,
    ) -> list[SentMessage]:
        """Press the button labelled ``label`` under ``message`` with ``custom_id`` in place
        of its own, as a client that forges one would (the message delivered with the press
        holds the forged id too, as discord.py looks the button up there)."""
        await self.start()
        held = message.request.message if message.request is not None else None
        if held is None:
            raise OfflineInputError("that message was never created, so it has no buttons")
        forged = copy.deepcopy(held)
        buttons = {b.get("label"): b for b in _buttons(forged.get("components") or [])}
        if label not in buttons:
            raise OfflineInputError(f"no button {label!r} under that message")
        buttons[label]["custom_id"] = custom_id  # type: ignore[index]
        payload = self._payload(_COMPONENT, {"custom_id": custom_id, "component_type": _BUTTON},
                                channel_id=channel_id, user_id=user_id, guild_id=guild_id,
                                permissions=permissions, roles=roles, user_name=user_name,
            thread=thread, app_permissions=app_permissions)
        payload["message"] = forged
        return await self.invoke_raw(payload)

    async def pick(
        self,
        message: SentMessage,
        option: str,
        *,
        channel_id: int,
        user_id: int,
        guild_id: int | None,
        permissions: int = 0,
        roles: Sequence[int] = (),
        user_name: str = "player",
        thread: ThreadPlace | None = None,
        app_permissions: int = DEFAULT_APP_PERMISSIONS,
    ) -> list[SentMessage]:
        """Pick the option labelled ``option`` in the select menu under ``message``."""
        await self.start()
        menus = [c for c in _components(message.components) if c.get("type") == _SELECT]
        for menu in menus:
            values = [o["value"] for o in menu.get("options") or [] if o["label"] == option]
            if values:
                break
        else:
            raise OfflineInputError(f"no menu option {option!r} under that message")
        return await self._use(
            message,
            {"custom_id": menu["custom_id"], "component_type": _SELECT, "values": values},
            channel_id=channel_id, user_id=user_id, guild_id=guild_id,
            permissions=permissions, roles=roles, user_name=user_name,
            thread=thread, app_permissions=app_permissions)

    async def _use(self, message: SentMessage, data: dict[str, Any],
                   **where: Any) -> list[SentMessage]:
        """Deliver a MESSAGE_COMPONENT interaction (type 3) on ``message``, as Discord does:
        with the message, as it holds it, in the payload."""
        held = message.request.message if message.request is not None else None
        if held is None:
            raise OfflineInputError("that message was never created, so it has no "
                                    "buttons or menus")
        payload = self._payload(_COMPONENT, data, **where)
        payload["message"] = held
        return await self.invoke_raw(payload)

    async def invoke_raw(self, payload: dict[str, Any]) -> list[SentMessage]:
        """Deliver a hand-built payload; same result and errors as :meth:`invoke`."""
        result = await self.dispatch(payload)
        result.raise_errors()
        return result.messages

    def delete(self, message: SentMessage) -> None:
        """Delete a message the bot sent, as a moderator may in Discord's client."""
        if message.message_id is not None:
            self._transport.drop_message(message.message_id)

    def forget(self, payload: dict[str, Any]) -> None:
        """Drop the record of an interaction that is over: no follow-up can be sent for it,
        and its messages' buttons can no longer be pressed."""
        self._transport.forget(payload["token"])

    async def dispatch(self, payload: dict[str, Any]) -> Dispatch:
        """Deliver a payload and wait until its handling is over; never raises for the bot.

        Exceptions the handling let escape are collected in ``Dispatch.errors``.
        Delivering the same payload twice shares Discord's record of the
        interaction, so the second response is refused with error 40060.
        """
        await self.start()
        if payload.get("type") not in (_COMMAND, _COMPONENT, _AUTOCOMPLETE):
            raise ValueError("only APPLICATION_COMMAND (2), MESSAGE_COMPONENT (3) and "
                             "AUTOCOMPLETE (4) are dispatched")
        self._seed_guild(payload)
        capture = self._transport.open(payload)
        interaction = make_interaction(self.client, payload)
        scope, log = _TaskScope(), []
        errors: list[BaseException] = []
        try:
            await asyncio.create_task(self._handle(interaction, capture, scope, log))
        except Exception as error:
            errors.append(error)
        still_running = await scope.settle(self.settle_timeout)
        self._leftovers |= still_running | scope.timers
        return Dispatch(interaction, log, errors + scope.errors, len(still_running))

    async def _handle(
        self,
        interaction: discord.Interaction[Any],
        capture: InteractionCapture,
        scope: _TaskScope,
        log: list[SentRequest],
    ) -> None:
        """What ``ConnectionState.parse_interaction_create`` does, awaited instead of spawned."""
        _scope.set(scope)
        with OfflineTransport.recording(capture, log):
            emit_event(self.client, "interaction", interaction)
            if interaction.type is discord.InteractionType.component:
                dispatch_component(self.client, interaction)
                return
            await run_app_command(self.tree, interaction)

    # -- state ---------------------------------------------------------------------------

    def _payload(self, kind: int, data: dict[str, Any], **where: Any) -> dict[str, Any]:
        """A payload from this bot's application, with a fresh interaction id."""
        return interaction_payload(
            kind=kind,
            data=data,
            application_id=self.application_id,
            interaction_id=self.ids.next(),
            **where,
        )

    def _seed_guild(self, payload: Mapping[str, Any]) -> None:
        """Cache the guild with every channel, thread and role seen so far, as the gateway
        would.

        A live bot knows its guilds from GUILD_CREATE; without that, role ids
        in ``member.roles`` resolve to nothing and role checks fail. A thread's parent is
        a text or forum channel of the guild; the bot sees public threads and forum posts
        (the guilds intent), but not a private thread it was never added to: that one
        reaches it only as the interaction's channel.
        """
        guild_id = payload.get("guild_id")
        if guild_id is None:
            return
        self._seen_channels[int(payload["channel_id"])] = (
            int(guild_id), int(payload.get("app_permissions") or 0))
        known = self._guilds.setdefault(int(guild_id), _KnownGuild())
        if not known.learn(payload) and cached_guild(self.client, int(guild_id)) is not None:
            return
        cache_guild(self.client, known.payload(int(guild_id)))


@dataclass
class _KnownGuild:
    """What the gateway would have told the bot of one guild so far."""

    channels: set[int] = field(default_factory=set)
    forums: set[int] = field(default_factory=set)
    roles: set[int] = field(default_factory=set)
    threads: dict[int, dict[str, Any]] = field(default_factory=dict)

    def learn(self, payload: Mapping[str, Any]) -> bool:
        """Take in the channel and roles of an interaction; ``True`` if any was new."""
        member = payload.get("member") or {}
        before = (len(self.channels), len(self.forums), len(self.roles), len(self.threads))
        self.roles |= {int(role) for role in member.get("roles", [])}
        channel = payload.get("channel") or {}
        channel_id = int(payload["channel_id"])
        if "thread_metadata" not in channel:
            self.channels.add(channel_id)
        else:
            parent = int(channel["parent_id"])
            (self.forums if "applied_tags" in channel else self.channels).add(parent)
            if channel.get("type") != PRIVATE_THREAD:
                self.threads[channel_id] = {k: v for k, v in channel.items()
                                            if k != "permissions"}
        return before != (len(self.channels), len(self.forums), len(self.roles),
                          len(self.threads))

    def payload(self, guild_id: int) -> dict[str, Any]:
        return guild_payload(guild_id, channel_ids=sorted(self.channels),
                             role_ids=sorted(self.roles), forum_ids=sorted(self.forums),
                             threads=list(self.threads.values()))


def _components(components: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """Every component, rows opened."""
    found: list[Mapping[str, Any]] = []
    for component in components:
        found.append(component)
        found += _components(component.get("components") or [])
    return found


def _buttons(components: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    return [c for c in _components(components) if c.get("type") == _BUTTON]


def _words(path: str | Sequence[str]) -> list[str]:
    """``"/roll d6"``, ``"roll d6"`` and ``["roll", "d6"]`` all name the same command."""
    return path.lstrip("/").split() if isinstance(path, str) else list(path)


def _describe(args: tuple[Any, ...]) -> str:
    label = route_label(args[0]) if args else None
    return "(...)" if label is None else f"({label})"
