"""Commands & Colors Tricorne: the melee procedure, with battle dice showing symbols."""

from __future__ import annotations

from rules.core.defaults import battle_rules, phase_warnings, procedures
from rules.core.dice import BATTLE_DICE_FACES
from rules.core.registry import HelpTopic, RuleSet
from rules.tricorne import battle, commands, effects
from rules.tricorne.inputs import UNIT
from rules.tricorne.melee import resolve_melee
from rules.tricorne.settings import check_settings
from rules.tricorne.units import RULESET

__all__ = ["RULESET_ENTRY", "resolve_melee"]


REFERENCE = (
    ("Melee dice (step 3)", (
        "Grenadier 3; regular, highland, lowland, militia, cavalry, artillery 2.",
        "+1 full strength, +1 leader attached, +1 highland when ordered or in a bonus melee, "
        "+ cards; then −1 ordered infantry that moved, − terrain.",
        "Cavalry and artillery that entered forest or buildings this turn (`forest moved`) "
        "may not battle.",
    )),
    ("Hits (step 5)", (
        "1 hit per symbol of the target's arm and per saber (not militia's or light "
        "cavalry's sabers); flags retreat; hits past the last block are wasted.",
        "A hill ignores 1 flag attacked from below or from another hill (`other-hill`), not "
        "by artillery; a grenadier may ignore 1 flag (its owner is asked).",
    )),
    ("Project defaults (the text does not print them)", (
        "Die: inf inf cav art saber flag. Rally check: 1 die per block left, +1 leader; its "
        "own symbol or a saber rallies; failure routs. Leader check: 2 dice, 2 sabers kill "
        "(1 die, 1 saber if the unit is eliminated).",
        "Change them with `/battle setting` or `settings` in `huzzah resolve`.",
    )),
)

RULESET_ENTRY = RuleSet(
    key=RULESET,
    title="Commands & Colors Tricorne",
    effects=effects.TEXTS,
    # Its settings are shown from `battle.settings` (`/help topic:tricorne part:settings`).
    help=HelpTopic(words=(("Melee units (attacker, defender, bonus)", UNIT),),
                   reference=REFERENCE),
    battle=battle_rules(
        battle, commands.prepare,
        gone_reasons={"eliminated": "is eliminated", battle.NO_BLOCKS_LEFT: "is eliminated"},
        strength_label="blocks", unit_example="regular",
        general_words=("leader",),  # a unit's `leader=Murray`
        dice_faces=BATTLE_DICE_FACES,
        standings=battle.victory_banners,
        check_settings=check_settings,
        phase_warning=phase_warnings(battle.PHASES, {"melee": "combat"}, battle.PHASE_NAMES),
    ),
    # A request is read as the command's options are: one input path.
    procedures=procedures(commands.prepare, {"melee": (
        "one melee: retire and rally, hits, flags, rally and leader checks, take ground, "
        "bonus melee, battle back", ("attacker", "defender", "card", "bonus", "settings"))}),
)
