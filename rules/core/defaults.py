"""What most rule sets write alike, written once: reading and checking a roster unit's words
from its ``FieldSet``, applying the core effects to a roster, one dispatcher from a
procedure's name to its ``prepare``, and one input path per procedure (a JSON request of
``huzzah resolve`` is read as the slash command's options are).

A rule set takes what fits and writes its own where its rules differ: every piece here is an
ordinary value of ``BattleRules`` or ``Procedure`` (docs/adding-a-rule-set.md).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.core.decisions import Answers, given_answers
from rules.core.dice import DiceSource
from rules.core.errors import InvalidInput
from rules.core.fields import Field, FieldSet, json_safe
from rules.core.names import name_key
from rules.core.records import Effect, EffectKind, Resolution
from rules.core.registry import BattleRules, Prepared, Procedure
from rules.core.roster import (
    GONE,
    Change,
    Roster,
    RosterGeneral,
    RosterUnit,
    disengage,
    engagement_changes,
    roster_changes,
)

# A procedure's prepare: (the command's options or a JSON request, the battle's roster or
# None for a quick lookup, the battle's settings) -> a ready-to-roll procedure.
Prepare = Callable[[Mapping[str, Any], Roster | None, Mapping[str, Any]], Prepared]
# A procedure as played once the player's answers are known.
Play = Callable[[DiceSource, Answers], Resolution]


def dispatcher(procedures: Mapping[str, Prepare]) -> Callable[..., Prepared]:
    """``BattleRules.prepare``: ``prepare(procedure, options, roster=None, settings=None)``."""

    def prepare(procedure: str, options: Mapping[str, Any], roster: Roster | None = None,
                settings: Mapping[str, Any] | None = None) -> Prepared:
        return procedures[procedure](options, roster, settings or {})

    return prepare


# BattleRules fields a battle module may give by these names; `battle_rules` reads them.
_OPTIONAL = {"phrases": "CHANGE_PHRASES", "unit_words": "unit_words", "new_turn": "new_turn",
             "reminders": "reminders", "settings": "SETTINGS",
             "engagements": "ENGAGEMENT_WORDS", "marker_fields": "GM_MARKERS",
             "check_side": "check_side", "side_words": "side_words",
             "default_strength": "default_strength",
             "check_edit": "check_edit"}


def battle_rules(battle: Any, prepare: Callable[..., Prepared], **more: Any) -> BattleRules:
    """``BattleRules`` from a battle module laid out as the built-in rule sets lay theirs out:
    ``PHASES``, ``ROSTER_FIELDS``, ``read_roster_attributes``, ``check_unit`` and
    ``apply_effects``, and where it has them ``CHANGE_PHRASES``, ``unit_words``,
    ``new_turn``, ``reminders``, ``SETTINGS``, ``ENGAGEMENT_WORDS``, ``GM_MARKERS``,
    ``check_side``, ``side_words``, ``default_strength`` and ``check_edit``; ``more`` gives
    the other fields."""
    found = {name: getattr(battle, attr) for name, attr in _OPTIONAL.items()
             if hasattr(battle, attr)}
    return BattleRules(phases=battle.PHASES, unit_fields=battle.ROSTER_FIELDS,
                       read_attributes=battle.read_roster_attributes,
                       check_unit=battle.check_unit, prepare=prepare,
                       apply_effects=battle.apply_effects, **(found | more))


@dataclass(frozen=True)
class Inputs:
    """A procedure's inputs, declared once: its ``summary``, and the ``keys`` of a JSON
    request, which are its slash command's options. ``renamed`` maps a request field the
    versioned JSON schema names otherwise to the option it is (``{"attackers":
    "chargers"}``); a refusal about that option names the field as the request wrote it."""

    summary: str
    keys: tuple[str, ...]
    renamed: Mapping[str, str] = field(default_factory=dict)


FIELD_NAMES = "request_fields"
"""Among options read from a JSON request: each renamed option's name in the request."""


def named(options: Mapping[str, Any], option: str) -> str:
    """What to call an option in a refusal: the request's field where it was renamed."""
    return options.get(FIELD_NAMES, {}).get(option, option)


def procedures(prepare: Callable[..., Prepared],
               listed: Mapping[str, Inputs | tuple[str, tuple[str, ...]]]
               ) -> dict[str, Procedure]:
    """Each procedure (name -> its ``Inputs``, or its summary and request keys) read from
    a JSON request through ``prepare``, as the slash command reads its options: one input
    path. The request's ``settings`` are handed as a battle's settings."""

    def reader(name: str, inputs: Inputs) -> Callable[[Mapping[str, Any]], Prepared]:
        def prepared(request: Mapping[str, Any]) -> Prepared:
            options = dict(request)
            for given, option in inputs.renamed.items():
                if given in options:
                    options[option] = options.pop(given)
            if inputs.renamed:
                options[FIELD_NAMES] = {v: k for k, v in inputs.renamed.items()}
            return prepare(name, options, None, request.get("settings") or {})

        return prepared

    made = {}
    for name, declared in listed.items():
        inputs = declared if isinstance(declared, Inputs) else Inputs(*declared)
        made[name] = Procedure(name, inputs.summary, inputs.keys, reader(name, inputs))
    return made


def asking(options: Mapping[str, Any], play: Play) -> Prepared:
    """A procedure that may ask questions: it takes the answers the options give ahead
    (``choices``, or ``answers`` in JSON), then those the bot or the odds walk add."""
    given = dict(options)

    def prepared(dice: DiceSource, answers: Answers | None = None) -> Resolution:
        return play(dice, given_answers(given, answers))

    return prepared


def read_words(fields: FieldSet, text: str, where: str, example: str,
               noun: str = "unit", fights: Sequence[tuple[FieldSet, str]] = ()
               ) -> dict[str, Any]:
    """A roster unit's words as typed (``/unit add words:``): words only, its name has its
    own option. ``example`` is words that would do (``inf regular morale=4``); ``fights``
    the words said of a unit in one fight, each with a command that says one, which the
    roster does not keep: such a word is refused with where it goes."""
    try:
        name, values = fields.read_text(text, where, names=False)
    except InvalidInput:
        _refuse_fight_word(fields, text, where, fights)
        raise
    if name is not None:
        raise InvalidInput(f"{where}: only words go here (`{example}`), not `{name}:`.",
                           hint=f"The {noun}'s name has its own option.")
    return values


def _refuse_fight_word(fields: FieldSet, text: str, where: str,
                       fights: Sequence[tuple[FieldSet, str]]) -> None:
    for word in text.split():
        for fight, command in fights:
            if fight.knows(word) and not fields.knows(word):
                raise InvalidInput(
                    f"{where}: `{word}` is said of a unit in one fight; the roster does not "
                    "keep it.", hint=f"Give it after the unit's name in the command, e.g. "
                                     f"`{command}`.")


@dataclass(frozen=True)
class RosterWords:
    """A roster unit's words (``/unit add words:``), read and checked with the very
    ``FieldSet`` and unit builder the rule set's quick lookups use.

    ``required`` names the fields a new unit must have; ``example`` is words that would do
    (said when some are missing); ``strength`` is the lookup's field the roster's strength
    stands for (checked by its range), None when the lookups count none."""

    fields: FieldSet
    build: Callable[[str, Mapping[str, Any], str], Any]
    required: tuple[str, ...] = ()
    example: str = ""
    strength: Field | None = None

    def read(self, text: str, where: str, *, require_arm: bool) -> dict[str, Any]:
        """``BattleRules.read_attributes``: the words as typed, ``require_arm`` for a new
        unit (its required fields must be there)."""
        values = read_words(self.fields, text, where, self.example)
        if require_arm:
            self._require(values, where)
        return json_safe(values)

    def check(self, name: str, attributes: Mapping[str, Any], strength: int | None,
              where: str) -> dict[str, Any]:
        """``BattleRules.check_unit``: the words and strength together, by the lookup's
        own checks (the unit is built as a quick lookup builds it)."""
        values = self.fields.read_json(dict(attributes), where)
        self._require(values, where)
        unit = dict(values)
        if strength is not None and self.strength is not None:
            unit[self.strength.name] = self.strength.convert(strength, where)
        self.build(name, unit, where)
        return json_safe(values)

    def _require(self, values: Mapping[str, Any], where: str) -> None:
        missing = [f for f in self.required if f not in values]
        if missing:
            raise InvalidInput(f"{where}: give the unit's {' and '.join(missing)}.",
                               hint=f"e.g. `{self.example}`.")


# What a unit's own effect does to it: (the unit, the effect) -> the unit after; likewise a
# general's.
UnitEffect = Callable[[RosterUnit, Effect], RosterUnit]
GeneralEffect = Callable[[RosterGeneral, Effect], RosterGeneral]


def apply_each(effects: Sequence[Effect], roster: Roster, unit_effect: UnitEffect,
               general_effect: GeneralEffect | None = None) -> tuple[Roster, list[Change]]:
    """Each effect applied to the unit (or else the general) it names, by the rule set's own
    functions; an effect on a name the roster does not hold changes nothing. The roster's
    engagements stay as they are."""
    units = {name_key(u.name): u for u in roster.units}
    generals = {name_key(g.name): g for g in roster.generals}
    for effect in effects:
        key = name_key(effect.unit)
        if key in units:
            units[key] = unit_effect(units[key], effect)
        elif key in generals and general_effect is not None:
            generals[key] = general_effect(generals[key], effect)
    after = Roster(tuple(units.values()), tuple(generals.values()), roster.engagements)
    return after, roster_changes(roster, after)


def apply_effects(effects: Sequence[Effect], roster: Roster, own: UnitEffect | None = None,
                  ) -> tuple[Roster, list[Change]]:
    """``BattleRules.apply_effects`` for the core vocabulary: ``damage`` takes strength
    (never below 0), ``marker_set``/``marker_cleared`` set and clear the attribute named by
    the value, ``removed`` takes the unit out (destroyed), ``engagement_ended`` ends its
    engagements of the kind the value names; any other kind goes to ``own`` (None leaves
    the unit as it was: a move the table makes, not the roster). A unit gone leaves its
    engagements. An effect on a name the roster does not hold changes nothing."""
    after = roster
    for effect in effects:
        unit = _find(after, effect.unit)
        if unit is None:
            continue
        if effect.kind == EffectKind.ENGAGEMENT_ENDED:
            after, _ = disengage(after, unit.name, effect.value)
            continue
        changed = _core_effect(unit, effect) or (own(unit, effect) if own else unit)
        if changed.gone:
            after, _ = disengage(after, unit.name)  # nobody stays engaged with it
        after = Roster(tuple(changed if u is unit else u for u in after.units),
                       after.generals, after.engagements)
    return after, roster_changes(roster, after) + engagement_changes(roster, after)


def _core_effect(unit: RosterUnit, effect: Effect) -> RosterUnit | None:
    match effect.kind:
        case EffectKind.DAMAGE if unit.strength is not None:
            return unit.changed(strength=max(0, unit.strength - (effect.amount or 0)))
        case EffectKind.MARKER_SET:
            return unit.with_attr(str(effect.value), True)
        case EffectKind.MARKER_CLEARED:
            return unit.with_attr(str(effect.value), None)
        case EffectKind.REMOVED:
            return unit.changed(status=GONE, gone_reason="destroyed")
    return None


def _find(roster: Roster, name: str) -> RosterUnit | None:
    key = name_key(name)
    return next((u for u in roster.units if name_key(u.name) == key and not u.gone), None)


PhaseWarning = Callable[[str, Mapping[str, Any], Roster, str | None], str | None]


def phase_warnings(phases: Sequence[str], belongs: Mapping[str, str],
                   short: Mapping[str, str] | None = None) -> PhaseWarning:
    """``BattleRules.phase_warning`` for a rule set whose procedures each belong to one phase:
    ``belongs`` maps a procedure to its phase (``{"melee": "melee"}``); one not in it is
    played in any phase. The procedure still runs: GMs play out of order on purpose, but a
    slip should not pass unnoticed. The remark names the procedure's phase and the battle's,
    by their ``short`` names where the rule set has them ("Out of phase: for melee, not routing
    tests"): one line of a phone; the player knows what they played."""
    names = dict(short or {})

    def warning(procedure: str, options: Mapping[str, Any], roster: Roster,
                phase: str | None) -> str | None:
        if procedure not in belongs or phase not in phases:
            return None
        own = belongs[procedure]
        if phase == own:
            return None
        return f"Out of phase: for {names.get(own, own)}, not {names.get(phase, phase)}"
    return warning
