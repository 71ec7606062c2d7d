"""Fire: artillery in phase 1, infantry and artillery in phases 3 (British) and 8 (French)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from rules.core.dice import D6Pool, DiceSource, Reading, pool_readings
from rules.core.errors import InvalidInput, NotAllowed
from rules.core.names import name_key
from rules.core.notation import counted, measured
from rules.core.records import Modifier, Resolution, ResolutionBuilder, Roll, Severity
from rules.le_baton.dice_counts import fire_dice
from rules.le_baton.effects import EffectKind
from rules.le_baton.units import RULESET, SHEET, Arm, Formation, Nation, Unit, require_figures

FIRE_RANGE = 4  # inches: "Target (4" range and roll one die per two figures, artillery too)"


class ArtilleryTarget(StrEnum):
    COLUMN = "column"
    SQUARE = "square"
    ENFILADED_LINE = "enfiladed-line"
    LINE = "line"
    SKIRMISHERS = "skirmishers"
    FORTIFICATION = "fortification"
    ARTILLERY = "artillery"


class FireTarget(StrEnum):
    COLUMN = "column"
    SQUARE = "square"
    ENFILADED_LINE = "enfiladed-line"
    LINE = "line"
    ARTILLERY = "artillery"
    SKIRMISHERS = "skirmishers"
    DEFENSIVE_TERRAIN = "defensive-terrain"
    CHARGING_CAVALRY = "charging-cavalry"


class Range(StrEnum):
    CLOSE = "close"
    NORMAL = "normal"
    LONG = "long"


# Phase 1: "Column/Square/Enfiladed Line 4+ / Line 5+ / Skirmisher/Fortification/Artillery 6"
ARTILLERY_TO_HIT: dict[ArtilleryTarget, int] = {
    ArtilleryTarget.COLUMN: 4, ArtilleryTarget.SQUARE: 4, ArtilleryTarget.ENFILADED_LINE: 4,
    ArtilleryTarget.LINE: 5,
    ArtilleryTarget.SKIRMISHERS: 6, ArtilleryTarget.FORTIFICATION: 6,
    ArtilleryTarget.ARTILLERY: 6,
}
# Phases 3 and 8: "Column/Square/Enfiladed Line 4+ / Line/Artillery 5+ /
# Skirmishers/Defensive Terrain/Charging Cavalry 6+"
FIRE_TO_HIT: dict[FireTarget, int] = {
    FireTarget.COLUMN: 4, FireTarget.SQUARE: 4, FireTarget.ENFILADED_LINE: 4,
    FireTarget.LINE: 5, FireTarget.ARTILLERY: 5,
    FireTarget.SKIRMISHERS: 6, FireTarget.DEFENSIVE_TERRAIN: 6, FireTarget.CHARGING_CAVALRY: 6,
}


@dataclass(frozen=True)
class Target:
    name: str
    kind: StrEnum
    nation: Nation | None = None  # known in a battle (its roster unit's); a lookup names it
    figures: int | None = None  # known in a battle: no more casualties than it has
    # Known in a battle (its roster unit's): cavalry or guns drawn up in a line are no
    # "line of infantry" to lock in a firefight; a lookup names only the target's row.
    arm: Arm | None = None


def row(kind: StrEnum) -> str:
    """The table's row as players say it: "charging cavalry", not the option's key."""
    return kind.value.replace("-", " ")


def casualties(out: ResolutionBuilder, target: Target, scored: int, detail: str) -> int:
    """The casualties ``scored`` on ``target``: no more than the figures it has, where they
    are known, and the unit destroyed with its last (docs/le-baton.md). How many it lost."""
    lost = scored if target.figures is None else min(scored, target.figures)
    if lost:
        out.effect(EffectKind.CASUALTIES, target.name, lost, detail=detail)
    if lost and target.figures is not None and lost == target.figures:
        out.effect(EffectKind.DESTROYED, target.name, detail="its last figure lost")
    return lost


def destroyed(out: ResolutionBuilder) -> set[str]:
    """The units the procedure has destroyed so far."""
    return {e.unit for e in out.effects if e.kind == EffectKind.DESTROYED}


def check_target(shooter: Unit, target: Target) -> None:
    """Fire is at the enemy: never at the firing unit, nor at a unit of its own side."""
    if name_key(target.name) == name_key(shooter.name):
        raise NotAllowed(f"{shooter.name} cannot fire at itself.")
    if target.nation is shooter.nation:
        raise NotAllowed(f"{shooter.name} and {target.name} are on the same side.",
                         hint="Fire at an enemy unit.")


def artillery_modifiers(battery: Unit, range_: Range) -> list[Modifier]:
    source = f"{SHEET}: phase 1 modifiers"
    modifiers = []
    if range_ is Range.CLOSE:
        modifiers.append(Modifier(+1, "close range", source))
    if range_ is Range.LONG:
        modifiers.append(Modifier(-1, "long range", source))
    if battery.guns is not None and battery.guns >= 12:
        modifiers.append(Modifier(+1, "12 lbs or heavier", source))
    if battery.guns is not None and battery.guns <= 6:
        modifiers.append(Modifier(-1, "6 lbs or lighter", source))
    return modifiers


def hits(faces: Sequence[int], to_hit: int, bonus: int) -> int:
    """Dice whose face plus the modifiers reaches the number (7 or more cannot be hit)."""
    return pool_readings(faces, to_hit, bonus).count(Reading.HIT)


def resolve_artillery_fire(
    battery: Unit,
    targets: Sequence[Target],
    range_: Range,
    dice: DiceSource,
    *,
    level_ground: bool = False,
) -> Resolution:
    """Phase 1: one die per crew figure at the target, and at a unit 12" behind it."""
    if battery.arm is not Arm.ARTILLERY:
        raise NotAllowed(f"{battery.name} is not artillery: phase 1 fire is for guns.")
    if battery.bombarded:
        # "Choose a target. ... Roll one die per crew figure": one target, one roll a turn.
        raise NotAllowed(f"{battery.name} has fired in phase 1 this turn: a battery chooses "
                         "one target a turn.", hint="A GM takes the fire back with `/gm "
                         "undo`; it may fire again next turn.")
    require_figures(battery)
    if not 1 <= len(targets) <= 2:
        raise InvalidInput("Artillery fires at one target, and also hits one unit 12\" behind "
                           "it: give one or two targets.")
    if len(targets) == 2 and not level_ground:
        raise NotAllowed(
            f"{targets[1].name} is hit only if all units, the guns included, are on level "
            "ground and in range.", hint="Say so with `level_ground`, or give one target.")
    check_target(battery, targets[0])
    # The unit behind is "any unit 12\" behind that target": a friendly one too.
    if len(targets) == 2 and name_key(targets[1].name) == name_key(battery.name):
        raise NotAllowed(f"{battery.name} cannot fire at itself.")
    if len(targets) == 2 and name_key(targets[0].name) == name_key(targets[1].name):
        raise InvalidInput(f"{targets[0].name} is the target: the unit 12\" behind it is "
                           "another.", hint="Name the unit behind, or leave `behind` out.")
    out = ResolutionBuilder(RULESET, "artillery-fire")
    out.effect(EffectKind.BOMBARDED, battery.name)
    modifiers = artillery_modifiers(battery, range_)
    bonus = sum(m.value for m in modifiers)
    kinds = [ArtilleryTarget(t.kind) for t in targets]
    faces = dice.roll(D6Pool(battery.figures, ARTILLERY_TO_HIT[kinds[0]]),
                      f"{battery.name} artillery fire")
    rolls = []
    total = 0
    for target, kind in zip(targets, kinds, strict=True):
        needed = ARTILLERY_TO_HIT[kind]
        scored = hits(faces, needed, bonus)
        total += scored
        rolls.append(Roll(
            label=f"{battery.name} → {target.name}",
            kind=f"{len(faces)}d6",
            dice=tuple(faces),
            modifiers=tuple(modifiers),
            hits=scored,
            readings=pool_readings(faces, needed, bonus),
            target=f"{needed}+ ({row(kind)})",
            result=f"{scored} {'hit' if scored == 1 else 'hits'}",
        ))
        if scored:
            casualties(out, target, scored, f"{SHEET}: phase 1")
    behind = f"; the same dice hit {targets[1].name}, 12\" behind" if len(targets) == 2 else ""
    out.step("Phase 1: artillery fire",
             f"{counted(battery.figures, 'crew figure')} roll{'s' if battery.figures == 1 else ''} "
             f"{counted(len(faces), 'die', 'dice')}{behind}. No arc of fire: "
             "the guns fire directly ahead.", *rolls)
    if not all(t.name in destroyed(out) for t in targets):  # some unit is left to test
        out.note("Units that took artillery casualties check morale in phase 2.")
    return out.build(_headline(battery, targets, rolls, out), _severity(total, out))


def _headline(shooter: Unit, targets: Sequence[Target], rolls: Sequence[Roll],
              out: ResolutionBuilder) -> str:
    gone = destroyed(out)
    parts = [f"{t.name} {r.result}" + (", destroyed" if t.name in gone else "")
             for t, r in zip(targets, rolls, strict=True)]
    return f"{shooter.name} fires: {'; '.join(parts) if gone else ', '.join(parts)}"


def _severity(scored: int, out: ResolutionBuilder) -> Severity:
    if destroyed(out):
        return Severity.DECISIVE
    return Severity.MINOR if scored else Severity.NONE


def fire_phase(shooter: Unit) -> int:
    """British infantry and artillery shoot in phase 3, French in phase 8."""
    return 3 if shooter.nation is Nation.BRITISH else 8


def check_can_shoot(shooter: Unit, target: str, distance: float | None) -> None:
    if shooter.arm is Arm.CAVALRY:
        raise NotAllowed(f"{shooter.name} is cavalry: only infantry and artillery shoot in "
                         f"phase {fire_phase(shooter)}.")
    if shooter.in_melee:
        raise NotAllowed(f"{shooter.name} is continuing a previous melee and cannot shoot.",
                         # `/charge` plays the closing and standing checks, which follow the
                         # shooting of phase 3 or 8: a shot at a charger comes before it.
                         hint="Charged this turn? Shoot at the charger before `/charge`, "
                              "which plays the checks that follow the shooting; a GM takes "
                              "the charge back with `/gm undo`." if shooter.melee_new else
                         # A round fought, or carried over from last turn: no charge to undo.
                         "It fights on in the melee phase instead (6 or 11).")
    if shooter.fired:
        raise NotAllowed(f"{shooter.name} has shot this turn: a unit shoots once, in its "
                         f"side's fire phase ({fire_phase(shooter)}).",
                         hint="A GM takes the volley back with `/gm undo`; it may shoot "
                              "again next turn.")
    if distance is not None and not (math.isfinite(distance) and distance >= 0):
        raise InvalidInput(f"A distance of {distance} inches cannot be measured.",
                           hint="Give the inches to the target as a plain number, like `3`.")
    if distance is not None and distance > FIRE_RANGE:
        raise NotAllowed(f"{target} is {measured(distance)}\" from {shooter.name}: the range "
                         f"is {FIRE_RANGE}\".")


def resolve_fire(
    shooter: Unit, target: Target, dice: DiceSource, *, distance: float | None = None
) -> Resolution:
    """Phases 3 and 8: one die per two figures, artillery too."""
    check_can_shoot(shooter, target.name, distance)
    check_target(shooter, target)
    require_figures(shooter)
    phase = fire_phase(shooter)
    out = ResolutionBuilder(RULESET, "fire")
    roll = shoot(shooter, target, fire_dice(shooter), dice)
    scored = roll.hits or 0
    out.step(f"Phase {phase}: {shooter.nation.value.capitalize()} fire",
             f"{counted(shooter.figures, 'figure')} roll{'s' if shooter.figures == 1 else ''} "
             f"{counted(len(roll.dice), 'die', 'dice')} (one per two figures).",
             roll)
    out.effect(EffectKind.FIRED, shooter.name)
    if scored:
        casualties(out, target, scored, f"{SHEET}: phase {phase}")
    gone = destroyed(out)
    if locks_firefight(shooter, target) and not gone:  # nobody is left to lock
        for unit, other in ((shooter.name, target.name), (target.name, shooter.name)):
            out.effect(EffectKind.FIREFIGHT, unit, value=other,
                       detail=f"{SHEET}: phase {phase}")
        out.note("Opposing lines of infantry within 4\" of each other are locked in a "
                 "firefight: they cannot move, charge or change formation.")
    next_check = 4 if phase == 3 else 9
    if not gone:  # a destroyed unit is left to test nothing
        out.note(f"Units that took casualties check morale in phase {next_check}.")
    return out.build(_headline(shooter, [target], [roll], out), _severity(scored, out))


def locks_firefight(shooter: Unit, target: Target) -> bool:
    """Infantry in line shooting at a line (within the 4" range) are locked in a firefight:
    "Opposing lines of infantry", so not a target the roster knows to be cavalry or guns."""
    return (shooter.is_infantry and shooter.formation is Formation.LINE
            and FireTarget(target.kind) is FireTarget.LINE
            and target.arm in (None, Arm.INFANTRY))


def shoot(shooter: Unit, target: Target, count: int, dice: DiceSource) -> Roll:
    """``count`` dice at a target of the phase 3/8 table; a roll record with hits as total."""
    kind = FireTarget(target.kind)
    needed = FIRE_TO_HIT[kind]
    # Only the hits are read from these dice (``D6Pool.only_hits``).
    pool = D6Pool(count, needed, only_hits=True)
    faces = dice.roll(pool, f"{shooter.name} fire") if count else ()
    scored = hits(faces, needed, 0)
    return Roll(
        label=f"{shooter.name} → {target.name}",
        kind=f"{count}d6",
        dice=tuple(faces),
        hits=scored,
        readings=pool_readings(faces, needed),
        target=f"{needed}+ ({row(kind)})",
        result=f"{scored} {'hit' if scored == 1 else 'hits'}",
    )
