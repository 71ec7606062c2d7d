"""The search for every result is bounded: in time, in results, and in walking a tree too big."""

from __future__ import annotations

import time

from rules.core.decisions import Answer, Answers, Question
from rules.core.dice import ReplaySource
from rules.core.odds import estimated_leaves
from rules.core.outcomes import enumerate_outcomes
from rules.core.prepared import label_of
from rules.core.records import EffectKind, ResolutionBuilder, Severity
from rules.fire_at_will.melee import resolve_melee
from rules.fire_at_will.units import Arm, MeleeUnit, Unit


def melee(side: int):
    att = [MeleeUnit(Unit(f"A{i}", Arm.INFANTRY)) for i in range(side)]
    dfn = [MeleeUnit(Unit(f"D{i}", Arm.INFANTRY)) for i in range(side)]
    return lambda dice: resolve_melee(att, dfn, dice)


def test_a_search_past_its_deadline_stops_and_says_so():
    listing = enumerate_outcomes(melee(2), deadline=time.monotonic() - 1)
    assert listing.cut_short
    assert listing.outcomes == ()


def test_a_search_stops_at_the_cap_on_results():
    listing = enumerate_outcomes(melee(2), max_outcomes=3)
    assert listing.cut_short and len(listing.outcomes) == 3
    for outcome in listing.outcomes:
        assert label_of(melee(2)(ReplaySource(outcome.path))) == outcome.label


def test_a_search_within_its_bounds_is_not_cut_short():
    listing = enumerate_outcomes(melee(1), deadline=time.monotonic() + 60)
    assert not listing.cut_short
    assert len(listing.outcomes) == 5
    assert listing.find(listing.outcomes[0].key) is listing.outcomes[0]
    assert listing.find(listing.outcomes[0].label) is listing.outcomes[0]
    assert listing.find("no such result") is None


def test_the_estimate_tells_a_small_tree_from_one_too_big_to_walk():
    assert estimated_leaves(melee(1), 20_000) == 36  # one d6 a side: 36 leaves
    assert estimated_leaves(melee(8), 20_000) > 6 ** 10  # sixteen dice, one by one


def test_a_search_with_exactly_as_many_results_as_its_cap_is_not_cut_short():
    everything = enumerate_outcomes(melee(1), max_outcomes=5)
    assert len(everything.outcomes) == 5 and not everything.cut_short
    capped = enumerate_outcomes(melee(1), max_outcomes=4)
    assert len(capped.outcomes) == 4 and capped.cut_short


def test_too_many_answers_to_walk_fall_back_to_random_rolls():
    """Thirteen questions are 8,192 answer paths, more than a walk takes: the list is made
    from random rolls and answers instead of refusing."""
    questions = [Question(f"q{i}", f"Question {i}?", (Answer("yes", "Yes"), Answer("no", "No")))
                 for i in range(13)]

    def asking(dice, answers=None):
        out = ResolutionBuilder("test", "asking", answers=answers or Answers())
        said = [out.ask(q).key for q in questions]
        out.effect(EffectKind.DAMAGE, "T", said.count("yes"), measure="blocks")
        return out.build("asked", Severity.NONE)

    assert estimated_leaves(asking, 20_000) == 2 ** 13  # small enough to try walking
    listing = enumerate_outcomes(asking, samples=300)
    assert listing.outcomes and not listing.cut_short
    for outcome in listing.outcomes:
        assert outcome.answers is not None and len(outcome.answers) == 13


def test_a_walk_past_the_cap_keeps_the_plainest_results_not_the_first_walked():
    """The walk meets results depth first; past the cap it gives way to random rolls, which
    meet the likely ones, and the cap keeps the plainest of all found."""
    everything = enumerate_outcomes(melee(2))
    capped = enumerate_outcomes(melee(2), max_outcomes=3)
    assert len(everything.outcomes) > 3 and capped.cut_short
    assert [o.label for o in capped.outcomes] == [o.label for o in everything.outcomes[:3]]


def test_random_rolls_past_the_cap_keep_the_plainest_of_all_they_find():
    """A tree too big to walk is listed from random rolls: reaching the cap does not stop
    them, and the cap keeps the plainest results of all the rolls found, not the first."""
    everything = enumerate_outcomes(melee(2), max_leaves=0, samples=300)
    capped = enumerate_outcomes(melee(2), max_leaves=0, samples=300, max_outcomes=3)
    assert len(everything.outcomes) > 3 and capped.cut_short
    assert capped.outcomes == everything.outcomes[:3]
