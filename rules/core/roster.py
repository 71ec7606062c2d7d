"""A battle's roster as the engine sees it, and the changes effects make to it.

Storage keeps units and generals in its own tables; it hands the engine these plain
records, and writes back the ``Change``s the engine returns. Every change carries the
value before and after, so the bot can say it (``2nd Foot loses 2 SP (now 2)``) and
undo it.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from rules.core.dice import FULL_WIDTH
from rules.core.engagements import Engagement, EngagementWords, engagement_words
from rules.core.errors import InvalidInput, code
from rules.core.headlines import listed, together
from rules.core.names import name_key

ACTIVE = "active"
GONE = "gone"


class UnknownUnit(InvalidInput):
    """A unit the battle's roster does not hold (its hint offers a quick lookup instead)."""


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
        return self.changed(attributes={**self.attributes, key: value})

    def changed(self, **fields: Any) -> RosterUnit:
        """This unit with ``fields`` in place of its own: ``dataclasses.replace``, without
        its look at every field's definition, which an effect paid on every move."""
        return type(self)(**{**self.__dict__, **fields})


@dataclass(frozen=True)
class RosterGeneral:
    name: str
    side: str
    unit: str | None = None
    wounds: int = 0
    status: str = ACTIVE
    value: int | None = None  # where the rule set counts one (BattleRules.general_values)


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
    engagements: tuple[Engagement, ...] = ()  # fights that last (see rules.core.engagements)

    def engaged(self, unit: str, kind: str | None = None) -> Engagement | None:
        """The engagement (of ``kind``, or any) ``unit`` is in, if any."""
        return next((e for e in self.engagements
                     if e.involves(unit) and kind in (None, e.kind)), None)

    def unit(self, name: str, *, allow_gone: bool = False) -> RosterUnit:
        """The unit called ``name``; a clear error when it is unknown or gone."""
        key = name_key(name)
        for unit in self.units:
            if name_key(unit.name) == key:
                if unit.gone and not allow_gone:
                    raise InvalidInput(
                        f"{unit.name} is {out_of_the_battle(unit.gone_reason)}.",
                        hint="A GM can bring it back with `/gm restore`" + (
                            ", once `/gm set field:strength` gives it some." if
                            unit.strength == 0 else "."),
                    )
                return unit
        raise UnknownUnit(
            f"There is no unit called {code(name)} in this battle."
            + self._did_you_mean(name, allow_gone),
            hint="`/unit list` shows the roster; `/unit add` adds a unit; or add `lookup:true` "
            "for a quick lookup that leaves the battle alone.",
        )

    def _did_you_mean(self, name: str, allow_gone: bool) -> str:
        """A unit whose name is a near miss: one still in the battle, else (where a unit out
        of it would not do) one out of it, said so."""
        known = [u for u in self.units if allow_gone or not u.gone]
        close = difflib.get_close_matches(name, [u.name for u in known], n=1, cutoff=0.6)
        if close:
            return f" Did you mean `{close[0]}`?"
        gone = {u.name: u for u in self.units if u.gone}
        close = difflib.get_close_matches(name, list(gone), n=1, cutoff=0.6)
        if close:
            out = out_of_the_battle(gone[close[0]].gone_reason)
            return f" Did you mean `{close[0]}`? It is {out}."
        return ""

    def general(self, name: str) -> RosterGeneral:
        key = name_key(name)
        for general in self.generals:
            if name_key(general.name) == key:
                return general
        close = difflib.get_close_matches(name, [g.name for g in self.generals], n=1,
                                          cutoff=0.6)
        raise InvalidInput(
            f"There is no general called {code(name)} in this battle."
            + (f" Did you mean `{close[0]}`?" if close else ""),
            hint="`/general add` adds one.",
        )

    def general_with(self, unit_name: str) -> RosterGeneral | None:
        key = name_key(unit_name)
        for general in self.generals:
            if general.unit and name_key(general.unit) == key and general.status == ACTIVE:
                return general
        return None


def unit_changes(before: RosterUnit, after: RosterUnit) -> list[Change]:
    if before is after:  # an effect leaves most units as they were: the same entry
        return []
    changes = []
    for name in ("name", "side", "strength", "status", "gone_reason", "commander"):
        old, new = getattr(before, name), getattr(after, name)
        if old != new:
            changes.append(Change(before.name, "unit", name, old, new))
    if before.attributes is after.attributes:  # a change of strength or status only
        return changes
    for key in sorted(set(before.attributes) | set(after.attributes)):
        old, new = before.attributes.get(key), after.attributes.get(key)
        if old != new:
            changes.append(Change(before.name, "unit", key, old, new))
    return changes


def roster_changes(before: Roster, after: Roster) -> list[Change]:
    """Every field that differs between two rosters of the same units and generals, in
    order. An entry an effect left alone is the very same object, passed over without a
    look: a big battle's move changes a few entries of hundreds."""
    changes = [c for old, new in zip(before.units, after.units, strict=True)
               if old is not new for c in unit_changes(old, new)]
    changes += [c for old, new in zip(before.generals, after.generals, strict=True)
                if old is not new for c in general_changes(old, new)]
    return changes


def general_changes(before: RosterGeneral, after: RosterGeneral) -> list[Change]:
    return [
        Change(before.name, "general", name, getattr(before, name), getattr(after, name))
        for name in ("name", "side", "unit", "wounds", "status", "value")
        if getattr(before, name) != getattr(after, name)
    ]


# --- engagements: the fights that last, held by the roster --------------------------------


def engage(roster: Roster, kind: str, first: Sequence[str], other: Sequence[str],
           state: Mapping[str, Any] | None = None) -> Roster:
    """The roster with an engagement of ``kind`` between the two groups (once only)."""
    if any(e.kind == kind and e.joins(first, other) for e in roster.engagements):
        return roster
    engagement = Engagement(kind, (tuple(first), tuple(other)), dict(state or {}))
    return replace(roster, engagements=(*roster.engagements, engagement))


def disengage(roster: Roster, unit: str, kind: str | None = None) -> tuple[Roster, list[str]]:
    """The roster without the engagements ``unit`` is in (of ``kind``, or any); and the
    units those engagements held, for the rule set's own bookkeeping."""
    kept, released = [], []
    for engagement in roster.engagements:
        if engagement.involves(unit) and kind in (None, engagement.kind):
            released += [name for side in engagement.sides for name in side]
        else:
            kept.append(engagement)
    return replace(roster, engagements=tuple(kept)), released


def leave(roster: Roster, unit: str, kind: str | None = None) -> Roster:
    """The roster with ``unit`` out of its engagements (of ``kind``, or any): the others stay
    engaged, and an engagement ends only when one of its sides has nobody left."""
    kept = []
    for engagement in roster.engagements:
        if not engagement.involves(unit) or kind not in (None, engagement.kind):
            kept.append(engagement)
            continue
        sides = engagement.without(unit)
        if sides is not None:
            kept.append(replace(engagement, sides=sides))
    return replace(roster, engagements=tuple(kept))


# An engagement's change from this to "active" is one an undo brought back: the same fight.
ENDED = "ended"


def engagement_changes(before: Roster, after: Roster,
                       words: Mapping[str, EngagementWords] | None = None,
                       undoing: bool = False, again: Collection[int] = ()) -> list[Change]:
    """Engagements begun and ended, as changes the log and the reply say (named in the rule
    set's own ``words`` for its kinds of engagement, where it gives them). One that some of
    its units left while the others stay in it goes on: its change is named as it is now,
    with the units that left before (``("2/45e",)``) and "active" after. One that units
    come back into (the move that took them out undone) is the same fight again: "active"
    before and the units back in it after. ``undoing``: ``after`` is the battle as it was
    before a move now undone, so one begun is one that move had ended (``ENDED`` before).
    ``again``: the stored ids of engagements begun that had ended and go on again (an undone
    reroll puts back a fight the result it replaced left going, and begins one that result
    began)."""

    def same(a: Engagement, b: Engagement) -> bool:
        return a.kind == b.kind and a.joins(*b.sides)

    ended = [e for e in before.engagements if not any(same(e, f) for f in after.engagements)]
    begun = [e for e in after.engagements if not any(same(e, f) for f in before.engagements)]
    # The field is the engagement's kind: how its beginning and end read depends on it.
    changes = []
    for old in ended:
        rest = next((new for new in begun if _goes_on(old, new)), None)
        if rest is None and (whole := next((new for new in begun if _goes_on(new, old)),
                                           None)) is not None:
            begun.remove(whole)
            were = {name_key(n) for side in old.sides for n in side}
            back = tuple(n for side in whole.sides for n in side if name_key(n) not in were)
            changes.append(Change(whole.label_in(words), "engagement", whole.kind, "active",
                                  back))
            continue
        if rest is None:
            changes.append(Change(old.label_in(words), "engagement", old.kind, "active", None))
            continue
        begun.remove(rest)
        kept = {name_key(n) for side in rest.sides for n in side}
        left = tuple(n for side in old.sides for n in side if name_key(n) not in kept)
        changes.append(Change(rest.label_in(words), "engagement", rest.kind, left, "active"))
    changes += [Change(e.label_in(words), "engagement", e.kind,
                       ENDED if undoing or (e.id is not None and e.id in again) else None,
                       "active") for e in begun]
    return changes


def _goes_on(old: Engagement, new: Engagement) -> bool:
    """Whether ``new`` is what is left of ``old`` once some of its units left it: each side
    some of its own units, on the same side (sides swapped are a new fight), and the same
    stored record (a fresh one in its place is new)."""
    return new.kind == old.kind and new.id == old.id and all(
        {name_key(n) for n in now} <= {name_key(n) for n in was}
        for now, was in zip(new.sides, old.sides, strict=True))


# --- a unit's strength, in the rule set's own word -----------------------------------------

MAX_STRENGTH = 999


def strength_word(label: str) -> str:
    """The word a unit's strength is typed with among its words: ``sp=4``, ``figures=12``."""
    return label.casefold()


def take_strength(text: str, label: str, where: str, aliases: tuple[str, ...] = (),
                  most: int | None = None) -> tuple[str, int | None]:
    """Take ``figures=12`` (or ``sp=4``: the rule set's word, or one of its ``aliases``, the
    short word its quick lookups take: ``inc=5``) out of a unit's words. ``most``: the rule
    set's bound, which a number past any strength is told (else ``MAX_STRENGTH``).

    Returns the other words and the strength, None when it is not given."""
    word = strength_word(label)
    spellings = "|".join(re.escape(w) for w in (word, *aliases))
    pattern = re.compile(rf"(?<!\S)(?:{spellings})=(\S*)", re.IGNORECASE)
    bound = MAX_STRENGTH if most is None else min(most, MAX_STRENGTH)
    values = {_strength_value(raw, word, where, bound) for raw in pattern.findall(text)}
    if len(values) > 1:
        raise InvalidInput(f"{where}: `{word}=` is given twice, with different numbers.",
                           hint=f"Give the unit's {label} once.")
    rest = " ".join(pattern.sub(" ", text).split())
    return rest, (values.pop() if values else None)


def _strength_value(raw: str, word: str, where: str, bound: int) -> int:
    number = raw.strip().translate(FULL_WIDTH)  # a phone's wide `４` is 4, as in dice
    shown = f"`{word}={number}`" if len(number) <= 16 else f"`{word}={number[:15]}…`"
    # The rule set's own bound (60 figures) is checked after: a range here would contradict it.
    hint = f"Give a whole number, like `{word}=4`."
    if re.fullmatch(r"[0-9]+", number):
        if len(number.lstrip("0")) <= 3 and int(number) <= MAX_STRENGTH:
            return int(number)
        raise InvalidInput(f"{where}: {shown} is more than any unit's strength.",
                           hint=f"It must be at most {bound}.")
    if re.fullmatch(r"-[0-9]+", number):
        raise InvalidInput(f"{where}: {shown}: a strength cannot be below 0.", hint=hint)
    raise InvalidInput(f"{where}: {shown} is not a strength.", hint=hint)


def one_strength(option: int | None, from_words: int | None, label: str) -> int | None:
    """The strength from the option or the words; both are fine if they agree."""
    if option is not None and from_words is not None and option != from_words:
        raise InvalidInput(
            f"The strength is given twice: `strength:{option}` and "
            f"`{strength_word(label)}={from_words}`.",
            hint="Give it once, either way.",
        )
    return option if option is not None else from_words


# --- how changes read ---------------------------------------------------------------------


@dataclass(frozen=True)
class Phrase:
    """How players say a change to one field, as the words that follow the unit's name.

    ``on`` is said when the field gets a value (``{value}`` is the new one, ``{before}`` the
    old); ``off`` when it is cleared (None, False), with ``{before}`` too. ``words`` rewords
    values (``skirmish`` → ``skirmish order``); ``one`` replaces ``on`` for a value of 1,
    where a plural would read wrong. An empty text keeps that change out of replies: bookkeeping
    the engine needs and players do not read.
    """

    on: str
    off: str = ""
    words: tuple[tuple[str, str], ...] = ()
    one: str | None = None

    def say(self, before: Any, after: Any) -> str:
        if after is None or after is False:
            return self.off.format(before=self._word(before))
        template = self.one if self.one is not None and after == 1 else self.on
        return template.format(value=self._word(after), before=self._word(before))

    def _word(self, value: Any) -> str:
        text = str(number_shown(value))
        return dict(self.words).get(text, text)


def number_shown(value: Any) -> Any:
    """A value as a roster line prints it: a whole number stored as a float (a melee
    strength read as ``9.0``) as ``9``; a half (``7.5``) and anything else as it is."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


# Why a unit left the battle, as players say it: the reasons most rule sets share. A rule
# set declares its own (and may reword these) in its ``BattleRules.gone_reasons``.
GONE_REASONS = {
    "destroyed": "is destroyed",
    "routed": "routs off the field",
    "surrendered": "surrenders",
    "removed by the GM": "is removed from the battle by the GM",
}


@dataclass(frozen=True)
class Wording:
    """How one rule set's roster changes read: its word for strength, its phrases for its own
    unit fields, its reasons for leaving the battle (beside ``GONE_REASONS``) and its words
    for its kinds of engagement (None: not known, see ``engagement_words``)."""

    strength_label: str = "SP"
    phrases: Mapping[str, Phrase] = field(default_factory=dict)
    gone_reasons: Mapping[str, str] = field(default_factory=dict)
    engagements: Mapping[str, EngagementWords] | None = None

    def gone(self, reason: str) -> str | None:
        return self.gone_reasons.get(reason, GONE_REASONS.get(reason))


# Each rule set's wording by its key, declared when its entry is made: read only where a
# change is described without one (a rule set's own tests), never to pick between two.
_DECLARED: dict[str, Wording] = {}


def declare_wording(ruleset: str, wording: Wording) -> None:
    _DECLARED[ruleset] = wording


def _known(strength_label: str) -> Wording:
    """A wording for changes described without their rule set's: the phrases and reasons
    every declared rule set that has them says alike (one that two say differently is left
    to the generic words)."""
    phrases: dict[str, Phrase] = {}
    reasons: dict[str, str] = {}
    clashes: set[str] = set()
    for wording in _DECLARED.values():
        for table, found in ((phrases, wording.phrases), (reasons, wording.gone_reasons)):
            for name, said in found.items():
                if table.setdefault(name, said) != said:  # type: ignore[arg-type]
                    clashes.add(name)
    return Wording(strength_label, {k: v for k, v in phrases.items() if k not in clashes},
                   {k: v for k, v in reasons.items() if k not in clashes})


GENERAL_STATUS = {
    "active": "is back in command",
    "incapacitated": "is incapacitated",
    "captured": "is captured",
    "killed": "is killed",
}


def _unset(value: Any) -> bool:
    """A marker not set, whichever way it was stored (0 is a value, not unset)."""
    return value is None or value is False


def describe_changes(changes: Iterable[Change], wording: Wording | str = "SP") -> list[str]:
    """One sentence per unit or general: ``2nd Foot loses 2 SP (now 2) and is shaken``, in
    the words of the battle's rule set (``BattleRules.wording``)."""
    if isinstance(wording, str):
        wording = _known(wording)
    groups: dict[tuple[str, str], list[Change]] = {}
    for change in changes:
        groups.setdefault((change.kind, change.who), []).append(change)
    entries: list[tuple[str, list[str], bool]] = []  # who, what is said, may it be shared
    for (kind, who), group in groups.items():
        if kind == "engagement":  # "Melee: 45e Ligne against 2nd Foot begins"
            for c in group:
                words = engagement_words(c.field, wording.engagements)
                said = words.ends if not c.after else words.begins if not c.before else \
                    words.again if c.before == ENDED else \
                    words.back_in.format(units=listed(c.after)) if isinstance(c.after, tuple) \
                    else words.goes_on.format(units=listed(c.before))  # the units that left it
                entries.append((who, [said], False))
            continue
        said = _general_phrases(group) if kind == "general" else _unit_phrases(
            group, wording)
        if said := [s for s in said if s]:
            # Units that change alike are said together ("1/45e and 2/45e: each is now
            # disordered"); a general's line stays his own.
            entries.append((who, said, kind == "unit"))
    return [f"{whom[0]} {listed(said)}" if len(whom) == 1 else
            f"{listed(whom)}: each {listed(said)}" for whom, said in together(entries)]


def _unit_phrases(changes: list[Change], wording: Wording) -> list[str]:
    by_field = {c.field: c for c in changes}
    # A unit that leaves the battle ("surrenders") is said to go with what it lost (its
    # strength, its casualties); its markers ("is routing") no longer matter.
    leaving = "status" in by_field and by_field["status"].after == GONE
    said = []
    for change in changes:
        if change.field == "gone_reason" and "status" in by_field:
            continue  # said with the status: "La Sarre is destroyed"
        if leaving and change.field not in ("status", "strength", "casualties", "side",
                                            "name"):
            continue
        if _unset(change.before) and _unset(change.after):
            continue  # a marker that was never set, now stored as unset: nothing happened
        said.append(_unit_phrase(change, by_field, wording))
    return said


def _unit_phrase(change: Change, by_field: Mapping[str, Change], wording: Wording) -> str:
    before, after = change.before, change.after
    if (said := _shared_phrase(change)) is not None:
        return said
    match change.field:
        case "strength":
            return _strength(before, after, wording.strength_label)
        case "status" if after == GONE:
            reason = by_field["gone_reason"].after if "gone_reason" in by_field else None
            return _gone(reason, wording)
        case "status":
            return "is back in the battle"
        case "gone_reason" if not after:
            # The reason it left no longer holds (strength given back), but only a GM's
            # restore brings it in.
            return "is still out of the battle"
        case "gone_reason":
            # Its status unchanged: it was out already, and stays out for another reason
            # (an undo that takes back the strength a GM gave it), so it does not leave now.
            return f"is still {out_of_the_battle(after)}"
        case "commander":
            return f"is now commanded by {after}" if after else "no longer has a commander"
    phrase = wording.phrases.get(change.field)
    return phrase.say(before, after) if phrase else _generic(change.field, before, after)


def _shared_phrase(change: Change) -> str | None:
    """Fields units and generals both have, said the same way for either."""
    match change.field:
        case "name":
            return f"is renamed {change.after}"
        case "side":
            return f"is now on the {change.after} side"
    return None


def out_of_the_battle(reason: str | None) -> str:
    """``out of the battle (no blocks left)``; without a reason (a GM gave strength back to a
    unit that left for want of it), just ``out of the battle``."""
    return f"out of the battle ({reason})" if reason else "out of the battle"


def _gone(reason: str | None, wording: Wording) -> str:
    return (reason and wording.gone(reason)) or f"is {out_of_the_battle(reason)}"


def _strength(before: int | None, after: int | None, label: str) -> str:
    if after is None:
        return f"no longer has a number of {label}"
    if before is None:
        return f"has {strength_count(after, label)}"
    if after < before:
        return f"loses {strength_count(before - after, label)} (now {after})"
    return f"gains {strength_count(after - before, label)} (now {after})"


def strength_count(number: int, label: str) -> str:
    """``1 figure``, ``2 figures``; abbreviations such as SP stay as they are."""
    if number == 1 and label.endswith("s") and label.islower():
        label = label[:-1]
    return f"{number} {label}"


def _generic(field_name: str, before: Any, after: Any) -> str:
    """A field no rule set phrases: its name in plain words, never ``None`` or ``True``."""
    label = field_name.replace("_", " ")
    if isinstance(after, bool) or (after is None and isinstance(before, bool)):
        return f"is now {label}" if after else f"is no longer {label}"
    if after is None:
        return f"has its {label} cleared"
    return f"now has {label} {number_shown(after)}"


def _general_phrases(changes: list[Change]) -> list[str]:
    return [_general_phrase(c) for c in changes]


def _general_phrase(change: Change) -> str:
    before, after = change.before, change.after
    if (said := _shared_phrase(change)) is not None:
        return said
    match change.field:
        case "unit":
            if after:
                return f"is now with {after}"
            return f"has left {before}" if before else "is with no unit"
        case "wounds":
            if not after:
                return "has no wounds"
            wounds = f"{after} wound{'s' if after != 1 else ''}"
            return f"is wounded ({wounds})" if after > (before or 0) else f"now has {wounds}"
        case "status":
            return GENERAL_STATUS.get(str(after), f"is now {after}")
        case "value":
            return "has no value" if after is None else f"now has a value of {after:+d}"
    return _generic(change.field, before, after)
