"""CI's PostgreSQL: run when a server is there, a failure when CI expects one and none answers."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
POSTGRES_SETUP = ROOT / ".ci" / "postgres"
NOBODY_LISTENS = "1"  # a port no PostgreSQL server answers on
KEPT_APART = ("HUZZAH_TEST_POSTGRES_URL", "CI", "PGHOST", "PGPORT", "PGUSER")


def setup_postgres(**env: str) -> subprocess.CompletedProcess:
    """Source the setup as .ci/run does; report the URL the tests would be given."""
    base = {key: value for key, value in os.environ.items() if key not in KEPT_APART}
    script = f'set -euo pipefail; source "{POSTGRES_SETUP}"; ' \
             'echo "url=${HUZZAH_TEST_POSTGRES_URL:-}"'
    return subprocess.run(["bash", "-c", script], env={**base, **env}, cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


def test_ci_sets_up_postgresql_before_the_readme_test_command():
    lines = (ROOT / ".ci" / "run").read_text().splitlines()
    setup = lines.index("source .ci/postgres")
    assert any("python -m pytest" in line for line in lines[setup + 1:])


def test_ci_fails_when_no_postgresql_server_answers():
    done = setup_postgres(CI="true", PGPORT=NOBODY_LISTENS)
    assert done.returncode == 1
    assert "url=" not in done.stdout  # the tests never ran
    assert ("CI runs the PostgreSQL tests, but no PostgreSQL server answers at 127.0.0.1:1 "
            "(user postgres): start it, or set HUZZAH_TEST_POSTGRES_URL") in done.stderr


def test_elsewhere_without_a_server_the_postgresql_tests_are_skipped_saying_so():
    done = setup_postgres(PGPORT=NOBODY_LISTENS)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "No PostgreSQL server at 127.0.0.1:1: its tests will be skipped", "url="]


def test_a_url_given_is_used_as_it_is_even_on_ci():
    url = "postgresql://bot@db.example:5433/huzzah_ci"
    done = setup_postgres(CI="true", HUZZAH_TEST_POSTGRES_URL=url, PGPORT=NOBODY_LISTENS)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["PostgreSQL tests use HUZZAH_TEST_POSTGRES_URL",
                                        f"url={url}"]
