"""Le Baton quick sheet: a whole turn of fire, morale, charges, melee and cavalry recall."""

from __future__ import annotations

from rules.core.defaults import battle_rules, procedures
from rules.core.registry import HelpTopic, RuleSet
from rules.le_baton import battle, commands, effects, phases
from rules.le_baton.inputs import DESCRIPTION, MELEE_SITUATION, STATE
from rules.le_baton.movement import movement_lines
from rules.le_baton.units import MAX_FIGURES, RULESET

SUMMARIES = {
    "fire": "infantry or artillery fire in phase 3 (British) or 8 (French)",
    "artillery-fire": "phase 1 artillery fire, with the unit 12\" behind",
    "morale": "a morale check in phase 2, 4, 5, 7, 9, 10 or 12, with its consequences",
    "recall": "phase 13 cavalry recall",
    "charge": "a charge through closing and standing checks, up to the melee",
    "melee": "a melee in phase 6 or 11",
}


RULESET_ENTRY = RuleSet(
    key=RULESET,
    title="Le Baton",
    effects=effects.TEXTS,
    losses=effects.LOSSES,
    # A charge ends at contact, or short of it: the melee decides who wins.
    no_winner=frozenset({"charge"}),
    help=HelpTopic(
        words=(("Units", DESCRIPTION),
               ("Figures and markers (in a battle the roster keeps them: strength, "
                "`/general add`, `/gm set`)", STATE),
               ("Melee situation (after a roster name)", MELEE_SITUATION)),
        reference=(("Movement (phases 1, 3 and 8)", tuple(movement_lines())),),
    ),
    # A request is read as the command's options are: one input path per procedure.
    procedures=procedures(commands.prepare, {
        name: (SUMMARIES[name], commands.REQUEST_KEYS[name]) for name in commands.PROCEDURES}),
    battle=battle_rules(battle, commands.prepare, phrases=effects.CHANGE_PHRASES,
                        phase_warning=phases.phase_warning,
                        phase_options=phases.phase_options,
                        strength_label="figures", max_strength=MAX_FIGURES,
                        unit_example="british inf veteran line",
                        general_words=("general",)),  # a unit's `general` (attached)
)
