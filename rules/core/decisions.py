"""Decisions a player makes in the middle of a procedure, asked for as dice are.

A procedure asks a named :class:`Question` with its allowed answers and says whose choice it
is. The answers come from the request, like the dice: ``choices:"counter-charge"`` in a
command, ``"answers": {"counter_charge": "Hussars"}`` in JSON. A question nobody has
answered yet stops the procedure with :class:`Undecided`, the way missing dice stop it with
``Unrolled``; the bot then asks the player and plays the procedure again, with the same dice
and the answer added.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn, TypeVar

from rules.core.dice import DiceSource, RecordingSource, ScriptedSource
from rules.core.errors import InvalidInput, RulesError
from rules.core.fields import did_you_mean
from rules.core.names import name_key
from rules.core.notation import echo

MISSPELT = 2
"""Letters typed wrong, left out or added, at most, for a key given ahead to be taken for a
slip of a question's name: `take_groud` is one off `take_ground`; `bonus_back_ignore_flag`,
another question's name, is five off `bonus_ignore_flag`."""
SEPARATE_ANSWERS = "Several answers given ahead go with `;` between them: `a=x; b=y`."
# Between answers given ahead: `;`, or a comma just before `question=`.
_ANSWER_SEPARATOR = re.compile(r";|,\s*(?=[A-Za-z][\w-]*\s*=)")


class NotAnAnswer(InvalidInput):
    """An answer the question does not take: the player's words, not the dice, are at
    fault, so odds refuse it whole instead of counting the paths that reach it."""


Asking = tuple[str, int]
"""One asking of a question: its key, and how many times it was answered before."""


class OutOfReach(InvalidInput):
    """An answer given ahead that the dice have since put out of reach (the unit it names
    has left the field): the dice, not the player's words, are at fault. Played, the roll
    stands and the answer is set aside, its question asked (``play_setting_aside``); the odds
    walk such a path on as if the answer had not been given (``Answers.out_of_reach``), as a
    player reads them."""

    def __init__(self, message: str, *, hint: str | None = None, asking: Asking) -> None:
        super().__init__(message, hint=hint)
        self.asking = asking


@dataclass(frozen=True)
class Answer:
    key: str  # what is typed: ``counter-charge``, a unit's name
    label: str  # what a button says


@dataclass(frozen=True)
class Question:
    """A choice the rules leave to a player, asked at one point of a procedure."""

    key: str  # stable name: ``counter_charge``
    text: str  # ``Will the 42nd counter-charge?``
    answers: tuple[Answer, ...]
    unit: str | None = None  # the unit whose player decides; None: the GM or whoever rolled
    by: str = "player"  # the role in the procedure: attacker, defender, player, gm
    # What a player may type instead of a listed answer (``the unit it attacks, as `Name:
    # words```), for a choice no list can hold; empty: only the listed answers.
    typed: str = ""
    # A chart the player reads, where the dice landed on it: (chart, column, band of rows),
    # ``("Assault et Mêlée", "2:1", "41–46")``. The answer is what the cell says, not a
    # choice: the odds give the chance of each cell rather than walk each answer.
    cell: tuple[str, str, str] | None = None

    def answer(self, given: str) -> Answer:
        """The allowed answer ``given`` names (case and spacing aside), else the text as
        typed where the question takes one, or a clear refusal."""
        wanted = _key(given)
        for answer in self.answers:
            if wanted in (_key(answer.key), _key(answer.label)):
                return answer
        # The start of one answer's label or key, as a player types from its button
        # (`counter` for "Counter-charge Ottawa", `No bonus` for "No bonus melee"): taken
        # only when no other starts so. Where a name may be typed, only a label's start is,
        # before the name: a key is a unit's name there, and `Fusiliers` is not the start
        # of `Fusiliers-Reine`.
        starting = [a for a in self.answers if len(wanted) >= 3 and (
            _key(a.label).startswith(wanted)
            or (not self.typed and _key(a.key).startswith(wanted)))]
        if len(starting) == 1:
            return starting[0]
        if len(starting) > 1 and not self.typed:
            # The start of several: which one is the player's to say, not a guess's (nor a
            # "did you mean" pointing at one of them).
            self._one_of(given, starting)
        if self.typed and given.strip():
            return self._typed(given.strip())
        if not given.strip():  # echoed in a code span, it would show as two stray backticks
            raise NotAnAnswer(f"No answer given to “{self.text}”.",
                              hint=f"Answer {self.listed()}.")
        raise NotAnAnswer(
            f"`{given}` is not an answer to “{self.text}”.",
            hint=f"Answer {self.listed()}."
            + self._near_miss(given)
            + (f" {SEPARATE_ANSWERS}" if "," in given else ""),
        )

    def listed(self, answers: Sequence[Answer] | None = None) -> str:
        """The answers (``answers``: these of them) as their buttons say them, each with its
        key where that differs: “Take ground” (`advance`) or “Stay”."""
        said = [f"“{a.label}”" if _key(a.label) == _key(a.key) else f"“{a.label}” (`{a.key}`)"
                for a in (self.answers if answers is None else answers)]
        return said[0] if len(said) == 1 else f"{', '.join(said[:-1])} or {said[-1]}"

    def _one_of(self, given: str, starting: Sequence[Answer]) -> NoReturn:
        """Refuses ``given``, the start of each of ``starting`` answers: it never returns."""
        raise NotAnAnswer(f"`{given}` is the start of several answers to “{self.text}”.",
                          hint=f"Answer {self.listed(starting)}.")

    def _near_miss(self, given: str) -> str:
        """"Did you mean" an answer's key, near what was typed or near its button's label
        (`Form sqaure` for "Form square": `square`)."""
        said = did_you_mean(given, [a.key for a in self.answers])
        if said:
            return said
        by_label = {a.label.casefold(): a.key for a in self.answers}
        close = difflib.get_close_matches(given.strip().casefold(), list(by_label), n=1,
                                          cutoff=0.8)
        return f" Did you mean `{by_label[close[0]]}`?" if close else ""

    def _typed(self, text: str) -> Answer:
        if ";" in text:
            # Answers are kept for replay as `question=answer`, `;` between them.
            raise InvalidInput(f"`{echo(text)}`: an answer holds no `;`.",
                               hint=f"Answer with {self.typed}, one at a time.")
        return Answer(text, text)

    def to_dict(self) -> dict[str, Any]:
        data = {"key": self.key, "text": self.text, "unit": self.unit, "by": self.by,
                "answers": [{"key": a.key, "label": a.label} for a in self.answers]}
        if self.typed:
            data["typed"] = self.typed
        if self.cell:
            data["cell"] = list(self.cell)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Question:
        return cls(data["key"], data["text"],
                   tuple(Answer(a["key"], a["label"]) for a in data["answers"]),
                   data.get("unit"), data.get("by", "player"), data.get("typed", ""),
                   tuple(data["cell"]) if data.get("cell") else None)  # type: ignore[arg-type]


class Undecided(RulesError):
    """The procedure reached a question nobody has answered: ask it, then play again.
    ``set_aside`` is an answer given ahead that did not fit it, said beside the question;
    ``out_of_reach`` says why, where the dice put it out of reach (empty: not known)."""

    def __init__(self, question: Question, steps: Sequence[Any] = (),
                 set_aside: str | None = None, defaults: Sequence[str] = (),
                 passed_over: str | None = None, effects: Sequence[Any] = (),
                 read_elsewhere: str | None = None,
                 cells: Mapping[str, list[list[str]]] | None = None,
                 out_of_reach: str | None = None) -> None:
        super().__init__(f"{question.text} ({', '.join(a.key for a in question.answers)})",
                         hint="Answer it with the buttons, or give `choices`.")
        self.question = question
        self.steps = tuple(steps)  # what the procedure had done before it asked
        self.set_aside = set_aside
        self.out_of_reach = out_of_reach
        self.defaults = tuple(defaults)  # project defaults that decided what it had done
        self.effects = tuple(effects)  # what it had done to units before it asked
        # An answer the mover gave ahead to another player's question: not taken.
        self.passed_over = passed_over
        # An answer given ahead for the chart question read at another cell: not taken.
        self.read_elsewhere = read_elsewhere
        # Where the answers given ahead to chart questions were read (``Answers.cells``).
        self.cells = dict(cells or {})


@dataclass
class Answers:
    """Scripted answers: by question (``counter_charge=Hussars``) or in the order the
    questions come (``counter-charge``).

    ``playing_on`` says the procedure is played again after an answer the bot asked for.
    An answer given ahead that does not fit its question is then set aside and the question
    asked (the command was accepted long ago: refusing now would leave the question with no
    answer the bot could take); in the command itself it is refused, so it can be retyped.
    """

    by_question: dict[str, str] = field(default_factory=dict)
    in_order: list[str] = field(default_factory=list)
    asked: list[str] = field(default_factory=list)  # questions answered so far, in order
    playing_on: bool = False
    # The questions the bot asked and a player answered since (the rest were given ahead,
    # with the command).
    asked_for: frozenset[str] = frozenset()
    # The questions the command's own answers name (``counter_charge=Rangers``).
    chosen: frozenset[str] = frozenset()
    # In a battle, whose choices the mover may not make ahead: other players' units (by
    # their names' lookup form), and with ``gm_only`` the questions the rules give the GM.
    others: frozenset[str] = frozenset()
    gm_only: bool = False
    # The answers taken from ``in_order`` so far. A walk of every answer shares its own with
    # the answers a command's options add to (``given_answers``), to see which it took.
    taken: list[str] = field(default_factory=list)
    # How many of ``in_order``, from its start, were given ahead (``choices``): those after
    # them are a walk's or the GM's, who chose them for the path they lead along.
    ahead: int = 0
    # The cells of the charts where answers given ahead were read (``Question.cell``), by
    # question: such an answer says what that cell says, so it is not taken where the dice
    # land elsewhere (a reroll, an override); the question is asked there. Kept with the
    # move (``CELLS``) once the answer was read.
    cells: dict[str, list[list[str]]] = field(default_factory=dict)
    # Askings whose answer given ahead the dice put out of reach (``OutOfReach``): a walk of
    # every answer plays them as if nothing had been given ahead.
    set_aside: frozenset[Asking] = frozenset()
    # Why each was set aside, where play knows it (the refusal it met): said beside it.
    reasons: dict[Asking, str] = field(default_factory=dict)
    # As ``more`` for ``given_answers``: a walk of every answer, which answers every player's
    # questions; False in play, where it only sets answers aside (``play_setting_aside``).
    walk: bool = True
    # Askings answered by an answer given ahead, so far.
    taken_ahead: set[Asking] = field(default_factory=set)

    def theirs(self, question: Question) -> bool:
        """Whether ``question`` is another player's (or the GM's) choice, not the mover's."""
        if question.by == "gm":
            return self.gm_only
        return question.unit is not None and name_key(question.unit) in self.others

    def decide(self, question: Question) -> Answer:
        key = question.key
        asking = (key, self.asked.count(key))
        if not self.playing_on and key not in self.by_question:
            self._refuse_a_misspelt_key(question)
        named = key in self.chosen or (key in self.by_question and key not in self.asked_for)
        # A question the command's answers do not name takes the next answer given in
        # order, used or not: played again after its asking, the same answers pair alike.
        slot = self.in_order.pop(0) if not named and self.in_order else None
        slot_ahead = slot is not None and self.ahead > 0
        if slot is not None:
            self.taken.append(slot)
            self.ahead = max(0, self.ahead - 1)
        if key in self.asked_for:  # the bot asked it, and its player answered
            given = self.by_question[key]
        elif self.theirs(question):  # theirs to make when asked, whatever was given
            raise Undecided(question, passed_over=self.by_question.get(key) or slot)
        elif named:
            given = self.by_question[key]
        elif slot is not None:
            given = slot
        else:
            raise Undecided(question)
        given_ahead = key not in self.asked_for and (named or slot_ahead)
        elsewhere = given_ahead and self._read_elsewhere(question)
        if elsewhere or (given_ahead and asking in self.set_aside):
            # What another cell says, or out of reach on these dice: the next answer a walk
            # or the GM gave, if any, else the question is asked, as if nothing had been
            # given ahead.
            if len(self.in_order) <= self.ahead:
                raise Undecided(question, read_elsewhere=given if elsewhere else None,
                                set_aside=None if elsewhere else given,
                                out_of_reach=None if elsewhere else
                                self.reasons.get(asking, ""))
            given = self.in_order.pop(self.ahead)
            self.taken.append(given)
            given_ahead = False
        try:
            answer = question.answer(given)
        except InvalidInput:
            if not self.playing_on:
                raise
            if named and self.in_order:
                # Set aside for the answers that follow in order (a walk of every answer).
                del self.by_question[key]
                self.chosen = self.chosen - {key}
                return self.decide(question)
            raise Undecided(question, set_aside=given) from None
        self.asked.append(key)
        if given_ahead:
            self.taken_ahead.add(asking)
        if given_ahead and question.cell is not None:
            read = self.cells.setdefault(key, [])
            if list(question.cell) not in read:
                read.append(list(question.cell))
        return answer

    def only(self, question: Question) -> Answer:
        """The one answer ``question`` offers, taken where the one given ahead was set aside:
        no choice is left to ask for."""
        self.asked.append(question.key)
        return question.answers[0]

    def out_of_reach(self, question: Question, error: InvalidInput) -> InvalidInput:
        """The error to raise when the answer just taken for ``question`` names what the
        dice have put out of reach: ``OutOfReach`` if it was given ahead, else ``error``
        (a player answering the question asked sees what is still there)."""
        asking = (question.key, self.asked.count(question.key) - 1)
        if asking not in self.taken_ahead:
            return error
        return OutOfReach(error.message, hint=error.hint, asking=asking)

    def _read_elsewhere(self, question: Question) -> bool:
        """Whether the answer given ahead to this chart question was read at another cell
        than the one the dice reach now."""
        read = self.cells.get(question.key)
        return question.cell is not None and read is not None \
            and list(question.cell) not in read

    def _refuse_a_misspelt_key(self, question: Question) -> None:
        """An answer given ahead under a near miss of this question's name (`take_groud`)
        would be passed over, and the question asked as if nothing were given: in the
        command itself it is refused, so it can be retyped."""
        near = [k for k in self.chosen
                if k not in self.asked and 0 < edits(k, question.key) <= MISSPELT]
        if near:
            raise NotAnAnswer(
                f"`choices`: no question here is called `{near[0]}`; this one is "
                f"`{question.key}` (“{question.text}”).",
                hint=f"Write `{question.key}={self.by_question[near[0]]}`.")

    def unused(self) -> list[str]:
        """Answers given for questions never asked: worth a word, since they changed nothing."""
        return [*self.in_order,
                *(f"{k}={v}" for k, v in self.by_question.items() if k not in self.asked)]

    @classmethod
    def read(cls, given: Any, where: str = "choices") -> Answers:
        """From a command's ``choices`` text or a request's ``answers`` (object or list)."""
        if given is None or given == "":
            return cls()
        if isinstance(given, Mapping):
            return cls({str(k): _text(v, where) for k, v in given.items()})
        if isinstance(given, list):
            return cls(in_order=[_text(v, where) for v in given])
        if not isinstance(given, str):
            raise InvalidInput(f"`{where}` must be text like `counter-charge`.")
        answers = cls()
        # Split on `;`, as unit lists are; a comma splits only before another `question=`
        # (`huzzah=huzzah, chart_result=DR1`), since a unit's name may hold a comma.
        for part in filter(None, (p.strip() for p in _ANSWER_SEPARATOR.split(given))):
            question, sep, answer = part.partition("=")
            if sep:
                answers.by_question[question.strip().replace("-", "_")] = answer.strip()
            else:
                answers.in_order.append(part)
        return answers


def edits(a: str, b: str) -> int:
    """The letters to change, add or drop to make ``a`` into ``b`` (Levenshtein)."""
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        previous, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (x != y))
    return row[-1]


ANSWERED = "answered"
"""The option where the bot keeps the answers players gave to its questions (apart from
``choices``, given ahead with the command: a reroll keeps those and asks the others again).
Present, even empty, it says the command is being played again."""


CELLS = "cells"
"""The option where the bot keeps, for a battle's move, the cells of the charts where the
answers given ahead were read (``Answers.cells``): played again on other dice (a reroll, an
override), such an answer is taken only where the dice land on the same cell."""


NOT_THEIRS = "not_theirs"
"""The option where the bot keeps, for a battle's move, the choices that are not the mover's
to give ahead (``{"units": [name keys], "gm": true}``): such a question is asked of its player
even when ``choices`` answers it."""


def given_answers(options: Mapping[str, Any], more: Answers | None = None) -> Answers:
    """The answers a command gives (``choices``, then those the bot asked for) or a JSON
    request (``answers``); ``more`` (a walk of every answer) comes after them."""
    if options.get("choices") is not None or options.get(ANSWERED) is not None:
        answers = Answers.read(options.get("choices"), "choices")
        answers.chosen = frozenset(answers.by_question)
        answers.ahead = len(answers.in_order)
        answers.cells = {str(k): [list(c) for c in v]
                         for k, v in (options.get(CELLS) or {}).items()}
        asked = Answers.read(options.get(ANSWERED), ANSWERED)
        answers.by_question |= asked.by_question
        answers.in_order += asked.in_order
        answers.asked_for = frozenset(asked.by_question)
        theirs = options.get(NOT_THEIRS) or {}
        answers.others = frozenset(theirs.get("units", ()))
        answers.gm_only = bool(theirs.get("gm"))
        # Played again (after an answer, or a GM's reroll or override): the command was
        # accepted long ago.
        answers.playing_on = options.get(ANSWERED) is not None
    else:
        answers = Answers.read(options.get("answers"), "answers")
        answers.ahead = len(answers.in_order)
    if more is not None:
        answers.by_question |= more.by_question
        answers.in_order += more.in_order
        answers.taken = more.taken
        answers.set_aside = more.set_aside
        answers.reasons = more.reasons
        if more.walk:
            # A walk tries every answer of every question, whoever's choice it is.
            answers.others, answers.gm_only = frozenset(), False
    return answers


Played = TypeVar("Played")


def play_setting_aside(prepared: Callable[..., Played], dice: DiceSource) -> Played:
    """Play a procedure (``prepared(dice, answers)``) on ``dice``. Where they put an answer
    given ahead out of reach (``OutOfReach``), the roll stands: the procedure is played again
    on the same dice with that answer set aside, so its question is asked (or, with one
    answer left, goes on with it). Refused instead, the command could be sent again for fresh
    dice."""
    recorder = RecordingSource(dice)
    source: DiceSource = recorder
    aside = Answers(walk=False)
    while True:
        try:
            return prepared(source, aside) if aside.set_aside else prepared(source)
        except OutOfReach as error:
            if error.asking in aside.set_aside:  # reached again all the same: refused
                raise
            aside.set_aside |= {error.asking}
            aside.reasons[error.asking] = error.message
            # The dice rolled so far again, then on from where they stopped.
            source = ScriptedSource(list(recorder.faces), fallback=recorder)


def with_cells(options: Mapping[str, Any], cells: Mapping[str, list[list[str]]]
               ) -> dict[str, Any]:
    """A move's options with the cells where its answers given ahead were read (``CELLS``),
    to be kept with it."""
    return {**options, CELLS: {k: [list(c) for c in v] for k, v in cells.items()}} \
        if cells else dict(options)


def with_answer(answered: str | None, question: Question, answer: Answer) -> str:
    """The bot's record of the answers given to its questions, with one more."""
    pair = f"{question.key}={answer.key}"
    return f"{answered}; {pair}" if answered else pair


def _key(text: str) -> str:
    """An answer as typed, compared with case, spacing, dashes and apostrophes aside."""
    return name_key(text.replace("-", " ").replace("_", " "))


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InvalidInput(f"`{where}`: each answer is a word, like `counter-charge`.")
    return value
