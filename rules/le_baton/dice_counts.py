"""How many dice a unit rolls: fire (phases 1, 3, 8) and melee (phases 6 and 11)."""

from __future__ import annotations

from dataclasses import dataclass

from rules.le_baton.units import Arm, Formation, Nation, Quality, Unit


@dataclass(frozen=True)
class Rate:
    """``dice`` dice for every ``per`` figures."""

    dice: int
    per: int

    def count(self, figures: int) -> int:
        """No rounding up, except "2 dice per 3 figures" still allows one die if there are
        two extra figures available."""
        whole, extra = divmod(figures, self.per)
        dice = whole * self.dice
        if self.dice == 2 and self.per == 3 and extra == 2:
            dice += 1
        return dice

    def __str__(self) -> str:
        if self.per == 1:
            return "1 die per figure"
        return f"{self.dice} {'die' if self.dice == 1 else 'dice'} per {self.per} figures"


ONE_PER_FIGURE = Rate(1, 1)
TWO_PER_THREE = Rate(2, 3)
ONE_PER_TWO = Rate(1, 2)
ONE_PER_THREE = Rate(1, 3)

# "Determine # of dice": the column "French Infantry Column and all British infantry" ...
CLOSE_COLUMN: dict[Quality, Rate] = {
    Quality.ELITE: ONE_PER_FIGURE,
    Quality.VETERAN: TWO_PER_THREE,
    Quality.CONSCRIPT: ONE_PER_TWO,
}
# ... and the column "French Infantry Line/Square and all Cavalry".
OPEN_COLUMN: dict[Quality, Rate] = {
    Quality.ELITE: TWO_PER_THREE,
    Quality.VETERAN: ONE_PER_TWO,
    Quality.CONSCRIPT: ONE_PER_THREE,
}


def melee_column(unit: Unit) -> tuple[str, dict[Quality, Rate]]:
    if unit.arm is Arm.INFANTRY and (
        unit.nation is Nation.BRITISH or unit.formation is Formation.COLUMN
    ):
        label = "all British infantry" if unit.nation is Nation.BRITISH else \
            "French infantry column"
        return label, CLOSE_COLUMN
    label = "all cavalry" if unit.arm is Arm.CAVALRY else "French infantry line/square"
    return label, OPEN_COLUMN


def melee_dice(unit: Unit) -> tuple[int, str]:
    """Melee dice and the table entry used."""
    label, column = melee_column(unit)
    rate = column[unit.quality]
    return rate.count(unit.figures), f"{unit.quality.value}, {label}: {rate}"


def fire_dice(unit: Unit) -> int:
    """"Roll one die per two figures, artillery too" (phases 3 and 8)."""
    return ONE_PER_TWO.count(unit.figures)
