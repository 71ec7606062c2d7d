"""Turn an engine ``Resolution`` into embeds a player reads at a glance on a phone.

The result comes first: the title is the headline and the colour says how hard it
fell. The description sums up the effects; then one field per step shows its rolls
(every die, every modifier with its reason, the total and what it was read against)
and its outcome in words.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import discord

from bot.render.limits import EmbedSpec, FieldSpec, pack_messages
from rules.core.records import Modifier, Resolution, Roll, Severity, Step
from rules.registry import RULESETS

COLOURS: dict[Severity, int] = {
    Severity.NONE: 0x2E8B57,  # green: nothing gave way
    Severity.MINOR: 0xDAA520,  # gold: a small change
    Severity.MAJOR: 0xE67E22,  # orange: losses, a retreat
    Severity.DECISIVE: 0xC0392B,  # red: a rout, a surrender
}

ICONS: dict[Severity, str] = {
    Severity.NONE: "🛡️",
    Severity.MINOR: "↔️",
    Severity.MAJOR: "⚠️",
    Severity.DECISIVE: "💥",
}

_MARKDOWN = re.compile(r"([\\*_`~|>])")


def escape(text: str) -> str:
    """Escape Discord markdown in player-given text (unit names)."""
    return _MARKDOWN.sub(r"\\\1", text)


def source_line(resolution: Resolution) -> str:
    ruleset = RULESETS.get(resolution.ruleset)
    title = ruleset.title if ruleset else resolution.ruleset
    return f"{title} · {resolution.procedure.replace('-', ' ').capitalize()}"


def modifier_text(modifier: Modifier) -> str:
    return f"{modifier.signed()} {modifier.reason}"


def roll_line(roll: Roll) -> str:
    if roll.hits is not None:
        return pool_line(roll)
    dice = " ".join(str(f) for f in roll.dice)
    parts = [f"**{escape(roll.label)}** 🎲 {dice}"]
    parts.extend(modifier_text(m) for m in roll.modifiers)
    line = " ".join(parts)
    if roll.total is not None and (roll.modifiers or len(roll.dice) > 1):
        line += f" = **{roll.total}**"
    if roll.target:
        line += f" vs {roll.target}"
    if roll.result:
        line += f" → {roll.result}"
    if roll.notes:
        line += "\n" + "\n".join(f"  ‣ {note}" for note in roll.notes)
    return line


def pool_line(roll: Roll) -> str:
    """Dice read one by one: each die against the number, hits in bold."""
    bonus = sum(m.value for m in roll.modifiers)
    needed = int(roll.target.split("+")[0]) if roll.target and roll.target[0].isdigit() else None
    faces = []
    for face in roll.dice:
        hit = needed is not None and isinstance(face, int) and face + bonus >= needed
        faces.append(f"**{face}**" if hit else str(face))
    line = f"**{escape(roll.label)}** 🎲 {' '.join(faces) or 'no dice'}"
    if roll.modifiers:
        line += " (each die " + " ".join(modifier_text(m) for m in roll.modifiers) + ")"
    if roll.target:
        line += f" vs {roll.target}"
    line += f" → {roll.result or roll.hits}"
    if roll.notes:
        line += "\n" + "\n".join(f"  ‣ {note}" for note in roll.notes)
    return line


def step_field(step: Step) -> FieldSpec:
    lines = [roll_line(roll) for roll in step.rolls]
    lines.append(step.outcome)
    return FieldSpec(step.title, "\n".join(lines))


def resolution_specs(
    resolution: Resolution, *, dice_note: str = "", battle_changes: Sequence[str] | None = None
) -> list[list[EmbedSpec]]:
    """The messages that show a resolution: usually one; more when it is very long.

    ``battle_changes`` (in a battle) lists what changed on the roster, shown right under
    the effects so the consequence is visible at a glance.
    """
    effects = "\n".join(f"• {escape(e.describe())}" for e in resolution.effects)
    fields = [step_field(step) for step in resolution.steps]
    if battle_changes is not None:
        changed = "\n".join(escape(line) for line in battle_changes) or "No change to the roster."
        fields.insert(0, FieldSpec("Roster", changed))
    if resolution.notes:
        fields.append(FieldSpec("Reminders", "\n".join(f"• {n}" for n in resolution.notes)))
    head = EmbedSpec(
        title=f"{ICONS[resolution.severity]} {resolution.headline}",
        description=effects or "No effect on any unit.",
        colour=COLOURS[resolution.severity],
        author=source_line(resolution),
        footer=dice_note,
        fields=tuple(fields),
    )
    return pack_messages(head)


def to_discord(spec: EmbedSpec) -> discord.Embed:
    embed = discord.Embed(
        title=spec.title or None,
        description=spec.description or None,
        colour=spec.colour,
    )
    if spec.author:
        embed.set_author(name=spec.author)
    if spec.footer:
        embed.set_footer(text=spec.footer)
    for f in spec.fields:
        embed.add_field(name=f.name, value=f.value, inline=f.inline)
    return embed


def resolution_messages(
    resolution: Resolution, *, dice_note: str = "", battle_changes: Sequence[str] | None = None
) -> list[list[discord.Embed]]:
    return [
        [to_discord(spec) for spec in message]
        for message in resolution_specs(
            resolution, dice_note=dice_note, battle_changes=battle_changes
        )
    ]
