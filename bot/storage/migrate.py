"""Bringing a database's schema up to date with Alembic, from code rather than the command line.

The Alembic scripts ship inside the ``migrations`` package, so this works from any working
directory and from an installed wheel as well as from a checkout.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import pool, text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError

import migrations

from .database import READ_ONLY_OPTION, async_url, create_database_engine

if TYPE_CHECKING:
    from alembic.config import Config

# Alembic is imported only when a migration has to run: most starts find the schema current.
_REVISION = re.compile(r"""^(revision|down_revision)\b[^=]*=\s*["']([^"']+)["']""", re.MULTILINE)

URL_ATTRIBUTE = "huzzah_url"
"""The :attr:`alembic.config.Config.attributes` key through which ``migrations/env.py`` gets
the database URL (attributes, unlike ini options, need no ``%`` escaping)."""


def migrations_directory() -> Path:
    """The folder holding ``env.py`` and ``versions/``, wherever the package is installed."""
    return Path(migrations.__file__).resolve().parent


@cache
def head_revision() -> str:
    """The newest revision among the scripts in ``versions/``, read without Alembic."""
    scripts = (migrations_directory() / "versions").glob("*.py")
    return newest_revision(script.read_text(encoding="utf-8") for script in scripts)


def newest_revision(scripts: Iterable[str]) -> str:
    """The one revision that no script names as its ``down_revision``."""
    revisions, parents = set(), set()
    for script in scripts:
        for kind, revision in _REVISION.findall(script):
            (revisions if kind == "revision" else parents).add(revision)
    heads = revisions - parents
    if len(heads) != 1:
        raise RuntimeError(f"migrations/versions has {len(heads)} newest revisions "
                           f"({', '.join(sorted(heads)) or 'none'}); it must have exactly one")
    return heads.pop()


@cache
def known_revisions() -> frozenset[str]:
    """Every revision among the scripts in ``versions/``."""
    scripts = (migrations_directory() / "versions").glob("*.py")
    return frozenset(revision for script in scripts
                     for kind, revision in _REVISION.findall(script.read_text(encoding="utf-8"))
                     if kind == "revision")


class NewerSchema(Exception):
    """The database is at a revision this version does not know: a newer one upgraded it."""

    def __init__(self, url: str, revision: str) -> None:
        from .database import shown_database

        newest = head_revision()
        super().__init__(
            f"the database {shown_database(url)} is at revision {revision}, which a newer "
            f"version of Huzzah made (this one knows up to {newest}). Install that version "
            f"again, or downgrade with it first: `huzzah db downgrade {newest}`.")


def known(url: str, revision: str | None) -> str | None:
    """``revision``, the database's, when this version knows it (or it has none);
    :class:`NewerSchema` when a newer version made it."""
    if revision is not None and revision not in known_revisions():
        raise NewerSchema(url, revision)
    return revision


async def upgrade_if_needed(url: str) -> None:
    """Bring the database to the newest schema, unless it is there already (one query);
    :class:`NewerSchema` for a revision a newer version made."""
    revision = known(url, await _current_revision(url))
    if revision != head_revision():
        await upgrade_async(url)


def alembic_config(url: str) -> Config:
    """An Alembic configuration for ``url`` that needs no ``alembic.ini``."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(migrations_directory()))
    config.attributes[URL_ATTRIBUTE] = async_url(url)
    return config


def upgrade(url: str, revision: str = "head") -> None:
    """Migrate the database up to ``revision`` (the latest by default).

    Blocking: Alembic runs the async engine in its own event loop. Inside a running loop use
    :func:`upgrade_async` instead.
    """
    from alembic import command

    _refuse_inside_event_loop("upgrade")
    command.upgrade(alembic_config(url), revision)


def downgrade(url: str, revision: str) -> None:
    """Migrate the database down to ``revision``; ``"base"`` removes every table."""
    from alembic import command

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
    """The revision in ``alembic_version``; None for a database never migrated."""
    try:
        with connection.begin_nested():
            return connection.scalar(text("SELECT version_num FROM alembic_version"))
    except DBAPIError:  # no such table yet
        return None


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
