"""Tricorne's own effect kinds and how they read (beside the core vocabulary)."""

from __future__ import annotations

ELIMINATED = "eliminated"
ROUTED_OFF = "routed_off"
BANNER = "victory_banner"
LEADER_KILLED = "leader_killed"
LEADER_ESCAPES = "leader_escapes"
LEADER_JOINS = "leader_joins"
LEADER_RETREATS = "leader_retreats"
TAKES_GROUND = "takes ground"  # the value of the core `moved` effect that counts as movement

TEXTS = {
    ELIMINATED: "is eliminated (its last block removed)",
    ROUTED_OFF: "routs off the field",  # the rally check's roll says it failed
    # What won it (a rout, a kill) is said of the unit or leader it fell on.
    BANNER: "wins a Victory Banner",
    LEADER_KILLED: "is killed",
    LEADER_ESCAPES: "escapes alone toward the nearest friendly unit (a lone leader)",
    # As a battle's roster says it, so that its line and the effect's are one.
    LEADER_JOINS: "is now with {value}",
    LEADER_RETREATS: "retreats toward his side",
}
