"""Raw Discord interaction payloads, built the way Discord would send them.

The offline layer feeds these dicts to the real ``discord.Interaction`` and
``CommandTree``, so every shape here mirrors the Discord API (v10): snowflakes
are strings, permissions are decimal strings, options are typed and nested
under their subcommand and group.

Option values are checked against the command's *registered schema*, i.e. the
JSON a command is registered with at sync time
(:func:`bot.offline.discord_internals.command_schema`). Using that
schema (rather than reading the Python signature) means the offline layer
refuses exactly what the Discord client would refuse: unknown names, missing
required options, values outside choices or ranges.
"""

from __future__ import annotations

import datetime
import os
import random
import re
import secrets
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord
from discord import app_commands, utils

from .discord_internals import command_schema

__all__ = [
    "DEFAULT_APP_PERMISSIONS",
    "OPTION_TYPE_NAMES",
    "BadOptionValue",
    "MissingOption",
    "OfflineFile",
    "OfflineInputError",
    "RegisteredCommand",
    "ResolvedCommand",
    "Snowflakes",
    "ThreadPlace",
    "UnknownCommand",
    "UnknownOption",
    "autocomplete_payload",
    "build_command_data",
    "command_payload",
    "dm_channel_payload",
    "guild_channel_payload",
    "guild_payload",
    "interaction_payload",
    "member_payload",
    "resolve_command",
    "thread_channel_payload",
    "top_level_schemas",
    "user_payload",
]

#: Discord's application command option types, named as help text shows them.
OPTION_TYPE_NAMES: dict[int, str] = {
    1: "subcommand",
    2: "subcommand group",
    3: "text",
    4: "integer",
    5: "true/false",
    6: "user",
    7: "channel",
    8: "role",
    9: "user or role",
    10: "number",
    11: "attachment",
}

SUBCOMMAND = 1
SUBCOMMAND_GROUP = 2
_STRING = 3
_INTEGER = 4
_BOOLEAN = 5
_USER = 6
_CHANNEL = 7
_ROLE = 8
_MENTIONABLE = 9
_NUMBER = 10
_ATTACHMENT = 11

#: Discord rejects integers outside +/- 2**53 (JavaScript's safe range).
_INTEGER_LIMIT = 2**53
#: Discord's attachment limit for an unboosted guild.
_ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024

_TRUE_WORDS = frozenset({"true", "yes"})
_FALSE_WORDS = frozenset({"false", "no"})
_USER_MENTION = re.compile(r"<@!?(\d+)>|(\d+)")
_ROLE_MENTION = re.compile(r"<@&(\d+)>|(\d+)")
_CHANNEL_MENTION = re.compile(r"<#(\d+)>|(\d+)")

#: Discord's channel types that an interaction can come from, or that hold its thread.
TEXT_CHANNEL = 0
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
FORUM_CHANNEL = 15

#: What a freshly invited bot can usually do in a text channel.
DEFAULT_APP_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
    add_reactions=True,
    use_external_emojis=True,
).value


#: What @everyone may do besides what a bot may, in the seeded guild.
PLAIN_MEMBER_EXTRAS = discord.Permissions(
    use_application_commands=True, change_nickname=True, create_instant_invite=True
).value


# --------------------------------------------------------------------------- errors


class OfflineInputError(Exception):
    """A command the Discord client would not have let the user send.

    ``path`` is as much of the command path as was recognised, so a console can
    print the matching help.
    """

    def __init__(self, message: str, *, path: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.path: tuple[str, ...] = tuple(path)


class UnknownCommand(OfflineInputError):
    """The path does not name an invocable command; ``known`` lists what does at that level.

    ``suggestions`` are whole commands close to what was typed (``/melee`` for ``/mele``).
    """

    def __init__(
        self,
        message: str,
        *,
        path: Sequence[str] = (),
        typed: str = "",
        known: Sequence[str] = (),
        suggestions: Sequence[str] = (),
    ) -> None:
        super().__init__(message, path=path)
        self.typed = typed
        self.known: tuple[str, ...] = tuple(known)
        self.suggestions: tuple[str, ...] = tuple(suggestions)


class UnknownOption(OfflineInputError):
    """An option name the command does not declare."""

    def __init__(self, message: str, *, path: Sequence[str], name: str, known: Sequence[str]):
        super().__init__(message, path=path)
        self.name = name
        self.known: tuple[str, ...] = tuple(known)


class MissingOption(OfflineInputError):
    """Required options were left out; Discord's client would not send the command."""

    def __init__(self, message: str, *, path: Sequence[str], names: Sequence[str]) -> None:
        super().__init__(message, path=path)
        self.names: tuple[str, ...] = tuple(names)


class BadOptionValue(OfflineInputError):
    """A value the Discord client would refuse for this option (type, range, choices)."""

    def __init__(
        self,
        message: str,
        *,
        path: Sequence[str],
        name: str,
        value: object,
        option: Mapping[str, Any],
    ) -> None:
        super().__init__(message, path=path)
        self.name = name
        self.value = value
        self.option: dict[str, Any] = dict(option)


# --------------------------------------------------------------------------- snowflakes


class Snowflakes:
    """Hands out unique, time-ordered snowflakes.

    Interaction ids carry their creation time, and discord.py derives
    ``Interaction.created_at`` and ``is_expired()`` from it, so ids must be
    based on the current time, not on a plain counter. Like Discord's own, the
    low bits name the worker (here: this process) and count within the
    millisecond, so two consoles sharing a database never hand out the same id,
    which the bot would take for the same interaction delivered twice.
    """

    def __init__(self) -> None:
        self._millis = 0
        self._count = 0
        self._worker = (os.getpid() + random.getrandbits(10)) & 0x3FF

    def next(self) -> int:
        millis = utils.time_snowflake(datetime.datetime.now(datetime.UTC)) >> 22
        if millis > self._millis:
            self._millis, self._count = millis, 0
        else:
            self._count += 1
            if self._count > 0xFFF:
                self._millis, self._count = self._millis + 1, 0
        return (self._millis << 22) | (self._worker << 12) | self._count


_default_snowflakes = Snowflakes()


def _iso(moment: datetime.datetime) -> str:
    return moment.isoformat()


def stable_command_id(name: str, guild_id: int | None = None) -> int:
    """A fixed id per registered command, as Discord keeps one across invocations."""
    seed = zlib.crc32(f"{guild_id or 0}:{name}".encode())
    return (seed << 22) | 1


# --------------------------------------------------------------------------- objects


def user_payload(user_id: int, name: str, *, bot: bool = False) -> dict[str, Any]:
    """A Discord user object."""
    payload: dict[str, Any] = {
        "id": str(user_id),
        "username": name,
        "discriminator": "0",
        "global_name": name,
        "avatar": None,
        "public_flags": 0,
    }
    if bot:
        payload.update(bot=True, verified=True, mfa_enabled=False, flags=0)
    return payload


def member_payload(
    user: Mapping[str, Any],
    *,
    roles: Sequence[int] = (),
    permissions: int = 0,
    joined_at: datetime.datetime | None = None,
) -> dict[str, Any]:
    """An interaction's guild member: the notes list the keys discord.py needs."""
    joined = joined_at or datetime.datetime(2024, 1, 1, tzinfo=datetime.UTC)
    return {
        "user": dict(user),
        "roles": [str(role) for role in roles],
        "joined_at": _iso(joined),
        "flags": 0,
        "permissions": str(permissions),
        "nick": None,
        "avatar": None,
        "premium_since": None,
        "pending": False,
        "deaf": False,
        "mute": False,
        "communication_disabled_until": None,
    }


def guild_channel_payload(
    channel_id: int,
    guild_id: int,
    *,
    permissions: int = 0,
    name: str | None = None,
    channel_type: int = TEXT_CHANNEL,
) -> dict[str, Any]:
    """The partial channel Discord attaches to a guild interaction (a text channel), or a
    guild's channel as GUILD_CREATE lists it (a text or a forum channel)."""
    payload: dict[str, Any] = {
        "id": str(channel_id),
        "type": channel_type,
        "guild_id": str(guild_id),
        "name": name or f"channel-{channel_id}",
        "position": 0,
        "parent_id": None,
        "topic": None,
        "nsfw": False,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "permission_overwrites": [],
        "flags": 0,
        "permissions": str(permissions),
    }
    if channel_type == FORUM_CHANNEL:
        payload.update(available_tags=[], default_reaction_emoji=None, default_sort_order=None,
                       default_forum_layout=0, default_thread_rate_limit_per_user=0)
    return payload


@dataclass(frozen=True)
class ThreadPlace:
    """An interaction sent in a thread: the thread is the interaction's channel, and
    ``parent_id`` the channel it was opened from. A forum post is a public thread whose
    parent is a forum channel."""

    parent_id: int
    private: bool = False
    forum: bool = False
    owner_id: int | None = None

    @property
    def channel_type(self) -> int:
        return PRIVATE_THREAD if self.private else PUBLIC_THREAD

    @property
    def parent_type(self) -> int:
        return FORUM_CHANNEL if self.forum else TEXT_CHANNEL


def thread_channel_payload(
    thread_id: int, guild_id: int, place: ThreadPlace, *, permissions: int = 0,
    name: str | None = None,
) -> dict[str, Any]:
    """A thread as Discord sends it: the channel of an interaction sent in it (with the
    member's ``permissions`` there), or an entry of GUILD_CREATE's ``threads``."""
    opened = _iso(datetime.datetime(2024, 1, 1, tzinfo=datetime.UTC))
    metadata: dict[str, Any] = {
        "archived": False,
        "auto_archive_duration": 4320,
        "archive_timestamp": opened,
        "locked": False,
        "create_timestamp": opened,
    }
    if place.private:
        metadata["invitable"] = True
    payload: dict[str, Any] = {
        "id": str(thread_id),
        "type": place.channel_type,
        "guild_id": str(guild_id),
        "parent_id": str(place.parent_id),
        "owner_id": str(place.owner_id or 1),
        "name": name or f"thread-{thread_id}",
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "message_count": 0,
        "member_count": 1,
        "total_message_sent": 0,
        "flags": 0,
        "thread_metadata": metadata,
        "permissions": str(permissions),
    }
    if place.forum:
        payload["applied_tags"] = []
    return payload


def dm_channel_payload(channel_id: int, recipient: Mapping[str, Any]) -> dict[str, Any]:
    """The DM channel Discord attaches to an interaction sent in a DM with the bot."""
    return {
        "id": str(channel_id),
        "type": 1,
        "recipients": [dict(recipient)],
        "last_message_id": None,
        "flags": 0,
    }


def role_payload(role_id: int, *, name: str | None = None, position: int = 1) -> dict[str, Any]:
    """A guild role object."""
    return {
        "id": str(role_id),
        "name": name or f"role-{role_id}",
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "icon": None,
        "unicode_emoji": None,
        "position": position,
        "permissions": "0",
        "managed": False,
        "mentionable": False,
        "flags": 0,
    }


def guild_payload(
    guild_id: int,
    *,
    channel_ids: Sequence[int] = (),
    role_ids: Sequence[int] = (),
    forum_ids: Sequence[int] = (),
    threads: Sequence[Mapping[str, Any]] = (),
) -> dict[str, Any]:
    """A guild as the gateway delivers it (GUILD_CREATE), with known channels and roles.

    A live bot holds its guilds in cache, which is what lets ``Member.roles`` and
    ``app_commands.checks.has_role`` resolve role ids; the offline session seeds
    the cache with this payload for the same effect.
    """
    everyone = role_payload(guild_id, name="@everyone", position=0)
    # A plain member's rights; the interaction's own ``permissions`` is what checks read.
    everyone["permissions"] = str(DEFAULT_APP_PERMISSIONS | PLAIN_MEMBER_EXTRAS)
    roles = [everyone] + [
        role_payload(role_id, position=index) for index, role_id in enumerate(role_ids, start=1)
    ]
    return {
        "id": str(guild_id),
        "name": f"guild-{guild_id}",
        "icon": None,
        "owner_id": "1",
        "features": [],
        "roles": roles,
        "emojis": [],
        "stickers": [],
        "channels": [guild_channel_payload(cid, guild_id) for cid in channel_ids]
        + [guild_channel_payload(cid, guild_id, channel_type=FORUM_CHANNEL) for cid in forum_ids],
        # The active threads the bot can see (a private one only once it is a member).
        "threads": [dict(thread) for thread in threads],
        "member_count": 2,
        "preferred_locale": "en-US",
        "unavailable": False,
    }


# --------------------------------------------------------------------------- interactions


def interaction_payload(
    *,
    kind: int,
    data: Mapping[str, Any],
    application_id: int,
    channel_id: int,
    user_id: int,
    guild_id: int | None = None,
    permissions: int = 0,
    roles: Sequence[int] = (),
    user_name: str = "player",
    interaction_id: int | None = None,
    token: str | None = None,
    locale: str = "en-US",
    app_permissions: int = DEFAULT_APP_PERMISSIONS,
    thread: ThreadPlace | None = None,
) -> dict[str, Any]:
    """A full INTERACTION_CREATE payload of type ``kind`` (2 command, 4 autocomplete).

    Guild interactions carry ``member`` (with ``permissions`` as a decimal
    string); DM interactions carry ``user`` instead, as Discord sends them. With
    ``thread``, ``channel_id`` is a thread's (or forum post's) and the channel is sent as
    one; ``permissions`` are then the member's in that thread, as Discord computes them.
    """
    interaction_id = interaction_id or _default_snowflakes.next()
    user = user_payload(user_id, user_name)
    payload: dict[str, Any] = {
        "id": str(interaction_id),
        "application_id": str(application_id),
        "type": kind,
        "data": dict(data),
        "channel_id": str(channel_id),
        "token": token or f"offline.{interaction_id}.{secrets.token_urlsafe(16)}",
        "version": 1,
        "locale": locale,
        "app_permissions": str(app_permissions),
        "entitlements": [],
        "attachment_size_limit": _ATTACHMENT_SIZE_LIMIT,
    }
    if guild_id is None:
        payload.update(
            user=user,
            channel=dm_channel_payload(channel_id, user),
            context=1,
            authorizing_integration_owners={"0": "0"},
        )
    else:
        payload.update(
            guild_id=str(guild_id),
            guild={"id": str(guild_id), "locale": locale, "features": []},
            guild_locale=locale,
            member=member_payload(user, roles=roles, permissions=permissions),
            channel=(guild_channel_payload(channel_id, guild_id, permissions=permissions)
                     if thread is None else
                     thread_channel_payload(channel_id, guild_id, thread,
                                            permissions=permissions)),
            context=0,
            authorizing_integration_owners={"0": str(guild_id)},
        )
    return payload


def command_payload(
    tree: app_commands.CommandTree[Any],
    path: Sequence[str],
    options: Mapping[str, object] | None = None,
    **where: Any,
) -> dict[str, Any]:
    """An APPLICATION_COMMAND (type 2) payload for ``/path options``.

    ``where`` takes the keyword arguments of :func:`interaction_payload`
    (``application_id``, ``channel_id``, ``user_id``, ``guild_id`` ...).
    """
    data = build_command_data(tree, path, options or {}, guild_id=where.get("guild_id"))
    return interaction_payload(kind=2, data=data, **where)


def autocomplete_payload(
    tree: app_commands.CommandTree[Any],
    path: Sequence[str],
    options: Mapping[str, object] | None,
    focused: str,
    **where: Any,
) -> dict[str, Any]:
    """An APPLICATION_COMMAND_AUTOCOMPLETE (type 4) payload with ``focused`` being typed."""
    data = build_command_data(
        tree, path, options or {}, guild_id=where.get("guild_id"), focused=focused
    )
    return interaction_payload(kind=4, data=data, **where)


# --------------------------------------------------------------------------- command lookup


@dataclass(frozen=True)
class ResolvedCommand:
    """A command path matched against the registered schema.

    ``chain`` holds the schema of each level, top-level command first, so the
    nested ``options`` of the interaction data can be rebuilt level by level.
    """

    path: tuple[str, ...]
    chain: tuple[dict[str, Any], ...]
    guild_id: int | None = None
    command: app_commands.Command[Any, ..., Any] | app_commands.Group | None = field(
        default=None, compare=False
    )

    @property
    def schema(self) -> dict[str, Any]:
        """The invoked command's own schema, whose options are the values to fill."""
        return self.chain[-1]

    @property
    def options(self) -> list[dict[str, Any]]:
        return list(self.schema.get("options") or [])


def is_group_schema(schema: Mapping[str, Any]) -> bool:
    """Whether a schema level holds subcommands rather than values."""
    return any(o.get("type") in (SUBCOMMAND, SUBCOMMAND_GROUP) for o in schema.get("options") or [])


def _children(schema: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [
        o for o in schema.get("options") or [] if o.get("type") in (SUBCOMMAND, SUBCOMMAND_GROUP)
    ]


def _usable_in(schema: Mapping[str, Any], guild_id: int | None) -> bool:
    """Discord only offers a command where its registered contexts allow it."""
    contexts = schema.get("contexts")
    if guild_id is not None:
        return contexts is None or 0 in contexts
    if contexts is not None:
        return 1 in contexts or 2 in contexts
    return schema.get("dm_permission", True)


@dataclass(frozen=True)
class RegisteredCommand:
    """A top-level slash command as Discord knows it: object, schema, registration scope."""

    command: app_commands.Command[Any, ..., Any] | app_commands.Group
    schema: dict[str, Any]
    guild_id: int | None


def top_level_schemas(
    tree: app_commands.CommandTree[Any], *, guild_id: int | None = None
) -> dict[str, RegisteredCommand]:
    """Slash commands a user sees in this place, by name; guild commands shadow global ones."""
    kind = discord.AppCommandType.chat_input
    names = {command.name for command in tree.get_commands(type=kind)}
    if guild_id is not None:
        names |= {command.name for command in
                  tree.get_commands(guild=discord.Object(id=guild_id), type=kind)}
    found = {name: _registered(tree, name, guild_id) for name in sorted(names)}
    return {name: registered for name, registered in found.items() if registered is not None}


def _registered(
    tree: app_commands.CommandTree[Any], name: str, guild_id: int | None
) -> RegisteredCommand | None:
    """One top-level command as a user sees it here (a guild's shadows a global one; None:
    none usable here), building that command's schema alone: a command typed costs one
    schema, not one per command."""
    kind = discord.AppCommandType.chat_input
    if guild_id is not None:
        command = tree.get_command(name, guild=discord.Object(id=guild_id), type=kind)
        if command is not None:
            return RegisteredCommand(command, command_schema(command, tree), guild_id)
    command = tree.get_command(name, type=kind)
    if command is None:
        return None
    schema = command_schema(command, tree)
    return RegisteredCommand(command, schema, None) if _usable_in(schema, guild_id) else None


def _walk_subcommands(path: tuple[str, ...], root: dict[str, Any]) -> tuple[dict[str, Any], ...]:
    chain = [root]
    for depth, word in enumerate(path[1:], start=1):
        known = [c["name"] for c in _children(chain[-1])]
        child = next((c for c in _children(chain[-1]) if c["name"] == word), None)
        if child is None:
            here = " ".join(path[:depth])
            reason = f"has no subcommand {word!r}" if known else "takes no subcommands"
            raise UnknownCommand(f"/{here} {reason}", path=path[:depth], typed=word, known=known)
        chain.append(child)
    if is_group_schema(chain[-1]):
        known = [c["name"] for c in _children(chain[-1])]
        raise UnknownCommand(
            f"/{' '.join(path)} needs a subcommand: {', '.join(known)}",
            path=path,
            known=known,
        )
    return tuple(chain)


def resolve_command(
    tree: app_commands.CommandTree[Any], path: Sequence[str], *, guild_id: int | None = None
) -> ResolvedCommand:
    """Match a path like ``["melee", "fire-at-will"]`` to a registered, invocable command."""
    words = tuple(word.lower() for word in path)
    registered = _registered(tree, words[0], guild_id) if words else None
    if registered is None:
        visible = list(top_level_schemas(tree, guild_id=guild_id))
        if not words:
            raise UnknownCommand("no command given", known=visible)
        where = "in this server" if guild_id is not None else "in direct messages"
        raise UnknownCommand(
            f"unknown command /{words[0]} {where}", typed=words[0], known=visible
        )
    chain = _walk_subcommands(words, registered.schema)
    leaf = _leaf_command(registered.command, words)
    return ResolvedCommand(path=words, chain=chain, guild_id=registered.guild_id, command=leaf)


def _leaf_command(
    command: app_commands.Command[Any, ..., Any] | app_commands.Group, words: tuple[str, ...]
) -> app_commands.Command[Any, ..., Any] | app_commands.Group:
    for word in words[1:]:
        if isinstance(command, app_commands.Group):
            child = command.get_command(word)
            if child is not None:
                command = child
    return command


# --------------------------------------------------------------------------- option values


@dataclass(frozen=True)
class OfflineFile:
    """A file a user attaches to an attachment option: its name and bytes."""

    filename: str
    data: bytes


#: What Discord's CDN serves for the attachments sent offline, by URL: the transport answers
#: ``Attachment.read()`` from here. Files are small and few (a console session, a test).
CDN: dict[str, bytes] = {}


def offline_file(value: object) -> OfflineFile:
    """An attachment option's value: an ``OfflineFile``, or a path to a file on disk."""
    if isinstance(value, OfflineFile):
        return value
    path = os.path.expanduser(os.fspath(value)) if isinstance(value, str | os.PathLike) else ""
    with open(path, "rb") as handle:
        return OfflineFile(os.path.basename(path), handle.read())


class _Resolved:
    """Collects the ``resolved`` section Discord sends alongside snowflake options."""

    def __init__(self, guild_id: int | None) -> None:
        self.guild_id = guild_id
        self.data: dict[str, dict[str, Any]] = {}

    def add_user(self, user_id: int) -> None:
        self.data.setdefault("users", {})[str(user_id)] = user_payload(user_id, f"user-{user_id}")
        if self.guild_id is not None:
            # Resolved members come without their user; discord.py joins the two.
            member = member_payload({})
            del member["user"], member["deaf"], member["mute"]
            self.data.setdefault("members", {})[str(user_id)] = member

    def add_role(self, role_id: int) -> None:
        self.data.setdefault("roles", {})[str(role_id)] = role_payload(role_id)

    def add_attachment(self, attachment_id: int, file: OfflineFile) -> None:
        url = f"https://cdn.discordapp.com/ephemeral-attachments/{attachment_id}/{file.filename}"
        CDN[url] = file.data
        self.data.setdefault("attachments", {})[str(attachment_id)] = {
            "id": str(attachment_id), "filename": file.filename, "size": len(file.data),
            "url": url, "proxy_url": url, "ephemeral": True,
            "content_type": "application/json" if file.filename.endswith(".json")
            else "application/octet-stream",
        }

    def add_channel(self, channel_id: int, channel_type: int) -> None:
        self.data.setdefault("channels", {})[str(channel_id)] = {
            "id": str(channel_id),
            "type": channel_type,
            "name": f"channel-{channel_id}",
            "permissions": "0",
            **({"guild_id": str(self.guild_id)} if self.guild_id is not None else {}),
        }


@dataclass(frozen=True)
class _OptionContext:
    path: tuple[str, ...]
    option: dict[str, Any]

    @property
    def name(self) -> str:
        return self.option["name"]

    def refuse(self, value: object, reason: str) -> BadOptionValue:
        kind = OPTION_TYPE_NAMES.get(self.option["type"], "value")
        return BadOptionValue(
            f"{self.name}: {value!r} is not a valid {kind}: {reason}",
            path=self.path,
            name=self.name,
            value=value,
            option=self.option,
        )


def _match_choice(ctx: _OptionContext, value: object) -> str | int | float:
    """Discord only sends a declared choice; accept its name or its value."""
    choices = ctx.option["choices"]
    for choice in choices:
        if value in (choice["value"], choice["name"]) or str(value) == str(choice["value"]):
            return choice["value"]
    folded = str(value).casefold()
    matches = [
        c["value"] for c in choices if folded in (c["name"].casefold(), str(c["value"]).casefold())
    ]
    if len(matches) == 1:
        return matches[0]
    names = ", ".join(f"{c['name']} ({c['value']!r})" for c in choices)
    raise ctx.refuse(value, f"choose one of {names}")


def _check_range(ctx: _OptionContext, value: int | float) -> None:
    low, high = ctx.option.get("min_value"), ctx.option.get("max_value")
    if low is not None and value < low:
        raise ctx.refuse(value, f"must be at least {low}")
    if high is not None and value > high:
        raise ctx.refuse(value, f"must be at most {high}")


def _to_string(ctx: _OptionContext, value: object) -> str:
    text = value if isinstance(value, str) else str(value)
    if text == "":
        raise ctx.refuse(value, "Discord does not send empty text")
    low, high = ctx.option.get("min_length"), ctx.option.get("max_length", 6000)
    if low is not None and len(text) < low:
        raise ctx.refuse(value, f"must be at least {low} characters")
    if len(text) > high:
        raise ctx.refuse(value, f"must be at most {high} characters")
    return text


def _to_integer(ctx: _OptionContext, value: object) -> int:
    if isinstance(value, bool):
        raise ctx.refuse(value, "expected a whole number")
    if isinstance(value, int):
        number = value
    elif isinstance(value, str) and re.fullmatch(r"\s*[-+]?\d+\s*", value):
        number = int(value)
    else:
        raise ctx.refuse(value, "expected a whole number")
    if not -_INTEGER_LIMIT < number < _INTEGER_LIMIT:
        raise ctx.refuse(value, "out of Discord's integer range")
    _check_range(ctx, number)
    return number


def _to_number(ctx: _OptionContext, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise ctx.refuse(value, "expected a number")
    try:
        number = float(value)
    except ValueError:
        raise ctx.refuse(value, "expected a number") from None
    if number != number or number in (float("inf"), float("-inf")):
        raise ctx.refuse(value, "expected a finite number")
    _check_range(ctx, number)
    return number


def _to_boolean(ctx: _OptionContext, value: object) -> bool:
    if isinstance(value, bool):
        return value
    word = str(value).strip().casefold()
    if word in _TRUE_WORDS:
        return True
    if word in _FALSE_WORDS:
        return False
    raise ctx.refuse(value, "expected true/yes or false/no")


def _snowflake(ctx: _OptionContext, value: object, pattern: re.Pattern[str]) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if hasattr(value, "id") and isinstance(value.id, int):
        return value.id
    match = pattern.fullmatch(str(value).strip())
    if match is None:
        raise ctx.refuse(value, "expected an id or a mention")
    return int(match.group(1) or match.group(2))


def _convert(ctx: _OptionContext, value: object, resolved: _Resolved) -> object:
    """One option value in the JSON form Discord delivers, recording resolved objects."""
    kind = ctx.option["type"]
    if ctx.option.get("choices"):
        return _match_choice(ctx, value)
    if kind == _STRING:
        return _to_string(ctx, value)
    if kind == _INTEGER:
        return _to_integer(ctx, value)
    if kind == _NUMBER:
        return _to_number(ctx, value)
    if kind == _BOOLEAN:
        return _to_boolean(ctx, value)
    return _convert_snowflake(ctx, value, resolved)


def _convert_snowflake(ctx: _OptionContext, value: object, resolved: _Resolved) -> str:
    kind = ctx.option["type"]
    if kind == _ROLE or (kind == _MENTIONABLE and str(value).startswith("<@&")):
        role_id = _snowflake(ctx, value, _ROLE_MENTION)
        resolved.add_role(role_id)
        return str(role_id)
    if kind in (_USER, _MENTIONABLE):
        user_id = _snowflake(ctx, value, _USER_MENTION)
        resolved.add_user(user_id)
        return str(user_id)
    if kind == _ATTACHMENT:
        try:
            file = offline_file(value)
        except OSError as error:
            raise ctx.refuse(value, f"cannot read that file ({error.strerror or error})"
                             ) from None
        if len(file.data) > _ATTACHMENT_SIZE_LIMIT:
            raise ctx.refuse(value, "larger than Discord lets a user attach")
        attachment_id = zlib.crc32(file.filename.encode() + file.data) | (1 << 40)
        resolved.add_attachment(attachment_id, file)
        return str(attachment_id)
    if kind == _CHANNEL:
        channel_id = _snowflake(ctx, value, _CHANNEL_MENTION)
        channel_types = ctx.option.get("channel_types") or [0]
        resolved.add_channel(channel_id, channel_types[0])
        return str(channel_id)
    raise ctx.refuse(value, "this option type cannot be sent offline")


# --------------------------------------------------------------------------- interaction data


def _value_options(
    resolved_command: ResolvedCommand,
    options: Mapping[str, object],
    focused: str | None,
    resolved: _Resolved,
) -> list[dict[str, Any]]:
    """The leaf command's option list, in declaration order, typed as Discord types it."""
    path = resolved_command.path
    declared = {o["name"]: o for o in resolved_command.options}
    given = {name.lower(): value for name, value in options.items() if value is not None}
    if focused is not None:
        focused = focused.lower()
        _check_focus(path, declared, focused)
        given.setdefault(focused, "")
    for name in given:
        if name not in declared:
            known = ", ".join(declared) or "none"
            raise UnknownOption(
                f"/{' '.join(path)} has no option {name!r}; options: {known}",
                path=path,
                name=name,
                known=list(declared),
            )
    if focused is None:
        _check_required(path, declared, given)
    return [
        _option_entry(_OptionContext(path, option), given[name], name == focused, resolved)
        for name, option in declared.items()
        if name in given
    ]


def _check_focus(path: tuple[str, ...], declared: Mapping[str, dict], focused: str) -> None:
    option = declared.get(focused)
    if option is None:
        raise UnknownOption(
            f"/{' '.join(path)} has no option {focused!r}",
            path=path,
            name=focused,
            known=list(declared),
        )
    if not option.get("autocomplete"):
        raise BadOptionValue(
            f"{focused}: this option has no autocomplete",
            path=path,
            name=focused,
            value=None,
            option=option,
        )


def _check_required(
    path: tuple[str, ...], declared: Mapping[str, dict], given: Mapping[str, object]
) -> None:
    missing = [name for name, o in declared.items() if o.get("required") and name not in given]
    if missing:
        raise MissingOption(
            f"/{' '.join(path)} needs {', '.join(missing)}", path=path, names=missing
        )


def _option_entry(
    ctx: _OptionContext, value: object, focused: bool, resolved: _Resolved
) -> dict[str, Any]:
    entry: dict[str, Any] = {"name": ctx.name, "type": ctx.option["type"]}
    if focused:
        # Discord sends what has been typed so far, unvalidated, as text.
        entry.update(value="" if value is None else str(value), focused=True)
    else:
        entry["value"] = _convert(ctx, value, resolved)
    return entry


def _nest(chain: Sequence[Mapping[str, Any]], leaf_options: list[dict[str, Any]]) -> list[dict]:
    """Wrap the leaf options in one subcommand / group level per path word."""
    options = leaf_options
    for level in reversed(chain[1:]):
        options = [{"name": level["name"], "type": level["type"], "options": options}]
    return options


def build_command_data(
    tree: app_commands.CommandTree[Any],
    path: Sequence[str],
    options: Mapping[str, object],
    *,
    guild_id: int | None = None,
    focused: str | None = None,
) -> dict[str, Any]:
    """The interaction ``data`` object for ``/path`` with ``options``.

    Values may be Python values or the text a user typed ("3", "yes"); each is
    converted to the option's registered type and checked the way the Discord
    client checks it. With ``focused`` the data is for an autocomplete request:
    that option's value is sent raw and required options may be missing.
    """
    command = resolve_command(tree, path, guild_id=guild_id)
    resolved = _Resolved(guild_id)
    leaf_options = _value_options(command, options, focused, resolved)
    root = command.chain[0]
    data: dict[str, Any] = {
        "id": str(stable_command_id(root["name"], command.guild_id)),
        "name": root["name"],
        "type": 1,
    }
    nested = _nest(command.chain, leaf_options)
    if nested:
        data["options"] = nested
    if resolved.data:
        data["resolved"] = resolved.data
    if command.guild_id is not None:
        data["guild_id"] = str(command.guild_id)
    return data
