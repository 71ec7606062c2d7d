"""Le Baton units, and the numbers of the quick sheet that every procedure shares.

Source: ../shared/rules/le-baton-quick-sheet.txt (the British sheet "V. Br8") and
../shared/reference/le-baton.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from rules.core.errors import InvalidInput

RULESET = "le-baton"
SHEET = "le-baton-quick-sheet.txt"
MAX_FIGURES = 60


class Nation(StrEnum):
    FRENCH = "french"
    BRITISH = "british"


class Arm(StrEnum):
    INFANTRY = "infantry"
    CAVALRY = "cavalry"
    ARTILLERY = "artillery"


class Quality(StrEnum):
    ELITE = "elite"
    VETERAN = "veteran"
    CONSCRIPT = "conscript"


class Formation(StrEnum):
    COLUMN = "column"
    LINE = "line"
    SQUARE = "square"
    SKIRMISH = "skirmish"


class Horse(StrEnum):
    """Cavalry types the sheet names (move rates, and the cuirassier and lancer modifiers)."""

    CUIRASSIERS = "cuirassiers"
    CARABINIERS = "carabiniers"
    DRAGOONS = "dragoons"
    HEAVY_DRAGOONS = "heavy-dragoons"
    LIGHT = "light"
    HUSSARS = "hussars"
    LIGHT_DRAGOONS = "light-dragoons"
    LANCERS = "lancers"


# "Elite: 6 or less / Veteran: 5 or less / Conscript: 4 or less" (every morale table).
MORALE: dict[Quality, int] = {Quality.ELITE: 6, Quality.VETERAN: 5, Quality.CONSCRIPT: 4}


@dataclass(frozen=True)
class Unit:
    name: str
    nation: Nation
    arm: Arm
    quality: Quality = Quality.VETERAN
    figures: int = 0
    casualties: int = 0
    formation: Formation | None = None
    horse: Horse | None = None
    guns: int | None = None  # weight of shot in pounds, for artillery
    general: bool = False
    in_melee: bool = False
    # In a battle: its melee began this turn (a charge's contact) and no round is fought yet.
    melee_new: bool = False
    firefight: bool = False
    halted: bool = False
    held: bool = False
    charge_marker: bool = False
    recall_due: bool = False  # tied a cavalry melee: "test for recall in phase 13"
    recall_failed: bool = False  # this turn: "They must roll again to recall ... next turn"
    fired: bool = False  # this turn, in its side's fire phase (3 or 8): one volley a turn
    bombarded: bool = False  # a battery that fired in phase 1 this turn: once a turn
    tested: tuple[int, ...] = ()  # the phases it has tested its morale in this turn
    charge_failed: bool = False  # this turn: British infantry that did not roll its 6
    passed_through: bool = False  # this turn: cavalry past a square, its full move spent
    # Whether the unit has already fought a round of its current melee. In a battle the
    # roster knows ("fought"); a quick lookup says "in_melee", which then means the same.
    fought: bool | None = None

    def __post_init__(self) -> None:
        if not self.name.strip() or len(self.name) > 64:
            raise InvalidInput("A unit name must be 1 to 64 characters.")
        if not 0 <= self.figures <= MAX_FIGURES:
            raise InvalidInput(f"{self.name}: {self.figures} figures is out of range.",
                               hint=f"Give 0 to {MAX_FIGURES}.")
        if self.casualties < 0:
            raise InvalidInput(f"{self.name}: casualties cannot be negative.")
        check_description(self.name, self.arm, self.formation, self.horse, self.guns)

    @property
    def is_infantry(self) -> bool:
        return self.arm is Arm.INFANTRY

    @property
    def is_cavalry(self) -> bool:
        return self.arm is Arm.CAVALRY

    @property
    def british_infantry(self) -> bool:
        return self.nation is Nation.BRITISH and self.is_infantry

    @property
    def in_column(self) -> bool:
        return self.formation is Formation.COLUMN

    @property
    def lancers(self) -> bool:
        return self.horse is Horse.LANCERS

    @property
    def continuing(self) -> bool:
        """Continuing a melee (past its first combat): lancers lose their edge."""
        return self.in_melee if self.fought is None else self.fought


def check_description(name: str, arm: Arm, formation: Formation | None, horse: Horse | None,
                      guns: int | None) -> None:
    """Only what the sheet gives each arm: formations are infantry's (column, line, square,
    skirmishers), cavalry types are cavalry's, weight of shot is artillery's."""
    if formation is not None and arm is not Arm.INFANTRY:
        raise InvalidInput(
            f"{name} is {arm.value}: column, line, square and skirmish are infantry "
            "formations.", hint=f"Drop `{formation.value}`.")
    if horse is not None and arm is not Arm.CAVALRY:
        raise InvalidInput(f"{name} is {arm.value}: `{horse.value}` is a kind of cavalry.",
                           hint=f"Drop `{horse.value}`, or make the unit cavalry.")
    if guns is not None and arm is not Arm.ARTILLERY:
        raise InvalidInput(f"{name} is {arm.value}: `guns=` is the weight of shot of "
                           "artillery.", hint=f"Drop `guns={guns}`, or make the unit artillery.")


def require_figures(unit: Unit, why: str = "") -> None:
    """Dice counted from figures need figures: with none, a roll of no dice would pass for a
    real result."""
    if unit.figures <= 0:
        # `figures=0` and no figures read alike here: the hint says both.
        raise InvalidInput(f"{unit.name} needs its number of figures{why}.",
                           hint="Give it as `figures=N`, 1 or more: a unit of none rolls no "
                                "dice (in a battle, the unit's strength: "
                                "`/unit edit strength:N`).")


BOTH_SIDES = ("In a battle, name an enemy unit; in a quick lookup, give the two units names "
              "of their own (a reply could not tell them apart).")
