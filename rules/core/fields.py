"""One description of a unit's inputs, read from two notations.

A rule set lists its unit and situation inputs once, as ``Field``s. The same list
reads a unit written in the short text notation players type into a Discord option
(``2nd Foot: infantry regular charging general="Wolfe"``) and a unit given as a JSON
object to ``huzzah resolve``. Both end in the same plain dict of canonical names,
and both reject typos with a message that lists what is allowed.
"""

from __future__ import annotations

import difflib
import itertools
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from rules.core.dice import FULL_WIDTH
from rules.core.errors import InvalidInput
from rules.core.notation import (
    CURLY_QUOTES,
    MAX_NAME_LENGTH,
    QUOTE,
    comma_between_words,
    echo,
    missing_colon,
    outside_quotes,
    second_unit,
    split_name,
)

SLIP = 0.75
"""How near a word must be to another to be taken as a slip of it (``veteren``: 0.86), not
a name (``Frasers``, 0.67 of ``cuirassiers``), where a name without its colon is told."""
NEGATIONS = ("non-", "non", "not-", "un", "ir")
"""Prefixes that deny the word after them: `irregular` is no slip of `regular`."""


@dataclass(frozen=True)
class Field:
    """One input: its canonical name (the JSON key), its type and how players may write it.

    - ``bool`` fields are written as a bare word: the name or one of ``aliases``.
    - ``Enum`` fields take each member's value (and ``words``) as a bare word, or ``name=value``.
    - ``int``/``float``/``str`` fields are written ``name=value``.
    """

    name: str
    kind: type
    help: str
    aliases: tuple[str, ...] = ()
    words: Mapping[str, Any] | None = None
    minimum: float | None = None
    maximum: float | None = None

    def spellings(self) -> tuple[str, ...]:
        """The name and aliases; ``over_obstacle`` may also be typed ``over-obstacle``."""
        names = (self.name, *self.aliases)
        dashed = tuple(n.replace("_", "-") for n in names if "_" in n)
        return names + dashed

    def convert(self, raw: Any, where: str) -> Any:
        """Check and convert one value, from text or from JSON."""
        if self.kind is bool:
            return _to_bool(raw, self, where)
        if self.is_enum:
            return self._to_enum(raw, where)
        if self.kind in (int, float):
            return self._to_number(raw, where)
        if not isinstance(raw, str) or not raw.strip():
            raise InvalidInput(said_at(where, f"`{self.name}` needs some text."))
        value = raw.strip()
        if len(value) > MAX_NAME_LENGTH:
            raise InvalidInput(
                said_at(where, f"`{self.name}` is {len(value)} characters long."),
                hint=f"Keep it to {MAX_NAME_LENGTH}.",
            )
        return value

    def enum_words(self) -> dict[str, Enum]:
        """Every word that names a member: its value, and the field's own ``words``."""
        assert issubclass(self.kind, Enum)
        table: dict[str, Enum] = {str(m.value): m for m in self.kind}
        table.update(self.words or {})
        return table

    @property
    def is_enum(self) -> bool:
        return isinstance(self.kind, type) and issubclass(self.kind, Enum)

    def _to_enum(self, raw: Any, where: str) -> Enum:
        if isinstance(raw, self.kind):
            return raw
        word = str(raw).strip().lower()
        member = self._member(word)
        if member is not None:
            return member
        choices = ", ".join(str(m.value) for m in self.kind)
        if not word:  # echoed in a code span, the blank would show as two stray backticks
            raise InvalidInput(said_at(where, f"`{self.name}` needs a value."),
                               hint=f"Use one of: {choices}.")
        raise InvalidInput(
            said_at(where, f"`{_shown(raw)}` is not a valid {self.name.replace('_', ' ')}."),
            hint=f"Use one of: {choices}.{did_you_mean(word, self.enum_words())}",
        )

    def _member(self, word: str) -> Enum | None:
        """The member a word names: one of the field's own ``words`` first (as in
        ``enum_words``), else a member's value."""
        if self.words and word in self.words:
            return self.words[word]
        return next((m for m in self.kind if str(m.value) == word), None)

    def _to_number(self, raw: Any, where: str) -> int | float:
        value = self._read_number(raw)
        if value is None and isinstance(raw, str) and not raw.strip():
            # Echoed in a code span, the blank would show as two stray backticks.
            raise InvalidInput(said_at(where, f"`{self.name}` needs a value."),
                               hint=f"Write it in plain figures, like {self._example()}.")
        if value is None:
            kind = "a whole number" if self.kind is int else "a number"
            raise InvalidInput(
                said_at(where, f"`{self.name}` must be {kind}, not `{_shown(raw)}`."),
                hint=f"Write it in plain figures, like {self._example()}.",
            )
        low, high = self.bounds()
        if value < low:
            raise InvalidInput(said_at(where, f"`{self.name}` cannot be {_shown(value)}."),
                               hint=f"It must be at least {_num(low)}.")
        if value > high:
            raise InvalidInput(said_at(where, f"`{self.name}` cannot be {_shown(value)}."),
                               hint=f"It must be at most {_num(high)}.")
        return self.kind(value)

    def bounds(self) -> tuple[float, float]:
        """The range a number must fall in: the field's own, else a sanity bound."""
        low = -MAX_MAGNITUDE if self.minimum is None else self.minimum
        high = MAX_MAGNITUDE if self.maximum is None else self.maximum
        return low, high

    def _read_number(self, raw: Any) -> int | float | None:
        """The number written, or None. Text must be plain figures (no `nan`, `inf`, `1e999`,
        `1_000`, `0x10`); JSON numbers must be finite, since Python's JSON reader turns NaN
        and Infinity into floats. Whole numbers stay ints until the range check, so a huge
        one is refused as out of range rather than overflowing."""
        if isinstance(raw, bool):
            return None
        if isinstance(raw, str):
            text = raw.strip().translate(FULL_WIDTH)  # a phone's wide `５` is 5, as in dice
            pattern = WHOLE if self.kind is int else _DECIMAL
            if len(text) > MAX_NUMBER_TEXT or not pattern.fullmatch(text):
                return None
            return int(text) if self.kind is int or text.lstrip("+-").isdigit() else float(text)
        if isinstance(raw, int):
            return raw
        if isinstance(raw, float) and math.isfinite(raw):
            if self.kind is int:
                return int(raw) if raw.is_integer() else None
            return raw
        return None

    def _example(self) -> str:
        low, high = self.bounds()
        example = _num(max(low, min(high, 4)))
        return f"`{example}`" if self.kind is int else f"`{example}` or `{example}.5`"


# Plain figures only: no exponent, `nan`, `inf`, digit separator or hex.
WHOLE = re.compile(r"[+-]?[0-9]+")
_DECIMAL = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)")
MAX_NUMBER_TEXT = 40
# A bound for number fields that set none, so no value reads as absurdly large.
MAX_MAGNITUDE = 1_000_000
MAX_SHOWN = 16


def _shown(value: Any) -> str:
    """A value as echoed back in a message, cut short: a pasted wall of digits stays readable."""
    text = _num(value) if isinstance(value, float) and math.isfinite(value) else str(value)
    return text if len(text) <= MAX_SHOWN else f"{text[:MAX_SHOWN]}…"


def said_at(where: str, message: str) -> str:
    """``message`` said of ``where`` (a unit, ``settings``); none where the field itself is
    all the player gave (`/battle setting`): its name is in the message already."""
    return f"{where}: {message}" if where else message


def _num(value: float) -> str:
    return str(int(value)) if value == int(value) else str(value)


def _to_bool(raw: Any, spec: Field, where: str) -> bool:
    if isinstance(raw, bool):
        return raw
    word = str(raw).strip().lower()
    if word in {"true", "yes", "y", "1", "on"}:
        return True
    if word in {"false", "no", "n", "0", "off"}:
        return False
    raise InvalidInput(said_at(where, f"`{spec.name}` is yes or no, not `{_shown(raw)}`."))


def did_you_mean(
    word: str, candidates: Iterable[str], shown: Mapping[str, str] | None = None,
    starts: Iterable[str] = (),
) -> str:
    """`` Did you mean `x`?`` for the near misses of :func:`near_misses`; "" for none."""
    found = near_misses(word, candidates, shown, starts)
    return f" Did you mean {' or '.join(f'`{c}`' for c in found)}?" if found else ""


def near_misses(
    word: str, candidates: Iterable[str], shown: Mapping[str, str] | None = None,
    starts: Iterable[str] = (),
) -> list[str]:
    """The near misses among ``candidates``; never the word typed (it was refused as it is).

    ``shown`` gives the spelling to offer for an alias (``light-cav``: ``light-cavalry``), so
    that each word is offered once, as the help spells it. ``starts``: the words of the kind
    typed (bare words, or names before `=`) whose start may be what was typed (`fr`).
    """
    others = [c for c in candidates if c.lower() != word.lower()]

    def offered(found: Iterable[str]) -> list[str]:
        return list(dict.fromkeys((shown or {}).get(c, c) for c in found))

    # A word that is one part of several ("cavalry": battle-cavalry, light-cavalry) names
    # each: the nearest alone would pick one for the player.
    within = offered(c for c in others if word.lower() in c.lower().replace("_", "-").split("-"))
    if len(within) > 1:
        return within[:3]
    # The start of one word (`fr`, `brit`): the abbreviation a player types first. One
    # spelling begins so: that one (`el`: `elite`); several of one word: as the help has it.
    begun = [c for c in starts if c.lower() != word.lower() and
             c.lower().startswith(word.lower())] if len(word) >= 2 else []
    if len(begun) == 1 or len(offered(begun)) == 1:
        return [begun[0] if len(begun) == 1 else offered(begun)[0]]
    # A typo is offered the spelling it is nearest (`cavv`: `cav`).
    return difflib.get_close_matches(word, others, n=1, cutoff=0.6)


def _with_short_words(spec: Field) -> list[str]:
    """Each member's value with the short words a player types for it (`inf`), which
    examples use: beside its own member, since after the list "general (also carre)" would
    read as general order. A word with a space is one a battle stored long ago, never typed."""
    typed: dict[Any, list[str]] = {}
    for word, member in (spec.words or {}).items():
        if " " not in word:
            typed.setdefault(member, []).append(word)
    return [f"{m.value} ({', '.join(typed[m])})" if m in typed else str(m.value)
            for m in spec.kind]


class FieldSet:
    """The fields of one kind of unit description, with lookup by every word players may type."""

    def __init__(self, fields: Sequence[Field]) -> None:
        self.fields = tuple(fields)
        self._by_key: dict[str, Field] = {}
        self._by_word: dict[str, tuple[Field, Any]] = {}
        for spec in self.fields:
            for key in spec.spellings():
                self._by_key[key] = spec
            if spec.kind is bool:
                for key in spec.spellings():
                    self._by_word[key] = (spec, True)
            elif spec.is_enum:
                for word, member in spec.enum_words().items():
                    self._by_word[word] = (spec, member)

    def words(self) -> list[str]:
        """One spelling of every bare word, then the ``key=`` prefixes: for autocomplete and help.

        Aliases stay readable (``cav``, ``inf``) but are not listed twice; every spelling
        is still accepted when typed.
        """
        bare: list[str] = []
        prefixes: list[str] = []
        for spec in self.fields:
            if spec.kind is bool:
                bare.append(spec.name.replace("_", "-"))
            elif spec.is_enum:
                bare.extend(str(m.value) for m in spec.kind)
            else:
                # As the help lists it (`retreat_room=…`): one spelling wherever it is shown,
                # though `retreat-room=` is read too.
                prefixes.append(f"{spec.name}=")
        return bare + prefixes

    def _shown(self) -> dict[str, str]:
        """Every spelling, as the help shows its word: a near miss is offered once."""
        shown = {key: spec.name for key, spec in self._by_key.items()}
        for word, (spec, member) in self._by_word.items():
            shown[word] = spec.name.replace("_", "-") if spec.kind is bool else str(member.value)
        return shown

    def knows(self, token: str) -> bool:
        """Whether a typed token (``cav``, ``morale=4``) is one of these fields."""
        word = token.lower()
        if "=" in word:
            return word.partition("=")[0] in self._by_key
        return word in self._by_word

    def help_lines(self) -> list[str]:
        lines = []
        for spec in self.fields:
            if spec.kind is bool:
                written = " / ".join(s for s in spec.spellings() if "_" not in s)
            elif spec.is_enum:
                written = " / ".join(_with_short_words(spec))
            else:
                written = f"{spec.name}=…"
            lines.append(f"{written}: {spec.help}")
        return lines

    def read_json(self, data: Any, where: str) -> dict[str, Any]:
        """Read one JSON object; unknown keys are errors, not silently dropped."""
        if not isinstance(data, Mapping):
            raise InvalidInput(f"{where} must be a JSON object, not {json_kind(data)}.")
        values: dict[str, Any] = {}
        for key, raw in data.items():
            spec = self._by_key.get(key)
            if spec is None or key != spec.name:  # JSON takes canonical names only
                raise InvalidInput(
                    f"{where}: unknown field `{key}`.",
                    hint=f"Fields: {', '.join(s.name for s in self.fields)}."
                    + did_you_mean(key, [s.name for s in self.fields]),
                )
            if raw is None:
                continue
            values[spec.name] = spec.convert(raw, where)
        return values

    def read_text(
        self, text: str, where: str, *, names: bool = True, several: bool = True,
        option: str | None = None,
    ) -> tuple[str | None, dict[str, Any]]:
        """Read ``Name: word word key=value``; the name is optional.

        ``names`` says the text starts a unit, which may be named: unknown words leading
        known ones then read as a name that lost its colon (``Hussars cav``). ``several``
        says the option takes a list of units, for the hint when two are run together.
        ``option``: the option the unit is one of (``attackers``); once its name is read, a
        word of it that is refused names the unit there (``attackers: 1/45e``), as a
        battle's roster unit is named, rather than by ``where``'s place in the list.
        """
        name, rest = split_name(text)
        if name is not None and len(name) > MAX_NAME_LENGTH:
            raise InvalidInput(
                f"{where}: the name `{name[:20]}…` is too long.",
                hint=f"Keep unit names to {MAX_NAME_LENGTH} characters.",
            )
        try:
            tokens = split_words(rest)
        except ValueError:
            raise InvalidInput(
                f"{where}: a double quote is not closed in `{echo(text)}`.",
                hint=closing_hint(rest),
            ) from None
        self._check_one_unit(text, tokens, where, several)
        if names and name is None:
            self._check_colon(tokens, where)
        if option is not None and name is not None:
            where = f"{option}: {name}"
        values: dict[str, Any] = {}
        for index, token in enumerate(tokens):
            try:
                spec, value = self._read_token(token, where)
            except InvalidInput:
                self._check_unquoted(tokens[index - 1] if index else "", token, where)
                raise
            if spec.name in values and values[spec.name] != value:
                # Said in the words typed: a field's name is the engine's, not the player's.
                raise InvalidInput(
                    f"{where}: `{values[spec.name]}` and `{value}` both give its "
                    f"{spec.name.replace('_', ' ')}.",
                    hint=f"Keep one of `{values[spec.name]}` and `{value}`.")
            values[spec.name] = value
        return name, values

    def _check_one_unit(self, text: str, tokens: Sequence[str], where: str,
                        several: bool) -> None:
        """A second ``Name:`` among the words: units run together (``A: inf, B: cav``)."""
        for token in tokens:
            if ":" in token and "=" not in token:
                raise second_unit(text, token, where, several=several)

    def _check_colon(self, tokens: Sequence[str], where: str) -> None:
        """Unknown words before known ones, the first not a typo: a name without its colon."""
        leading = list(itertools.takewhile(lambda t: "=" not in t and not self.knows(t), tokens))
        # Two capitalised words read as a name (`Black Watch`), even where one is near a
        # word (black: blocks); words each a slip of a word (`Veteren Cavalery`) are
        # mistyped. A slip is one letter or two: `Frasers Highlanders` is no near miss of
        # cuirassiers and lancers, though a "did you mean" would offer them.
        close = [self._slip_of_word(t.lower().rstrip(",")) for t in leading[:2]]
        named = len(leading) > 1 and all(t[:1].isupper() for t in leading[:2]) and \
            not all(close)
        # No word has an apostrophe: `Fraser's` is a name, however near a word it is.
        named = named or (bool(leading) and ("'" in leading[0] or "’" in leading[0]))
        if not leading or (not named and close[0]):
            return
        # Capitalised words go on with the name: in `2nd Foot inf`, Foot is not the word foot.
        name = leading + list(itertools.takewhile(
            lambda t: "=" not in t and t[:1].isupper(), tokens[len(leading):]))
        raise missing_colon(name, join_words(tokens[len(name):]), where)

    def _check_unquoted(self, before: str, word: str, where: str) -> None:
        """An unknown word just after a text value (``general=Sir John``): the value's
        second word, the quotes left out."""
        key, _, raw = before.partition("=")
        spec = self._by_key.get(key.lower()) if raw else None
        if spec is None or spec.kind is not str or "=" in word or \
                self._close_word(word.lower()):
            return
        raise InvalidInput(
            f"{where}: I don't know `{echo(word)}`. If it is part of `{echo(key)}`, a value "
            f"with spaces goes in double quotes: `{echo(key)}=\"{echo(raw)} {echo(word)}\"`.",
            hint=f"Words you can use: {', '.join(self.words())}.")

    def _opposite(self, word: str) -> str:
        """A word that negates one of these (`irregular`, `unshaken`) is said to mean the
        opposite: a "did you mean `regular`?" would offer the very word it denies."""
        for prefix in NEGATIONS:
            found = self._by_word.get(word[len(prefix):]) if word.startswith(prefix) else None
            if found is None:
                continue
            spec, member = found
            if spec.kind is bool:
                shown = spec.name.replace("_", "-")
                return f" `{shown}` means the opposite: leave it out."
            return f" `{member.value}` means the opposite."
        return ""

    def _close_word(self, word: str) -> bool:
        return bool(did_you_mean(word, list(self._by_word) + list(self._by_key)))

    def _slip_of_word(self, word: str) -> bool:
        return bool(difflib.get_close_matches(word, list(self._by_word) + list(self._by_key),
                                              n=1, cutoff=SLIP))

    def _read_token(self, token: str, where: str) -> tuple[Field, Any]:
        word = token.lower()
        if "=" in token:
            key, _, raw = token.partition("=")
            if not key:  # `inf =4`: the value lost its name to a space
                raise InvalidInput(f"{where}: `{echo(token)}` has no name before its `=`.",
                                   hint=f"Write the name and its value together, without a "
                                        f"space (`name={echo(raw)}`).")
            spec = self._by_key.get(key.lower())
            if spec is None and key.lower() in self._by_word:
                # A word that takes no value (`leader=Murray` where `leader` is a unit type).
                raise InvalidInput(
                    f"{where}: `{echo(key)}` is a word on its own here, not `{echo(key)}=…`.",
                    hint=f"Words you can use: {', '.join(self.words())}.")
            if spec is None:
                raise self._unknown(key.lower(), where, keyed=True)
            return spec, spec.convert(raw, where)
        if word in self._by_word:
            return self._by_word[word]
        if word.rstrip(",") in self._by_word:
            raise comma_between_words(token, where)
        raise self._unknown(word, where)

    def _unknown(self, word: str, where: str, *, keyed: bool = False) -> InvalidInput:
        known = list(self._by_word) + list(self._by_key)
        # A start is offered as a word of the same kind: a bare word as a bare word.
        starts = list(self._by_key) if keyed else list(self._by_word)
        said = self._opposite(word) if not keyed else ""
        said = said or did_you_mean(word, known, self._shown(), starts)
        return InvalidInput(
            f"{where}: I don't know `{echo(word)}`.{said}",
            hint=f"Words you can use: {', '.join(self.words())}.",
        )


# A word: letters (an apostrophe is one) and double-quoted text, up to a space outside quotes.
# The whitespace is what the notation has always split on (not every Unicode space).
_WORD = re.compile(r'(?:[^ \t\r\n"]++|"[^"]*+")++')
_NEEDS_QUOTES = re.compile(r"[ \t\r\n;:]")


def closing_hint(text: str) -> str:
    """How to close the quote left open in ``text``, on what was typed after it: the
    quoting rule whole names words of one rule set only, and runs to seven phone lines."""
    opened = text.translate(CURLY_QUOTES).rstrip()
    grouped = opened[opened.rfind(QUOTE):]
    shown = grouped if len(grouped) <= 30 else f"{grouped[:28]}…"
    return (f"Close it (`{shown}\"`), or leave it out: double quotes group a value with "
            "spaces; an apostrophe is part of a name and needs none.")


def split_words(text: str) -> list[str]:
    """The words of a unit, split at spaces outside double quotes; the quotes go
    (``general="Sir John"`` is the word ``general=Sir John``). Only double quotes group:
    ``Fraser's`` is one word. A phone's curly double quotes (“Sir John”) are double quotes.
    A quote left open is a ``ValueError``."""
    text = text.translate(CURLY_QUOTES)
    if QUOTE not in text:  # nearly always
        return _WORD.findall(text)
    if text.count(QUOTE) % 2:
        raise ValueError("a quote is not closed")
    return [word.replace(QUOTE, "") for word in _WORD.findall(text)]


def join_words(words: Iterable[str]) -> str:
    """Words as they would be typed, so that ``split_words`` reads them back:
    ``general="Sir John"``."""
    return " ".join(_typed(word) for word in words)


def _typed(word: str) -> str:
    if not _NEEDS_QUOTES.search(word):
        return word
    key, equals, value = word.partition("=")
    if equals and not _NEEDS_QUOTES.search(key):
        return f'{key}="{value}"'
    return f'"{word}"'


def json_safe(values: Mapping[str, Any]) -> dict[str, Any]:
    """Values read by a ``FieldSet`` as plain JSON (enum members become their values)."""
    return {k: (v.value if isinstance(v, Enum) else v) for k, v in values.items()}


def unit_parts(text: str) -> list[str]:
    """The units of a list written one after another, separated by ``;`` or new lines
    outside double quotes (``"Regiment; 1st Bn": inf`` is one unit)."""
    text = text.translate(CURLY_QUOTES).replace("\n", ";")
    if QUOTE in text:
        ends = [*outside_quotes(text, ";"), len(text)]
        parts = [text[start + 1:end] for start, end in zip([-1, *ends], ends, strict=False)]
    else:
        parts = text.split(";")
    return [p for p in (p.strip() for p in parts) if p]


def split_units(text: str, where: str, limit: int) -> list[str]:
    """Split a list of units written one after another, refusing none or too many."""
    parts = unit_parts(text)
    if not parts:
        raise InvalidInput(
            f"{where}: no unit given.",
            hint="Write units as `Name: type words`, separated by `;`.",
        )
    if len(parts) > limit:
        raise InvalidInput(
            f"{where}: {len(parts)} units given; at most {limit} fit one resolution.",
            hint="Split the fight into smaller ones.",
        )
    return parts


def json_kind(value: object) -> str:
    """What a JSON value is, in JSON's own words (``null``, not Python's ``NoneType``)."""
    if value is None:
        return "`null`"
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    kinds = {list: "a list", str: "a string", int: "a number", float: "a number"}
    return kinds.get(type(value), "a value")
