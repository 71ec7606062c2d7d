"""The code keeps its layers: no module of bot/ or rules/ comes back to itself through its
imports; the cogs, the renderers and the rule sets' commands reach the database only through
bot/battles (``BattleStore``); the rules engine knows nothing of Discord, the database or the
bot.

Imports are read from the source wherever they stand (at the top, inside a function, under
``if TYPE_CHECKING:``), relative ones against their package. A module loaded by name at run
time (``importlib.import_module``) is not an import here.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "rules")

# Talking to the database is bot/battles' and bot/storage's work alone.
DATABASE_IMPORTS = ("bot.storage", "sqlalchemy", "alembic", "aiosqlite", "asyncpg")
DATABASE_NAMES = {"Database"}
DATABASE_ATTRIBUTES = {"db", "Database"}
STORE_USERS = ("bot/cogs", "bot/render", "bot/rulesets")
# The engine is pure: no Discord, no database, no bot.
ENGINE_FORBIDDEN = ("discord", "aiohttp", *DATABASE_IMPORTS, "bot")



@dataclass(frozen=True)
class Module:
    name: str  # dotted; a package by its own name (``bot.rulesets`` for its __init__.py)
    path: Path
    file: str  # its path in the project, as messages name it
    package: str  # where its relative imports start

    @functools.cached_property
    def tree(self) -> ast.Module:
        return ast.parse(self.path.read_text(encoding="utf-8"), self.file)

    def where(self, line: int) -> str:
        return f"{self.file}:{line}"


@dataclass(frozen=True)
class Import:
    line: int
    name: str  # absolute and dotted: the module, then the name taken from it if any


def modules(root: Path, packages: Iterable[str] = PACKAGES) -> dict[str, Module]:
    found = {}
    for top in packages:
        for path in sorted((root / top).rglob("*.py")):
            file = path.relative_to(root)
            parts = file.with_suffix("").parts
            if parts[-1] == "__init__":
                name = ".".join(parts[:-1])
                found[name] = Module(name, path, str(file), name)
            else:
                name = ".".join(parts)
                found[name] = Module(name, path, str(file), name.rpartition(".")[0])
    return found


def imports(module: Module) -> Iterator[Import]:
    """Every import of the module, wherever it stands; ``from x import y`` gives ``x.y``
    (a module ``y`` of package ``x``, or a name of ``x``)."""
    for node in ast.walk(module.tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Import(node.lineno, alias.name)
        elif isinstance(node, ast.ImportFrom):
            base = absolute(module.package, node.module, node.level)
            for alias in node.names:
                yield Import(node.lineno, base if alias.name == "*" else f"{base}.{alias.name}")


def absolute(package: str, name: str | None, level: int) -> str:
    """A relative import's module as an absolute name: ``..x`` from ``bot.cogs`` is
    ``bot.x``."""
    if not level:
        return name or ""
    parts = package.split(".")
    base = parts[:len(parts) - (level - 1)]
    return ".".join([*base, name] if name else base)


def module_of(name: str, known: Mapping[str, Module]) -> str | None:
    """The module an imported name lives in: its longest dotted prefix that is one of ours.
    Taking a module from a package (``bot.storage.models``) is not importing the package's
    own __init__; taking a name from it (``from bot.storage import Database``) is."""
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def import_graph(known: Mapping[str, Module]) -> dict[str, dict[str, int]]:
    """Each module's imports of our own modules, with the line of the first."""
    graph: dict[str, dict[str, int]] = {}
    for name, module in known.items():
        edges: dict[str, int] = {}
        for found in imports(module):
            target = module_of(found.name, known)
            if target is not None and target != name:
                edges.setdefault(target, found.line)
        graph[name] = edges
    return graph


def circles(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in graph[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def ties(group: list[str], graph: Mapping[str, Mapping[str, int]],
         known: Mapping[str, Module]) -> list[str]:
    """A circle's imports, as ``file:line -> module``, to say where to cut it."""
    return [f"{known[a].where(graph[a][b])} -> {b}"
            for a in group for b in sorted(graph[a]) if b in group]


def within(name: str, packages: Iterable[str]) -> bool:
    return any(name == p or name.startswith(f"{p}.") for p in packages)


def database_reach(module: Module) -> list[str]:
    """Where a module reaches the database itself: importing storage or a database library,
    or naming ``Database`` or a ``.db``; in the order of its lines."""
    found = [(i.line, f"imports {i.name}") for i in imports(module)
             if within(i.name, DATABASE_IMPORTS)]
    for node in ast.walk(module.tree):
        if isinstance(node, ast.Name) and node.id in DATABASE_NAMES:
            found.append((node.lineno, f"names {node.id}"))
        elif isinstance(node, ast.Attribute) and node.attr in DATABASE_ATTRIBUTES:
            found.append((node.lineno, f"reads .{node.attr}"))
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in ("getattr", "setattr", "hasattr") and len(node.args) > 1
              and isinstance(node.args[1], ast.Constant)
              and node.args[1].value in DATABASE_ATTRIBUTES):
            found.append((node.lineno, f"reads .{node.args[1].value}"))
    return [f"{module.where(line)} {what}" for line, what in sorted(found)]


def engine_reach(module: Module) -> list[str]:
    """Where an engine module imports Discord, the database or the bot."""
    return [f"{module.where(i.line)} imports {i.name}" for i in imports(module)
            if within(i.name, ENGINE_FORBIDDEN)]


@functools.cache
def project() -> dict[str, Module]:
    """The project's modules, read when a test first asks (not while tests are collected,
    which every test worker does)."""
    return modules(ROOT)


@functools.cache
def project_graph() -> dict[str, dict[str, int]]:
    return import_graph(project())


# --------------------------------------------------------------------------- the project


@pytest.mark.parametrize("package", ["bot", "rules"])
def test_no_module_imports_itself_back_through_others(package):
    graph = project_graph()
    found = [group for group in circles(graph)
             if any(name.split(".")[0] == package for name in group)]
    assert found == [], "\n\n".join("\n".join(ties(group, graph, project()))
                                    for group in found)


def test_cogs_renderers_and_rule_set_commands_reach_the_database_through_battles_only():
    users = [m for m in project().values()
             if str(m.path.relative_to(ROOT).parent).startswith(STORE_USERS)]
    assert len(users) > 10
    assert [reach for module in users for reach in database_reach(module)] == []


def test_the_engine_imports_no_discord_no_database_and_no_bot():
    engine = [m for m in project().values() if m.name.split(".")[0] == "rules"]
    assert len(engine) > 10
    assert [reach for module in engine for reach in engine_reach(module)] == []


# --------------------------------------------------------------------------- the checks


def write(root: Path, files: Mapping[str, str]) -> dict[str, Module]:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return modules(root, ["bot"])


def test_a_circle_through_a_function_a_type_check_and_a_relative_import_is_found(tmp_path):
    known = write(tmp_path, {
        "bot/__init__.py": "",
        "bot/a.py": "def f():\n    from bot.b import g\n",
        "bot/b.py": "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n"
                    "    from .c import h\n",
        "bot/c.py": "from . import a\n",
        "bot/d.py": "from bot.a import f\n",
    })
    graph = import_graph(known)
    assert circles(graph) == [["bot.a", "bot.b", "bot.c"]]
    assert ties(["bot.a", "bot.b", "bot.c"], graph, known) == [
        "bot/a.py:2 -> bot.b", "bot/b.py:4 -> bot.c", "bot/c.py:1 -> bot.a"]


def test_a_package_is_imported_by_a_name_taken_from_it_not_by_its_modules(tmp_path):
    files = {
        "bot/__init__.py": "",
        "bot/p/__init__.py": "from .q import Q\n",
        "bot/p/q.py": "from bot.p.r import R\nQ = R\n",
        "bot/p/r.py": "R = 1\n",
    }
    assert circles(import_graph(write(tmp_path, files))) == []
    files["bot/p/r.py"] = "from ..p import Q\n"  # a name of the package: its __init__
    assert circles(import_graph(write(tmp_path, files))) == [["bot.p", "bot.p.q", "bot.p.r"]]


def test_a_cog_naming_the_database_is_found(tmp_path):
    known = write(tmp_path, {
        "bot/cogs/x.py": "from bot.storage.models import Unit\nimport sqlalchemy as sa\n"
                         "async def f(self):\n    await self.bot.db.run()\n"
                         "    getattr(self.bot, 'db')\n    return Database\n",
    })
    assert database_reach(known["bot.cogs.x"]) == [
        "bot/cogs/x.py:1 imports bot.storage.models.Unit", "bot/cogs/x.py:2 imports sqlalchemy",
        "bot/cogs/x.py:4 reads .db", "bot/cogs/x.py:5 reads .db",
        "bot/cogs/x.py:6 names Database"]
