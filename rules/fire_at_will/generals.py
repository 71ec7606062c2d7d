"""Risk to generals (fire-at-will-melee.txt): two 2d6 tables, wounds, capture and death."""

from __future__ import annotations

from dataclasses import dataclass

from rules.core.dice import DiceSource, TwoD6, plain_readings
from rules.core.names import name_key
from rules.core.records import ResolutionBuilder, Roll
from rules.fire_at_will.effects import EffectKind
from rules.fire_at_will.units import MELEE_TEXT, General


@dataclass(frozen=True)
class Band:
    low: int
    high: int
    result: EffectKind | None

    def row(self) -> str:
        return f"{self.low}" if self.low == self.high else f"{self.low}-{self.high}"


# "If a general is with any unit that routs from melee throw 2d6"
ROUT_TABLE: tuple[Band, ...] = (
    Band(2, 7, None),
    Band(8, 9, EffectKind.GENERAL_WOUNDED),
    Band(10, 10, EffectKind.GENERAL_CAPTURED),
    Band(11, 12, EffectKind.GENERAL_KILLED),
)

# "In any other cases if the general is with any unit that suffers losses from melee"
LOSS_TABLE: tuple[Band, ...] = (
    Band(2, 8, None),
    Band(9, 10, EffectKind.GENERAL_WOUNDED),
    Band(11, 12, EffectKind.GENERAL_KILLED),
)

# The row as the roll's result reads it ("Suffers a light wound and moves at 1/2 speed"):
# what else befalls him is the effect's to say (effects.TEXTS), so that each is said once.
_RESULT_TEXT = {
    None: "no effect",
    EffectKind.GENERAL_WOUNDED: "light wound, moves at 1/2 speed",
    EffectKind.GENERAL_INCAPACITATED: "second light wound",
    EffectKind.GENERAL_CAPTURED: "captured",
    EffectKind.GENERAL_KILLED: "dead",
}


def look_up(table: tuple[Band, ...], total: int) -> Band:
    return next(band for band in table if band.low <= total <= band.high)


def risk_to_general(
    general: General, unit_name: str, routed: bool, dice: DiceSource, out: ResolutionBuilder,
    *, no_sp_left: bool = False, unit_gone: bool = False,
) -> EffectKind | None:
    """Roll on the table the unit's fate calls for and record what befalls the general. A
    unit that lost by 2 or more and has no SP left to rout with takes its general's risk on
    the rout table all the same (docs/fire-at-will.md). ``unit_gone``: his unit leaves the
    battle in this result (no SP left, or surrendered)."""
    table = ROUT_TABLE if routed else LOSS_TABLE
    which = "routed from melee" if routed else "suffered losses in melee"
    fate = which
    if no_sp_left:
        fate = ("lost by 2 or more, its last SP with it" if routed
                else "suffered losses in melee, its last SP with them")
    faces = dice.roll(TwoD6(), f"risk to {general.name}")
    total = sum(faces)
    band = look_up(table, total)
    result = band.result
    if result is EffectKind.GENERAL_WOUNDED and general.wounded:
        result = EffectKind.GENERAL_INCAPACITATED
    roll = Roll(
        label=f"Risk to {general.name}",
        kind="2d6",
        dice=faces,
        total=total,
        target=f"row {band.row()} ({which} table)",
        result=_RESULT_TEXT[result],
        readings=plain_readings(faces),
    )
    out.step(
        f"Risk to {general.name} (with {unit_name}, which {fate})",
        "",  # the roll's own reading says what befalls the general
        roll,
    )
    if result is not None:
        out.effect(result, general.name, detail=f"{MELEE_TEXT}: Risk to Generals")
    if result in (EffectKind.GENERAL_KILLED, EffectKind.GENERAL_CAPTURED):
        # In a battle the effect names the units of his command, or says he has none.
        # His unit leaving the table in this same result is no longer there to be shaken.
        command = None if general.command is None else " and ".join(
            u for u in general.command
            if not (unit_gone and name_key(u) == name_key(unit_name)))
        out.effect(EffectKind.COMMAND_SHAKEN, general.name, value=command,
                   detail=f"{MELEE_TEXT}: Risk to Generals")
    return result
