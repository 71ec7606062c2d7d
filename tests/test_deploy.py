"""The deploy files exist, parse, agree with each other and name only commands that exist.

Nothing is built or started: the systemd unit is read with configparser, compose.yaml with a
small reader for the plain YAML it is written in, the Dockerfile line by line.
"""

from __future__ import annotations

import argparse
import configparser
import json
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from bot.cli import EXIT_CONFIG, EXIT_NETWORK, build_parser

ROOT = Path(__file__).resolve().parents[1]
UNIT = ROOT / "deploy" / "huzzah.service"
ENV_EXAMPLE = ROOT / "deploy" / "huzzah.env.example"
DEPLOY_README = ROOT / "deploy" / "README.md"
DOCKERFILE = ROOT / "Dockerfile"
COMPOSE = ROOT / "compose.yaml"
DOCKERIGNORE = ROOT / ".dockerignore"
POSTGRES_INSTALL = "pip install '.[postgres]'"


# --------------------------------------------------------------------------- readers


def read_unit(path: Path = UNIT) -> configparser.ConfigParser:
    unit = configparser.ConfigParser(interpolation=None, strict=True,
                                     comment_prefixes=("#", ";"))
    unit.optionxform = str  # type: ignore[assignment,method-assign]  (keys are CamelCase)
    unit.read_string(path.read_text())
    return unit


def _scalar(text: str) -> Any:
    if text.startswith(("[", '"')):
        return json.loads(text)
    if text.startswith("'") and text.endswith("'"):
        return text[1:-1]
    return text


def _lines(text: str) -> list[tuple[int, str]]:
    found = []
    for raw in text.splitlines():
        assert "\t" not in raw, "YAML is indented with spaces"
        stripped = raw.strip()
        if stripped and not stripped.startswith("#"):
            found.append((len(raw) - len(raw.lstrip(" ")), stripped))
    return found


_KEY = re.compile(r"^([\w.-]+):(?:\s+(.*))?$")


def _block(lines: list[tuple[int, str]], start: int, indent: int) -> tuple[Any, int]:
    """Block mappings and sequences of scalars: the YAML compose.yaml is written in."""
    if lines[start][1].startswith("- "):
        items, index = [], start
        while index < len(lines) and lines[index][0] == indent \
                and lines[index][1].startswith("- "):
            items.append(_scalar(lines[index][1][2:].strip()))
            index += 1
        return items, index
    mapping: dict[str, Any] = {}
    index = start
    while index < len(lines) and lines[index][0] == indent:
        match = _KEY.match(lines[index][1])
        assert match, f"not a 'key: value' line: {lines[index][1]!r}"
        key, value = match.groups()
        assert key not in mapping, f"{key} given twice"
        index += 1
        if value is not None:
            mapping[key] = _scalar(value)
        elif index < len(lines) and lines[index][0] > indent:
            mapping[key], index = _block(lines, index, lines[index][0])
        else:
            mapping[key] = None
    return mapping, index


def read_yaml(path: Path) -> dict[str, Any]:
    lines = _lines(path.read_text())
    document, end = _block(lines, 0, 0)
    assert end == len(lines), f"could not read past {lines[end][1]!r}"
    return document


def dockerfile_instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments), continuation lines joined."""
    text = re.sub(r"\\\n\s*", " ", DOCKERFILE.read_text())
    found = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            instruction, _, arguments = line.partition(" ")
            found.append((instruction.upper(), arguments.strip()))
    return found


def instruction(name: str) -> list[str]:
    return [arguments for found, arguments in dockerfile_instructions() if found == name]


# --------------------------------------------------------------------------- commands named


def subcommands(parser: argparse.ArgumentParser | None = None
                ) -> dict[str, argparse.ArgumentParser]:
    parser = parser or build_parser()
    action = next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)),
                  None)
    return dict(action.choices) if action else {}


_HUZZAH = re.compile(r"(?<![\w.-])huzzah((?:[ \t]+[^\s`'\"]+)*)")


def huzzah_commands(text: str) -> list[list[str]]:
    """Every ``huzzah SUBCOMMAND ...`` written in ``text``, as its words after ``huzzah``.

    ``huzzah`` is also a user, a group and a file name; only a lower-case word after it is
    read as a subcommand.
    """
    commands = []
    for match in _HUZZAH.finditer(text):
        words = match.group(1).split()
        while words and words[0] == "huzzah":  # `docker run ... huzzah huzzah sync`
            words.pop(0)
        if words and re.fullmatch(r"[a-z]+", words[0]):
            commands.append(words)
    return commands


def markdown_code(text: str) -> str:
    """The code spans and code blocks of a Markdown text, one per line."""
    blocks = re.findall(r"```[^\n]*\n(.*?)```", text, re.S)
    spans = re.findall(r"`([^`\n]+)`", re.sub(r"```.*?```", "", text, flags=re.S))
    return "\n".join(blocks + spans)


def readme_section(title: str) -> str:
    text = (ROOT / "README.md").read_text()
    start = text.index(f"## {title}")
    end = text.find("\n## ", start + 1)
    return text[start:end if end != -1 else None]


def assert_commands_exist(commands: list[list[str]], where: str) -> None:
    known = subcommands()
    for words in commands:
        name, *rest = words
        assert name in known, f"{where} names `huzzah {name}`, which bot/cli.py does not have"
        command = known[name]
        # `huzzah battle export …`: the options are the action's.
        while rest and rest[0] in subcommands(command):
            action, *rest = rest
            command = subcommands(command)[action]
            name = f"{name} {action}"
        flags = command._option_string_actions
        for word in rest:
            flag = word.split("=")[0]
            if flag.startswith("--"):
                assert flag in flags, f"{where}: `huzzah {name}` has no option {flag}"


# --------------------------------------------------------------------------- the tests


def test_the_files_exist():
    for path in (UNIT, ENV_EXAMPLE, DEPLOY_README, DOCKERFILE, COMPOSE, DOCKERIGNORE):
        assert path.is_file(), f"{path.relative_to(ROOT)} is missing"


def test_the_systemd_unit():
    unit = read_unit()
    assert set(unit.sections()) == {"Unit", "Service", "Install"}
    service = unit["Service"]
    assert service["User"] == "huzzah" and service["Group"] == "huzzah"
    assert service["StateDirectory"] == "huzzah"
    assert service["WorkingDirectory"] == "/var/lib/huzzah"
    program, *arguments = service["ExecStart"].split()
    assert Path(program).is_absolute() and Path(program).name == "huzzah"
    assert arguments == ["run"]
    # Restart when Discord was out of reach, never on a configuration error.
    assert service["Restart"] == "on-failure"
    assert service["RestartPreventExitStatus"].split() == [str(EXIT_CONFIG)]
    assert EXIT_NETWORK != EXIT_CONFIG
    assert service["KillSignal"] == "SIGTERM"
    assert int(service["TimeoutStopSec"]) > 8  # the bot's own grace for commands in progress
    assert unit["Install"]["WantedBy"] == "multi-user.target"


def test_the_unit_reads_the_env_file_the_example_shows():
    env_file = read_unit()["Service"]["EnvironmentFile"]
    assert Path(env_file).name == "huzzah.env"
    assert ENV_EXAMPLE.name == "huzzah.env.example"
    install_comment = UNIT.read_text().split("[Unit]")[0]
    assert f"deploy/huzzah.env.example {env_file}" in install_comment
    settings = dict(line.split("=", 1) for line in ENV_EXAMPLE.read_text().splitlines()
                    if line and not line.startswith("#"))
    assert set(settings) == {"DISCORD_TOKEN", "HUZZAH_LOG_LEVEL"}


def test_the_dockerfile():
    [base] = instruction("FROM")
    assert base == "python:3.11-slim"
    users = instruction("USER")
    assert users and users[-1] not in ("root", "0"), "the bot must not run as root"
    assert any(POSTGRES_INSTALL in run for run in instruction("RUN"))
    # The exec form, so huzzah gets SIGTERM; metrics on every interface of the container.
    assert json.loads(instruction("CMD")[-1]) == ["huzzah", "run", "--metrics", "0.0.0.0:9108"]
    assert instruction("EXPOSE") == ["9108"]
    [check] = instruction("HEALTHCHECK")
    assert check.endswith('CMD ["huzzah", "health", "127.0.0.1:9108"]')
    assert "DATABASE_URL=sqlite:////data/huzzah.db" in instruction("ENV")
    assert json.loads(instruction("VOLUME")[-1]) == ["/data"]
    assert instruction("STOPSIGNAL") == ["SIGTERM"]


def test_the_dockerfile_copies_what_exists_and_is_not_ignored():
    ignored = {line.strip() for line in DOCKERIGNORE.read_text().splitlines()
               if line.strip() and not line.startswith("#")}
    for arguments in instruction("COPY"):
        *sources, _ = arguments.split()
        for source in sources:
            assert (ROOT / source).exists(), f"COPY {source}: no such file"
            assert source not in ignored, f"COPY {source}, but .dockerignore leaves it out"
    assert {".venv", ".git", "*.db", ".env"} <= ignored


def test_compose_runs_the_bot_against_a_healthy_postgres():
    compose = read_yaml(COMPOSE)
    services = compose["services"]
    assert set(services) == {"bot", "db"}
    bot, db = services["bot"], services["db"]
    assert bot["build"] == "."
    assert bot["depends_on"] == {"db": {"condition": "service_healthy"}}
    assert db["image"].startswith("postgres:")
    test = db["healthcheck"]["test"]
    assert test[0] == "CMD-SHELL" and test[1].startswith("pg_isready")
    # The bot's URL names the db service and the user, password and database it creates.
    url = bot["environment"]["DATABASE_URL"]
    env = db["environment"]
    assert url == (f"postgresql://{env['POSTGRES_USER']}:{env['POSTGRES_PASSWORD']}"
                   f"@db:5432/{env['POSTGRES_DB']}")
    assert env["POSTGRES_PASSWORD"].startswith("${POSTGRES_PASSWORD:?")
    assert bot["environment"]["DISCORD_TOKEN"].startswith("${DISCORD_TOKEN:?")
    assert compose["volumes"] == {"pgdata": None}
    assert "pgdata:/var/lib/postgresql/data" in db["volumes"]
    # The bot's health is its own /health, asked by the image's huzzah.
    assert bot["healthcheck"]["test"] == ["CMD", "huzzah", "health", "127.0.0.1:9108"]


def test_the_yaml_reader_reads_what_it_is_given(tmp_path):
    # The reader above is only worth trusting if it fails on what it cannot read.
    sample = tmp_path / "compose.yaml"
    sample.write_text("a:\n  b: 1\n  c:\n    - x\n    - \"y z\"\nd: [\"p\", \"q\"]\n")
    assert read_yaml(sample) == {"a": {"b": "1", "c": ["x", "y z"]}, "d": ["p", "q"]}
    for broken in ("a:\n  b: 1\n  b: 2\n", "a:\n  b: 1\n c: 2\n", "a:\n\tb: 1\n"):
        sample.write_text(broken)
        with pytest.raises(AssertionError):
            read_yaml(sample)


def test_the_postgres_extra_installs_asyncpg():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    postgres = project["optional-dependencies"]["postgres"]
    assert any(requirement.startswith("asyncpg") for requirement in postgres)
    assert POSTGRES_INSTALL in DEPLOY_README.read_text()
    assert POSTGRES_INSTALL in readme_section("Running it on Discord")


@pytest.mark.parametrize("where", ["deploy/huzzah.service", "Dockerfile", "compose.yaml",
                                   "deploy/README.md", "README.md"])
def test_every_command_named_exists(where):
    text = (ROOT / where).read_text()
    if where.endswith(".md"):
        text = markdown_code(text)
    if where == "Dockerfile":  # the exec form: ["huzzah", "run"]
        for exec_form in (instruction("CMD")[-1], instruction("HEALTHCHECK")[-1]):
            text += "\n" + " ".join(json.loads(exec_form[exec_form.index("["):]))
    commands = huzzah_commands(text)
    assert commands, f"{where} names no huzzah command"
    assert_commands_exist(commands, where)


def test_the_command_finder_catches_a_command_that_does_not_exist():
    commands = huzzah_commands("`huzzah sync --guild 1 --clear`\n/opt/huzzah/bin/huzzah serve\n"
                               "User=huzzah\nchown huzzah:huzzah deploy/huzzah.env\n"
                               "docker run -e X=1 huzzah huzzah db upgrade\n")
    assert commands == [["sync", "--guild", "1", "--clear"], ["serve"], ["db", "upgrade"]]
    with pytest.raises(AssertionError, match="huzzah serve"):
        assert_commands_exist([["serve"]], "here")
    with pytest.raises(AssertionError, match="no option --purge"):
        assert_commands_exist([["sync", "--purge"]], "here")


def test_the_deploy_readme_documents_the_clear_sync_and_the_exit_codes():
    text = DEPLOY_README.read_text()
    assert "huzzah.service" in text and "compose.yaml" in text and "Dockerfile" in text
    assert "huzzah sync --guild ID --clear" in text
    assert f"| {EXIT_CONFIG} | configuration error" in text
    assert f"| {EXIT_NETWORK} | Discord, the network or the database server could not be " \
           "reached" in text


def test_the_deploy_readme_shows_two_shard_processes_on_one_postgres(tmp_path):
    text = DEPLOY_README.read_text()
    section = text[text.index("## Shards"):text.index("\n## ", text.index("## Shards") + 1)]
    assert "2,500 servers" in section
    [example] = [block for block in re.findall(r"```yaml\n(.*?)```", section, re.S)
                 if "services:" in block]
    compose = tmp_path / "compose.yaml"
    compose.write_text(example)
    services = read_yaml(compose)["services"]
    bots = {name: service for name, service in services.items() if "command" in service}
    assert len(bots) == 2 and services["db"]["image"].startswith("postgres:")
    served = []
    for service in bots.values():
        words = service["command"]
        assert words[:2] == ["huzzah", "run"]
        assert_commands_exist([words[1:]], "deploy/README.md")
        assert words[words.index("--shard-count") + 1] == "4"
        served += words[words.index("--shard-ids") + 1].split(",")
        assert service["environment"]["DATABASE_URL"] == \
            next(iter(bots.values()))["environment"]["DATABASE_URL"]
        assert service["depends_on"] == {"db": {"condition": "service_healthy"}}
    assert sorted(served) == ["0", "1", "2", "3"]  # every shard, each by one process


def test_the_deploy_readme_shows_a_scrape_config_for_the_metrics():
    text = DEPLOY_README.read_text()
    assert "huzzah run --metrics 127.0.0.1:9108" in text
    assert 'targets: ["127.0.0.1:9108"]' in text
    assert "huzzah health 127.0.0.1:9108" in text


def test_the_service_user_may_read_the_env_file_that_the_sync_step_sources():
    """`runuser -u huzzah -- sh -c '. /etc/huzzah/huzzah.env; … huzzah sync'` reads the file
    as the service user: its folder must let the group in, not root alone."""
    env_file = Path(read_unit()["Service"]["EnvironmentFile"])
    install_comment = UNIT.read_text().split("[Unit]")[0]
    [made] = [line.split("(")[0].split() for line in install_comment.splitlines()
              if "install -d" in line]
    assert made[-1] == str(env_file.parent)
    assert "-g" in made and made[made.index("-g") + 1] == "huzzah", made
    assert f"runuser -u huzzah -- sh -c 'set -a; . {env_file};" in DEPLOY_README.read_text()
