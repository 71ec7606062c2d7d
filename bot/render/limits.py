"""Discord's message limits, and a packer that keeps any content inside them.

Content is built as plain ``EmbedSpec`` records first; ``pack`` then splits long
field values at line breaks, spreads fields over as many embeds as needed, and as a
last resort cuts text with a visible marker. Nothing the bot sends can exceed a limit.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

TITLE = 256
DESCRIPTION = 4096
FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
AUTHOR = 256
TOTAL = 6000
EMBEDS = 10
CONTENT = 2000

CUT = "…"


@dataclass(frozen=True)
class FieldSpec:
    name: str
    value: str
    inline: bool = False


@dataclass(frozen=True)
class EmbedSpec:
    title: str = ""
    description: str = ""
    colour: int = 0
    author: str = ""
    footer: str = ""
    fields: tuple[FieldSpec, ...] = field(default_factory=tuple)

    def size(self) -> int:
        """Characters counted against the 6000 a message may carry."""
        return (
            len(self.title)
            + len(self.description)
            + len(self.author)
            + len(self.footer)
            + sum(len(f.name) + len(f.value) for f in self.fields)
        )


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - len(CUT)] + CUT


def split_lines(text: str, limit: int) -> list[str]:
    """Split at line breaks into chunks of at most ``limit``; cut single lines too long."""
    chunks: list[str] = []
    current = ""
    for line in text.split("\n"):
        line = clip(line, limit)
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) <= limit:
            current = candidate
        else:
            chunks.append(current)
            current = line
    chunks.append(current)
    return [c if c.strip() else "\u200b" for c in chunks]


GOING_ON = "(cont.)"


def _split_field(spec: FieldSpec) -> list[FieldSpec]:
    name = clip(spec.name or "\u200b", FIELD_NAME)
    parts = split_lines(spec.value or "\u200b", FIELD_VALUE)
    # A field that is itself the rest of a description is named as going on already.
    going_on = name if name.endswith(GOING_ON) else clip(f"{name} {GOING_ON}", FIELD_NAME)
    return [FieldSpec(name if i == 0 else going_on, part, spec.inline)
            for i, part in enumerate(parts)]


MAX_MESSAGES = 5
HEAD_RESERVE = 1000  # room kept for fields next to a very long description


def _description_room(title: str, author: str) -> int:
    """The most a head's description may hold beside its title and author, leaving room in
    the message's 6000 characters for fields."""
    return min(DESCRIPTION, TOTAL - len(title) - len(author) - HEAD_RESERVE)


def _footer_room(title: str, author: str, description: str) -> int:
    """The most a head's footer may hold beside the rest of the head: half the room kept
    for fields may go to it."""
    return min(FOOTER, TOTAL - len(title) - len(author) - len(description) - HEAD_RESERVE
               + HEAD_RESERVE // 2)


def _fit_head(head: EmbedSpec) -> tuple[EmbedSpec, str]:
    """Fit the head so that, alone, it leaves room in a message's 6000 characters; and what
    of its description did not fit, at a line break, to go on in fields."""
    title = clip(head.title, TITLE)
    author = clip(head.author, AUTHOR)
    first, *rest = split_lines(head.description, _description_room(title, author))
    description = first if head.description else head.description
    footer = clip(head.footer, _footer_room(title, author, description))
    return replace(head, title=title, author=author, description=description, footer=footer,
                   fields=()), "\n".join(rest)


def _fits_as_it_is(head: EmbedSpec) -> bool:
    """Whether ``head`` is one embed that already keeps every limit, so that packing it would
    give it back unchanged: nearly every reply is, and building it again field by field cost
    a fifth of a reply's rendering. What packing would change (a clipped text, a field split
    or emptied, a second embed) is left to it."""
    if (len(head.title) > TITLE or len(head.author) > AUTHOR or len(head.fields) > FIELDS
            or len(head.description) > _description_room(head.title, head.author)
            or len(head.footer) > _footer_room(head.title, head.author, head.description)
            or head.size() > TOTAL):
        return False
    return all(f.name and len(f.name) <= FIELD_NAME and len(f.value) <= FIELD_VALUE
               and f.value.strip() for f in head.fields)


def pack_messages(head: EmbedSpec) -> list[list[EmbedSpec]]:
    """Fit one logical embed (``head`` and its fields) into messages that each obey every limit.

    Long field values continue in "(cont.)" fields; past 25 fields a message takes another
    embed; past 6000 characters or 10 embeds the rest goes to a further message. Beyond
    ``MAX_MESSAGES`` the output is cut, with a marker saying so.
    """
    if _fits_as_it_is(head):
        return [[head]]
    first, overflow = _fit_head(head)
    messages: list[list[EmbedSpec]] = [[first]]
    total = first.size()
    going_on = (FieldSpec(GOING_ON, overflow),) if overflow else ()
    pieces = [p for f in (*going_on, *head.fields) for p in _split_field(f)]
    for index, piece in enumerate(pieces):
        cost = len(piece.name) + len(piece.value)
        embeds = messages[-1]
        if total + cost > TOTAL or (len(embeds[-1].fields) >= FIELDS and len(embeds) == EMBEDS):
            if len(messages) == MAX_MESSAGES:
                return _cut(messages, len(pieces) - index)
            messages.append([EmbedSpec(colour=head.colour)])
            embeds, total = messages[-1], 0
        elif len(embeds[-1].fields) >= FIELDS:
            embeds.append(EmbedSpec(colour=head.colour))
        embeds[-1] = replace(embeds[-1], fields=(*embeds[-1].fields, piece))
        total += cost
    return messages


def pack(head: EmbedSpec) -> list[EmbedSpec]:
    """The first message of ``pack_messages``, for content known to be short (help)."""
    messages = pack_messages(head)
    if len(messages) > 1:
        return _cut(messages[:1], 1)[0]
    return messages[0]


def _cut(messages: list[list[EmbedSpec]], left: int) -> list[list[EmbedSpec]]:
    """Mark, in the last message's last footer, that ``left`` parts were left out."""
    embeds = messages[-1]
    note = f"({left} more part{'s' if left != 1 else ''} cut to fit Discord's limits)"
    room = TOTAL - sum(e.size() for e in embeds)
    last = embeds[-1]
    footer = f"{last.footer} {note}".strip()
    embeds[-1] = replace(last, footer=clip(footer, min(FOOTER, len(last.footer) + room)))
    return messages


def violations(embeds: list[dict], content: str | None = None) -> list[str]:
    """Every way a message payload breaks Discord's limits (empty when it is fine)."""
    problems: list[str] = []
    if content is not None and len(content) > CONTENT:
        problems.append(f"content {len(content)} > {CONTENT}")
    if len(embeds) > EMBEDS:
        problems.append(f"{len(embeds)} embeds > {EMBEDS}")
    total = 0
    for i, embed in enumerate(embeds):
        checks = [
            ("title", len(embed.get("title", "")), TITLE),
            ("description", len(embed.get("description", "")), DESCRIPTION),
            ("footer", len(embed.get("footer", {}).get("text", "")), FOOTER),
            ("author", len(embed.get("author", {}).get("name", "")), AUTHOR),
            ("fields", len(embed.get("fields", [])), FIELDS),
        ]
        for f in embed.get("fields", []):
            checks.append(("field name", len(f.get("name", "")), FIELD_NAME))
            checks.append(("field value", len(f.get("value", "")), FIELD_VALUE))
            if not f.get("name") or not f.get("value"):
                problems.append(f"embed {i}: empty field name or value")
            total += len(f.get("name", "")) + len(f.get("value", ""))
        total += sum(
            len(x)
            for x in (
                embed.get("title", ""),
                embed.get("description", ""),
                embed.get("footer", {}).get("text", ""),
                embed.get("author", {}).get("name", ""),
            )
        )
        problems.extend(f"embed {i}: {what} {n} > {limit}" for what, n, limit in checks
                        if n > limit)
    if total > TOTAL:
        problems.append(f"total {total} > {TOTAL}")
    return problems
