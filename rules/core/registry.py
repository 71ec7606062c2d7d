"""Rule sets and their procedures, addressed by name from JSON requests."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.core.dice import (
    ANY_DICE,
    D6_DICE,
    DiceFaces,
    DiceSource,
    RandomSource,
    ScriptedSource,
    parse_dice,
)
from rules.core.effects import EffectText, register_effects
from rules.core.engagements import EngagementWords, declare_engagement_words
from rules.core.errors import InvalidInput, echo
from rules.core.fields import FieldSet, split_words
from rules.core.notation import QUOTE
from rules.core.records import Effect, Resolution
from rules.core.roster import Change, Phrase, Roster, Wording, declare_wording

Prepared = Callable[..., Resolution]

COMMON_KEYS = ("ruleset", "procedure", "dice", "seed", "answers")


@dataclass(frozen=True)
class Procedure:
    """A procedure a JSON request names: ``keys`` are the request's own fields, and
    ``prepare(request)`` reads them into a procedure ready to roll, ``prepared(dice)`` (one
    that may ask also takes ``answers``), as its slash command's options are read."""

    name: str
    summary: str
    keys: tuple[str, ...]
    prepare: Callable[[Mapping[str, Any]], Prepared]

    def run(self, request: Mapping[str, Any], dice: DiceSource) -> Resolution:
        return self.prepare(request)(dice)


@dataclass(frozen=True)
class UnitWords:
    """A roster unit as a player reads it: what it is (``infantry, regular, morale 4``) and
    the markers on it (``shaken``, ``in melee with Picardie``)."""

    described: tuple[str, ...] = ()
    markers: tuple[str, ...] = ()
    values: tuple[str, ...] = ()
    """The words of ``described`` that are printed values the procedures read (``morale
    4``): `/unit list` shows them, `/battle show` leaves them to it so that a unit takes a
    line of a phone there."""


@dataclass(frozen=True)
class HelpTopic:
    """What ``/help topic:<rule set>`` shows: the unit words each option takes, then
    reference text its players look up often."""

    words: tuple[tuple[str, FieldSet], ...]
    reference: tuple[tuple[str, tuple[str, ...]], ...] = ()


@dataclass(frozen=True)
class ChartsSpec:
    """Charts the players own and a GM attaches to a battle as a file (a chart pack): read
    strictly when attached, and handed to every procedure in the settings under ``key``."""

    key: str
    # Reads the file's JSON: the lines that say what it holds and where its values come
    # from; InvalidInput, naming the table, row and column, when it is not a pack.
    describe: Callable[[Any], list[str]]
    docs: str  # where its format is documented


@dataclass(frozen=True)
class BattleRules:
    """What battle state needs from a rule set: its roster fields, phases and effects."""

    phases: tuple[str, ...]
    unit_fields: FieldSet
    read_attributes: Callable[..., dict[str, Any]]
    # A unit's words and strength checked together, by the same checks the rule set's
    # lookups make on a unit typed there (types, ranges, d66 values, strength against full
    # strength, fields that need one another): (name, words, strength or None, where) ->
    # the words as stored, or InvalidInput naming the field and the values it takes.
    # Whatever sets a roster unit's words or strength calls it before writing.
    check_unit: Callable[[str, Mapping[str, Any], int | None, str], dict[str, Any]]
    prepare: Callable[[str, Mapping[str, Any], Roster | None, Mapping[str, Any]], Prepared]
    apply_effects: Callable[[Sequence[Effect], Roster], tuple[Roster, list[Change]]]
    # Markers the rules keep on a unit beside its words (Le Baton's casualties, halted):
    # the rules' effects change them, and a GM may set them (`/gm set`); `/unit add` takes
    # words only.
    marker_fields: FieldSet = field(default_factory=lambda: FieldSet(()))
    # The strength of a unit added without one, where the rule set knows it from its words
    # (Tricorne: its full strength): (stored words) -> strength. None: left unknown.
    default_strength: Callable[[Mapping[str, Any]], int] | None = None
    # A change of a unit's words only the rules or a GM make (La Bataille: taking off an
    # inverted Charge marker before the new turn does): (words before, words after) -> why
    # a player may not, or None.
    check_edit: Callable[[Mapping[str, Any], Mapping[str, Any]], str | None] | None = None
    # A unit's side held to its own words, where they name one (Le Baton's nation on a side
    # called French or British): (side, words) -> None, or InvalidInput.
    check_side: Callable[[str, Mapping[str, Any]], None] | None = None
    # Words a unit added to a side takes from the side's name where its own leave them out
    # (Le Baton: the nation of a side called French): side -> words.
    side_words: Callable[[str], Mapping[str, Any]] = lambda side: {}
    # What a new turn does by itself (a halt ends), and what each phase should remind of.
    new_turn: Callable[[Roster], tuple[Roster, list[Change]]] | None = None
    reminders: Callable[[Roster, str | None], list[str]] | None = None
    strength_label: str = "SP"  # what a unit's strength counts
    # Other words a unit's strength may be typed with among its words: the short word the
    # rule set's quick lookups take (La Bataille's `inc=5`), so that a help example copied
    # into `/unit add` works there too.
    strength_aliases: tuple[str, ...] = ()
    # The most a unit's strength may be where the rule set bounds it (La Bataille's 40
    # increments); None: the bot's own bound (rules.core.roster.MAX_STRENGTH).
    max_strength: int | None = None
    # Words a typical unit is added with (`/unit add words:`, strength aside), e.g. `inf
    # regular morale=4`: /help shows them, and the shared tests add a unit with them.
    unit_example: str = ""
    dice_faces: DiceFaces = D6_DICE  # what its dice show; typed-in and queued dice must fit
    # A remark when a procedure is played outside its phase (it still runs: GMs play out of
    # order on purpose): (procedure, options, roster, current phase) -> warning or None.
    phase_warning: Callable[[str, Mapping[str, Any], Roster, str | None], str | None] | None = None
    # The options a move in a battle takes from the battle's phase when the player leaves
    # them out (Le Baton's `phase` of a melee or a morale check): (procedure, options,
    # current phase) -> options.
    phase_options: Callable[[str, Mapping[str, Any], str | None], dict[str, Any]] | None = None
    # How a roster line reads a unit's stored attributes.
    unit_words: Callable[[Mapping[str, Any]], UnitWords] = lambda attributes: UnitWords()
    # Light wounds a general may carry and stay in play (0: the rule set counts none).
    max_wounds: int = 0
    # The bounds of a general's value where the rule set counts one (a leader's dice
    # modifier); None: its generals carry none.
    general_values: tuple[int, int] | None = None
    # A battle's settings, where players are known to read the rules differently; each
    # field's help says the default and why (`/battle setting` changes one).
    settings: FieldSet = field(default_factory=lambda: FieldSet(()))
    # Refuses a battle's settings that each read well but not together, or a new value a
    # setting may no longer take (InvalidInput): (settings, the battle's settings before a
    # GM's change; None for a backup's, read as they were set; ``where``: what a message
    # leads with, blank for one setting a GM gives) -> anything.
    check_settings: Callable[..., Any] | None = None
    # What each side has won so far, one line per side (Victory Banners), for /battle show.
    standings: Callable[[Roster], list[str]] | None = None
    # The chart pack a GM may attach (`/battle charts`); None: the rule set reads none.
    charts: ChartsSpec | None = None
    # How a change to each of its own unit fields reads (``"shaken": Phrase("is shaken",
    # "is no longer shaken")``), and its own reasons for leaving the battle
    # (``"eliminated": "is eliminated"``; rules.core.roster.GONE_REASONS are shared).
    phrases: Mapping[str, Phrase] = field(default_factory=dict)
    gone_reasons: Mapping[str, str] = field(default_factory=dict)
    # How its own kinds of engagement read where the plain words would not
    # (``{"charge": EngagementWords(label, "is recorded", "is cleared")}``).
    engagements: Mapping[str, EngagementWords] = field(default_factory=dict)

    # A quick lookup's words for the general or leader with a unit (`general`, `leader`):
    # a battle's roster attaches him with `/general add … unit:` instead, so typed among a
    # roster unit's words they are refused with that said, not as unknown words.
    general_words: tuple[str, ...] = ()

    def strength_of(self, strength: int | None, attributes: Mapping[str, Any]) -> int | None:
        """A unit's strength: one added without it has the rule set's default, where it gives
        one (``default_strength``)."""
        if strength is None and self.default_strength is not None:
            return self.default_strength(attributes)
        return strength

    def refuse_general_words(self, text: str, where: str) -> None:
        """InvalidInput when a roster unit's words name its general (``general="Wolfe"``) or
        set one of the markers the rules keep (``casualties=5``)."""
        try:
            tokens = split_words(text)
        except ValueError:
            return  # an open quote: reading the words says so
        for token in tokens:
            key, sep, value = token.partition("=")
            word = key.lower().replace("-", "_")
            if self.marker_fields.knows(token) and not self.unit_fields.knows(token):
                shown = echo(value.strip()) if sep else "true"
                try:
                    self.marker_fields.read_text(token, where, names=False)
                except InvalidInput:
                    shown = "…"  # `/gm set` would refuse the value typed: none is suggested
                raise InvalidInput(
                    f"{where}: in a battle `{word}` is a marker the rules keep, not a word of "
                    "the unit.",
                    hint=f"Leave it out of the words; a GM sets it with `/gm set unit:… "
                         f"field:{word} value:{shown}`.")
            if word in self.general_words and not self.unit_fields.knows(token):
                name = f'"{echo(value.strip().strip(QUOTE))}"' if value.strip(QUOTE) else "…"
                kind = "one of the battle's generals" if word == "general" else "a general"
                raise InvalidInput(
                    f"{where}: in a battle a unit's {word} is {kind}, not a word of the unit.",
                    hint=f"Add the unit without it, then the {word} with "
                         f"`/general add name:{name} side:… unit:…`.")

    @property
    def wording(self) -> Wording:
        """How its roster changes read (``rules.core.roster.describe_changes``)."""
        return Wording(self.strength_label, self.phrases, self.gone_reasons, self.engagements)


@dataclass(frozen=True)
class RuleSet:
    """Everything the bot needs to know of a rule set. Its slash commands live in one module
    of ``bot/rulesets/`` named after its key (see docs/adding-a-rule-set.md)."""

    key: str
    title: str
    procedures: Mapping[str, Procedure]
    help: HelpTopic
    battle: BattleRules | None = None
    # Its own effect kinds and how they read (beside the core vocabulary of
    # rules.core.effects), under its key: declared when the entry is made.
    effects: Mapping[str, EffectText] = field(default_factory=dict)
    # The kinds that count a loss in a number (its own, or the core's ``damage``), and the
    # measure each counts in (None: the effect's own ``measure``): the odds' expected losses.
    losses: Mapping[str, str | None] = field(default_factory=dict)
    # The kinds by which a unit gives way: how far (``rules.core.effects.FATES``) and how a
    # player says it (``{E.BROKEN: ("gone", "breaks")}``): the odds' "who wins".
    fates: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    # The kinds (or ``kind=value``) whose effect changes nothing on the table but says so
    # (a general's fall that shakes no unit): in the reply, not in a result's label.
    remarks: frozenset[str] = frozenset()
    # The procedures that decide no fight (Le Baton's charge: the melee after it does):
    # their odds name each result ("52nd fails to close"), not who wins or holds.
    no_winner: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        # A slip of a name here would quietly leave the odds of that procedure as they were.
        unknown = sorted(self.no_winner - set(self.procedures))
        if unknown:
            raise ValueError(f"{self.key}: `no_winner` names no procedure of it: {unknown}")
        register_effects(self.effects, self.key, self.losses, self.fates, self.remarks)
        if self.battle is not None:
            declare_wording(self.key, self.battle.wording)
            declare_engagement_words(self.key, self.battle.engagements)


def dice_source(dice: Any, seed: Any, faces: DiceFaces = ANY_DICE) -> DiceSource:
    """Scripted dice when given (a string of faces or a list), otherwise random (seedable)."""
    if dice is None:
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise InvalidInput("`seed` must be a whole number.")
        return RandomSource(seed)
    if isinstance(dice, str):
        return ScriptedSource(parse_dice(dice, faces))
    if isinstance(dice, list) and all(isinstance(d, int | str) for d in dice):
        return ScriptedSource(parse_dice(" ".join(str(d) for d in dice), faces))
    raise InvalidInput("`dice` must be a string like \"3 5\" or a list of faces like [3, 5].")


def resolve_request(rulesets: Mapping[str, RuleSet], request: Any) -> Resolution:
    """Resolve one JSON request (already parsed) against the registered rule sets."""
    ruleset, procedure = checked_request(rulesets, request)
    faces = ruleset.battle.dice_faces if ruleset.battle else ANY_DICE
    source = dice_source(request.get("dice"), request.get("seed"), faces)
    resolution = procedure.run(request, source)
    if isinstance(source, ScriptedSource):
        source.finish()
    return resolution


def checked_request(rulesets: Mapping[str, RuleSet], request: Any
                    ) -> tuple[RuleSet, Procedure]:
    """The rule set and procedure a JSON request names, once it is known to be an object
    with no NaN, no unknown rule set or procedure, and no field the procedure does not take."""
    if not isinstance(request, Mapping):
        raise InvalidInput("The request must be a JSON object.")
    _check_finite(request, "")
    ruleset = rulesets.get(str(request.get("ruleset")))
    if ruleset is None:
        raise InvalidInput(
            f"Unknown ruleset `{request.get('ruleset')}`.",
            hint=f"Use one of: {', '.join(rulesets)}.",
        )
    procedure = ruleset.procedures.get(str(request.get("procedure")))
    if procedure is None:
        raise InvalidInput(
            f"Unknown procedure `{request.get('procedure')}` for {ruleset.key}.",
            hint=f"Use one of: {', '.join(ruleset.procedures)}.",
        )
    allowed = set(COMMON_KEYS) | set(procedure.keys)
    unknown = sorted(set(request) - allowed)
    if unknown:
        raise InvalidInput(
            f"Unknown field `{unknown[0]}` in a {ruleset.key} {procedure.name} request.",
            hint=f"Fields: {', '.join(sorted(allowed))}.",
        )
    return ruleset, procedure


def _check_finite(value: Any, path: str) -> None:
    """Refuse NaN and Infinity anywhere in a request: Python's JSON reader accepts them as
    numbers, and NaN compares false with every bound, so no range check would catch it."""
    if isinstance(value, float) and not math.isfinite(value):
        written = "NaN" if math.isnan(value) else f"{'-' if value < 0 else ''}Infinity"
        raise InvalidInput(
            f"`{path or 'the request'}` is {written}, which is not a number the rules can use.",
            hint="Give an ordinary number; JSON has no NaN or Infinity.",
        )
    if isinstance(value, Mapping):
        for key, item in value.items():
            _check_finite(item, f"{path}.{key}" if path else str(key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _check_finite(item, f"{path}[{index}]")
