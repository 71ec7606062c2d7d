"""Commands & Colors Tricorne's slash command: /melee tricorne."""

import discord
from discord import app_commands

from bot.rulesets import ProcedureRunner, Subcommand, offer_units, slash
from rules.tricorne import RULESET_ENTRY
from rules.tricorne.inputs import SITUATION_FIELDS, UNIT
from rules.tricorne.units import RULESET


def subcommands(lookups: ProcedureRunner) -> list[Subcommand]:
    @slash(
        RULESET_ENTRY, "battle dice, retire and rally, take ground, bonus melee, battle back",
        choices=True,
        attacker="The ordered unit `Name: words` e.g. `Black Watch: highland blocks=3 "
                 "leader=Murray`",
        defender="The adjacent enemy unit (or a lone leader) e.g. `Dragoons: battle-cavalry`",
        bonus="Units a bonus melee may attack `Name: words; …` (default: the defender)",
        card="This melee is an Ambush or First Strike card's",
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

    offer_units(lookups, UNIT, SITUATION_FIELDS, (melee, "attacker"), (melee, "defender"),
                (melee, "bonus"))

    return [
        Subcommand("melee", "melee", melee,
                   '/melee tricorne attacker:"Black Watch: highland leader=Murray" '
                   'defender:"Fusiliers: regular blocks=3" '
                   'dice:"inf inf saber flag cav saber art"'),
    ]
