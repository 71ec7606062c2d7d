"""Builders shared by the La Bataille engine tests: stacks, the test chart pack, runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.core.decisions import Answers, Undecided
from rules.core.dice import ScriptedSource
from rules.core.records import Resolution
from rules.labataille.assault import Assault, resolve_assault
from rules.labataille.charge import resolve_charge
from rules.labataille.charts import ChartPack, read_pack
from rules.labataille.units import Stack

PACK_DATA = json.loads((Path(__file__).parent / "pack.json").read_text())


def pack() -> ChartPack:
    return read_pack(PACK_DATA)


def stack(name: str, **kw) -> Stack:
    kw.setdefault("morale", 34)
    kw.setdefault("melee", 10)
    kw.setdefault("increments", 4)
    return Stack(name=name, **kw)


def assault(attackers, defenders, rolled: str, answers: str = "", **kw) -> Resolution:
    source = ScriptedSource.from_text(rolled)
    result = resolve_assault(Assault(tuple(attackers), tuple(defenders), **kw), source,
                             Answers.read(answers))
    source.finish()
    return result


def asked(attackers, defenders, rolled: str, answers: str = "", **kw) -> str:
    source = ScriptedSource.from_text(rolled)
    with pytest.raises(Undecided) as stop:
        resolve_assault(Assault(tuple(attackers), tuple(defenders), **kw), source,
                        Answers.read(answers))
    return stop.value.question.key


def effects(result: Resolution) -> list[tuple[str, str, object]]:
    return [(str(e.kind), e.unit, e.amount if e.amount is not None else e.value)
            for e in result.effects]


def titles(result: Resolution) -> list[str]:
    return [s.title for s in result.steps]


def step(result: Resolution, title: str, nth: int = 0):
    return [s for s in result.steps if s.title == title][nth]


def charge(chargers, targets, rolled: str, answers: str = "", **kw) -> Resolution:
    source = ScriptedSource.from_text(rolled)
    result = resolve_charge(Assault(tuple(chargers), tuple(targets), cavalry=True, **kw),
                            source, Answers.read(answers))
    source.finish()
    return result


def charge_asks(chargers, targets, rolled: str, answers: str = "", **kw) -> str:
    source = ScriptedSource.from_text(rolled)
    with pytest.raises(Undecided) as stop:
        resolve_charge(Assault(tuple(chargers), tuple(targets), cavalry=True, **kw), source,
                       Answers.read(answers))
    return stop.value.question.key
