"""A migrated database for every backend: fixture ``db``, plus the ``database_urls()`` helper.

Tests taking ``db`` run twice, once per backend:

* ``sqlite``: a fresh file under the test's ``tmp_path``, copied from one migrated once per
  session (running Alembic per test would dominate the run time);
* ``postgresql``: the database named by ``HUZZAH_TEST_POSTGRES_URL``, migrated from scratch once
  per session and emptied (``TRUNCATE ... RESTART IDENTITY CASCADE``) before each test. Without
  the variable these tests are skipped, and ``-ra`` lists the reason.

To give another test package real databases, copy this file into it.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from sqlalchemy import text

from bot.storage import Database, async_url, migrate
from bot.storage.models import Base

POSTGRES_ENV = "HUZZAH_TEST_POSTGRES_URL"
POSTGRES_SKIP = f"PostgreSQL tests need a scratch database: set {POSTGRES_ENV}"
BACKENDS = ("sqlite", "postgresql")
SQLITE_NAME = "huzzah.db"


def database_urls(tmp_path: Path) -> dict[str, str | None]:
    """Each backend's test database URL; PostgreSQL's is ``None`` when it is not configured."""
    postgres = os.environ.get(POSTGRES_ENV)
    return {
        "sqlite": sqlite_url(tmp_path),
        "postgresql": async_url(postgres) if postgres else None,
    }


def sqlite_url(folder: Path) -> str:
    return f"sqlite+aiosqlite:///{folder / SQLITE_NAME}"


def plain_url(db: Database) -> str:
    """The database's URL as text, password included (``str(db.url)`` masks it)."""
    return db.url.render_as_string(hide_password=False)


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file migrated to head, for each test to copy."""
    folder = tmp_path_factory.mktemp("sqlite-template")
    migrate.upgrade(sqlite_url(folder))
    return folder / SQLITE_NAME


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str | None]:
    """The PostgreSQL test URL, its schema rebuilt at head once per session; ``None`` if unset."""
    url = database_urls(Path())["postgresql"]
    if url is not None:
        migrate.downgrade(url, "base")
        migrate.upgrade(url)
    yield url


@pytest.fixture(params=BACKENDS)
async def db(
    request: pytest.FixtureRequest,
    tmp_path: Path,
    sqlite_template: Path,
    postgres_url: str | None,
) -> AsyncIterator[Database]:
    """A migrated, empty :class:`Database` on each backend."""
    if request.param == "sqlite":
        shutil.copyfile(sqlite_template, tmp_path / SQLITE_NAME)
        database = Database(sqlite_url(tmp_path))
    elif postgres_url is None:
        pytest.skip(POSTGRES_SKIP)
    else:
        database = Database(postgres_url)
        await empty_tables(database)
    yield database
    await database.dispose()


async def empty_tables(database: Database) -> None:
    """Delete every row and reset the id sequences, so each test starts from nothing."""
    tables = ", ".join(table.name for table in Base.metadata.sorted_tables)
    async with database.engine.begin() as connection:
        await connection.execute(text(f"TRUNCATE TABLE {tables} RESTART IDENTITY CASCADE"))
