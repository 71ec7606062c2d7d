"""La Bataille's effect kinds and how they read (beside the core vocabulary)."""

from __future__ import annotations

from rules.core.notation import possessive
from rules.core.records import effect_kinds

EffectKind = E = effect_kinds(ROUTED="routed", SURRENDERED="surrendered",
                              FIREFIGHT="firefight", FORMATION="formation",
                              DESTROYED="destroyed")  # its last increment lost

DISORDERED = "disordered"  # the value of a core marker_set effect
INCREMENTS = "increments"  # the measure of damage
TIRED, EXHAUSTED = "tired", "exhausted"  # a cavalry stack's fatigue after a charge
# The Charge markers, as marker_set values that read as sentences ("Hussars is marked ...").
CHARGED = "marked with an inverted Charge marker"  # it charged this turn
CHARGING = "marked with a Charge marker"  # it will charge (a Reaction Charge's new attacker)
REACTED = "reacted"  # a stack made its one attempt against a charge (Square, Reaction, Form Up)
SQUARE = "in square"  # a stack that formed square (carré): "2nd Foot is in square"


def _reacted(effect) -> str:
    chargers = " and ".join(str(effect.value).split("; "))
    return (f"has made its attempt against {possessive(chargers)} {effect.detail} (once per "
            f"{effect.detail})")



TEXTS = {
    E.ROUTED: "routs",
    E.SURRENDERED: "surrenders",  # and is removed from play (step 7)
    E.FIREFIGHT: "is locked in a firefight with {value}",
    E.FORMATION: "forms {value}",
    # As the headline says it ("destroyed by pursuit", "in its rout"), so it is said once.
    E.DESTROYED: "is destroyed",
    REACTED: _reacted,
}
