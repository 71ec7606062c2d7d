"""The engine stays pure: nothing under rules/ may import Discord, the database or the bot;
no module of it imports one that imports it back; no record is written to once made, nor
anything kept by an object's identity; and playing a move leaves the engine as it was."""

from __future__ import annotations

import ast
import json
import pickle
import pkgutil
import re
import subprocess
import sys
import types
from collections.abc import Iterator
from importlib import import_module
from pathlib import Path

import rules
from rules.core.dice import ScriptedSource
from rules.core.roster import Roster, RosterGeneral, RosterUnit

RULES = Path(__file__).resolve().parents[2] / "rules"
FORBIDDEN = ("discord", "sqlalchemy", "aiosqlite", "asyncpg", "alembic", "bot", "aiohttp")


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def test_no_rules_module_imports_a_forbidden_package():
    offenders = {
        str(path.relative_to(RULES.parent)): sorted(imported_roots(path) & set(FORBIDDEN))
        for path in RULES.rglob("*.py")
    }
    assert {k: v for k, v in offenders.items() if v} == {}
    assert len(offenders) > 5  # the scan really saw the engine


def test_importing_every_rule_set_loads_no_forbidden_module():
    code = (
        "import sys, pkgutil, importlib, rules\n"
        "for m in pkgutil.walk_packages(rules.__path__, 'rules.'):\n"
        "    importlib.import_module(m.name)\n"
        f"bad = [m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r}]\n"
        "print(bad)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=RULES.parent)
    assert out.stdout.strip() == "[]"


# --- the engine's modules (import circles: tests/test_layers.py) ----------------------------


def module_name(path: Path) -> str:
    parts = path.relative_to(RULES.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in RULES.rglob("*.py")}


# --- records written once, nothing kept by identity -----------------------------------------


def offences(source: str, name: str) -> Iterator[str]:
    """``object.__setattr__`` (a frozen record written to after it was made), ``id(...)``
    (something kept or compared by an object's identity) and ``cached_property`` (a value
    kept inside the object that computed it)."""
    for node in ast.walk(ast.parse(source)):
        where = f"{name}:{getattr(node, 'lineno', 0)}"
        if (isinstance(node, ast.Attribute) and node.attr == "__setattr__"
                and isinstance(node.value, ast.Name) and node.value.id == "object"):
            yield f"{where}: object.__setattr__"
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id == "id"):
            yield f"{where}: id(...)"
        elif isinstance(node, ast.Name | ast.Attribute) and "cached_property" in (
                getattr(node, "id", None), getattr(node, "attr", None)):
            yield f"{where}: cached_property"


def test_no_record_is_written_once_made_and_nothing_is_kept_by_identity():
    assert [found for name, path in sorted(MODULES.items())
            for found in offences(path.read_text(), name)] == []


def test_the_scan_for_writes_and_identities_finds_each():
    source = ("class Unit:\n"
              "    @functools.cached_property\n"
              "    def scoring(self):\n"
              "        object.__setattr__(self, 'said', 1)\n"
              "        return {id(self): self}\n")
    assert sorted(offences(source, "sample")) == [
        "sample:2: cached_property", "sample:4: object.__setattr__", "sample:5: id(...)"]


# --- a move keeps nothing -------------------------------------------------------------------


def engine_state() -> dict[str, bytes]:
    """What every module of rules/ holds as data (functions, classes and modules aside: a
    ``functools`` cache of a pure function is not data of the module), as pickled bytes."""
    state = {}
    for name, module in sorted(sys.modules.items()):
        if name != "rules" and not name.startswith("rules."):
            continue
        for key, value in vars(module).items():
            if key.startswith("__") or isinstance(value, types.ModuleType | type) or callable(
                    value):
                continue
            try:
                state[f"{name}.{key}"] = pickle.dumps(value)
            except (pickle.PicklingError, TypeError, AttributeError):
                continue  # a table holding functions (Fire at Will's melee factors): constant
    return state


RESOLVE_EXAMPLES = [json.loads(example) for example in re.findall(
    r"```json\n(.*?)```", (RULES.parent / "docs" / "resolve.md").read_text(), re.S)]

ROSTER = Roster(
    units=(RosterUnit("Grenadiers", "British", {"arm": "infantry", "regular": True,
                                                "morale": 4}, 4),
           RosterUnit("Artois", "French", {"arm": "infantry", "regular": True, "morale": 4},
                      4),
           RosterUnit("Hussars", "French", {"arm": "cavalry", "morale": 4}, 2)),
    generals=(RosterGeneral("Montcalm", "French", unit="Artois"),),
)


def play_moves() -> None:
    from rules.fire_at_will.battle import apply_effects
    from rules.fire_at_will.commands import prepare
    from rules.registry import resolve

    for _ in range(2):  # the same move again, as a game repeats them
        for procedure, options, dice in (
            ("melee", {"attackers": "Grenadiers: charging", "defenders": "Artois"}, "3 3 4 4"),
            ("charge", {"target": "Grenadiers", "chargers": "Hussars: flank"}, "6"),
        ):
            source = ScriptedSource.from_text(dice)
            resolution = prepare(procedure, options, ROSTER)(source)
            source.finish()
            apply_effects(resolution.effects, ROSTER)
            resolution.to_dict()
    for request in RESOLVE_EXAMPLES:
        resolve(request).to_dict()


def test_playing_moves_leaves_every_module_of_the_engine_as_it_was():
    """Every procedure's documented request, and a battle's moves played twice: afterwards
    the engine holds what it held before. What a move works out is in its result only."""
    for found in pkgutil.walk_packages(rules.__path__, "rules."):
        import_module(found.name)
    before = engine_state()
    play_moves()
    after = engine_state()
    assert len(before) > 50  # the engine's tables, field sets and registries were seen
    assert [key for key in before if after.get(key) != before[key]] == []
    assert len(RESOLVE_EXAMPLES) > 20
