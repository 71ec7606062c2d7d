"""Bringing a database's schema up to date with Alembic, from code rather than the command line.

The Alembic scripts ship inside the ``migrations`` package, so this works from any working
directory and from an installed wheel as well as from a checkout.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import pool
from sqlalchemy.engine import Connection

import migrations

from .database import READ_ONLY_OPTION, async_url, create_database_engine

URL_ATTRIBUTE = "huzzah_url"
"""The :attr:`alembic.config.Config.attributes` key through which ``migrations/env.py`` gets
the database URL (attributes, unlike ini options, need no ``%`` escaping)."""


def migrations_directory() -> Path:
    """The folder holding ``env.py`` and ``versions/``, wherever the package is installed."""
    return Path(migrations.__file__).resolve().parent


def alembic_config(url: str) -> Config:
    """An Alembic configuration for ``url`` that needs no ``alembic.ini``."""
    config = Config()
    config.set_main_option("script_location", str(migrations_directory()))
    config.attributes[URL_ATTRIBUTE] = async_url(url)
    return config


def upgrade(url: str, revision: str = "head") -> None:
    """Migrate the database up to ``revision`` (the latest by default).

    Blocking: Alembic runs the async engine in its own event loop. Inside a running loop use
    :func:`upgrade_async` instead.
    """
    _refuse_inside_event_loop("upgrade")
    command.upgrade(alembic_config(url), revision)


def downgrade(url: str, revision: str) -> None:
    """Migrate the database down to ``revision``; ``"base"`` removes every table."""
    _refuse_inside_event_loop("downgrade")
    command.downgrade(alembic_config(url), revision)


def current(url: str) -> str | None:
    """The revision the database is at, or ``None`` if it has never been migrated."""
    _refuse_inside_event_loop("current")
    return asyncio.run(_current_revision(url))


async def upgrade_async(url: str, revision: str = "head") -> None:
    """:func:`upgrade` from async code, run in a worker thread that has no event loop yet."""
    await asyncio.to_thread(upgrade, url, revision)


async def _current_revision(url: str) -> str | None:
    engine = create_database_engine(url, poolclass=pool.NullPool)
    try:
        async with engine.connect() as connection:
            await connection.execution_options(**{READ_ONLY_OPTION: True})
            return await connection.run_sync(_revision_of)
    finally:
        await engine.dispose()


def _revision_of(connection: Connection) -> str | None:
    return MigrationContext.configure(connection).get_current_revision()


def _refuse_inside_event_loop(name: str) -> None:
    """Fail clearly, instead of deep inside Alembic, when called from a running event loop."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return
    raise RuntimeError(
        f"migrate.{name}() blocks and starts its own event loop; from async code use "
        f"upgrade_async() or asyncio.to_thread(migrate.{name}, ...)"
    )
