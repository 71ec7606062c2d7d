"""Small builders shared by the Fire at Will tests."""

from __future__ import annotations

from rules.core.dice import ScriptedSource
from rules.core.records import Effect, Resolution
from rules.fire_at_will.effects import EffectKind
from rules.fire_at_will.units import Arm, Charger, General, MeleeUnit, Order, Unit


def foot(name: str = "2nd Foot", **kw) -> Unit:
    kw.setdefault("basic_morale", 4)
    return Unit(name=name, arm=Arm.INFANTRY, **kw)


def horse(name: str = "Hussars", **kw) -> Unit:
    kw.setdefault("basic_morale", 4)
    return Unit(name=name, arm=Arm.CAVALRY, **kw)


def guns(name: str = "Battery", **kw) -> Unit:
    kw.setdefault("basic_morale", 4)
    return Unit(name=name, arm=Arm.ARTILLERY, **kw)


def skirmishers(name: str = "Rangers", **kw) -> Unit:
    kw.setdefault("basic_morale", 4)
    return Unit(name=name, arm=Arm.INFANTRY, order=Order.OPEN, **kw)


def charger(unit: Unit, **kw) -> Charger:
    return Charger(unit=unit, **kw)


def m(unit: Unit, **kw) -> MeleeUnit:
    return MeleeUnit(unit=unit, **kw)


def dice(text: str) -> ScriptedSource:
    return ScriptedSource.from_text(text)


def run(fn, *args, dice_text: str, **kw) -> Resolution:
    """Run a procedure on scripted dice and insist that every die was used."""
    source = dice(dice_text)
    result = fn(*args, source, **kw)
    source.finish()
    return result


def effects(result: Resolution) -> list[tuple[EffectKind, str, int | None]]:
    return [(e.kind, e.unit, e.amount) for e in result.effects]


def general(name: str = "Wolfe", wounded: bool = False) -> General:
    return General(name, wounded)


__all__ = ["Effect"]
