"""Commands & Colors Tricorne units, and the numbers melee reads off them.

Source: ../shared/rules/tricorne-melee.txt (the seed text wins wherever it speaks) and
../shared/reference/tricorne.md (published facts it relies on but does not print).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from rules.core.dice import Symbol

RULESET = "tricorne"
TEXT = "tricorne-melee.txt"
REFERENCE = "reference/tricorne.md"  # a source, for provenance: replies name the rule instead
# The rules as the rulebook names them, for what a player reads.
TERRAIN_RULES = "the Terrain rules"
RETIRE_RULE = "melee step 2, Retire and Rally"
# Project limits, not rules values: no unit of the game has more than a handful of blocks.
MAX_BLOCKS = 12
MAX_CARD_DICE = 6
MAX_REDUCTION = 6


class UnitType(StrEnum):
    """The unit classes of the text's step 3 (and a leader alone in a hex)."""

    GRENADIER = "grenadier"
    REGULAR = "regular"
    HIGHLAND = "highland"
    LOWLAND = "lowland"
    MILITIA = "militia"
    BATTLE_CAVALRY = "battle-cavalry"
    LIGHT_CAVALRY = "light-cavalry"
    TRAINED_ARTILLERY = "trained-artillery"
    LIGHT_ARTILLERY = "light-artillery"
    LEADER = "leader"  # a lone leader: may be attacked, may not attack


class Arm(StrEnum):
    INFANTRY = "infantry"
    CAVALRY = "cavalry"
    ARTILLERY = "artillery"
    LEADER = "leader"


class Terrain(StrEnum):
    """The terrain of a unit's hex, for the melee reductions the reference gives."""

    OPEN = "open"
    HILL = "hill"
    FOREST = "forest"
    BUILDINGS = "buildings"


# Terrain a unit "must stop" on entering (reference §5): forest and buildings.
CLOSED = (Terrain.FOREST, Terrain.BUILDINGS)


ARM: dict[UnitType, Arm] = {
    UnitType.GRENADIER: Arm.INFANTRY,
    UnitType.REGULAR: Arm.INFANTRY,
    UnitType.HIGHLAND: Arm.INFANTRY,
    UnitType.LOWLAND: Arm.INFANTRY,
    UnitType.MILITIA: Arm.INFANTRY,
    UnitType.BATTLE_CAVALRY: Arm.CAVALRY,
    UnitType.LIGHT_CAVALRY: Arm.CAVALRY,
    UnitType.TRAINED_ARTILLERY: Arm.ARTILLERY,
    UnitType.LIGHT_ARTILLERY: Arm.ARTILLERY,
    UnitType.LEADER: Arm.LEADER,
}

# Step 3: "An ordered grenadier infantry unit will melee combat at (3) dice", every other
# class at (2).
BASE_DICE: dict[UnitType, int] = {t: 2 for t in UnitType if t is not UnitType.LEADER}
BASE_DICE[UnitType.GRENADIER] = 3

# The battle-die symbol that scores a hit on each arm (step 5).
TARGET_SYMBOL: dict[Arm, Symbol] = {
    Arm.INFANTRY: Symbol.INFANTRY,
    Arm.CAVALRY: Symbol.CAVALRY,
    Arm.ARTILLERY: Symbol.ARTILLERY,
}

# Step 5: "Militia infantry and light cavalry units do not score a hit when a saber is
# rolled in melee combat."
NO_SABER_HITS = frozenset({UnitType.MILITIA, UnitType.LIGHT_CAVALRY})

# Hexes retreated per flag (reference §2, Jacobite Rising retreat rules): grenadier,
# regular and highland infantry and artillery 1; lowland infantry, militia and cavalry 2.
RETREAT_PER_FLAG: dict[Arm | UnitType, int] = {
    UnitType.LOWLAND: 2,
    UnitType.MILITIA: 2,
    Arm.CAVALRY: 2,
}

# Flags a unit "may ignore", its owner's choice: the government grenadier's page (the one
# reference §2 cites for its rally die) gives its morale as "Retreat 1 hex for each flag •
# May ignore 1 flag."
IGNORE_FLAGS: dict[UnitType, int] = {UnitType.GRENADIER: 1}
IGNORE_FLAGS_SOURCE = "Government Grenadier unit page"

# Rally check dice the unit pages give (reference §2): grenadier +1 die, lowland −1 die.
RALLY_MODIFIER: dict[UnitType, int] = {UnitType.GRENADIER: 1, UnitType.LOWLAND: -1}
# Where each is printed (reference §2): the Jacobite Rising unit pages, not the rally rules.
RALLY_MODIFIER_SOURCE: dict[UnitType, str] = {
    UnitType.GRENADIER: "Government Grenadier unit page",
    UnitType.LOWLAND: "Jacobite Lowland unit page",
}

# Blocks of a unit at full strength when a player does not say: the reference gives 4 for
# the American Revolution and nothing for the Jacobite Rising (project default).
DEFAULT_FULL = 4


def retreat_per_flag(kind: UnitType) -> int:
    return RETREAT_PER_FLAG.get(kind, RETREAT_PER_FLAG.get(ARM[kind], 1))


@dataclass(frozen=True)
class Unit:
    """A unit as one melee sees it (or a lone leader, with ``kind`` LEADER and no blocks)."""

    name: str
    kind: UnitType
    blocks: int = DEFAULT_FULL
    full: int = DEFAULT_FULL
    leader: str | None = None  # the attached leader's name
    moved: bool = False  # moved this turn before the melee
    terrain: Terrain = Terrain.OPEN
    cards: int = 0  # Command and Combat card melee additions the player gives
    reduce: int = 0  # other terrain reductions the player gives (streams, fieldworks...)
    retreat_room: int | None = None  # hexes it can retreat; None: as far as the flags say
    cannot_retire: bool = False  # no two hexes to retire and rally into
    retire_onto: str | None = None  # a lone friendly leader one hex back to retire onto
    other_hill: bool = False  # on a hill, and its enemy on another group of hill hexes
    side: str = ""

    @property
    def arm(self) -> Arm:
        return ARM[self.kind]

    @property
    def alone(self) -> bool:
        """A lone leader."""
        return self.kind is UnitType.LEADER

    @property
    def full_strength(self) -> bool:
        return self.blocks >= self.full

    @property
    def entered_closed(self) -> bool:
        """It moved this turn and stands in forest or buildings: it entered that hex this
        turn (a unit that moved stands in a hex it entered)."""
        return self.moved and self.terrain in CLOSED

    @property
    def stopped_from_battle(self) -> bool:
        """Reference §5: cavalry and artillery that entered forest or buildings this turn
        "may not battle" (infantry may, at −1 die)."""
        return self.entered_closed and self.arm in (Arm.CAVALRY, Arm.ARTILLERY)

    def describe(self) -> str:
        if self.alone:
            return "a lone leader"
        words = self.kind.value.replace("-", " ")
        if self.arm is Arm.INFANTRY:
            words += " infantry"
        blocks = f"{self.blocks} block{'s' if self.blocks != 1 else ''}"
        return f"{words}, {blocks}" + (f", with {self.leader}" if self.leader else "")
