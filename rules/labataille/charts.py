"""Chart packs: the revised charts the players own, as data with their provenance.

The revised Assault et Mêlée chart (with its Firefight column and AS/AR/DR#/DS# results) and
the revised modifier charts are not public (reference A.10). A chart pack is a JSON object a
GM attaches to a battle or gives to ``huzzah resolve``; docs/labataille.md documents it:

    {"name": "...", "provenance": "where the values come from",
     "assault": {"columns": ["1:2", "1:1", ..., "5:1", "Firefight"],
                 "rows": {"11": ["AR", "AR", ...], "12-16": [...], ...}},
     "attacker_morale": {"distance": {"1": 0, "2": -3}, "situations": {"disordered": -3}},
     "defender_morale": {"situations": {"line": -3}},
     "melee_multipliers": {"attacker": {"disordered": 0.5}, "defender": {"disordered": 0.5}},
     "cavalry_multipliers": {"attacker": {...}, "defender": {"square": 0.5}},
     "stand_morale": {"situations": {"square": 12}},
     "recall": {"french": 2, "british": 5},
     "carre": {"french": {"4": {"11-54": "C", "55-66": "D"}, "3": {...}}, "any": {...},
               "prussian": {"column": {"4": {...}, ...}, "line": {...}}}}

Only ``provenance`` is required: a pack holds the charts its players own; each table may
carry its own ``provenance``. Validation
is strict, and an error names the table, the row and the column.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rules.core.errors import InvalidInput
from rules.labataille.published import ratio_value
from rules.labataille.units import Fatigue, Formation, Order, nation_name

FIREFIGHT_COLUMN = "Firefight"
SITUATION_WORDS = frozenset({*Formation, *Order} - {Order.GOOD})
# Mêlée multipliers may also name a cavalry stack's fatigue (reference A.4 lists tired ½ and
# exhausted ⅓ for either side).
MULTIPLIER_WORDS = SITUATION_WORDS | {Fatigue.TIRED, Fatigue.EXHAUSTED}
_RESULT = re.compile(r"(AS|AR|DR|DS)\s*(\d)?", re.IGNORECASE)
# The # of DR# and DS#: hexes of impetus, as far as the procedure's answers (its buttons,
# DR0 to DR5) go; a pack's cells are held to the same (project limit).
MAX_IMPETUS = 5
_BLANK = frozenset({"", "-", "ff", "firefight", "blank", "bounce"})
_COLUMN = re.compile(r"\d+(\.\d+)?:\d+(\.\d+)?")


@dataclass(frozen=True)
class ChartResult:
    """AS, AR, a blank (firefight, or a bounce in a charge), DR# or DS#."""

    code: str  # "AS", "AR", "FF", "DR", "DS"
    hexes: int = 0  # the # of DR# and DS#

    @property
    def label(self) -> str:
        if self.code == "FF":
            return "blank (firefight)"
        return f"{self.code}{self.hexes}" if self.code in ("DR", "DS") else self.code

    def read_in(self, charge: bool) -> str:
        """The label as a charge reads it: there a blank is a bounce, and a DR's or DS's #
        is ignored (a player's plain DR reads DR, not DR0)."""
        if not charge:
            return self.label
        if self.code == "FF":
            return "blank (bounce)"
        return self.label if self.hexes else self.code


def parse_result(text: Any, where: str = "result") -> ChartResult:
    if not isinstance(text, str):
        raise InvalidInput(f"{where}: a chart result is text like `DR2`, `AS` or blank.")
    cleaned = text.strip()
    if cleaned.casefold() in _BLANK:
        return ChartResult("FF")
    match = _RESULT.fullmatch(cleaned)
    if match is None:
        raise InvalidInput(f"{where}: `{cleaned[:12]}` is not an Assault et Mêlée result.",
                           hint="Results are AS, AR, blank (or `firefight`), DR# and DS#.")
    code, hexes = match.group(1).upper(), match.group(2)
    if code in ("AS", "AR") and hexes:
        raise InvalidInput(f"{where}: `{cleaned}` takes no number (only DR# and DS# do).")
    if hexes and int(hexes) > MAX_IMPETUS:
        raise InvalidInput(f"{where}: `{cleaned}`: DR# and DS# go from 0 to {MAX_IMPETUS} "
                           "(hexes of impetus).",
                           hint=f"The procedure offers DR0 to DR{MAX_IMPETUS} and DS0 to "
                                f"DS{MAX_IMPETUS}.")
    return ChartResult(code, int(hexes or 0))


@dataclass(frozen=True)
class Table:
    values: Mapping[str, float]
    provenance: str


CARRE_RESULTS = {"C": "forms square", "D": "is disordered", "R": "routs"}


ANY = "any"  # a Carré table for any nation, or any formation


@dataclass(frozen=True)
class Carre:
    """The Square (Carré) Realization chart: by nation (or ``any``), then by the formation the
    stack forms from (some games split it by column and line; ``any`` when one table serves),
    then the cavalry's distance in hexes (1 to 4): each d66 result is C (square formed), D or
    R."""

    results: Mapping[str, Mapping[str, Mapping[int, Mapping[int, str]]]]
    provenance: str

    def _table(self, nation: str, formation: str) -> Mapping[int, Mapping[int, str]] | None:
        by_formation = self.results.get(nation.casefold()) or self.results.get(ANY)
        if by_formation is None:
            return None
        return by_formation.get(formation) or by_formation.get(ANY)

    def result(self, nation: str, formation: str, distance: int, roll: int) -> str | None:
        table = self._table(nation, formation)
        if table is None or distance not in table:
            return None
        return table[distance][roll]

    def missing(self, nation: str, formation: str, distance: int) -> str:
        """Why the chart has no cell for this stack (the player then reads the printed one)."""
        said = "the chart pack's Carré chart has no"
        by_formation = self.results.get(nation.casefold()) or self.results.get(ANY)
        if by_formation is None:
            return f"{said} table for {nation_name(nation) or 'a stack without a nation'}"
        if self._table(nation, formation) is None:
            return f"{said} {nation.casefold() or ANY} table for {formation}"
        return f"{said} row for {distance} hexes"


@dataclass(frozen=True)
class ChartPack:
    name: str
    provenance: str
    columns: tuple[str, ...]  # odds columns, lowest first (the Firefight column apart)
    rows: Mapping[int, tuple[ChartResult, ...]]  # by d66 value; one per column (+ Firefight)
    firefight: bool  # whether the chart has a Firefight column (the last)
    assault_provenance: str
    distance: Table | None = None  # attacker morale: distance in hexes -> modifier
    attacker_situations: Table | None = None
    defender_situations: Table | None = None
    attacker_multipliers: Table | None = None
    defender_multipliers: Table | None = None
    cavalry_attacker_multipliers: Table | None = None  # the Mêlée Modifiers for Cavalry
    cavalry_defender_multipliers: Table | None = None
    stand_situations: Table | None = None  # the Roll to Stand vs. Cavalry modifiers
    recall: Table | None = None  # nation -> Recall threshold on 1d6
    carre: Carre | None = None  # the Square (Carré) Realization chart

    @property
    def has_assault(self) -> bool:
        """Whether the pack holds an Assault et Mêlée chart (without one, its result is asked
        of the players, on the Premier chart's columns)."""
        return bool(self.columns)

    def result(self, roll: int, column: int | None) -> ChartResult:
        """The cell at a d66 ``roll``; column None is the Firefight column."""
        row = self.rows[roll]
        return row[-1] if column is None else row[column]


MAX_ERRORS = 20  # a refusal lists this many of a pack's mistakes, then counts the rest
PACK_KEYS = frozenset({"name", "provenance", "assault", "attacker_morale", "defender_morale",
                       "melee_multipliers", "cavalry_multipliers", "stand_morale", "recall",
                       "carre"})


class Problems:
    """A pack's mistakes, gathered so that one refusal lists them all, each naming its table,
    row and column."""

    def __init__(self) -> None:
        self.found: list[InvalidInput] = []

    def add(self, message: str, hint: str | None = None) -> None:
        self.found.append(InvalidInput(message, hint=hint))

    @contextmanager
    def each(self) -> Iterator[None]:
        """Checks one part of the pack: its mistake is kept, and the next part is checked."""
        try:
            yield
        except InvalidInput as error:
            self.found.append(error)

    def refuse(self, where: str) -> None:
        if not self.found:
            return
        if len(self.found) == 1:
            [error] = self.found
            raise InvalidInput(f"{where}: {error.message}",
                               hint=error.hint or "See docs/labataille.md for the format.")
        shown = [f"• {_short(e.message)}" for e in self.found[:MAX_ERRORS]]
        more = len(self.found) - MAX_ERRORS
        # The list ends the message, so no hint follows it: the header says what to do.
        raise InvalidInput("\n".join([f"{where}: {len(self.found)} errors (fix them all; "
                                      "docs/labataille.md gives the format):", *shown,
                                      *([f"…and {more} more."] if more > 0 else [])]))


MAX_LISTED = 90  # each listed mistake's length: 20 of them fit a Discord message (2000)


def _short(message: str) -> str:
    return message if len(message) <= MAX_LISTED else message[:MAX_LISTED - 1] + "…"


def read_pack(data: Any, where: str = "chart pack") -> ChartPack:
    if not isinstance(data, Mapping):
        raise InvalidInput(f"{where} must be a JSON object.",
                           hint="See docs/labataille.md for the format.")
    problems = Problems()
    extra = sorted(set(data) - PACK_KEYS)
    for key in extra:
        problems.add(f"unknown key `{key}`.",
                     hint=f"Keys are {', '.join(sorted(PACK_KEYS))}.")
    name = provenance = ""
    with problems.each():
        name = _text(data.get("name", "chart pack"), "name")
    with problems.each():
        provenance = _text(data.get("provenance"), "provenance",
                           hint="Say where the values come from (a rules book and page).")
    chart = _assault(data.get("assault"), provenance, problems)
    charts = sorted(PACK_KEYS - {"name", "provenance"})
    if not any(key in data for key in charts):
        problems.add(f"it holds no chart: give at least one of {', '.join(charts)}.")
    for key in charts:
        # A chart with nothing but where it comes from would be attached, and listed, while
        # every procedure reads it as absent.
        if isinstance(data.get(key), Mapping) and not set(data[key]) - {"provenance"}:
            problems.add(f"`{key}` holds no values: give its chart's values, or leave it out.")
    tables = {key: _owner(data, key, keys, problems) for key, keys in (
        ("attacker_morale", {"distance", "situations", "provenance"}),
        ("defender_morale", {"situations", "provenance"}),
        ("melee_multipliers", {"attacker", "defender", "provenance"}),
        ("cavalry_multipliers", {"attacker", "defender", "provenance"}),
        ("stand_morale", {"situations", "provenance"}))}

    def table(owner: str, key: str, check_key, positive: bool = False) -> Table | None:
        return _table(tables[owner], key, provenance, owner, check_key, problems, positive)

    pack = ChartPack(
        name=name, provenance=provenance,
        columns=chart.columns if chart else (), rows=chart.rows if chart else {},
        firefight=chart.firefight if chart else False,
        assault_provenance=chart.provenance if chart else provenance,
        distance=table("attacker_morale", "distance", _distance_key),
        attacker_situations=table("attacker_morale", "situations", _situation_key),
        defender_situations=table("defender_morale", "situations", _situation_key),
        attacker_multipliers=table("melee_multipliers", "attacker", _multiplier_key, True),
        defender_multipliers=table("melee_multipliers", "defender", _multiplier_key, True),
        cavalry_attacker_multipliers=table("cavalry_multipliers", "attacker", _multiplier_key,
                                           True),
        cavalry_defender_multipliers=table("cavalry_multipliers", "defender", _multiplier_key,
                                           True),
        stand_situations=table("stand_morale", "situations", _situation_key),
        recall=_recall(data, provenance, problems),
        carre=_carre(data.get("carre"), provenance, problems),
    )
    problems.refuse(where)
    return pack


@dataclass(frozen=True)
class AssaultChart:
    columns: tuple[str, ...]
    rows: Mapping[int, tuple[ChartResult, ...]]
    firefight: bool
    provenance: str


def _assault(value: Any, fallback: str, problems: Problems) -> AssaultChart | None:
    """The Assault et Mêlée chart, when the pack has one (a pack holds the charts its players
    own: the Carré chart alone is a pack)."""
    if value is None:
        return None
    if not isinstance(value, Mapping):
        problems.add("`assault` (the Assault et Mêlée chart) must be a JSON object.")
        return None
    columns: tuple[str, ...] | None = None
    firefight = False
    with problems.each():
        columns, firefight = _columns(value.get("columns"), "assault columns")
    provenance = fallback
    with problems.each():
        provenance = _provenance(value, fallback, "assault")
    if columns is None:
        return None
    rows = _rows(value.get("rows"), columns, firefight, "assault", problems)
    return AssaultChart(columns, rows, firefight, provenance)


def _owner(data: Mapping[str, Any], key: str, keys: set[str], problems: Problems
           ) -> Mapping[str, Any]:
    """A table's owner object (``attacker_morale``…), or {} when it is broken or absent."""
    with problems.each():
        return _object(data.get(key), key, keys)
    return {}


def describe_pack(data: Any) -> list[str]:
    """What an attached pack holds, a line per table with where its values come from."""
    pack = read_pack(data, "the chart pack")
    columns = [*pack.columns, *([FIREFIGHT_COLUMN] if pack.firefight else [])]
    lines = [f"{pack.name} ({pack.provenance})",
             (f"Assault et Mêlée: {len(columns)} columns, {' '.join(columns)}"
              + ("" if pack.assault_provenance == pack.provenance
                 else f" ({pack.assault_provenance})")) if pack.has_assault
             else "Assault et Mêlée: not in this pack (its results are asked, on the Premier "
                  "chart's columns)"]
    tables = (("attacker morale, distance", pack.distance),
              ("attacker morale, situations", pack.attacker_situations),
              ("defender morale, situations", pack.defender_situations),
              ("attacker mêlée multipliers", pack.attacker_multipliers),
              ("defender mêlée multipliers", pack.defender_multipliers),
              ("attacker mêlée multipliers vs cavalry", pack.cavalry_attacker_multipliers),
              ("defender mêlée multipliers vs cavalry", pack.cavalry_defender_multipliers),
              ("roll to stand vs cavalry, situations", pack.stand_situations),
              ("recall thresholds", pack.recall))
    for title, table in tables:
        if table is not None:
            count = len(table.values)
            source = "" if table.provenance == pack.provenance else f" ({table.provenance})"
            lines.append(f"{title}: {count} value{'' if count == 1 else 's'}{source}")
    if pack.carre is not None:
        source = "" if pack.carre.provenance == pack.provenance else \
            f" ({pack.carre.provenance})"
        tables = [nation + ("" if list(by) == [ANY] else f" ({', '.join(by)})")
                  for nation, by in pack.carre.results.items()]
        lines.append(f"Square (Carré) Realization: {', '.join(tables)}{source}")
    return lines


def _recall(data: Mapping[str, Any], fallback: str, problems: Problems) -> Table | None:
    if "recall" not in data:
        return None
    if not isinstance(data["recall"], Mapping):
        problems.add("recall must be a JSON object.")
        return None
    table = dict(data["recall"])
    provenance = fallback
    with problems.each():
        provenance = _provenance(table, fallback, "recall")
    table.pop("provenance", None)
    values: dict[str, float] = {}
    for nation, threshold in table.items():
        with problems.each():
            if isinstance(threshold, bool) or not isinstance(threshold, int) or \
                    not 1 <= threshold <= 7:
                raise InvalidInput(f"recall: `{nation}` must be a threshold from 1 to 7 "
                                   "(on 1d6).")
            values[str(nation).casefold()] = threshold
    return Table(values, provenance)


def _carre(value: Any, fallback: str, problems: Problems) -> Carre | None:
    where = "carre"
    if value is None:
        return None
    if not isinstance(value, Mapping):
        problems.add(f"{where} must be a JSON object.")
        return None
    table = dict(value)
    provenance = fallback
    with problems.each():
        provenance = _provenance(table, fallback, where)
    table.pop("provenance", None)
    results: dict[str, dict[str, dict[int, dict[int, str]]]] = {}
    for nation, by_key in table.items():
        here = f"{where}: {nation}"
        if not isinstance(by_key, Mapping) or not by_key:
            problems.add(f"{here} maps the cavalry's distance (1 to 4 hexes), or "
                         "the formation it forms from, to rows.")
            continue
        results[str(nation).casefold()] = _carre_formations(by_key, here, problems)
    return Carre(results, provenance)


CARRE_DISTANCES = ("1", "2", "3", "4")
CARRE_FORMATIONS = frozenset({*(f.value for f in Formation), ANY})


def _carre_formations(by_key: Mapping[str, Any], where: str, problems: Problems
                      ) -> dict[str, dict[int, dict[int, str]]]:
    """A nation's table: distances (one table for any formation), or formations each mapping
    distances, as the printed chart is split."""
    if not any(str(k) in CARRE_FORMATIONS for k in by_key):
        return {ANY: _carre_distances(by_key, where, problems)}
    tables: dict[str, dict[int, dict[int, str]]] = {}
    for formation, by_distance in by_key.items():
        with problems.each():
            if str(formation) in CARRE_DISTANCES:
                raise InvalidInput(f"{where}: `{formation}`: give distances or formations "
                                   "(column, line…), not both.")
            if str(formation) not in CARRE_FORMATIONS:
                raise InvalidInput(f"{where}: `{formation}` is not a formation (column, line, "
                                   "square, skirmish, general, or any).")
            if not isinstance(by_distance, Mapping) or not by_distance:
                raise InvalidInput(f"{where}, {formation} maps the cavalry's distance (1 to 4 "
                                   "hexes) to rows.")
            tables[str(formation)] = _carre_distances(by_distance, f"{where}, {formation}",
                                                      problems)
    return tables


def _carre_distances(by_distance: Mapping[str, Any], where: str, problems: Problems
                     ) -> dict[int, dict[int, str]]:
    rows_by: dict[int, dict[int, str]] = {}
    for distance, rows in by_distance.items():
        with problems.each():
            if str(distance) not in CARRE_DISTANCES:
                raise InvalidInput(f"{where}: `{distance}` is not a distance (1 to 4 hexes).")
            rows_by[int(distance)] = _carre_rows(rows, f"{where}, {distance} hexes", problems)
    return rows_by


def _carre_rows(rows: Any, where: str, problems: Problems) -> dict[int, str]:
    if not isinstance(rows, Mapping):
        raise InvalidInput(f"{where}: rows map d66 ranges to C, D or R.")
    cells: dict[int, str] = {}
    for key, result in rows.items():
        with problems.each():
            if not isinstance(result, str) or result.strip().upper() not in CARRE_RESULTS:
                raise InvalidInput(f"{where}, row {key}: `{result}` is not C, D or R.")
            for roll in _d66_range(str(key), f"{where}: row `{key}`"):
                if roll in cells:
                    raise InvalidInput(f"{where}: row {roll} is given twice.")
                cells[roll] = result.strip().upper()
    with problems.each():
        _every_row(cells, where)
    return cells


def _every_row(rows: Mapping[int, Any], where: str) -> None:
    missing = [r for r in D66_VALUES if r not in rows]
    if missing:
        raise InvalidInput(f"{where}: no row for {', '.join(map(str, missing[:6]))}"
                           + ("…" if len(missing) > 6 else "") + ".",
                           hint="Give every d66 result from 11 to 66.")


def _text(value: Any, where: str, hint: str = "") -> str:
    if not isinstance(value, str) or not value.strip():
        raise InvalidInput(f"{where} must be text.", hint=hint)
    return value.strip()[:200]


def _provenance(table: Mapping[str, Any], fallback: str, where: str) -> str:
    if "provenance" in table:
        return _text(table["provenance"], f"{where}: provenance")
    return fallback


def _columns(value: Any, where: str) -> tuple[tuple[str, ...], bool]:
    if not isinstance(value, list) or not 1 <= len(value) <= 20:
        raise InvalidInput(f"{where}: list the columns, like `[\"1:2\", \"1:1\", ..., "
                           "\"Firefight\"]` (up to 20).")
    columns = [_text(c, f"{where} #{i + 1}") for i, c in enumerate(value)]
    firefight = columns[-1].casefold() == FIREFIGHT_COLUMN.casefold()
    odds = columns[:-1] if firefight else columns
    if not odds:
        raise InvalidInput(f"{where}: at least one odds column goes before Firefight.")
    previous: Fraction | None = None
    for number, column in enumerate(odds, start=1):
        if not _COLUMN.fullmatch(column):
            raise InvalidInput(f"{where} #{number}: `{column}` is not an odds column.",
                               hint="Write odds like `1:2`, `1.5:1`; Firefight goes last.")
        value_ = ratio_value(column)
        if previous is not None and value_ <= previous:
            raise InvalidInput(f"{where} #{number}: `{column}` must be higher odds than the "
                               "column before it (lowest first).")
        previous = value_
    return tuple(odds), firefight


def _rows(value: Any, columns: tuple[str, ...], firefight: bool, where: str,
          problems: Problems) -> dict[int, tuple[ChartResult, ...]]:
    if not isinstance(value, Mapping):
        problems.add(f"{where}: `rows` maps d66 values (or ranges like `11-16`) to "
                     "one result per column.")
        return {}
    names = [*columns, *([FIREFIGHT_COLUMN] if firefight else [])]
    rows: dict[int, tuple[ChartResult, ...]] = {}
    for key, cells in value.items():
        with problems.each():
            rolls = _d66_range(str(key), f"{where}: row `{key}`")
            if not isinstance(cells, list) or len(cells) != len(names):
                raise InvalidInput(f"{where}: row {key} needs {len(names)} results, one per "
                                   f"column ({', '.join(names)}).")
            read = []
            for cell, name in zip(cells, names, strict=True):
                with problems.each():
                    read.append(parse_result(cell, f"{where}: row {key}, column {name}"))
            for roll in rolls:
                if roll in rows:
                    raise InvalidInput(f"{where}: row {roll} is given twice.")
                rows[roll] = tuple(read)
    with problems.each():
        _every_row(rows, where)
    return rows


D66_VALUES = tuple(t * 10 + u for t in range(1, 7) for u in range(1, 7))


def _d66_range(key: str, where: str) -> list[int]:
    first, sep, last = key.partition("-")
    try:
        low, high = int(first), int(last) if sep else int(first)
    except ValueError:
        raise InvalidInput(f"{where}: rows are d66 values like `23` or ranges like `11-16`."
                           ) from None
    if low not in D66_VALUES or high not in D66_VALUES or high < low:
        raise InvalidInput(f"{where}: `{key}` is not a d66 value or range (11 to 66, each "
                           "digit 1 to 6).")
    return [r for r in D66_VALUES if low <= r <= high]


def _object(value: Any, where: str, keys: set[str] | None) -> Mapping[str, Any]:
    """A JSON object; with ``keys``, only those keys."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise InvalidInput(f"{where} must be a JSON object.")
    extra = sorted(set(value) - keys) if keys is not None else []
    if extra:
        raise InvalidInput(f"{where}: unknown key `{extra[0]}`.",
                           hint=f"Keys are {', '.join(sorted(keys))}.")
    return value


def _distance_key(key: str, where: str) -> str:
    if not key.isdigit() or not 1 <= int(key) <= 20:
        raise InvalidInput(f"{where}: `{key}` is not a distance in hexes (1 to 20).")
    return key


def _situation_key(key: str, where: str, words: frozenset[str] = SITUATION_WORDS) -> str:
    if key not in words:
        raise InvalidInput(f"{where}: `{key}` is not a situation.",
                           hint=f"Situations are {', '.join(sorted(words))}.")
    return key


def _multiplier_key(key: str, where: str) -> str:
    return _situation_key(key, where, MULTIPLIER_WORDS)


def _table(owner: Mapping[str, Any], name: str, fallback: str, where: str, check_key,
           problems: Problems, positive: bool = False) -> Table | None:
    if name not in owner:
        return None
    value = owner[name]
    here = f"{where}: {name}"
    if not isinstance(value, Mapping) or not value:
        problems.add(f"{here} must be a JSON object of values.")
        return None
    values: dict[str, float] = {}
    for key, number in value.items():
        with problems.each():
            check_key(str(key), here)
            if isinstance(number, bool) or not isinstance(number, int | float) or \
                    number != number or abs(number) > 100 or (positive and number <= 0):
                raise InvalidInput(f"{here}: `{key}` must be a "
                                   + ("positive " if positive else "") + "number.")
            values[str(key)] = number
    provenance = fallback
    with problems.each():
        provenance = _provenance(owner, fallback, where)
    return Table(values, provenance)
