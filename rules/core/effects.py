"""How each kind of effect reads: a small core vocabulary, and each rule set's own kinds.

An effect is data (``rules.core.records.Effect``): a kind, the unit it falls on, an amount,
a value, and the key of the rule set whose procedure made it. The core vocabulary covers what
every rule set has in some form: damage counted in the rule set's own word (SP, figures,
blocks), a marker set or cleared, a move with its unit of distance and its direction, a unit
removed, a leader hit, an engagement begun or ended. A rule set declares its own kinds, with
their texts, in its entry (``RuleSet``'s ``effects``), and the kinds that count a loss in a
number (``RuleSet``'s ``losses``): both are kept under the rule set's key, so two rule sets may
use the same word without coordinating, and the core names no rule set. How battle state
applies and undoes effects is the rule set's ``apply_effects`` (the battle log undoes whatever
it changed).

A text is the words that follow the unit's name (``loses 2 SP``), as a format string over the
effect's ``amount``, ``value``, ``measure`` and ``direction``, or a function of the effect.
A text beginning with ``:`` follows the name with a colon instead (``Wolfe: units of his
command ... are shaken``).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any

EffectText = str | Callable[[Any], str]

CORE_KEY = ""  # the namespace of the core vocabulary, which every rule set reads

# (rule set key, kind) -> text; and (rule set key, kind) -> the measure a loss counts in.
_TEXTS: dict[tuple[str, str], EffectText] = {}
_LOSSES: dict[tuple[str, str], str | None] = {}
_FATES: dict[tuple[str, str], tuple[str, str]] = {}
_REMARKS: set[tuple[str, str]] = set()
FATES = ("falls back", "routs", "gone")
"""How far a unit gives way, least first: what the odds read first ("who wins")."""


def register_effects(texts: Mapping[str, EffectText], ruleset: str = CORE_KEY,
                     losses: Mapping[str, str | None] | None = None,
                     fates: Mapping[str, tuple[str, str]] | None = None,
                     remarks: Collection[str] = ()) -> None:
    """A rule set's own kinds and their texts, under its key (its entry calls this); the
    kinds among them, or of the core, that count a loss in a number, with the measure it
    counts in (None: the effect's own ``measure``); and the kinds by which a unit gives way,
    with how far (one of ``FATES``) and how a player says it (``("gone", "breaks")``); a
    kind whose effect carries one value may be declared for it alone (``lose_sp=last``);
    and the ``remarks``, kinds (or a kind with one value, as a fate's) whose effect changes
    nothing on the table but tells the players so (``command_shaken=``: a general's fall
    shakes no unit), said in the reply and left out of a result's label.
    Declaring a key again replaces what it declared: one key is one rule set."""
    for kind, text in texts.items():
        if ruleset != CORE_KEY and (CORE_KEY, str(kind)) in _TEXTS:
            raise ValueError(f"the effect kind `{kind}` is a core kind: use it as it reads, "
                             "or give yours a name of its own")
        _TEXTS[(ruleset, str(kind))] = text
    for kind, measure in (losses or {}).items():
        _LOSSES[(ruleset, str(kind))] = measure
    for kind, (fate, said) in (fates or {}).items():
        if fate not in FATES:
            raise ValueError(f"the fate of `{kind}` is one of {', '.join(FATES)}, not {fate!r}")
        _FATES[(ruleset, str(kind))] = fate, said
    _REMARKS.difference_update({key for key in _REMARKS if key[0] == ruleset})
    _REMARKS.update((ruleset, str(kind)) for kind in remarks)


def is_remark(effect: Any) -> bool:
    """Whether the effect only remarks on the result, as its rule set declared it: the
    reply says it, a result's label (``prepared.label_of``) does not."""
    if effect.value is not None and (effect.ruleset, f"{effect.kind}={effect.value}") in _REMARKS:
        return True
    return (effect.ruleset, str(effect.kind)) in _REMARKS


def declared_fate(effect: Any) -> tuple[str, str] | None:
    """How far the effect's kind makes its unit give way, as its rule set declared it, and
    how a player says it; None when it declared nothing for that kind."""
    if effect.value is not None:
        found = _FATES.get((effect.ruleset, f"{effect.kind}={effect.value}"))
        if found is not None:
            return found
    return _FATES.get((effect.ruleset, str(effect.kind)))


def is_registered(kind: str, ruleset: str = CORE_KEY) -> bool:
    return (ruleset, kind) in _TEXTS or (CORE_KEY, kind) in _TEXTS


def loss_measure(effect: Any) -> tuple[bool, str | None]:
    """Whether the effect's kind counts a loss in a number (in its rule set or the core),
    and the measure it counts in (None: the effect's own)."""
    for key in ((effect.ruleset, str(effect.kind)), (CORE_KEY, str(effect.kind))):
        if key in _LOSSES:
            return True, _LOSSES[key]
    return False, None


def effect_words(effect: Any) -> str:
    """The words that follow the unit's name."""
    kind = str(effect.kind)
    text = _TEXTS.get((effect.ruleset, kind))
    if text is None:
        text = _TEXTS.get((CORE_KEY, kind))
    if text is None:
        raise KeyError(f"no text for the effect kind `{effect.kind}` of "
                       f"`{effect.ruleset or 'the core'}`: declare it in the rule set's "
                       "entry (RuleSet.effects)")
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


# Measures written in the singular for a loss or a move of one (``1 block``), and their plural.
PLURALS = {"block": "blocks", "increment": "increments", "figure": "figures",
           "casualty": "casualties", "step": "steps", "hex": "hexes"}


def plural(measure: str) -> str:
    """``blocks`` for ``block``: a measure counts with its plural (``1 block`` and ``2
    blocks`` are one loss)."""
    return PLURALS.get(measure, measure)


def singular(measure: str) -> str:
    """``increment`` for ``increments``, ``casualty`` for ``casualties``; SP stays SP."""
    if not (measure.endswith("s") and measure.islower()):
        return measure
    if measure.endswith("ies"):
        return measure[:-3] + "y"
    if measure.endswith(("xes", "ches", "shes")):
        return measure[:-2]
    return measure[:-1]


def _damage(effect: Any) -> str:
    measure = effect.measure or "strength"
    if effect.amount == 1:
        measure = singular(measure)  # 1 increment, 1 figure
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
register_effects(CORE, losses={"damage": None})
