"""Commands & Colors Tricorne's slash command: /melee tricorne."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.rulesets import CHOICES_HELP, DICE_HELP, LOOKUP_HELP, ProcedureRunner, Subcommand
from rules.tricorne.inputs import SITUATION_FIELDS, UNIT
from rules.tricorne.units import RULESET


def subcommands(lookups: ProcedureRunner) -> list[Subcommand]:
    @app_commands.command(
        name=RULESET,
        description="Commands & Colors Tricorne: battle dice, retire and rally, take ground, "
                    "bonus melee, battle back")
    @app_commands.describe(
        attacker="The ordered unit `Name: words` e.g. `Black Watch: highland blocks=3 "
                 "leader=Murray`",
        defender="The adjacent enemy unit (or a lone leader) e.g. `Dragoons: battle-cavalry`",
        bonus="Units a bonus melee may attack `Name: words; …` (default: the defender)",
        card="This melee is an Ambush or First Strike card's",
        dice=DICE_HELP, lookup=LOOKUP_HELP, choices=CHOICES_HELP,
    )
    async def melee(
        interaction: discord.Interaction,
        attacker: app_commands.Range[str, 1, 200],
        defender: app_commands.Range[str, 1, 200],
        bonus: app_commands.Range[str, 1, 400] | None = None,
        card: bool = False,
        dice: str | None = None, lookup: bool = False,
        choices: app_commands.Range[str, 1, 200] | None = None,
    ) -> None:
        options = {"attacker": attacker, "defender": defender, "bonus": bonus, "card": card,
                   "choices": choices}
        await lookups.resolve(interaction, RULESET, "melee", options, dice, lookup)

    @melee.autocomplete("attacker")
    @melee.autocomplete("defender")
    @melee.autocomplete("bonus")
    async def _units(interaction: discord.Interaction, current: str):
        return await lookups.unit_choices(interaction, current, UNIT, SITUATION_FIELDS)

    return [
        Subcommand("melee", "melee", melee,
                   '/melee tricorne attacker:"Black Watch: highland leader=Murray" '
                   'defender:"Fusiliers: regular blocks=3" '
                   'dice:"inf inf saber flag cav saber art"'),
    ]
