"""How each kind of effect reads: a small core vocabulary, and each rule set's own kinds.

An effect is data (``rules.core.records.Effect``): a kind, the unit it falls on, an amount,
a value. The core vocabulary covers what every rule set has in some form: damage counted in
the rule set's own word (SP, figures, blocks), a marker set or cleared, a move with its unit
of distance and its direction, a unit removed, a leader hit, an engagement begun or ended. A
rule set registers its own kinds, with their texts, when its entry is made (``RuleSet``'s
``effects``), that is when its package is imported: the core names no rule set, so an effect
of a rule set's own kind reads once that rule set is imported. How battle state applies and
undoes effects is the rule set's ``apply_effects`` (the battle log undoes whatever it
changed).

A text is the words that follow the unit's name (``loses 2 SP``), as a format string over the
effect's ``amount``, ``value``, ``measure`` and ``direction``, or a function of the effect.
A text beginning with ``:`` follows the name with a colon instead (``Wolfe: units of his
command ... are shaken``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

EffectText = str | Callable[[Any], str]

_TEXTS: dict[str, EffectText] = {}


def register_effects(texts: Mapping[str, EffectText]) -> None:
    """Add kinds and their texts. Two rule sets may share a kind only if it reads alike."""
    for kind, text in texts.items():
        known = _TEXTS.get(kind)
        if known is not None and known != text:
            raise ValueError(f"the effect kind `{kind}` is already registered with another "
                             "text; give it a name of its own")
        _TEXTS[kind] = text


def is_registered(kind: str) -> bool:
    return kind in _TEXTS


def effect_words(effect: Any) -> str:
    """The words that follow the unit's name."""
    text = _TEXTS.get(str(effect.kind))
    if text is None:
        raise KeyError(f"no text for the effect kind `{effect.kind}`: register it with "
                       "rules.core.effects.register_effects")
    if callable(text):
        return text(effect)
    return text.format(amount=effect.amount, value=effect.value, measure=effect.measure,
                       direction=effect.direction)


def _distance(effect: Any) -> str:
    """``3"``, ``2 hexes``: inches are written against the number, other units after it."""
    measure = effect.measure or '"'
    return f"{effect.amount}{measure}" if measure == '"' else f"{effect.amount} {measure}"


def _moved(effect: Any) -> str:
    """``retreats 2 hexes toward its side``; a move the table measures has no distance."""
    verb = effect.value or "moves"
    distance = f" {_distance(effect)}" if effect.amount is not None else ""
    direction = f" {effect.direction}" if effect.direction else ""
    return f"{verb}{distance}{direction}"


def _damage(effect: Any) -> str:
    measure = effect.measure or "strength"
    if effect.amount == 1 and measure.endswith("s") and measure.islower():
        measure = measure[:-1]  # 1 increment, 1 figure; SP stays SP
    return f"loses {effect.amount} {measure}"


CORE: dict[str, EffectText] = {
    "damage": _damage,
    "marker_set": "is {value}",
    "marker_cleared": "is no longer {value}",
    "moved": _moved,
    "removed": "is removed from the game",
    "leader_casualty": "is hit: {value}",
    "engagement_started": "is engaged in a {value}",
    "engagement_ended": "is out of its {value}",
}
register_effects(CORE)
