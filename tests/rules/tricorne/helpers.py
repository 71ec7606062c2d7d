"""Small builders shared by the Tricorne engine tests: units, scripted battle dice, answers."""

from __future__ import annotations

import pytest

from rules.core.decisions import Answers, Undecided
from rules.core.dice import BATTLE_DICE_FACES, ScriptedSource, parse_dice
from rules.core.records import Resolution
from rules.tricorne.melee import Melee, TypedTarget, resolve_melee
from rules.tricorne.settings import Settings, settings_from
from rules.tricorne.units import Terrain, Unit, UnitType


def unit(name: str, kind: UnitType | str, **kw) -> Unit:
    if isinstance(kw.get("terrain"), str):
        kw["terrain"] = Terrain(kw["terrain"])
    return Unit(name=name, kind=UnitType(kind), **kw)


def regular(name: str = "Foot", **kw) -> Unit:
    return unit(name, UnitType.REGULAR, **kw)


def cavalry(name: str = "Dragoons", **kw) -> Unit:
    return unit(name, UnitType.BATTLE_CAVALRY, **kw)


def dice(text: str) -> ScriptedSource:
    return ScriptedSource(parse_dice(text, BATTLE_DICE_FACES))


def settings(**values) -> Settings:
    return settings_from(values)


def melee(attacker: Unit, defender: Unit, rolled: str, answers: str = "", *,
          card: bool = False, bonus: tuple[Unit, ...] = (), typed: TypedTarget | None = None,
          **setting_values) -> Resolution:
    """One melee on scripted dice and answers; every die typed must be used."""
    source = dice(rolled)
    result = resolve_melee(Melee(attacker, defender, card, bonus, typed), source,
                           Answers.read(answers), settings(**setting_values))
    source.finish()
    return result


def asked(attacker: Unit, defender: Unit, rolled: str, answers: str = "", *,
          card: bool = False, bonus: tuple[Unit, ...] = (),
          typed: TypedTarget | None = None) -> tuple[str, int]:
    """The question the melee stops at, and how many dice it had used by then."""
    return question(attacker, defender, rolled, answers, card=card, bonus=bonus,
                    typed=typed)[0:2]


def question(attacker: Unit, defender: Unit, rolled: str, answers: str = "", *,
             card: bool = False, bonus: tuple[Unit, ...] = (),
             typed: TypedTarget | None = None):
    """The question the melee stops at, the dice used by then, and the question itself."""
    source = dice(rolled)
    with pytest.raises(Undecided) as stop:
        resolve_melee(Melee(attacker, defender, card, bonus, typed), source,
                      Answers.read(answers))
    return stop.value.question.key, source.consumed, stop.value.question


def effects(result: Resolution) -> list[tuple[str, str, int | None]]:
    return [(str(e.kind), e.unit, e.amount) for e in result.effects]


def titles(result: Resolution) -> list[str]:
    return [step.title for step in result.steps]


def step(result: Resolution, title: str, nth: int = 0):
    found = [s for s in result.steps if s.title == title]
    return found[nth]


def rolls(result: Resolution) -> list:
    return [roll for s in result.steps for roll in s.rolls]
