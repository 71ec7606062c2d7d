"""A rule set's words are kept under its key: a new rule set may use a word another already
uses (an effect kind, a field's phrase, a reason for leaving, a kind of engagement) without
coordinating with it, and each reads its own."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from rules.core.defaults import RosterWords, apply_effects
from rules.core.effects import effect_words, loss_measure
from rules.core.engagements import Engagement, EngagementWords, declare_engagement_words
from rules.core.fields import Field, FieldSet
from rules.core.records import Effect
from rules.core.registry import BattleRules, HelpTopic, RuleSet
from rules.core.roster import Change, Phrase, Wording, declare_wording, describe_changes
from rules.registry import RULESETS

WORDS = RosterWords(FieldSet((Field("casualties", int, "men down", minimum=0),)),
                    lambda name, values, where: name)
KEY = "borrowed-words-test"


@pytest.fixture
def borrower() -> Iterator[RuleSet]:
    """A rule set made as a rule set's module makes its entry, with words the built-in rule
    sets use: making it raises nothing. Afterwards its battle words are declared empty again,
    so that changes read without their rule set (other tests) read as before."""
    yield RuleSet(
        key=KEY, title="Borrowed words", procedures={}, help=HelpTopic(()),
        effects={"casualties": "loses {amount} men", "routed": "runs for it"},
        losses={"casualties": "men"},
        battle=BattleRules(
            phases=("melee",), unit_fields=WORDS.fields, read_attributes=WORDS.read,
            check_unit=WORDS.check, prepare=lambda *_: None,  # type: ignore[arg-type]
            apply_effects=apply_effects, strength_label="men",
            phrases={"casualties": Phrase("is down {value} men")},
            gone_reasons={"broken": "scatters"},
            engagements={"charge": EngagementWords(None, "is sounded", "is over")}))
    declare_wording(KEY, Wording())
    declare_engagement_words(KEY, {})


def effect(ruleset: str, kind: str, amount: int | None = None) -> Effect:
    return Effect(kind, "Rangers", amount, ruleset=ruleset)


def test_an_effect_kind_another_rule_set_uses_reads_in_each_its_own_words(borrower):
    assert effect_words(effect(KEY, "casualties", 3)) == "loses 3 men"
    assert effect_words(effect("le-baton", "casualties", 3)) == "takes 3 casualties"
    assert effect_words(effect(KEY, "routed")) == "runs for it"
    assert loss_measure(effect(KEY, "casualties", 3)) == (True, "men")
    assert loss_measure(effect("le-baton", "casualties", 3)) == (True, "figures")


def test_a_phrase_a_reason_and_an_engagement_another_uses_read_in_each_its_own_words(
        borrower):
    assert "le-baton" in RULESETS and "labataille" in RULESETS
    changes = [Change("Rangers", "unit", "casualties", 0, 3),
               Change("Rangers", "unit", "status", "active", "gone"),
               Change("Rangers", "unit", "gone_reason", None, "broken")]
    mine = borrower.battle.wording  # type: ignore[union-attr]
    assert describe_changes(changes, mine) == ["Rangers is down 3 men and scatters"]
    theirs = RULESETS["le-baton"].battle.wording  # type: ignore[union-attr]
    assert describe_changes(changes[:1], theirs) == ["Rangers has 3 casualties in all"]
    charge = Engagement("charge", (("Hussars",), ("2nd Foot",)))
    for ruleset, begins in ((borrower, "Charge: Hussars against 2nd Foot is sounded"),
                            (RULESETS["labataille"], "2nd Foot's attempt against Hussars' "
                             "charge is recorded (one attempt per charge)")):
        words = ruleset.battle.engagements  # type: ignore[union-attr]
        began = Change(charge.label_in(words), "engagement", "charge", None, "active")
        assert describe_changes([began], ruleset.battle.wording) == [begins]  # type: ignore
