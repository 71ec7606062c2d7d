"""La Bataille's slash commands: /assault labataille, /charge labataille (the Old Guard
Charge), /order labataille (who chooses the first assault), and the cavalry's:
/cavalry labataille (a charge's mêlée, or a charge that falls short), /square labataille,
/reaction labataille, /formup labataille (skirmishing cavalry) and /recall labataille (light
cavalry during its charge movement)."""

import discord
from discord import app_commands

from bot.rulesets import ProcedureRunner, Subcommand, offer_units, slash
from rules.labataille import RULESET_ENTRY
from rules.labataille.inputs import SITUATION_FIELDS, STACK
from rules.labataille.units import RULESET

VERBS = {
    "assault": "Resolve an infantry assault",
    "order": "Who chooses the first assault",
    "cavalry": "Resolve a cavalry charge's mêlée",
    "square": "Form square as cavalry comes on",
    "reaction": "Attempt a reaction charge",
    "formup": "Skirmishers form up against a charge",
    "recall": "Light cavalry attempts to recall",
}
CHARGING = ("The charging cavalry (in a battle, its roster name; several `;`-separated: a "
            "Grand Charge)")
CHARGERS = ("The charging cavalry `Name: words; …` e.g. `2e Cuirassiers: cavalry morale=44 "
            "melee=18 mp=8 nation=french`")
TARGETS = ("The target stacks e.g. `2nd Foot: infantry morale=41 melee=8 fire=5`; all routed: "
           "the charge vs PGD; all cavalry: vs cavalry")
ATTACKERS = ("The assaulting stacks `Name: words; …` e.g. `1/45e: infantry morale=34 melee=12 "
             "fire=6 defence=9 distance=2`")
DEFENDERS = "The target stacks e.g. `52nd: infantry nation=british morale=41 melee=8`"
FIREFIGHT = "A firefight carried over (quick lookups; a battle finds it on the roster)"


def subcommands(lookups: ProcedureRunner) -> list[Subcommand]:
    @slash(
        RULESET_ENTRY, "a revised infantry assault, "
        "morale, fire, Huzzah, odds and the Assault et Mêlée chart", choices=True,
        attackers=ATTACKERS, defenders=DEFENDERS, firefight=FIREFIGHT)
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

    @slash(
        RULESET_ENTRY, "a revised Old Guard Charge "
        "(the assault's steps, then exploitation)", choices=True,
        attackers="The charging Old Guard stack `Name: words`",
        defenders=DEFENDERS, firefight=FIREFIGHT)
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

    @slash(
        RULESET_ENTRY, "the side with the most "
        "assaults chooses first (a tie: the dice)",
        first="A side", first_assaults="Its number of assaults",
        second="The other side", second_assaults="Its number of assaults",
        kind="Assaults (default), or cavalry-vs-cavalry mêlées")
    @app_commands.choices(kind=[app_commands.Choice(name="assaults", value="assaults"),
                                app_commands.Choice(name="cavalry mêlées", value="cavalry")])
    async def order(
        interaction: discord.Interaction,
        first: app_commands.Range[str, 1, 40],
        first_assaults: app_commands.Range[int, 0, 50],
        second: app_commands.Range[str, 1, 40],
        second_assaults: app_commands.Range[int, 0, 50],
        kind: str = "assaults",
        dice: str | None = None, lookup: bool = False,
    ) -> None:
        options = {"sides": [[first, first_assaults], [second, second_assaults]],
                   "kind": kind}
        await lookups.resolve(interaction, RULESET, "order", options, dice, lookup)

    @slash(
        RULESET_ENTRY, "a cavalry charge's mêlée "
        "(vs PGD, infantry, cavalry), pursuit and regroup", choices=True,
        chargers=CHARGERS, targets=TARGETS,
        spent="MPs the charge expended (0-5): pursuit losses are (printed "
        "MP − spent) ÷ 3",
        reached="false: the charge did not reach its declared target in "
        "5 MPs (disordered, finished)")
    async def cavalry(
        interaction: discord.Interaction,
        chargers: app_commands.Range[str, 1, 600],
        targets: app_commands.Range[str, 1, 600],
        spent: app_commands.Range[int, 0, 5] | None = None,
        reached: bool = True,
        dice: str | None = None, lookup: bool = False,
        choices: app_commands.Range[str, 1, 200] | None = None,
    ) -> None:
        options = {"chargers": chargers, "targets": targets, "spent": spent,
                   "reached": reached, "choices": choices}
        await lookups.resolve(interaction, RULESET, "cavalry", options, dice, lookup)

    @slash(
        RULESET_ENTRY, "infantry forms Square as "
        "cavalry comes within 4 hexes, then the cavalry's Recall", choices=True,
        stack="The infantry stack e.g. `2nd Foot: infantry morale=41 "
        "nation=british`",
        distance="The cavalry's distance in hexes (1-4)",
        cavalry=CHARGING + ": its Recall if the square forms",
        target="The square was the charge's declared target")
    async def square(
        interaction: discord.Interaction,
        stack: app_commands.Range[str, 1, 300],
        distance: app_commands.Range[int, 1, 4],
        cavalry: app_commands.Range[str, 1, 600] | None = None,
        target: bool = False,
        dice: str | None = None, lookup: bool = False,
        choices: app_commands.Range[str, 1, 200] | None = None,
    ) -> None:
        options = {"stack": stack, "distance": distance, "cavalry": cavalry, "target": target,
                   "choices": choices}
        await lookups.resolve(interaction, RULESET, "square", options, dice, lookup)

    @slash(
        RULESET_ENTRY, "a Reaction Charge against "
        "charging cavalry (a morale check, then face to face midway)", choices=True,
        reactor="The reacting cavalry (good order, not exhausted)",
        charger="The charging cavalry, with its Charge marker "
        "(`charge=charging`; a Grand Charge: `;`-separated)",
        gap="Hexes between the two stacks")
    async def reaction(
        interaction: discord.Interaction,
        reactor: app_commands.Range[str, 1, 300],
        charger: app_commands.Range[str, 1, 600],
        gap: app_commands.Range[int, 0, 20],
        dice: str | None = None, lookup: bool = False,
        choices: app_commands.Range[str, 1, 200] | None = None,
    ) -> None:
        options = {"reactor": reactor, "charger": charger, "gap": gap, "choices": choices}
        await lookups.resolve(interaction, RULESET, "reaction", options, dice, lookup)

    @slash(
        RULESET_ENTRY, "cavalry in Skirmish Order "
        "attempts to Form Up and Stand against a charge",
        stack="The skirmishing cavalry e.g. `Cossacks: cavalry "
        "formation=skirmish morale=34`",
        charger=CHARGING)
    async def formup(
        interaction: discord.Interaction,
        stack: app_commands.Range[str, 1, 300],
        charger: app_commands.Range[str, 1, 600] | None = None,
        dice: str | None = None, lookup: bool = False,
    ) -> None:
        options = {"stack": stack, "charger": charger}
        await lookups.resolve(interaction, RULESET, "formup", options, dice, lookup)

    @slash(
        RULESET_ENTRY, "light cavalry attempts to "
        "Recall at any time during its charge movement", choices=True,
        chargers="The charging light cavalry e.g. `16th Light Dragoons: "
        "cavalry light morale=44 mp=9 nation=british`")
    async def recall(
        interaction: discord.Interaction,
        chargers: app_commands.Range[str, 1, 600],
        dice: str | None = None, lookup: bool = False,
        choices: app_commands.Range[str, 1, 200] | None = None,
    ) -> None:
        options = {"chargers": chargers, "choices": choices}
        await lookups.resolve(interaction, RULESET, "recall", options, dice, lookup)

    offer_units(lookups, STACK, SITUATION_FIELDS,
                (cavalry, "chargers"), (cavalry, "targets"), (square, "stack"),
                (square, "cavalry"), (reaction, "reactor"), (reaction, "charger"),
                (formup, "stack"), (formup, "charger"), (recall, "chargers"),
                (assault, "attackers"), (assault, "defenders"), (charge, "attackers"),
                (charge, "defenders"))

    return [
        Subcommand("assault", "assault", assault,
                   '/assault labataille attackers:"1/45e: infantry morale=34 melee=12 fire=6 '
                   'defence=9 inc=6" defenders:"52nd: infantry morale=41 melee=8 fire=5 '
                   'defence=9 inc=5" '
                   'dice:"44 52 5 33 41 55" choices:"chart_result=DR2"'),
        Subcommand("charge", "charge", charge,
                   '/charge labataille attackers:"1/3e Grenadiers: infantry morale=55 '
                   'melee=20" defenders:"33rd: infantry morale=41 melee=6" '
                   'dice:"61 32 45" choices:"chart_result=DS1"'),
        Subcommand("cavalry", "cavalry", cavalry,
                   '/cavalry labataille chargers:"2e Cuirassiers: cavalry morale=44 melee=18 '
                   'mp=8 nation=french" targets:"2nd Foot: infantry morale=41 melee=8 inc=5" '
                   'spent:2 dice:"45 1 41" choices:"chart_result=DR"'),
        Subcommand("square", "square", square,
                   '/square labataille stack:"2nd Foot: infantry morale=41 nation=british" '
                   'distance:2 dice:"35" choices:"carre_result=C"'),
        Subcommand("reaction", "reaction", reaction,
                   '/reaction labataille reactor:"Lancers: cavalry morale=35" '
                   'charger:"Hussars: cavalry morale=34 charge=charging" gap:3 dice:"45"'),
        Subcommand("formup", "formup", formup,
                   '/formup labataille stack:"Cossacks: cavalry formation=skirmish morale=34" '
                   'charger:"Hussars: cavalry morale=44 charge=charging" dice:"41"'),
        Subcommand("recall", "recall", recall,
                   '/recall labataille chargers:"16th Light Dragoons: cavalry light morale=44 '
                   'mp=9 nation=british" dice:"5" choices:"after_recall=end"'),
        Subcommand("order", "order", order,
                   "/order labataille first:French first_assaults:2 second:British "
                   'second_assaults:2 dice:"3 5"'),
    ]
