"""A result's steps as kept (a battle event's ``resolution``, a quick lookup's trace): the
plain JSON of ``Resolution.to_dict`` read back into records, to show again with the Steps
button, after a restart too."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.render.resolution import trace_messages
from rules.core.dice import Reading
from rules.core.records import Effect, Modifier, Resolution, Roll, Severity, Step


def _modifiers(data: Sequence[Mapping[str, Any]] | None) -> tuple[Modifier, ...]:
    return tuple(Modifier(int(m["value"]), str(m["reason"]), str(m.get("source") or ""))
                 for m in data or ())


def _roll(data: Mapping[str, Any]) -> Roll:
    dice = tuple(data.get("dice") or ())
    readings = tuple(Reading(r) for r in data.get("readings") or ())
    if len(readings) != len(dice):  # kept before readings were: each die as it fell
        readings = tuple(Reading.COUNTED for _ in dice)
    return Roll(label=str(data.get("label", "")), kind=str(data.get("kind", "")), dice=dice,
                modifiers=_modifiers(data.get("modifiers")), total=data.get("total"),
                target=data.get("target"), result=data.get("result"),
                notes=tuple(data.get("notes") or ()),
                target_modifiers=_modifiers(data.get("target_modifiers")),
                hits=data.get("hits"), readings=readings, count=str(data.get("count") or ""))


class _Said(Effect):
    """An effect kept as its words: shown as it was said, whatever its kind."""

    def describe(self) -> str:
        return self.detail


def _effect(data: Mapping[str, Any]) -> Effect:
    unit = str(data.get("unit", ""))
    return _Said("said", unit, detail=str(data.get("text") or unit))


def resolution_of(data: Mapping[str, Any]) -> Resolution:
    """The records a kept resolution was made from, as far as showing them needs."""
    severity = Severity.__members__.get(str(data.get("severity", "none")).upper(),
                                        Severity.NONE)
    steps = tuple(Step(title=str(s.get("title", "")), outcome=str(s.get("outcome", "")),
                       rolls=tuple(_roll(r) for r in s.get("rolls") or ()))
                  for s in data.get("steps") or ())
    return Resolution(ruleset=str(data.get("ruleset", "")),
                      procedure=str(data.get("procedure", "")),
                      headline=str(data.get("headline", "")), severity=severity,
                      steps=steps, effects=tuple(_effect(e) for e in data.get("effects") or ()),
                      notes=tuple(data.get("notes") or ()),
                      defaults=tuple(data.get("defaults") or ()))


def kept_trace_messages(data: Mapping[str, Any], *, dice_note: str = "",
                        battle_changes: Sequence[str] | None = None
                        ) -> list[list[discord.Embed]]:
    """The Steps of a kept resolution."""
    return trace_messages(resolution_of(data), dice_note=dice_note,
                          battle_changes=battle_changes)
