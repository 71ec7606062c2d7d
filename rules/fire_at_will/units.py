"""Fire at Will units and the situations the charge and melee tables ask about."""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum

from rules.core.errors import InvalidInput
from rules.core.names import name_key

RULESET = "fire-at-will"
# Project limits, not rules values: a d6 plus every factor cannot pass 14, so a basic
# morale above 20 can only be a typo.
MORALE_RANGE = (1, 20)
MAX_NAME = 64
CHARGING_TEXT = "fire-at-will-charging.txt"
MELEE_TEXT = "fire-at-will-melee.txt"


class Arm(StrEnum):
    """Troop type. ``other`` is anything that is neither (the melee table's Other column)."""

    CAVALRY = "cavalry"
    INFANTRY = "infantry"
    ARTILLERY = "artillery"
    OTHER = "other"


class Order(StrEnum):
    CLOSE = "close"
    OPEN = "open"


class Cover(StrEnum):
    """Where the charged unit stands (the charge test's cover factors)."""

    NONE = "none"
    OBSTACLE = "obstacle"
    BUILDING = "building"
    FORTIFICATION = "fortification"


class Direction(StrEnum):
    """Which face of the charged unit a charger strikes."""

    FRONT = "front"
    FLANK = "flank"
    REAR = "rear"


class ObstacleReading(StrEnum):
    """Who the melee's "defender behind an obstacle" exception protects (docs/fire-at-will.md):
    by default either side, as the sentence reads; ``attacker`` spares only a losing attacker."""

    ATTACKER = "attacker"
    EITHER = "either"


@dataclass(frozen=True)
class General:
    name: str
    wounded: bool = False
    # In a battle, the units that name him as their commander (still in it); None in a
    # quick lookup, which does not know them.
    command: tuple[str, ...] | None = None


@dataclass(frozen=True)
class Unit:
    """A unit as the two texts need it. Basic morale is a unit attribute the players set."""

    name: str
    arm: Arm
    order: Order = Order.CLOSE
    basic_morale: int | None = None
    shaken: bool = False
    routing: bool = False
    regular: bool = False
    indian: bool = False
    light: bool = False
    general: General | None = None
    # In a battle, the SP the roster gives it; None in a quick lookup, which does not know.
    strength: int | None = None

    def __post_init__(self) -> None:
        if not self.name.strip() or len(self.name) > MAX_NAME:
            raise InvalidInput(f"A unit name must be 1 to {MAX_NAME} characters.")
        low, high = MORALE_RANGE
        if self.basic_morale is not None and not low <= self.basic_morale <= high:
            raise InvalidInput(
                f"{self.name}: basic morale {self.basic_morale} is out of range.",
                hint=f"Give a whole number from {low} to {high}.",
            )

    def loses_last_sp(self, loss: int) -> bool:
        """Whether a loss of ``loss`` SP leaves it none: it then leaves the battle, and
        neither routs nor tests to surrender (docs/fire-at-will.md)."""
        return self.strength is not None and 0 < self.strength <= loss

    @property
    def mounted(self) -> bool:
        return self.arm is Arm.CAVALRY

    @property
    def open_or_artillery(self) -> bool:
        """"Open Order Infantry or artillery" in the charge table."""
        return self.arm is Arm.ARTILLERY or (self.arm is Arm.INFANTRY and self.order is Order.OPEN)

    @property
    def close_order(self) -> bool:
        """"Close Order" in the charge table: infantry or cavalry not in open order; guns and
        other units are never close order, whatever order they are given (docs/fire-at-will.md)."""
        return self.arm in (Arm.INFANTRY, Arm.CAVALRY) and self.order is Order.CLOSE


@dataclass(frozen=True)
class Charger:
    """A unit declaring a charge on the tested unit."""

    unit: Unit
    direction: Direction = Direction.FRONT
    distance: float | None = None
    target_in_front: bool = True

    def __post_init__(self) -> None:
        # NaN compares false with everything, so it would pass the reach check unnoticed.
        if self.distance is not None and not (
            math.isfinite(self.distance) and self.distance >= 0
        ):
            raise InvalidInput(
                f"{self.unit.name}: a distance of {self.distance} inches cannot be measured.",
                hint="Give the inches to the target as a plain number, like `5`.",
            )


@dataclass(frozen=True)
class MeleeUnit:
    """A unit in a melee with its situation on the melee factor table."""

    unit: Unit
    charging: bool = False
    flank: bool = False
    rear: bool = False
    over_obstacle: bool = False
    uphill: bool = False
    vs_building: bool = False
    vs_fortification: bool = False
    overlapping: bool = False
    deep: bool = False
    front: bool = False
    behind_obstacle: bool = False

    @property
    def name(self) -> str:
        return self.unit.name


@dataclass(frozen=True)
class Settings:
    """Readings where players differ; see docs/fire-at-will.md."""

    obstacle_reading: ObstacleReading = ObstacleReading.EITHER


def check_unique_names(names: list[str]) -> None:
    seen: set[str] = set()
    for name in names:
        key = name_key(name)
        if key in seen:
            raise InvalidInput(
                f"Two units are called `{name}`.",
                hint="Give each unit its own name so the results say who is who.",
            )
        seen.add(key)
