"""The open effects vocabulary: core kinds every rule set composes, and kinds of their own."""

from __future__ import annotations

import pickle

import pytest

import rules.fire_at_will  # noqa: F401  (declares its own kinds: lose_sp, shaken)
from rules.core.effects import is_registered, register_effects
from rules.core.records import Effect, _effect_dict, effect_kinds
from rules.core.records import EffectKind as E
from rules.core.registry import HelpTopic, RuleSet


@pytest.mark.parametrize(("effect", "text"), [
    (Effect(E.DAMAGE, "Black Watch", 2, measure="blocks"), "Black Watch loses 2 blocks"),
    (Effect(E.MOVED, "Black Watch", 2, value="retreats", measure="hexes",
            direction="toward its own lines"),
     "Black Watch retreats 2 hexes toward its own lines"),
    (Effect(E.MOVED, "Hussars", 3, direction="back"), 'Hussars moves 3" back'),
    (Effect(E.MOVED, "52nd", value="retreats before assault"), "52nd retreats before assault"),
    (Effect(E.MARKER_SET, "4e Léger", value="disordered"), "4e Léger is disordered"),
    (Effect(E.MARKER_CLEARED, "4e Léger", value="disordered"),
     "4e Léger is no longer disordered"),
    (Effect(E.REMOVED, "Battery"), "Battery is removed from the game"),
    (Effect(E.LEADER_CASUALTY, "Wolfe", value="killed"), "Wolfe is hit: killed"),
    (Effect(E.ENGAGEMENT_STARTED, "52nd", value="firefight"), "52nd is engaged in a firefight"),
])
def test_the_core_vocabulary_reads_in_any_unit_of_measure(effect, text):
    assert effect.describe() == text


def test_a_rule_set_declares_its_own_kinds_when_its_entry_is_made():
    assert not is_registered("takes_ground", "test-set")
    RuleSet("test-set", "Test set", {}, HelpTopic(()),
            effects={"takes_ground": "takes ground into the hex"})
    assert Effect("takes_ground", "Black Watch", ruleset="test-set").describe() == \
        "Black Watch takes ground into the hex"
    assert not is_registered("takes_ground", "other-set")  # its own, under its key


def test_a_procedure_said_to_decide_no_fight_must_be_one_of_the_rule_sets():
    with pytest.raises(ValueError, match=r"test-set: `no_winner` names no procedure of it: "
                                         r"\['chrage'\]"):
        RuleSet("test-set", "Test set", {}, HelpTopic(()), no_winner=frozenset({"chrage"}))


def test_two_rule_sets_may_give_one_kind_each_its_own_text():
    register_effects({"shaken": "wavers"}, "test-wavering")
    assert Effect("shaken", "Foot", ruleset="test-wavering").describe() == "Foot wavers"
    assert Effect("shaken", "Foot", ruleset="fire-at-will").describe() == "Foot is shaken"
    assert Effect("shaken", "Foot", ruleset="fire-at-will") == Effect("shaken", "Foot")


def test_a_core_kind_reads_one_way_only():
    with pytest.raises(ValueError, match="`damage` is a core kind"):
        register_effects({"damage": "bleeds"}, "test-bleeding")


def test_an_undeclared_kind_says_where_to_declare_it():
    with pytest.raises(KeyError, match="RuleSet.effects"):
        Effect("vanishes", "Ghosts", ruleset="fire-at-will").describe()


def test_the_json_record_carries_measure_and_direction_only_when_given():
    moved = _effect_dict(Effect(E.MOVED, "Hussars", 2, measure="hexes", direction="back"))
    assert (moved["measure"], moved["direction"]) == ("hexes", "back")
    assert "measure" not in _effect_dict(Effect("shaken", "Hussars", ruleset="fire-at-will"))


def test_one_of_a_counted_measure_reads_singular():
    from rules.core.records import Effect, EffectKind
    assert Effect(EffectKind.DAMAGE, "Foot", amount=1, measure="increments").describe() == \
        "Foot loses 1 increment"
    assert Effect(EffectKind.DAMAGE, "Foot", amount=2, measure="increments").describe() == \
        "Foot loses 2 increments"
    assert Effect(EffectKind.DAMAGE, "Foot", amount=1, measure="SP").describe() == "Foot loses 1 SP"
    assert Effect(EffectKind.DAMAGE, "Foot", amount=1, measure="casualties").describe() == \
        "Foot loses 1 casualty"


def test_an_effect_says_what_its_fields_say_and_its_copies_say_their_own():
    from dataclasses import replace

    effect = Effect("lose_sp", "Artois", 1, ruleset="fire-at-will")
    assert effect.describe() == effect.describe() == "Artois loses 1 SP"
    assert replace(effect, amount=2).describe() == "Artois loses 2 SP"
    # saying it keeps nothing
    assert vars(effect) == vars(Effect("lose_sp", "Artois", 1, ruleset="fire-at-will"))
    assert hash(effect) == hash(Effect("lose_sp", "Artois", 1))


def test_a_rule_set_s_own_kinds_travel_to_a_worker_process_and_back():
    """Odds and override listings are worked out in another process: an effect of a rule
    set's own kind goes there and back by pickle, and still reads as that kind."""
    kinds = effect_kinds(BROKEN="broken")
    effect = Effect(kinds.BROKEN, "Rangers", ruleset="skirmish")
    back = pickle.loads(pickle.dumps(effect))
    assert back == effect and back.kind == kinds.BROKEN and back.ruleset == "skirmish"
    assert pickle.loads(pickle.dumps(kinds.DAMAGE)) == E.DAMAGE
