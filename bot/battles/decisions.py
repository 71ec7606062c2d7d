"""Questions the rules put to a player in the middle of a procedure: asked, kept, answered.

A procedure that reaches a question nobody has answered stops (``Paused``). In a battle the
question is kept on the battle's row (``battles.pending``) by a logged ``question`` event, in
the move's transaction: it survives restarts, and ``/gm undo`` takes it back like any event.
While it waits the battle takes no other move. The answer plays the procedure again with the
dice rolled before the question and the answer added to its ``answered`` option, as one
``resolution`` event that also clears the question. A quick lookup has no battle: its
question waits in the ``questions`` table.

Whose choice it is: the player who added the unit the question names (or, when nobody is on
record, whoever ran the command); the battle's GM for a question the rules give the GM; a GM
may answer any. In a quick lookup, whoever ran it.

The reply to a question mentions the player it waits on (``Asked.mention``), unless he is the
one whose command or press asked it, or he turned mentions off (``/notify off``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import bindparam, delete, insert, select
from sqlalchemy.engine import Connection

from bot.battles.actor import Actor
from bot.battles.errors import BattleError, NotWaiting
from bot.battles.play import (
    MOVE,
    NO_DICE,
    DiceUse,
    Paused,
    Played,
    TakenBack,
    play_in_battle,
    queue_left,
    quick_lookup,
)
from bot.battles.store import TABLES, BattleTx, active_battle, rules_for
from bot.render.text import own
from bot.storage.mentions import mentions_off
from bot.storage.models import Question as QuestionRow
from bot.storage.models import name_key, utcnow
from bot.storage.question_messages import forget_old_messages, take_message
from rules.core.decisions import (
    ANSWERED,
    Answer,
    Question,
    Undecided,
    play_setting_aside,
    with_answer,
    with_cells,
)
from rules.core.dice import ScriptedSource, plain_face
from rules.core.errors import RulesError
from rules.core.notation import possessive
from rules.core.records import Effect, Resolution, Severity, Step
from rules.core.registry import BattleRules
from rules.core.roster import Roster

GM_CHOICE = "gm"
"""A question's ``by`` when the rules give the choice to the GM, not to a unit's player."""

REROLLED = "rerolled"
"""In a question event's request: a GM's reroll asked it, in place of the move it took back."""

QUESTIONS_KEPT = timedelta(days=14)
"""How long a quick lookup's question waits for its answer before it is cleared away."""


@dataclass(frozen=True)
class Pending:
    """A procedure stopped at a question: everything needed to play it on once answered."""

    question: Question
    ruleset: str
    procedure: str
    options: dict[str, Any]
    dice: str | None  # typed-in dice: replayed from their text
    faces: list[Any]  # dice rolled (or queued) before the question: replayed first
    asked_by: int  # who made the move
    answerer: int  # the player whose choice it is (a GM may answer too)
    seq: int | None = None  # the battle event that asked it; None in a quick lookup
    move: int | None = None  # the first event of the move it belongs to (in a battle)
    use: DiceUse = NO_DICE  # where ``faces`` came from
    asked_at: str | None = None  # when it was asked (ISO 8601, UTC)
    # The move's rolls standing in the channel once this question is answered: those its
    # message shows and those of the answered questions above it (their messages keep their
    # rolls), so that what follows the answer does not give them again (``rolls_shown``).
    shown: int = 0
    # Of those, the rolls the messages above this question's own show: the result takes
    # the place of this question's message, not of theirs.
    above: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"question": self.question.to_dict(), "ruleset": self.ruleset,
                "procedure": self.procedure, "options": self.options, "dice": self.dice,
                "faces": [plain_face(f) for f in self.faces],
                "asked_by": self.asked_by, "answerer": self.answerer, "seq": self.seq,
                "move": self.move, "use": self.use.to_dict(), "asked_at": self.asked_at} \
            | ({"shown": self.shown, "above": self.above} if self.shown else {})

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Pending:
        return cls(Question.from_dict(data["question"]), data["ruleset"], data["procedure"],
                   dict(data["options"]), data.get("dice"), list(data["faces"]),
                   data["asked_by"], data["answerer"], data.get("seq"),
                   data.get("move", data.get("seq")), DiceUse.from_dict(data.get("use")),
                   data.get("asked_at"), int(data.get("shown", 0)), int(data.get("above", 0)))

    def rolls_to_give(self) -> Pending:
        """The question where no message above shows the move's rolls (asked again by an
        undo's reply, or brought into another channel): what follows its answer gives them
        all again."""
        return replace(self, shown=0, above=0)

    def answered(self, answer: Answer) -> dict[str, Any]:
        """The command's options with the answer added to those the bot asked for."""
        return {**self.options,
                ANSWERED: with_answer(self.options.get(ANSWERED), self.question, answer)}

    def choose(self, given: str | int) -> Answer:
        """The answer typed (checked against the question), or the one at a button's place."""
        if isinstance(given, str):
            if not given.strip():
                # Echoed back, a blank answer would be an empty code span.
                raise BattleError(f"`choice` is empty: it takes an answer to "
                                  f"“{self.question.text}”.",
                                  hint=f"Answer {self.question.listed()}.")
            return self.question.answer(given)
        if not 0 <= given < len(self.question.answers):
            raise BattleError("That button no longer matches the question.",
                              hint="Use the buttons under the question, or `/answer`.")
        return self.question.answers[given]


@dataclass(frozen=True)
class Asked:
    """A command's reply when it stopped at a question: what happened so far, and the
    question with its answers (for buttons: the id that finds it again)."""

    pending: Pending
    steps: tuple[Step, ...]
    dice_note: str
    button_id: str  # ``b<battle id>:<seq>`` or ``q<question id>:0``
    # The player to ping: the one the question waits on, when it was not his own command
    # (or press) that asked it and he has not turned mentions off; else None.
    mention: int | None = None
    # After an answer: the message that asked the question answered (see ``Played``).
    question_message: int | None = None
    # What the move had done to units before it asked, said with the question.
    effects: tuple[Effect, ...] = ()
    # The battle's remarks on the move (played out of its phase), said with the question.
    notes: tuple[str, ...] = ()
    # Roster lines said with the question: what a GM's reroll put back as it was before the
    # move it replaced (``bot.battles.rerolls``).
    changes: tuple[str, ...] = ()
    # A reroll's: the question the rerolled move waited on, which this one replaces.
    dropped: TakenBack | None = None
    # After an answer: the move's rolls the answered questions' messages above show.
    above: int = 0


def rolls_shown(steps: Sequence[Step]) -> int:
    """How many rolls a question's message shows: every roll the move made before it."""
    return sum(len(step.rolls) for step in steps)


def battle_question(battle_id: int, seq: int | None) -> str:
    """The id a battle's question is known by (its buttons carry it): ``b<battle>:<seq>``."""
    return f"{battle_questions(battle_id)}{seq}"


def battle_questions(battle_id: int) -> str:
    """What the ids of all a battle's questions start with."""
    return f"b{battle_id}:"


def lookup_question(question_id: int) -> str:
    """The id a quick lookup's question is known by: ``q<question>:0``."""
    return f"q{question_id}:0"


class Waiting(BattleError):
    """The battle is waiting for an answer: no other move until then."""

    def __init__(self, pending: Pending, asker: int | None = None) -> None:
        # Told to the player it waits on: his own answer, in his words.
        whose = "your answer" if asker == pending.answerer else \
            f"an answer from {awaited(pending, person=refused_to)}"
        super().__init__(
            f"This battle is waiting for {whose}{asked_ago(pending, own)}: "
            f"“{pending.question.text}” (event #{pending.seq}).",
            hint="Answer it with its buttons or `/answer`; a GM may answer for an absent "
            "player, or take the question back with `/gm undo`.")


def mentioned(user_id: int) -> str:
    """``<@1000>``: a person as Discord shows him to each reader."""
    return f"<@{user_id}>"


def refused_to(user_id: int) -> str:
    """A person named in a refusal, as Discord shows him (``own``): a unit's name of the
    same shape shows as typed."""
    return own(mentioned(user_id))


def awaited(pending: Pending, shown: Callable[[str], str] = str,
            person: Callable[[int], str] = mentioned) -> str:
    """Whose answer the question waits on, named without a ping (the bot's messages allow
    none but the question's own mention): ``Hussars' player (<@1000>)``; ``shown`` words the
    unit's name (a renderer escapes its markdown), ``person`` the player (a file names him,
    where a mention would be a bare number)."""
    question = pending.question
    if question.by == GM_CHOICE and pending.seq is not None:
        whose = "the GM"
    elif question.unit:
        whose = f"{shown(possessive(question.unit))} player"
    else:
        whose = "the player who made the move" if pending.seq is not None else \
            "the player who rolled"  # a quick lookup makes no move
    return f"{whose} ({person(pending.answerer)})"


def asked_ago(pending: Pending, tag: Callable[[str], str] = str) -> str:
    """``, asked <t:…:R>``: when the question was asked, as Discord shows a time to each
    reader ("asked 3 days ago": after "since", it would read "since 3 days ago"); empty for
    a question kept before the time was."""
    if not pending.asked_at:
        return ""
    return f", asked {tag(f'<t:{int(datetime.fromisoformat(pending.asked_at).timestamp())}:R>')}"


def pending_of(battle: Any) -> Pending | None:
    data = getattr(battle, "pending", None)
    return Pending.from_dict(data) if data else None


def asked_again(rules: BattleRules, pending: Pending, roster: Roster,
                settings: Mapping[str, Any]) -> Undecided | None:
    """The waiting question's move played again on ``roster`` with the dice rolled before
    the question (``settings`` as ``play_settings`` gives them): where it stops now (None:
    it ran to its end). What the engine refuses is raised."""
    prepared = rules.prepare(pending.procedure, pending.options, roster, settings)
    try:
        play_setting_aside(prepared, ScriptedSource(pending.faces))
    except Undecided as asked:
        return asked
    return None


def so_far(pending: Pending, roster: Roster, settings: Mapping[str, Any]) -> Resolution | None:
    """What the waiting question's move did before it asked, as its message said it: its
    steps and effects (``asked_again``). None where it no longer stops at that question (a
    GM changed the roster since): the answer would play it anew."""
    try:
        asked = asked_again(rules_for(pending.ruleset), pending, roster, settings)
    except RulesError:
        return None
    if asked is None or asked.question.to_dict() != pending.question.to_dict():
        return None
    return Resolution(pending.ruleset, pending.procedure, "", Severity.NONE,
                      asked.steps, asked.effects)


def refuse_while_waiting(battle: Any, asker: int | None = None) -> None:
    pending = pending_of(battle)
    if pending is not None:
        raise Waiting(pending, asker)


def check_answerer(actor: Actor, pending: Pending, is_gm: bool) -> None:
    if actor.user_id == pending.answerer or is_gm:
        return
    if pending.seq is None:  # a quick lookup: no GM's to answer
        raise BattleError(f"This is {refused_to(pending.answerer)}'s quick lookup: only the player "
                          "who ran it answers it.", hint="Run the lookup yourself to be asked.")
    if pending.question.by == GM_CHOICE:
        raise BattleError("This is the GM's choice.", hint="Wait for a GM to answer.")
    whose = f"{possessive(pending.question.unit)} player's choice" if pending.question.unit \
        else "the choice of the player who made the move"
    raise BattleError(f"This is {whose} ({refused_to(pending.answerer)}), or a GM's.",
                      hint="Wait for them to answer; a GM may answer for an absent player.")


# --- in a battle ------------------------------------------------------------------------------


def not_theirs(tx: BattleTx) -> dict[str, Any] | None:
    """The choices a move's mover may not give ahead (``NOT_THEIRS``): the questions of other
    players' units and the GM's; None for a GM, who may give any. Kept with the move, so the
    move asks them of their players however it is played on."""
    battle = tx.require_battle()
    if tx.actor.is_gm(battle.created_by, battle.gm_role_id):
        return None
    return {"units": [row.name_key for row in tx.unit_rows()
                      if row.added_by is not None and row.added_by != tx.actor.user_id],
            "gm": True}


def ask_in_battle(tx: BattleTx, procedure: str, options: Mapping[str, Any],
                  dice: str | None, paused: Paused, *, mover: int | None = None,
                  move: int | None = None, before: DiceUse = NO_DICE,
                  summary_prefix: str = "", rerolled: bool = False, above: int = 0) -> Asked:
    """Keep the question on the battle, logged as an event, in the command's transaction.

    ``mover`` made the move (default: whoever runs this command), ``move`` is the move's
    first event when the question follows an answer, ``before`` where the dice before this
    command came from; ``rerolled``: a GM's reroll asked it (its undo brings back what the
    reroll took back, ``bot.battles.rerolls``); ``above``: the rolls the answered questions'
    messages above show."""
    battle = tx.require_battle()
    refuse_while_waiting(battle, tx.actor.user_id)
    options = with_cells(options, paused.cells)
    seq = battle.last_seq + 1
    mover = tx.actor.user_id if mover is None else mover
    answerer = _answerer(tx, paused.question, mover)
    pending = Pending(paused.question, battle.ruleset, procedure, dict(options), dice,
                      paused.faces, mover, answerer,
                      seq=seq, move=seq if move is None else move, use=paused.use,
                      asked_at=_now(), shown=rolls_shown(paused.steps), above=above)
    tx.touch(battle)
    battle.pending = pending.to_dict()
    left = queue_left(battle.dice_queue or [], paused.use, before)
    if left is not None:  # the GM's queued dice it took are spent
        battle.dice_queue = left
    request = {"ruleset": battle.ruleset, "procedure": procedure, "options": dict(options),
               MOVE: pending.move}
    if rerolled:
        request[REROLLED] = True
    tx.record("question", f"{summary_prefix}Asked: {paused.question.text}", request=request)
    return Asked(pending, paused.steps, paused.dice_note, battle_question(battle.id, pending.seq),
                 mention=mention_for(tx.conn, answerer, tx.actor.user_id),
                 effects=paused.effects, notes=paused.notes, above=above)


NOTHING_ASKED = ("No question is waiting for you here (none was asked, or it was answered): "
                 "`/answer` answers the question a command asks, once.")
ANSWER_SUMMARY = "Answered #"
"""How the summary of an event that answered a question begins (``Answered #4: Stand. …``)."""
_EVENTS = TABLES["events"]
_OF = _EVENTS.c.battle_id == bindparam("battle")
_LAST_QUESTION = (select(_EVENTS.c.seq, _EVENTS.c.undone_by)
                  .where(_OF, _EVENTS.c.kind == "question")
                  .order_by(_EVENTS.c.seq.desc()).limit(1))
_UNDONE_BY = select(_EVENTS.c.seq, _EVENTS.c.user_id, _EVENTS.c.summary).where(
    _OF, _EVENTS.c.seq == bindparam("seq"))
_ANSWER_TO = (select(_EVENTS.c.seq, _EVENTS.c.user_id, _EVENTS.c.summary)
              .where(_OF, _EVENTS.c.summary.startswith(bindparam("answered")),
                     _EVENTS.c.undone_by.is_(None))
              .order_by(_EVENTS.c.seq.desc()).limit(1))


def nothing_waiting(conn: Connection, battle_id: int) -> NotWaiting:
    """``/answer`` in a battle that waits on no question: what became of the last one, who
    answered it and what that played, or who took it back (a player back days later may
    find that a GM answered it for him, or rerolled the move that asked it)."""
    where = {"battle": battle_id}
    question = conn.execute(_LAST_QUESTION, where).first()
    if question is not None and question.undone_by is not None:
        became = conn.execute(_UNDONE_BY, {**where, "seq": question.undone_by}).first()
        done, said = "taken back", became.summary if became is not None else ""
    elif question is not None:
        became = conn.execute(_ANSWER_TO, {
            **where, "answered": f"{ANSWER_SUMMARY}{question.seq}: "}).first()
        done = "answered"
        said = became.summary.partition(": ")[2] if became is not None else ""
    if question is None or became is None:
        return NotWaiting(NOTHING_ASKED, hint="`/battle log` shows the last commands.")
    return NotWaiting(f"No question is waiting here: the last one (#{question.seq}) was {done} "
                      f"by {refused_to(became.user_id)} (event #{became.seq}: {said}).",
                      hint="`/battle log` shows what happened since.")


def answer_in_battle(tx: BattleTx, asked: tuple[int, int] | None,
                           given: str | int) -> Played | Asked:
    """Play the waiting procedure on with the answer: one event, which clears the question
    (or keeps the next one, when the procedure asks another). ``asked`` (battle id, event
    number) names the question a button was under, and ``given`` is then the answer's place
    among its buttons; None: whichever is waiting, answered in words."""
    if asked is not None and (tx.battle is None or asked[0] != tx.battle.id):
        # A button under a question the GM ended the battle on (or, forged, another
        # channel's), whether or not a new battle has begun here since: "start a battle" or
        # "already answered" would misread it.
        raise NotWaiting("That question's battle has ended (or is another channel's): it "
                         "can no longer be answered here.",
                         hint=None if tx.battle is not None else
                         "`/battle export` gives the whole log of the last battle here.")
    battle = tx.require_battle()
    pending = pending_of(battle)
    if pending is None and asked is None:
        raise nothing_waiting(tx.conn, battle.id)
    if pending is None or (asked is not None and asked != (battle.id, pending.seq)):
        raise NotWaiting("That question has already been answered, or was taken back.",
                          hint="`/battle log` shows what happened.")
    check_answerer(tx.actor, pending, tx.actor.is_gm(battle.created_by, battle.gm_role_id))
    answer = pending.choose(given)
    tx.touch(battle)
    battle.pending = None
    options = pending.answered(answer)
    asked_in = take_message(tx.conn, battle_question(battle.id, pending.seq), tx.channel_id)
    try:
        outcome = _play_on(tx, pending, options, answer.label)
    except RulesError:
        if not options.get("choices") or answer not in pending.question.answers:
            # A name typed as the answer (a target no unit has) is at fault, not the answers
            # given ahead: refused, the question still waiting, nothing replayed.
            raise
        # An answer given ahead that this path cannot take (a unit it names has gone, say):
        # the command was accepted long ago, and the answer just given is not at fault.
        # Its questions are asked instead.
        outcome = _play_on(tx, pending, {k: v for k, v in options.items() if k != "choices"},
                           answer.label)
    return replace(outcome, question_message=asked_in)


def _answer_prefix(seq: int, label: str) -> Callable[[str], str]:
    """What leads the log's line of a result an answer played: ``Answered #5: Stand. ``, or
    ``Answered #5: `` alone when the result's headline begins with the answer (a chart's
    ``DR2: 52nd routs``), which says it once."""
    def prefix(headline: str) -> str:
        said = re.match(rf"{re.escape(label)}(?:$|[:;,] )", headline) is not None
        return f"{ANSWER_SUMMARY}{seq}: " if said else f"{ANSWER_SUMMARY}{seq}: {label}. "
    return prefix


def answer_written(summary: str, asked: Pending | None) -> str | None:
    """The answer an event's summary says apart after its number (``_answer_prefix``), read
    against the answers of the question it answered (``asked``): its words may hold a full
    stop or a colon of their own ("G. Grenadiers ignores 1 flag", "Blank: firefight").
    None where it says none apart (the result's headline begins with it), or answers none
    of ``asked``'s answers."""
    if asked is None or not summary.startswith(head := f"{ANSWER_SUMMARY}{asked.seq}: "):
        return None
    said = summary[len(head):]
    # The longest first: "Stand" is not the answer "Stand and fight" begins with.
    return next((label for label in sorted((a.label for a in asked.question.answers),
                                           key=len, reverse=True)
                 if said.startswith(f"{label}. ")), None)


def _play_on(tx: BattleTx, pending: Pending, options: Mapping[str, Any],
             label: str) -> Played | Asked:
    """The move played on with its answers: its result, or the next question, logged as
    answering the question waiting (the event it names, the line before in the log: the
    question is not said again). The answered question's message stays above the next
    question with its rolls, and the result takes its place: neither gives again the rolls
    that stand above it."""
    try:
        played = play_in_battle(tx, pending.procedure, options, pending.dice,
                                replay=pending.faces, before=pending.use,
                                summary_prefix=_answer_prefix(pending.seq, label),
                                move=pending.move)
        return replace(played, above=pending.above)
    except Paused as paused:  # the answer leads to another question
        return ask_in_battle(tx, pending.procedure, options, pending.dice, paused,
                             mover=pending.asked_by, move=pending.move, before=pending.use,
                             summary_prefix=f"{ANSWER_SUMMARY}{pending.seq}: {label}. ",
                             above=pending.shown)


def _now() -> str:
    return utcnow().isoformat(timespec="microseconds")  # orders two asked in one second


def mention_for(conn: Connection, answerer: int, actor: int) -> int | None:
    """Whom the question's reply pings: nobody when the answer is awaited from whoever ran
    this command or pressed this button (he is looking at it), or from a player who turned
    mentions off. A battle imported waiting on a question pings as the question did."""
    if answerer == actor or mentions_off(conn, answerer):
        return None
    return answerer


def _answerer(tx: BattleTx, question: Question, asker: int) -> int:
    """The player of the unit the question names, when on record; the battle's GM (its
    starter) for a question the rules give the GM; else whoever asked."""
    if question.by == GM_CHOICE:
        return tx.require_battle().created_by
    if question.unit is None:
        return asker
    return next((row.added_by for row in tx.unit_rows()
                 if row.name_key == name_key(question.unit) and row.added_by is not None), asker)


# --- in a quick lookup ------------------------------------------------------------------------


QUESTIONS = QuestionRow.__table__
# A player's latest question in a channel, or the one a button names.
_LATEST = (select(QUESTIONS).where(QUESTIONS.c.channel_id == bindparam("channel"),
                                   QUESTIONS.c.user_id == bindparam("user"))
           .order_by(QUESTIONS.c.id.desc()).limit(1))
_ANYONES = (select(QUESTIONS.c.user_id)
            .where(QUESTIONS.c.channel_id == bindparam("channel"),
                   QUESTIONS.c.created_at >= bindparam("since"))
            .order_by(QUESTIONS.c.id.desc()).limit(1))
_NAMED = select(QUESTIONS).where(QUESTIONS.c.channel_id == bindparam("channel"),
                                 QUESTIONS.c.id == bindparam("question"))


def ask_in_lookup(conn: Connection, channel_id: int, actor: Actor, ruleset: str,
                  procedure: str, options: Mapping[str, Any], dice: str | None,
                  paused: Paused) -> Asked:
    """Keep a quick lookup's question for its player, in ``conn``'s transaction."""
    pending = Pending(paused.question, ruleset, procedure, dict(options), dice, paused.faces,
                      actor.user_id, actor.user_id, use=paused.use, asked_at=_now(),
                      shown=rolls_shown(paused.steps))
    # Questions nobody answered in a fortnight will not be: clear them as new ones come.
    conn.execute(delete(QUESTIONS).where(QUESTIONS.c.created_at < utcnow() - QUESTIONS_KEPT))
    forget_old_messages(conn, "q", QUESTIONS_KEPT)
    return _keep(conn, channel_id, actor.user_id, pending, paused)


def _keep(conn: Connection, channel_id: int, user_id: int, pending: Pending, paused: Paused,
          question_message: int | None = None) -> Asked:
    """Store a quick lookup's question; the reply that asks it, with its id for its buttons."""
    question_id = conn.execute(insert(QUESTIONS).returning(QUESTIONS.c.id),
                               {"channel_id": channel_id, "user_id": user_id,
                                "data": pending.to_dict()}).scalar_one()
    return Asked(pending, paused.steps, paused.dice_note, lookup_question(question_id),
                 question_message=question_message, effects=paused.effects,
                 above=pending.above)


def answer_in_lookup(conn: Connection, actor: Actor, question_id: int | None,
                     channel_id: int, given: str | int) -> Played | Asked:
    """Play a quick lookup on with its answer, in ``conn``'s transaction; ``question_id``
    None: the latest question this player has waiting in the channel (``given`` in words; a
    button gives the answer's place under the question it names)."""
    query = _LATEST if question_id is None else _NAMED
    # Locked (on PostgreSQL; SQLite writes one at a time): two presses answer once.
    row = conn.execute(query.with_for_update(), {"channel": channel_id, "user": actor.user_id,
                                                 "question": question_id}).first()
    if row is None and question_id is None:
        other = conn.execute(_ANYONES, {"channel": channel_id,
                                        "since": utcnow() - QUESTIONS_KEPT}).first()
        if other is not None:  # someone else's quick lookup: his own to answer
            raise NotWaiting(f"The question waiting here is {refused_to(other.user_id)}'s quick "
                             "lookup: only the player who ran it answers it.",
                             hint="Run the lookup yourself to be asked.")
    if row is None and question_id is None:
        battle = active_battle(conn, channel_id)
        if battle is not None:  # the player means the battle's question
            raise nothing_waiting(conn, battle.id)
        raise NotWaiting(NOTHING_ASKED, hint="Run the command to be asked.")
    if row is None:
        raise NotWaiting("That question has already been answered.",
                          hint="Run the command again to be asked anew.")
    pending = Pending.from_dict(row.data)
    check_answerer(actor, pending, is_gm=False)
    answer = pending.choose(given)
    options = pending.answered(answer)
    conn.execute(delete(QUESTIONS).where(QUESTIONS.c.id == row.id))
    asked_in = take_message(conn, lookup_question(row.id), channel_id)
    try:
        return replace(quick_lookup(pending.ruleset, pending.procedure, options, pending.dice,
                                    replay=pending.faces, before=pending.use),
                       question_message=asked_in, above=pending.above)
    except Paused as paused:
        follow = Pending(paused.question, pending.ruleset, pending.procedure, options,
                         pending.dice, paused.faces, pending.asked_by, pending.answerer,
                         use=paused.use, asked_at=_now(), shown=rolls_shown(paused.steps),
                         above=pending.shown)
        return _keep(conn, channel_id, row.user_id, follow, paused, asked_in)


def waiting_question(conn: Connection, channel_id: int, user_id: int) -> Pending | None:
    """The question waiting here for this player: the battle's when it is theirs to answer,
    unless their own quick-lookup question (one run with `lookup:true` in a battle channel)
    was asked since; else their latest quick-lookup question; else the battle's (a GM may
    answer for an absent player)."""
    battle = active_battle(conn, channel_id)
    in_battle = pending_of(battle) if battle is not None else None
    row = conn.execute(_LATEST, {"channel": channel_id, "user": user_id}).first()
    lookup = Pending.from_dict(row.data) if row else None
    if in_battle is not None and in_battle.answerer == user_id and not (
            lookup is not None and (lookup.asked_at or "") > (in_battle.asked_at or "")):
        return in_battle
    return lookup or in_battle
