"""How Le Baton's effects read (the kinds its entry declares beside the core
vocabulary)."""

from __future__ import annotations

from rules.core.records import Effect, effect_kinds
from rules.core.roster import Phrase

EffectKind = E = effect_kinds(
    ROUTED="routed", RETIRE="retire", HALTED="halted", CASUALTIES="casualties",
    FORMATION="formation", PLACED="placed", FOLLOW_UP="follow_up",
    CHARGE_MARKER="charge_marker", RECALLED="recalled", HELD="held", IN_MELEE="in_melee",
    MELEE_ENDS="melee_ends", FIREFIGHT="firefight", FOUGHT="fought", RECALL_DUE="recall_due",
    MELEE_LOST="melee_lost", INFANTRY_CHARGED="infantry_charged", FIRED="fired",
    CHARGE_FAILED="charge_failed", DESTROYED="destroyed",  # its last figure lost
    BOMBARDED="bombarded",  # a battery's phase 1 fire, once a turn
    TESTED="tested",  # a unit's morale test in a phase, once a turn
    PASSED_THROUGH="passed_through",  # cavalry past a square: its full move is spent
    MELEE_TIED="melee_tied",  # a round of a melee that nobody lost
)


def _casualties(effect: Effect) -> str:
    return "takes 1 casualty" if effect.amount == 1 else f"takes {effect.amount} casualties"


TEXTS = {
    E.ROUTED: "routs",
    E.DESTROYED: "is destroyed",
    E.RETIRE: 'retires {amount}"',
    E.HALTED: "halts",
    E.CASUALTIES: _casualties,
    E.FORMATION: "forms {value}",
    E.PLACED: 'is placed {amount}" {value}',
    E.FOLLOW_UP: "follows up",
    E.CHARGE_MARKER: "leaves a charge marker where its charge began",
    E.RECALLED: "is recalled",
    E.HELD: "is held: it cannot move next turn and must test recall again",
    E.IN_MELEE: "is locked in melee with {value}",
    E.MELEE_ENDS: "is out of melee",
    E.FIREFIGHT: "is locked in a firefight with {value}",
    E.FOUGHT: "has had its first combat: it continues the melee without its edge",
    E.RECALL_DUE: "must test recall in phase 13",
    E.MELEE_LOST: "lost the melee: it tests morale in phase {value}",
    E.INFANTRY_CHARGED: "",  # the roster's bookkeeping: the charge itself says it
    E.FIRED: "",  # the volley says it
    E.BOMBARDED: "",  # the guns' fire says it
    E.TESTED: "",  # the test says it
    E.CHARGE_FAILED: "",  # "does not charge" says it
    E.PASSED_THROUGH: "",  # "passes through" says it
    E.MELEE_TIED: "",  # "tie" says it
}

LOSSES = {E.CASUALTIES: "figures"}  # the kinds that count a loss in a number, and its measure

# How players say a change to each roster field and marker ("La Sarre is now in melee with
# 42nd Highlanders"). Whether a unit has fought a round of its melee is the engine's own
# bookkeeping, as the roster line leaves it out too.
CHANGE_PHRASES: dict[str, Phrase] = {
    "nation": Phrase("is now {value}", words=(("french", "French"), ("british", "British"))),
    "arm": Phrase("is now {value}", words=(("other", "neither foot, horse nor guns"),)),
    "quality": Phrase("is now {value}"),
    "formation": Phrase("is now in {value}", "no longer has a formation",
                        words=(("skirmish", "skirmish order"),)),
    "horse": Phrase("is now {value}", "no longer has a cavalry type",
                    words=(("heavy-dragoons", "heavy dragoons"),
                           ("light-dragoons", "light dragoons"))),
    "guns": Phrase("now fires {value}-pound shot", "no longer has a weight of shot"),
    "casualties": Phrase("has {value} casualties in all", "has no casualties",
                         one="has 1 casualty in all"),
    "halted": Phrase("is halted", "is no longer halted"),
    "held": Phrase("is held (failed recall)", "is no longer held"),
    "charge_marker": Phrase("has a charge marker", "has its charge marker removed"),
    "recall_due": Phrase("must test recall in phase 13", "no longer has to test recall"),
    "fought": Phrase(""),
    "recall_failed": Phrase(""),  # "is held (failed recall)" says it
    "charged_by_infantry": Phrase(""),  # the charge says it
    "fired": Phrase(""),  # the volley says it
    "bombarded": Phrase(""),  # the guns' fire says it
    "tested": Phrase(""),  # the test says it
    "charge_failed": Phrase(""),  # "does not charge" says it
    "passed_through": Phrase(""),  # "passes through" says it
}
