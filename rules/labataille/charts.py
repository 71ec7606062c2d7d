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
     "carre": {"french": {"4": {"11-54": "C", "55-66": "D"}, "3": {...}}, "any": {...}}}

Every table but ``assault`` is optional; each may carry its own ``provenance``. Validation
is strict, and an error names the table, the row and the column.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rules.core.errors import InvalidInput
from rules.labataille.published import ratio_value
from rules.labataille.units import Fatigue, Formation, Order

FIREFIGHT_COLUMN = "Firefight"
SITUATION_WORDS = frozenset({*Formation, *Order} - {Order.GOOD})
# Mêlée multipliers may also name a cavalry stack's fatigue (reference A.4 lists tired ½ and
# exhausted ⅓ for either side).
MULTIPLIER_WORDS = SITUATION_WORDS | {Fatigue.TIRED, Fatigue.EXHAUSTED}
_RESULT = re.compile(r"(AS|AR|DR|DS)\s*(\d)?", re.IGNORECASE)
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
    return ChartResult(code, int(hexes or 0))


@dataclass(frozen=True)
class Table:
    values: Mapping[str, float]
    provenance: str


CARRE_RESULTS = {"C": "forms square", "D": "is disordered", "R": "routs"}


@dataclass(frozen=True)
class Carre:
    """The Square (Carré) Realization chart: by nation (or ``any``) and the cavalry's
    distance in hexes (1 to 4), each d66 result is C (square formed), D or R."""

    results: Mapping[str, Mapping[int, Mapping[int, str]]]
    provenance: str

    def result(self, nation: str, distance: int, roll: int) -> str | None:
        table = self.results.get(nation.casefold()) or self.results.get("any")
        if table is None or distance not in table:
            return None
        return table[distance][roll]


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

    def result(self, roll: int, column: int | None) -> ChartResult:
        """The cell at a d66 ``roll``; column None is the Firefight column."""
        row = self.rows[roll]
        return row[-1] if column is None else row[column]


def read_pack(data: Any, where: str = "chart pack") -> ChartPack:
    if not isinstance(data, Mapping):
        raise InvalidInput(f"{where} must be a JSON object.",
                           hint="See docs/labataille.md for the format.")
    known = {"name", "provenance", "assault", "attacker_morale", "defender_morale",
             "melee_multipliers", "cavalry_multipliers", "stand_morale", "recall", "carre"}
    extra = sorted(set(data) - known)
    if extra:
        raise InvalidInput(f"{where}: unknown key `{extra[0]}`.",
                           hint=f"Keys are {', '.join(sorted(known))}.")
    name = _text(data.get("name", "chart pack"), f"{where}: name")
    provenance = _text(data.get("provenance"), f"{where}: provenance",
                       hint="Say where the values come from (a rules book and page).")
    assault = data.get("assault")
    if not isinstance(assault, Mapping):
        raise InvalidInput(f"{where}: `assault` (the Assault et Mêlée chart) is required.")
    columns, firefight = _columns(assault.get("columns"), f"{where}: assault columns")
    rows = _rows(assault.get("rows"), columns, firefight, f"{where}: assault")
    attacker = _object(data.get("attacker_morale"), f"{where}: attacker_morale",
                       {"distance", "situations", "provenance"})
    defender = _object(data.get("defender_morale"), f"{where}: defender_morale",
                       {"situations", "provenance"})
    multipliers = _object(data.get("melee_multipliers"), f"{where}: melee_multipliers",
                          {"attacker", "defender", "provenance"})
    cavalry = _object(data.get("cavalry_multipliers"), f"{where}: cavalry_multipliers",
                      {"attacker", "defender", "provenance"})
    stand = _object(data.get("stand_morale"), f"{where}: stand_morale",
                    {"situations", "provenance"})
    return ChartPack(
        name=name, provenance=provenance, columns=columns, rows=rows, firefight=firefight,
        assault_provenance=_provenance(assault, provenance, f"{where}: assault"),
        distance=_table(attacker, "distance", provenance, where, _distance_key),
        attacker_situations=_table(attacker, "situations", provenance, where, _situation_key),
        defender_situations=_table(defender, "situations", provenance, where, _situation_key),
        attacker_multipliers=_table(multipliers, "attacker", provenance, where, _multiplier_key,
                                    positive=True),
        defender_multipliers=_table(multipliers, "defender", provenance, where, _multiplier_key,
                                    positive=True),
        cavalry_attacker_multipliers=_table(cavalry, "attacker", provenance, where,
                                            _multiplier_key, positive=True),
        cavalry_defender_multipliers=_table(cavalry, "defender", provenance, where,
                                            _multiplier_key, positive=True),
        stand_situations=_table(stand, "situations", provenance, where, _situation_key),
        recall=_recall(data, provenance, where),
        carre=_carre(data.get("carre"), provenance, f"{where}: carre"),
    )


def describe_pack(data: Any) -> list[str]:
    """What an attached pack holds, a line per table with where its values come from."""
    pack = read_pack(data, "the chart pack")
    columns = [*pack.columns, *([FIREFIGHT_COLUMN] if pack.firefight else [])]
    lines = [f"{pack.name} ({pack.provenance})",
             f"Assault et Mêlée: {len(columns)} columns, {' '.join(columns)}"
             + ("" if pack.assault_provenance == pack.provenance
                else f" ({pack.assault_provenance})")]
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
        lines.append(f"Square (Carré) Realization: {', '.join(pack.carre.results)}{source}")
    return lines


def _recall(data: Mapping[str, Any], fallback: str, where: str) -> Table | None:
    if "recall" not in data:
        return None
    table = dict(_object(data["recall"], f"{where}: recall", None))
    provenance = _provenance(table, fallback, f"{where}: recall")
    table.pop("provenance", None)
    values: dict[str, float] = {}
    for nation, threshold in table.items():
        if isinstance(threshold, bool) or not isinstance(threshold, int) or \
                not 1 <= threshold <= 7:
            raise InvalidInput(f"{where}: recall: `{nation}` must be a threshold from 1 to 7 "
                               "(on 1d6).")
        values[str(nation).casefold()] = threshold
    return Table(values, provenance)


def _carre(value: Any, fallback: str, where: str) -> Carre | None:
    if value is None:
        return None
    table = dict(_object(value, where, None))
    provenance = _provenance(table, fallback, where)
    table.pop("provenance", None)
    results: dict[str, dict[int, dict[int, str]]] = {}
    for nation, by_distance in table.items():
        here = f"{where}: {nation}"
        if not isinstance(by_distance, Mapping) or not by_distance:
            raise InvalidInput(f"{here} maps the cavalry's distance (1 to 4 hexes) to rows.")
        results[str(nation).casefold()] = {}
        for distance, rows in by_distance.items():
            if str(distance) not in ("1", "2", "3", "4"):
                raise InvalidInput(f"{here}: `{distance}` is not a distance (1 to 4 hexes).")
            results[str(nation).casefold()][int(distance)] = _carre_rows(
                rows, f"{here}, {distance} hexes")
    return Carre(results, provenance)


def _carre_rows(rows: Any, where: str) -> dict[int, str]:
    if not isinstance(rows, Mapping):
        raise InvalidInput(f"{where}: rows map d66 ranges to C, D or R.")
    cells: dict[int, str] = {}
    for key, result in rows.items():
        if not isinstance(result, str) or result.strip().upper() not in CARRE_RESULTS:
            raise InvalidInput(f"{where}, row {key}: `{result}` is not C, D or R.")
        for roll in _d66_range(str(key), f"{where}: row `{key}`"):
            if roll in cells:
                raise InvalidInput(f"{where}: row {roll} is given twice.")
            cells[roll] = result.strip().upper()
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


def _rows(value: Any, columns: tuple[str, ...], firefight: bool, where: str
          ) -> dict[int, tuple[ChartResult, ...]]:
    if not isinstance(value, Mapping):
        raise InvalidInput(f"{where}: `rows` maps d66 values (or ranges like `11-16`) to one "
                           "result per column.")
    names = [*columns, *([FIREFIGHT_COLUMN] if firefight else [])]
    rows: dict[int, tuple[ChartResult, ...]] = {}
    for key, cells in value.items():
        for roll in _d66_range(str(key), f"{where}: row `{key}`"):
            if roll in rows:
                raise InvalidInput(f"{where}: row {roll} is given twice.")
            if not isinstance(cells, list) or len(cells) != len(names):
                raise InvalidInput(f"{where}: row {key} needs {len(names)} results, one per "
                                   f"column ({', '.join(names)}).")
            rows[roll] = tuple(parse_result(cell, f"{where}: row {key}, column {name}")
                               for cell, name in zip(cells, names, strict=True))
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
           positive: bool = False) -> Table | None:
    if name not in owner:
        return None
    value = owner[name]
    here = f"{where}: {name}"
    if not isinstance(value, Mapping) or not value:
        raise InvalidInput(f"{here} must be a JSON object of values.")
    values: dict[str, float] = {}
    for key, number in value.items():
        check_key(str(key), here)
        if isinstance(number, bool) or not isinstance(number, int | float) or \
                number != number or abs(number) > 100 or (positive and number <= 0):
            raise InvalidInput(f"{here}: `{key}` must be a "
                               + ("positive " if positive else "") + "number.")
        values[str(key)] = number
    return Table(values, _provenance(owner, fallback, here))
