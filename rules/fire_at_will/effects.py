"""How Fire at Will's effects read (the kinds its entry declares beside the core
vocabulary)."""

from __future__ import annotations

from rules.core.records import Effect, effect_kinds
from rules.core.roster import Phrase

EffectKind = E = effect_kinds(
    LOSE_SP="lose_sp", SHAKEN="shaken", ROUTED="routed", RETIRE="retire",
    SURRENDERED="surrendered", COUNTER_CHARGE="counter_charge",
    GENERAL_WOUNDED="general_wounded", GENERAL_INCAPACITATED="general_incapacitated",
    GENERAL_CAPTURED="general_captured", GENERAL_KILLED="general_killed",
    COMMAND_SHAKEN="command_shaken",
)

NO_COMMAND = ""
"""The value of a general's command in a battle where no unit still in it has him as its
commander (none ever did, or the last leaves with him): his fall shakes no unit."""


def _command_shaken(effect: Effect) -> str:
    """In a battle, that the units of his command are shaken (the roster's lines name
    them; the bot cannot measure 18", so it shakes them all), or that he has none (true
    whether none names him or the last left the battle); in a quick lookup, the rule."""
    if effect.value is None:
        return ': units of his command within 18" are shaken'
    if effect.value == NO_COMMAND:
        return ": no unit is shaken (none in the battle has him as commander)"
    return (': units of his command still in the battle are shaken (those within 18"; a GM '
            "clears any farther)")


TEXTS = {
    E.LOSE_SP: "loses {amount} SP",
    E.SHAKEN: "is shaken",
    E.ROUTED: "routs",
    E.RETIRE: 'retires {amount}"',
    E.SURRENDERED: "surrenders (removed from the table)",
    E.COUNTER_CHARGE: "counter-charges {value}, meeting it halfway",
    # At half speed: the roll's result says it, as the table's row reads.
    E.GENERAL_WOUNDED: "is lightly wounded",
    E.GENERAL_INCAPACITATED: "is incapacitated (removed from play)",
    E.GENERAL_CAPTURED: "is captured",
    E.GENERAL_KILLED: "is killed",
    # "all units under his command within 18" become shaken": said after the general's name.
    E.COMMAND_SHAKEN: _command_shaken,
}


# A general's fall that shakes no unit changes nothing on the table: the reply says it, a
# result's label (the GM's override menu) does not, where it told no two results apart.
REMARKS = frozenset({f"{E.COMMAND_SHAKEN}={NO_COMMAND}"})

LOSSES = {E.LOSE_SP: "SP"}  # the kinds that count a loss in a number, and its measure

LAST_SP = "last"
"""The value of a loss that takes a unit's last SP: the unit leaves the battle."""

# A unit losing its last SP leaves the battle (battle.NO_SP_LEFT): for the odds, it is gone.
FATES = {f"{E.LOSE_SP}={LAST_SP}": ("gone", "leaves the battle")}

# How players say a change to each roster field ("La Sarre is shaken").
CHANGE_PHRASES: dict[str, Phrase] = {
    "arm": Phrase("is now {value}", words=(("other", "neither foot, horse nor guns"),)),
    "order": Phrase("is now in {value} order", "has no order given"),
    "morale": Phrase("now has basic morale {value}", "no longer has a basic morale"),
    "shaken": Phrase("is shaken", "is no longer shaken"),
    "routing": Phrase("is routing", "is no longer routing"),
    "regular": Phrase("now counts as European regulars", "no longer counts as regulars"),
    "indian": Phrase("now counts as an Indian unit", "no longer counts as an Indian unit"),
    "light": Phrase("now counts as light troops", "no longer counts as light troops"),
}
