"""The test run's own databases: one per pytest-xdist worker, and a run told to test
PostgreSQL that cannot reach it fails, saying why, instead of skipping."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import make_url, text
from sqlalchemy.ext.asyncio import create_async_engine
from sqlalchemy.pool import NullPool

from .conftest import POSTGRES_ENV, POSTGRES_SKIP, worker_database

ROOT = Path(__file__).resolve().parents[3]
ONE_TEST_PER_BACKEND = "tests/bot/storage/test_database.py::test_one_channel_never_loses_an_update"


def pytest_run(*args: str, postgres: str) -> subprocess.CompletedProcess:
    """The suite's own command, as the README gives it, on a few tests."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTEST_")}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
        env={**env, POSTGRES_ENV: postgres}, cwd=ROOT, capture_output=True, text=True,
        timeout=300,
    )


def test_each_worker_has_a_database_beside_the_one_named():
    url, name = worker_database("postgresql+asyncpg://bot:s3cr%40t@db:5432/huzzah_ci", "gw1")
    assert (url, name) == ("postgresql+asyncpg://bot:s3cr%40t@db:5432/huzzah_ci_gw1",
                           "huzzah_ci_gw1")


def test_a_worker_database_name_postgresql_would_cut_short_is_refused():
    with pytest.raises(pytest.fail.Exception,
                       match="longer than PostgreSQL's 63 bytes: name a shorter database"):
        worker_database(f"postgresql+asyncpg://db/{'x' * 60}", "gw10")


def test_a_run_told_of_a_server_it_cannot_reach_fails_before_any_test():
    unreachable = "postgresql://postgres@127.0.0.1:1/huzzah_nowhere"
    done = pytest_run(ONE_TEST_PER_BACKEND, postgres=unreachable)
    assert done.returncode == pytest.ExitCode.USAGE_ERROR, done.stdout + done.stderr
    output = done.stdout + done.stderr
    assert (f"{POSTGRES_ENV} is set (postgresql+asyncpg://postgres@127.0.0.1:1/huzzah_nowhere), "
            "but connecting to it failed: ConnectionRefusedError") in output
    assert "passed" not in output and "skipped" not in output


async def databases_named_like(url: str, prefix: str) -> list[str]:
    engine = create_async_engine(url, poolclass=NullPool)
    try:
        async with engine.connect() as connection:
            rows = await connection.execute(
                text("SELECT datname FROM pg_database WHERE starts_with(datname, :prefix)"),
                {"prefix": prefix})
            return sorted(row[0] for row in rows)
    finally:
        await engine.dispose()


async def test_workers_make_their_databases_and_drop_them_at_the_end(
        postgres_url: str | None) -> None:
    if postgres_url is None:
        pytest.skip(POSTGRES_SKIP)
    workers_prefix = f"{make_url(postgres_url).database}_gw"
    done = await asyncio.to_thread(pytest_run, "-n", "1", f"{ONE_TEST_PER_BACKEND}[postgresql]",
                                   postgres=postgres_url)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed" in done.stdout
    assert await databases_named_like(postgres_url, workers_prefix) == []
