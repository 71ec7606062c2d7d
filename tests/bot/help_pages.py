"""A help reply and the pages its Next button steps through, as a player reads them."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.offline.session import OfflineDiscord
from bot.offline.transport import SentMessage

from .conftest import CHANNEL, GUILD, PLAYER, reply


def labels(message: SentMessage) -> list[str]:
    return [button["label"] for row in message.components for button in row["components"]]


def next_label(message: SentMessage) -> str | None:
    return next((label for label in labels(message) if label.endswith(" ▶")), None)


async def turn(offline: OfflineDiscord, message: SentMessage, label: str) -> SentMessage:
    """Press ``label`` under the help page: the page it shows, in place of this one, with
    the visibility of the message it now is."""
    (shown,) = await offline.press(message, label, channel_id=CHANNEL, user_id=PLAYER,
                                   guild_id=GUILD)
    assert shown.kind == "update", shown.kind
    assert shown.request is not None and shown.request.message is not None
    return replace(shown, flags=int(shown.request.message.get("flags") or 0))


def goes_to(label: str) -> str:
    """The part a Next button shows ("words 2/3 ▶": words; the overview's "2/2 ▶": none)."""
    words = label.removesuffix(" ▶").split()
    return " ".join(word for word in words if "/" not in word)


async def pages(offline: OfflineDiscord, line: str, *, part: str = "",
                **where: Any) -> list[SentMessage]:
    """Every page ``line`` starts: Next pressed to the last page of ``part`` (as its
    buttons name it; the overview's pages name none), or of the topic if ``part`` is "*"."""
    shown = [await reply(offline, line, **where)]
    while (label := next_label(shown[-1])) is not None and part in ("*", goes_to(label)):
        shown.append(await turn(offline, shown[-1], label))
    return shown


def text_of_pages(messages: list[SentMessage]) -> str:
    from .conftest import text_of

    return "\n".join(text_of(message) for message in messages)


def fields_of(messages: list[SentMessage]) -> dict[str, str]:
    """The fields of the pages by name, a field run on over pages ("… (cont.)") made one."""
    fields: dict[str, str] = {}
    for message in messages:
        for embed in message.embeds:
            for field in embed.get("fields", []):
                name = field["name"].removesuffix(" (cont.)")
                fields[name] = f"{fields[name]}\n{field['value']}" if name in fields \
                    else field["value"]
    return fields
