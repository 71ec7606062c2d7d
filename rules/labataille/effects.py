"""La Bataille's effect kinds and how they read (beside the core vocabulary)."""

from __future__ import annotations

from rules.core.records import EffectKind as E

DISORDERED = "disordered"  # the value of a core marker_set effect
INCREMENTS = "increments"  # the measure of damage

TEXTS = {
    E.ROUTED: "routs",
    E.SURRENDERED: "surrenders (removed from the table)",
    E.FIREFIGHT: "is locked in a firefight with {value}",
}
