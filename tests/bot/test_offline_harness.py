"""The offline Discord layer: raw payloads through the real CommandTree, replies captured.

The bot here is a toy defined in this module so the harness is tested on its
own, independent of Huzzah's cogs.
"""

from __future__ import annotations

import asyncio
import inspect
import io
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands
from discord.webhook.async_ import AsyncWebhookAdapter

from bot.offline import (
    BadOptionValue,
    CommandLineError,
    MissingOption,
    OfflineDiscord,
    OfflineInputError,
    OfflineNetworkError,
    SentMessage,
    UnknownCommand,
    UnknownOption,
    autocomplete_payload,
    build_command_data,
    command_payload,
    help_text,
    parse_command_line,
    render_messages,
)

GUILD = 5_000
CHANNEL = 5_001
DM_CHANNEL = 5_002
USER = 7_000
OTHER_USER = 7_001
OFFICER_ROLE = 9_000
MANAGE_CHANNELS = discord.Permissions(manage_channels=True).value

IN_GUILD: dict[str, Any] = {"channel_id": CHANNEL, "user_id": USER, "guild_id": GUILD}
IN_DM: dict[str, Any] = {"channel_id": DM_CHANNEL, "user_id": USER, "guild_id": None}


# --------------------------------------------------------------------------- the toy bot


def face_values(count: int) -> list[int]:
    """Fixed dice, so assertions can name the faces."""
    return [(index * 5) % 6 + 1 for index in range(count)]


class Muster(commands.Cog):
    roll = app_commands.Group(name="roll", description="Roll dice")
    melee = app_commands.Group(name="melee", description="Close combat")
    drill = app_commands.Group(name="drill", description="Parade ground")
    company = app_commands.Group(name="company", description="Company drill", parent=drill)

    def __init__(self) -> None:
        self.background: set[asyncio.Task[None]] = set()
        self.seen_modes: list[str] = []

    @roll.command(name="d6", description="Roll six-sided dice")
    @app_commands.describe(
        count="How many dice", label="What the roll is for", loud="Shout it", mode="How to total"
    )
    @app_commands.choices(
        mode=[Choice(name="Sum", value="sum"), Choice(name="Highest", value="max")]
    )
    async def d6(
        self,
        interaction: discord.Interaction,
        count: app_commands.Range[int, 1, 10],
        mode: str,
        label: str | None = None,
        loud: bool = False,
    ) -> None:
        self.seen_modes.append(mode)
        faces = face_values(count)
        total = sum(faces) if mode == "sum" else max(faces)
        embed = discord.Embed(title=f"{count}d6 {label or ''}".strip(), description=f"**{total}**")
        embed.add_field(name="Dice", value=" ".join(map(str, faces)))
        embed.set_footer(text=f"by {interaction.user.name}")
        await interaction.response.send_message("HUZZAH!" if loud else None, embed=embed)

    @d6.autocomplete("label")
    async def label_choices(self, interaction: discord.Interaction, current: str) -> list[Choice]:
        labels = ["volley", "melee", "morale", "march"]
        return [Choice(name=name.title(), value=name) for name in labels if current in name]

    @melee.command(name="fire-at-will", description="Resolve a firefight")
    async def fire_at_will(
        self, interaction: discord.Interaction, attackers: str, defenders: str, dice: str
    ) -> None:
        await interaction.response.send_message(f"{attackers} vs {defenders}: {dice}")

    @company.command(name="advance", description="Advance in line")
    async def advance(
        self, interaction: discord.Interaction, paces: int, distance: float = 1.5
    ) -> None:
        await interaction.response.send_message(f"{paces} paces of {distance}")

    @app_commands.command(name="report", description="Defers, then follows up with a file")
    async def report(self, interaction: discord.Interaction, delay: float = 0.0) -> None:
        await interaction.response.defer(thinking=True)
        await asyncio.sleep(delay)
        roster = discord.File(io.BytesIO(b"1st Foot: 400"), filename="roster.txt")
        await interaction.followup.send(f"Report for {interaction.user.name}", file=roster)

    @app_commands.command(name="whisper", description="Defers publicly, asks for secrecy later")
    async def whisper(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        await interaction.followup.send("first", ephemeral=True)
        await interaction.followup.send("second", ephemeral=True)

    @app_commands.command(name="volley", description="Follows up from a background task")
    async def volley(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True)

        async def later() -> None:
            await asyncio.sleep(0.01)
            await interaction.edit_original_response(content="Volley fired")

        task = asyncio.create_task(later())
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    @app_commands.command(name="mutiny", description="Always fails")
    async def mutiny(self, interaction: discord.Interaction) -> None:
        raise RuntimeError("the men refuse")

    @app_commands.command(name="proclaim", description="Puts text in an embed title")
    async def proclaim(self, interaction: discord.Interaction, text: str) -> None:
        await interaction.response.send_message(embed=discord.Embed(title=text))

    @app_commands.command(name="redeploy", description="Needs Manage Channels")
    @app_commands.checks.has_permissions(manage_channels=True)
    @app_commands.guild_only()
    async def redeploy(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Redeployed")

    @app_commands.command(name="orders", description="Officers only")
    @app_commands.checks.has_role(OFFICER_ROLE)
    async def orders(self, interaction: discord.Interaction, target: discord.Member) -> None:
        await interaction.response.send_message(f"Orders for {target.id}")

    @app_commands.command(name="slow", description="Answers too late")
    async def slow(self, interaction: discord.Interaction) -> None:
        await asyncio.sleep(0.2)
        await interaction.response.send_message("finally")


async def answer_error(
    interaction: discord.Interaction, error: app_commands.AppCommandError
) -> None:
    """The toy bot's tree.on_error: tell the user, privately."""
    text = f"Something went wrong: {type(error).__name__}"
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


class ToyBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned, intents=discord.Intents(guilds=True)
        )
        self.cog = Muster()

    async def setup_hook(self) -> None:
        await self.add_cog(self.cog)
        self.tree.error(answer_error)


@pytest.fixture
def no_sockets(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Fail any aiohttp request outright, below discord.py's own HTTP client."""
    attempts: list[str] = []

    async def refuse(self: aiohttp.ClientSession, method: str, url: Any, **kwargs: Any) -> None:
        attempts.append(f"{method} {url}")
        raise AssertionError(f"network access: {method} {url}")

    monkeypatch.setattr(aiohttp.ClientSession, "_request", refuse)
    return attempts


@pytest.fixture
async def offline(no_sockets: list[str]) -> Any:
    async with OfflineDiscord(ToyBot()) as session:
        yield session
        assert session.network_attempts == []
    assert no_sockets == []


def only(messages: list[SentMessage]) -> SentMessage:
    assert len(messages) == 1, messages
    return messages[0]


# --------------------------------------------------------------------------- replies


async def test_reply_goes_to_the_interaction_callback(offline: OfflineDiscord) -> None:
    message = only(
        await offline.invoke(
            ["roll", "d6"], {"count": 3, "mode": "Sum", "label": "volley"}, **IN_GUILD
        )
    )

    request = message.request
    assert request is not None
    assert (request.method, request.route) == (
        "POST",
        "POST /interactions/{webhook_id}/{webhook_token}/callback",
    )
    assert request.url.endswith("/callback")
    assert request.params == {"with_response": "1"}
    assert request.payload is not None and request.payload["type"] == 4
    assert message.kind == "response" and not message.ephemeral and not message.deferred
    assert message.content is None
    [embed] = message.embeds
    assert embed["title"] == "3d6 volley"
    assert embed["description"] == f"**{sum(face_values(3))}**"
    assert embed["fields"] == [{"name": "Dice", "value": "1 6 5", "inline": True}]
    assert embed["footer"] == {"text": "by player"}
    assert offline.client.cog.seen_modes == ["sum"]  # type: ignore[attr-defined]


async def test_typed_text_is_converted_to_option_types(offline: OfflineDiscord) -> None:
    options = {"count": "2", "loud": "yes", "mode": "max"}
    data = build_command_data(offline.tree, ["roll", "d6"], options, guild_id=GUILD)

    assert data["name"] == "roll" and data["type"] == 1
    [sub] = data["options"]
    assert (sub["name"], sub["type"]) == ("d6", 1)
    assert sub["options"] == [
        {"name": "count", "type": 4, "value": 2},
        {"name": "mode", "type": 3, "value": "max"},
        {"name": "loud", "type": 5, "value": True},
    ]
    message = only(await offline.invoke("roll d6", options, **IN_GUILD))
    assert message.content == "HUZZAH!"


async def test_subcommand_groups_nest_their_options(offline: OfflineDiscord) -> None:
    options = {"paces": "12", "distance": "0.75"}
    data = build_command_data(offline.tree, ["drill", "company", "advance"], options)

    assert data["name"] == "drill"
    assert data["options"] == [
        {
            "name": "company",
            "type": 2,
            "options": [
                {
                    "name": "advance",
                    "type": 1,
                    "options": [
                        {"name": "paces", "type": 4, "value": 12},
                        {"name": "distance", "type": 10, "value": 0.75},
                    ],
                }
            ],
        }
    ]
    message = only(await offline.invoke("/drill company advance", options, **IN_DM))
    assert message.content == "12 paces of 0.75"
    with pytest.raises(BadOptionValue, match="expected a number"):
        build_command_data(
            offline.tree, ["drill", "company", "advance"], {"paces": 1, "distance": "far"}
        )


@pytest.mark.parametrize(
    ("options", "error", "name"),
    [
        ({"count": "three", "mode": "sum"}, BadOptionValue, "count"),
        ({"count": 11, "mode": "sum"}, BadOptionValue, "count"),
        ({"count": "2.5", "mode": "sum"}, BadOptionValue, "count"),
        ({"count": 2, "mode": "median"}, BadOptionValue, "mode"),
        ({"count": 2, "mode": "sum", "loud": "maybe"}, BadOptionValue, "loud"),
        ({"count": 2, "mode": "sum", "colour": "red"}, UnknownOption, "colour"),
    ],
)
async def test_values_discord_would_refuse(
    offline: OfflineDiscord, options: dict[str, object], error: type, name: str
) -> None:
    with pytest.raises(error) as caught:
        await offline.invoke(["roll", "d6"], options, **IN_GUILD)

    assert isinstance(caught.value, OfflineInputError)
    assert caught.value.name == name
    assert caught.value.path == ("roll", "d6")


async def test_choice_errors_list_the_choices(offline: OfflineDiscord) -> None:
    with pytest.raises(BadOptionValue, match=r"Sum \('sum'\), Highest \('max'\)"):
        build_command_data(offline.tree, ["roll", "d6"], {"count": 1, "mode": "median"})


async def test_missing_and_unknown_commands(offline: OfflineDiscord) -> None:
    with pytest.raises(MissingOption) as missing:
        await offline.invoke(["roll", "d6"], {"mode": "sum"}, **IN_GUILD)
    assert missing.value.names == ("count",)

    with pytest.raises(UnknownCommand) as unknown:
        await offline.invoke(["retreat"], {}, **IN_GUILD)
    assert "roll" in unknown.value.known

    with pytest.raises(UnknownCommand, match="needs a subcommand: d6"):
        await offline.invoke(["roll"], {}, **IN_GUILD)

    with pytest.raises(UnknownCommand, match="in direct messages"):
        await offline.invoke(["redeploy"], {}, **IN_DM)


async def test_deferral_then_follow_up_with_a_file(offline: OfflineDiscord) -> None:
    deferral, follow_up = await offline.invoke(["report"], {}, **IN_GUILD, user_name="Wellesley")

    assert deferral.deferred and deferral.request is not None
    assert deferral.request.payload == {"type": 5}
    assert follow_up.kind == "followup"
    assert follow_up.request is not None
    assert follow_up.request.route == "POST /webhooks/{webhook_id}/{webhook_token}"
    assert follow_up.request.url.split("/")[-2] == str(offline.application_id)
    assert follow_up.request.params is not None and follow_up.request.params["wait"] == 1
    assert follow_up.content == "Report for Wellesley"
    [roster] = follow_up.files
    assert (roster.filename, roster.data) == ("roster.txt", b"1st Foot: 400")
    assert follow_up.message_id == deferral.message_id  # it filled in the "thinking" message


async def test_first_follow_up_keeps_the_deferrals_visibility(offline: OfflineDiscord) -> None:
    deferral, first, second = await offline.invoke(["whisper"], {}, **IN_GUILD)

    assert not deferral.ephemeral
    assert first.request is not None and first.request.payload is not None
    assert first.request.payload["flags"] == 64
    assert (first.content, first.ephemeral) == ("first", False)
    assert (second.content, second.ephemeral) == ("second", True)
    assert first.message_id == deferral.message_id != second.message_id


async def test_follow_up_from_a_background_task_is_waited_for(offline: OfflineDiscord) -> None:
    deferral, edit = await offline.invoke(["volley"], {}, **IN_DM)

    assert deferral.deferred and deferral.ephemeral
    assert deferral.request is not None and deferral.request.payload == {
        "type": 5,
        "data": {"flags": 64},
    }
    assert edit.kind == "edit" and edit.message_id == "@original"
    assert edit.request is not None and edit.request.method == "PATCH"
    assert edit.content == "Volley fired"
    assert edit.ephemeral  # the edited reply keeps the deferral's visibility


async def test_error_handler_answers_ephemerally(offline: OfflineDiscord) -> None:
    dispatch = await offline.dispatch(
        command_payload(offline.tree, ["mutiny"], application_id=offline.application_id, **IN_GUILD)
    )

    message = only(dispatch.messages)
    assert message.ephemeral and message.flags & 64
    assert message.request is not None and message.request.payload is not None
    assert message.request.payload["data"]["flags"] == 64
    assert message.content == "Something went wrong: CommandInvokeError"
    assert dispatch.interaction.command_failed
    assert dispatch.errors == []


async def test_oversized_embed_is_refused_like_discord_does(offline: OfflineDiscord) -> None:
    dispatch = await offline.dispatch(
        command_payload(
            offline.tree,
            ["proclaim"],
            {"text": "x" * 257},
            application_id=offline.application_id,
            **IN_GUILD,
        )
    )

    refused, _answer = dispatch.requests
    assert refused.status == 400
    assert refused.response["code"] == 50035
    assert "embeds.0.title" in refused.response["errors"]
    assert only(dispatch.messages).content == "Something went wrong: CommandInvokeError"


async def test_first_response_after_the_deadline_is_unknown_interaction(no_sockets: list) -> None:
    async with OfflineDiscord(ToyBot(), response_deadline=0.05) as session:
        dispatch = await session.dispatch(
            command_payload(
                session.tree, ["slow"], application_id=session.application_id, **IN_GUILD
            )
        )

    assert dispatch.messages == []  # the reply and the error handler's reply both came too late
    assert [r.response["code"] for r in dispatch.requests] == [10062, 10062]
    [error] = dispatch.errors
    assert isinstance(error, discord.NotFound)


async def test_autocomplete_returns_the_bots_choices(offline: OfflineDiscord) -> None:
    choices = await offline.autocomplete(
        ["roll", "d6"], {"count": 2, "label": "ma"}, "label", **IN_GUILD
    )

    assert choices == [{"name": "March", "value": "march"}]


async def test_autocomplete_payload_is_type_4_with_a_focused_option(
    offline: OfflineDiscord,
) -> None:
    data = build_command_data(
        offline.tree, ["roll", "d6"], {"label": "vo"}, guild_id=GUILD, focused="label"
    )
    [sub] = data["options"]
    assert sub["options"] == [{"name": "label", "type": 3, "value": "vo", "focused": True}]

    payload = autocomplete_payload(
        offline.tree,
        ["roll", "d6"],
        {"label": "vo"},
        "label",
        application_id=offline.application_id,
        **IN_GUILD,
    )
    assert payload["type"] == 4 and payload["data"] == data
    dispatch = await offline.dispatch(payload)
    [request] = dispatch.requests
    assert request.payload == {
        "type": 8,
        "data": {"choices": [{"name": "Volley", "value": "volley"}]},
    }
    assert dispatch.messages == []

    with pytest.raises(BadOptionValue, match="no autocomplete"):
        build_command_data(offline.tree, ["roll", "d6"], {}, focused="mode")


# --------------------------------------------------------------------------- members and DMs


async def test_guild_and_dm_payloads(offline: OfflineDiscord) -> None:
    data = build_command_data(offline.tree, ["report"], {})
    common = {"application_id": offline.application_id, "user_id": USER}
    guild = command_payload(
        offline.tree,
        ["report"],
        {},
        channel_id=CHANNEL,
        guild_id=GUILD,
        roles=[OFFICER_ROLE],
        permissions=MANAGE_CHANNELS,
        **common,
    )
    dm = command_payload(offline.tree, ["report"], {}, channel_id=DM_CHANNEL, **common)

    assert guild["type"] == dm["type"] == 2 and guild["data"] == dm["data"] == data
    member = guild["member"]
    assert member["user"]["id"] == str(USER)
    assert member["roles"] == [str(OFFICER_ROLE)]
    assert member["permissions"] == str(MANAGE_CHANNELS)
    assert {"joined_at", "flags"} <= member.keys()
    assert "user" not in guild and guild["guild_id"] == str(GUILD)
    assert "member" not in dm and "guild_id" not in dm and dm["user"]["id"] == str(USER)
    assert dm["channel"]["type"] == 1
    assert guild["id"] != dm["id"] and guild["token"] != dm["token"]


async def test_member_permissions_reach_the_checks(offline: OfflineDiscord) -> None:
    refused = only(await offline.invoke(["redeploy"], {}, **IN_GUILD))
    allowed = only(await offline.invoke(["redeploy"], {}, **IN_GUILD, permissions=MANAGE_CHANNELS))

    assert refused.ephemeral and refused.content == "Something went wrong: MissingPermissions"
    assert allowed.content == "Redeployed" and not allowed.ephemeral


async def test_roles_and_member_options_resolve(offline: OfflineDiscord) -> None:
    options = {"target": f"<@{OTHER_USER}>"}
    refused = only(await offline.invoke(["orders"], options, **IN_GUILD))
    allowed = only(await offline.invoke(["orders"], options, **IN_GUILD, roles=[OFFICER_ROLE]))

    assert refused.content == "Something went wrong: MissingRole"
    assert allowed.content == f"Orders for {OTHER_USER}"


# --------------------------------------------------------------------------- isolation


async def test_concurrent_interactions_keep_their_own_replies(offline: OfflineDiscord) -> None:
    slow, fast = await asyncio.gather(
        offline.invoke(["report"], {"delay": 0.05}, **IN_GUILD, user_name="Slow"),
        offline.invoke(["report"], {"delay": 0}, **IN_GUILD, user_name="Fast"),
    )

    assert [m.kind for m in slow] == [m.kind for m in fast] == ["deferral", "followup"]
    assert slow[1].content == "Report for Slow"
    assert fast[1].content == "Report for Fast"
    tokens = {m.request.url.split("/")[-1] for m in slow[1:] + fast[1:] if m.request}
    assert len(tokens) == 2


def roll_payload(offline: OfflineDiscord) -> dict[str, Any]:
    """One ``/roll d6`` interaction, built once so that it can be delivered again."""
    return command_payload(
        offline.tree,
        ["roll", "d6"],
        {"count": 1, "mode": "sum"},
        application_id=offline.application_id,
        **IN_GUILD,
    )


async def test_same_interaction_delivered_twice(offline: OfflineDiscord) -> None:
    payload = roll_payload(offline)

    first = await offline.invoke_raw(payload)
    second = await offline.dispatch(payload)

    assert only(first).kind == "response"
    assert second.messages == []
    assert [r.status for r in second.requests] == [400, 400]
    assert second.requests[0].response["code"] == 40060
    [error] = second.errors  # the error handler's own reply was refused too
    assert isinstance(error, discord.HTTPException) and error.code == 40060
    with pytest.raises(discord.HTTPException):
        await offline.invoke_raw(payload)


async def test_every_interaction_gets_a_fresh_id(offline: OfflineDiscord) -> None:
    ids = set()
    for _ in range(5):
        [message] = await offline.invoke(["roll", "d6"], {"count": 1, "mode": "sum"}, **IN_GUILD)
        assert message.request is not None
        ids.add(message.request.url.split("/")[-3])
    assert len(ids) == 5


# --------------------------------------------------------------------------- transport


async def test_replacement_accepts_every_keyword_of_the_real_request(no_sockets: list) -> None:
    original = AsyncWebhookAdapter.request
    real = inspect.signature(original).parameters

    async with OfflineDiscord(ToyBot()) as first:
        replaced = inspect.signature(AsyncWebhookAdapter.request).parameters
        assert AsyncWebhookAdapter.request is not original
        assert list(replaced) == list(real)
        async with OfflineDiscord(ToyBot()):
            pass
        assert AsyncWebhookAdapter.request is not original  # still needed by `first`
        await first.invoke(["report"], {}, **IN_GUILD)

    assert AsyncWebhookAdapter.request is original


async def test_nothing_reaches_the_network(offline: OfflineDiscord, no_sockets: list) -> None:
    await offline.invoke(["report"], {}, **IN_GUILD)
    await offline.autocomplete(["roll", "d6"], {}, "label", **IN_DM)
    assert offline.network_attempts == [] and no_sockets == []

    with pytest.raises(OfflineNetworkError):
        await offline.client.http.request(discord.http.Route("GET", "/users/@me"))
    assert offline.network_attempts == ["client.http.request(GET /users/@me)"]
    offline.network_attempts.clear()

    stray = discord.Webhook.partial(1, "not-an-interaction", session=aiohttp.ClientSession())
    try:
        with pytest.raises(OfflineNetworkError):
            await stray.send("hello")
    finally:
        await stray.session.close()


# --------------------------------------------------------------------------- command line


MELEE_LINE = (
    '/melee fire-at-will attackers:"2nd Foot: infantry charging; Rangers: infantry open" '
    "defenders:'Hussars: cavalry' dice:\"3 4 5\""
)


async def test_command_line_splits_path_and_quoted_values(offline: OfflineDiscord) -> None:
    path, options = parse_command_line(offline.tree, MELEE_LINE)

    assert path == ["melee", "fire-at-will"]
    assert options == {
        "attackers": "2nd Foot: infantry charging; Rangers: infantry open",
        "defenders": "Hussars: cavalry",
        "dice": "3 4 5",
    }
    message = only(await offline.invoke(path, options, **IN_GUILD))
    assert message.content == (
        "2nd Foot: infantry charging; Rangers: infantry open vs Hussars: cavalry: 3 4 5"
    )


async def test_command_line_unquoted_values_and_escapes(offline: OfflineDiscord) -> None:
    line = r"/roll d6 count:3 mode:sum label:12:30 loud:yes"
    assert parse_command_line(offline.tree, line).options == {
        "count": "3",
        "mode": "sum",
        "label": "12:30",
        "loud": "yes",
    }
    escaped = parse_command_line(offline.tree, r'/roll d6 label:"say \"fire\""')
    assert escaped.options == {"label": 'say "fire"'}


@pytest.mark.parametrize(
    ("line", "error", "message"),
    [
        ("roll d6 count:1", CommandLineError, "start with '/'"),
        ("/roll d6 count: mode:sum", CommandLineError, "'count' has no value"),
        ("/roll d6 count:", CommandLineError, "'count' has no value"),
        ('/roll d6 label:"volley', CommandLineError, "unclosed"),
        ('/roll d6 label:""', CommandLineError, "empty"),
        ("/roll d6 count:1 count:2", CommandLineError, "given twice"),
        ("/roll d6 count:1 sum", CommandLineError, "unexpected 'sum'"),
        ("/roll d6 3", CommandLineError, "options are written name:value"),
        ('/roll d6 "3"', CommandLineError, "must follow an option name"),
        ("/roll", UnknownCommand, "needs a subcommand"),
        ("/roll d7 count:1", UnknownCommand, "no subcommand 'd7'"),
        ("/retreat now", UnknownCommand, "unknown command /retreat"),
    ],
)
async def test_command_line_errors(
    offline: OfflineDiscord, line: str, error: type, message: str
) -> None:
    with pytest.raises(error, match=message) as caught:
        parse_command_line(offline.tree, line)
    assert isinstance(caught.value, OfflineInputError)


async def test_console_round_trip_renders_the_reply(offline: OfflineDiscord) -> None:
    path, options = parse_command_line(offline.tree, "/roll d6 count:2 mode:Highest loud:true")
    text = render_messages(await offline.invoke(path, options, **IN_GUILD))

    assert text.splitlines() == [
        "-- reply --",
        "HUZZAH!",
        "| # 2d6",
        "| 6",
        "| ",
        "| Dice",
        "|     1 6",
        "| ",
        "| -- by player",
    ]


async def test_render_marks_ephemeral_replies_and_files(offline: OfflineDiscord) -> None:
    error_text = render_messages(await offline.invoke(["mutiny"], {}, **IN_GUILD))
    report_text = render_messages(await offline.invoke(["report"], {}, **IN_GUILD))

    assert error_text.startswith("-- reply (only you can see this) --\n")
    assert report_text.splitlines() == [
        "-- thinking... --",
        "",
        "-- follow-up --",
        "Report for player",
        "[attachment] roster.txt (13 bytes)",
    ]


# --------------------------------------------------------------------------- help


async def test_help_lists_every_command(offline: OfflineDiscord) -> None:
    text = help_text(offline.tree, guild_id=GUILD)

    assert "  /roll - Roll dice" in text
    assert "    /roll d6 - Roll six-sided dice" in text
    assert "    /melee fire-at-will - Resolve a firefight" in text
    assert "  /report - Defers, then follows up with a file" in text
    assert "/redeploy" in text
    assert "/redeploy" not in help_text(offline.tree)  # guild only: not offered in DMs


async def test_help_for_one_command_lists_its_options(offline: OfflineDiscord) -> None:
    text = help_text(offline.tree, ["roll", "d6"])

    assert text.splitlines()[:2] == ["/roll d6 - Roll six-sided dice", "Options:"]
    assert "  count (integer, required, 1..10) - How many dice" in text
    assert "  mode (text, required) - How to total" in text
    assert "      choices: Sum (sum), Highest (max)" in text
    assert "  label (text, optional, suggestions) - What the roll is for" in text
    assert "  loud (true/false, optional) - Shout it" in text
    assert help_text(offline.tree, "/roll").splitlines() == [
        "/roll - Roll dice",
        "Subcommands:",
        "  /roll d6 - Roll six-sided dice",
    ]


async def test_input_errors_carry_the_path_for_help(offline: OfflineDiscord) -> None:
    path, options = parse_command_line(offline.tree, "/roll d6 count:x mode:sum")
    with pytest.raises(OfflineInputError) as caught:
        await offline.invoke(path, options, **IN_GUILD)
    assert "count (integer" in help_text(offline.tree, caught.value.path)


def test_snowflakes_are_unique_time_ordered_and_carry_a_worker():
    from discord.utils import snowflake_time

    from bot.offline.payloads import Snowflakes

    source = Snowflakes()
    ids = [source.next() for _ in range(10_000)]
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    assert {(i >> 12) & 0x3FF for i in ids} == {source._worker}
    assert abs(snowflake_time(ids[0]).timestamp() - __import__("time").time()) < 60


async def test_unknown_commands_carry_suggestions(offline: OfflineDiscord) -> None:
    with pytest.raises(UnknownCommand) as caught:
        parse_command_line(offline.tree, "/rol d6 count:1", guild_id=GUILD)
    assert str(caught.value) == "unknown command /rol in this server. Did you mean /roll d6?"
    assert caught.value.suggestions == ("/roll d6",)
    with pytest.raises(UnknownCommand) as caught:
        parse_command_line(offline.tree, "/roll", guild_id=GUILD)
    assert caught.value.suggestions == ()  # a group without its subcommand: nothing misspelt


def test_suggestions_follow_what_was_typed():
    from bot.offline.commandline import suggest_commands

    paths = [("melee", "fire-at-will"), ("melee", "le-baton"), ("morale", "le-baton"),
             ("battle", "export"), ("battle", "next"), ("charge", "fire-at-will")]
    assert suggest_commands(["mele"], paths) == ["/melee"]
    assert suggest_commands(["mele", "fire-at-will"], paths) == ["/melee fire-at-will"]
    assert suggest_commands(["export"], paths) == ["/battle export"]
    assert suggest_commands(["xyzzy"], paths) == []


def test_attachments_show_where_the_console_saved_them():
    from bot.offline import SentFile
    from bot.offline.render import render_message

    one, many = SentFile("a.txt", b"x"), SentFile("b.md", b"y" * 2048)
    message = SentMessage(kind="followup", files=[one, many])
    assert render_message(message, {many: "saved to /tmp/b.md"}).splitlines() == [
        "-- follow-up --",
        "[attachment] a.txt (1 byte)",
        "[attachment] b.md (2.0 KiB) saved to /tmp/b.md",
    ]


def test_a_menu_shows_each_options_description_under_its_label():
    """Discord shows an option's description under its label; results cut short alike
    (`/gm override`'s) differ only there."""
    from bot.offline.render import render_message

    cut = "Dragoons retreats 6 hexes and routs off the field; Lochiel's wins…"
    menu = {"type": 3, "custom_id": "m", "placeholder": "Pick the result to apply",
            "options": [{"label": cut, "value": "1", "description": "…Banner"},
                        {"label": cut, "value": "2", "description": "…takes ground 1 hex"},
                        {"label": "Dragoons retires", "value": "3"}]}
    message = SentMessage(kind="followup", content="Override #5 with:",
                          components=[{"type": 1, "components": [menu]}])
    assert render_message(message).splitlines()[-6:] == [
        "[menu: Pick the result to apply]",
        f"  • {cut}", "      …Banner",
        f"  • {cut}", "      …takes ground 1 hex",
        "  • Dragoons retires",
    ]


async def test_a_forgotten_interaction_keeps_nothing(offline: OfflineDiscord) -> None:
    """Forgetting an answered interaction drops Discord's record of it: nothing of it is
    kept (the benchmark runs thousands), so the same token starts afresh."""
    payload = roll_payload(offline)
    first = await offline.invoke_raw(payload)
    offline.forget(payload)
    again = await offline.invoke_raw(payload)  # not refused as answered already
    assert only(first).kind == only(again).kind == "response"
