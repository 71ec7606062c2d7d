"""The backup file of a battle: what it holds, and a file read and checked whole before
anything is written.

A file is read as strictly as the commands that built the battle: every unit goes through the
rule set's own checks (``check_unit``, as `/unit add` and `/gm set` do), every general
through the bounds `/general add` puts on him, the settings and the chart pack through their
commands' checks, every row the log could put back through its table's columns, and the
question waiting is played again to the point it was asked. The first fault refuses the whole
file, naming where it is.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, replace
from datetime import datetime
from types import SimpleNamespace
from typing import Any

from sqlalchemy import BigInteger, Integer, String
from sqlalchemy.sql.schema import Table

from bot.battles.charts import MAX_BYTES as CHARTS_MAX_BYTES
from bot.battles.decisions import Pending, asked_again
from bot.battles.errors import BattleError
from bot.battles.json_file import read_json_object
from bot.battles.play import play_settings
from bot.battles.store import (
    EVENT_KINDS,
    TABLES,
    roster_engagement,
    roster_general,
    roster_unit,
)
from bot.battles.validate import (
    MAX_NAME,
    NAMES_HINT,
    NOT_IN_NAMES,
    check_side,
    name_refused,
    unseen_character,
    wounds_bound,
)
from bot.battles.views import (
    BattleRecord,
    EngagementRecord,
    EventRecord,
    GeneralRecord,
    UnitRecord,
)
from bot.storage.models import (
    BATTLE_STATUSES,
    ENGAGEMENT_STATUSES,
    GENERAL_STATUSES,
    UNIT_STATUSES,
    UTCDateTime,
)
from rules.core.dice import parse_dice, plain_face
from rules.core.errors import RulesError, code
from rules.core.fields import json_kind, json_safe
from rules.core.registry import BattleRules
from rules.core.roster import MAX_STRENGTH, Roster, name_key
from rules.registry import RULESETS

FORMAT = "huzzah-battle-log"
VERSION = 1  # the readable layout players' tools read: battle, units, generals, events
SCHEMA = 1
"""What a backup holds beyond the readable log; a file of a newer schema is refused (this
version of Huzzah cannot know what it would leave out)."""
MAX_BYTES = 4 * 1024 * 1024
"""A move of a Le Baton turn takes some 2.5 KiB of the file, snapshots and all: 4 MiB holds a
campaign of about 1,600 moves. A larger file is refused before it is read."""
IMPORT_HINT = "Attach the JSON file `/battle export format:json` wrote, as it was written."
EXPORT_AGAIN_HINT = "Export the battle again with `/battle export format:json`."
TOP_KEYS = ("format", "version", "schema", "battle", "charts", "units", "generals",
            "engagements", "events")
CHARTS_KEYS = ("id", "battle_id", "filename", "content", "added_by", "added_at")
MAX_TURN = 10_000
SNOWFLAKE = (0, 2**63 - 1)


def check_size(filename: str, size: int) -> None:
    """Refuses a file too large to be a backup, before it is read (its size is known)."""
    if size > MAX_BYTES:
        raise BattleError(f"{filename} is {size / 1024 / 1024:.1f} MiB; a battle's backup is "
                          f"at most {MAX_BYTES // 1024 // 1024} MiB.", hint=IMPORT_HINT)


def read_backup(data: bytes, filename: str) -> dict[str, Any]:
    """The JSON object in a backup file, or a refusal that says what is wrong with it."""
    check_size(filename, len(data))
    return read_json_object(data, filename, kind="a backup", holder="a battle",
                            hint=IMPORT_HINT, again="Take it out of the file and import it "
                            "again.")


class Refused(BattleError):
    """A backup that cannot be imported: where in the file, and what is wrong there."""

    def __init__(self, where: str, what: str, hint: str = IMPORT_HINT) -> None:
        # A rule set's own check names the unit already (``unit Grenadiers: unknown field
        # `colour```): the place is said once.
        said = what if what.startswith(where) else f"{where}: {what}"
        super().__init__(f"The backup cannot be imported: {said}", hint=hint)


def _keys(data: Any, keys: tuple[str, ...] | frozenset[str], where: str, *,
          all_of_them: bool = True) -> dict[str, Any]:
    """A JSON object holding exactly ``keys`` (or, without ``all_of_them``, no others)."""
    if not isinstance(data, dict):
        raise Refused(where, f"a JSON object was expected, not {json_kind(data)}.")
    unknown = [key for key in data if key not in keys]
    if unknown:
        raise Refused(where, f"unknown field `{unknown[0]}`.")
    missing = [key for key in keys if key not in data] if all_of_them else []
    if missing:
        raise Refused(where, f"the field `{missing[0]}` is missing.")
    return data


def _columns_checked(table: Table, values: Mapping[str, Any], where: str) -> None:
    """Each value as its column takes it: whole numbers within the column's range, text
    within its length, times as ISO 8601 text, null only where the column takes it."""
    for key, value in values.items():
        column = table.c[key]
        said = f"{where}, `{key}`"
        if value is None:
            if not column.nullable and not column.primary_key:
                raise Refused(said, "it cannot be null.")
            continue
        kind = column.type
        if isinstance(kind, Integer):
            bits = 63 if isinstance(kind, BigInteger) else 31
            if isinstance(value, bool) or not isinstance(value, int):
                raise Refused(said, f"a whole number was expected, not `{_shown(value)}`.")
            if not -2**bits <= value < 2**bits:
                raise Refused(said, f"{value} is out of range.")
        elif isinstance(kind, String):
            if not isinstance(value, str):
                raise Refused(said, f"text was expected, not `{_shown(value)}`.")
            if kind.length is not None and len(value) > kind.length:
                raise Refused(said, f"it is {len(value)} characters long; it takes "
                                    f"{kind.length}.")
        elif isinstance(kind, UTCDateTime):
            time_of(value, said)


def time_of(value: Any, where: str) -> datetime:
    try:
        moment = datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        moment = None
    if moment is None or moment.tzinfo is None:
        raise Refused(where, f"`{_shown(value)}` is not a time in UTC (ISO 8601).")
    return moment


def _shown(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)[:40]


def _row(table: str, data: Any, keys: tuple[str, ...], where: str) -> dict[str, Any]:
    """One row of the file: exactly its fields, each as its column takes it."""
    values = _keys(data, keys, where)
    _columns_checked(TABLES[table], values, where)
    return values


def _record_keys(kind: type) -> tuple[str, ...]:
    return tuple(f.name for f in fields(kind))


def _within(value: int | None, bounds: tuple[int, int], where: str, field: str,
            hint: str = IMPORT_HINT) -> None:
    if value is None:
        return
    low, high = bounds
    if value < low:
        raise Refused(where, f"`{field}` cannot be below {low}.", hint=hint)
    if value > high:
        raise Refused(where, f"`{field}` cannot be above {high}.", hint=hint)


def _one_of(value: Any, allowed: tuple[str, ...], where: str, field: str) -> None:
    if value not in allowed:
        raise Refused(where, f"`{field}` is one of {', '.join(allowed)}, not "
                             f"`{_shown(value)}`.")


def _checked_by_rules(check: Callable[[], Any], where: str) -> Any:
    """A rule set's own check, its refusal said as the backup's."""
    try:
        return check()
    except RulesError as error:
        raise Refused(where, error.message, hint=error.hint or IMPORT_HINT) from None


@dataclass
class Backup:
    """A file read and checked whole: the rows to write, as the file has them."""

    battle: dict[str, Any]
    charts: dict[str, Any] | None
    units: list[dict[str, Any]]
    generals: list[dict[str, Any]]
    engagements: list[dict[str, Any]]
    events: list[dict[str, Any]]
    pending: Pending | None


def checked_backup(data: Mapping[str, Any]) -> Backup:
    """The backup read and checked whole (see the module's doc), or a refusal naming the
    first fault."""
    top = _keys(dict(data), TOP_KEYS, "the file", all_of_them=False)
    if top.get("format") != FORMAT:
        raise Refused("the file", "it is not a Huzzah battle export (its `format` is not "
                                  f"`{FORMAT}`).")
    schema = top.get("schema")
    if schema is None or "events" not in top:
        raise Refused("the file", "it holds no `schema`: it was exported before battles "
                                  "could be imported, and lacks what rebuilding one needs.",
                      hint=EXPORT_AGAIN_HINT)
    if isinstance(schema, bool) or not isinstance(schema, int) or schema < 1:
        raise Refused("the file", f"`schema` {_shown(schema)} is not a schema version.")
    if schema > SCHEMA:
        raise Refused("the file", f"it was written by a newer Huzzah (schema {schema}; this "
                                  f"one reads up to {SCHEMA}).",
                      hint="Import it with the Huzzah that exported it, or a newer one.")
    _keys(top, TOP_KEYS, "the file")
    if top["version"] != VERSION:
        raise Refused("the file", f"`version` {_shown(top['version'])} is not {VERSION}.")
    battle = _row("battles", top["battle"], _record_keys(BattleRecord), "the battle")
    ruleset = RULESETS.get(battle["ruleset"])
    if ruleset is None or ruleset.battle is None:
        known = ", ".join(r.key for r in RULESETS.values() if r.battle)
        raise Refused("the battle", f"`{battle['ruleset']}` is not a rule set this Huzzah "
                                    "plays battles with.", hint=f"Rule sets: {known}.")
    rules = ruleset.battle
    _check_battle(battle, rules)
    charts = _check_charts(top["charts"], rules)
    for key in ("units", "generals", "engagements", "events"):
        if not isinstance(top[key], list):
            raise Refused(f"`{key}`", "a JSON list was expected.")
    units = _rows(top, "units", UnitRecord)
    generals = _rows(top, "generals", GeneralRecord)
    engagements = _rows(top, "engagements", EngagementRecord)
    _check_roster(battle, units, generals, engagements, rules)
    events = _rows(top, "events", EventRecord)
    _check_log(battle, events, rules)
    pending = _check_pending(battle, events, rules)
    _check_ids(battle, charts, units, generals, engagements)
    backup = Backup(battle, charts, units, generals, engagements, events, pending)
    _check_move(backup, rules)
    return backup


def _rows(top: Mapping[str, Any], table: str, kind: type) -> list[dict[str, Any]]:
    """One list of the file, each row placed by its number in it (``unit #2``)."""
    keys = _record_keys(kind)
    return [_row(table, row, keys, f"{table[:-1]} #{n}") for n, row in enumerate(top[table], 1)]


def _check_battle(battle: dict[str, Any], rules: BattleRules) -> None:
    where = "the battle"
    name = battle["name"]
    if not name.strip():
        raise Refused(where, "it has no name.")
    unseen = unseen_character(name)
    if unseen is not None:
        raise Refused(where, f"its name holds a character that cannot be seen ({unseen}).")
    _one_of(battle["status"], BATTLE_STATUSES, where, "status")
    for key in ("created_by", "gm_role_id"):
        _within(battle[key], SNOWFLAKE, where, key)
    if battle["turn"] < 1 or battle["turn"] > MAX_TURN:
        raise Refused(where, f"`turn` {battle['turn']} is not a turn (1 to {MAX_TURN}).")
    if battle["phase"] is not None and battle["phase"] not in rules.phases:
        raise Refused(where, f"`phase` `{battle['phase']}` is not one of the rule set's.",
                      hint=f"Its phases: {', '.join(rules.phases) or 'none'}.")
    if battle["last_seq"] < 0:
        raise Refused(where, "`last_seq` cannot be below 0.")
    sides = battle["sides"]
    if sides is not None:
        if (not isinstance(sides, list) or len(sides) != 2
                or not all(isinstance(s, str) for s in sides)):
            raise Refused(where, "`sides` is a list of two sides.")
        checked = [_checked_by_rules(lambda s=s: check_side(s), where) for s in sides]
        if checked != sides or name_key(sides[0]) == name_key(sides[1]):
            raise Refused(where, "`sides` holds two different sides, as `/battle start "
                                 "sides:` takes them.")
    settings = battle["settings"]
    if not isinstance(settings, dict):
        raise Refused(where, "`settings` is a JSON object.")
    # As `/battle setting` takes each, and as they must read together.
    read = _checked_by_rules(lambda: json_safe(rules.settings.read_json(settings,
                                                                        "settings")), where)
    if rules.check_settings is not None:
        _checked_by_rules(lambda: rules.check_settings(read), where)  # type: ignore[misc]
    battle["settings"] = read  # as `/battle setting` keeps each
    if battle["dice_queue"] != []:
        raise Refused(where, _SECRET_DICE)
    if battle["pending"] is not None and not isinstance(battle["pending"], dict):
        raise Refused(where, "`pending` is a question (a JSON object) or null.")


def _check_charts(charts: Any, rules: BattleRules) -> dict[str, Any] | None:
    if charts is None:
        return None
    where = "the chart pack"
    values = _row("charts", charts, CHARTS_KEYS, where)
    if rules.charts is None:
        raise Refused(where, "this rule set takes no chart pack.")
    if not isinstance(values["content"], dict):
        raise Refused(where, "`content` is a JSON object.")
    _within(values["added_by"], SNOWFLAKE, where, "added_by")
    size = len(json.dumps(values["content"], ensure_ascii=False).encode())
    if size > CHARTS_MAX_BYTES:
        raise Refused(where, f"it is {size // 1024} KiB; a chart pack is at most "
                             f"{CHARTS_MAX_BYTES // 1024} KiB.")
    # Read as `/battle charts file:` reads a pack.
    spec = rules.charts
    _checked_by_rules(lambda: spec.describe(values["content"]), where)
    return values


def _place(kind: str, name: Any, number: int) -> str:
    """Where a unit or general is in the file: by its name, or by its place in the list
    when the name is none to show (blank, not text, too long to read)."""
    if isinstance(name, str) and name.strip() and len(name) <= MAX_NAME:
        return f"{kind} {name}"
    return f"{kind} {number} of the file's list"


def _check_name(name: str, where: str) -> None:
    if (name != " ".join(name.split()) or not name or len(name) > MAX_NAME
            or any(c in name for c in NOT_IN_NAMES) or unseen_character(name)):
        raise Refused(where, name_refused(name),
                      hint=f"Names are 1 to {MAX_NAME} characters, {NAMES_HINT}.")


def _check_roster(battle: dict[str, Any], units: list[dict[str, Any]],
                  generals: list[dict[str, Any]], engagements: list[dict[str, Any]],
                  rules: BattleRules) -> None:
    """Units and generals held to what `/unit add`, `/general add` and `/gm set` let a
    player or GM enter; engagements between the battle's units."""
    names: dict[str, str] = {}
    sides: dict[str, str] = {name_key(s): s for s in battle["sides"] or []}
    # The rule set's own bound (Le Baton's 60 figures) is its check's to say, below.
    strength_hint = "Use a strength `/unit add` and `/gm set` take."

    def named(row: dict[str, Any], kind: str, number: int, statuses: tuple[str, ...]) -> str:
        """What a unit and a general are both held to; where the row is in the file."""
        where = _place(kind, row["name"], number)
        _check_name(row["name"], where)
        if row["name_key"] != name_key(row["name"]):
            raise Refused(where, "`name_key` is not the name's lookup form.")
        if row["name_key"] in names:
            raise Refused(where, f"there is already a unit or general called "
                                 f"{code(names[row['name_key']])}.")
        names[row["name_key"]] = row["name"]
        side = _checked_by_rules(lambda: check_side(row["side"]), where)
        known = sides.setdefault(name_key(side), side)
        if side != row["side"] or known != side:
            raise Refused(where, f"`side` `{row['side']}` is not spelled as the battle's.")
        if len(sides) > 2:
            raise Refused(where, f"`{side}` would be a third side; a battle has two.")
        _within(row["added_by"], SNOWFLAKE, where, "added_by")
        _one_of(row["status"], statuses, where, "status")
        return where

    for number, row in enumerate(units, 1):
        where = named(row, "unit", number, UNIT_STATUSES)
        _within(row["strength"], (0, MAX_STRENGTH), where, "strength", strength_hint)
        _check_unit_words(row, rules, where)
    for number, row in enumerate(generals, 1):
        where = named(row, "general", number, GENERAL_STATUSES)
        _within(row["wounds"], (0, wounds_bound(rules, row["status"])), where, "wounds",
                f"A general carries 0 to {rules.max_wounds} light wounds here, and one more "
                "when it took him out of play.")
        if rules.general_values is None:
            if row["value"] is not None:
                raise Refused(where, "this rule set's generals carry no value.")
        else:
            low, high = rules.general_values
            _within(row["value"], rules.general_values, where, "value", f"Use {low} to {high}.")
    unit_keys = {u["name_key"]: u["name"] for u in units}
    for row in units:
        # A general removed leaves the units he commanded naming him: a name, not a link.
        if row["commander"] is not None:
            _check_name(row["commander"], f"unit {row['name']}, `commander`")
    leading: dict[str, str] = {}  # one active general with a unit, as `/general add` keeps
    for row in generals:
        if row["unit_name"] is not None and unit_keys.get(
                name_key(row["unit_name"])) != row["unit_name"]:
            raise Refused(f"general {row['name']}", f"`unit_name` {row['unit_name']} is not "
                                                    "a unit of the battle.")
        if row["unit_name"] is not None and row["status"] == "active":
            first = leading.setdefault(name_key(row["unit_name"]), row["name"])
            if first != row["name"]:
                raise Refused(f"general {row['name']}", f"{row['unit_name']} already has "
                                                        f"{first} with it: one general goes "
                                                        "with a unit.")
    for number, row in enumerate(engagements, 1):
        where = f"engagement #{number}"
        _one_of(row["status"], ENGAGEMENT_STATUSES, where, "status")
        if not isinstance(row["state"], dict):
            raise Refused(where, "`state` is a JSON object.")
        engaged = row["sides"]
        if (not isinstance(engaged, list) or len(engaged) != 2
                or not all(isinstance(side, list) and side for side in engaged)):
            raise Refused(where, "`sides` is two lists of units.")
        for name in (n for side in engaged for n in side):
            if row["status"] == "active" and (not isinstance(name, str)
                                              or unit_keys.get(name_key(name)) != name):
                raise Refused(where, f"`{_shown(name)}` is not a unit of the battle.")


def _check_log(battle: dict[str, Any], events: list[dict[str, Any]],
               rules: BattleRules) -> None:
    """The log gapless from #1, up to the battle's count; each change a snapshot of one of
    the battle's rows, as its table holds it."""
    seqs = [e["seq"] for e in events]
    if seqs != list(range(1, len(events) + 1)) or battle["last_seq"] != len(events):
        raise Refused("the log", "its events are not numbered #1 on without a gap, up to "
                                 "the battle's count (`last_seq`).")
    count = len(events)
    for event in events:
        where = f"event #{event['seq']}"
        if event["kind"] not in EVENT_KINDS:
            raise Refused(where, f"`kind` `{_shown(event['kind'])}` is not a kind of event "
                                 "Huzzah logs.")
        for key in ("undone_by", "reverts"):
            if event[key] is not None and not 1 <= event[key] <= count:
                raise Refused(where, f"`{key}` names no event of the log.")
        _check_undo_marks(event, where)
        _within(event["user_id"], SNOWFLAKE, where, "user_id")
        for key in ("request", "resolution"):
            if event[key] is not None and not isinstance(event[key], dict):
                raise Refused(where, f"`{key}` is a JSON object or null.")
        if not isinstance(event["changes"], list):
            raise Refused(where, "`changes` is a list.")
        for change in event["changes"]:
            _check_change(change, battle["id"], where)
            for state in ("before", "after"):
                if change[state] is not None:
                    _check_snapshot(change["table"], change[state], rules,
                                    f"{where}, a change to {change['table']} ({state})")


def _check_undo_marks(event: dict[str, Any], where: str) -> None:
    """What `/gm undo` walks by, as commands write it: it passes over undo events, the
    battle's start and what was undone, so a move marked as one of them could never be
    taken back."""
    seq, kind = event["seq"], event["kind"]
    if (kind == "undo") != (event["reverts"] is not None):
        raise Refused(where, "`kind` is `undo`, but it reverts no event: only an undo does."
                      if kind == "undo" else "`reverts` is set, but only an undo reverts an "
                                             "event.")
    if event["reverts"] is not None and event["reverts"] >= seq:
        raise Refused(where, "`reverts` names no earlier event.")
    if (kind == "battle_start") != (seq == 1):
        raise Refused(where, "`kind` is `battle_start`; only event #1 starts the battle."
                      if kind == "battle_start" else "event #1 is the battle's start "
                                                     "(`kind` `battle_start`).")
    if event["undone_by"] is not None and event["undone_by"] <= seq:
        raise Refused(where, "`undone_by` names no later event.")


def _check_snapshot(table: str, values: dict[str, Any], rules: BattleRules,
                    where: str) -> None:
    """A unit or general as undo would put it back, held to what a command could enter, as
    the roster is: else undo brings back a unit no command can edit or move. Its side is
    not held to the battle's last two: a unit added and undone before them had another."""
    if table not in ("units", "generals"):
        return
    if "name" in values:
        _check_name(values["name"], where)
        if "name_key" in values and values["name_key"] != name_key(values["name"]):
            raise Refused(where, "`name_key` is not the name's lookup form.")
    if "side" in values:
        _checked_by_rules(lambda: check_side(values["side"]), where)
    if table == "generals":
        if "wounds" in values:
            _within(values["wounds"], (0, wounds_bound(rules, values.get("status", ""))), where,
                    "wounds")
        return
    if "attributes" in values:
        _check_unit_words(values, rules, where)


def _check_unit_words(row: dict[str, Any], rules: BattleRules, where: str) -> None:
    """A unit's words held to the rule set's own checks, as `/gm set` holds a unit it
    leaves, and kept as the check gives them back; its side held to them, as `/unit add`
    holds it. A unit out of the battle keeps the strength it left with."""
    if not isinstance(row["attributes"], dict):
        raise Refused(where, "`attributes` is a JSON object.")
    counted = row.get("strength") if row.get("status") != "gone" else None
    row["attributes"] = _checked_by_rules(
        lambda: rules.check_unit(row.get("name", "the unit"), row["attributes"], counted,
                                 where), where)
    if rules.check_side is not None and "side" in row:
        check = rules.check_side
        _checked_by_rules(lambda: check(row["side"], row["attributes"]), where)


# An export never holds the GM's queued dice (they are secret): a file that does was made by
# hand, and its dice would be rolled as if a GM of this battle had queued them.
_SECRET_DICE = ("`dice_queue` holds dice; an export leaves the GM's queued dice out, and an "
                "imported battle starts with none.")
_CHANGE_KEYS = ("table", "id", "before", "after")
_RESTORED_TABLES = ("battles", "units", "generals", "engagements", "charts")
_STATUSES = {"battles": BATTLE_STATUSES, "units": UNIT_STATUSES, "generals": GENERAL_STATUSES,
             "engagements": ENGAGEMENT_STATUSES}


def _check_change(change: Any, battle_id: int, where: str) -> None:
    _keys(change, _CHANGE_KEYS, f"{where}, a change")
    table = change["table"]
    if table not in _RESTORED_TABLES:
        raise Refused(f"{where}, a change", f"`table` `{_shown(table)}` is not one of the "
                                            "battle's.")
    if isinstance(change["id"], bool) or not isinstance(change["id"], int):
        raise Refused(f"{where}, a change", "`id` is a whole number.")
    if table == "battles" and change["id"] != battle_id:
        raise Refused(f"{where}, a change", "it changes another battle.")
    columns = frozenset(TABLES[table].c.keys())
    for state in ("before", "after"):
        values = change[state]
        if values is None:
            continue
        said = f"{where}, a change to {table} ({state})"
        _keys(values, columns, said, all_of_them=False)
        _columns_checked(TABLES[table], values, said)
        # What undo could put back is held to what a command could enter.
        if table == "units":
            _within(values.get("strength"), (0, MAX_STRENGTH), said, "strength",
                    f"Use 0 to {MAX_STRENGTH}.")
        if table in _STATUSES and "status" in values:
            _one_of(values["status"], _STATUSES[table], said, "status")
        if table == "battles" and values.get("dice_queue") not in (None, []):
            raise Refused(said, _SECRET_DICE)


def _check_pending(battle: dict[str, Any], events: list[dict[str, Any]],
                   rules: BattleRules) -> Pending | None:
    data = battle["pending"]
    if data is None:
        return None
    where = "the question waiting"
    try:
        pending = Pending.from_dict(data)
        same = pending.to_dict() == data and pending.question.to_dict() == data["question"]
    except (KeyError, TypeError, ValueError, AttributeError, RulesError):
        same = False
    if not same:
        raise Refused(where, "it is not a question as Huzzah keeps one.")
    procedures = RULESETS[battle["ruleset"]].procedures
    if pending.ruleset != battle["ruleset"] or pending.procedure not in procedures:
        raise Refused(where, f"`{pending.procedure}` is not a procedure of the battle's "
                             "rule set.")
    asked = events[pending.seq - 1] if isinstance(pending.seq, int) and \
        1 <= pending.seq <= len(events) else None
    if asked is None or asked["kind"] != "question" or asked["undone_by"] is not None:
        raise Refused(where, "`seq` is not the event that asked it.")
    if not pending.question.answers:
        raise Refused(where, "it offers no answer.")
    for key in ("asked_by", "answerer"):
        if data[key] is not None and (isinstance(data[key], bool)
                                      or not isinstance(data[key], int)):
            raise Refused(where, f"`{key}` is a Discord user's id, a whole number, not "
                                 f"`{_shown(data[key])}`.")
        _within(data[key], SNOWFLAKE, where, key)
    typed = _checked_by_rules(
        lambda: parse_dice(" ".join(str(f) for f in pending.faces), rules.dice_faces), where)
    if [plain_face(f) for f in typed] != data["faces"]:
        raise Refused(where, "`faces` holds faces the rule set's dice do not show.")
    return replace(pending, faces=typed)


def _check_move(backup: Backup, rules: BattleRules) -> None:
    """The move the question belongs to, played again on the battle as the file has it with
    the dice rolled before the question, stops at that very question: so its buttons and
    `/answer` play it on once imported."""
    pending = backup.pending
    if pending is None:
        return
    # The file's rows read as the store reads a row's columns (``row.name``).
    roster = Roster(tuple(roster_unit(SimpleNamespace(**u)) for u in backup.units),
                    tuple(roster_general(SimpleNamespace(**g)) for g in backup.generals),
                    tuple(roster_engagement(SimpleNamespace(**e)) for e in backup.engagements
                          if e["status"] == "active"))
    charts = backup.charts["content"] if backup.charts else None
    settings = play_settings(backup.battle["ruleset"], backup.battle["settings"], charts)
    try:
        undecided = asked_again(rules, pending, roster, settings)
    # The file is no command's: whatever the engine makes of it, a fault here is the file's.
    except Exception as error:
        said = error.message if isinstance(error, RulesError) else type(error).__name__
        raise Refused("the question waiting", f"its move does not play on this battle "
                                              f"({said}).") from None
    asked = undecided.question if undecided is not None else None
    if asked is None or asked.to_dict() != pending.question.to_dict():
        raise Refused("the question waiting", "its move, played again on this battle with "
                                              "the same dice, does not ask it.")


def _check_ids(battle: dict[str, Any], charts: dict[str, Any] | None,
               *tables: list[dict[str, Any]]) -> None:
    rows = [*(row for rows in tables for row in rows), *([charts] if charts else [])]
    if any(row["battle_id"] != battle["id"] for row in rows):
        raise Refused("the roster", "a row belongs to another battle (`battle_id`).")
    for rows in tables:
        ids = [row["id"] for row in rows]
        if len(set(ids)) != len(ids):
            raise Refused("the roster", "two rows of one kind share an `id`.")
