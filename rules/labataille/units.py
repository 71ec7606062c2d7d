"""La Bataille stacks, as the revised assault sees them.

Source: ../shared/rules/labataille-revised-assault-and-charge.txt (the text wins wherever it
speaks) and ../shared/reference/labataille.md (published Premier-rules facts it relies on).
A stack is the units of one hex that take part, read as one: its morale, increments, fire
and mêlée values are the player's (printed on the counters); the bot does not keep a map.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

RULESET = "labataille"
TEXT = "labataille-revised-assault-and-charge.txt"
REFERENCE = "reference/labataille.md"
# Project limits, not rules values: bounds on what a player may type.
MAX_INCREMENTS = 40
MAX_VALUE = 200
MAX_STACKS = 6
MAX_ZOC = 6
MAX_MODIFIER = 36
MAX_LEADER = 6
MAX_MP = 20


class Arm(StrEnum):
    INFANTRY = "infantry"
    ARTILLERY = "artillery"
    CAVALRY = "cavalry"


class Formation(StrEnum):
    COLUMN = "column"
    LINE = "line"
    SQUARE = "square"  # carré
    SKIRMISH = "skirmish"
    GENERAL = "general"  # general order


class Order(StrEnum):
    GOOD = "good"
    DISORDERED = "disordered"
    ROUTED = "routed"


class Fatigue(StrEnum):
    """A charge's cost (Cavalry Regroup): Tired after a charge, Exhausted after a charge and
    mêlée, or a second charge while Tired."""

    FRESH = "fresh"
    TIRED = "tired"
    EXHAUSTED = "exhausted"


class ChargeMarker(StrEnum):
    NONE = "none"
    CHARGING = "charging"  # the Charge marker placed in the Maneuver Segment
    CHARGED = "charged"  # the inverted Charge marker: it charged this turn


# Nationalities whose defenders may Huzzah (step 5).
HUZZAH_NATIONS = frozenset({"british", "kgl"})


def nation_name(nation: str) -> str:
    """A nation as a side is named: its first letter raised, the rest as typed (``british``:
    British; ``Dutch-Belgian`` stays so); the King's German Legion as the text names it,
    KGL."""
    if nation.casefold() == "kgl":
        return "KGL"
    return nation[:1].upper() + nation[1:]


@dataclass(frozen=True)
class Stack:
    """One hex's units in an assault."""

    name: str
    side: str = ""
    arm: Arm = Arm.INFANTRY
    increments: int | None = None  # None: not given (refused where a loss may fall on it)
    morale: int = 36  # printed morale, a d66 value: a check passes when the roll exceeds it
    melee: float | None = None  # mêlée value (the stack's total); None: not given
    fire: int | None = None  # fire value; None: the stack does not fire
    defence: int | None = None  # fire-defence value when fired on (terrain and formation)
    formation: Formation = Formation.COLUMN
    state: Order = Order.GOOD
    nation: str = ""
    leader: str | None = None
    leader_value: int | None = None  # the leader's dice modifier (morale, mêlée); None: not given
    mod: int = 0  # morale check modifiers from the players' charts, in d66 steps
    distance: int | None = None  # hexes from the target when the assault was declared
    locked: bool = False  # already in this firefight (no distance modifier)
    retreats: bool = False  # eligible to Retreat Before Assault, and does
    unsupplied: bool = False  # artillery without ammunition
    covered: bool = False  # stacked with infantry or supplied artillery
    canister: bool = False  # artillery able to fire canister at the adjacent assaulters
    zoc: int | None = None  # enemy Zones of Influence it retreats from if it routs; None: not given
    at: str | None = None  # the enemy stack it fires at (default: the first)
    mp: int | None = None  # printed Movement Potential (cavalry: pursuit losses)
    light: bool = False  # light cavalry (may attempt to Recall at any time)
    fatigue: Fatigue = Fatigue.FRESH
    charge: ChargeMarker = ChargeMarker.NONE
    recall: int | None = None  # its Recall threshold on 1d6, when not its nation's

    @property
    def disordered(self) -> bool:
        return self.state is Order.DISORDERED

    @property
    def routed(self) -> bool:
        return self.state is Order.ROUTED

    @property
    def may_huzzah(self) -> bool:
        # A Huzzah is an Assault (step 5), and only infantry assaults: British guns and
        # horse that pass their check do not turn the tables.
        return self.arm is Arm.INFANTRY and self.nation.casefold() in HUZZAH_NATIONS

    def describe(self) -> str:
        words = [f"{self.arm.value}"]
        if self.increments is not None:
            words.append(f"{self.increments} increment" + ("s" if self.increments != 1 else ""))
        words.append(f"morale {self.morale}")
        if self.state is not Order.GOOD:
            words.append(self.state.value)
        if self.fatigue is not Fatigue.FRESH:
            words.append(self.fatigue.value)
        if self.leader:
            value = "" if self.leader_value is None else f" ({self.leader_value:+d})"
            words.append(f"with {self.leader}{value}")
        return ", ".join(words)
