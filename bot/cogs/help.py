"""/help: the commands, the rule sets, and the words the unit notation takes."""

from __future__ import annotations

from collections.abc import Sequence

import discord
from discord import app_commands
from discord.ext import commands

from bot.render.limits import EmbedSpec, FieldSpec, pack
from bot.render.resolution import to_discord
from rules.core.notation import QUOTING_RULE
from rules.core.roster import strength_word
from rules.registry import RULESETS

HELP_COLOUR = 0x34495E

NOTATION = (
    "Describe units in one option as `Name: words; Name: words`. "
    "The name comes before the colon; the words after it say what the unit is and what it "
    "is doing, e.g. `2nd Foot: inf regular charging general=\"Wolfe\"`. "
    + QUOTING_RULE
)

ORDER = ("melee", "charge", "fire", "artillery", "morale", "recall", "surrender", "answer",
         "battle",
         "unit", "general", "gm", "help")


def command_fields(tree: app_commands.CommandTree) -> list[FieldSpec]:
    """One field per top-level command, listing its subcommands."""
    commands = sorted(tree.get_commands(),
                      key=lambda c: ORDER.index(c.name) if c.name in ORDER else len(ORDER))
    fields = []
    for command in commands:
        if isinstance(command, app_commands.Group):
            lines = [f"`/{command.name} {sub.name}`: {sub.description}"
                     for sub in command.commands]
            fields.append(FieldSpec(f"/{command.name}: {command.description}", "\n".join(lines)))
        else:
            fields.append(FieldSpec(f"/{command.name}", command.description))
    return fields


def overview(tree: app_commands.CommandTree) -> list[EmbedSpec]:
    rulesets = "\n".join(
        f"`{r.key}`: {r.title}: " + ", ".join(r.procedures) for r in RULESETS.values()
    )
    return pack(
        EmbedSpec(
            title="Huzzah: dice for horse-and-musket wargames",
            description=NOTATION,
            colour=HELP_COLOUR,
            fields=(
                *command_fields(tree),
                FieldSpec("Rule sets", rulesets),
                FieldSpec("More", "`/help topic:<rule set>` lists the words each rule set takes."),
            ),
        )
    )


def battle_words(topic: str) -> list[FieldSpec]:
    """How a battle's roster takes this rule set's words, and its own word for strength."""
    rules = RULESETS[topic].battle
    if rules is None:
        return []
    label = rules.strength_label
    word = strength_word(label)
    return [FieldSpec(f"In a battle: strength in {label}", (
        f"A unit's strength counts {label}. Give it among the words of `/unit add` or "
        f"`/unit edit` as `{word}=N` (e.g. `{word}=4`), or with the `strength` option. "
        f"`/battle show` and every reply count it in {label}."))]


def topic_help(topic: str, examples: Sequence[str] = ()) -> list[EmbedSpec]:
    ruleset = RULESETS[topic]
    fields = tuple(FieldSpec(label, "\n".join(words.help_lines()))
                   for label, words in ruleset.help.words)
    fields += tuple(battle_words(topic))
    fields += tuple(FieldSpec(label, "\n".join(f"• {line}" for line in lines))
                    for label, lines in ruleset.help.reference)
    if examples:
        fields += (FieldSpec("Try it (a quick lookup with your own dice)",
                             "\n".join(f"`{example}`" for example in examples)),)
    return pack(
        EmbedSpec(title=f"{ruleset.title}: unit words", description=NOTATION,
                  colour=HELP_COLOUR, fields=fields)
    )


class Help(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    def examples(self, topic: str) -> list[str]:
        rulesets = getattr(self.bot, "rulesets", [])
        return [sub.example for commands in rulesets if commands.ruleset.key == topic
                for sub in commands.subcommands]

    @app_commands.command(name="help", description="How to use Huzzah: commands and unit words")
    @app_commands.describe(topic="A rule set, to list the words its units take")
    @app_commands.choices(
        topic=[app_commands.Choice(name=r.title, value=r.key) for r in RULESETS.values()]
    )
    async def help(
        self, interaction: discord.Interaction, topic: app_commands.Choice[str] | None = None
    ) -> None:
        specs = (topic_help(topic.value, self.examples(topic.value)) if topic
                 else overview(self.bot.tree))
        await interaction.response.send_message(
            embeds=[to_discord(s) for s in specs], ephemeral=True
        )
