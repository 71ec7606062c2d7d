"""The `huzzah` command line: resolve, run and sync without a token, log redaction."""

from __future__ import annotations

import io
import json
import logging
import subprocess
import sys
from pathlib import Path
from typing import ClassVar

import pytest

from bot.config import load_config
from bot.logs import setup_logging
from bot.resolve_cli import main as resolve_main

from .command_line import run_main

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


def test_resolve_reads_a_chart_pack_from_a_file(tmp_path):
    request = {"ruleset": "labataille", "procedure": "assault",
               "attackers": [{"name": "A", "morale": 34, "melee": 20}],
               "defenders": [{"name": "D", "morale": 34, "melee": 10}],
               "files": {"charts": str(ROOT / "tests/rules/labataille/pack.json")},
               "dice": "45 45 1 41"}
    status, response = resolve(request)
    assert status == 0, response
    assert response["headline"] == "DR1: D routs"
    missing = {**request, "files": {"charts": str(tmp_path / "none.json")}}
    status, response = resolve(missing)
    assert status == 2
    assert response["error"]["message"].startswith("`files`: cannot read")
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    status, response = resolve({**request, "files": {"charts": str(broken)}})
    assert "is not valid JSON" in response["error"]["message"]


def test_resolve_seed_makes_random_dice_repeatable():
    def rolled(seed: int) -> tuple[str, list]:
        status, response = resolve({
            "ruleset": "fire-at-will", "procedure": "surrender",
            "unit": {"name": "U", "arm": "infantry", "routing": True}, "situation": "b",
            "seed": seed})
        assert status == 0, response
        return response["headline"], [roll["dice"] for step in response["steps"]
                                      for roll in step["rolls"]]

    # The seed decides the dice: the same each time, another with another seed.
    assert rolled(42) == rolled(42) == ("U surrenders", [[6]])
    assert rolled(7) == ("U routs again, −1 SP", [[3]])


@pytest.mark.parametrize(("charger", "said"), [(None, "`null`"), ([1], "a list"),
                                               ("C", "a string"), (True, "`true`")])
def test_a_value_that_is_no_object_is_named_in_jsons_words(charger, said):
    status, response = resolve({"ruleset": "fire-at-will", "procedure": "charge",
                                "target": {"name": "T", "arm": "infantry", "morale": 4},
                                "chargers": [charger], "dice": "3"})
    assert status == 2
    assert response["error"]["message"] == f"chargers[0] must be a JSON object, not {said}."


LE_BATON_FIRE = {"ruleset": "le-baton", "procedure": "fire", "target": "Ligne",
                 "shooter": {"name": "52nd", "nation": "british", "arm": "infantry",
                             "figures": 8}, "target_type": "line", "dice": "1 2 3 4"}


@pytest.mark.parametrize(("request_", "said"), [
    ({"ruleset": "le-baton", "procedure": "morale", "dice": "3",
      "unit": {"name": "A", "nation": "french", "arm": "infantry"}, "phase": 14},
     "`phase` cannot be 14. It must be at most 13."),
    (LE_BATON_FIRE | {"distance": -5}, "`distance` cannot be -5. It must be at least 0."),
    (LE_BATON_FIRE | {"target_type": "wedge"}, "`wedge` is not a valid target type. Use one "
     "of: column, square, enfiladed-line, line, artillery, skirmishers, defensive-terrain, "
     "charging-cavalry."),
    ({"ruleset": "fire-at-will", "procedure": "charge", "cover": "", "dice": "3",
      "target": {"name": "T", "arm": "infantry", "morale": 4},
      "chargers": [{"name": "C", "arm": "cavalry"}]},
     "`cover` needs a value. Use one of: none, obstacle, building, fortification."),
])
def test_a_commands_own_option_refused_is_named_once(request_, said):
    """An option of the command itself is all the player gave: its refusal names it once,
    not as its place too (phase: `phase` cannot be 14)."""
    status, response = resolve(request_)
    assert status == 2
    assert response["error"]["message"] == said


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
        '{"ruleset": "fire-at-will", "strength": ' + "9" * 5000 + "}": "bad_json",
        # Text no answer could quote, and nesting too deep to read or to walk.
        json.dumps({"ruleset": "tricorne", "procedure": "melee",
                    "attacker": {"name": "Barrell\ud800", "type": "regular"},
                    "defender": {"name": "B", "type": "regular"}}): "invalid_input",
        "[" * 100_000 + "]" * 100_000: "bad_json",
        # A narrower error reports the documented kind it is one of.
        json.dumps({"ruleset": "fire-at-will", "procedure": "charge",
                    "target": {"name": "Hussars", "arm": "cavalry", "morale": 4},
                    "chargers": [{"name": "Rangers", "arm": "infantry", "order": "open"}],
                    "dice": "1", "answers": {"counter_charge": "Nobody"}}): "invalid_input",
    }
    for text, kind in cases.items():
        status, response = resolve(text)
        assert status == 2, text
        assert response["error"]["kind"] == kind, (text, response)
        assert response["error"]["message"]
    # Deep enough to be read, or not, as the interpreter's stack allows: refused either way.
    deep = ('{"ruleset": "tricorne", "procedure": "melee", "attacker": ' + "[" * 990
            + "]" * 990 + "}")
    status, response = resolve(deep)
    assert status == 2 and "nests lists or objects too deeply" in response["error"]["message"]


def huzzah(monkeypatch, capsys, tmp_path: Path, *args: str, cwd: Path | None = None,
           **extra: str | None) -> subprocess.CompletedProcess:
    """``huzzah ARGS`` in ``cwd`` (default ``tmp_path``) with ``clean_env``'s variables."""
    return run_main(monkeypatch, capsys, *args, cwd=cwd or tmp_path,
                    env={"DISCORD_TOKEN": None, **extra, "HOME": str(tmp_path)})


def clean_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    import os

    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env.update(extra)
    env["HOME"] = str(tmp_path)
    return env


def test_run_without_token_is_one_line_of_advice(monkeypatch, capsys, tmp_path):
    for command in ("run", "sync"):
        done = huzzah(monkeypatch, capsys, tmp_path, command)
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


def head_revision() -> str:
    """The newest migration, whichever it is as migrations are added."""
    from alembic.script import ScriptDirectory

    from bot.storage.migrate import alembic_config

    return ScriptDirectory.from_config(alembic_config("sqlite://")).get_current_head()


def test_db_upgrade_downgrade_and_current(monkeypatch, capsys, tmp_path):
    def db(*args: str) -> subprocess.CompletedProcess:
        return run_main(monkeypatch, capsys, "db", *args, cwd=ROOT,
                        env={"DATABASE_URL": f"sqlite:///{tmp_path / 'cli.db'}"})

    assert "no database to read" in db("current").stderr  # no file yet: none is made
    up = db("upgrade")
    assert up.returncode == 0, up.stderr
    assert up.stdout.strip() == f"database at revision {head_revision()}"
    refused = db("downgrade")
    assert refused.returncode == 2 and "say which revision" in refused.stderr
    down = db("downgrade", "base")
    assert down.returncode == 0 and down.stdout.strip() == "database at revision base"


class FakeDiscordHTTP:
    """Stands in for ``HTTPClient.request``: answers log-in, records every other request."""

    BOT: ClassVar[dict] = {"id": "4242", "username": "Huzzah", "discriminator": "0", "avatar": None,
           "bot": True}
    APPLICATION: ClassVar[dict] = {"id": "4242", "name": "Huzzah", "description": "", "icon": None,
                   "bot_public": True, "bot_require_code_grant": False, "verify_key": "0" * 64,
                   "owner": BOT}

    def __init__(self) -> None:
        self.calls: list[tuple[str, str, object]] = []

    async def request(self, route, **kwargs):
        body = kwargs.get("json")
        self.calls.append((route.method, route.url.removeprefix(route.BASE), body))
        if route.path == "/users/@me":
            return self.BOT
        if route.path == "/oauth2/applications/@me":
            return self.APPLICATION
        if route.method == "PUT":  # Discord answers a bulk overwrite with the commands it kept
            return [{**command, "id": str(9000 + i), "application_id": "4242", "version": "1"}
                    for i, command in enumerate(body or [])]
        raise AssertionError(f"unexpected request {route.method} {route.path}")

    def puts(self) -> list[tuple[str, object]]:
        return [(path, body) for method, path, body in self.calls if method == "PUT"]


def run_sync(monkeypatch, tmp_path, *args: str) -> tuple[int, FakeDiscordHTTP]:
    import discord

    from bot.cli import main

    fake = FakeDiscordHTTP()
    monkeypatch.setattr(discord.http.HTTPClient, "request",
                        lambda self, route, **kw: fake.request(route, **kw))
    monkeypatch.setenv("DISCORD_TOKEN", "offline.token.value")
    monkeypatch.chdir(tmp_path)
    try:
        status = main(["sync", *args])
    finally:
        logging.getLogger().handlers.clear()
    return status, fake


def test_sync_clear_overwrites_the_guild_commands_with_nothing(monkeypatch, tmp_path, capsys):
    status, fake = run_sync(monkeypatch, tmp_path, "--guild", "777", "--clear")
    assert status == 0
    assert fake.puts() == [("/applications/4242/guilds/777/commands", [])]
    assert "Removed the commands synced to guild 777" in capsys.readouterr().out


def test_sync_to_a_guild_still_sends_every_command(monkeypatch, tmp_path, capsys):
    status, fake = run_sync(monkeypatch, tmp_path, "--guild", "777")
    assert status == 0
    [(path, body)] = fake.puts()
    assert path == "/applications/4242/guilds/777/commands"
    names = {command["name"] for command in body}
    assert {"melee", "battle", "gm", "help"} <= names
    assert f"Synced {len(body)} commands to guild 777" in capsys.readouterr().out


def test_sync_clear_without_a_guild_is_refused_before_logging_in(monkeypatch, tmp_path, capsys):
    status, fake = run_sync(monkeypatch, tmp_path, "--clear")
    assert status == 2
    assert fake.calls == []
    assert "--clear removes one server's commands: give it with --guild ID" in \
        capsys.readouterr().err


def test_resolve_and_help_import_neither_discord_nor_the_database_layer():
    probe = ("import sys, io; from bot.cli import main; sys.stdin = io.StringIO('[]'); "
             "main(['resolve']); print(sorted(m for m in ('discord', 'sqlalchemy', 'alembic') "
             "if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=60)
    assert done.stdout.strip().splitlines()[-1] == "[]", done.stdout + done.stderr


COUNTER_CHARGE = {
    "ruleset": "fire-at-will", "procedure": "charge",
    "target": {"name": "Hussars", "arm": "cavalry", "morale": 4},
    "chargers": [{"name": "Rangers", "arm": "infantry", "order": "open"}],
    "dice": "1",
}


def test_resolve_stops_at_an_unanswered_question_and_says_what_to_add():
    status, response = resolve(COUNTER_CHARGE)
    assert status == 2
    error = response["error"]
    assert error["kind"] == "undecided"
    assert error["question"]["key"] == "counter_charge"
    assert [a["key"] for a in error["question"]["answers"]] == ["Rangers", "stand"]
    assert "`answers`" in error["message"]


def test_resolve_plays_on_with_the_answers_given():
    status, response = resolve({**COUNTER_CHARGE, "answers": {"counter_charge": "Rangers"}})
    assert status == 0, response
    assert response["headline"] == "Hussars counter-charges Rangers"
    assert response["effects"][0] == {
        "kind": "counter_charge", "unit": "Hussars", "amount": None,
        "detail": "fire-at-will-charging.txt: charge test", "value": "Rangers",
        "text": "Hussars counter-charges Rangers, meeting it halfway"}
    status, response = resolve({**COUNTER_CHARGE, "answers": ["stand"]})
    assert (status, response["effects"]) == (0, [])


def test_a_database_that_cannot_be_used_is_one_line_of_advice_everywhere(monkeypatch, capsys,
                                                                        tmp_path):
    not_a_database = tmp_path / "notes.db"
    not_a_database.write_text("these are my notes, not a database\n")
    for command in (["console", "--database", "foo://x"],
                    ["console", "--database", str(not_a_database)],
                    ["battle", "export", "--channel", "1", "--database", "foo://x"]):
        done = subprocess.run([sys.executable, "-m", "bot.cli", *command], input="/help\n",
                              text=True, capture_output=True, env=clean_env(tmp_path),
                              cwd=tmp_path, timeout=60)
        assert done.returncode == 2, command
        assert done.stderr.strip().count("\n") == 0, done.stderr
        assert "Check --database or DATABASE_URL." in done.stderr
        assert "Traceback" not in done.stderr
    done = huzzah(monkeypatch, capsys, tmp_path, "db", "current", DATABASE_URL="foo://x")
    assert done.returncode == 2
    assert done.stderr.strip() == ("huzzah: cannot use DATABASE_URL (ValueError: unsupported "
                                   "database 'foo': use SQLite or PostgreSQL).")


def test_a_database_server_not_reached_at_start_is_worth_a_restart(monkeypatch, capsys,
                                                                   tmp_path):
    """A PostgreSQL still starting after a reboot: exit 1, which the service unit restarts
    (it does not restart on 2, a setting to fix)."""
    port = 1  # tcpmux: reserved, and nothing here listens on it
    done = huzzah(monkeypatch, capsys, tmp_path, "run", DISCORD_TOKEN="abc.def.ghi",
                  DATABASE_URL=f"postgresql://u:s3cret@127.0.0.1:{port}/x")
    assert done.returncode == 1, done.stderr
    assert done.stderr.startswith(f"huzzah: the database server at postgresql://u:***@127.0.0.1:"
                                  f"{port}/x could not be reached ("), \
        done.stderr
    assert done.stderr.strip().count("\n") == 0 and "s3cret" not in done.stderr
    unit = (Path(__file__).parents[2] / "deploy" / "huzzah.service").read_text()
    assert "RestartPreventExitStatus=2" in unit and "Restart=on-failure" in unit


def test_the_database_named_in_dotenv_is_the_one_every_command_opens(monkeypatch, capsys,
                                                                     tmp_path):
    # deploy/huzzah.env.example names it there: no command may open another, empty one.
    where = tmp_path / "data"
    (tmp_path / ".env").write_text(f"DATABASE_URL=sqlite:///{where / 'huzzah.db'}\n")
    for command in (["db", "upgrade"], ["db", "current"]):
        done = huzzah(monkeypatch, capsys, tmp_path, *command, DATABASE_URL=None)
        assert done.returncode == 0, done.stderr
    assert (where / "huzzah.db").is_file()
    assert not (tmp_path / "huzzah.db").exists()
    exported = huzzah(monkeypatch, capsys, tmp_path, "battle", "export", "--channel", "1",
                      DATABASE_URL=None)
    assert f"channel 1 of {where / 'huzzah.db'}" in exported.stderr


def test_resolve_says_which_answers_no_question_took():
    status, response = resolve(json.dumps({
        "ruleset": "fire-at-will", "procedure": "charge",
        "target": {"name": "Hussars", "arm": "cavalry", "morale": 4},
        "chargers": [{"name": "Rangers", "arm": "infantry", "order": "open"}], "dice": "1",
        "answers": {"counter_charge": "stand", "counter_chrage": "Rangers"}}))
    assert status == 0
    assert response["unused"] == ["counter_chrage=Rangers"]


def test_db_current_of_a_file_that_is_not_there_says_so_and_creates_nothing(monkeypatch, capsys,
                                                                            tmp_path):
    missing = tmp_path / "typo" / "huzzah.db"
    done = huzzah(monkeypatch, capsys, tmp_path, "db", "current",
                  DATABASE_URL=f"sqlite:///{missing}")
    assert done.returncode == 2
    assert f"no database to read: {missing} does not exist" in done.stderr
    assert not missing.parent.exists()


def test_db_downgrade_of_a_file_that_is_not_there_says_so_and_creates_nothing(monkeypatch,
                                                                              capsys, tmp_path):
    missing = tmp_path / "typo" / "huzzah.db"
    done = huzzah(monkeypatch, capsys, tmp_path, "db", "downgrade", "base",
                  DATABASE_URL=f"sqlite:///{missing}")
    assert done.returncode == 2
    assert done.stderr.strip() == (f"huzzah: no database to read: {missing} does not exist. "
                                   "Check DATABASE_URL.")
    assert not missing.parent.exists()


def test_a_file_that_is_no_database_is_one_line_naming_why_everywhere(monkeypatch, capsys,
                                                                      tmp_path):
    notes = tmp_path / "notes.db"
    notes.write_text("these are my notes, not a database\n")
    env = {"DATABASE_URL": f"sqlite:///{notes}", "DISCORD_TOKEN": "a.b.c"}
    for command in (["db", "current"], ["db", "upgrade"], ["run"],
                    ["battle", "export", "--channel", "1"]):
        done = huzzah(monkeypatch, capsys, tmp_path, *command, **env)
        assert done.returncode == 2, command
        assert done.stderr.strip().count("\n") == 0, done.stderr
        assert "(DatabaseError: file is not a database)" in done.stderr, done.stderr
        assert "sqlalche.me" not in done.stderr
    # Which database, as every other command names it.
    done = huzzah(monkeypatch, capsys, tmp_path, "db", "current", **env)
    assert done.stderr.strip() == (f"huzzah: current failed on the database {notes} "
                                   "(DatabaseError: file is not a database). Check "
                                   "DATABASE_URL.")


def test_the_reason_a_database_failed_is_one_line_without_its_password():
    from sqlalchemy.exc import DBAPIError

    from bot.cli import database_problem

    refused = DBAPIError("SELECT 1", {}, Exception('database "huzzah" does not exist'))
    assert database_problem(refused) == 'DBAPIError: database "huzzah" does not exist'
    said = database_problem(OSError("cannot reach postgresql://huzzah:s3cret@db/huzzah"),
                            "postgresql+asyncpg://huzzah:s3cret@db/huzzah")
    assert said == "OSError: cannot reach postgresql://huzzah:***@db/huzzah"


def test_a_byte_order_mark_at_the_top_of_dotenv_is_not_part_of_the_first_name(tmp_path):
    # Windows editors save .env with one; the token on its first line must still be read.
    (tmp_path / ".env").write_bytes(b"\xef\xbb\xbfDISCORD_TOKEN=abc\r\nHUZZAH_LOG_LEVEL=debug\r\n")
    config = load_config(env={}, dotenv=tmp_path / ".env")
    assert (config.token, config.log_level) == ("abc", "DEBUG")


def test_dotenv_reads_a_comment_after_a_value_as_compose_does(tmp_path):
    (tmp_path / ".env").write_text(
        "DISCORD_TOKEN=MTIz.abc.def  # the bot's token\n"
        "DATABASE_URL=postgresql://u:pa#ss@db/huzzah\n"
        "HUZZAH_LOG_LEVEL='debug' # quoted, then a comment\n"
        "HUZZAH_METRICS= # none yet\n")
    config = load_config(env={}, dotenv=tmp_path / ".env")
    assert (config.token, config.database_url, config.log_level) == (
        "MTIz.abc.def", "postgresql://u:pa#ss@db/huzzah", "DEBUG")
    from bot.config import read_dotenv

    assert read_dotenv(tmp_path / ".env")["HUZZAH_METRICS"] == ""


def test_a_working_directory_the_bot_may_not_look_into_has_no_dotenv(tmp_path, monkeypatch):
    """`runuser -u huzzah -- … huzzah sync` from root's home: the environment's token is read,
    with no traceback for the .env the service user may not look for."""
    dotenv = tmp_path / ".env"
    stat = Path.stat

    def denied(self: Path, *args, **kwargs):
        if self == dotenv:
            raise PermissionError(13, "Permission denied", str(self))
        return stat(self, *args, **kwargs)

    monkeypatch.setattr(Path, "stat", denied)
    assert load_config(env={"DISCORD_TOKEN": "abc"}, dotenv=dotenv).token == "abc"


def test_a_dotenv_the_bot_may_not_read_is_one_line_of_advice(tmp_path, monkeypatch, capsys):
    from bot import cli

    dotenv = tmp_path / ".env"
    dotenv.write_text("DISCORD_TOKEN=abc\n")
    read_text = Path.read_text

    def denied(self: Path, *args, **kwargs):
        if self == dotenv:
            raise PermissionError(13, "Permission denied", str(self))
        return read_text(self, *args, **kwargs)

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(Path, "read_text", denied)
    assert cli.main(["sync"]) == 2
    assert capsys.readouterr().err == (
        f"huzzah: cannot read {dotenv} (Permission denied). Make it readable by the user the "
        "bot runs as, or move it away: variables set in the environment need no .env.\n")
    monkeypatch.undo()
    dotenv.write_bytes("DISCORD_TOKEN=abc\n".encode("utf-16"))
    monkeypatch.chdir(tmp_path)
    assert cli.main(["sync"]) == 2
    assert capsys.readouterr().err == (
        f"huzzah: cannot read {dotenv}: it is not UTF-8 text. Save it as UTF-8 (an editor may "
        "have saved it as UTF-16).\n")


def test_a_log_level_that_is_none_says_so_and_logs_at_info(capsys):
    try:
        setup_logging("LOUD")
        assert logging.getLogger().level == logging.INFO
    finally:
        logging.getLogger().handlers.clear()
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.rstrip().endswith("HUZZAH_LOG_LEVEL=LOUD is not a level: give DEBUG, INFO, "
                                 "WARNING or ERROR. Logging at INFO.")


class DiscordDown:
    """A ``HTTPClient.request`` that Discord answers with an error status."""

    def __init__(self, status: int, reason: str) -> None:
        self.status, self.reason = status, reason
        self.calls = 0

    async def request(self, route, **kwargs):
        from types import SimpleNamespace

        import discord

        self.calls += 1
        response = SimpleNamespace(status=self.status, reason=self.reason)
        raise discord.DiscordServerError(response, {"message": self.reason, "code": 0})


def main_against(monkeypatch, tmp_path, down: DiscordDown, command: list[str],
                 database_url: str | None = None) -> int:
    """``huzzah COMMAND`` in this process, with Discord answering as ``down`` does."""
    import discord

    from bot.cli import main

    monkeypatch.setattr(discord.http.HTTPClient, "request",
                        lambda self, route, **kw: down.request(route, **kw))
    monkeypatch.setenv("DISCORD_TOKEN", "offline.token.value")
    monkeypatch.setenv("DATABASE_URL", database_url or f"sqlite:///{tmp_path / 'bot.db'}")
    monkeypatch.chdir(tmp_path)
    try:
        return main(command)
    finally:
        logging.getLogger().handlers.clear()


@pytest.mark.parametrize("command", [["run"], ["sync"], ["sync", "--guild", "777"]])
def test_discord_answering_with_an_error_is_one_line_and_worth_a_retry(
        monkeypatch, tmp_path, capsys, command):
    down = DiscordDown(503, "Service Unavailable")
    status = main_against(monkeypatch, tmp_path, down, command)
    assert (status, down.calls) == (1, 1)
    assert capsys.readouterr().err.splitlines()[-1] == (
        "huzzah: Discord answered 503 Service Unavailable. It is Discord's side: try again "
        "in a few minutes.")


@pytest.mark.parametrize(("token", "what"), [("MTIz.abc\n.def", "a line break"),
                                             ("Bot MTIz.abc.def", "a space"),
                                             ("MTIz.abc.def  # the bot's", "a space")])
def test_a_token_that_cannot_be_one_is_refused_before_reaching_discord(
        monkeypatch, tmp_path, capsys, token, what):
    import discord

    from bot.cli import main

    down = DiscordDown(401, "Unauthorized")
    monkeypatch.setattr(discord.http.HTTPClient, "request",
                        lambda self, route, **kw: down.request(route, **kw))
    monkeypatch.setenv("DISCORD_TOKEN", token)
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'bot.db'}")
    monkeypatch.chdir(tmp_path)
    for command in (["run"], ["sync"]):
        try:
            status = main(command)
        finally:
            logging.getLogger().handlers.clear()
        err = capsys.readouterr().err
        assert (status, down.calls) == (2, 0), command
        assert err == (f"huzzah: DISCORD_TOKEN holds {what}: a token is one word. Copy it "
                       "again from the Developer Portal (Bot > Reset Token), alone, without "
                       "\"Bot \" or a comment, and set DISCORD_TOKEN again.\n")
        assert "abc" not in err
    assert list(tmp_path.iterdir()) == []


def test_a_database_in_memory_is_said_to_lose_every_battle(monkeypatch, tmp_path, capsys):
    """`sqlite://` runs, but keeps nothing past a restart: an operator is told so."""
    main_against(monkeypatch, tmp_path, DiscordDown(503, "Service Unavailable"), ["run"],
                 "sqlite://")
    assert ("WARNING huzzah: DATABASE_URL names a SQLite database in memory: every battle is "
            "lost when the bot stops.") in capsys.readouterr().err


@pytest.mark.parametrize(("given", "said"), [
    ("abc", "'abc' is not a server id (a number; Discord shows it with Developer Mode, Copy "
            "Server ID)"),
    ("-5", "-5 is not a server id")])
def test_sync_takes_a_server_id_only(monkeypatch, capsys, tmp_path, given, said):
    done = huzzah(monkeypatch, capsys, tmp_path, "sync", "--guild", given)
    assert done.returncode == 2
    assert done.stderr.strip().endswith(f"argument --guild: {said}"), done.stderr


def test_only_a_database_server_not_reached_or_not_ready_is_worth_a_restart():
    """A SQLite folder that cannot be made is a setting to fix (exit 2); a server refusing
    connections, or answering that it is starting up (57P03), is worth a restart."""
    from bot.cli import unreachable

    class StartingUp(Exception):
        sqlstate = "57P03"

    class WrongPassword(Exception):
        sqlstate = "28P01"

    assert not unreachable(NotADirectoryError(20, "Not a directory"), "sqlite:////etc/x/h.db")
    assert not unreachable(ConnectionRefusedError(111, "refused"), "sqlite:///h.db")
    url = "postgresql://u@db/huzzah"
    assert unreachable(ConnectionRefusedError(111, "refused"), url)
    assert unreachable(StartingUp("the database system is starting up"), url)
    assert not unreachable(WrongPassword("password authentication failed"), url)
    assert not unreachable(FileNotFoundError(2, "No such file"), url)


@pytest.mark.parametrize(("status", "reason", "exit_status"), [
    (503, "Service Unavailable", 1), (429, "Too Many Requests", 1), (400, "Bad Request", 2)])
def test_discord_refusing_a_request_is_not_worth_a_restart(monkeypatch, tmp_path, capsys,
                                                           status, reason, exit_status):
    down = DiscordDown(status, reason)
    assert main_against(monkeypatch, tmp_path, down, ["run"]) == exit_status
    assert capsys.readouterr().err.splitlines()[-1].startswith(
        f"huzzah: Discord answered {status} {reason}.")


def test_a_database_the_console_cannot_use_is_named_without_its_password(tmp_path):
    for given in ("postgresql+psycopg2://huzzah:s3cret@db/huzzah", "mysql://huzzah:s3cret@db/x",
                  "postgresql://huzzah:s3cret@db:notaport/huzzah"):
        done = subprocess.run([sys.executable, "-m", "bot.cli", "console", "--database", given],
                              input="/help\n", text=True, capture_output=True,
                              env=clean_env(tmp_path), cwd=tmp_path, timeout=60)
        assert done.returncode == 2, given
        assert "s3cret" not in done.stderr, done.stderr
        assert done.stderr.startswith("huzzah: cannot open the database "), done.stderr


def test_masking_the_password_leaves_the_words_around_it_whole():
    from sqlalchemy.exc import DBAPIError

    from bot.cli import database_problem

    # A password that is also the database's name, or part of a word, hides nothing the
    # URL does not show: the reason stays readable.
    missing = DBAPIError("SELECT 1", {}, Exception('database "huzzah" does not exist'))
    assert database_problem(missing, "postgresql://huzzah:huzzah@db/huzzah") == \
        'DBAPIError: database "huzzah" does not exist'
    unsupported = ValueError("unsupported database 'mysql': use SQLite or PostgreSQL")
    assert database_problem(unsupported, "mysql://a:b@h/x") == \
        "ValueError: unsupported database 'mysql': use SQLite or PostgreSQL"
    leaked = OSError("cannot reach postgresql://huzzah:huzzah@db/huzzah")
    assert database_problem(leaked, "postgresql://huzzah:huzzah@db/huzzah") == \
        "OSError: cannot reach postgresql://huzzah:***@db/huzzah"


def test_run_names_the_database_it_could_not_prepare(monkeypatch, capsys, tmp_path):
    notes = tmp_path / "notes.db"
    notes.write_text("these are my notes, not a database\n")
    done = huzzah(monkeypatch, capsys, tmp_path, "run", DISCORD_TOKEN="a.b.c",
                  DATABASE_URL=f"sqlite:///{notes}")
    assert done.returncode == 2
    assert done.stderr.strip() == (f"huzzah: cannot prepare the database {notes} (DatabaseError: "
                                   "file is not a database). Check DATABASE_URL.")
    done = huzzah(monkeypatch, capsys, tmp_path, "run", DISCORD_TOKEN="a.b.c",
                  DATABASE_URL="postgresql://u:s3cret@no-such-host.invalid/x")
    assert done.returncode == 1
    assert done.stderr.startswith("huzzah: the database server at "
                                  "postgresql://u:***@no-such-host.invalid/x could not be "
                                  "reached ("), done.stderr


def test_a_disk_that_takes_no_write_at_start_says_to_free_space(tmp_path):
    """SQLite says "disk I/O error" when it cannot grow its files (a full disk, here a file
    size limit): the operator is told to free space, not to check DATABASE_URL."""
    import resource
    import signal

    def no_room() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails instead
        resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))

    database = tmp_path / "data" / "huzzah.db"
    done = subprocess.run([sys.executable, "-m", "bot.cli", "run"], text=True,
                          capture_output=True, cwd=tmp_path, timeout=60, preexec_fn=no_room,
                          env=clean_env(tmp_path, DISCORD_TOKEN="a.b.c",
                                        DATABASE_URL=f"sqlite:///{database}"))
    assert done.returncode == 2
    assert done.stderr.strip() == (
        f"huzzah: cannot write the database {database} (OperationalError: disk I/O error): "
        f"its disk may be full. Free space on it (df -h {database.parent}) and start the bot "
        "again.")


@pytest.mark.parametrize("command, again", [
    (["db", "upgrade"], "run `huzzah db upgrade` again"),
    (["battle", "export", "--channel", "100"], "run `huzzah battle export` again"),
    (["battle", "import", "--channel", "100", "backup.json"], "run `huzzah battle import` again"),
])
def test_every_command_says_a_disk_that_takes_no_write_may_be_full(monkeypatch, capsys, tmp_path,
                                                                   command, again):
    """The same advice as `huzzah run` gives, on a database that exists (reading it writes its
    ``-shm`` file beside it), whichever command meets the full disk."""
    import resource
    import signal

    def no_room() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))

    database = tmp_path / "data" / "huzzah.db"
    env = clean_env(tmp_path, DATABASE_URL=f"sqlite:///{database}")
    made = huzzah(monkeypatch, capsys, tmp_path, "db", "upgrade",
                  DATABASE_URL=f"sqlite:///{database}")
    assert made.returncode == 0, made.stderr
    (tmp_path / "backup.json").write_text("{}")
    done = subprocess.run([sys.executable, "-m", "bot.cli", *command], text=True,
                          capture_output=True, cwd=tmp_path, timeout=60, preexec_fn=no_room,
                          env=env)
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == (
        f"huzzah: cannot write the database {database} (OperationalError: disk I/O error): "
        f"its disk may be full. Free space on it (df -h {database.parent}) and {again}.")


def test_a_full_disk_is_said_to_be_full():
    import sqlite3

    from sqlalchemy.exc import OperationalError

    from bot.storage.database import disk_trouble

    full = sqlite3.OperationalError("database or disk is full")
    full.sqlite_errorcode = sqlite3.SQLITE_FULL  # type: ignore[attr-defined]
    assert disk_trouble(OperationalError("COMMIT", {}, full)) == "its disk is full"
    assert disk_trouble(OperationalError("SELECT", {}, sqlite3.OperationalError("no such table"))) \
        is None


def test_a_second_bot_on_one_sqlite_file_is_refused_until_the_first_is_gone(monkeypatch, capsys,
                                                                           tmp_path):
    """Two bots on one file would both answer every command. The first holds a lock the
    system drops when it ends, killed or not: nothing stale stops the next start."""
    import os
    import signal

    from bot.storage.database import hold_sqlite_file

    database = tmp_path / "huzzah.db"
    url = f"sqlite:///{database}"
    first = subprocess.Popen(
        [sys.executable, "-c", "import sys; from bot.storage.database import hold_sqlite_file; "
         f"claim = hold_sqlite_file({url!r}); print('running', flush=True); sys.stdin.read()"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert first.stdout.readline() == "running\n"
        done = huzzah(monkeypatch, capsys, tmp_path, "run", DISCORD_TOKEN="a.b.c",
                      DATABASE_URL=url)
        assert done.returncode == 2
        assert done.stderr.splitlines()[-1] == (
            f"huzzah: another bot (process {first.pid}) already runs on {database}: two would "
            "answer every command twice. Stop it first; bot processes that share a database "
            "need PostgreSQL.")
    finally:
        os.kill(first.pid, signal.SIGKILL)
        first.wait(timeout=60)
    claim = hold_sqlite_file(url)  # the killed one's lock is gone with it
    # This process may open its own file twice.
    again = hold_sqlite_file(url)
    assert claim is not None and again is not None
    claim.close()
    again.close()


def test_a_database_a_newer_version_upgraded_says_to_install_that_version(monkeypatch, capsys,
                                                                          tmp_path):
    """Going back to an older release without bringing the schema down first."""
    import sqlite3

    from bot.storage.migrate import head_revision

    database = tmp_path / "huzzah.db"
    env = {"DATABASE_URL": f"sqlite:///{database}", "DISCORD_TOKEN": "a.b.c"}
    made = huzzah(monkeypatch, capsys, tmp_path, "db", "upgrade", **env)
    assert made.returncode == 0, made.stderr
    with sqlite3.connect(database) as connection:
        connection.execute("UPDATE alembic_version SET version_num = '9999'")
    connection.close()
    for command in (["run"], ["db", "upgrade"], ["battle", "export", "--channel", "1"]):
        done = huzzah(monkeypatch, capsys, tmp_path, *command, **env)
        assert done.returncode == 2, command
        assert done.stderr.splitlines()[-1] == (
            f"huzzah: the database {database} is at revision 9999, which a newer version of "
            f"Huzzah made (this one knows up to {head_revision()}). Install that version "
            f"again, or downgrade with it first: `huzzah db downgrade {head_revision()}`.")
