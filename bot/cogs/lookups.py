"""/charge, /melee and /surrender: one subcommand per rule set.

Without a battle in the channel they are quick lookups that describe every unit. In a
channel with a battle they name roster units, and the result is applied to the roster and
logged, in one transaction.
"""

from __future__ import annotations

from enum import Enum
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.autocomplete import roster_suggestions, suggestions, unit_name_choices
from bot.battles.play import Played, quick_lookup
from bot.battles.store import BattleStore
from bot.render.resolution import resolution_messages
from bot.respond import Reply, answer
from rules.core.fields import FieldSet
from rules.fire_at_will.battle import CHARGER_SITUATION, MELEE_SITUATION
from rules.fire_at_will.inputs import CHARGER, MELEE
from rules.fire_at_will.units import Arm, Cover, ObstacleReading, Order
from rules.le_baton.fire import ArtilleryTarget, FireTarget, Range
from rules.le_baton.inputs import MELEE_SITUATION as LB_MELEE_SITUATION
from rules.le_baton.inputs import MELEE_UNIT as LB_MELEE_UNIT
from rules.le_baton.inputs import UNIT as LB_UNIT
from rules.le_baton.morale import PHASE_TITLES

DICE_HELP = "Your own dice, in the order the reply lists the rolls, e.g. `3 5`; blank: I roll"
LOOKUP_HELP = "Just look it up: leave this channel's battle alone"
FAW_CHARGE = "Fire at Will: the charged unit tests 1d6 + factors vs its basic morale"
FAW_MELEE = "Fire at Will: 1d6 per unit + factor table; highest score per side"
FAW_SURRENDER = "Fire at Will: 1d6, foot surrender on 4+, mounted on 5+"
LB_FIRE = "Le Baton: phases 3/8, one die per two figures against the target's number"
LB_ARTILLERY = "Le Baton: phase 1, one die per crew figure; also hits the unit 12\" behind"
LB_MORALE = "Le Baton: 1d6 against the unit's number, with the phase's consequences"
LB_RECALL = "Le Baton: phase 13, recall charging cavalry or hold them a turn"
LB_CHARGE = "Le Baton: a charge through the closing and standing checks, up to the melee"
LB_MELEE = "Le Baton: dice per figure, 4+ to hit, the result by match-up"
LB_PHASES = [app_commands.Choice(name=f"{phase}: {title}"[:100], value=phase)
             for phase, title in PHASE_TITLES.items() if phase != 13]
SURRENDER_SITUATIONS = [
    app_commands.Choice(name="(a) charged in the rear and routed", value="a"),
    app_commands.Choice(name="(b) already routing and successfully charged", value="b"),
    app_commands.Choice(name='(c) routing, within 6" of the enemy, cannot move', value="c"),
]
def choices_of(enum: type[Enum]) -> list[app_commands.Choice[str]]:
    """Readable choices for an enum's values (``enfiladed-line`` shows as ``enfiladed line``)."""
    return [app_commands.Choice(name=str(m.value).replace("-", " "), value=str(m.value))
            for m in enum]


ARM_CHOICES = choices_of(Arm)
ORDER_CHOICES = choices_of(Order)
COVER_CHOICES = choices_of(Cover)
READING_CHOICES = [
    app_commands.Choice(name="either side (default)", value=ObstacleReading.EITHER),
    app_commands.Choice(name="the attackers only", value=ObstacleReading.ATTACKER),
]


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

    charge = app_commands.Group(name="charge", description="Resolve a charge")
    melee = app_commands.Group(name="melee", description="Resolve a melee")
    surrender = app_commands.Group(name="surrender", description="Roll a surrender test")
    fire = app_commands.Group(name="fire", description="Resolve fire")
    artillery = app_commands.Group(name="artillery", description="Resolve artillery fire")
    morale = app_commands.Group(name="morale", description="Roll a morale check")
    recall = app_commands.Group(name="recall", description="Roll a cavalry recall")

    def __init__(self, store: BattleStore) -> None:
        self.store = store

    async def resolve(
        self,
        interaction: discord.Interaction,
        ruleset: str,
        procedure: str,
        options: dict[str, Any],
        dice: str | None,
        lookup: bool = False,
    ) -> None:
        options = {k: plain(v) for k, v in options.items() if v is not None}
        command = f"/{procedure} {ruleset}"

        async def work() -> Reply:
            # No battle here, or the player asked for a lookup: a quick lookup, which needs no
            # lock and writes nothing. (A battle started a moment later is not affected by a
            # lookup that came first.)
            if lookup or await self.store.ruleset(interaction.channel_id or 0) is None:
                return played_reply(quick_lookup(ruleset, procedure, options, dice))
            played = await self.store.move(interaction, command, ruleset, procedure, options,
                                           dice)
            if played is None:  # the battle ended a moment ago
                played = quick_lookup(ruleset, procedure, options, dice)
            return played_reply(played)

        await answer(interaction, work)

    async def roster_names(self, interaction: discord.Interaction) -> list[str] | None:
        """The battle's unit names; None for a quick lookup (no battle, or `lookup:true`)."""
        if getattr(interaction.namespace, "lookup", False):
            return None
        return await self.store.unit_names(interaction.channel_id or 0)

    async def unit_choices(self, interaction: discord.Interaction, current: str, fields,
                           situation) -> list[app_commands.Choice[str]]:
        """Roster names in a battle; the full unit words in a quick lookup."""
        names = await self.roster_names(interaction)
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
        dice=DICE_HELP, lookup=LOOKUP_HELP,
    )
    @app_commands.choices(target_type=ARM_CHOICES, order=ORDER_CHOICES, cover=COVER_CHOICES)
    async def charge_fire_at_will(
        self,
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
    ) -> None:
        options = {"target": target, "chargers": chargers, "target_type": target_type,
                   "morale": morale, "order": order, "cover": cover, "shaken": shaken,
                   "routing": routing}
        await self.resolve(interaction, "fire-at-will", "charge", options, dice, lookup)

    @charge_fire_at_will.autocomplete("chargers")
    async def _chargers(self, interaction: discord.Interaction, current: str):
        return await self.unit_choices(interaction, current, CHARGER, CHARGER_SITUATION)


    @melee.command(name="fire-at-will", description=FAW_MELEE)
    @app_commands.describe(
        attackers="Attacking units `Name: words; …` e.g. `2nd Foot: inf regular charging`",
        defenders="Defending units `Name: words; …` e.g. `Rangers: inf open front`",
        dice=DICE_HELP, lookup=LOOKUP_HELP,
        obstacle_rule="Whom the 'defender behind an obstacle' exception spares "
                      "(default either side)",
    )
    @app_commands.choices(obstacle_rule=READING_CHOICES)
    async def melee_fire_at_will(
        self,
        interaction: discord.Interaction,
        attackers: str,
        defenders: str,
        dice: str | None = None, lookup: bool = False,
        obstacle_rule: app_commands.Choice[str] | None = None,
    ) -> None:
        options = {"attackers": attackers, "defenders": defenders, "obstacle_rule": obstacle_rule}
        await self.resolve(interaction, "fire-at-will", "melee", options, dice, lookup)

    @melee_fire_at_will.autocomplete("attackers")
    @melee_fire_at_will.autocomplete("defenders")
    async def _melee_units(self, interaction: discord.Interaction, current: str):
        return await self.unit_choices(interaction, current, MELEE, MELEE_SITUATION)

    @surrender.command(name="fire-at-will", description=FAW_SURRENDER)
    @app_commands.describe(
        unit="The unit testing (in a battle: a roster unit)",
        situation="Why it tests",
        unit_type="What the unit is (quick lookups; cavalry counts as mounted)",
        dice=DICE_HELP, lookup=LOOKUP_HELP,
    )
    @app_commands.choices(unit_type=ARM_CHOICES, situation=SURRENDER_SITUATIONS)
    async def surrender_fire_at_will(
        self,
        interaction: discord.Interaction,
        unit: app_commands.Range[str, 1, 64],
        situation: app_commands.Choice[str],
        unit_type: app_commands.Choice[str] | None = None,
        dice: str | None = None, lookup: bool = False,
    ) -> None:
        options = {"unit": unit, "situation": situation, "unit_type": unit_type}
        await self.resolve(interaction, "fire-at-will", "surrender", options, dice, lookup)

    @charge_fire_at_will.autocomplete("target")
    @surrender_fire_at_will.autocomplete("unit")
    async def _roster_name(self, interaction: discord.Interaction, current: str):
        return await unit_name_choices(self.store, interaction.channel_id, current)

    # --- Le Baton -------------------------------------------------------------------------

    async def lb_units(self, interaction: discord.Interaction, current: str,
                       situation: FieldSet | None = None) -> list[app_commands.Choice[str]]:
        names = await self.roster_names(interaction)
        if names is None:
            return suggestions(LB_UNIT, current)
        return roster_suggestions(names, situation, current)

    @fire.command(name="le-baton", description=LB_FIRE)
    @app_commands.describe(
        shooter="The unit shooting `Name: words` (in a battle: a roster unit)",
        target="The unit shot at", target_type="What the target is to the shooter "
        "(in a battle: read off its formation when left out)",
        distance="Inches to the target (the range is 4\")", dice=DICE_HELP, lookup=LOOKUP_HELP)
    @app_commands.choices(target_type=choices_of(FireTarget))
    async def fire_le_baton(self, interaction: discord.Interaction, shooter: str, target: str,
                            target_type: app_commands.Choice[str] | None = None,
                            distance: app_commands.Range[float, 0, 100] | None = None,
                            dice: str | None = None, lookup: bool = False) -> None:
        options = {"shooter": shooter, "target": target, "target_type": target_type,
                   "distance": distance}
        await self.resolve(interaction, "le-baton", "fire", options, dice, lookup)

    @artillery.command(name="le-baton", description=LB_ARTILLERY)
    @app_commands.describe(
        battery="The guns `Name: words` (figures = crew, guns = pounds)",
        target="The unit fired at", target_type="What the target is",
        range="Close, normal (default) or long range",
        behind="A unit 12\" behind the target, also hit", behind_type="What that unit is",
        level_ground="All units, the guns included, are on level ground and in range",
        dice=DICE_HELP, lookup=LOOKUP_HELP)
    @app_commands.choices(target_type=choices_of(ArtilleryTarget),
                          behind_type=choices_of(ArtilleryTarget), range=choices_of(Range))
    async def artillery_le_baton(
            self, interaction: discord.Interaction, battery: str, target: str,
            target_type: app_commands.Choice[str] | None = None,
            range: app_commands.Choice[str] | None = None, behind: str | None = None,
            behind_type: app_commands.Choice[str] | None = None, level_ground: bool = False,
            dice: str | None = None, lookup: bool = False) -> None:
        options = {"battery": battery, "target": target, "target_type": target_type,
                   "range": range, "behind": behind, "behind_type": behind_type,
                   "level_ground": level_ground}
        await self.resolve(interaction, "le-baton", "artillery-fire", options, dice, lookup)

    @morale.command(name="le-baton", description=LB_MORALE)
    @app_commands.describe(
        unit="The unit testing `Name: words` (in a battle: a roster unit)",
        phase="The phase of the turn: it sets the modifiers and what follows",
        charging="The unit is charging (phases 4 and 9)",
        flank_or_rear="The unit is charged in flank or rear (phases 5 and 10)",
        charged_by="What is charging it (phases 5 and 10)",
        opponent="The enemy unit it faces, for the reply",
        cannot_form_line="It cannot form line when required (d6 casualties)",
        initiated_charge="Cavalry that began a charge this turn (phases 12 and 13)",
        dice=DICE_HELP, lookup=LOOKUP_HELP)
    @app_commands.choices(phase=LB_PHASES, charged_by=[
        app_commands.Choice(name="infantry", value="infantry"),
        app_commands.Choice(name="cavalry", value="cavalry")])
    async def morale_le_baton(
            self, interaction: discord.Interaction, unit: str, phase: app_commands.Choice[int],
            charging: bool = False, flank_or_rear: bool = False,
            charged_by: app_commands.Choice[str] | None = None, opponent: str | None = None,
            cannot_form_line: bool = False, initiated_charge: bool | None = None,
            dice: str | None = None, lookup: bool = False) -> None:
        options = {"unit": unit, "phase": phase, "charging": charging,
                   "flank_or_rear": flank_or_rear, "charged_by": charged_by,
                   "opponent": opponent, "cannot_form_line": cannot_form_line,
                   "initiated_charge": initiated_charge}
        await self.resolve(interaction, "le-baton", "morale", options, dice, lookup)

    @recall.command(name="le-baton", description=LB_RECALL)
    @app_commands.describe(unit="The cavalry unit `Name: words` (in a battle: a roster unit)",
                           initiated_charge="It began the charge (in a battle: its charge "
                           "marker says)", dice=DICE_HELP, lookup=LOOKUP_HELP)
    async def recall_le_baton(self, interaction: discord.Interaction, unit: str,
                              initiated_charge: bool | None = None,
                              dice: str | None = None, lookup: bool = False) -> None:
        options = {"unit": unit, "initiated_charge": initiated_charge}
        await self.resolve(interaction, "le-baton", "recall", options, dice, lookup)

    @charge.command(name="le-baton", description=LB_CHARGE)
    @app_commands.describe(
        charger="The charging unit `Name: words` (in a battle: a roster unit)",
        target="The unit charged `Name: words` (in a battle: a roster unit)",
        target_defensive_terrain="The target is in defensive terrain",
        flank_or_rear="The charge strikes the target's flank or rear",
        another_infantry_charging="Another infantry unit already charges this target",
        target_already_contacted="The target cavalry is already contacted by another unit",
        cannot_form_line="The charging column could not form line if it fails to close",
        dice=DICE_HELP, lookup=LOOKUP_HELP)
    async def charge_le_baton(
            self, interaction: discord.Interaction, charger: str, target: str,
            target_defensive_terrain: bool = False, flank_or_rear: bool = False,
            another_infantry_charging: bool = False, target_already_contacted: bool = False,
            cannot_form_line: bool = False, dice: str | None = None, lookup: bool = False) -> None:
        options = {"charger": charger, "target": target,
                   "target_defensive_terrain": target_defensive_terrain,
                   "flank_or_rear": flank_or_rear,
                   "another_infantry_charging": another_infantry_charging,
                   "target_already_contacted": target_already_contacted,
                   "cannot_form_line": cannot_form_line}
        await self.resolve(interaction, "le-baton", "charge", options, dice, lookup)

    @melee.command(name="le-baton", description=LB_MELEE)
    @app_commands.describe(
        attacker="One side `Name: words` (in a battle: a roster unit, then e.g. "
        "`defensive-terrain`)", defender="The other side, likewise",
        phase="Phase 6 (French turn) or 11 (British turn)", dice=DICE_HELP, lookup=LOOKUP_HELP)
    @app_commands.choices(phase=[app_commands.Choice(name="6", value=6),
                                 app_commands.Choice(name="11", value=11)])
    async def melee_le_baton(self, interaction: discord.Interaction, attacker: str,
                             defender: str, phase: app_commands.Choice[int],
                             dice: str | None = None, lookup: bool = False) -> None:
        options = {"attacker": attacker, "defender": defender, "phase": phase}
        await self.resolve(interaction, "le-baton", "melee", options, dice, lookup)

    @melee_le_baton.autocomplete("attacker")
    @melee_le_baton.autocomplete("defender")
    async def _lb_melee_units(self, interaction: discord.Interaction, current: str):
        names = await self.roster_names(interaction)
        if names is None:
            return suggestions(LB_MELEE_UNIT, current)
        return roster_suggestions(names, LB_MELEE_SITUATION, current)

    @fire_le_baton.autocomplete("shooter")
    @artillery_le_baton.autocomplete("battery")
    @morale_le_baton.autocomplete("unit")
    @recall_le_baton.autocomplete("unit")
    @charge_le_baton.autocomplete("charger")
    @charge_le_baton.autocomplete("target")
    async def _lb_unit(self, interaction: discord.Interaction, current: str):
        return await self.lb_units(interaction, current)

    @fire_le_baton.autocomplete("target")
    @artillery_le_baton.autocomplete("target")
    @artillery_le_baton.autocomplete("behind")
    @morale_le_baton.autocomplete("opponent")
    async def _lb_name(self, interaction: discord.Interaction, current: str):
        return await unit_name_choices(self.store, interaction.channel_id, current)
