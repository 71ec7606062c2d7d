"""How Fire at Will's effects read (the kinds its entry registers beside the core
vocabulary)."""

from __future__ import annotations

from rules.core.records import EffectKind as E

TEXTS = {
    E.LOSE_SP: "loses {amount} SP",
    E.SHAKEN: "is shaken",
    E.ROUTED: "routs",
    E.RETIRE: 'retires {amount}"',
    E.SURRENDERED: "surrenders (removed from the table)",
    E.COUNTER_CHARGE: "counter-charges {value}, meeting it halfway",
    E.GENERAL_WOUNDED: "is lightly wounded (moves at half speed)",
    E.GENERAL_INCAPACITATED: "is incapacitated (removed from play)",
    E.GENERAL_CAPTURED: "is captured",
    E.GENERAL_KILLED: "is killed",
    # "all units under his command within 18" become shaken": said after the general's name.
    E.COMMAND_SHAKEN: ': units of his command within 18" are shaken',
}
