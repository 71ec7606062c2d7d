"""Skirmish's slash command, /melee skirmish: the example of docs/adding-a-rule-set.md."""

import discord
from discord import app_commands

from bot.rulesets import ProcedureRunner, Subcommand, slash
from rules.skirmish import RULESET_ENTRY, UNIT


def subcommands(lookups: ProcedureRunner) -> list[Subcommand]:
    @slash(RULESET_ENTRY, "a d6 per stand, 4+ hits; the loser falls back or tests",
           choices=True, attacker="One side `Name: stands=4 morale=7` (in a battle: a "
           "roster unit)", defender="The other side, likewise")
    async def melee(interaction: discord.Interaction, attacker: str, defender: str,
                    dice: str | None = None, lookup: bool = False,
                    choices: app_commands.Range[str, 1, 200] | None = None) -> None:
        options = {"attacker": attacker, "defender": defender, "choices": choices}
        await lookups.resolve(interaction, RULESET_ENTRY.key, "melee", options, dice, lookup)

    @melee.autocomplete("attacker")
    @melee.autocomplete("defender")
    async def _units(interaction: discord.Interaction, current: str):
        return await lookups.unit_choices(interaction, current, UNIT)

    return [Subcommand("melee", "melee", melee, '/melee skirmish attacker:"Rangers: stands=4 '
                       'morale=7" defender:"Voltigeurs: stands=3 morale=6" '
                       'dice:"5 4 1 2 6 3 2 4 5"')]
