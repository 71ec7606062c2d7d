"""/charge, /melee and /surrender: one subcommand per rule set.

Without a battle in the channel they are quick lookups that describe every unit. In a
channel with a battle they name roster units, and the result is applied to the roster and
logged, in one transaction.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.autocomplete import roster_suggestions, suggestions
from bot.battles.actor import Actor
from bot.battles.play import Played, check_ruleset, play_in_battle, quick_lookup
from bot.battles.store import BattleStore
from bot.render.resolution import resolution_messages
from bot.respond import Reply, answer
from rules.fire_at_will.battle import CHARGER_SITUATION, MELEE_SITUATION
from rules.fire_at_will.inputs import CHARGER, MELEE
from rules.fire_at_will.units import Arm, Cover, ObstacleReading, Order

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


def plain(value: Any) -> Any:
    """Option values as JSON-safe data, for the event log and for rerolls."""
    if isinstance(value, app_commands.Choice):
        return value.value
    if hasattr(value, "value"):
        return value.value
    return value


def played_reply(played: Played) -> Reply:
    footer = played.dice_note
    if played.seq is not None:
        footer += f" · event #{played.seq}"
    return Reply(resolution_messages(played.resolution, dice_note=footer,
                                     battle_changes=played.changes))


class Lookups(commands.Cog):
    """Rules procedures: quick lookups, or moves in the channel's battle."""

    charge = app_commands.Group(name="charge", description="Resolve a charge test")
    melee = app_commands.Group(name="melee", description="Resolve a melee")
    surrender = app_commands.Group(name="surrender", description="Roll a surrender test")

    def __init__(self, store: BattleStore) -> None:
        self.store = store

    async def resolve(
        self,
        interaction: discord.Interaction,
        ruleset: str,
        procedure: str,
        options: dict[str, Any],
        dice: str | None,
    ) -> None:
        options = {k: plain(v) for k, v in options.items() if v is not None}
        actor = Actor.from_interaction(interaction)
        command = f"/{procedure} {ruleset}"

        async def work() -> Reply:
            # No battle here: a quick lookup, which needs no lock and writes nothing. (A battle
            # started a moment later is not affected by a lookup that came first.)
            if await self.store.ruleset(interaction.channel_id or 0) is None:
                return played_reply(quick_lookup(ruleset, procedure, options, dice))
            async with self.store.command(interaction.channel_id or 0, actor, interaction.id,
                                          command) as tx:
                if tx.battle is None:
                    return played_reply(quick_lookup(ruleset, procedure, options, dice))
                check_ruleset(tx, ruleset, procedure)
                played = await play_in_battle(tx, procedure, options, dice)
            return played_reply(played)

        await answer(interaction, work)

    async def unit_choices(self, interaction: discord.Interaction, current: str, fields,
                           situation) -> list[app_commands.Choice[str]]:
        """Roster names in a battle; the full unit words in a quick lookup."""
        names = await self.store.unit_names(interaction.channel_id or 0)
        if names is None:
            return suggestions(fields, current)
        return roster_suggestions(names, situation, current)

    # --- Fire at Will -------------------------------------------------------------------

    @charge.command(name="fire-at-will", description=FAW_CHARGE)
    @app_commands.describe(
        target="The charged unit (in a battle: a roster unit)",
        chargers="Charging units `Name: words; …` e.g. `Hussars: cav flank distance=5`",
        target_type="What the charged unit is (quick lookups)",
        morale="Basic morale of the charged unit (quick lookups; a score at or above it routs)",
        order="Close order (default) or open order (quick lookups)",
        cover="Where the charged unit stands",
        shaken="The charged unit is shaken (quick lookups)",
        routing="The charged unit is already routing (quick lookups)",
        dice=DICE_HELP,
    )
    @app_commands.choices(target_type=ARM_CHOICES)
    async def charge_fire_at_will(
        self,
        interaction: discord.Interaction,
        target: app_commands.Range[str, 1, 64],
        chargers: str,
        target_type: app_commands.Choice[str] | None = None,
        morale: app_commands.Range[int, 1, 20] | None = None,
        order: Order | None = None,
        cover: Cover | None = None,
        shaken: bool | None = None,
        routing: bool | None = None,
        dice: str | None = None,
    ) -> None:
        options = {"target": target, "chargers": chargers, "target_type": target_type,
                   "morale": morale, "order": order, "cover": cover, "shaken": shaken,
                   "routing": routing}
        await self.resolve(interaction, "fire-at-will", "charge", options, dice)

    @charge_fire_at_will.autocomplete("chargers")
    async def _chargers(self, interaction: discord.Interaction, current: str):
        return await self.unit_choices(interaction, current, CHARGER, CHARGER_SITUATION)

    @charge_fire_at_will.autocomplete("target")
    async def _target(self, interaction: discord.Interaction, current: str):
        names = await self.store.unit_names(interaction.channel_id or 0)
        return [] if names is None else roster_suggestions(names, None, current)

    @melee.command(name="fire-at-will", description=FAW_MELEE)
    @app_commands.describe(
        attackers="Attacking units `Name: words; …` e.g. `2nd Foot: inf regular charging`",
        defenders="Defending units `Name: words; …` e.g. `Rangers: inf open front`",
        dice=DICE_HELP,
        obstacle_rule="Whom the 'defender behind an obstacle' exception spares (default attackers)",
    )
    async def melee_fire_at_will(
        self,
        interaction: discord.Interaction,
        attackers: str,
        defenders: str,
        dice: str | None = None,
        obstacle_rule: ObstacleReading | None = None,
    ) -> None:
        options = {"attackers": attackers, "defenders": defenders, "obstacle_rule": obstacle_rule}
        await self.resolve(interaction, "fire-at-will", "melee", options, dice)

    @melee_fire_at_will.autocomplete("attackers")
    @melee_fire_at_will.autocomplete("defenders")
    async def _melee_units(self, interaction: discord.Interaction, current: str):
        return await self.unit_choices(interaction, current, MELEE, MELEE_SITUATION)

    @surrender.command(name="fire-at-will", description=FAW_SURRENDER)
    @app_commands.describe(
        unit="The unit testing (in a battle: a roster unit)",
        situation="Why it tests",
        unit_type="What the unit is (quick lookups; cavalry counts as mounted)",
        dice=DICE_HELP,
    )
    @app_commands.choices(unit_type=ARM_CHOICES, situation=SURRENDER_SITUATIONS)
    async def surrender_fire_at_will(
        self,
        interaction: discord.Interaction,
        unit: app_commands.Range[str, 1, 64],
        situation: app_commands.Choice[str],
        unit_type: app_commands.Choice[str] | None = None,
        dice: str | None = None,
    ) -> None:
        options = {"unit": unit, "situation": situation, "unit_type": unit_type}
        await self.resolve(interaction, "fire-at-will", "surrender", options, dice)

    @surrender_fire_at_will.autocomplete("unit")
    async def _surrender_unit(self, interaction: discord.Interaction, current: str):
        names = await self.store.unit_names(interaction.channel_id or 0)
        return [] if names is None else roster_suggestions(names, None, current)
