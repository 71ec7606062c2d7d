"""Show captured replies as terminal text.

The console prints what a Discord user would see: who can see it, the
content, every embed part that carries information, attachments and buttons.
Discord markdown emphasis is dropped since a terminal would print the
asterisks literally; everything else is kept.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import Any

from .transport import SentFile, SentMessage

__all__ = ["plain", "render_embed", "render_message", "render_messages"]

# A code span is matched first and kept whole: emphasis may enclose one (a struck-out log
# line), but none is read inside it.
_EMPHASIS = re.compile(r"(?P<code>`[^`]*`)|(?P<mark>\*\*|__|~~)(?P<inner>.+?)(?P=mark)",
                       re.DOTALL)
_BAR = "| "

_HEADINGS = {
    "response": "reply",
    "deferral": "thinking...",
    "followup": "follow-up",
    "edit": "edited",
    "update": "updated message",
    "delete": "deleted a message",
    "modal": "form",
}


_TIMESTAMP = re.compile(r"<t:(-?\d{1,12})(?::[tTdDfFR])?>")


def plain(text: str) -> str:
    """Discord markdown to plain text: ``**bold**``, ``__underline__`` and ``~~strike~~``;
    a timestamp (``<t:1700000000:R>``), which Discord shows in the reader's time, in UTC.
    A code span stays as typed, as Discord shows it: a name suggested there (`**Ney**`)
    must be typed with its asterisks."""
    previous = None
    while previous != text:
        previous, text = text, _EMPHASIS.sub(_unemphasized, text)
    return _TIMESTAMP.sub(_utc, text)


def _unemphasized(match: re.Match[str]) -> str:
    return match["code"] or match["inner"]


def _utc(match: re.Match[str]) -> str:
    when = datetime.fromtimestamp(int(match[1]), tz=UTC)
    return when.strftime("%Y-%m-%d %H:%M UTC")


def _heading(message: SentMessage) -> str:
    heading = _HEADINGS.get(message.kind, message.kind)
    if message.kind == "edit" and message.message_id not in (None, "@original"):
        heading = f"edited message {message.message_id}"
    elif message.kind == "edit":
        heading = "edited reply"
    if message.ephemeral:
        heading += " (only you can see this)"
    return f"-- {heading} --"


def _size(file: SentFile) -> str:
    if file.size == 1:
        return "1 byte"
    size = float(file.size)
    for unit in ("bytes", "KiB", "MiB"):
        if size < 1024 or unit == "MiB":
            return f"{size:.0f} {unit}" if unit == "bytes" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{file.size} bytes"


def _indent(text: str, prefix: str) -> list[str]:
    return [prefix + line for line in plain(text).splitlines() or [""]]


def _embed_head(embed: Mapping[str, Any]) -> list[str]:
    lines = []
    author = (embed.get("author") or {}).get("name")
    if author:
        lines.extend(_indent(author, _BAR))
    if embed.get("title"):
        lines.extend(_indent(str(embed["title"]), _BAR + "# "))
    if embed.get("url"):
        lines.append(_BAR + str(embed["url"]))
    if embed.get("description"):
        lines.extend(_indent(str(embed["description"]), _BAR))
    return lines


def _embed_fields(embed: Mapping[str, Any]) -> list[str]:
    lines = []
    for item in embed.get("fields") or []:
        lines.append(_BAR)
        lines.extend(_indent(str(item.get("name", "")), _BAR))
        lines.extend(_indent(str(item.get("value", "")), _BAR + "    "))
    return lines


def _embed_tail(embed: Mapping[str, Any]) -> list[str]:
    lines = []
    for key in ("image", "thumbnail"):
        url = (embed.get(key) or {}).get("url")
        if url:
            lines.append(f"{_BAR}[{key}: {url}]")
    footer = (embed.get("footer") or {}).get("text")
    if footer or embed.get("timestamp"):
        lines.append(_BAR)
    if footer:
        lines.extend(_indent(str(footer), _BAR + "-- "))
    if embed.get("timestamp"):
        lines.append(f"{_BAR}{embed['timestamp']}")
    return lines


def render_embed(embed: Mapping[str, Any]) -> str:
    """One embed as a barred block: author, title, url, description, fields, footer."""
    lines = _embed_head(embed) + _embed_fields(embed) + _embed_tail(embed)
    return "\n".join(lines or [_BAR + "(empty embed)"])


def _components(components: Iterable[Mapping[str, Any]]) -> list[str]:
    """Buttons and menus, flattened out of their action rows."""
    labels = []
    for component in components:
        nested = component.get("components")
        if nested:
            labels.extend(_components(nested))
        elif component.get("type") == 2:
            labels.append(f"[button: {component.get('label') or component.get('emoji') or '?'}]")
        elif component.get("type") in (3, 5, 6, 7, 8):
            # What a menu offers, one a line: the console's `press` picks one by its label.
            # Discord shows each option's description under it: where labels are cut short
            # alike, it is what tells them apart.
            offered = "".join(
                f"\n  • {option.get('label')}"
                + (f"\n      {option['description']}" if option.get("description") else "")
                for option in component.get("options") or ())
            labels.append(f"[menu: {component.get('placeholder') or component.get('custom_id')}]"
                          + offered)
        elif component.get("content"):
            labels.append(plain(str(component["content"])))
    return labels


def _attachment(file: SentFile, saved: Mapping[SentFile, str]) -> str:
    note = saved.get(file)
    return f"[attachment] {file.filename} ({_size(file)})" + (f" {note}" if note else "")


def render_message(message: SentMessage, saved: Mapping[SentFile, str] | None = None) -> str:
    """One captured message (or deferral, edit, deletion) as text.

    ``saved`` says, per attached file, where the console wrote it.
    """
    lines = [_heading(message)]
    if message.kind == "modal":
        lines.append(message.title or "")
    if message.content:
        lines.append(plain(message.content))
    lines.extend(render_embed(embed) for embed in message.embeds)
    lines.extend(_attachment(file, saved or {}) for file in message.files)
    buttons = _components(message.components)
    if buttons:
        lines.append(" ".join(buttons))
    return "\n".join(lines)


def render_messages(
    messages: Iterable[SentMessage], saved: Mapping[SentFile, str] | None = None
) -> str:
    """Several messages, separated by blank lines; Discord's own notice when there are none."""
    rendered = [render_message(message, saved) for message in messages]
    if not rendered:
        return "(no reply: Discord would show 'The application did not respond')"
    return "\n\n".join(rendered)
