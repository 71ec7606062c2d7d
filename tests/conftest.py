"""The whole run: a run told to test PostgreSQL stops at once if it cannot reach it.

``HUZZAH_TEST_POSTGRES_URL`` says a server is there. If it cannot be reached, every
PostgreSQL test would fail one by one with the same error; checking once, before any test
runs (and before pytest-xdist starts its workers), says it in one line and ends the run.
"""

from __future__ import annotations

import asyncio
import os

import pytest

# The example rule set of docs/adding-a-rule-set.md runs with the others in every shared test
# (rules.registry reads this when first imported, after this file).
os.environ["HUZZAH_EXAMPLES"] = "1"

from tests.bot.storage.conftest import check_server, configured_postgres_url, postgres_failure


def pytest_sessionstart(session: pytest.Session) -> None:
    if hasattr(session.config, "workerinput"):  # an xdist worker: the controller checked
        return
    url = configured_postgres_url()
    if url is None:
        return
    try:
        asyncio.run(check_server(url))
    except Exception as error:
        pytest.exit(postgres_failure(url, "connecting to it", error),
                    returncode=pytest.ExitCode.USAGE_ERROR)
