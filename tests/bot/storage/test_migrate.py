"""Start-up finds the schema current with one query, and migrates only when it is not."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic.script import ScriptDirectory

from bot.storage import migrate
from bot.storage.migrate import (
    alembic_config,
    head_revision,
    newest_revision,
    upgrade_if_needed,
)

from .conftest import sqlite_url


def test_the_head_read_from_the_scripts_is_alembics_head():
    scripts = ScriptDirectory.from_config(alembic_config("sqlite:///unused.db"))
    assert head_revision() == scripts.get_current_head()


async def test_a_new_database_is_migrated_and_a_current_one_is_left_alone(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    url = sqlite_url(tmp_path)
    upgrades = []
    real = migrate.upgrade_async

    async def counted(target: str, revision: str = "head") -> None:
        upgrades.append(target)
        await real(target, revision)

    monkeypatch.setattr(migrate, "upgrade_async", counted)
    await upgrade_if_needed(url)
    assert upgrades == [url]
    assert await migrate._current_revision(url) == head_revision()
    await upgrade_if_needed(url)
    assert upgrades == [url]  # already current: no migration ran


def test_revisions_are_read_in_either_quote_style():
    scripts = ['revision: str = "0001"\ndown_revision = None\n',
               "revision: str = '0002'\ndown_revision: str | None = '0001'\n"]
    assert newest_revision(scripts) == "0002"


def test_two_newest_revisions_are_refused_with_their_names():
    scripts = ['revision = "a"\n', 'revision = "b"\n']
    with pytest.raises(RuntimeError, match="2 newest revisions \\(a, b\\)"):
        newest_revision(scripts)
