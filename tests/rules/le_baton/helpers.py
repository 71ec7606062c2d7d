"""Small builders shared by the Le Baton tests."""

from __future__ import annotations

from rules.core.decisions import Answers
from rules.core.dice import ScriptedSource
from rules.core.records import Resolution
from rules.le_baton.effects import EffectKind
from rules.le_baton.units import Arm, Formation, Horse, Nation, Unit


def foot(name: str = "2nd Foot", nation: Nation = Nation.BRITISH, **kw) -> Unit:
    kw.setdefault("figures", 12)
    kw.setdefault("formation", Formation.LINE)
    return Unit(name=name, nation=nation, arm=Arm.INFANTRY, **kw)


def ligne(name: str = "45e Ligne", **kw) -> Unit:
    """French infantry, in column unless told otherwise."""
    kw.setdefault("formation", Formation.COLUMN)
    return foot(name, Nation.FRENCH, **kw)


def horse(name: str = "Chasseurs", nation: Nation = Nation.FRENCH, **kw) -> Unit:
    kw.setdefault("figures", 6)
    return Unit(name=name, nation=nation, arm=Arm.CAVALRY, **kw)


def dragoons(name: str = "Scots Greys", **kw) -> Unit:
    kw.setdefault("horse", Horse.HEAVY_DRAGOONS)
    return horse(name, Nation.BRITISH, **kw)


def guns(name: str = "Battery", nation: Nation = Nation.BRITISH, **kw) -> Unit:
    kw.setdefault("figures", 4)
    return Unit(name=name, nation=nation, arm=Arm.ARTILLERY, **kw)


# The choices that reproduce the sheet's procedures as they read before players were asked:
# roll for recall, keep formation when standing, no free formation change, try for square.
AS_BEFORE = ("roll_recall=roll; form_square=stay; free_formation_change=none; "
             "try_square=try")


def run(fn, *args, dice_text: str, **kw) -> Resolution:
    """Run a procedure on scripted dice and insist that every die was used."""
    source = ScriptedSource.from_text(dice_text)
    if isinstance(kw.get("answers"), str):  # the players' choices, as a command gives them
        kw["answers"] = Answers.read(kw["answers"])
    result = fn(*args, source, **kw)
    source.finish()
    return result


# The roster's bookkeeping, which no reply says: tested on its own (test_charge.py,
# test_fire.py).
BOOKKEEPING = (EffectKind.INFANTRY_CHARGED, EffectKind.FIRED, EffectKind.BOMBARDED,
               EffectKind.TESTED, EffectKind.CHARGE_FAILED)


def effects(result: Resolution) -> list[tuple[EffectKind, str, int | None]]:
    return [(e.kind, e.unit, e.amount) for e in result.effects if e.kind not in BOOKKEEPING]


def values(result: Resolution) -> list[tuple[EffectKind, str, str | None]]:
    """Effects with the data they carry (a formation, a melee opponent, where a unit goes)."""
    return [(e.kind, e.unit, e.value) for e in result.effects if e.kind not in BOOKKEEPING]


def outcomes(result: Resolution) -> list[str]:
    return [step.outcome for step in result.steps]


def titles(result: Resolution) -> list[str]:
    return [step.title for step in result.steps]

