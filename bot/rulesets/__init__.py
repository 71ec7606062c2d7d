"""Each rule set's slash commands: one module here per rule set, named after its key.

A module ``bot.rulesets.<key with underscores>`` has ``subcommands(lookups)``, which returns a
:class:`Subcommand` for every procedure of the rule set. The shared code groups them by verb
(``/melee fire-at-will``, ``/melee le-baton``) and names no rule set itself.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from discord import app_commands

from rules.core.registry import RuleSet
from rules.registry import RULESETS

if TYPE_CHECKING:
    from bot.cogs.lookups import Lookups


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


def each_ruleset(lookups: Lookups) -> Iterator[RuleSetCommands]:
    """Every registered rule set with its commands, loaded from its module here."""
    for ruleset in RULESETS.values():
        module = importlib.import_module(module_name(ruleset))
        build: Callable[[Lookups], list[Subcommand]] = module.subcommands
        yield RuleSetCommands(ruleset, build(lookups), getattr(module, "VERBS", {}))
