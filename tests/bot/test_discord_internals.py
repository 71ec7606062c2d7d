"""What the offline harness relies on inside discord.py, checked one reliance at a time.

Each test drives one function of ``bot.offline.discord_internals`` against the installed
discord.py, on a bare client, without the rest of the harness; an upgrade that moves
something the harness relies on fails here, the message naming what moved.
"""

from __future__ import annotations

import asyncio
import inspect
import io
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.http import HTTPClient, Route
from discord.webhook.async_ import AsyncWebhookAdapter

from bot.offline.discord_internals import (
    CALLBACK_ROUTE,
    EXECUTE_ROUTE,
    LIBRARY_TIMERS,
    MESSAGE_PATH,
    NETWORK_METHODS,
    NO_DESCRIPTION,
    ORIGINAL_MESSAGE_PATH,
    WebhookRequest,
    cache_guild,
    cached_guild,
    command_schema,
    dispatch_component,
    emit_event,
    http_error,
    is_library_timer,
    json_codec,
    known_application_id,
    make_interaction,
    prepare_client,
    replace_http_methods,
    replace_webhook_request,
    restore_http_methods,
    route_label,
    route_message,
    run_app_command,
    set_identity,
    upload_bytes,
    webhook_request_stand_in,
)
from bot.offline.payloads import guild_payload, interaction_payload, user_payload

APPLICATION = 4_000
GUILD = 5_000
CHANNEL = 5_001
USER = 7_000
ROLE = 9_000
MANAGE_CHANNELS = discord.Permissions(manage_channels=True).value


# --------------------------------------------------------------------------- a bare client


class Bare(discord.Client):
    """A client with a command tree, one command, and nothing of Huzzah's."""

    def __init__(self, application_id: int | None = None) -> None:
        super().__init__(intents=discord.Intents(guilds=True), application_id=application_id)
        self.tree = app_commands.CommandTree(self)
        self.ran: list[tuple[str, object]] = []
        self.tree.error(self.on_tree_error)
        self.tree.add_command(self.muster_command())

    def muster_command(self) -> app_commands.Command[Any, ..., Any]:
        @app_commands.command(name="muster", description="Count the men")
        @app_commands.describe(men="How many")
        @app_commands.choices(arm=[app_commands.Choice(name="Foot", value="inf"),
                                   app_commands.Choice(name="Horse", value="cav")])
        async def muster(interaction: discord.Interaction, men: app_commands.Range[int, 1, 9],
                         arm: str, note: str = "") -> None:
            if men == 9:
                raise app_commands.CheckFailure("too many")
            self.ran.append(("muster", (men, arm)))
            await interaction.response.send_message(f"{men} {arm}")

        @muster.autocomplete("note")
        async def notes(interaction: discord.Interaction,
                        current: str) -> list[app_commands.Choice[str]]:
            return [app_commands.Choice(name=f"{current} at dawn", value="dawn")]

        return muster

    async def on_tree_error(self, interaction: discord.Interaction,
                            error: app_commands.AppCommandError) -> None:
        self.ran.append(("error", type(error).__name__))

    async def on_muster(self, value: int) -> None:
        self.ran.append(("on_muster", value))


@pytest.fixture
async def client() -> AsyncIterator[Bare]:
    bare = Bare()
    await prepare_client(bare)
    set_identity(bare, APPLICATION, user_payload(APPLICATION, "Huzzah", bot=True))
    yield bare
    await bare.close()


def payload(kind: int, data: dict[str, Any], *, guild: bool = False) -> dict[str, Any]:
    """A raw interaction of type ``kind``: in the guild (an officer with Manage Channels),
    or in a DM."""
    where = {"guild_id": GUILD, "roles": [ROLE], "permissions": MANAGE_CHANNELS} if guild else {}
    return interaction_payload(kind=kind, data=data, application_id=APPLICATION,
                               channel_id=CHANNEL, user_id=USER, **where)


def muster_data(men: int, *, focused: str | None = None) -> dict[str, Any]:
    options: list[dict[str, Any]] = [{"name": "men", "type": 4, "value": men},
                                     {"name": "arm", "type": 3, "value": "cav"}]
    if focused is not None:
        options.append({"name": "note", "type": 3, "value": focused, "focused": True})
    return {"id": "1", "name": "muster", "type": 1, "options": options}


async def finish_new_tasks(before: set[asyncio.Task[Any]]) -> None:
    """Await every task started since ``before``, and those they start."""
    while new := asyncio.all_tasks() - before - {asyncio.current_task()}:
        await asyncio.gather(*new)
        before |= new


def message_payload(message_id: int, content: str) -> dict[str, Any]:
    return {
        "id": str(message_id), "channel_id": str(CHANNEL), "type": 0, "content": content,
        "author": user_payload(APPLICATION, "Huzzah", bot=True), "webhook_id": str(APPLICATION),
        "timestamp": "2024-01-01T00:00:00+00:00", "edited_timestamp": None, "tts": False,
        "mention_everyone": False, "mentions": [], "mention_roles": [], "attachments": [],
        "embeds": [], "components": [], "pinned": False, "flags": 0,
    }


class Wire:
    """Answers webhook requests as Discord would, as far as discord.py reads the answers;
    keeps what was sent."""

    def __init__(self) -> None:
        self.sent: list[WebhookRequest] = []
        self.uploads: list[bytes] = []
        self.next_id = 8_000

    async def answer(self, sent: WebhookRequest) -> Any:
        self.sent.append(sent)
        # discord.py closes uploads once the request returns: read them now, as the harness does
        self.uploads += [upload_bytes(file) for file in sent.files]
        if sent.route.key == CALLBACK_ROUTE:
            return {"interaction": {"id": sent.route.webhook_id, "type": 2}}
        if sent.route.method == "DELETE":
            return None
        self.next_id += 1
        return message_payload(self.next_id, (sent.payload or {}).get("content") or "")

    @property
    def keys(self) -> list[str]:
        return [request.route.key for request in self.sent]


@pytest.fixture
def wire() -> Iterator[Wire]:
    answering = Wire()
    original = replace_webhook_request(webhook_request_stand_in(answering.answer))
    yield answering
    replace_webhook_request(original)


# --------------------------------------------------------------------------- the client


async def test_prepare_client_binds_the_loop_as_login_does() -> None:
    bare = Bare()
    await prepare_client(bare)
    loop = asyncio.get_running_loop()
    assert bare.loop is loop, "Client._async_setup_hook no longer sets Client.loop"
    assert bare.http.loop is loop, "Client._async_setup_hook no longer sets the HTTP client's loop"
    await bare.close()


async def test_known_application_id_is_the_one_the_client_was_given() -> None:
    given, unknown = Bare(application_id=123), Bare()
    assert known_application_id(given) == 123, "Client._connection.application_id moved"
    assert known_application_id(unknown) is None


async def test_set_identity_makes_the_client_know_itself() -> None:
    bare, given = Bare(), Bare(application_id=123)
    for each in (bare, given):
        await prepare_client(each)
        set_identity(each, APPLICATION, user_payload(77, "Huzzah", bot=True))

    assert bare.user is not None and (bare.user.id, bare.user.name, bare.user.bot) == \
        (77, "Huzzah", True), "ClientUser(state=, data=) or ConnectionState.user changed"
    assert bare.application_id == APPLICATION, "ConnectionState.application_id is not read"
    assert given.application_id == 123  # an id the client was built with is kept
    await bare.close()
    await given.close()


async def test_make_interaction_reads_a_raw_payload(client: Bare) -> None:
    raw = payload(2, muster_data(3), guild=True)
    interaction = make_interaction(client, raw)

    assert interaction.type is discord.InteractionType.application_command
    assert interaction.client is client, "Interaction(state=) no longer takes Client._connection"
    assert (interaction.id, interaction.guild_id, interaction.user.id) == \
        (int(raw["id"]), GUILD, USER)
    assert isinstance(interaction.user, discord.Member)
    assert interaction.permissions.manage_channels  # read from member.permissions


async def test_emit_event_runs_the_clients_handler(client: Bare) -> None:
    before = asyncio.all_tasks()
    emit_event(client, "muster", 3)
    await finish_new_tasks(before)
    assert client.ran == [("on_muster", 3)], "Client.dispatch no longer runs on_<event>"


async def test_run_app_command_parses_and_runs_the_command(client: Bare, wire: Wire) -> None:
    await run_app_command(client.tree, make_interaction(client, payload(2, muster_data(3))))

    assert client.ran == [("muster", (3, "cav"))], "CommandTree._call did not run the command"
    assert wire.keys == [CALLBACK_ROUTE]
    assert wire.sent[0].payload == {"type": 4, "data": {"tts": False, "content": "3 cav"}}


async def test_run_app_command_hands_errors_to_the_trees_handler(client: Bare) -> None:
    await run_app_command(client.tree, make_interaction(client, payload(2, muster_data(9))))
    assert client.ran == [("error", "CheckFailure")], \
        "CommandTree._call's error no longer reaches CommandTree._dispatch_error"


async def test_run_app_command_answers_autocomplete(client: Bare, wire: Wire) -> None:
    raw = payload(4, muster_data(3, focused="march"))
    await run_app_command(client.tree, make_interaction(client, raw))

    assert client.ran == []
    assert [request.payload for request in wire.sent] == [
        {"type": 8, "data": {"choices": [{"name": "march at dawn", "value": "dawn"}]}}
    ]


async def test_dispatch_component_runs_the_pressed_button(client: Bare, wire: Wire) -> None:
    pressed: list[str] = []

    class Drill(discord.ui.View):
        def __init__(self) -> None:
            super().__init__(timeout=None)

        @discord.ui.button(label="Advance", custom_id="drill:advance")
        async def advance(self, interaction: discord.Interaction, _: discord.ui.Button) -> None:
            pressed.append(interaction.data["custom_id"])  # type: ignore[index]
            await interaction.response.send_message("Advancing")

    client.add_view(Drill())
    raw = payload(3, {"custom_id": "drill:advance", "component_type": 2})
    before = asyncio.all_tasks()
    dispatch_component(client, make_interaction(client, raw))
    await finish_new_tasks(before)

    assert pressed == ["drill:advance"], "ViewStore.dispatch_view did not run the button"
    assert wire.keys == [CALLBACK_ROUTE]


async def test_cache_guild_puts_the_guild_where_the_client_reads_it(client: Bare) -> None:
    assert cached_guild(client, GUILD) is None
    guild = cache_guild(client, guild_payload(GUILD, channel_ids=[CHANNEL], role_ids=[ROLE]))

    assert cached_guild(client, GUILD) is guild, "ConnectionState._get_guild/_add_guild moved"
    assert client.get_guild(GUILD) is guild
    assert guild.get_role(ROLE) is not None and guild.get_channel(CHANNEL) is not None
    again = cache_guild(client, guild_payload(GUILD, channel_ids=[CHANNEL], role_ids=[ROLE, 1]))
    assert cached_guild(client, GUILD) is again and again.get_role(1) is not None
    member = make_interaction(client, payload(2, muster_data(3), guild=True)).user
    assert [role.id for role in member.roles] == [GUILD, ROLE]  # type: ignore[union-attr]


# --------------------------------------------------------------------------- client.http


class Refused(Exception):
    pass


def refusing(calls: list[tuple[str, tuple[Any, ...], dict[str, Any]]],
             name: str) -> Callable[..., Awaitable[Any]]:
    async def refuse(*args: Any, **kwargs: Any) -> Any:
        calls.append((name, args, kwargs))
        raise Refused(name)

    return refuse


@pytest.mark.parametrize("name", NETWORK_METHODS)
def test_each_network_method_is_an_http_client_coroutine(name: str) -> None:
    method = getattr(HTTPClient, name, None)
    assert inspect.iscoroutinefunction(method), f"HTTPClient.{name} is gone or not async"


async def test_replaced_http_methods_are_what_the_client_calls(client: Bare) -> None:
    calls: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []
    replace_http_methods(client, {name: refusing(calls, name) for name in NETWORK_METHODS})

    with pytest.raises(Refused):
        await client.login("token")
    with pytest.raises(Refused):
        await client.fetch_user(USER)
    assert client.user is not None
    with pytest.raises(Refused):
        await client.user.display_avatar.read()
    assert [(name, route_label(args[0])) for name, args, _ in calls] == [
        ("static_login", None),
        ("request", "GET /users/{user_id}"),
        ("get_from_cdn", None),
    ], "the client no longer reaches the network through these HTTPClient methods"

    restore_http_methods(client)
    for name in NETWORK_METHODS:
        assert getattr(client.http, name).__func__ is getattr(HTTPClient, name)


def test_route_label_names_a_route_by_its_template() -> None:
    assert route_label(Route("GET", "/users/@me")) == "GET /users/@me"
    assert route_label(Route("GET", "/users/{user_id}", user_id=5)) == "GET /users/{user_id}"
    assert route_label("/users/@me") is None


def test_route_message_reads_the_message_a_route_addresses() -> None:
    edit = Route("PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=7,
                 message_id=123456789012345678)
    assert route_message(edit) == 123456789012345678
    assert route_message(Route("POST", "/channels/{channel_id}/threads", channel_id=7)) is None
    assert route_message("/channels/7/messages/8") is None


# --------------------------------------------------------------------------- the webhook adapter


def test_the_stand_in_takes_every_parameter_of_the_real_request() -> None:
    def shape(function: Callable[..., Any]) -> list[tuple[str, Any]]:
        return [(p.name, p.kind) for p in inspect.signature(function).parameters.values()]

    async def nothing(sent: WebhookRequest) -> None:
        return None

    assert shape(webhook_request_stand_in(nothing)) == shape(AsyncWebhookAdapter.request), \
        "AsyncWebhookAdapter.request's parameters changed"


def test_replace_webhook_request_swaps_the_adapters_method() -> None:
    async def stand_in(*args: Any, **kwargs: Any) -> None:
        return None

    real = AsyncWebhookAdapter.request
    assert replace_webhook_request(stand_in) is real
    assert AsyncWebhookAdapter.request is stand_in
    assert replace_webhook_request(real) is stand_in
    assert AsyncWebhookAdapter.request is real


async def test_every_response_goes_through_the_stand_in_on_its_route(
    client: Bare, wire: Wire
) -> None:
    raw = payload(2, muster_data(3))
    interaction = make_interaction(client, raw)
    upload = discord.File(io.BytesIO(b"1st Foot: 400"), filename="roster.txt")

    await interaction.response.send_message("Huzzah")
    await interaction.followup.send("Roster", file=upload)
    await interaction.edit_original_response(content="Huzzah!")
    follow_up = await interaction.followup.send("Later", wait=True)
    await follow_up.edit(content="Later still")

    assert [(r.route.method, r.route.path) for r in wire.sent] == [
        tuple(CALLBACK_ROUTE.split(" ")),
        tuple(EXECUTE_ROUTE.split(" ")),
        ("PATCH", ORIGINAL_MESSAGE_PATH),
        tuple(EXECUTE_ROUTE.split(" ")),
        ("PATCH", MESSAGE_PATH),
    ], "discord.py addresses interaction responses on other routes"
    callback, with_file, edit, later, edit_later = wire.sent
    assert (callback.route.webhook_id, callback.route.webhook_token) == (raw["id"], raw["token"])
    assert callback.params == {"with_response": "1"}
    assert callback.payload == {"type": 4, "data": {"tts": False, "content": "Huzzah"}}
    assert with_file.route.webhook_id == str(APPLICATION) and with_file.payload is None
    assert [part["name"] for part in with_file.multipart or []][:1] == ["payload_json"]
    assert wire.uploads == [b"1st Foot: 400"]
    assert edit.payload == {"content": "Huzzah!", "tts": False}
    assert (later.params or {}).get("wait") == 1, \
        "a follow-up no longer asks for the message back with the `wait` parameter"
    assert edit_later.route.url.endswith(f"/messages/{follow_up.id}")


def test_upload_bytes_reads_from_where_the_file_began_and_rewinds() -> None:
    handle = io.BytesIO(b"--1st Foot: 400")
    handle.seek(2)
    upload = discord.File(handle, filename="roster.txt")
    handle.read()  # read to the end, as a first attempt at sending would

    assert upload_bytes(upload) == b"1st Foot: 400", "File.reset() no longer rewinds"
    assert handle.tell() == 2
    assert upload_bytes(upload) == b"1st Foot: 400"


def test_json_codec_round_trips_and_refuses_what_is_not_json() -> None:
    encode, decode = json_codec()
    value = {"name": "Béarn’s", "dice": [1, 6], "flags": 64, "none": None}

    assert isinstance(encode(value), str)
    assert decode(encode(value)) == value
    assert decode(encode(value).encode()) == value
    with pytest.raises(TypeError):  # what the harness catches to fall back on a deep copy
        encode({"when": object()})


def test_http_error_is_the_exception_discord_py_raises() -> None:
    body = {"code": 50035, "message": "Invalid Form Body",
            "errors": {"content": {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH",
                                                "message": "Must be 2000 or fewer in length."}]}}}
    error = http_error(discord.HTTPException, 400, "Bad Request", body)
    missing = http_error(discord.NotFound, 404, "Not Found",
                         {"code": 10062, "message": "Unknown interaction"})

    assert (error.status, error.code) == (400, 50035)
    assert str(error) == ("400 Bad Request (error code: 50035): Invalid Form Body\n"
                          "In content: Must be 2000 or fewer in length.")
    assert isinstance(missing, discord.NotFound)
    assert str(missing) == "404 Not Found (error code: 10062): Unknown interaction"


# --------------------------------------------------------------------------- schemas


async def test_command_schema_is_what_sync_sends(client: Bare) -> None:
    [muster] = client.tree.get_commands()
    schema = command_schema(muster, client.tree)
    calls: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []

    async def answer(*args: Any, **kwargs: Any) -> list[Any]:
        calls.append(("request", args, kwargs))
        return []

    replace_http_methods(client, {"request": answer})
    await client.tree.sync()
    restore_http_methods(client)

    assert [kwargs.get("json") for _, _, kwargs in calls] == [[schema]], \
        "CommandTree.sync no longer sends Command.to_dict(tree)"
    assert (schema["name"], schema["description"]) == ("muster", "Count the men")
    men, arm, note = schema["options"]
    assert (men["type"], men["min_value"], men["max_value"], men["required"]) == (4, 1, 9, True)
    assert [choice["value"] for choice in arm["choices"]] == ["inf", "cav"]
    assert (note["autocomplete"], note["required"]) == (True, False)


async def test_an_option_given_no_description_is_registered_with_the_placeholder(
    client: Bare,
) -> None:
    @app_commands.command(name="halt", description="Stop")
    async def halt(interaction: discord.Interaction, paces: int) -> None:
        return None

    [paces] = command_schema(halt, client.tree)["options"]
    assert paces["description"] == NO_DESCRIPTION, "discord.py's placeholder description changed"


# --------------------------------------------------------------------------- library tasks


async def timed_view(client: Bare, wire: Wire) -> None:
    view = discord.ui.View(timeout=600)
    view.add_item(discord.ui.Button(label="Advance", custom_id="advance"))
    interaction = make_interaction(client, payload(2, muster_data(3)))
    await interaction.response.send_message("Orders", view=view)


async def webhook_message_deleted_later(client: Bare, wire: Wire) -> None:
    interaction = make_interaction(client, payload(2, muster_data(3)))
    await interaction.response.send_message("Orders")
    message = await interaction.followup.send("Later", wait=True)
    await message.delete(delay=600)


async def message_deleted_later(client: Bare, wire: Wire) -> None:
    await client.get_partial_messageable(CHANNEL).get_partial_message(1).delete(delay=600)


async def typing(client: Bare, wire: Wire) -> None:
    async def nothing(*args: Any, **kwargs: Any) -> None:
        return None

    replace_http_methods(client, {"request": nothing})  # the first "is typing" is sent at once
    await client.get_partial_messageable(CHANNEL).typing().__aenter__()
    restore_http_methods(client)


TIMER_STARTERS = {
    "BaseView.__timeout_task_impl": timed_view,
    ".<locals>.inner_call": webhook_message_deleted_later,
    ".<locals>.delete": message_deleted_later,
    "Typing.do_typing": typing,
}


def test_every_library_timer_has_a_starter_here() -> None:
    assert list(TIMER_STARTERS) == list(LIBRARY_TIMERS)


@pytest.mark.parametrize("timer", LIBRARY_TIMERS)
async def test_is_library_timer_knows_discord_pys_delayed_jobs(
    client: Bare, wire: Wire, timer: str
) -> None:
    before = asyncio.all_tasks()
    await TIMER_STARTERS[timer](client, wire)
    started = asyncio.all_tasks() - before
    try:
        assert [is_library_timer(task) for task in started] == [True], \
            f"discord.py no longer starts its delayed job as {timer}"
    finally:
        for task in started:
            task.cancel()
        await asyncio.gather(*started, return_exceptions=True)


async def test_is_library_timer_leaves_other_tasks_alone(client: Bare) -> None:
    async def later() -> None:
        return None

    before = asyncio.all_tasks()
    emit_event(client, "muster", 1)  # discord.py's own task, but no timer
    mine = asyncio.create_task(later())
    started = asyncio.all_tasks() - before
    assert len(started) == 2 and mine in started
    assert not any(is_library_timer(task) for task in started)
    await asyncio.gather(*started)
