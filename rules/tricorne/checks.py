"""The checks melee calls for whose dice the text does not print: the rally check and the
leader casualty check. Both read the battle's settings (rules.tricorne.settings)."""

from __future__ import annotations

from dataclasses import dataclass

from rules.core.dice import BattleDice, DiceSource, Reading, Symbol, read_alike
from rules.core.records import Roll
from rules.tricorne.settings import RallyDice, RallySuccess, Settings
from rules.tricorne.units import (
    RALLY_MODIFIER,
    RALLY_MODIFIER_SOURCE,
    TARGET_SYMBOL,
    Arm,
    Unit,
)


@dataclass(frozen=True)
class Check:
    roll: Roll
    passed: bool


def rally_dice(unit: Unit, settings: Settings) -> tuple[int, str]:
    """The rally check's dice count and its arithmetic."""
    if settings.rally_dice is RallyDice.BLOCKS:
        count, parts = unit.blocks, [f"{unit.blocks} (blocks left)"]
    else:
        count, parts = int(settings.rally_dice.value), [f"{settings.rally_dice.value} (setting)"]
    if unit.leader and settings.rally_leader:
        count += settings.rally_leader
        parts.append(f"+ {settings.rally_leader} leader attached")
    modifier = RALLY_MODIFIER.get(unit.kind, 0)
    if modifier:
        count += modifier
        sign = "+" if modifier > 0 else "−"
        parts.append(f"{sign} {abs(modifier)} {unit.kind.value} "
                     f"({RALLY_MODIFIER_SOURCE[unit.kind]})")
    if count < 1:
        count = 1
        parts.append("(at least 1)")
    return count, f"{' '.join(parts)} = {count} {'die' if count == 1 else 'dice'}"


RALLIED = "rallies: stays on the field"


def rallies(face: Symbol, unit: Unit, rule: RallySuccess) -> bool:
    own = TARGET_SYMBOL.get(unit.arm)
    match rule:
        case RallySuccess.UNIT_OR_SABER:
            return face in (own, Symbol.SABER)
        case RallySuccess.SABER:
            return face is Symbol.SABER
        case RallySuccess.UNIT:
            return face is own
        case RallySuccess.NOT_FLAG:
            return face is not Symbol.FLAG


def rally_check(unit: Unit, dice: DiceSource, settings: Settings) -> Check:
    count, arithmetic = rally_dice(unit, settings)
    alike = read_alike(settings.die, lambda f: rallies(f, unit, settings.rally_success))
    faces = dice.roll(BattleDice(count, settings.die, alike), f"{unit.name} rally check")
    readings = tuple(Reading.HIT if rallies(f, unit, settings.rally_success) else Reading.MISS
                     for f in faces)  # type: ignore[arg-type]
    passed = Reading.HIT in readings
    needed = {RallySuccess.UNIT_OR_SABER: "its own symbol or a saber",
              RallySuccess.SABER: "a saber", RallySuccess.UNIT: "its own symbol",
              RallySuccess.NOT_FLAG: "anything but a flag"}[settings.rally_success]
    roll = Roll(f"{unit.name} rally check", BattleDice(count).describe(), faces,
                hits=readings.count(Reading.HIT), readings=readings, target=needed,
                # A rally check follows the retreat and decides only whether the unit stays on
                # the field: "rallies" alone, under "retreats 2 hexes", reads as undoing it.
                result=RALLIED if passed else "fails", notes=(arithmetic,))
    return Check(roll, passed)


def leader_check(unit: Unit, eliminated: bool, dice: DiceSource, settings: Settings) -> Check:
    """The attached leader of a unit that took a hit: ``passed`` is the leader surviving.
    With the unit eliminated, one die and a saber kills; else ``leader_dice`` dice and
    ``leader_sabers`` sabers kill."""
    count, needed = (1, 1) if eliminated else (settings.leader_dice, settings.leader_sabers)
    faces = dice.roll(BattleDice(count, settings.die, sabers_or_not(settings.die)),
                      f"{unit.leader} leader casualty check")
    return _saber_check(f"{unit.leader} leader casualty check", faces, needed)


def lone_leader_check(leader: str, faces: tuple, readings_needed: int = 1) -> Check:
    """A lone leader attacked in melee: the attacker's melee dice; a saber kills."""
    return _saber_check(f"{leader} (alone) attacked", faces, readings_needed)


def sabers_or_not(die: tuple[Symbol, ...]) -> tuple[tuple[Symbol, ...], ...]:
    """A saber check reads a saber, or anything else (``BattleDice.alike``)."""
    return read_alike(die, lambda f: f is Symbol.SABER)


def _saber_check(label: str, faces: tuple, needed: int) -> Check:
    readings = tuple(Reading.HIT if f is Symbol.SABER else Reading.MISS for f in faces)
    sabers = readings.count(Reading.HIT)
    killed = sabers >= needed
    kills = "1 saber kills" if needed == 1 else f"{needed} sabers kill"
    roll = Roll(label, BattleDice(len(faces)).describe(), faces, hits=sabers, readings=readings,
                target=kills, result="killed" if killed else "survives")
    return Check(roll, not killed)


def can_take_ground(unit: Unit) -> bool:
    """Reference §6: ordered infantry or cavalry; never artillery."""
    return unit.arm in (Arm.INFANTRY, Arm.CAVALRY)
