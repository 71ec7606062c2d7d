"""Turn an engine ``Resolution`` into embeds a player reads at a glance on a phone.

The result comes first and is said once: the title is the headline and the colour says
how hard it fell; the description is one line per unit it falls on (and, in a battle,
what changed on the roster). The arithmetic follows, for whoever wants it: one field per
step, each roll on one line (every die, every modifier with its reason, the total and what
it was read against), the step's outcome closing its last roll.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.render.limits import EmbedSpec, FieldSpec, pack_messages
from bot.render.text import defaults_note, escape
from rules.core.decisions import Question
from rules.core.dice import Reading
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


def source_line(resolution: Resolution) -> str:
    ruleset = RULESETS.get(resolution.ruleset)
    title = ruleset.title if ruleset else resolution.ruleset
    return f"{title} · {resolution.procedure.replace('-', ' ').capitalize()}"


def modifier_text(modifier: Modifier) -> str:
    return f"{modifier.signed()} {modifier.reason}"


def roll_line(roll: Roll, *, labelled: bool = True, with_target: bool = True) -> str:
    """One roll on one line: label, every die, every modifier with its reason, total, target.

    ``labelled`` and ``with_target`` are off when the step around it already says them.
    """
    if roll.hits is not None:
        return pool_line(roll, labelled=labelled, with_target=with_target)
    dice = dice_text(roll)
    parts = [f"**{escape(roll.label)}** 🎲 {dice}" if labelled else f"🎲 {dice}"]
    parts.extend(modifier_text(m) for m in roll.modifiers)
    line = " ".join(parts)
    if roll.total is not None and (roll.modifiers or len(roll.dice) > 1):
        line += f" = **{roll.total}**"
    if roll.target and with_target:
        line += f" vs {roll.target}"
    if roll.result:
        line += f" → {roll.result}"
    return line + notes_text(roll)


# How a die shows by its reading: hits in bold, dice set aside struck through.
SHOWN: dict[Reading, str] = {Reading.HIT: "**{}**", Reading.DROPPED: "~~{}~~"}


def dice_text(roll: Roll) -> str:
    return " ".join(SHOWN.get(reading, "{}").format(face)
                    for face, reading in zip(roll.dice, roll.readings, strict=True))


def pool_line(roll: Roll, *, labelled: bool = True, with_target: bool = True) -> str:
    """Dice read one by one: each die against the number, hits in bold."""
    dice = dice_text(roll) or "no dice"
    line = f"**{escape(roll.label)}** 🎲 {dice}" if labelled else f"🎲 {dice}"
    if roll.modifiers:
        line += " (each die " + " ".join(modifier_text(m) for m in roll.modifiers) + ")"
    if roll.target and with_target:
        line += f" vs {roll.target}"
    line += f" → {roll.result or roll.hits}"
    return line + notes_text(roll)


def notes_text(roll: Roll) -> str:
    return "".join(f"\n  ‣ {note}" for note in roll.notes)


def shared_target(step: Step) -> str | None:
    """The target every roll of the step is read against, when there are several."""
    targets = {roll.target for roll in step.rolls}
    if len(step.rolls) > 1 and len(targets) == 1:
        return targets.pop()
    return None


def step_field(step: Step) -> FieldSpec:
    """A step in one field: each roll on one line, the outcome closing the last one.

    A target shared by every roll is said once, in the field's name; a lone roll named in
    the step's title drops its label.
    """
    target = shared_target(step)
    labelled = not (len(step.rolls) == 1 and step.rolls[0].label in step.title)
    lines = [roll_line(roll, labelled=labelled, with_target=target is None)
             for roll in step.rolls]
    if not step.outcome:
        pass
    elif lines and "\n" not in lines[-1]:
        lines[-1] += f" — {escape(step.outcome)}"
    else:
        lines.append(escape(step.outcome))
    name = f"{step.title} · vs {target}" if target else step.title
    return FieldSpec(escape(name), "\n".join(lines))


def effect_lines(resolution: Resolution) -> list[str]:
    """One line per unit or general: everything that falls on it, in the order given."""
    by_unit: dict[str, list[str]] = {}
    for effect in resolution.effects:
        text = effect.describe()
        if text.startswith(effect.unit):
            text = text[len(effect.unit):].lstrip(":").strip()
        by_unit.setdefault(effect.unit, []).append(text)
    return [f"**{escape(unit)}** {escape(', '.join(parts))}" for unit, parts in by_unit.items()]


def effects_block(resolution: Resolution, battle_changes: Sequence[str] | None) -> str:
    """What the result does, under the headline; in a battle, what changed on the roster."""
    lines = effect_lines(resolution) or ["No effect on any unit."]
    if battle_changes is not None:
        roster = [escape(line) for line in battle_changes] or ["No change to the roster."]
        lines += [f"📋 {line}" for line in roster]
    return "\n".join(lines)


def resolution_specs(
    resolution: Resolution, *, dice_note: str = "", battle_changes: Sequence[str] | None = None
) -> list[list[EmbedSpec]]:
    """The messages that show a resolution: usually one; more when it is very long.

    ``battle_changes`` (in a battle) lists what changed on the roster, shown right under
    the effects so the consequence is visible at a glance.
    """
    fields = [step_field(step) for step in resolution.steps]
    if resolution.notes:
        fields.append(FieldSpec("Reminders", "\n".join(f"• {n}" for n in resolution.notes)))
    head = EmbedSpec(
        title=f"{ICONS[resolution.severity]} {escape(resolution.headline)}",
        description=effects_block(resolution, battle_changes),
        colour=COLOURS[resolution.severity],
        author=source_line(resolution),
        footer=" · ".join(filter(None, (dice_note, defaults_note(resolution.defaults)))),
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


QUESTION_COLOUR = 0x5865F2  # blurple: the table waits for a player


def question_messages(ruleset: str, procedure: str, question: Question,
                      steps: Sequence[Step], *, whose: str, dice_note: str = ""
                      ) -> list[list[discord.Embed]]:
    """What happened before a question, and the question: the player answers with the
    buttons under it (or ``/answer``). ``whose`` is markdown, names already escaped."""
    answers = " · ".join(f"`{a.key}`" for a in question.answers)
    typed = f"; or with {question.typed}" if question.typed else ""
    head = EmbedSpec(
        title=f"❓ {escape(question.text)}",
        description=f"{whose} decides. Answer with a button below, or `/answer` "
                    f"with one of: {answers}{typed}.",
        colour=QUESTION_COLOUR,
        author=f"{RULESETS[ruleset].title if ruleset in RULESETS else ruleset} · "
               f"{procedure.replace('-', ' ').capitalize()}",
        footer=dice_note,
        fields=tuple(step_field(step) for step in steps),
    )
    return [[to_discord(spec) for spec in message] for message in pack_messages(head)]
