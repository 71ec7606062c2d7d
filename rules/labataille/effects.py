"""La Bataille's effect kinds and how they read (beside the core vocabulary)."""

from __future__ import annotations

from rules.core.records import EffectKind as E

DISORDERED = "disordered"  # the value of a core marker_set effect
INCREMENTS = "increments"  # the measure of damage
TIRED, EXHAUSTED = "tired", "exhausted"  # a cavalry stack's fatigue after a charge
CHARGED = "charged"  # the inverted Charge marker: it charged this turn
CHARGING = "charging"  # the Charge marker: it will charge (a Reaction Charge's new attacker)
SQUARE = "square"  # a stack that formed square (carré)

TEXTS = {
    E.ROUTED: "routs",
    E.SURRENDERED: "surrenders (removed from the table)",
    E.FIREFIGHT: "is locked in a firefight with {value}",
}
