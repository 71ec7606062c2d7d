"""Melee: 1d6 per unit plus the factor table by column, highest score per side, results.

Source: ../shared/rules/fire-at-will-melee.txt.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol, TypeVar

from rules.core.dice import D6, D6_FACES, DiceSource, Faces, plain_readings
from rules.core.errors import InvalidInput, NotAllowed
from rules.core.names import name_key
from rules.core.prepared import RollGroups
from rules.core.records import Modifier, Resolution, ResolutionBuilder, Roll, Severity
from rules.fire_at_will.charge import ROUT_MOVE_NOTE
from rules.fire_at_will.effects import LAST_SP, EffectKind
from rules.fire_at_will.generals import risk_to_general
from rules.fire_at_will.surrender import SurrenderSituation, surrender_test
from rules.fire_at_will.units import (
    MELEE_TEXT,
    RULESET,
    Arm,
    MeleeUnit,
    ObstacleReading,
    Order,
    Settings,
    Unit,
    check_unique_names,
)

MAX_UNITS_PER_SIDE = 10
MAX_GROUPED_UNITS = 4
"""Units a side may have for the odds to group its melee rolls (6⁴ results are listed)."""
NA = None


@dataclass(frozen=True)
class MeleeFactor:
    """One row of the table: a value per column (Cavalry, Infantry, Other); None is NA."""

    reason: str
    cavalry: int | None
    infantry: int | None
    other: int | None
    applies: Callable[[MeleeUnit], bool]

    def value_for(self, arm: Arm) -> int | None:
        if arm is Arm.CAVALRY:
            return self.cavalry
        if arm is Arm.INFANTRY:
            return self.infantry
        return self.other


# In the order the text prints them. "Unit is attacked in the rear" is printed twice:
# it is one factor (../shared/reference/fire-at-will.md), so it appears here once.
MELEE_FACTORS: tuple[MeleeFactor, ...] = (
    MeleeFactor("unit is cavalry", +2, NA, NA, lambda m: m.unit.arm is Arm.CAVALRY),
    MeleeFactor("charging", +2, +1, NA, lambda m: m.charging),
    MeleeFactor("Indian unit", NA, +2, NA, lambda m: m.unit.indian),
    MeleeFactor("European regulars", +1, +1, +1, lambda m: m.unit.regular),
    MeleeFactor("attacked in flank", -1, -1, -1, lambda m: m.flank),
    MeleeFactor("charging over an obstacle", -4, -2, -4, lambda m: m.over_obstacle),
    MeleeFactor("charging uphill", -1, -1, -1, lambda m: m.uphill),
    MeleeFactor("charging a building", -4, -2, -4, lambda m: m.vs_building),
    MeleeFactor("attacked in the rear", -2, -2, -2, lambda m: m.rear),
    MeleeFactor(
        "open order or artillery",
        -2,
        -2,
        -2,
        lambda m: m.unit.order is Order.OPEN or m.unit.arm is Arm.ARTILLERY,
    ),
    MeleeFactor("charging a fortification", -6, -3, -6, lambda m: m.vs_fortification),
    MeleeFactor("overlapping enemy unit", +1, +1, +1, lambda m: m.overlapping),
    MeleeFactor("two or more bases deep", +1, +1, NA, lambda m: m.deep and not m.unit.light),
)

MELEE_SOURCE = f"{MELEE_TEXT}: factor table"


@functools.lru_cache(maxsize=1024)
def melee_modifiers(member: MeleeUnit) -> tuple[tuple[Modifier, ...], tuple[str, ...]]:
    """The factors that apply to one unit, and notes for factors its column marks NA.

    A pure function of the unit in its situation (both frozen), kept by the standard
    library's cache: reading the table's thirteen rows costs more than the rest of a
    unit's roll, and a side rolls again and again in the same situation (a melee that
    goes on, the odds' walk)."""
    modifiers: list[Modifier] = []
    notes: list[str] = []
    for factor in MELEE_FACTORS:
        if not factor.applies(member):
            continue
        value = factor.value_for(member.unit.arm)
        if value is None:
            notes.append(f"{factor.reason}: no factor for {member.unit.arm.value} (NA)")
        else:
            modifiers.append(Modifier(value, factor.reason, MELEE_SOURCE))
    if member.deep and member.unit.light:
        notes.append("two or more bases deep: not for light troops")
    return tuple(modifiers), tuple(notes)


@dataclass(frozen=True)
class Score:
    member: MeleeUnit
    roll: Roll

    @property
    def total(self) -> int:
        assert self.roll.total is not None
        return self.roll.total


def resolve_melee(
    attackers: Sequence[MeleeUnit],
    defenders: Sequence[MeleeUnit],
    dice: DiceSource,
    settings: Settings | None = None,
) -> Resolution:
    """Resolve one melee. Rolls are made attackers first, then defenders, in the order given."""
    settings = settings or Settings()
    _check_sides(attackers, defenders)
    out = ResolutionBuilder(RULESET, "melee")
    if (len(attackers) > 1 and len(defenders) > 1) or len(defenders) > 2:
        out.note(
            "The rules resolve a melee, as far as possible, between one defender and all "
            "its attackers, or one attacker and two defenders: split this one if you can."
        )
    _check_slips(attackers, defenders, out)
    att = [_score(m, dice) for m in attackers]
    dfn = [_score(m, dice) for m in defenders]
    best_att = max(s.total for s in att)
    best_def = max(s.total for s in dfn)
    out.step(
        "Melee rolls",
        f"Attackers' highest score {best_att}, defenders' highest {best_def}.",
        *(s.roll for s in att + dfn),
    )
    if best_att == best_def:
        return _tie(att, dfn, best_att, out)
    attackers_lost = best_att < best_def
    losers, winners = (att, dfn) if attackers_lost else (dfn, att)
    margin = abs(best_att - best_def)
    return _decided(losers, winners, attackers_lost, margin, settings, dice, out)


def _check_slips(attackers: Sequence[MeleeUnit], defenders: Sequence[MeleeUnit],
                 out: ResolutionBuilder) -> None:
    """Words the rules allow together that read like a slip, said with the result: a charge's
    `flank` (the face it charges) written on the charger, where the melee reads it as the unit
    attacked in its flank; a shaken attacker charging (it may only counter-charge, and a
    defender charging is one that counter-charged)."""
    for member in (*attackers, *defenders):
        if member.charging and (member.flank or member.rear):
            face = "flank" if member.flank else "rear"
            out.check(f"{member.name} is charging and marked {face}, which in a melee means "
                      f"attacked in its {face}.")
    for member in attackers:
        if member.charging and member.unit.shaken:
            out.check(f"{member.name} is shaken and charging: shaken units declare no "
                      "charge (a counter-charge may still be made).")


def _check_sides(attackers: Sequence[MeleeUnit], defenders: Sequence[MeleeUnit]) -> None:
    for side, units in (("attackers", attackers), ("defenders", defenders)):
        if not units:
            raise InvalidInput(f"A melee needs at least one unit among the {side}.")
        if len(units) > MAX_UNITS_PER_SIDE:
            raise InvalidInput(
                f"{len(units)} {side} given; at most {MAX_UNITS_PER_SIDE} per side fit one melee.",
                hint="Split the fight into several melees.",
            )
    check_unique_names([m.name for m in (*attackers, *defenders)])
    _check_one_place_each([m.unit for m in (*attackers, *defenders)])
    for member in (*attackers, *defenders):
        _check_not_routing(member)
    for member in attackers:
        _check_charge_words(member, attacking=True)
    for member in defenders:
        _check_charge_words(member, attacking=False)


# The table's "Unit is charging …" rows, by the word that marks them.
CHARGE_WORDS = (("over_obstacle", "over-obstacle"), ("uphill", "uphill"),
                ("vs_building", "vs-building"), ("vs_fortification", "vs-fortification"))
# Rows only an attacker can have: a counter-charge meets a charger in the open.
ATTACKER_ONLY = ("vs_building", "vs_fortification")


def _check_charge_words(member: MeleeUnit, *, attacking: bool) -> None:
    """Words for a charging unit need `charging` (a counter-charging defender may cross an
    obstacle or charge uphill, not charge a building or fortification); `behind-obstacle` is
    for a defender ((*) note: "where the defender is immediately behind an obstacle")."""
    name = member.name
    if attacking and member.behind_obstacle:
        raise InvalidInput(
            f"{name} attacks: behind-obstacle is for a defender immediately behind an "
            "obstacle.",
            hint=f"Leave `behind-obstacle` out of {name}; a charge across the obstacle is "
            f"`charging over-obstacle`.")
    for field, word in CHARGE_WORDS:
        if not getattr(member, field):
            continue
        if not attacking and field in ATTACKER_ONLY:
            place = word.removeprefix("vs-")
            raise InvalidInput(
                f"{name} defends: {word} is for an attacker charging a {place}.",
                hint=f"Leave `{word}` out of {name}; if {name} holds the {place}, give "
                f"`charging {word}` to the unit that charges it.")
        if not member.charging:
            raise InvalidInput(
                f"{name} is not charging: {word} is for a charging unit.",
                hint=f"Add `charging` to {name}" + ("" if attacking else " if it counter-charged")
                + f", or leave `{word}` out.")


def _check_one_place_each(units: list[Unit]) -> None:
    """A general is with one unit: his risk is thrown for the unit he is with."""
    with_unit: dict[str, str] = {}
    for unit in units:
        if unit.general is None:
            continue
        key = name_key(unit.general.name)
        if key in with_unit:
            raise InvalidInput(f"{unit.general.name} is named with {with_unit[key]} and with "
                               f"{unit.name}: a general is with one unit.",
                               hint="Leave `general=` on the unit he is with.")
        with_unit[key] = unit.name


def _check_not_routing(member: MeleeUnit) -> None:
    """A routing unit has turned its back: the text resolves a charge on it without a melee
    (it may surrender, else it routs again), so it never fights one (docs/fire-at-will.md)."""
    if member.unit.routing:
        raise NotAllowed(
            f"{member.name} is routing: a routing unit does not fight a melee.",
            hint="A charge on it is settled by the charge test (`/charge fire-at-will`): it "
            "may surrender, otherwise it routs again and loses 1 SP. If it has rallied, mark "
            "it `routing=no` first (in a battle: `/unit edit`).",
        )


def _score(member: MeleeUnit, dice: DiceSource) -> Score:
    (face,) = dice.roll(D6(), f"{member.name} melee roll")
    modifiers, notes = melee_modifiers(member)
    roll = Roll(
        label=member.name,
        kind="1d6",
        dice=(face,),
        modifiers=modifiers,
        total=face + sum(m.value for m in modifiers),
        # Read against no number (the higher score wins): where its factors come from is
        # the steps' to say, not "vs Infantry column", which reads as the enemy's formation.
        notes=(f"factors from the melee table's {_column(member.unit.arm)} column", *notes),
        readings=plain_readings((face,)),
    )
    return Score(member, roll)


def melee_roll_groups(attackers: Sequence[MeleeUnit],
                      defenders: Sequence[MeleeUnit]) -> RollGroups | None:
    """The melee rolls (one d6 a unit, attackers first) grouped as ``resolve_melee`` reads
    them: nothing of the dice decides the result but the margin between the sides' highest
    scores (on a draw, the score), and on the losing side the unit a loss falls on
    (``choose_affected``) and whether it was tied for the lowest (the headline says so); the
    winners' dice beyond their highest score change nothing. Three against three is 48
    groups, not 46,656 results. None when a side is too big to list."""
    sides = [_side_groups(attackers), _side_groups(defenders)]
    if sides[0] is None or sides[1] is None:
        return None
    joined: dict[tuple[Any, ...], list] = {}
    for (high, *theirs_lost), (ours, p) in sides[0].items():
        for (other_high, *ours_lost), (theirs, q) in sides[1].items():
            if high == other_high:
                key: tuple[Any, ...] = ("drawn", high)
            elif high > other_high:
                key = ("defenders lose", high - other_high, *ours_lost)
            else:
                key = ("attackers lose", other_high - high, *theirs_lost)
            group = joined.setdefault(key, [(*ours, *theirs), Fraction(0)])
            group[1] += p * q
    return [(faces, share) for faces, share in joined.values()]


def _side_groups(members: Sequence[MeleeUnit]
                 ) -> dict[tuple[int, int, bool], tuple[tuple[Faces, ...], Fraction]] | None:
    """A side's dice by what the result reads of them: its highest score, and, should it
    lose, the unit a loss would fall on and whether it tied for the lowest; each with dice
    that stand for it and its probability."""
    if not members or len(members) > MAX_GROUPED_UNITS:
        return None
    bonuses = [sum(m.value for m in melee_modifiers(member)[0]) for member in members]
    groups: dict[tuple[int, int, bool], list] = {}
    for faces in itertools.product(D6_FACES, repeat=len(members)):
        scores = [_Total(member, face + bonus)
                  for member, face, bonus in zip(members, faces, bonuses, strict=True)]
        affected, why = choose_affected(scores)
        key = (max(s.total for s in scores),
               next(i for i, score in enumerate(scores) if score is affected),
               why.endswith(TIED))  # the headline says a tie
        group = groups.setdefault(key, [tuple((face,) for face in faces), 0])
        group[1] += 1
    share = Fraction(1, len(D6_FACES) ** len(members))
    return {key: (faces, count * share) for key, (faces, count) in groups.items()}


def _column(arm: Arm) -> str:
    return {Arm.CAVALRY: "Cavalry", Arm.INFANTRY: "Infantry"}.get(arm, "Other")


def _tie(att: list[Score], dfn: list[Score], score: int, out: ResolutionBuilder) -> Resolution:
    names = [s.member.name for s in att + dfn]
    for name in names:
        out.effect(EffectKind.RETIRE, name, 3, detail=f"{MELEE_TEXT}: equal scores")
    drawn = str(score).replace("-", "−")  # a minus as the modifiers print theirs
    return out.build(f"Drawn at {drawn}: both sides retire 3\"", Severity.MINOR)


class Scored(Protocol):
    """What choosing the affected unit reads of a score."""

    @property
    def member(self) -> MeleeUnit: ...

    @property
    def total(self) -> int: ...


S = TypeVar("S", bound=Scored)


@dataclass(frozen=True)
class _Total:
    member: MeleeUnit
    total: int


TIED = " (tied lowest: the first listed is taken)"
TIED_SHORT = "tied lowest: first listed"


def choose_affected(losers: Sequence[S]) -> tuple[S, str]:
    """The one unit the result falls on when several lose together, and why."""
    if len(losers) == 1:
        return losers[0], ""
    in_front = [s for s in losers if s.member.front]
    pool = in_front or list(losers)
    if len(in_front) == 1:
        return in_front[0], "it is engaged to the enemy's front"
    lowest = min(s.total for s in pool)
    chosen = next(s for s in pool if s.total == lowest)
    why = "it has the lowest score"
    if in_front:
        why = f"of the units engaged to the enemy's front, {why}"
    if sum(1 for s in pool if s.total == lowest) > 1:
        why += TIED
    return chosen, why


def _exception_applies(
    affected: MeleeUnit, attackers_lost: bool, winners: Sequence[Score], settings: Settings
) -> bool:
    """The (*) note: a loser charging a building or fortification, or facing a defender
    immediately behind an obstacle, does not rout."""
    if affected.vs_building or affected.vs_fortification:
        return True
    if attackers_lost:
        return any(s.member.behind_obstacle for s in winners)
    return settings.obstacle_reading is ObstacleReading.EITHER and affected.behind_obstacle


def _exception_reason(affected: MeleeUnit, attackers_lost: bool) -> str:
    if affected.vs_building:
        return "it charged a building"
    if affected.vs_fortification:
        return "it charged a fortification"
    if attackers_lost:
        return "the defender is immediately behind an obstacle"
    return "it is immediately behind an obstacle"


def _decided(
    losers: list[Score],
    winners: list[Score],
    attackers_lost: bool,
    margin: int,
    settings: Settings,
    dice: DiceSource,
    out: ResolutionBuilder,
) -> Resolution:
    side = "Defenders" if attackers_lost else "Attackers"
    loser_side = "attackers" if attackers_lost else "defenders"
    affected, why = choose_affected(losers)
    name = affected.member.name
    unit = affected.member.unit
    excepted = margin >= 2 and _exception_applies(affected.member, attackers_lost, winners,
                                                  settings)
    routed = margin >= 2 and not excepted
    loss = 2 if margin >= 2 else 1
    if unit.loses_last_sp(loss):
        assert unit.strength is not None
        out.step("No SP left", f"{name} loses its last SP and leaves the battle instead of "
                 + ("routing" if routed else "retiring")
                 + (", with no surrender test." if routed and affected.member.rear else "."))
        out.effect(EffectKind.LOSE_SP, name, unit.strength, detail=f"{MELEE_TEXT}: lost by "
                   + ("2 or more" if margin >= 2 else "1"), value=LAST_SP)
        headline, severity = f"{side} win by {margin}: {name} loses its last SP", \
            Severity.DECISIVE
    elif excepted:
        # The headline says what happens; the step says why this unit does not rout.
        reason = _exception_reason(affected.member, attackers_lost)
        out.step("(*) exception", f"{name} does not rout: {reason}. "
                 "It retires 6\", is shaken and loses 2 SP instead.")
        out.effect(EffectKind.RETIRE, name, 6, detail=f"{MELEE_TEXT}: (*) exception")
        out.effect(EffectKind.SHAKEN, name, detail=f"{MELEE_TEXT}: (*) exception")
        out.effect(EffectKind.LOSE_SP, name, 2, detail=f"{MELEE_TEXT}: (*) exception")
        headline = f"{side} win by {margin}: {name} retires 6\", −2 SP, shaken"
        severity = Severity.MAJOR
    elif routed:
        out.effect(EffectKind.ROUTED, name, detail=f"{MELEE_TEXT}: lost by 2 or more")
        out.effect(EffectKind.LOSE_SP, name, 2, detail=f"{MELEE_TEXT}: lost by 2 or more")
        out.note(ROUT_MOVE_NOTE)
        headline, severity = f"{side} win by {margin}: {name} routs, −2 SP", Severity.DECISIVE
    else:
        out.effect(EffectKind.RETIRE, name, 3, detail=f"{MELEE_TEXT}: lost by 1")
        out.effect(EffectKind.LOSE_SP, name, 1, detail=f"{MELEE_TEXT}: lost by 1")
        out.effect(EffectKind.SHAKEN, name, detail=f"{MELEE_TEXT}: lost by 1")
        headline, severity = f"{side} win by 1: {name} retires 3\", −1 SP, shaken", Severity.MAJOR
    others = [s.member.name for s in losers if s is not affected]
    if others:
        out.step("Who is affected",
                 f"Only {name} takes the result ({why}); the other {loser_side} retire 3\".")
        for other in others:
            out.effect(EffectKind.RETIRE, other, 3, detail=f"{MELEE_TEXT}: others retire")
    surrendered = (routed and affected.member.rear and not unit.loses_last_sp(loss)
                   and surrender_test(unit, SurrenderSituation.REAR_ROUT, dice, out))
    if surrendered:
        headline = f"{side} win by {margin}: {name} routs and surrenders"
    if why.endswith(TIED):  # the text does not break the tie: the reply says who did
        headline += f" ({TIED_SHORT})"
    general = unit.general
    if general is not None:
        risk_to_general(general, name, routed, dice, out,
                        no_sp_left=unit.loses_last_sp(loss),
                        unit_gone=surrendered or unit.loses_last_sp(loss))
    return out.build(headline, severity)
