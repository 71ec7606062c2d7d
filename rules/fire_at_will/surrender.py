"""Surrender tests: 1d6, foot surrender on 4+, mounted on 5+ (fire-at-will-charging.txt)."""

from __future__ import annotations

from enum import StrEnum

from rules.core.dice import D6, DiceSource, plain_readings
from rules.core.records import ResolutionBuilder, Roll
from rules.fire_at_will.effects import EffectKind
from rules.fire_at_will.units import CHARGING_TEXT, Unit

FOOT_SURRENDERS_ON = 4
MOUNTED_SURRENDERS_ON = 5


class SurrenderSituation(StrEnum):
    """The three situations the text lists, by their letters."""

    REAR_ROUT = "a"
    ROUTING_CHARGED = "b"
    ROUTING_TRAPPED = "c"


SITUATION_TEXT: dict[SurrenderSituation, str] = {
    SurrenderSituation.REAR_ROUT: "charged in the rear and routed",
    SurrenderSituation.ROUTING_CHARGED: "already routing and successfully charged",
    SurrenderSituation.ROUTING_TRAPPED: (
        'already routing, within 6" of the enemy and unable to move'
    ),
}


def surrender_target(unit: Unit) -> int:
    return MOUNTED_SURRENDERS_ON if unit.mounted else FOOT_SURRENDERS_ON


def surrender_test(
    unit: Unit, situation: SurrenderSituation, dice: DiceSource, out: ResolutionBuilder
) -> bool:
    """Roll the test, record it, and add the surrender effect if it succeeds."""
    target = surrender_target(unit)
    (face,) = dice.roll(D6(), f"{unit.name} surrender test")
    surrenders = face >= target
    kind = "mounted" if unit.mounted else "foot"
    roll = Roll(
        label=f"{unit.name} surrender test",
        kind="1d6",
        dice=(face,),
        total=face,
        target=f"{target}+ ({kind})",
        result="surrenders" if surrenders else "does not surrender",
        readings=plain_readings((face,)),
    )
    outcome = (
        f"{unit.name} surrenders and is removed from the table."
        if surrenders
        else f"{unit.name} does not surrender."
    )
    out.step(f"Surrender test ({SITUATION_TEXT[situation]})", outcome, roll)
    if surrenders:
        out.effect(EffectKind.SURRENDERED, unit.name, detail=f"{CHARGING_TEXT}: Surrender")
    return surrenders
