"""The `huzzah` command line: resolve, run and sync without a token, log redaction."""

from __future__ import annotations

import io
import json
import logging
import subprocess
import sys
from pathlib import Path

from bot.config import load_config
from bot.logs import setup_logging
from bot.resolve_cli import main as resolve_main

ROOT = Path(__file__).resolve().parents[2]


def resolve(request) -> tuple[int, dict]:
    text = request if isinstance(request, str) else json.dumps(request)
    out = io.StringIO()
    status = resolve_main(io.StringIO(text), out)
    return status, json.loads(out.getvalue())


def test_resolve_melee_exact_result():
    status, response = resolve({
        "ruleset": "fire-at-will", "procedure": "melee",
        "attackers": [{"name": "A", "arm": "cavalry", "charging": True}],
        "defenders": [{"name": "D", "arm": "infantry"}],
        "dice": "1 6",
    })
    assert status == 0
    assert response["headline"] == "Defenders win by 1: A retires 3\", −1 SP, shaken"
    assert response["steps"][0]["rolls"][0]["total"] == 5
    assert [e["kind"] for e in response["effects"]] == ["retire", "lose_sp", "shaken"]
    assert response["effects"][1]["amount"] == 1


def test_resolve_seed_makes_random_dice_repeatable():
    request = {"ruleset": "fire-at-will", "procedure": "surrender",
               "unit": {"name": "U", "arm": "infantry", "routing": True}, "situation": "b",
               "seed": 42}
    assert resolve(request) == resolve(request)


def test_resolve_errors_exit_2_with_an_error_object():
    cases = {
        "{": "bad_json",
        '{"ruleset": "napoleon"}': "invalid_input",
        '{"ruleset": "fire-at-will", "procedure": "melee", "attackerz": []}': "invalid_input",
        json.dumps({"ruleset": "fire-at-will", "procedure": "charge",
                    "target": {"name": "T", "arm": "infantry", "morale": 4},
                    "chargers": [{"name": "C", "arm": "infantry", "shaken": True}],
                    "dice": "3"}): "not_allowed",
        json.dumps({"ruleset": "fire-at-will", "procedure": "surrender",
                    "unit": {"name": "T", "arm": "infantry", "routing": True},
                    "situation": "c", "dice": "3 4"}): "too_many_dice",
        json.dumps({"ruleset": "fire-at-will", "procedure": "surrender",
                    "unit": {"name": "T", "arm": "infantry", "routing": True},
                    "situation": "c", "dice": "9"}): "bad_dice_text",
        json.dumps({"ruleset": "fire-at-will", "procedure": "surrender",
                    "unit": {"name": "T", "arm": "infantry", "routing": True},
                    "situation": "c", "dice": ""}): "not_enough_dice",
        "[]": "invalid_input",
    }
    for text, kind in cases.items():
        status, response = resolve(text)
        assert status == 2, text
        assert response["error"]["kind"] == kind, (text, response)
        assert response["error"]["message"]


def clean_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    import os

    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env.update(extra)
    env["HOME"] = str(tmp_path)
    return env


def test_run_without_token_is_one_line_of_advice(tmp_path):
    for command in ("run", "sync"):
        done = subprocess.run([sys.executable, "-m", "bot.cli", command], text=True,
                              capture_output=True, env=clean_env(tmp_path), cwd=tmp_path,
                              timeout=60)
        assert done.returncode == 2
        assert done.stderr.strip().count("\n") == 0
        assert "DISCORD_TOKEN is not set" in done.stderr
        assert "Traceback" not in done.stderr


def test_dotenv_supplies_the_token(tmp_path):
    dotenv = "# comment\nexport DISCORD_TOKEN='abc'\nHUZZAH_LOG_LEVEL=debug\n"
    (tmp_path / ".env").write_text(dotenv)
    config = load_config(env={}, dotenv=tmp_path / ".env")
    assert config.token == "abc" and config.log_level == "DEBUG"
    assert load_config(env={"DISCORD_TOKEN": "env"}, dotenv=tmp_path / ".env").token == "env"


def test_token_never_reaches_the_log(capsys):
    token = "MTIz.secret.TOKEN"
    setup_logging("DEBUG", [token])
    log = logging.getLogger("huzzah.test")
    log.info("logging in with %s", token)
    try:
        raise RuntimeError(f"bad header Authorization: Bot {token}")
    except RuntimeError:
        log.exception("failed")
    err = capsys.readouterr().err
    assert token not in err
    assert err.count("[redacted]") == 2
    logging.getLogger().handlers.clear()


def test_db_upgrade_downgrade_and_current(tmp_path):
    import os

    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'cli.db'}"}

    def db(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "bot.cli", "db", *args], text=True,
                              capture_output=True, env=env, cwd=ROOT, timeout=120)

    assert db("current").stdout.strip() == "database at revision base"
    up = db("upgrade")
    assert up.returncode == 0, up.stderr
    assert up.stdout.strip() == "database at revision 0001"
    refused = db("downgrade")
    assert refused.returncode == 2 and "say which revision" in refused.stderr
    down = db("downgrade", "base")
    assert down.returncode == 0 and down.stdout.strip() == "database at revision base"
