"""The engine stays pure: nothing under rules/ may import Discord, the database or the bot."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

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
