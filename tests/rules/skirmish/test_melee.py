"""The example rule set, sentence by sentence of its five, with scripted dice; its JSON, its
battle roster and its odds, all from what its entry declares."""

from __future__ import annotations

import pytest

from rules.core import dice, odds
from rules.core.decisions import Undecided
from rules.core.dice import D6_FACES, D6Pool, ScriptedSource
from rules.core.errors import InvalidInput
from rules.core.odds import odds_for_request
from rules.core.roster import Roster, RosterUnit, describe_changes
from rules.registry import RULESETS, resolve
from rules.skirmish import RULESET_ENTRY, prepare

RANGERS, VOLTIGEURS = "Rangers: stands=4 morale=7", "Voltigeurs: stands=3 morale=6"
ROSTER = Roster((RosterUnit("Rangers", "British", {"morale": 7}, 4),
                 RosterUnit("Voltigeurs", "French", {"morale": 6}, 3)))


def play(dice: str, choices: str | None = None, roster: Roster | None = None, **sides):
    options = {"attacker": RANGERS, "defender": VOLTIGEURS, "choices": choices, **sides}
    source = ScriptedSource.from_text(dice)
    result = prepare("melee", options, roster)(source)
    source.finish()
    return result


def effects(result) -> list[str]:
    return [e.describe() for e in result.effects]


def test_a_die_a_stand_each_four_up_hits_and_each_hit_removes_a_stand():
    # Rangers 5 4 1 2: two hits; Voltigeurs 6 3 2: one hit.
    result = play("5 4 1 2 6 3 2 4 5", "test")
    assert [s.outcome for s in result.steps] == [
        "2 hits on Voltigeurs", "1 hit on Rangers", "Voltigeurs breaks"]
    assert effects(result)[:2] == ["Voltigeurs loses 2 stands", "Rangers loses 1 stand"]


def test_equal_hits_and_nobody_loses():
    result = play("4 1 1 1 5 1 1")
    assert result.headline == "Equal hits (1–1): nobody loses the melee"
    assert effects(result) == ["Voltigeurs loses 1 stand", "Rangers loses 1 stand"]


def test_the_loser_is_asked_whether_it_falls_back():
    with pytest.raises(Undecided) as asked:
        play("5 4 1 2 6 3 2")
    question = asked.value.question
    assert (question.key, question.unit) == ("fall_back", "Voltigeurs")
    assert [a.key for a in question.answers] == ["fall-back", "test"]
    fell_back = play("5 4 1 2 6 3 2", "fall-back")
    assert fell_back.headline == "Voltigeurs loses the melee 2–1 and falls back"
    assert effects(fell_back)[-1] == 'Voltigeurs falls back 3"'


def test_the_break_test_holds_on_its_morale_or_less_and_breaks_above():
    assert play("5 4 1 2 6 3 2 3 3", "test").headline == \
        "Voltigeurs loses the melee 2–1 and holds"
    broken = play("5 4 1 2 6 3 2 3 4", "test")
    assert broken.headline == "Voltigeurs loses the melee 2–1 and breaks"
    assert broken.steps[-1].rolls[0].total == 7


def test_json_reads_as_the_command_does():
    result = resolve({"ruleset": "skirmish", "procedure": "melee", "attacker": RANGERS,
                      "defender": VOLTIGEURS, "answers": {"fall_back": "test"},
                      "dice": "5 4 1 2 6 3 2 4 5"})
    assert result.to_dict()["effects"][-1]["text"] == "Voltigeurs breaks and leaves the battle"
    with pytest.raises(InvalidInput, match="give Rangers' stands and morale"):
        resolve({"ruleset": "skirmish", "procedure": "melee", "attacker": "Rangers: morale=7",
                 "defender": VOLTIGEURS, "dice": "1"})


def test_in_a_battle_stands_are_the_strength_and_a_broken_unit_leaves():
    result = play("5 4 1 2 6 3 2 4 5", "test", ROSTER, attacker="Rangers",
                  defender="Voltigeurs")
    after, changes = RULESET_ENTRY.battle.apply_effects(result.effects, ROSTER)
    assert after.unit("Voltigeurs", allow_gone=True).gone_reason == "broken"
    assert describe_changes(changes, RULESET_ENTRY.battle.wording) == [
        "Rangers loses 1 stand (now 3)",
        "Voltigeurs loses 2 stands (now 1) and breaks and leaves the battle"]


def test_the_odds_count_expected_losses_in_stands():
    request = {"ruleset": "skirmish", "procedure": "melee", "attacker": RANGERS,
               "defender": VOLTIGEURS, "answers": {"fall_back": "fall-back"}}
    (branch,) = odds_for_request(RULESETS, request).branches
    assert {(loss.unit, loss.measure, loss.expected) for loss in branch.losses} == {
        ("Rangers", "stands", 3 / 2), ("Voltigeurs", "stands", 2)}


def test_reading_the_pools_only_as_hits_changes_no_fraction(monkeypatch):
    # Smaller than the other tests' units: the plain walk rolls every face of every die.
    request = {"ruleset": "skirmish", "procedure": "melee",
               "attacker": "Rangers: stands=2 morale=7",
               "defender": "Voltigeurs: stands=2 morale=6"}

    def fractions(found):
        return {b.path: ({o.label: o.probability for o in b.outcomes},
                         {(loss.unit, loss.expected) for loss in b.losses})
                for b in found.branches}

    grouped = odds_for_request(RULESETS, request)
    with monkeypatch.context() as plain_walk:
        plain_walk.setattr(D6Pool, "pool_outcomes",
                           lambda self: dice.pool_outcomes(D6_FACES, self.count))
        plain_walk.setattr(odds, "roll_groups", lambda prepared: None)
        plain = odds_for_request(RULESETS, request, max_leaves=50_000)
    assert fractions(grouped) == fractions(plain)
    assert grouped.leaves < plain.leaves
