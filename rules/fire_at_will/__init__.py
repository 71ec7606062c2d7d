"""Fire at Will (2007 blog rules): charging, rout, surrender, melee and risk to generals."""

from __future__ import annotations

from rules.core.defaults import battle_rules, phase_warnings, procedures
from rules.core.registry import HelpTopic, RuleSet
from rules.fire_at_will import battle, commands, effects
from rules.fire_at_will.charge import check_declaration, resolve_charge, resolve_surrender
from rules.fire_at_will.inputs import CHARGER, MELEE
from rules.fire_at_will.melee import resolve_melee
from rules.fire_at_will.units import RULESET

__all__ = [
    "RULESET_ENTRY",
    "check_declaration",
    "resolve_charge",
    "resolve_melee",
    "resolve_surrender",
]


RULESET_ENTRY = RuleSet(
    key=RULESET,
    title="Fire at Will",
    effects=effects.TEXTS,
    losses=effects.LOSSES,
    fates=effects.FATES,
    remarks=effects.REMARKS,
    help=HelpTopic(words=(("Melee units (attackers, defenders)", MELEE), ("Chargers", CHARGER))),
    battle=battle_rules(
        battle, commands.prepare, phrases=effects.CHANGE_PHRASES,
        unit_example="inf regular morale=4",
        general_words=("general",),  # a melee unit's `general="Wolfe"`
        max_wounds=1,  # "a second light wound incapacitates" (fire-at-will-melee.txt)
        # A roster line says that the unit leaves the battle, whatever the headline says.
        gone_reasons={battle.NO_SP_LEFT: "leaves the battle",
                      "surrendered": "surrenders (leaves the battle)"},
        # The blog's move sequence: charges, then melee (../shared/reference/fire-at-will.md).
        phase_warning=phase_warnings(battle.PHASES, {"charge": "charges", "melee": "melee"},
                                     battle.PHASE_NAMES),
    ),
    # A request is read as the command's options are: one input path per procedure. A
    # request gives each unit whole, as an object, or as the command does (by name, with
    # `target_type` and the rest).
    procedures=procedures(commands.prepare, {
        "charge": ("a charged unit's test: rout, stand, counter-charge, surrender",
                   ("target", "chargers", "cover", *commands.TARGET_OPTIONS)),
        "melee": ("one melee, several units a side, with risk to generals",
                  ("attackers", "defenders", "settings", "obstacle_rule")),
        "surrender": ("a surrender test in one of the three listed situations",
                      ("unit", "situation", "unit_type")),
    }),
)
