"""A migrated database for every backend: fixture ``db``, plus the ``database_urls()`` helper.

Tests taking ``db`` run twice, once per backend:

* ``sqlite``: a fresh file under the test's ``tmp_path``, copied from one migrated once per
  session (running Alembic per test would dominate the run time);
* ``postgresql``: the database named by ``HUZZAH_TEST_POSTGRES_URL``, migrated from scratch once
  per session and emptied (``TRUNCATE ... RESTART IDENTITY CASCADE``) before each test. Under
  pytest-xdist each worker has a database of its own, made beside it (``huzzah_ci_gw0`` for
  ``.../huzzah_ci``), created afresh when the worker starts and dropped when it ends.

Without the variable these tests are skipped, and ``-ra`` lists the reason. With it, a server
that cannot be reached or a database that cannot be made fails every one of them, saying why:
a run that was told to test PostgreSQL never passes without doing so.

To give another test package real databases, copy this file into it.
"""

from __future__ import annotations

import asyncio
import os
import shutil
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import pytest
from sqlalchemy import make_url, text
from sqlalchemy.ext.asyncio import create_async_engine
from sqlalchemy.pool import NullPool

from bot.storage import Database, async_url, migrate
from bot.storage.models import Base

POSTGRES_ENV = "HUZZAH_TEST_POSTGRES_URL"
POSTGRES_SKIP = f"PostgreSQL tests need a scratch database: set {POSTGRES_ENV}"
BACKENDS = ("sqlite", "postgresql")
SQLITE_NAME = "huzzah.db"
XDIST_WORKER_ENV = "PYTEST_XDIST_WORKER"
"""Set by pytest-xdist in each worker process: ``gw0``, ``gw1``, ..."""
MAX_NAME_BYTES = 63
"""PostgreSQL's longest identifier: a longer database name would be cut short silently."""
CONNECT_SECONDS = 10
"""How long to wait for the server before saying it cannot be reached."""


def database_urls(tmp_path: Path) -> dict[str, str | None]:
    """Each backend's test database URL; PostgreSQL's is ``None`` when it is not configured."""
    return {"sqlite": sqlite_url(tmp_path), "postgresql": configured_postgres_url()}


def configured_postgres_url() -> str | None:
    """The PostgreSQL database the run was told to test on, with the asyncio driver."""
    postgres = os.environ.get(POSTGRES_ENV)
    return async_url(postgres) if postgres else None


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


def worker_database(url: str, worker: str) -> tuple[str, str]:
    """The URL and name of one xdist worker's database: the configured database's name with
    the worker's after it."""
    parsed = make_url(url)
    name = f"{parsed.database}_{worker}"
    if len(name.encode()) > MAX_NAME_BYTES:
        pytest.fail(postgres_failure(url, "naming a database per worker",
                                     f"{name!r} is longer than PostgreSQL's {MAX_NAME_BYTES} "
                                     "bytes: name a shorter database"), pytrace=False)
    return parsed.set(database=name).render_as_string(hide_password=False), name


def postgres_failure(url: str, doing: str, error: BaseException | str) -> str:
    """What went wrong with the configured PostgreSQL, said so that it can be fixed."""
    shown = make_url(url).render_as_string(hide_password=True)
    if isinstance(error, BaseException):
        # The driver's own words, without SQLAlchemy's second line (a link to its docs).
        first_line = next(iter(str(error).splitlines()), "")
        error = f"{type(error).__name__}: {first_line}"
    return f"{POSTGRES_ENV} is set ({shown}), but {doing} failed: {error}"


def attempt(url: str, doing: str, step: Callable[[], object]) -> None:
    """Run one step of making the test database; its failure fails the tests, saying why."""
    try:
        step()
    except Exception as error:
        pytest.fail(postgres_failure(url, doing, error), pytrace=False)


async def check_server(url: str) -> None:
    """Connect to the configured database once, as the run starts (``tests/conftest.py``)."""
    engine = create_async_engine(url, poolclass=NullPool,
                                 connect_args={"timeout": CONNECT_SECONDS})
    try:
        async with engine.connect() as connection:
            await connection.execute(text("SELECT 1"))
    finally:
        await engine.dispose()


async def recreate_database(url: str, name: str, *, create: bool) -> None:
    """Drop the database ``name`` on the server of ``url`` if it is there; then, with
    ``create``, make it anew (empty: its schema is migrated after)."""
    engine = create_async_engine(url, poolclass=NullPool, isolation_level="AUTOCOMMIT",
                                 connect_args={"timeout": CONNECT_SECONDS})
    quoted = engine.dialect.identifier_preparer.quote(name)
    try:
        async with engine.connect() as connection:
            await connection.execute(text(f"DROP DATABASE IF EXISTS {quoted} WITH (FORCE)"))
            if create:
                await connection.execute(text(f"CREATE DATABASE {quoted}"))
    finally:
        await engine.dispose()


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str | None]:
    """The PostgreSQL test URL, its schema rebuilt at head once per session; ``None`` if unset.

    Under pytest-xdist, the worker's own database, made for the session and dropped after it.
    """
    url = configured_postgres_url()
    worker = os.environ.get(XDIST_WORKER_ENV)
    if url is None:
        yield None
    elif worker is None:
        rebuild_schema(url)
        yield url
    else:
        own, name = worker_database(url, worker)
        attempt(own, "making it", lambda: asyncio.run(recreate_database(url, name, create=True)))
        attempt(own, "migrating it", lambda: migrate.upgrade(own))
        rebuild_schema(own)  # down and up again, as the one database of a run is
        yield own
        asyncio.run(recreate_database(url, name, create=False))


def rebuild_schema(url: str) -> None:
    """Every revision taken down to nothing and migrated up again to head."""
    attempt(url, "taking its schema down", lambda: migrate.downgrade(url, "base"))
    attempt(url, "migrating it", lambda: migrate.upgrade(url))


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
