"""Fire at Will's slash commands: /charge, /melee and /surrender."""

import discord
from discord import app_commands

from bot.rulesets import ProcedureRunner, Subcommand, choices_of, offer_names, offer_units, slash
from rules.fire_at_will import RULESET_ENTRY
from rules.fire_at_will.battle import CHARGER_SITUATION, MELEE_SITUATION
from rules.fire_at_will.inputs import CHARGER, MELEE
from rules.fire_at_will.units import RULESET, Arm, Cover, ObstacleReading, Order

ARM_CHOICES = choices_of(Arm)
READING_CHOICES = [
    app_commands.Choice(name="either side (default)", value=ObstacleReading.EITHER),
    app_commands.Choice(name="the attackers only", value=ObstacleReading.ATTACKER),
]
SURRENDER_SITUATIONS = [
    app_commands.Choice(name="(a) charged in the rear and routed", value="a"),
    app_commands.Choice(name="(b) already routing and successfully charged", value="b"),
    app_commands.Choice(name='(c) routing, within 6" of the enemy, cannot move', value="c"),
]


def subcommands(lookups: ProcedureRunner) -> list[Subcommand]:
    @slash(
        RULESET_ENTRY, "the charged unit tests 1d6 + factors vs its basic morale", choices=True,
        target="The charged unit (in a battle: a roster unit)",
        chargers="Charging units `Name: words; …` e.g. `Hussars: cav flank distance=5`",
        target_type="What the charged unit is (quick lookups)",
        morale="Basic morale of the charged unit (quick lookups; a score at or above it routs)",
        order="Close order (default) or open order (quick lookups)",
        cover="Where the charged unit stands",
        shaken="The charged unit is shaken (quick lookups)",
        routing="The charged unit is already routing (quick lookups)",
    )
    @app_commands.choices(target_type=ARM_CHOICES, order=choices_of(Order),
                          cover=choices_of(Cover))
    async def charge(
        interaction: discord.Interaction,
        target: app_commands.Range[str, 1, 64],
        chargers: str,
        target_type: app_commands.Choice[str] | None = None,
        morale: app_commands.Range[int, 1, 20] | None = None,
        order: app_commands.Choice[str] | None = None,
        cover: app_commands.Choice[str] | None = None,
        shaken: bool | None = None,
        routing: bool | None = None,
        dice: str | None = None, lookup: bool = False,
        choices: app_commands.Range[str, 1, 200] | None = None,
    ) -> None:
        options = {"target": target, "chargers": chargers, "target_type": target_type,
                   "morale": morale, "order": order, "cover": cover, "shaken": shaken,
                   "routing": routing, "choices": choices}
        await lookups.resolve(interaction, RULESET, "charge", options, dice, lookup)


    @slash(
        RULESET_ENTRY, "1d6 per unit + factor table; highest score per side",
        attackers="Attacking units `Name: words; …` e.g. `2nd Foot: inf regular charging`",
        defenders="Defending units `Name: words; …` e.g. `Rangers: inf open front`",
        obstacle_rule="Whom the 'defender behind an obstacle' exception spares "
                      "(default either side)",
    )
    @app_commands.choices(obstacle_rule=READING_CHOICES)
    async def melee(
        interaction: discord.Interaction,
        attackers: str,
        defenders: str,
        dice: str | None = None, lookup: bool = False,
        obstacle_rule: app_commands.Choice[str] | None = None,
    ) -> None:
        options = {"attackers": attackers, "defenders": defenders, "obstacle_rule": obstacle_rule}
        await lookups.resolve(interaction, RULESET, "melee", options, dice, lookup)

    offer_units(lookups, MELEE, MELEE_SITUATION, (melee, "attackers"), (melee, "defenders"))

    @slash(
        RULESET_ENTRY, "1d6, foot surrender on 4+, mounted on 5+",
        unit="The unit testing (in a battle: a roster unit)",
        situation="Why it tests",
        unit_type="What the unit is (quick lookups; cavalry counts as mounted)",
    )
    @app_commands.choices(unit_type=ARM_CHOICES, situation=SURRENDER_SITUATIONS)
    async def surrender(
        interaction: discord.Interaction,
        unit: app_commands.Range[str, 1, 64],
        situation: app_commands.Choice[str],
        unit_type: app_commands.Choice[str] | None = None,
        dice: str | None = None, lookup: bool = False,
    ) -> None:
        options = {"unit": unit, "situation": situation, "unit_type": unit_type}
        await lookups.resolve(interaction, RULESET, "surrender", options, dice, lookup)

    offer_units(lookups, CHARGER, CHARGER_SITUATION, (charge, "chargers"))
    offer_names(lookups, (charge, "target"), (surrender, "unit"))

    return [
        Subcommand("charge", "charge", charge,
                   '/charge fire-at-will target:"2nd Foot" target_type:infantry morale:4 '
                   'chargers:"Hussars: cav distance=5" dice:3'),
        Subcommand("melee", "melee", melee,
                   '/melee fire-at-will attackers:"Grenadiers: inf regular charging" '
                   'defenders:"Béarn: inf regular" dice:"5 2"'),
        Subcommand("surrender", "surrender", surrender,
                   "/surrender fire-at-will unit:Rangers situation:c unit_type:infantry dice:4"),
    ]
