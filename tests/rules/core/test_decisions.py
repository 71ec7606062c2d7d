"""Questions in the middle of a procedure: scripted answers, and walking every answer."""

from __future__ import annotations

from typing import NoReturn, get_type_hints

import pytest

from rules.core.decisions import (
    ANSWERED,
    CELLS,
    NOT_THEIRS,
    Answer,
    Answers,
    Question,
    Undecided,
    given_answers,
    play_setting_aside,
    with_answer,
)
from rules.core.defaults import asking
from rules.core.dice import D6, DiceSource, ScriptedSource
from rules.core.errors import InvalidInput
from rules.core.outcomes import enumerate_outcomes
from rules.core.records import EffectKind, Resolution, ResolutionBuilder, Severity
from rules.fire_at_will.commands import prepare

QUESTION = Question("counter_charge", "Does the 42nd counter-charge?",
                    (Answer("Hussars", "Counter-charge Hussars"), Answer("stand", "Stand")),
                    unit="42nd", by="defender")


def test_answers_by_question_or_in_order():
    answers = Answers.read("counter-charge=hussars; stand")
    assert answers.decide(QUESTION).key == "Hussars"  # by its key, case aside
    assert Answers.read("Stand").decide(QUESTION).key == "stand"
    assert Answers.read({"counter_charge": "Counter-charge Hussars"}).decide(QUESTION).key \
        == "Hussars"  # a button's label reads too
    assert Answers.read(["stand"]).decide(QUESTION).key == "stand"


def test_a_near_miss_of_the_questions_name_is_refused_only_in_the_command_itself():
    given = given_answers({"choices": "counter_charg=stand"})
    with pytest.raises(InvalidInput, match="no question here is called `counter_charg`") as no:
        given.decide(QUESTION)
    assert no.value.hint == "Write `counter_charge=stand`."
    # Far from the name (another question's, say): left for a question further on.
    with pytest.raises(Undecided):
        given_answers({"choices": "bonus_counter_charge_now=stand"}).decide(QUESTION)
    # Tricorne's battle-back question after a bonus melee, given ahead while the bonus
    # melee's own flag question is asked: a word apart, not a slip.
    flag = Question("bonus_ignore_flag", "Will A ignore the flag?",
                    (Answer("take", "Take the flag"), Answer("ignore", "Ignore it")))
    with pytest.raises(Undecided):
        given_answers({"choices": "bonus_back_ignore_flag=take"}).decide(flag)
    # Played on after an answer, the command was accepted long ago: the question is asked.
    with pytest.raises(Undecided):
        given_answers({"choices": "counter_charg=stand", ANSWERED: ""}).decide(QUESTION)


def test_no_answer_stops_the_procedure_with_the_question():
    with pytest.raises(Undecided) as asked:
        Answers.read(None).decide(QUESTION)
    assert asked.value.question is QUESTION


def test_a_wrong_answer_names_the_allowed_ones():
    with pytest.raises(InvalidInput, match="not an answer") as refused:
        Answers.read("husars").decide(QUESTION)
    assert "Did you mean `Hussars`" in refused.value.hint


def test_a_wrong_answer_near_a_buttons_label_gets_did_you_mean_its_key():
    square = Question("form_square", "Will 45e form square?",
                      (Answer("square", "Form square"), Answer("stay", "Stay as it is")))
    with pytest.raises(InvalidInput) as refused:
        Answers.read("Form sqaure").decide(square)
    assert refused.value.hint == ("Answer “Form square” (`square`) or “Stay as it is” (`stay`). "
                                  "Did you mean `square`?")


@pytest.mark.parametrize("bad", [3, ["", "stand"], {"counter_charge": None}])
def test_answers_of_the_wrong_shape_are_refused(bad):
    with pytest.raises(InvalidInput):
        Answers.read(bad, "answers")


def test_a_question_survives_storage():
    assert Question.from_dict(QUESTION.to_dict()) == QUESTION


TYPED = Question("target", "Which unit does the 42nd attack?", (Answer("none", "None"),),
                 typed="the unit it attacks, as `Name: words`")


def test_a_question_may_also_take_a_typed_answer():
    assert Answers.read("target=Hussars: cav blocks=2").decide(TYPED) == Answer(
        "Hussars: cav blocks=2", "Hussars: cav blocks=2")
    assert Answers.read(["None"]).decide(TYPED) is TYPED.answers[0]  # a listed one first
    assert Question.from_dict(TYPED.to_dict()) == TYPED
    assert "typed" not in QUESTION.to_dict()  # said only where a question takes one
    with pytest.raises(InvalidInput, match="`;`"):
        TYPED.answer("Hussars: cav; Rangers: inf")
    with pytest.raises(InvalidInput, match="not an answer"):
        QUESTION.answer("Hussars: cav")


def test_an_answer_is_added_to_the_choices_for_replay():
    assert with_answer(None, QUESTION, QUESTION.answers[0]) == "counter_charge=Hussars"
    assert with_answer("a=b", QUESTION, QUESTION.answers[1]) == "a=b; counter_charge=stand"


def test_the_walk_of_outcomes_branches_on_every_answer():
    charge = prepare("charge", {"target": "Hussars", "target_type": "cavalry", "morale": 4,
                                "chargers": "Rangers: inf open"})
    listing = enumerate_outcomes(charge)
    labels = {o.label: o for o in listing.outcomes}
    counter = labels["Hussars counter-charges Rangers, meeting it halfway"]
    assert counter.answers == ("Rangers",)
    # Cavalry charged only by open-order foot: the die −4; a 1, 2 or 3 is below zero and asks.
    assert counter.path in {((1,),), ((2,),), ((3,),)}
    stands = labels["Hussars stands: melee follows (no effect on units)"]
    assert stands.answers in {None, ("stand",)}
    assert len(labels) == 2


def test_another_players_question_is_asked_whatever_the_mover_gave_ahead():
    theirs = Question("counter_charge", "Does Hussars counter-charge?", (Answer("stand", "S"),),
                      unit="Hussars", by="defender")
    mine = Question("take_ground", "Take ground?", (Answer("stay", "Stay"),), unit="Rangers")
    gms = Question("chart", "Chart?", (Answer("a", "A"),), by="gm")
    limited = {NOT_THEIRS: {"units": ["hussars"], "gm": True}}
    out = ResolutionBuilder("r", "p", answers=given_answers(
        {"choices": "counter_charge=stand; take_ground=stay", **limited}))
    assert out.ask(mine).key == "stay"
    with pytest.raises(Undecided) as stop:
        out.ask(theirs)
    assert stop.value.question == theirs
    assert out.steps[-1].outcome == ("The answer given ahead, stand, is not the mover's to give: "
                                     "“Does Hussars counter-charge?” is asked of its player.")
    # Answers in order pair with the questions in order: the one passed over spends its own.
    in_order = given_answers({"choices": "stand; stay", **limited})
    with pytest.raises(Undecided) as passed:
        in_order.decide(theirs)
    assert passed.value.passed_over == "stand"
    assert in_order.decide(mine).key == "stay"
    # Played on once its player answered it, the pairs are the same.
    again = given_answers({"choices": "stand; stay", ANSWERED: "counter_charge=stand",
                           **limited})
    assert [again.decide(theirs).key, again.decide(mine).key] == ["stand", "stay"]
    assert again.unused() == []
    with pytest.raises(Undecided):
        given_answers({"choices": "a", **limited}).decide(gms)
    # Asked and answered by its player, it plays on with that answer.
    answered = given_answers({"choices": "counter_charge=stand", ANSWERED: "counter_charge=stand",
                              **limited})
    assert answered.decide(theirs).key == "stand"
    # Without the option (a quick lookup, a GM's move) every answer given ahead is taken.
    assert given_answers({"choices": "counter_charge=stand"}).decide(theirs).key == "stand"


def test_a_resolution_names_the_answers_given_ahead_no_question_took():
    out = ResolutionBuilder("r", "p", answers=given_answers({"choices": "chart=DR2; second=b"}))
    out.ask(Question("second", "Second?", (Answer("b", "B"),)))
    assert out.build("done", Severity.NONE).unused == ("chart=DR2",)


def test_an_answer_may_be_the_start_of_one_buttons_label():
    question = Question("counter_charge", "Does Hussars counter-charge?",
                        (Answer("Ottawa", "Counter-charge Ottawa"), Answer("stand", "Stand")))
    assert question.answer("counter").key == "Ottawa"
    assert question.answer("Sta").key == "stand"
    two = Question("counter_charge", "Does Hussars counter-charge?",
                   (Answer("Ottawa", "Counter-charge Ottawa"),
                    Answer("Rangers", "Counter-charge Rangers"), Answer("stand", "Stand")))
    with pytest.raises(InvalidInput) as several:
        two.answer("counter")
    # Refused with the answers it starts, and no guess at one of them.
    assert str(several.value) == (
        "`counter` is the start of several answers to “Does Hussars counter-charge?”. Answer "
        "“Counter-charge Ottawa” (`Ottawa`) or “Counter-charge Rangers” (`Rangers`).")
    with pytest.raises(InvalidInput, match="`st` is not an answer"):
        question.answer("st")  # too short to stand for a word
    # A question that also takes a typed name reads a button's start first.
    bonus = Question("bonus_melee", "Will Black Watch make a bonus melee?",
                     (Answer("Fusiliers-Reine", "Attack Fusiliers-Reine"),
                      Answer("none", "No bonus melee")), typed="the unit it attacks")
    assert bonus.answer("No bonus").key == "none"
    # A name typed is that name, not the start of another unit's (a button's key).
    assert bonus.answer("Fusiliers") == Answer("Fusiliers", "Fusiliers")


def test_a_key_that_starts_several_labels_is_taken_as_typed_and_its_start_is_not():
    """La Bataille's Huzzah on several stacks: `huzzah` is the key of "Huzzah on all", and
    the start of every Huzzah's label."""
    huzzah = Question("huzzah", "Will 52nd Huzzah?", (
        Answer("huzzah", "Huzzah on all"), Answer("only 1/45e", "Huzzah on 1/45e only"),
        Answer("only 2/45e", "Huzzah on 2/45e only"), Answer("no", "No Huzzah")))
    assert huzzah.answer("huzzah").label == "Huzzah on all"
    assert huzzah.answer("Huzzah on 2/45e only").key == "only 2/45e"
    with pytest.raises(InvalidInput) as several:
        huzzah.answer("Huzzah on")
    assert several.value.hint == ("Answer “Huzzah on all” (`huzzah`), “Huzzah on 1/45e only” "
                                  "(`only 1/45e`) or “Huzzah on 2/45e only” (`only 2/45e`).")


def chart(row: str) -> Question:
    return Question("chart_result", f"Read row {row}.", (Answer("DR1", "DR1"), Answer("AS", "AS")),
                    cell=("Assault et Mêlée", "1:2", row))


def test_a_chart_answer_given_ahead_belongs_to_the_cell_it_was_read_at():
    first = given_answers({"choices": "DR1"})
    assert first.decide(chart("11–16")).key == "DR1"
    assert first.cells == {"chart_result": [["Assault et Mêlée", "1:2", "11–16"]]}
    # Played again with those cells kept: the same cell takes it, another asks.
    kept = {"choices": "DR1", CELLS: first.cells, ANSWERED: ""}
    assert given_answers(kept).decide(chart("11–16")).key == "DR1"
    with pytest.raises(Undecided) as asked:
        given_answers(kept).decide(chart("61–66"))
    assert asked.value.read_elsewhere == "DR1"
    named = {"choices": "chart_result=DR1", CELLS: first.cells, ANSWERED: ""}
    with pytest.raises(Undecided):
        given_answers(named).decide(chart("61–66"))
    # The player's answer to the question asked there is taken, and a walk's answer too.
    assert given_answers({**kept, ANSWERED: "chart_result=AS"}).decide(chart("61–66")).key \
        == "AS"
    walked = given_answers(kept, Answers(in_order=["AS"]))
    assert walked.decide(chart("61–66")).key == "AS"


def test_a_blank_answer_is_refused_as_none_given():
    # Echoed in a code span, blank text would show as two stray backticks.
    for blank in ("", "   "):
        with pytest.raises(InvalidInput) as refused:
            QUESTION.answer(blank)
        assert str(refused.value) == ("No answer given to “Does the 42nd counter-charge?”. "
                                      "Answer “Counter-charge Hussars” (`Hussars`) or "
                                      "“Stand”.")


def chase(rear: bool):
    """A 1 or 2 drives the foe off (it routs); then whom to chase: the foe if it is still
    there, the rear guard (with ``rear``), else nobody. The foe named ahead and driven off by
    the dice is out of reach: the dice's doing, not the player's words."""

    def play(dice: DiceSource, answers: Answers) -> Resolution:
        out = ResolutionBuilder("test", "chase", answers=answers)
        (first,) = dice.roll(D6(), "first")
        standing = first > 2  # type: ignore[operator]
        if not standing:
            out.effect(EffectKind.REMOVED, "Foe")
        whom = Question("chase", "Chase whom?", (
            *((Answer("Foe", "Chase Foe"),) if standing else ()),
            *((Answer("Rear", "Chase Rear"),) if rear else ()), Answer("none", "Nobody")),
            unit="Horse", typed="a unit's name")
        chosen = out.ask(whom)
        if chosen.key == "none":
            return out.build("no chase", Severity.MINOR)
        if chosen.key not in {a.key for a in whom.answers}:
            raise out.answers.out_of_reach(whom, InvalidInput(f"{chosen.key} has left the "
                                                              "field."))
        (second,) = dice.roll(D6(), "chase")
        return out.build(f"chased {chosen.key} ({second})", Severity.MINOR)

    return play


@pytest.mark.parametrize("given", ["chase=Foe", "Foe"])
def test_played_an_answer_the_dice_put_out_of_reach_is_set_aside_and_its_question_asked(
        given):
    # The roll stands: played again on the same dice (one scripted die, none to spare), the
    # answer given ahead set aside and said beside the question, which is asked.
    with pytest.raises(Undecided) as asked:
        play_setting_aside(asking({"choices": given}, chase(rear=True)), ScriptedSource([1]))
    assert [a.key for a in asked.value.question.answers] == ["Rear", "none"]
    assert asked.value.set_aside == "Foe"
    assert [(s.title, s.outcome) for s in asked.value.steps] == [
        ("Choices given ahead", "The answer given ahead, Foe, no longer applies: Foe has "
                                "left the field. “Chase whom?” is asked instead.")]
    assert [e.kind for e in asked.value.effects] == [EffectKind.REMOVED]
    # Answered, it plays on from the same die.
    answered = asking({"choices": given, ANSWERED: "chase=Rear"}, chase(rear=True))
    assert play_setting_aside(answered, ScriptedSource([1, 4])).headline == "chased Rear (4)"
    # Where the dice leave it in reach, it is taken as given.
    played = play_setting_aside(asking({"choices": given}, chase(rear=True)),
                                ScriptedSource([3, 5]))
    assert played.headline == "chased Foe (5)"


def test_played_with_one_answer_left_the_procedure_goes_on_with_it():
    played = play_setting_aside(asking({"choices": "chase=Foe"}, chase(rear=False)),
                                ScriptedSource([2]))
    assert played.headline == "no chase"
    assert [e.kind for e in played.effects] == [EffectKind.REMOVED]
    assert [s.outcome for s in played.steps] == [
        "The answer given ahead, Foe, no longer applies: Foe has left the field. "
        "“Nobody” is the only answer left to “Chase whom?”."]


def test_an_answer_out_of_reach_that_a_player_gave_when_asked_is_still_refused():
    answered = asking({"choices": "", ANSWERED: "chase=Foe"}, chase(rear=False))
    with pytest.raises(InvalidInput, match="Foe has left the field"):
        play_setting_aside(answered, ScriptedSource([1]))


def test_the_refusal_of_the_start_of_several_answers_is_typed_as_never_returning():
    # Typed as giving an answer, it read as if one could come back from it.
    assert get_type_hints(Question._one_of)["return"] is NoReturn
