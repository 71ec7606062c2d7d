"""Charging: declaration, the charged unit's test, counter-charge, rout and surrender.

Source: ../shared/rules/fire-at-will-charging.txt. Every factor below names its line.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rules.core.decisions import Answer, Answers, Question
from rules.core.dice import D6, DiceSource, plain_readings
from rules.core.errors import InvalidInput, NotAllowed
from rules.core.notation import measured
from rules.core.records import Modifier, Resolution, ResolutionBuilder, Roll, Severity
from rules.fire_at_will.effects import LAST_SP, EffectKind
from rules.fire_at_will.surrender import SurrenderSituation, surrender_test
from rules.fire_at_will.units import (
    CHARGING_TEXT,
    RULESET,
    Arm,
    Charger,
    Cover,
    Direction,
    Unit,
    check_unique_names,
)

INFANTRY_REACH = 3
CAVALRY_REACH = 6
MAX_CHARGERS = 8

ROUT_MOVE_NOTE = (
    "Routing units move directly away from the cause at rout speed towards the nearest "
    "friendly cover, and may not end nearer to any visible enemy unit."
)


@dataclass(frozen=True)
class ChargeFactor:
    reason: str
    value: int
    applies: Callable[[Unit, Sequence[Charger], Cover], bool]


def _any_cavalry(chargers: Sequence[Charger]) -> bool:
    return any(c.unit.arm is Arm.CAVALRY for c in chargers)


# In the order the text prints them ("Testing charged units").
CHARGE_FACTORS: tuple[ChargeFactor, ...] = (
    ChargeFactor(
        "non-cavalry charged by cavalry",
        +2,
        lambda t, cs, cover: t.arm is not Arm.CAVALRY and _any_cavalry(cs),
    ),
    ChargeFactor(
        "open order infantry or artillery charged by close order",
        +2,
        lambda t, cs, cover: t.open_or_artillery and any(c.unit.close_order for c in cs),
    ),
    ChargeFactor(
        "charged in the rear",
        +2,
        lambda t, cs, cover: any(c.direction is Direction.REAR for c in cs),
    ),
    ChargeFactor(
        "charged in the flank",
        +1,
        lambda t, cs, cover: any(c.direction is Direction.FLANK for c in cs),
    ),
    ChargeFactor("shaken", +1, lambda t, cs, cover: t.shaken),
    ChargeFactor(
        "behind an obstacle or in a building",
        -2,
        lambda t, cs, cover: cover in (Cover.OBSTACLE, Cover.BUILDING),
    ),
    ChargeFactor(
        "cavalry only charged by non-cavalry",
        -2,
        lambda t, cs, cover: t.arm is Arm.CAVALRY and not _any_cavalry(cs),
    ),
    ChargeFactor(
        "close order only charged by open order infantry or artillery",
        -2,
        lambda t, cs, cover: t.close_order and all(c.unit.open_or_artillery for c in cs),
    ),
    ChargeFactor("in a fortification", -3, lambda t, cs, cover: cover is Cover.FORTIFICATION),
)


def reach(unit: Unit) -> int:
    return CAVALRY_REACH if unit.arm is Arm.CAVALRY else INFANTRY_REACH


def check_declaration(charger: Charger) -> None:
    """Who may declare a charge: unshaken infantry or cavalry, target in reach and to the front."""
    unit = charger.unit
    if unit.arm not in (Arm.INFANTRY, Arm.CAVALRY):
        raise NotAllowed(
            f"{unit.name} cannot charge: only infantry and cavalry may declare charges."
        )
    if unit.shaken:
        raise NotAllowed(
            f"{unit.name} is shaken and may not declare a charge.",
            hint="Only unshaken units may charge.",
        )
    if unit.routing:
        raise NotAllowed(f"{unit.name} is routing and may not declare a charge.")
    if charger.distance is not None and charger.distance > reach(unit):
        raise NotAllowed(
            f"{unit.name} is {measured(charger.distance)}\" away, beyond its charge reach "
            f"of {reach(unit)}\" ({unit.arm.value}).",
            hint="Infantry reach 3\", cavalry 6\".",
        )
    if not charger.target_in_front:
        raise NotAllowed(
            f"{unit.name} cannot charge: the target must be directly to its front."
        )


def charge_modifiers(target: Unit, chargers: Sequence[Charger], cover: Cover) -> list[Modifier]:
    return [
        Modifier(f.value, f.reason, f"{CHARGING_TEXT}: Testing charged units")
        for f in CHARGE_FACTORS
        if f.applies(target, chargers, cover)
    ]


def resolve_charge(
    target: Unit, chargers: Sequence[Charger], cover: Cover, dice: DiceSource,
    answers: Answers | None = None,
) -> Resolution:
    """The charged unit's test and everything that follows from it, up to the melee.

    Below zero the charged unit's player decides whether it counter-charges, and whom.
    """
    _check_inputs(target, chargers)
    out = ResolutionBuilder(RULESET, "charge", answers=answers or Answers())
    verb = "charges" if len(chargers) == 1 else "charge"
    out.step(
        "Charge declared",
        f"{' and '.join(_declaration_text(c) for c in chargers)} {verb} {target.name}.",
    )
    if target.routing:
        return _routing_target(target, chargers, dice, out)
    return _charge_test(target, chargers, cover, dice, out)


def _check_inputs(target: Unit, chargers: Sequence[Charger]) -> None:
    if not chargers:
        raise InvalidInput("A charge needs at least one charging unit.")
    if len(chargers) > MAX_CHARGERS:
        raise InvalidInput(
            f"{len(chargers)} chargers given; at most {MAX_CHARGERS} fit one charge test."
        )
    check_unique_names([target.name, *(c.unit.name for c in chargers)])
    for charger in chargers:
        check_declaration(charger)
    if not target.routing and target.basic_morale is None:
        raise InvalidInput(
            f"{target.name} needs its basic morale for the charge test.",
            hint="Give it as `morale` (the score at or above which the unit routs).",
        )


def _declaration_text(charger: Charger) -> str:
    unit = charger.unit
    details = [unit.arm.value, f'reach {reach(unit)}"']
    if charger.distance is not None:
        details.append(f'from {charger.distance:g}"')
    where = "" if charger.direction is Direction.FRONT else f" in the {charger.direction.value}"
    return f"{unit.name} ({', '.join(details)}){where}"


def _charge_test(
    target: Unit,
    chargers: Sequence[Charger],
    cover: Cover,
    dice: DiceSource,
    out: ResolutionBuilder,
) -> Resolution:
    assert target.basic_morale is not None
    (face,) = dice.roll(D6(), f"{target.name} charge test")
    modifiers = charge_modifiers(target, chargers, cover)
    score = face + sum(m.value for m in modifiers)
    morale = target.basic_morale
    if score >= morale:
        # A unit whose last SP goes leaves the battle instead (``_routs``): it does not rout.
        result = "loses its last SP" if target.loses_last_sp(1) else "routs"
    elif score < 0 and cover is Cover.NONE and _in_front(chargers):
        result = "may counter-charge"
    elif score < 0 and cover is Cover.NONE:
        result = "stands (no charger to its front)"
    else:
        result = "stands"
    roll = Roll(
        label=f"{target.name} charge test",
        kind="1d6",
        dice=(face,),
        modifiers=tuple(modifiers),
        total=score,
        # Below zero the score is read against 0 as well ("If the score is less than zero
        # …"): the line says so, or "−1 vs basic morale 4 → may counter-charge" reads as if
        # falling short of the morale allowed it.
        target=f"basic morale {morale}" + (", below 0" if score < 0 else ""),
        result=result,
        readings=plain_readings((face,)),
    )
    if score >= morale:
        return _routs(target, chargers, roll, dice, out)
    if score < 0:
        return _below_zero(target, chargers, cover, roll, out)
    out.step(
        "Charge test",
        # The roll line says the score, the morale and "stands"; this says what follows.
        "Chargers still in reach move into contact; resolve the melee.",
        roll,
    )
    return out.build(f"{target.name} stands: melee follows", Severity.NONE)


def _routs(
    target: Unit,
    chargers: Sequence[Charger],
    roll: Roll,
    dice: DiceSource,
    out: ResolutionBuilder,
) -> Resolution:
    out.step(
        "Charge test",
        "",  # the roll line, the headline and the effects say it all
        roll,
    )
    if target.loses_last_sp(1):
        rear = any(c.direction is Direction.REAR for c in chargers)
        out.step("No SP left", f"{target.name} loses its last SP and leaves the battle: it "
                 "does not rout" + (" and takes no surrender test." if rear else "."))
        out.effect(EffectKind.LOSE_SP, target.name, 1, detail=f"{CHARGING_TEXT}: charge test",
                   value=LAST_SP)
        return out.build(f"{target.name} loses its last SP", Severity.DECISIVE)
    out.effect(EffectKind.ROUTED, target.name, detail=f"{CHARGING_TEXT}: charge test")
    out.effect(EffectKind.LOSE_SP, target.name, 1, detail=f"{CHARGING_TEXT}: charge test")
    out.note(ROUT_MOVE_NOTE)
    out.note(
        "Chargers move into contact if the target is still in reach, otherwise into its "
        "original position."
    )
    if any(c.direction is Direction.REAR for c in chargers) and surrender_test(
        target, SurrenderSituation.REAR_ROUT, dice, out
    ):
        return out.build(f"{target.name} routs and surrenders", Severity.DECISIVE)
    return out.build(f"{target.name} routs, −1 SP", Severity.DECISIVE)


STAND = Answer("stand", "Stand")


def _in_front(chargers: Sequence[Charger]) -> list[str]:
    """"any enemy unit to its front which is charging it": chargers on its front only."""
    return [c.unit.name for c in chargers if c.direction is Direction.FRONT]


def _below_zero(target: Unit, chargers: Sequence[Charger], cover: Cover, roll: Roll,
                out: ResolutionBuilder) -> Resolution:
    if cover is not Cover.NONE:
        out.step(
            "Charge test",
            f"Below zero, but a unit {_cover_text(cover)} does not counter-charge: "
            "it stands. Resolve the melee.",
            roll,
        )
        return out.build(f"{target.name} stands: melee follows", Severity.NONE)
    in_front = _in_front(chargers)
    if not in_front:
        out.step(
            "Charge test",
            "Below zero, but no charger is to its front, so it has nobody to counter-charge: "
            "it stands. Resolve the melee.",
            roll,
        )
        return out.build(f"{target.name} stands: melee follows", Severity.NONE)
    out.step(
        "Charge test",
        "Below zero: it may counter-charge any enemy unit to its front that is charging it, "
        "meeting it halfway between their positions.",
        roll,
    )
    question = Question(
        "counter_charge", f"Does {target.name} counter-charge?",
        (*(Answer(name, f"Counter-charge {name}") for name in in_front), STAND),
        unit=target.name, by="defender")
    chosen = out.ask(question)
    if chosen == STAND:
        out.step("Counter-charge", f"{target.name} stands instead. Resolve the melee.")
        return out.build(f"{target.name} stands: melee follows", Severity.NONE)
    out.step("Counter-charge", f"{target.name} counter-charges {chosen.key}: the two meet "
             "halfway between their positions. Resolve the melee.")
    out.effect(EffectKind.COUNTER_CHARGE, target.name, value=chosen.key,
               detail=f"{CHARGING_TEXT}: charge test")
    return out.build(f"{target.name} counter-charges {chosen.key}", Severity.MINOR)


def _cover_text(cover: Cover) -> str:
    return {
        Cover.OBSTACLE: "behind an obstacle",
        Cover.BUILDING: "in a building",
        Cover.FORTIFICATION: "in a fortification",
    }[cover]


def _routing_target(
    target: Unit, chargers: Sequence[Charger], dice: DiceSource, out: ResolutionBuilder
) -> Resolution:
    out.step(
        "Already routing",
        f"{target.name} is already routing: no charge test. It may surrender; "
        "otherwise it routs again and loses 1 strength point.",
    )
    if surrender_test(target, SurrenderSituation.ROUTING_CHARGED, dice, out):
        return out.build(f"{target.name} surrenders", Severity.DECISIVE)
    return _routs_again(target, out)


def _routs_again(target: Unit, out: ResolutionBuilder) -> Resolution:
    """"Already routing units may surrender, but otherwise they automatically rout and lose 1
    strength point". A unit for which that point is its last leaves the battle instead, as
    one routed by the charge test does (docs/fire-at-will.md)."""
    if target.loses_last_sp(1):
        out.step("No SP left", f"{target.name} loses its last SP and leaves the battle: it "
                 "does not rout again.")
        out.effect(EffectKind.LOSE_SP, target.name, 1,
                   detail=f"{CHARGING_TEXT}: already routing", value=LAST_SP)
        return out.build(f"{target.name} loses its last SP", Severity.DECISIVE)
    out.effect(EffectKind.ROUTED, target.name, detail=f"{CHARGING_TEXT}: already routing")
    out.effect(EffectKind.LOSE_SP, target.name, 1, detail=f"{CHARGING_TEXT}: already routing")
    out.note(ROUT_MOVE_NOTE)
    return out.build(f"{target.name} routs again, −1 SP", Severity.DECISIVE)


def resolve_surrender(unit: Unit, situation: SurrenderSituation, dice: DiceSource, *,
                      routing_known: bool = False) -> Resolution:
    """A surrender test on its own, for situation (c) or a test the table resolved elsewhere.
    A routing unit successfully charged (b) that does not surrender routs again, −1 SP, as
    in a charge test. ``routing_known``: whether the unit's `routing` marker was given (a
    battle's roster, a unit given with it); only then is a unit that is not routing refused
    situation (a), "units charged in the rear which rout"."""
    if situation is SurrenderSituation.REAR_ROUT and routing_known and not unit.routing:
        raise NotAllowed(
            f"{unit.name} is not routing; situation (a) is for a unit charged in the rear "
            "that routs.",
            hint="A charge or melee that routs it from the rear rolls this test itself. If it "
                 "has routed, give it the word `routing` first (in a battle, `/unit edit "
                 "unit:… words:routing`).",
        )
    if situation is not SurrenderSituation.REAR_ROUT and not unit.routing:
        # Situation (a) is another test to pick only where the marker is not known: where
        # it is (a battle's roster), a unit not routing is refused (a) as well, above.
        other = "" if routing_known else ", or pick situation (a)"
        raise NotAllowed(
            f"{unit.name} is not routing; situation ({situation.value}) is for routing units.",
            hint="Give it the word `routing` (in a battle, `/unit edit unit:… "
                 f"words:routing`){other}.",
        )
    out = ResolutionBuilder(RULESET, "surrender")
    if surrender_test(unit, situation, dice, out):
        return out.build(f"{unit.name} surrenders", Severity.DECISIVE)
    if situation is SurrenderSituation.ROUTING_CHARGED:  # charged: it routs again
        return _routs_again(unit, out)
    return out.build(f"{unit.name} does not surrender", Severity.NONE)
