"""Each rule set's slash commands: one module here per rule set, named after its key.

A module ``bot.rulesets.<key with underscores>`` has ``subcommands(lookups)``, which returns a
:class:`Subcommand` for every procedure of the rule set. The shared code groups them by verb
(``/melee fire-at-will``, ``/melee le-baton``) and names no rule set itself. What those modules
share is here: the options' help, :func:`choices_of`, and :class:`ProcedureRunner`, what their
commands call.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, Protocol

import discord
from discord import app_commands

from rules.core.dice import ANY_DICE
from rules.core.fields import FieldSet
from rules.core.registry import RuleSet
from rules.registry import RULESETS

DICE_HELP = "Your own dice, in the order the reply lists the rolls, e.g. `{example}`; blank: I roll"
LOOKUP_HELP = "Just look it up: leave this channel's battle alone"
# Names the separator in the form itself: every rule set's questions differ.
CHOICES_HELP = "Answers given ahead to the rules' questions, `;` between: `question=answer; answer`"


def slash(ruleset: RuleSet, description: str, *, choices: bool = False,
          **described: str) -> Callable[[Any], app_commands.Command]:
    """The decorators every rule set's command carries: named after the rule set, described
    after its title, with the help of its own options (``described``) and of the shared ones
    (``dice``, ``lookup``, and ``choices`` for a procedure that may ask a question)."""
    # The example is typed as this rule set's dice show: `3 5` is no face of a battle die.
    faces = ruleset.battle.dice_faces if ruleset.battle else ANY_DICE
    shared = {"dice": DICE_HELP.format(example=faces.example()), "lookup": LOOKUP_HELP} | (
        {"choices": CHOICES_HELP} if choices else {})

    def decorate(callback: Any) -> app_commands.Command:
        described_callback = app_commands.describe(**described, **shared)(callback)
        return app_commands.command(name=ruleset.key,
                                    description=f"{ruleset.title}: {description}"[:100],
                                    )(described_callback)

    return decorate


Option = tuple[app_commands.Command, str]  # a command and the name of one of its options


def offer_units(lookups: ProcedureRunner, words: FieldSet, situation: FieldSet | None,
                *options: Option) -> None:
    """Autocomplete for options that take units: roster names (then the situation's words) in
    a battle, the unit words in a quick lookup."""
    async def units(interaction: discord.Interaction, current: str
                    ) -> list[app_commands.Choice[str]]:
        return await lookups.unit_choices(interaction, current, words, situation)

    for command, option in options:
        command.autocomplete(option)(units)


def offer_names(lookups: ProcedureRunner, *options: Option) -> None:
    """Autocomplete for options that name a roster unit only."""
    async def names(interaction: discord.Interaction, current: str
                    ) -> list[app_commands.Choice[str]]:
        return await lookups.name_choices(interaction, current)

    for command, option in options:
        command.autocomplete(option)(names)


def choices_of(enum: type[Enum]) -> list[app_commands.Choice[str]]:
    """Readable choices for an enum's values (``enfiladed-line`` shows as ``enfiladed line``)."""
    return [app_commands.Choice(name=str(m.value).replace("-", " "), value=str(m.value))
            for m in enum]


class ProcedureRunner(Protocol):
    """What a rule set's commands call: ``bot.cogs.lookups.Lookups`` runs the procedure as a
    quick lookup or a battle move, ``bot.cogs.odds.OddsLookups`` gives its odds. The commands
    know it by these methods alone: the cogs that run them also group them, so they import
    this package, not the other way round."""

    async def resolve(self, interaction: discord.Interaction, ruleset: str, procedure: str,
                      options: dict[str, Any], dice: str | None,
                      lookup: bool = False) -> None: ...

    async def unit_choices(self, interaction: discord.Interaction, current: str,
                           words: FieldSet, situation: FieldSet | None = None
                           ) -> list[app_commands.Choice[str]]: ...

    async def name_choices(self, interaction: discord.Interaction,
                           current: str) -> list[app_commands.Choice[str]]: ...


@dataclass(frozen=True)
class Subcommand:
    """One procedure's command: ``/<verb> <rule set key>``."""

    verb: str
    procedure: str
    command: app_commands.Command
    example: str  # a quick lookup as typed, with its dice: shown in /help, run by the tests


@dataclass(frozen=True)
class RuleSetCommands:
    ruleset: RuleSet
    subcommands: list[Subcommand]
    verbs: Mapping[str, str]  # descriptions of verbs this rule set brings


def module_name(ruleset: RuleSet) -> str:
    return f"{__name__}.{ruleset.key.replace('-', '_')}"


def each_ruleset(lookups: ProcedureRunner) -> Iterator[RuleSetCommands]:
    """Every registered rule set with its commands, loaded from its module here."""
    for ruleset in RULESETS.values():
        module = importlib.import_module(module_name(ruleset))
        build: Callable[[ProcedureRunner], list[Subcommand]] = module.subcommands
        yield RuleSetCommands(ruleset, build(lookups), getattr(module, "VERBS", {}))
