"""Le Baton's slash commands: /fire, /artillery, /morale, /recall, /charge and /melee."""

import discord
from discord import app_commands

from bot.rulesets import ProcedureRunner, Subcommand, choices_of, offer_names, offer_units, slash
from rules.le_baton import RULESET_ENTRY
from rules.le_baton.fire import ArtilleryTarget, FireTarget, Range
from rules.le_baton.inputs import MELEE_SITUATION, MELEE_UNIT, UNIT
from rules.le_baton.morale import PHASE_TITLES
from rules.le_baton.units import RULESET

PHASES = [app_commands.Choice(name=f"{phase}: {title}"[:100], value=phase)
          for phase, title in PHASE_TITLES.items() if phase != 13]

DESCRIPTIONS = {  # after the title, "Le Baton: "
    "fire": "phases 3/8, one die per two figures against the target's number",
    "artillery": "phase 1, one die per crew figure; also hits the unit 12\" behind",
    "morale": "1d6 against the unit's number, with the phase's consequences",
    "recall": "phase 13, recall charging cavalry or hold them a turn",
    "charge": "a charge through the closing and standing checks, up to the melee",
    "melee": "dice per figure, 4+ to hit, the result by match-up",
}


def subcommands(lookups: ProcedureRunner) -> list[Subcommand]:
    @slash(
        RULESET_ENTRY, DESCRIPTIONS["fire"],
        shooter="The unit shooting `Name: words` (in a battle: a roster unit)",
        target="The unit shot at", target_type="What the target is to the shooter "
        "(in a battle: read off its formation when left out)",
        distance="Inches to the target (the range is 4\")")
    @app_commands.choices(target_type=choices_of(FireTarget))
    async def fire(
        interaction: discord.Interaction, shooter: str, target: str,
        target_type: app_commands.Choice[str] | None = None,
        distance: app_commands.Range[float, 0, 100] | None = None,
        dice: str | None = None, lookup: bool = False,
    ) -> None:
        options = {"shooter": shooter, "target": target, "target_type": target_type,
                   "distance": distance}
        await lookups.resolve(interaction, RULESET, "fire", options, dice, lookup)

    @slash(
        RULESET_ENTRY, DESCRIPTIONS["artillery"],
        battery="The guns `Name: words` (figures = crew, guns = pounds)",
        target="The unit fired at", target_type="What the target is",
        range="Close, normal (default) or long range",
        behind="A unit 12\" behind the target, also hit", behind_type="What that unit is",
        level_ground="All units, the guns included, are on level ground and in range")
    @app_commands.choices(target_type=choices_of(ArtilleryTarget),
                          behind_type=choices_of(ArtilleryTarget), range=choices_of(Range))
    async def artillery(
        interaction: discord.Interaction, battery: str, target: str,
        target_type: app_commands.Choice[str] | None = None,
        range: app_commands.Choice[str] | None = None, behind: str | None = None,
        behind_type: app_commands.Choice[str] | None = None, level_ground: bool = False,
        dice: str | None = None, lookup: bool = False,
    ) -> None:
        options = {"battery": battery, "target": target, "target_type": target_type,
                   "range": range, "behind": behind, "behind_type": behind_type,
                   "level_ground": level_ground}
        await lookups.resolve(interaction, RULESET, "artillery-fire", options, dice, lookup)

    @slash(
        RULESET_ENTRY, DESCRIPTIONS["morale"], choices=True,
        unit="The unit testing `Name: words` (in a battle: a roster unit)",
        phase="The phase of the turn: it sets the modifiers and what follows (in a battle: "
              "its phase, if left out)",
        charging="The unit is charging (phases 4 and 9)",
        flank_or_rear="The unit is charged in flank or rear (phases 5 and 10)",
        charged_by="What is charging it (phases 5 and 10)",
        opponent="The enemy unit it faces, for the reply",
        cannot_form_line="It cannot form line when required (d6 casualties)",
        initiated_charge="Cavalry that began a charge this turn (phases 7 and 12)")
    @app_commands.choices(phase=PHASES, charged_by=[
        app_commands.Choice(name="infantry", value="infantry"),
        app_commands.Choice(name="cavalry", value="cavalry")])
    async def morale(
        interaction: discord.Interaction, unit: str,
        phase: app_commands.Choice[int] | None = None, charging: bool = False,
        flank_or_rear: bool = False,
        charged_by: app_commands.Choice[str] | None = None, opponent: str | None = None,
        cannot_form_line: bool = False, initiated_charge: bool | None = None,
        dice: str | None = None, lookup: bool = False,
        choices: app_commands.Range[str, 1, 200] | None = None,
    ) -> None:
        options = {"unit": unit, "phase": phase, "charging": charging,
                   "flank_or_rear": flank_or_rear, "charged_by": charged_by,
                   "opponent": opponent, "cannot_form_line": cannot_form_line,
                   "initiated_charge": initiated_charge, "choices": choices}
        await lookups.resolve(interaction, RULESET, "morale", options, dice, lookup)

    @slash(
        RULESET_ENTRY, DESCRIPTIONS["recall"], choices=True,
        unit="The cavalry unit `Name: words` (in a battle: a roster unit)",
        initiated_charge="It began the charge (in a battle: its charge marker says)")
    async def recall(
        interaction: discord.Interaction, unit: str, initiated_charge: bool | None = None,
        dice: str | None = None, lookup: bool = False,
        choices: app_commands.Range[str, 1, 200] | None = None,
    ) -> None:
        options = {"unit": unit, "initiated_charge": initiated_charge, "choices": choices}
        await lookups.resolve(interaction, RULESET, "recall", options, dice, lookup)

    @slash(
        RULESET_ENTRY, DESCRIPTIONS["charge"], choices=True,
        charger="The charging unit `Name: words` (in a battle: a roster unit)",
        target="The unit charged `Name: words` (in a battle: a roster unit)",
        target_defensive_terrain="The target is in defensive terrain",
        flank_or_rear="The charge strikes the target's flank or rear",
        another_infantry_charging="Another infantry unit already charges this target",
        target_already_contacted="The target cavalry is already contacted by another unit",
        cannot_form_line="The charging column could not form line if it fails to close")
    async def charge(
        interaction: discord.Interaction, charger: str, target: str,
        target_defensive_terrain: bool = False, flank_or_rear: bool = False,
        another_infantry_charging: bool = False, target_already_contacted: bool = False,
        cannot_form_line: bool = False, dice: str | None = None, lookup: bool = False,
        choices: app_commands.Range[str, 1, 200] | None = None,
    ) -> None:
        options = {"charger": charger, "target": target,
                   "target_defensive_terrain": target_defensive_terrain,
                   "flank_or_rear": flank_or_rear,
                   "another_infantry_charging": another_infantry_charging,
                   "target_already_contacted": target_already_contacted,
                   "cannot_form_line": cannot_form_line, "choices": choices}
        await lookups.resolve(interaction, RULESET, "charge", options, dice, lookup)

    @slash(
        RULESET_ENTRY, DESCRIPTIONS["melee"],
        attacker="One side `Name: words` (in a battle: a roster unit, then e.g. "
        "`defensive-terrain`)", defender="The other side, likewise",
        phase="Phase 6 (French turn) or 11 (British turn); in a battle: its phase, if left "
              "out")
    @app_commands.choices(phase=[app_commands.Choice(name="6", value=6),
                                 app_commands.Choice(name="11", value=11)])
    async def melee(
        interaction: discord.Interaction, attacker: str, defender: str,
        phase: app_commands.Choice[int] | None = None, dice: str | None = None,
        lookup: bool = False,
    ) -> None:
        options = {"attacker": attacker, "defender": defender, "phase": phase}
        await lookups.resolve(interaction, RULESET, "melee", options, dice, lookup)

    offer_units(lookups, MELEE_UNIT, MELEE_SITUATION, (melee, "attacker"), (melee, "defender"))
    offer_units(lookups, UNIT, None, (fire, "shooter"), (artillery, "battery"),
                (morale, "unit"), (recall, "unit"), (charge, "charger"), (charge, "target"))
    offer_names(lookups, (fire, "target"), (artillery, "target"), (artillery, "behind"),
                (morale, "opponent"))

    return [
        Subcommand("fire", "fire", fire,
                   '/fire le-baton shooter:"52nd: british inf figures=8" target:"4e Léger" '
                   'target_type:column distance:3 dice:"6 4 2 1"'),
        Subcommand("artillery", "artillery-fire", artillery,
                   '/artillery le-baton battery:"Ross: british art figures=4 guns=9" '
                   'target:"4e Léger" target_type:column range:close dice:"3 4 5 6"'),
        Subcommand("morale", "morale", morale,
                   '/morale le-baton unit:"4e Léger: french inf column casualties=3" phase:4 '
                   'charging:true opponent:52nd dice:3'),
        Subcommand("recall", "recall", recall,
                   '/recall le-baton unit:"Cuirassiers: french cav charge_marker casualties=2" '
                   "initiated_charge:true dice:4"),
        Subcommand("charge", "charge", charge,
                   '/charge le-baton charger:"Cuirassiers: french cav cuirassiers figures=8" '
                   'target:"52nd: british inf line figures=8" dice:"3 4 6 5"'),
        Subcommand("melee", "melee", melee,
                   '/melee le-baton attacker:"4e Léger: french inf column figures=12" '
                   'defender:"52nd: british inf elite line figures=8 defensive_terrain" '
                   'phase:6 dice:"4 5 6 1 2 3 4 1 4 4 4 1 1 1 1 1"'),
    ]
