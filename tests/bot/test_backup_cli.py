"""An operator's backups: `huzzah battle export` and `huzzah battle import` on DATABASE_URL,
and `/battle import` in the console with the file's path, all through the same service."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from .command_line import run_main
from .test_backups import compared
from .test_console import ROOT, console

SETUP = [
    '/battle start ruleset:skirmish name:"Example Ridge"',
    '/unit add side:British name:Rangers words:"morale=7" strength:4',
    '/unit add side:French name:Voltigeurs words:"morale=6 stands=3"',
    '/melee skirmish attacker:Rangers defender:Voltigeurs dice:"5 4 1 2 6 3 2 4 5"',
]


@pytest.fixture
def huzzah(monkeypatch, capsys):
    """``huzzah ARGS`` with DATABASE_URL naming ``database`` (None: unset)."""
    def run(*args: str, database: Path | None,
            cwd: Path = ROOT) -> subprocess.CompletedProcess:
        url = None if database is None else f"sqlite+aiosqlite:///{database}"
        return run_main(monkeypatch, capsys, *args, cwd=cwd,
                        env={"HUZZAH_EXAMPLES": "1", "DISCORD_TOKEN": None, "DATABASE_URL": url})
    return run


def last_line(done: subprocess.CompletedProcess) -> str:
    """What the command said last on standard error (the migration's log comes first)."""
    return done.stderr.splitlines()[-1]


def test_an_operator_backs_a_battle_up_and_restores_it_in_another_channel(huzzah, tmp_path):
    database = tmp_path / "bot.db"
    played = console(*SETUP, args=("--user", "2000"), database=database)
    assert played.returncode == 0 and "❓ Fall back or test" in played.stdout, played.stdout

    backup = tmp_path / "ridge.json"
    done = huzzah("battle", "export", "--channel", "100", "--output", str(backup),
                  database=database)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"huzzah: exported Example Ridge: 4 events from channel 100 of " \
                          f"{database} to {backup}\n"
    data = json.loads(backup.read_text())
    assert data["battle"]["pending"]["question"]["key"] == "fall_back"

    done = huzzah("battle", "import", "--channel", "200", str(backup), database=database)
    assert done.returncode == 0, done.stderr
    assert done.stdout == (f"huzzah: restored Example Ridge in channel 200 of {database}: "
                           "2 units, 0 generals, 4 events, waiting for an answer\n")
    to_stdout = huzzah("battle", "export", "--channel", "200", database=database)
    assert to_stdout.returncode == 0, to_stdout.stderr
    moved = json.loads(to_stdout.stdout)
    assert compared(moved) == compared(data)
    # The battle keeps its GM: he answers in the new channel, and undoes there.
    answered = console("/answer choice:test", "/gm undo", "/gm undo",
                       args=("--user", "2000", "--channel", "200"), database=database)
    assert answered.returncode == 0, answered.stderr
    assert "Voltigeurs break test" in answered.stdout
    assert "Undid #5" in answered.stdout and "Undid #4" in answered.stdout

    again = huzzah("battle", "import", "--channel", "200", str(backup), database=database)
    assert again.returncode == 2 and again.stdout == ""
    assert last_line(again).startswith(f"huzzah: channel 200 of {database}: This channel "
                                       "already has a battle: Example Ridge.")


def test_the_console_imports_a_file_by_its_path(huzzah, tmp_path):
    database = tmp_path / "bot.db"
    console(*SETUP, args=("--user", "2000"), database=database)
    backup = tmp_path / "ridge.json"
    assert huzzah("battle", "export", "--channel", "100", "-o", str(backup),
                  database=database).returncode == 0
    done = console(f"/battle import file:{backup}", "/battle show",
                   args=("--user", "3000", "--channel", "300"), database=database)
    assert done.returncode == 0, done.stderr
    assert "📥 Battle restored: Example Ridge" in done.stdout
    assert "GM: @user-3000" in done.stdout or "GM: <@3000>" in done.stdout, done.stdout
    assert "Rangers" in done.stdout.split("> /battle show")[1]


def test_refusals_on_the_command_line(huzzah, tmp_path):
    database = tmp_path / "bot.db"
    assert huzzah("db", "upgrade", database=database).returncode == 0
    none = huzzah("battle", "export", "--channel", "100", database=database)
    assert none.returncode == 2
    # Said for the command line: where it looked, and what to check there.
    assert last_line(none) == (f"huzzah: channel 100 of {database}: There is no battle in "
                               "this channel. Check the channel id, and the database "
                               "(--database URL_OR_FILE, else DATABASE_URL).")
    # A file far over the cap is refused by its size, before it is read.
    huge = tmp_path / "huge.json"
    with huge.open("wb") as handle:
        handle.truncate(8 * 1024**3)
    done = huzzah("battle", "import", "--channel", "100", str(huge), database=database)
    assert done.returncode == 2
    assert last_line(done) == (f"huzzah: channel 100 of {database}: huge.json is 8192.0 MiB; "
                               "a battle's backup is at most 4 MiB. Give the file `huzzah "
                               "battle export` or `/battle export format:json` wrote, as it "
                               "was written.")
    missing = huzzah("battle", "import", "--channel", "100", str(tmp_path / "no.json"),
                     database=database)
    assert missing.returncode == 2
    assert last_line(missing) == (f"huzzah: channel 100 of {database}: cannot read "
                                  f"{tmp_path / 'no.json'} (No such file or directory).")
    bad = huzzah("battle", "export", "--channel", "general", database=database)
    assert bad.returncode == 2 and "is not a channel id" in bad.stderr


def test_the_database_is_named_with_database_as_the_console_names_it(huzzah, tmp_path):
    database = tmp_path / "c.db"
    console(*SETUP, args=("--user", "2000", "--channel", "300"), database=database)
    backup = tmp_path / "ridge.json"
    # DATABASE_URL unset: --database names the file (a path, or a URL).
    done = huzzah("battle", "export", "--channel", "300", "--database", "c.db", "-o",
                  str(backup), database=None, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"huzzah: exported Example Ridge: 4 events from channel 300 of " \
                          f"c.db to {backup}\n"
    url = f"sqlite:///{database}"
    done = huzzah("battle", "import", "--channel", "301", "--database", url, str(backup),
                  database=None, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"huzzah: restored Example Ridge in channel 301 of "
                                  f"{database}: 2 units")
    # --database wins over DATABASE_URL, as in the console.
    elsewhere = tmp_path / "other.db"
    done = huzzah("battle", "export", "--channel", "301", "--database", str(database),
                  database=elsewhere)
    assert done.returncode == 0 and json.loads(done.stdout)["battle"]["name"] == "Example Ridge"
    assert not elsewhere.exists()
    helped = huzzah("battle", "export", "--help", database=None).stdout
    assert "the database (default: DATABASE_URL, else ./huzzah.db)" in " ".join(helped.split())


def test_no_database_to_read_is_refused_without_making_one(huzzah, tmp_path):
    backup = tmp_path / "ridge.json"
    backup.write_text("{}")
    for action in (["export"], ["import", str(backup)]):
        done = huzzah("battle", *action, "--channel", "300", database=None, cwd=tmp_path)
        assert done.returncode == 2 and done.stdout == ""
        assert last_line(done) == (
            f"huzzah: no database to read: {tmp_path / 'huzzah.db'} does not exist and "
            "DATABASE_URL is not set. Name the bot's database with --database URL_OR_FILE "
            "(or set DATABASE_URL).")
    # A file named that is not there holds no battle to export.
    done = huzzah("battle", "export", "--channel", "300", "--database", "typo.db",
                  database=None, cwd=tmp_path)
    assert done.returncode == 2
    assert last_line(done) == ("huzzah: no database to read: typo.db does not exist. Check "
                               "the path given to --database (or in DATABASE_URL).")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ridge.json"]


def test_a_database_that_cannot_be_opened_is_named_without_its_password(huzzah, tmp_path):
    done = huzzah("battle", "export", "--channel", "300", "--database",
                  "postgresql://huzzah:s3cret@127.0.0.1:1/huzzah", database=None, cwd=tmp_path)
    assert done.returncode == 2 and "s3cret" not in done.stderr
    assert last_line(done).startswith("huzzah: cannot open the database "
                                      "postgresql://huzzah:***@127.0.0.1:1/huzzah (")
    assert last_line(done).endswith("). Check --database or DATABASE_URL.")


def test_refusals_of_a_file_say_what_to_do_on_the_command_line(huzzah, tmp_path):
    database = tmp_path / "bot.db"
    assert huzzah("db", "upgrade", database=database).returncode == 0
    old = tmp_path / "old.json"
    old.write_text('{"format": "huzzah-battle-log", "version": 1, "battle": {}}')
    done = huzzah("battle", "import", "--channel", "100", str(old), database=database)
    assert done.returncode == 2
    said = last_line(done)
    assert said.startswith(f"huzzah: channel 100 of {database}: The backup cannot be "
                           "imported: the file: it holds no `schema`")
    assert said.endswith("Export the battle again with `huzzah battle export` or "
                         "`/battle export format:json`.")
    assert "Attach" not in done.stderr and "/battle start" not in done.stderr


@pytest.fixture
def read_only_folder(tmp_path):
    """A folder, and whom to run as so that it cannot be written there: this user, or
    nobody when the tests run as root, whom no permission stops."""
    if os.geteuid() != 0:
        folder = tmp_path / "backups"
        folder.mkdir()
        yield folder, None
        folder.chmod(0o755)
        return
    import pwd
    import shutil
    import tempfile

    folder = Path(tempfile.mkdtemp())
    folder.chmod(0o755)
    nobody = pwd.getpwnam("nobody").pw_uid
    try:
        try:  # the interpreter may live where nobody can reach it (root's home)
            subprocess.run([sys.executable, "-c", "import bot.cli"], user=nobody, cwd=folder,
                           capture_output=True, check=True)
        except (OSError, subprocess.CalledProcessError):
            pytest.skip("cannot run the bot as an unprivileged user here")
        yield folder, nobody
    finally:
        folder.chmod(0o755)
        shutil.rmtree(folder)


def test_a_backup_copy_that_cannot_be_written_is_exported_all_the_same(read_only_folder):
    """SQLite reads a database in WAL mode through -wal and -shm files beside it, which it
    cannot make in a folder nobody may write: the copy is read as it is, unchanged."""
    folder, reader = read_only_folder
    database = folder / "copy.db"
    assert console(SETUP[0], database=database).returncode == 0
    live = sqlite3.connect(database)  # changes still in its -wal, as while the bot runs
    live.execute("PRAGMA wal_autocheckpoint = 0")
    live.execute("UPDATE battles SET name = 'Quebec'")
    live.commit()
    pending = folder / "pending"
    pending.mkdir()
    for name in ("copy.db", "copy.db-wal"):  # copied without its -shm
        (pending / name).write_bytes((folder / name).read_bytes())
    live.close()
    assert sorted(path.name for path in folder.iterdir()) == ["copy.db", "pending"]
    for path in (database, pending / "copy.db", pending / "copy.db-wal"):
        path.chmod(0o444)
    pending.chmod(0o555)
    folder.chmod(0o555)

    def export(file: Path) -> subprocess.CompletedProcess:
        env = {**os.environ, "HOME": str(folder)}
        env.pop("DATABASE_URL", None)
        return subprocess.run([sys.executable, "-m", "bot.cli", "battle", "export",
                               "--channel", "100", "--database", str(file)], user=reader,
                              cwd=folder, env=env, text=True, capture_output=True, timeout=120)

    done = export(database)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["battle"]["name"] == "Quebec"
    assert last_line(done) == f"huzzah: exported Quebec: 1 event from channel 100 of {database}"
    assert sorted(path.name for path in folder.iterdir()) == ["copy.db", "pending"]
    # Its -wal holds changes only a -shm file lets SQLite read: the operator is told what to do.
    done = export(pending / "copy.db")
    assert done.returncode == 2
    assert last_line(done) == (
        f"huzzah: cannot read the database {pending / 'copy.db'} (OperationalError: unable to "
        "open database file): it, or its folder, cannot be written. Copy it (and its -wal file) "
        "into a folder you can write, and export from the copy.")


def test_an_import_the_database_fails_to_write_says_nothing_was_imported(tmp_path, monkeypatch,
                                                                         capsys):
    """A failure at the commit (a full disk) is one line of advice, not a traceback."""
    from sqlalchemy.exc import OperationalError

    from bot import cli
    from bot.battles.service import BattleStore

    def failing(error: sqlite3.OperationalError, code: int | None = None):
        if code is not None:
            error.sqlite_errorcode = code  # type: ignore[attr-defined]

        async def restore(*args, **kwargs):
            raise OperationalError("COMMIT", {}, error)
        return restore

    database = tmp_path / "bot.db"
    backup = tmp_path / "ridge.json"
    backup.write_text("{}")
    monkeypatch.delenv("DATABASE_URL", raising=False)
    command = ["battle", "import", "--channel", "200", "--database", str(database), str(backup)]
    monkeypatch.setattr(BattleStore, "restore", failing(
        sqlite3.OperationalError("disk I/O error"), sqlite3.SQLITE_IOERR_WRITE))
    assert cli.main(command) == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"huzzah: cannot write the database {database} (OperationalError: disk I/O error): its "
        f"disk may be full. Free space on it (df -h {tmp_path}) and run `huzzah battle import` "
        "again.")
    monkeypatch.setattr(BattleStore, "restore", failing(
        sqlite3.OperationalError("database is locked")))
    assert cli.main(command) == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"huzzah: the database {database} failed (OperationalError: database is locked): "
        "nothing was imported. Check --database or DATABASE_URL, and run `huzzah battle "
        "import` again.")


def test_an_import_counts_one_of_a_kind_in_the_singular(huzzah, tmp_path):
    database = tmp_path / "bot.db"
    console('/battle start ruleset:skirmish name:"Example Ridge"',
            '/unit add side:British name:Rangers words:"morale=7" strength:4',
            args=("--user", "2000"), database=database)
    backup = tmp_path / "ridge.json"
    assert huzzah("battle", "export", "--channel", "100", "-o", str(backup),
                  database=database).returncode == 0
    done = huzzah("battle", "import", "--channel", "200", str(backup), database=database)
    assert done.returncode == 0, done.stderr
    assert done.stdout == (f"huzzah: restored Example Ridge in channel 200 of {database}: "
                           "1 unit, 0 generals, 2 events\n")
