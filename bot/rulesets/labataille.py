"""La Bataille's slash commands: /assault labataille, /charge labataille (the Old Guard
Charge) and /order labataille (who chooses the first assault)."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.cogs.lookups import CHOICES_HELP, DICE_HELP, LOOKUP_HELP, Lookups
from bot.rulesets import Subcommand
from rules.labataille.inputs import SITUATION_FIELDS, STACK
from rules.labataille.units import RULESET

VERBS = {
    "assault": "Resolve an infantry assault",
    "order": "Who chooses the first assault",
}
ATTACKERS = ("The assaulting stacks `Name: words; …` e.g. `1/45e: infantry morale=34 melee=12 "
             "fire=6 defence=9 distance=2`")
DEFENDERS = "The target stacks e.g. `52nd: infantry nation=british morale=41 melee=8`"
FIREFIGHT = "A firefight carried over (quick lookups; a battle finds it on the roster)"


def subcommands(lookups: Lookups) -> list[Subcommand]:
    @app_commands.command(name=RULESET, description="La Bataille: a revised infantry assault, "
                          "morale, fire, Huzzah, odds and the Assault et Mêlée chart")
    @app_commands.describe(attackers=ATTACKERS, defenders=DEFENDERS, firefight=FIREFIGHT,
                           dice=DICE_HELP, lookup=LOOKUP_HELP, choices=CHOICES_HELP)
    async def assault(
        interaction: discord.Interaction,
        attackers: app_commands.Range[str, 1, 600],
        defenders: app_commands.Range[str, 1, 600],
        firefight: bool = False,
        dice: str | None = None, lookup: bool = False,
        choices: app_commands.Range[str, 1, 200] | None = None,
    ) -> None:
        options = {"attackers": attackers, "defenders": defenders, "firefight": firefight,
                   "choices": choices}
        await lookups.resolve(interaction, RULESET, "assault", options, dice, lookup)

    @app_commands.command(name=RULESET, description="La Bataille: a revised Old Guard Charge "
                          "(the assault's steps, then exploitation)")
    @app_commands.describe(attackers="The charging Old Guard stack `Name: words`",
                           defenders=DEFENDERS, firefight=FIREFIGHT, dice=DICE_HELP,
                           lookup=LOOKUP_HELP, choices=CHOICES_HELP)
    async def charge(
        interaction: discord.Interaction,
        attackers: app_commands.Range[str, 1, 300],
        defenders: app_commands.Range[str, 1, 600],
        firefight: bool = False,
        dice: str | None = None, lookup: bool = False,
        choices: app_commands.Range[str, 1, 200] | None = None,
    ) -> None:
        options = {"attackers": attackers, "defenders": defenders, "firefight": firefight,
                   "choices": choices}
        await lookups.resolve(interaction, RULESET, "charge", options, dice, lookup)

    @app_commands.command(name=RULESET, description="La Bataille: the side with the most "
                          "assaults chooses first (a tie: the dice)")
    @app_commands.describe(first="A side", first_assaults="Its number of assaults",
                           second="The other side", second_assaults="Its number of assaults",
                           dice=DICE_HELP, lookup=LOOKUP_HELP)
    async def order(
        interaction: discord.Interaction,
        first: app_commands.Range[str, 1, 40],
        first_assaults: app_commands.Range[int, 0, 50],
        second: app_commands.Range[str, 1, 40],
        second_assaults: app_commands.Range[int, 0, 50],
        dice: str | None = None, lookup: bool = False,
    ) -> None:
        options = {"first": first, "first_assaults": first_assaults, "second": second,
                   "second_assaults": second_assaults}
        await lookups.resolve(interaction, RULESET, "order", options, dice, lookup)

    @assault.autocomplete("attackers")
    @assault.autocomplete("defenders")
    @charge.autocomplete("attackers")
    @charge.autocomplete("defenders")
    async def _stacks(interaction: discord.Interaction, current: str):
        return await lookups.unit_choices(interaction, current, STACK, SITUATION_FIELDS)

    return [
        Subcommand("assault", "assault", assault,
                   '/assault labataille attackers:"1/45e: infantry morale=34 melee=12 fire=6 '
                   'defence=9" defenders:"52nd: infantry morale=41 melee=8 fire=5 defence=9" '
                   'dice:"44 52 5 33 41 55" choices:"chart_result=DR2"'),
        Subcommand("charge", "charge", charge,
                   '/charge labataille attackers:"1/3e Grenadiers: infantry morale=55 '
                   'melee=20" defenders:"33rd: infantry morale=41 melee=6" '
                   'dice:"61 32 45" choices:"chart_result=DS1"'),
        Subcommand("order", "order", order,
                   "/order labataille first:French first_assaults:2 second:British "
                   'second_assaults:2 dice:"3 5"'),
    ]
