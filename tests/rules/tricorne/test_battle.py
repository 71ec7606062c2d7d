"""Tricorne in a battle: roster units as engine units, effects on the roster, Victory Banners
per side, a new turn, and the melee command's options read against a roster."""

from __future__ import annotations

import pytest

from rules.core.decisions import Undecided
from rules.core.errors import InvalidInput
from rules.core.records import Effect, EffectKind
from rules.core.roster import GONE, Roster, RosterGeneral, RosterUnit
from rules.tricorne import RULESET_ENTRY
from rules.tricorne.battle import (
    CHANGE_PHRASES,
    apply_effects,
    engine_unit,
    new_turn,
    read_roster_attributes,
    unit_words,
    victory_banners,
)
from rules.tricorne.commands import prepare
from rules.tricorne.effects import (
    BANNER,
    ELIMINATED,
    LEADER_ESCAPES,
    LEADER_JOINS,
    LEADER_KILLED,
    ROUTED_OFF,
    TAKES_GROUND,
)
from rules.tricorne.units import Terrain, UnitType

from .helpers import dice


def roster() -> Roster:
    return Roster(
        units=(
            RosterUnit("Black Watch", "British", {"type": "highland", "full": 4}, 3),
            RosterUnit("Royal Scots", "British", {"type": "regular"}),
            RosterUnit("Picardie", "French", {"type": "regular", "terrain": "forest"}, 2),
            RosterUnit("Hussars", "French", {"type": "battle-cavalry", "moved": True}),
        ),
        generals=(RosterGeneral("Murray", "British", unit="Black Watch"),
                  RosterGeneral("Montcalm", "French")),
    )


def test_a_roster_unit_is_an_engine_unit_with_its_blocks_leader_and_situation():
    unit = engine_unit(roster().units[0], roster(), {"cards": 1})
    assert (unit.kind, unit.blocks, unit.full, unit.leader, unit.cards, unit.side) == (
        UnitType.HIGHLAND, 3, 4, "Murray", 1, "British")
    untouched = engine_unit(roster().units[1], roster(), {})
    assert (untouched.blocks, untouched.full, untouched.leader) == (4, 4, None)
    assert engine_unit(roster().units[2], roster(), {}).terrain is Terrain.FOREST


def test_a_stored_unit_with_more_blocks_than_its_full_strength_is_refused_not_full():
    # Stored before its words and strength were checked together: not counted as a unit
    # at full strength (step 3's extra die) but refused, saying how to put it right.
    seven = RosterUnit("Barrell", "British", {"type": "regular"}, 7)
    with pytest.raises(InvalidInput) as refused:
        engine_unit(seven, Roster(units=(seven,)), {})
    assert str(refused.value) == ("Barrell has 7 blocks but 4 at full strength. Give 0 to 4 "
                                  "blocks, or `full=7`.")


def test_damage_removes_blocks_and_elimination_or_a_rout_takes_the_unit_off():
    effects = [Effect(EffectKind.DAMAGE, "Picardie", 1), Effect(ELIMINATED, "Royal Scots"),
               Effect(ROUTED_OFF, "Hussars"), Effect(BANNER, "Black Watch")]
    after, changes = apply_effects(effects, roster())
    by_name = {u.name: u for u in after.units}
    assert by_name["Picardie"].strength == 1
    assert (by_name["Royal Scots"].status, by_name["Royal Scots"].gone_reason) == (
        GONE, "eliminated")
    assert (by_name["Hussars"].status, by_name["Hussars"].gone_reason) == (GONE, "routed")
    assert by_name["Black Watch"] == roster().units[0]  # a banner changes no unit
    assert {c.who for c in changes} == {"Picardie", "Royal Scots", "Hussars"}


@pytest.mark.parametrize(("full", "left"), [(3, 2), (5, 4)])
def test_a_unit_added_without_blocks_loses_them_from_its_own_full_strength(full, left):
    fresh = RosterUnit("Fusiliers", "British", {"type": "regular", "full": full})
    after, _ = apply_effects([Effect(EffectKind.DAMAGE, "Fusiliers", 1)], Roster(units=(fresh,)))
    assert after.units[0].strength == left


def test_taking_ground_marks_the_unit_moved_and_a_new_turn_clears_it():
    moved = Effect(EffectKind.MOVED, "Royal Scots", 1, value=TAKES_GROUND)
    retreat = Effect(EffectKind.MOVED, "Picardie", 1, value="retreats")
    after, _ = apply_effects([moved, retreat], roster())
    assert after.units[1].attr("moved") is True
    assert after.units[2].attr("moved") is None  # a retreat is not the unit's movement
    turned, changes = new_turn(after)
    assert [u.attr("moved") for u in turned.units] == [None, False, None, False]
    assert changes == []  # a new turn, said as such: no "has not moved" of every unit


def test_taking_ground_puts_the_unit_on_the_vacated_hexs_terrain():
    into_wood = Effect(EffectKind.MOVED, "Royal Scots", 1, detail="forest", value=TAKES_GROUND)
    out_of_wood = Effect(EffectKind.MOVED, "Picardie", 1, detail="open", value=TAKES_GROUND)
    unknown = Effect(EffectKind.MOVED, "Black Watch", 1, value=TAKES_GROUND)
    after, changes = apply_effects([into_wood, out_of_wood, unknown], roster())
    assert [u.attr("terrain") for u in after.units[:3]] == [None, "forest", None]
    assert "terrain" not in after.units[2].attributes
    assert [(c.who, c.field, c.before, c.after) for c in changes if c.field == "terrain"] == [
        ("Royal Scots", "terrain", None, "forest"), ("Picardie", "terrain", "forest", None)]


def test_a_unit_that_retreats_or_retires_is_taken_to_stand_in_the_open():
    """Its new hex is the table's: the roster does not keep the forest it left."""
    for how in ("retreats", "retires and rallies"):
        moved = Effect(EffectKind.MOVED, "Picardie", 1, value=how, measure="hex")
        after, changes = apply_effects([moved], roster())
        assert "terrain" not in after.units[2].attributes
        assert [(c.who, c.field, c.before, c.after) for c in changes] == [
            ("Picardie", "terrain", "forest", None)]
        assert CHANGE_PHRASES["terrain"].say("forest", None) == "is no longer in a forest"
    # A retreat with no room to move keeps its hex.
    stayed = Effect(EffectKind.MOVED, "Picardie", 0, value="retreats", measure="hex")
    assert apply_effects([stayed], roster())[0].units[2].attr("terrain") == "forest"


def test_leaders_killed_escaping_and_joining():
    after, _ = apply_effects([Effect(LEADER_KILLED, "Murray")], roster())
    assert after.generals[0].status == "killed"
    after, _ = apply_effects([Effect(LEADER_ESCAPES, "Murray")], roster())
    assert after.generals[0].unit is None
    after, _ = apply_effects([Effect(LEADER_JOINS, "Montcalm", value="Hussars")], roster())
    assert after.generals[1].unit == "Hussars"


def test_victory_banners_count_what_each_side_lost_to_the_other():
    assert victory_banners(roster()) == ["British: 0 Victory Banners",
                                         "French: 0 Victory Banners"]
    after, _ = apply_effects([Effect(ELIMINATED, "Picardie"), Effect(ROUTED_OFF, "Hussars"),
                              Effect(LEADER_KILLED, "Murray")], roster())
    assert victory_banners(after) == ["British: 2 Victory Banners",
                                      "French: 1 Victory Banner"]


def test_no_banner_count_with_more_than_two_sides():
    three = Roster(units=(*roster().units, RosterUnit("Mohawk", "Iroquois", {"type": "militia"})))
    assert victory_banners(three) == []


def test_roster_words_and_what_they_refuse():
    assert read_roster_attributes("highland full=3 forest", "unit", require_arm=True) == {
        "type": "highland", "full": 3, "terrain": "forest"}
    with pytest.raises(InvalidInput, match="say what the unit is"):
        read_roster_attributes("full=3", "unit", require_arm=True)
    with pytest.raises(InvalidInput, match="a leader is a general"):
        read_roster_attributes("lone-leader", "unit", require_arm=True)
    words = unit_words({"type": "battle-cavalry", "terrain": "forest", "moved": True})
    assert (words.described, words.markers) == (("battle cavalry", "in a forest"), ("moved",))
    # A hill is stood on, as a player says it.
    assert unit_words({"type": "regular", "terrain": "hill"}).described == (
        "regular", "on a hill")
    # The usual full strength (4) goes unsaid; another is said.
    assert unit_words({"type": "regular", "full": 3}).described == ("regular",
                                                                    "full strength 3")


def test_the_command_reads_roster_units_and_the_defenders_side_as_bonus_targets():
    run = prepare("melee", {"attacker": "Black Watch", "defender": "Picardie",
                            "choices": "advance"}, roster())
    source = dice("inf inf inf inf")  # 2 + 1 leader + 1 highland = 4 dice; 2 hits eliminate
    with pytest.raises(Undecided) as stop:
        run(source)
    question = stop.value.question
    assert question.key == "bonus_melee"
    assert [a.key for a in question.answers] == ["Hussars", "Montcalm", "none"]


def test_the_command_refuses_a_target_on_the_attackers_side_and_roster_words():
    with pytest.raises(InvalidInput, match="on Black Watch's side"):
        prepare("melee", {"attacker": "Black Watch", "defender": "Royal Scots"}, roster())
    with pytest.raises(InvalidInput, match="the roster says what"):
        prepare("melee", {"attacker": "Black Watch: grenadier", "defender": "Picardie"},
                roster())


def test_a_general_alone_is_a_lone_leader_target():
    run = prepare("melee", {"attacker": "Royal Scots", "defender": "Montcalm",
                            "choices": "stay"}, roster())
    result = run(dice("sab inf inf"))
    assert [(e.kind, e.unit) for e in result.effects] == [(LEADER_KILLED, "Montcalm"),
                                                           (BANNER, "Royal Scots")]


def test_a_lone_leader_who_retreated_is_not_offered_as_the_bonus_target():
    run = prepare("melee", {"attacker": "Black Watch", "defender": "Montcalm",
                            "choices": "advance"}, roster())
    with pytest.raises(Undecided) as stop:
        run(dice("inf flag cav art"))  # 2 + 1 leader + 1 highland: no saber, he retreats
    assert [a.key for a in stop.value.question.answers] == ["Picardie", "Hussars", "none"]


def test_a_leader_who_escaped_alone_typed_as_the_bonus_target_is_told_why_not():
    # Picardie's last block falls and Lévis escapes alone: on the roster he is still under
    # Picardie until the answer plays the move on, yet he is named as the leader who left.
    escaping = Roster(units=(*roster().units[:1],
                             RosterUnit("Picardie", "French", {"type": "regular"}, 1),
                             roster().units[3]),
                      generals=(roster().generals[0],
                                RosterGeneral("Lévis", "French", unit="Picardie")))
    run = prepare("melee", {"attacker": "Black Watch", "defender": "Picardie",
                            "choices": "advance; bonus_melee=Lévis"}, escaping)
    with pytest.raises(InvalidInput) as refused:
        run(dice("inf art art art  inf"))
    assert refused.value.message == ("Lévis fell back alone toward his side in this melee: "
                                     "he is not adjacent to the hex Black Watch took.")


def test_the_rule_set_entry_has_a_melee_procedure_and_battle_rules():
    assert RULESET_ENTRY.key == "tricorne"
    assert set(RULESET_ENTRY.procedures) == {"melee"}
    assert RULESET_ENTRY.battle is not None
    assert RULESET_ENTRY.battle.strength_label == "blocks"


def test_one_melee_is_one_ordered_unit_against_one_enemy_unit():
    # "Melee Combat by several friendly units against one enemy unit must be made and
    # resolved one at a time."
    with pytest.raises(InvalidInput, match="2 units given; at most 1"):
        prepare("melee", {"attacker": "A: regular; B: regular", "defender": "C: regular"})
    with pytest.raises(InvalidInput, match="2 units given; at most 1"):
        prepare("melee", {"attacker": "A: regular", "defender": "B: regular; C: regular"})


@pytest.mark.parametrize(("onto", "refused"), [
    ("Murray", "Murray is on the British side, not Hussars'"),
    ("Nobody", "There is no general called `Nobody`"),
    ("Lévis", "Hussars cannot retire onto Lévis, who is killed"),
    ("Bougainville", "Bougainville is with Picardie, not alone in a hex"),
])
def test_in_a_battle_a_unit_retires_only_onto_a_lone_leader_of_its_own_side(onto, refused):
    # "A unit without an attached leader may retire onto a hex that contains a lone
    # friendly leader."
    generals = (*roster().generals, RosterGeneral("Lévis", "French", status="killed"),
                RosterGeneral("Bougainville", "French", unit="Picardie"))
    battle = Roster(units=roster().units, generals=generals)
    with pytest.raises(InvalidInput, match=refused):
        prepare("melee", {"attacker": "Black Watch",
                          "defender": f"Hussars: cannot_retire retire_onto={onto}"}, battle)
    run = prepare("melee", {"attacker": "Black Watch", "defender": "Hussars: cannot_retire "
                            "retire_onto=montcalm", "choices": "retire; stay"}, battle)
    result = run(dice("inf inf inf inf cav cav cav cav cav"))
    assert (LEADER_JOINS, "Montcalm") in [(e.kind, e.unit) for e in result.effects]


@pytest.mark.parametrize("defender", [
    "Hussars: battle-cavalry leader=Conflans retire_onto=Montcalm",
])
def test_a_unit_with_its_own_leader_does_not_retire_onto_another(defender):
    with pytest.raises(InvalidInput, match="Hussars has Conflans with it: only a unit without "
                                           "a leader retires onto a lone one"):
        prepare("melee", {"attacker": "Black Watch: highland", "defender": defender})


def test_only_cavalry_retires_onto_a_leader():
    with pytest.raises(InvalidInput, match="Foot is not cavalry: only cavalry retires and "
                                           "rallies, so `retire_onto=` does not apply"):
        prepare("melee", {"attacker": "Black Watch: highland",
                          "defender": "Foot: regular retire_onto=Montcalm"})


def test_only_cavalry_says_it_cannot_retire():
    """`cannot_retire` on a unit that never retires and rallies would be taken and do
    nothing: refused, as `retire_onto=` is."""
    with pytest.raises(InvalidInput, match="Foot is not cavalry: only cavalry retires and "
                                           "rallies, so `cannot_retire` does not apply"):
        prepare("melee", {"attacker": "Black Watch: highland",
                          "defender": "Foot: regular cannot_retire"})
