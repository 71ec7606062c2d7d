"""/charge, /melee and /surrender: one subcommand per rule set, no battle needed."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.autocomplete import suggestions
from bot.dice import Rolled, resolve_with
from bot.render.resolution import resolution_messages
from rules.fire_at_will import resolve_charge, resolve_melee, resolve_surrender
from rules.fire_at_will.inputs import CHARGER, MELEE, build_unit, read_chargers, read_melee_side
from rules.fire_at_will.surrender import SurrenderSituation
from rules.fire_at_will.units import Arm, Cover, ObstacleReading, Order, Settings

DICE_HELP = "Your own dice, in the order the reply lists the rolls, e.g. `3 5`; blank: I roll"

FAW_CHARGE = "Fire at Will: the charged unit tests 1d6 + factors vs its basic morale"
FAW_MELEE = "Fire at Will: 1d6 per unit + factor table; highest score per side"
FAW_SURRENDER = "Fire at Will: 1d6, foot surrender on 4+, mounted on 5+"
SURRENDER_SITUATIONS = [
    app_commands.Choice(name="(a) charged in the rear and routed", value="a"),
    app_commands.Choice(name="(b) already routing and successfully charged", value="b"),
    app_commands.Choice(name='(c) routing, within 6" of the enemy, cannot move', value="c"),
]

ARM_CHOICES = [app_commands.Choice(name=a.value, value=a.value) for a in Arm]


async def send_rolled(interaction: discord.Interaction, rolled: Rolled) -> None:
    first, *rest = resolution_messages(rolled.resolution, dice_note=rolled.note)
    await interaction.response.send_message(embeds=first)
    for embeds in rest:
        await interaction.followup.send(embeds=embeds)


class Lookups(commands.Cog):
    """Quick lookups: describe the units in the command, get the full resolution."""

    charge = app_commands.Group(name="charge", description="Resolve a charge test")
    melee = app_commands.Group(name="melee", description="Resolve a melee")
    surrender = app_commands.Group(name="surrender", description="Roll a surrender test")

    # --- Fire at Will -------------------------------------------------------------------

    @charge.command(name="fire-at-will", description=FAW_CHARGE)
    @app_commands.describe(
        target="Name of the charged unit",
        target_type="What the charged unit is",
        chargers="Charging units `Name: type words; …` e.g. `Hussars: cav flank distance=5`",
        morale="Basic morale of the charged unit (a score at or above it routs)",
        order="Close order (default) or open order",
        cover="Where the charged unit stands",
        shaken="The charged unit is shaken",
        routing="The charged unit is already routing (it tests to surrender instead)",
        dice=DICE_HELP,
    )
    @app_commands.choices(target_type=ARM_CHOICES)
    async def charge_fire_at_will(
        self,
        interaction: discord.Interaction,
        target: app_commands.Range[str, 1, 64],
        target_type: app_commands.Choice[str],
        chargers: str,
        morale: app_commands.Range[int, 1, 20] | None = None,
        order: Order = Order.CLOSE,
        cover: Cover = Cover.NONE,
        shaken: bool = False,
        routing: bool = False,
        dice: str | None = None,
    ) -> None:
        unit = build_unit(
            target,
            {"arm": Arm(target_type.value), "order": order, "morale": morale,
             "shaken": shaken, "routing": routing},
            "target",
        )
        declared = read_chargers(chargers)
        rolled = resolve_with(dice, lambda source: resolve_charge(unit, declared, cover, source))
        await send_rolled(interaction, rolled)

    @charge_fire_at_will.autocomplete("chargers")
    async def _chargers(self, interaction: discord.Interaction, current: str):
        return suggestions(CHARGER, current)

    @melee.command(name="fire-at-will", description=FAW_MELEE)
    @app_commands.describe(
        attackers="Attacking units `Name: type words; …` e.g. `2nd Foot: inf regular charging`",
        defenders="Defending units `Name: type words; …` e.g. `Rangers: inf open front`",
        dice=DICE_HELP,
        obstacle_rule="Whom the 'defender behind an obstacle' exception spares (default attackers)",
    )
    async def melee_fire_at_will(
        self,
        interaction: discord.Interaction,
        attackers: str,
        defenders: str,
        dice: str | None = None,
        obstacle_rule: ObstacleReading = ObstacleReading.ATTACKER,
    ) -> None:
        att = read_melee_side(attackers, "attackers")
        dfn = read_melee_side(defenders, "defenders")
        settings = Settings(obstacle_reading=obstacle_rule)
        rolled = resolve_with(dice, lambda source: resolve_melee(att, dfn, source, settings))
        await send_rolled(interaction, rolled)

    @melee_fire_at_will.autocomplete("attackers")
    @melee_fire_at_will.autocomplete("defenders")
    async def _melee_units(self, interaction: discord.Interaction, current: str):
        return suggestions(MELEE, current)

    @surrender.command(name="fire-at-will", description=FAW_SURRENDER)
    @app_commands.describe(
        unit="Name of the unit testing",
        unit_type="What the unit is (cavalry counts as mounted)",
        situation="Why it tests",
        dice=DICE_HELP,
    )
    @app_commands.choices(unit_type=ARM_CHOICES, situation=SURRENDER_SITUATIONS)
    async def surrender_fire_at_will(
        self,
        interaction: discord.Interaction,
        unit: app_commands.Range[str, 1, 64],
        unit_type: app_commands.Choice[str],
        situation: app_commands.Choice[str],
        dice: str | None = None,
    ) -> None:
        which = SurrenderSituation(situation.value)
        tested = build_unit(
            unit,
            {"arm": Arm(unit_type.value), "routing": which is not SurrenderSituation.REAR_ROUT},
            "unit",
        )
        rolled = resolve_with(dice, lambda source: resolve_surrender(tested, which, source))
        await send_rolled(interaction, rolled)
