"""Alembic environment for Huzzah: runs ``migrations/versions`` against the battle database.

The URL comes from :mod:`bot.storage.migrate` (a config attribute), else ``DATABASE_URL``, else
the default SQLite file. Online migrations run on the async engine; on SQLite they use batch mode
(ALTER TABLE there is very limited) inside one ``BEGIN IMMEDIATE`` transaction, and on PostgreSQL
under an advisory lock, so two bot processes starting together do not migrate twice.
"""

from __future__ import annotations

import asyncio
from logging.config import fileConfig

from alembic import context
from sqlalchemy import TypeDecorator, pool, text
from sqlalchemy.engine import Connection

from bot.storage.database import (
    MIGRATION_LOCK_KEY,
    async_url,
    create_database_engine,
    database_url,
)
from bot.storage.migrate import URL_ATTRIBUTE
from bot.storage.models import Base

config = context.config

# Only the command line (alembic.ini) configures logging; a bot migrating at start-up keeps its
# own logging set-up.
if config.config_file_name is not None:
    fileConfig(config.config_file_name, disable_existing_loggers=False)

target_metadata = Base.metadata



def render_item(kind: str, obj: object, autogen_context: object) -> str | bool:
    """Write the models' own column types (e.g. ``UTCDateTime``) as the plain type they store.

    A revision must not import the models: it has to keep working after they change.
    """
    if kind == "type" and isinstance(obj, TypeDecorator):
        return f"sa.{obj.impl_instance!r}"
    return False


COMPARE_OPTIONS = {"render_as_batch": True, "compare_type": True, "render_item": render_item}


def migration_url() -> str:
    url = config.attributes.get(URL_ATTRIBUTE)
    return async_url(url) if url else database_url()


def run_migrations_offline() -> None:
    """Print the SQL instead of running it (``alembic upgrade head --sql``)."""
    context.configure(
        url=migration_url(),
        target_metadata=target_metadata,
        literal_binds=True,
        dialect_opts={"paramstyle": "named"},
        **COMPARE_OPTIONS,
    )
    with context.begin_transaction():
        context.run_migrations()


def do_run_migrations(connection: Connection) -> None:
    """Run every pending revision in a single transaction (SQLite's DDL is transactional too)."""
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        transactional_ddl=True,
        **COMPARE_OPTIONS,
    )
    with context.begin_transaction():
        if connection.dialect.name == "postgresql":
            connection.execute(
                text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK_KEY}
            )
        context.run_migrations()


async def run_async_migrations() -> None:
    # Foreign keys off: a batch rebuild drops and re-creates tables, and an enforced ON DELETE
    # CASCADE would empty the child tables on the way.
    engine = create_database_engine(migration_url(), foreign_keys=False, poolclass=pool.NullPool)
    try:
        async with engine.connect() as connection:
            await connection.run_sync(do_run_migrations)
    finally:
        await engine.dispose()


def run_migrations_online() -> None:
    asyncio.run(run_async_migrations())


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
