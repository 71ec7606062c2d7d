"""La Bataille revised: the Infantry Assault and the Old Guard Charge, on d66 dice, with chart
packs for the charts the players own (or the chart result asked of them)."""

from __future__ import annotations

from rules.core.defaults import Inputs, battle_rules, phase_warnings, procedures
from rules.core.dice import D6_DICE
from rules.core.registry import ChartsSpec, HelpTopic, RuleSet
from rules.labataille import battle, commands, effects
from rules.labataille.assault import resolve_assault
from rules.labataille.charts import describe_pack
from rules.labataille.inputs import INCREMENTS, STACK
from rules.labataille.units import MAX_INCREMENTS, MAX_LEADER, RULESET

__all__ = ["RULESET_ENTRY", "resolve_assault"]


ASSAULT_KEYS = ("attackers", "defenders", "firefight", "charts", "settings")
REFERENCE = (
    ("Morale (d66)", (
        "Pass when the modified roll exceeds the printed morale; modifiers step through the "
        "36 results (43 + 4 = 51). Disordered infantry −3, routed −6; a leader adds its value.",
    )),
    ("Defender shifts", ("1d6 when a defending stack passes: 1-2 none, 3-4 one, 5-6 two left "
                         "column shifts.",)),
    ("Fire", ("−3 on the mêlée roll per casualty the defenders inflict, +3 per casualty the "
              "attackers inflict (Premier fire chart, doubled fire for a passed check, "
              "canister 2 columns right).",)),
    ("Charts", ("Attach your revised charts as a chart pack (docs/labataille.md); without "
                "one, the bot says which column and row to read and asks for the result.",)),
)

RULESET_ENTRY = RuleSet(
    key=RULESET,
    title="La Bataille",
    effects=effects.TEXTS,
    help=HelpTopic(words=(("Stacks (attackers, defenders)", STACK),), reference=REFERENCE),
    battle=battle_rules(
        battle, commands.prepare,
        strength_label="increments", strength_aliases=INCREMENTS.aliases,
        max_strength=MAX_INCREMENTS,
        unit_example="infantry morale=34 melee=8",
        general_words=("leader",),  # a stack's `leader=Ney`
        dice_faces=D6_DICE,
        charts=ChartsSpec(commands.PACK, describe_pack, "docs/labataille.md"),
        # A leader's value is a dice modifier (reference A.6): a general carries his own.
        general_values=(-MAX_LEADER, MAX_LEADER),
        # "During the Mêlée Segment: Each Infantry Assault is resolved"; "During the
        # Maneuver Segment Old Guard units … declare", "resolved immediately" (the text).
        phase_warning=phase_warnings(battle.PHASES, {
            "assault": battle.MELEE_SEGMENT, "charge": battle.PHASES[0]}, battle.PHASE_NAMES),
    ),
    # Forming square decides no fight (the charge's mêlée does): its odds name each result
    # ("2nd Foot forms square"), not "both hold" for a square and a disordered line alike.
    no_winner=frozenset({"square"}),
    # A request is read as the command's options are: one input path per procedure. Where
    # the versioned JSON names a field otherwise than the command's option, it is renamed.
    procedures=procedures(commands.prepare, {
        "assault": ("an Infantry Assault: morale checks, fire, Huzzah, odds, the chart",
                    ASSAULT_KEYS),
        "charge": ("an Old Guard Charge: the assault's steps, then exploitation", ASSAULT_KEYS),
        "cavalry": Inputs(
            "a Cavalry Charge's mêlée: vs PGD, infantry and artillery, or cavalry",
            ("attackers", "defenders", "spent", "reached", "charts", "settings"),
            renamed={"attackers": "chargers", "defenders": "targets"}),
        "square": ("an infantry stack forms Square as cavalry comes on, then the Recall",
                   ("stack", "distance", "cavalry", "target", "charts")),
        "reaction": ("a Reaction Charge: a morale check, then face to face midway",
                     ("reactor", "charger", "gap", "charts")),
        "formup": ("skirmishing cavalry attempts to Form Up and Stand against a charge",
                   ("stack", "charger", "charts")),
        "recall": Inputs("light cavalry attempts to Recall during its Charge movement",
                         ("attackers", "charts"), renamed={"attackers": "chargers"}),
        "order": ("which side chooses the first assault, or cavalry-vs-cavalry mêlée "
                  "(`kind`: assaults or cavalry; a tie: the dice)", ("sides", "kind")),
    }),
)
