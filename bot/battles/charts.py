"""A battle's chart pack: the charts its players own, attached by a GM as a JSON file.

The pack is read strictly when it is attached (the rule set names the table, row and column
of any mistake), kept as its own row, and handed to every procedure the battle plays.
Attaching, replacing and removing a pack are events, so `/gm undo` takes them back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.battles.errors import BattleError
from bot.battles.json_file import read_json_object
from bot.battles.store import BattleTx
from bot.storage.models import Charts
from rules.core.registry import ChartsSpec
from rules.registry import RULESETS

MAX_BYTES = 256 * 1024  # a whole revised chart with every modifier table is a few KiB
ATTACH_HINT = "Attach the chart pack as a JSON file (see the rule set's documentation)."


@dataclass(frozen=True)
class ChartsSaid:
    filename: str
    lines: list[str]  # what the pack holds, with where its values come from
    seq: int | None = None  # the event, when this command changed the pack
    replaced: str | None = None  # the file it took the place of


def read_chart_file(data: bytes, filename: str) -> dict[str, Any]:
    """The JSON object in an attached file, or a refusal that says what is wrong with it."""
    check_size(filename, len(data))
    return read_json_object(data, filename, kind="a chart pack", holder="a chart",
                            hint=ATTACH_HINT, again="Take it out of the file and attach it "
                            "again.")


def check_size(filename: str, size: int) -> None:
    """Refuses a file too large to be a chart pack (before it is downloaded, when the size
    is known)."""
    if size > MAX_BYTES:
        raise BattleError(f"{filename} is {size // 1024} KiB; a chart pack is at most "
                          f"{MAX_BYTES // 1024} KiB.",
                          hint=ATTACH_HINT)


def charts_spec(tx: BattleTx) -> ChartsSpec:
    battle = tx.require_battle()
    spec = tx.rules.charts
    if spec is None:
        title = RULESETS[battle.ruleset].title
        raise BattleError(f"{title} battles take no chart pack: Huzzah plays its charts "
                          "from the rules.", hint="Chart packs are for rule sets whose "
                          "charts the players own (La Bataille).")
    return spec


def attach_charts(tx: BattleTx, filename: str, content: dict[str, Any]) -> ChartsSaid:
    """Attach (or replace) the battle's chart pack, once it reads as one."""
    battle = tx.require_gm("attach a chart pack")
    lines = charts_spec(tx).describe(content)
    filename = " ".join(filename.split())[:200] or "charts.json"
    row = tx.charts_row()
    replaced = None
    if row is None:
        tx.add(Charts(battle_id=battle.id, filename=filename, content=content,
                      added_by=tx.actor.user_id))
    else:
        replaced = row.filename
        tx.touch(row)
        row.filename, row.content, row.added_by = filename, content, tx.actor.user_id
    event = tx.record("charts", f"GM attached the chart pack {filename}"
                            + (f" (in place of {replaced})" if replaced else ""))
    return ChartsSaid(filename, lines, event.seq, replaced)


def remove_charts(tx: BattleTx) -> ChartsSaid:
    """Take the chart pack off the battle: its procedures ask for chart results again."""
    tx.require_gm("remove the chart pack")
    charts_spec(tx)
    row = tx.charts_row()
    if row is None:
        raise BattleError("This battle has no chart pack to remove.",
                          hint="`/battle charts file:` attaches one.")
    tx.delete(row)
    event = tx.record("charts", f"GM removed the chart pack {row.filename}")
    return ChartsSaid(row.filename, [], event.seq)


def attached_charts(tx: BattleTx) -> ChartsSaid | None:
    """The pack the battle plays with, described; None when it has none."""
    spec = charts_spec(tx)
    row = tx.charts_row()
    return None if row is None else ChartsSaid(row.filename, spec.describe(row.content))
