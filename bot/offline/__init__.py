"""Offline Discord: run the bot's slash commands with no token and no network.

Raw interaction payloads go through discord.py's real ``CommandTree``; the
webhook layer that carries responses is replaced so replies are captured
instead of sent. Used by the test suite and by ``huzzah console``.
"""

from .commandline import CommandLine, CommandLineError, help_text, parse_command_line
from .payloads import (
    BadOptionValue,
    MissingOption,
    OfflineInputError,
    ResolvedCommand,
    Snowflakes,
    ThreadPlace,
    UnknownCommand,
    UnknownOption,
    autocomplete_payload,
    build_command_data,
    command_payload,
    interaction_payload,
    resolve_command,
)
from .render import plain, render_embed, render_message, render_messages
from .session import Dispatch, OfflineDiscord
from .transport import (
    OfflineNetworkError,
    OfflineTransport,
    SentFile,
    SentMessage,
    SentRequest,
    autocomplete_choices,
    sent_messages,
)

__all__ = [
    "BadOptionValue",
    "CommandLine",
    "CommandLineError",
    "Dispatch",
    "MissingOption",
    "OfflineDiscord",
    "OfflineInputError",
    "OfflineNetworkError",
    "OfflineTransport",
    "ResolvedCommand",
    "SentFile",
    "SentMessage",
    "SentRequest",
    "Snowflakes",
    "ThreadPlace",
    "UnknownCommand",
    "UnknownOption",
    "autocomplete_choices",
    "autocomplete_payload",
    "build_command_data",
    "command_payload",
    "help_text",
    "interaction_payload",
    "parse_command_line",
    "plain",
    "render_embed",
    "render_message",
    "render_messages",
    "resolve_command",
    "sent_messages",
]
