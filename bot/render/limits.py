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


def _split_field(spec: FieldSpec) -> list[FieldSpec]:
    name = clip(spec.name or "\u200b", FIELD_NAME)
    parts = split_lines(spec.value or "\u200b", FIELD_VALUE)
    return [
        FieldSpec(name if i == 0 else clip(f"{name} (cont.)", FIELD_NAME), part, spec.inline)
        for i, part in enumerate(parts)
    ]


def pack(head: EmbedSpec, extra_fields: tuple[FieldSpec, ...] = ()) -> list[EmbedSpec]:
    """Fit one logical embed (``head`` plus its fields) into at most ten real ones."""
    first = replace(
        head,
        title=clip(head.title, TITLE),
        description=clip(head.description, DESCRIPTION),
        author=clip(head.author, AUTHOR),
        footer=clip(head.footer, FOOTER),
        fields=(),
    )
    pieces = [p for f in (*head.fields, *extra_fields) for p in _split_field(f)]
    embeds = [first]
    total = first.size()
    for piece in pieces:
        current = embeds[-1]
        cost = len(piece.name) + len(piece.value)
        if len(current.fields) >= FIELDS or total + cost > TOTAL:
            if len(embeds) == EMBEDS or total + cost > TOTAL:
                return _truncated(embeds, len(pieces))
            embeds.append(EmbedSpec(colour=head.colour))
            current = embeds[-1]
        embeds[-1] = replace(current, fields=(*current.fields, piece))
        total += cost
    return embeds


def _truncated(embeds: list[EmbedSpec], _pieces: int) -> list[EmbedSpec]:
    """Mark that the output was cut; the marker itself fits in the room left."""
    note = "(cut to fit Discord's limits)"
    last = embeds[-1]
    room = TOTAL - sum(e.size() for e in embeds) + len(last.footer)
    footer = clip(f"{last.footer} {note}".strip(), min(FOOTER, max(room, 0)))
    embeds[-1] = replace(last, footer=footer)
    return embeds


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
