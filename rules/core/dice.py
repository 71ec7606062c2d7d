"""Dice: the kinds of roll the rule sets ask for, and the sources that answer them.

A procedure never calls ``random`` itself. It asks a ``DiceSource`` for a named
``RollKind`` and gets the faces back. That one seam serves three needs:

- ``RandomSource``: ordinary play (seedable, so tests can reproduce it);
- ``ScriptedSource``: faces given in advance (tests, and players who roll
  physical dice and type them in); a wrong count or face is an error, never a
  silent re-roll;
- ``ReplaySource``: replays a fixed prefix of outcomes and stops with
  ``Unrolled`` at the first roll past it, so a caller can walk every outcome of
  a whole procedure, with its exact probability, by re-running it once per
  branch. Each ``RollKind`` lists its own outcomes for that purpose.
"""

from __future__ import annotations

import itertools
import math
import random
import re
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Protocol

from rules.core.errors import BadDiceText, NotEnoughDice, TooManyDice

Face = int | str
Faces = tuple[Face, ...]

D6_FACES: tuple[int, ...] = (1, 2, 3, 4, 5, 6)


class Symbol(StrEnum):
    """Faces of a Commands & Colors battle die."""

    INFANTRY = "infantry"
    CAVALRY = "cavalry"
    ARTILLERY = "artillery"
    SABER = "saber"
    FLAG = "flag"


# Project default: the Tricorne face breakdown is NOT FOUND in
# ../shared/reference/tricorne.md. A six-sided die with two infantry faces and one
# each of cavalry, artillery, saber and flag is the Commands & Colors battle die the
# Tricorne unit pages describe (saber and flag faces, unit-symbol faces). It only
# matters for random rolls and for exact odds; typed-in dice are read as given.
BATTLE_DIE_FACES: tuple[Symbol, ...] = (
    Symbol.INFANTRY,
    Symbol.INFANTRY,
    Symbol.CAVALRY,
    Symbol.ARTILLERY,
    Symbol.SABER,
    Symbol.FLAG,
)

SYMBOL_ALIASES: dict[str, Symbol] = {
    "i": Symbol.INFANTRY,
    "inf": Symbol.INFANTRY,
    "infantry": Symbol.INFANTRY,
    "c": Symbol.CAVALRY,
    "cav": Symbol.CAVALRY,
    "cavalry": Symbol.CAVALRY,
    "a": Symbol.ARTILLERY,
    "art": Symbol.ARTILLERY,
    "arty": Symbol.ARTILLERY,
    "artillery": Symbol.ARTILLERY,
    "s": Symbol.SABER,
    "sab": Symbol.SABER,
    "saber": Symbol.SABER,
    "sabre": Symbol.SABER,
    "f": Symbol.FLAG,
    "flag": Symbol.FLAG,
}


class Reading(StrEnum):
    """How one die of a roll was read, so that every renderer draws from data."""

    COUNTED = "counted"  # its pips count towards the roll's total
    HIT = "hit"  # it met the number it was read against
    MISS = "miss"  # it did not
    DROPPED = "dropped"  # rolled, then set aside (the lower of two, a reroll)
    SYMBOL = "symbol"  # a battle die's unit symbol or saber
    FLAG = "flag"  # a battle die's flag


def plain_face(face: Face) -> int | str:
    """A face as JSON holds it: pips as a number, a symbol as its name."""
    return face if isinstance(face, int) else str(face)


def plain_reading(face: Face) -> Reading:
    """What a die reads as when the procedure says nothing more of it."""
    if isinstance(face, int):
        return Reading.COUNTED
    return Reading.FLAG if face is Symbol.FLAG else Reading.SYMBOL


def plain_readings(faces: Iterable[Face]) -> tuple[Reading, ...]:
    """Each die read as it fell: its pips counted, a symbol as a symbol."""
    return tuple(map(plain_reading, faces))


def pool_readings(faces: Iterable[Face], needed: int, bonus: int = 0) -> tuple[Reading, ...]:
    """Each d6 of a pool read against a number, after a bonus to every die."""
    return tuple(Reading.HIT if isinstance(face, int) and face + bonus >= needed
                 else Reading.MISS for face in faces)


class RollKind(Protocol):
    """What a procedure asks a dice source for."""

    @property
    def dice_count(self) -> int:
        """How many physical dice a player must throw for it."""
        ...

    def describe(self) -> str:
        """Short notation shown to players: ``1d6``, ``2d6``, ``d66``."""
        ...

    def random_faces(self, rng: random.Random) -> Faces: ...

    def outcomes(self) -> Iterator[tuple[Faces, Fraction]]:
        """Every possible set of faces with its exact probability."""
        ...


def branch_outcomes(kind: RollKind) -> Iterator[tuple[Faces, Fraction]]:
    """The roll's outcomes as the rules tell them apart: a pool whose dice are each read on
    their own (``D6Pool``, ``BattleDice``) declares ``pool_outcomes``, one per result up to
    the order of its dice; any other kind, every ordered outcome."""
    pooled = getattr(kind, "pool_outcomes", None)
    return pooled() if pooled is not None else kind.outcomes()


def _d6_outcomes(count: int) -> Iterator[tuple[Faces, Fraction]]:
    p = Fraction(1, 6**count)
    for faces in itertools.product(D6_FACES, repeat=count):
        yield faces, p


def pool_outcomes(faces: Sequence[Face], count: int) -> Iterator[tuple[Faces, Fraction]]:
    """Every result of ``count`` dice up to their order (as ``faces`` lists them), with its
    exact probability: its orderings (multinomial), each weighted by the sides showing each
    face (a battle die has two infantry sides). Eight d6 have 1,287 such results against
    1,679,616 orderings."""
    sides: dict[Face, int] = {}
    for face in faces:
        sides[face] = sides.get(face, 0) + 1
    every = Fraction(math.factorial(count), len(faces) ** count)
    for chosen in itertools.combinations_with_replacement(list(sides), count):
        p = every
        for face, same in itertools.groupby(chosen):
            times = len(list(same))
            p *= Fraction(sides[face] ** times, math.factorial(times))
        yield chosen, p


@dataclass(frozen=True)
class D6:
    """One six-sided die."""

    @property
    def dice_count(self) -> int:
        return 1

    def describe(self) -> str:
        return "1d6"

    def random_faces(self, rng: random.Random) -> Faces:
        return (rng.randint(1, 6),)

    def outcomes(self) -> Iterator[tuple[Faces, Fraction]]:
        return _d6_outcomes(1)


@dataclass(frozen=True)
class TwoD6:
    """Two six-sided dice, summed."""

    @property
    def dice_count(self) -> int:
        return 2

    def describe(self) -> str:
        return "2d6"

    def random_faces(self, rng: random.Random) -> Faces:
        return (rng.randint(1, 6), rng.randint(1, 6))

    def outcomes(self) -> Iterator[tuple[Faces, Fraction]]:
        return _d6_outcomes(2)


@dataclass(frozen=True)
class D66:
    """La Bataille's d66: two d6 read as tens and units (11..66)."""

    @property
    def dice_count(self) -> int:
        return 2

    def describe(self) -> str:
        return "d66"

    def random_faces(self, rng: random.Random) -> Faces:
        return (rng.randint(1, 6), rng.randint(1, 6))

    def outcomes(self) -> Iterator[tuple[Faces, Fraction]]:
        return _d6_outcomes(2)


@dataclass(frozen=True)
class D6Pool:
    """N d6, each read on its own against a target number (Le Baton fire and melee).

    ``only_hits`` is the rule set's word that nothing but the number of hits is read from
    these dice: a die hits when its face plus ``bonus`` reaches ``target``
    (``pool_readings``). The odds then branch once per number of hits, not once per result
    of the dice."""

    count: int
    target: int
    bonus: int = 0
    only_hits: bool = False

    @property
    def dice_count(self) -> int:
        return self.count

    def describe(self) -> str:
        return f"{self.count}d6 vs {self.target}+"

    def random_faces(self, rng: random.Random) -> Faces:
        return tuple(rng.randint(1, 6) for _ in range(self.count))

    def outcomes(self) -> Iterator[tuple[Faces, Fraction]]:
        return _d6_outcomes(self.count)

    def pool_outcomes(self) -> Iterator[tuple[Faces, Fraction]]:
        if self.only_hits:
            return hit_outcomes(self.count, self.target, self.bonus)
        # Each die is read on its own against the same number: their order means nothing.
        return pool_outcomes(D6_FACES, self.count)


def hit_outcomes(count: int, target: int, bonus: int) -> Iterator[tuple[Faces, Fraction]]:
    """Every number of hits of ``count`` d6 with its exact (binomial) probability, each as
    dice that score it: the lowest face that misses and the highest that hits, in order."""
    read = pool_readings(D6_FACES, target, bonus)  # as the rules read each face
    hitting = [face for face, how in zip(D6_FACES, read, strict=True) if how is Reading.HIT]
    missing = [face for face, how in zip(D6_FACES, read, strict=True) if how is not Reading.HIT]
    p = Fraction(len(hitting), len(D6_FACES))
    for scored in range(count + 1):
        if (scored and not hitting) or (scored < count and not missing):
            continue
        chance = math.comb(count, scored) * p**scored * (1 - p) ** (count - scored)
        misses = (missing[0],) * (count - scored) if scored < count else ()
        yield (*misses, *((hitting[-1],) * scored if scored else ())), chance


@dataclass(frozen=True)
class BattleDice:
    """N Commands & Colors battle dice showing symbols.

    ``alike`` is the rule set's word that it reads the faces of each listed group the same
    (a melee against infantry reads an infantry symbol and a saber both as a hit): the odds
    then branch once per count of each group, not once per count of each symbol. Faces in
    no group are told apart as usual."""

    count: int
    faces: tuple[Symbol, ...] = BATTLE_DIE_FACES
    alike: tuple[tuple[Symbol, ...], ...] = ()

    @property
    def dice_count(self) -> int:
        return self.count

    def describe(self) -> str:
        return f"{self.count} battle {'die' if self.count == 1 else 'dice'}"

    def random_faces(self, rng: random.Random) -> Faces:
        return tuple(rng.choice(self.faces) for _ in range(self.count))

    def outcomes(self) -> Iterator[tuple[Faces, Fraction]]:
        p = Fraction(1, len(self.faces) ** self.count)
        for faces in itertools.product(self.faces, repeat=self.count):
            yield faces, p

    def pool_outcomes(self) -> Iterator[tuple[Faces, Fraction]]:
        # The rules count symbols; which die showed which means nothing. A group read alike
        # counts as its first face, with the sides of all its faces.
        standing_for = {face: group[0] for group in self.alike for face in group}
        return pool_outcomes([standing_for.get(face, face) for face in self.faces], self.count)


def read_alike(faces: Iterable[Symbol], reading: Callable[[Symbol], Hashable]
               ) -> tuple[tuple[Symbol, ...], ...]:
    """The faces a procedure reads the same, for ``BattleDice.alike``: grouped by what
    ``reading`` makes of each. A face alone in its group groups nothing and is left out."""
    groups: dict[Hashable, list[Symbol]] = {}
    for face in dict.fromkeys(faces):
        groups.setdefault(reading(face), []).append(face)
    return tuple(tuple(group) for group in groups.values() if len(group) > 1)


# --- reading faces -------------------------------------------------------------------------


def d66_value(faces: Sequence[int]) -> int:
    """The d66 reading of two faces: tens then units."""
    tens, units = faces
    return tens * 10 + units


def d66_index(value: int) -> int:
    """Position 0..35 of a d66 value among the 36 results."""
    tens, units = divmod(value, 10)
    return (tens - 1) * 6 + (units - 1)


def d66_from_index(index: int) -> int:
    """The d66 value at a position, clamped to 11..66 (modifiers step through the 36 results)."""
    index = max(0, min(35, index))
    tens, units = divmod(index, 6)
    return (tens + 1) * 10 + units + 1


def d66_band(value: int) -> str:
    """The block of six rows a d66 value sits in, as a chart prints them: ``41–46``."""
    tens = value // 10
    return f"{tens}1–{tens}6"


def d66_add(value: int, steps: int) -> int:
    """A d66 value moved by ``steps`` results (base 6): 43 + 4 = 51."""
    return d66_from_index(d66_index(value) + steps)


# --- sources ---------------------------------------------------------------------------------


class DiceSource(Protocol):
    """Answers a procedure's roll requests. ``label`` names the roll for error messages."""

    def roll(self, kind: RollKind, label: str) -> Faces: ...


class RandomSource:
    """Rolls with Python's PRNG; pass a seed for reproducible tests."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def roll(self, kind: RollKind, label: str) -> Faces:
        return kind.random_faces(self._rng)


_DICE_SEPARATORS = re.compile(r"[\s,;/+]+")
# Dice to roll rather than faces rolled: `2d6`, `d6`, `3D6`, `d66`.
_ROLL_NOTATION = re.compile(r"\d*d\d+")


@dataclass(frozen=True)
class DiceFaces:
    """The faces a rule set's dice show: what typed-in dice may hold, and how to say so."""

    d6: bool = True
    symbols: tuple[Symbol, ...] = ()

    def hint(self) -> str:
        kinds = []
        if self.d6:
            kinds.append("d6 faces as numbers 1 to 6 (`3 5`)")
        if self.symbols:
            names = ", ".join(s.value for s in self.symbols)
            kinds.append(f"battle dice as {names} (or `inf`, `sab`, `f`…)")
        return f"Type {' and '.join(kinds)}."

    def example(self) -> str:
        return "3 5" if self.d6 else "inf saber"

    def noun(self) -> str:
        if self.d6 and self.symbols:
            return "any die"
        return "a d6" if self.d6 else "a battle die"


D6_DICE = DiceFaces(d6=True)
BATTLE_DICE_FACES = DiceFaces(d6=False, symbols=tuple(Symbol))
ANY_DICE = DiceFaces(d6=True, symbols=tuple(Symbol))


# A phone keyboard's full-width forms (U+FF01 to U+FF5E, and its wide space) as ASCII: the
# same figures and letters in another width, read so wherever dice or a number are typed
# (``３`` is 3). Other scripts' digits (``٣``) are refused wherever they are typed, with what
# to type instead: one rule for dice, a unit's words and a GM's corrections.
FULL_WIDTH = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)} | {0x3000: 0x20}


def parse_dice(text: str, faces: DiceFaces = ANY_DICE) -> list[Face]:
    """Read dice typed by a player, in order: only the faces ``faces`` allows.

    Digits may be run together (``43`` is a 4 then a 3, as a d66 is read) because
    every d6 face is one digit. Symbols may be abbreviated (``inf``, ``sab``, ``f``).
    A phone's full-width characters (``３ ６``, ``ｉｎｆ``) read as their plain forms.
    """
    read: list[Face] = []
    plain = text.translate(FULL_WIDTH)
    for token in _DICE_SEPARATORS.split(plain.strip().lower()):
        if token:
            read.extend(_read_faces(token, faces))
    return read


def _read_faces(token: str, faces: DiceFaces) -> list[Face]:
    if token.isdigit() and faces.d6:
        return [_d6_face(digit, token) for digit in token]
    if token in SYMBOL_ALIASES and SYMBOL_ALIASES[token] in faces.symbols:
        return [SYMBOL_ALIASES[token].value]
    if _ROLL_NOTATION.fullmatch(token):
        raise BadDiceText(
            f"`{token}` names dice to roll; this option takes the faces you rolled.",
            hint=f"Type the faces you rolled, like `{faces.example()}`, not the dice to roll; "
            "or leave `dice` blank and I roll.",
        )
    shown = token if len(token) <= 16 else f"{token[:16]}…"
    raise BadDiceText(f"`{shown}` is not a face of {faces.noun()}.", hint=faces.hint())


def _d6_face(digit: str, token: str) -> int:
    if digit not in "123456":
        shown = token if len(token) <= 16 else f"{token[:16]}…"
        within = f" (in `{shown}`)" if token != digit else ""
        raise BadDiceText(
            f"`{digit}` is not a face of a d6{within}.",
            hint="Type each die as a number from 1 to 6, for example `3 5 6`.",
        )
    return int(digit)


def _check_face(kind: RollKind, face: Face, label: str) -> Face:
    if isinstance(kind, BattleDice):
        # Any symbol, whatever faces the dice are set to: a table's own dice are exact.
        if isinstance(face, str) and face in {s.value for s in Symbol}:
            return Symbol(face)
        raise BadDiceText(
            f"`{face}` is not a battle-die face (needed for {label}).",
            hint="Battle dice show inf, cav, art, saber or flag.",
        )
    if isinstance(face, int) and 1 <= face <= 6:
        return face
    raise BadDiceText(
        f"`{face}` is not a d6 face (needed for {label}).",
        hint="Type each die as a number from 1 to 6.",
    )


class ScriptedSource:
    """Faces given in advance, consumed in order.

    With a ``fallback`` source, rolls past the scripted faces come from it (a GM
    forcing only the next roll); without one, running short is an error that says
    which roll needed which dice, and ``finish`` reports faces left unused.
    """

    def __init__(self, faces: Sequence[Face], fallback: DiceSource | None = None) -> None:
        self._faces = list(faces)
        self._used = 0
        self._fallback = fallback
        # Each roll asked for, and its kind: said (``describe``) only in a hint, when the
        # dice run short or are left over.
        self.rolls: list[tuple[str, RollKind]] = []
        self.fresh = 0  # dice the fallback supplied

    @classmethod
    def from_text(cls, text: str, fallback: DiceSource | None = None) -> ScriptedSource:
        return cls(parse_dice(text), fallback)

    @property
    def remaining(self) -> int:
        return len(self._faces) - self._used

    @property
    def consumed(self) -> int:
        return self._used

    def roll(self, kind: RollKind, label: str) -> Faces:
        need = kind.dice_count
        self.rolls.append((label, kind))
        used = self._used
        remaining = len(self._faces) - used
        if remaining < need:
            if self._fallback is not None:
                return self._take(kind, label, need)
            paired = any(isinstance(k, D66) for _, k in self.rolls)
            typed = len(self._faces)
            left = (f"only {remaining} of your {typed} dice "
                    f"{'was' if remaining == 1 else 'were'} left" if remaining else
                    "you gave none" if not typed else
                    "the one die you gave was used already" if typed == 1 else
                    f"all {typed} of your dice were used already")
            raise NotEnoughDice(
                f"Not enough dice: {label} needs {kind.describe()} but {left}"
                f"{' (a d66 such as `44` is two dice)' if paired else ''}.",
                hint=self._needed_hint(),
            )
        self._used = used + need
        if need == 1:  # most rolls: one die
            return (_check_face(kind, self._faces[used], label),)
        return tuple(_check_face(kind, face, label) for face in self._faces[used:used + need])

    def _take(self, kind: RollKind, label: str, count: int) -> Faces:
        """``count`` faces of a ``kind`` roll: those still scripted, then the fallback's (a
        GM who queued one die for a two-dice roll fixed the first die only). A scripted
        fallback (the GM's queue behind typed dice) gives only the faces missing, so none of
        its own is spent unseen."""
        mine = tuple(_check_face(kind, face, label)
                     for face in self._faces[self._used:self._used + count])
        self._used += len(mine)
        missing = count - len(mine)
        if not missing:
            return mine
        if self._fallback is None:  # a queue with nothing behind it ran out mid-roll
            raise NotEnoughDice(f"Not enough dice: {label} needs {kind.describe()}.",
                                hint=self._needed_hint())
        if isinstance(self._fallback, ScriptedSource):
            rest = self._fallback._take(kind, label, missing)
        else:
            # Dice are independent: the tail of a full fresh roll is a fresh roll of the rest.
            rest = tuple(self._fallback.roll(kind, label)[kind.dice_count - missing:])
        self.fresh += len(rest)
        return mine + rest

    def left(self) -> str:
        """The faces no roll used, as typed (empty when all were used)."""
        return " ".join(str(f) for f in self._faces[self._used :])

    def finish(self) -> None:
        """Raise if faces were typed that no roll used."""
        if self._fallback is None and self.remaining > 0:
            extra = self.left()
            # `44` typed for a d66 is two dice: said, or 6 values typed read as 11 dice.
            paired = any(isinstance(kind, D66) for _, kind in self.rolls)
            raise TooManyDice(
                f"Too many dice: this resolution used {self._used} "
                f"but you gave {len(self._faces)} (unused: {extra}"
                f"{'; a d66 such as `44` is two dice' if paired else ''}).",
                hint=self._needed_hint(),
            )

    def _needed_hint(self) -> str:
        needed = ", ".join(f"{label} ({kind.describe()})" for label, kind in self.rolls)
        return f"Rolls so far, in order: {needed}." if needed else ""


class RecordingSource:
    """Passes rolls through and remembers every face, in order: a procedure stopped part
    way (by a question) is replayed on them once it has its answer."""

    def __init__(self, inner: DiceSource) -> None:
        self._inner = inner
        self.faces: list[Face] = []

    def roll(self, kind: RollKind, label: str) -> Faces:
        faces = self._inner.roll(kind, label)
        self.faces.extend(faces)
        return faces


class Unrolled(Exception):
    """Raised by ``ReplaySource`` at the first roll past its prefix."""

    def __init__(self, kind: RollKind, label: str) -> None:
        super().__init__(label)
        self.kind = kind
        self.label = label


class ReplaySource:
    """Replays a fixed prefix of outcomes, then stops the procedure with ``Unrolled``.

    Re-running a procedure once per outcome of the first unrolled roll, and so on,
    walks the whole tree of outcomes; multiplying the probabilities along a path
    gives each result's exact chance. Nothing in a procedure has to change for it.
    """

    def __init__(self, prefix: Sequence[Faces]) -> None:
        self._prefix = list(prefix)
        self._next = 0

    def roll(self, kind: RollKind, label: str) -> Faces:
        if self._next >= len(self._prefix):
            raise Unrolled(kind, label)
        faces = self._prefix[self._next]
        self._next += 1
        return faces
