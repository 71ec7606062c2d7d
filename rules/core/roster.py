"""A battle's roster as the engine sees it, and the changes effects make to it.

Storage keeps units and generals in its own tables; it hands the engine these plain
records, and writes back the ``Change``s the engine returns. Every change carries the
value before and after, so the bot can show it (``2nd Foot: 4 → 2 SP``) and undo it.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from rules.core.errors import InvalidInput

ACTIVE = "active"
GONE = "gone"


def name_key(name: str) -> str:
    return " ".join(name.split()).casefold()


@dataclass(frozen=True)
class RosterUnit:
    name: str
    side: str
    attributes: Mapping[str, Any] = field(default_factory=dict)
    strength: int | None = None
    status: str = ACTIVE
    gone_reason: str | None = None
    commander: str | None = None

    @property
    def gone(self) -> bool:
        return self.status == GONE

    def attr(self, key: str, default: Any = None) -> Any:
        return self.attributes.get(key, default)

    def with_attr(self, key: str, value: Any) -> RosterUnit:
        return replace(self, attributes={**self.attributes, key: value})


@dataclass(frozen=True)
class RosterGeneral:
    name: str
    side: str
    unit: str | None = None
    wounds: int = 0
    status: str = ACTIVE


@dataclass(frozen=True)
class Change:
    """One field of one unit or general, before and after."""

    who: str
    kind: str  # "unit" or "general"
    field: str
    before: Any
    after: Any


@dataclass(frozen=True)
class Roster:
    units: tuple[RosterUnit, ...] = ()
    generals: tuple[RosterGeneral, ...] = ()

    def unit(self, name: str, *, allow_gone: bool = False) -> RosterUnit:
        """The unit called ``name``; a clear error when it is unknown or gone."""
        key = name_key(name)
        for unit in self.units:
            if name_key(unit.name) == key:
                if unit.gone and not allow_gone:
                    raise InvalidInput(
                        f"{unit.name} is out of the battle ({unit.gone_reason or 'gone'}).",
                        hint="A GM can bring it back with `/gm restore`.",
                    )
                return unit
        known = [u.name for u in self.units if not u.gone]
        close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
        raise InvalidInput(
            f"There is no unit called `{name}` in this battle."
            + (f" Did you mean `{close[0]}`?" if close else ""),
            hint="`/unit list` shows the roster; `/unit add` adds a unit.",
        )

    def general(self, name: str) -> RosterGeneral:
        key = name_key(name)
        for general in self.generals:
            if name_key(general.name) == key:
                return general
        raise InvalidInput(
            f"There is no general called `{name}` in this battle.",
            hint="`/general add` adds one.",
        )

    def general_with(self, unit_name: str) -> RosterGeneral | None:
        key = name_key(unit_name)
        for general in self.generals:
            if general.unit and name_key(general.unit) == key and general.status == ACTIVE:
                return general
        return None


def unit_changes(before: RosterUnit, after: RosterUnit) -> list[Change]:
    changes = []
    for name in ("name", "side", "strength", "status", "gone_reason", "commander"):
        old, new = getattr(before, name), getattr(after, name)
        if old != new:
            changes.append(Change(before.name, "unit", name, old, new))
    for key in sorted(set(before.attributes) | set(after.attributes)):
        old, new = before.attributes.get(key), after.attributes.get(key)
        if old != new:
            changes.append(Change(before.name, "unit", key, old, new))
    return changes


def general_changes(before: RosterGeneral, after: RosterGeneral) -> list[Change]:
    return [
        Change(before.name, "general", name, getattr(before, name), getattr(after, name))
        for name in ("name", "side", "unit", "wounds", "status")
        if getattr(before, name) != getattr(after, name)
    ]


def _value(field_name: str, value: Any, strength_label: str = "SP") -> str:
    if field_name == "strength":
        return "?" if value is None else f"{value} {strength_label}"
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def describe_changes(changes: Iterable[Change], strength_label: str = "SP") -> list[str]:
    """One line per unit or general: ``2nd Foot: 4 → 2 SP, shaken``."""
    lines: dict[tuple[str, str], list[str]] = {}
    for change in changes:
        lines.setdefault((change.kind, change.who), []).append(
            _describe_one(change, strength_label))
    return [f"{who}: {', '.join(parts)}" for (_, who), parts in lines.items()]


def _describe_one(change: Change, strength_label: str) -> str:
    if isinstance(change.after, bool) and change.before in (None, False, True):
        label = change.field.replace("_", " ")
        return label if change.after else f"no longer {label}"
    if change.field == "strength":
        before = "?" if change.before is None else str(change.before)
        return f"{before} → {_value('strength', change.after, strength_label)}"
    if change.field == "status" and change.after == GONE:
        return "out of the battle"
    return f"{change.field.replace('_', ' ')} {_value(change.field, change.before)} → " + _value(
        change.field, change.after
    )
