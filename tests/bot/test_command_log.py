"""One INFO line per command handled: who, where, which command, outcome, milliseconds."""

from __future__ import annotations

import logging
import re

import bot.battles.corrections
import bot.command_log
from bot.offline import command_payload, parse_command_line

from .conftest import CHANNEL, GM_USER, GUILD, PLAYER

LINE = re.compile(r"^command /(?P<name>[a-z -]+) user=(?P<user>\d+) guild=(?P<guild>\d+) "
                  r"channel=(?P<channel>\d+) outcome=(?P<outcome>ok|refused|error) "
                  r"ms=(?P<ms>\d+)$")


async def run(session, line: str, user: int, caplog) -> tuple[list[str], str]:
    """Dispatch a typed command; the command log's lines for it, and its token."""
    command = parse_command_line(session.tree, line, guild_id=GUILD)
    payload = command_payload(session.tree, command.path, command.options, channel_id=CHANNEL,
                              user_id=user, guild_id=GUILD,
                              application_id=session.application_id)
    caplog.clear()
    with caplog.at_level(logging.INFO):
        result = await session.dispatch(payload)
    assert result.errors == []
    lines = [r.getMessage() for r in caplog.records if r.name == "bot.commands"]
    assert all(r.levelno == logging.INFO for r in caplog.records if r.name == "bot.commands")
    return lines, payload["token"]


def fields(line: str) -> dict[str, str]:
    match = LINE.match(line)
    assert match, line
    return match.groupdict()


async def test_a_command_that_works_is_logged_ok(discord_session, caplog):
    lines, token = await run(discord_session, '/battle start ruleset:fire-at-will '
                             'name:"Secret Valley"', GM_USER, caplog)
    assert len(lines) == 1
    assert fields(lines[0]) == {"name": "battle start", "user": str(GM_USER),
                                "guild": str(GUILD), "channel": str(CHANNEL), "outcome": "ok",
                                "ms": fields(lines[0])["ms"]}
    everything = "\n".join(r.getMessage() for r in caplog.records)
    assert "Secret Valley" not in everything and token not in everything


async def test_a_refusal_is_logged_refused(discord_session, caplog):
    lines, _ = await run(discord_session, '/gm dice dice:"6 6 6"', PLAYER, caplog)
    assert len(lines) == 1
    line = fields(lines[0])
    assert (line["name"], line["user"], line["outcome"]) == ("gm dice", str(PLAYER), "refused")
    assert "6 6 6" not in lines[0]


async def test_a_fault_is_logged_error(discord_session, caplog, monkeypatch):
    await run(discord_session, '/battle start ruleset:fire-at-will name:Mons', GM_USER, caplog)

    def broken(*_args, **_kwargs):
        raise RuntimeError("the dice cup is missing")

    monkeypatch.setattr(bot.battles.corrections, "parse_dice", broken)
    lines, _ = await run(discord_session, "/gm dice dice:6", GM_USER, caplog)
    assert len(lines) == 1
    assert fields(lines[0])["outcome"] == "error"
    assert fields(lines[0])["name"] == "gm dice"


class Clock:
    """A stand-in for the command log's clock: time passes only when the test says."""

    def __init__(self) -> None:
        self.now = 1000.0

    def perf_counter(self) -> float:
        return self.now


async def test_the_milliseconds_are_the_time_the_command_took(discord_session, caplog,
                                                             monkeypatch):
    await run(discord_session, '/battle start ruleset:fire-at-will name:Mons', GM_USER, caplog)
    clock = Clock()
    monkeypatch.setattr(bot.command_log, "time", clock)
    real = bot.battles.corrections.parse_dice

    def slow(*args, **kwargs):
        clock.now += 0.25  # the command takes a quarter of a second
        return real(*args, **kwargs)

    monkeypatch.setattr(bot.battles.corrections, "parse_dice", slow)
    lines, _ = await run(discord_session, "/gm dice dice:6", GM_USER, caplog)
    assert fields(lines[0])["outcome"] == "ok"
    assert fields(lines[0])["ms"] == "250"
