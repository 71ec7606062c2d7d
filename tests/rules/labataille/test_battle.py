"""La Bataille in a battle: stacks from the roster, firefights as engagements that last (and
switch roles), effects on the roster, reminders, and the order of assaults."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.core.decisions import Undecided
from rules.core.dice import ScriptedSource
from rules.core.errors import InvalidInput, NotAllowed
from rules.core.records import Effect
from rules.core.roster import GONE, Roster, RosterGeneral, RosterUnit
from rules.labataille.battle import MELEE_SEGMENT, apply_effects, reminders
from rules.labataille.commands import prepare, roster_stacks
from rules.labataille.effects import EffectKind
from rules.labataille.order import assault_order

FIELDS = {"morale": 34, "melee": 10}


def roster(engaged: bool = False) -> Roster:
    units = (
        RosterUnit("1/45e", "French", {**FIELDS, "melee": 20}, 6),
        RosterUnit("2/45e", "French", FIELDS, 6),
        RosterUnit("52nd", "British", {**FIELDS, "nation": "british"}, 5),
        RosterUnit("95th", "British", FIELDS, 4),
    )
    base = Roster(units=units, generals=(RosterGeneral("Ney", "French", unit="1/45e",
                                                       value=0),))
    if not engaged:
        return base
    after, _ = apply_effects([Effect(EffectKind.FIREFIGHT, "1/45e", value="52nd",
                                     detail="attacker"),
                              Effect(EffectKind.FIREFIGHT, "52nd", value="1/45e",
                                     detail="defender")], base)
    return after


def run(options, board, rolled, answers=None):
    source = ScriptedSource.from_text(rolled)
    result = prepare("assault", options, board, {})(source)
    source.finish()
    return result


CAVALRY = {"morale": 44, "melee": 18, "mp": 8, "arm": "cavalry"}


@pytest.mark.parametrize(("procedure", "options", "said"), [
    ("assault", {"attackers": "1/45e", "defenders": "2/45e"}, "1/45e and 2/45e"),
    ("charge", {"attackers": "2/45e", "defenders": "1/45e"}, "2/45e and 1/45e"),
    ("cavalry", {"chargers": "Cuirassiers", "targets": "2/45e", "spent": 2},
     "Cuirassiers and 2/45e"),
    ("square", {"stack": "1/45e", "distance": 2, "cavalry": "Cuirassiers"},
     "Cuirassiers and 1/45e"),
    ("reaction", {"reactor": "Lancers", "charger": "Cuirassiers"}, "Cuirassiers and Lancers"),
])
def test_in_a_battle_stacks_act_against_the_enemy_only(procedure, options, said):
    board = roster()
    board = replace(board, units=(*board.units,
                                  RosterUnit("Cuirassiers", "French", CAVALRY, 4),
                                  RosterUnit("Lancers", "French", CAVALRY, 4)))
    with pytest.raises(NotAllowed, match=f"{said} are on the same side \\(French"):
        prepare(procedure, options, board, {})


def test_a_stack_named_against_itself_is_told_so():
    with pytest.raises(NotAllowed, match="1/45e cannot act against itself"):
        prepare("assault", {"attackers": "1/45e", "defenders": "1/45e"}, roster(), {})


def test_a_blank_result_starts_a_firefight_engagement_attackers_first():
    board = roster(engaged=True)
    [fight] = board.engagements
    assert (fight.kind, fight.sides) == ("firefight", (("1/45e",), ("52nd",)))
    assert reminders(board, MELEE_SEGMENT) == [
        "Firefight: 1/45e against 52nd: fight it again this Mêlée Segment (`/assault "
        "labataille`), on the Firefight column"]
    assert reminders(board, "Fire Segment") == []


def test_the_next_assault_between_them_is_a_firefight_with_locked_units():
    result = run({"attackers": "1/45e", "defenders": "52nd", "choices": "chart_result=DR1"},
                 roster(engaged=True), "45 45 51")
    assert result.steps[0].title == "Firefight"
    [read] = [s for s in result.steps if s.title == "7. Mêlée resolution"]
    assert read.outcome == "Read row 51 of the Firefight column on your Assault et Mêlée chart."
    after, _ = apply_effects(result.effects, roster(engaged=True))
    assert after.engagements == ()
    # A routed stack is PGD: it stays on the map, marked routed.
    routed = {u.name: u for u in after.units}["52nd"]
    assert (routed.status, routed.attributes["state"]) == ("active", "routed")


def test_new_units_joining_the_defence_switch_the_roles_and_the_record():
    result = run({"attackers": "1/45e", "defenders": "52nd; 95th",
                  "choices": "chart_result=firefight"}, roster(engaged=True), "45 45 45 1 41")
    assert result.steps[0].title == "Firefight: roles switch"
    after, changes = apply_effects(result.effects, roster(engaged=True))
    [fight] = after.engagements
    assert fight.sides == (("52nd", "95th"), ("1/45e",))
    assert [(c.who, c.after) for c in changes if c.kind == "engagement"] == [
        ("Firefight: 1/45e against 52nd", None),
        ("Firefight: 52nd and 95th against 1/45e", "active")]


def test_a_stack_routed_out_of_a_firefight_leaves_the_others_locked_in_it():
    # "attackers and defenders are locked in a Firefight": a charge that routs one of two
    # stacks drives off a stack, not its side; the stack left still fights next turn.
    board, _ = apply_effects([Effect(EffectKind.FIREFIGHT, name, value=value, detail=role)
                              for name, value, role in (("1/45e", "52nd", "attacker"),
                                                        ("2/45e", "52nd", "attacker"),
                                                        ("52nd", "1/45e; 2/45e", "defender"))],
                             roster())
    after, changes = apply_effects([Effect(EffectKind.ROUTED, "2/45e")], board)
    [fight] = after.engagements
    assert fight.sides == (("1/45e",), ("52nd",))
    # It goes on without the stack: no new firefight, which would bring back Huzzah.
    assert [(c.who, c.before, c.after) for c in changes if c.kind == "engagement"] == [
        ("Firefight: 1/45e against 52nd", ("2/45e",), "active")]
    assert reminders(after, MELEE_SEGMENT) == [
        "Firefight: 1/45e against 52nd: fight it again this Mêlée Segment (`/assault "
        "labataille`), on the Firefight column"]
    # A side with no stack left ends it.
    ended, _ = apply_effects([Effect(EffectKind.ROUTED, "52nd")], after)
    assert ended.engagements == ()


def test_a_stack_joining_a_firefight_fights_beside_the_stacks_locked_in_it():
    # "If new units join a Firefight, the Assault is resolved as if it was a new Mêlée":
    # 1/45e, locked with 52nd, is in it too.
    with pytest.raises(InvalidInput, match="1/45e is locked in this firefight: name it too."):
        run({"attackers": "2/45e", "defenders": "52nd"}, roster(engaged=True), "")


def test_old_guard_joins_a_firefight_as_new_units_and_declares_an_old_guard_charge():
    # "However, they may enter a Firefight as new units and declare an Old Guard Charge."
    def charge(attackers: str):
        source = ScriptedSource.from_text("45 45 45 1 41")
        result = prepare("charge", {"attackers": attackers, "defenders": "52nd",
                                    "choices": "chart_result=DR1"}, roster(engaged=True),
                         {})(source)
        source.finish()
        return result
    result = charge("2/45e; 1/45e")
    assert result.steps[0].title == "Firefight: new units"
    assert result.headline == "DR1: 52nd routs; 2/45e may exploit"
    with pytest.raises(NotAllowed, match="may not conduct an Old Guard Charge"):
        charge("1/45e")


def test_old_guard_joins_the_defending_side_of_a_firefight_and_charges():
    # 52nd defends in the firefight: the Guard joining it alone switches the roles.
    source = ScriptedSource.from_text("45 45 45 1 41")
    result = prepare("charge", {"attackers": "1/45e", "defenders": "52nd; 95th",
                                "choices": "chart_result=DR1"}, roster(engaged=True),
                     {})(source)
    source.finish()
    assert result.steps[0].title == "Firefight: roles switch"
    assert result.headline == "DR1: 1/45e routs; 95th may exploit"


def test_a_locked_unit_named_on_the_wrong_side_is_refused():
    with pytest.raises(InvalidInput, match="52nd defends in its firefight"):
        prepare("assault", {"attackers": "52nd", "defenders": "1/45e"}, roster(engaged=True),
                {})


def test_stacks_of_two_firefights_are_refused_and_one_firefight_is_found_once():
    both, _ = apply_effects([Effect(EffectKind.FIREFIGHT, "2/45e", value="95th",
                                    detail="attacker"),
                             Effect(EffectKind.FIREFIGHT, "95th", value="2/45e",
                                    detail="defender")], roster(engaged=True))
    assert len(both.engagements) == 2
    with pytest.raises(InvalidInput, match="These stacks are in different firefights"):
        prepare("assault", {"attackers": "1/45e; 2/45e", "defenders": "52nd"}, both, {})
    result = run({"attackers": "1/45e", "defenders": "52nd", "choices": "chart_result=DR1"},
                 both, "45 45 51")
    assert result.steps[0].title == "Firefight"


def test_roster_stacks_carry_increments_leader_and_this_assaults_words():
    with pytest.raises(Undecided):
        run({"attackers": "1/45e: distance=2", "defenders": "95th"}, roster(), "45 45 1 41")
    with pytest.raises(InvalidInput, match="describes the stack itself"):
        prepare("assault", {"attackers": "1/45e: morale=40", "defenders": "95th"}, roster(), {})


def test_a_roster_generals_value_counts_where_a_leader_counts():
    board = roster()
    led = replace(board, generals=(RosterGeneral("Ney", "French", unit="1/45e", value=2),))
    [stack] = roster_stacks("1/45e", "attackers", led)
    assert (stack.leader, stack.leader_value) == ("Ney", 2)
    result = run({"attackers": "1/45e", "defenders": "95th", "choices": "chart_result=DR1"},
                 led, "43 45 1 41")
    checks = [r for s in result.steps for r in s.rolls if r.label == "1/45e morale"]
    assert [(m.value, m.reason) for m in checks[0].modifiers] == [(2, "Ney")]
    melee = [r for s in result.steps for r in s.rolls if r.label == "mêlée"]
    assert [(m.value, m.reason) for m in melee[0].modifiers] == [(2, "Ney (attacking)")]
    # His own value wins over a `leader_value` kept on the stack; without either, none is
    # assumed: the assault is refused by name.
    worded = replace(led, units=tuple(replace(u, attributes={**u.attributes, "leader_value": 5})
                                      if u.name == "1/45e" else u for u in led.units))
    assert roster_stacks("1/45e", "attackers", worded)[0].leader_value == 2
    bare = replace(board, generals=(RosterGeneral("Ney", "French", unit="1/45e"),))
    with pytest.raises(InvalidInput, match="Ney, with 1/45e, has no value"):
        run({"attackers": "1/45e", "defenders": "95th"}, bare, "")


def test_effects_on_the_roster():
    effects = [Effect(EffectKind.DAMAGE, "95th", 2), Effect(EffectKind.MARKER_SET, "2/45e",
                                                              value="disordered"),
               Effect(EffectKind.SURRENDERED, "52nd")]
    after, _ = apply_effects(effects, roster())
    units = {u.name: u for u in after.units}
    assert units["95th"].strength == 2
    assert units["2/45e"].attributes["state"] == "disordered"
    assert (units["52nd"].status, units["52nd"].gone_reason) == (GONE, "surrendered")


def test_the_order_of_assaults():
    most = assault_order((("French", 3), ("British", 2)), ScriptedSource([]))
    assert most.headline == "French chooses the first assault"
    tie = assault_order((("French", 2), ("British", 2)), ScriptedSource.from_text("4 4 2 5"))
    assert tie.headline == "British chooses the first assault (tie: the dice decided)"
    assert tie.steps[0].outcome == "Equal dice: roll again."
    with pytest.raises(InvalidInput, match="two different sides"):
        assault_order((("French", 1), ("french", 2)), ScriptedSource([]))


def test_who_chooses_the_first_cavalry_melee():
    most = assault_order((("French", 1), ("British", 2)), ScriptedSource([]), "cavalry")
    assert most.headline == "British chooses the first cavalry mêlée"
    assert "British has the most cavalry-vs-cavalry mêlées and chooses first" in \
        most.steps[0].outcome
    assert "Cavalry Charge vs. Cavalry Mêlée Procedure" in most.steps[0].outcome
    assert most.defaults and "project reading" in most.defaults[0]
    tie = assault_order((("French", 1), ("British", 1)), ScriptedSource.from_text("6 2"),
                        "cavalry")
    assert tie.headline == "French chooses the first cavalry mêlée (tie: the dice decided)"
    with pytest.raises(InvalidInput, match="`kind` is one of assaults, cavalry"):
        assault_order((("French", 1), ("British", 1)), ScriptedSource([]), "artillery")


def test_a_word_of_one_fight_given_to_the_roster_is_refused_with_where_it_goes():
    from rules.labataille.battle import read_roster_attributes

    with pytest.raises(InvalidInput) as refusal:
        read_roster_attributes("infantry morale=34 distance=2", "words", require_arm=True)
    assert refusal.value.message == ("words: `distance=2` is said of a unit in one fight; the "
                                     "roster does not keep it.")
    assert refusal.value.hint == ("Give it after the unit's name in the command, e.g. "
                                  "`attackers:\"1/45e Ligne: distance=2\"` or "
                                  "`defenders:\"52nd Foot: canister\"`.")
    # A word neither the roster nor a fight knows gets the usual refusal.
    with pytest.raises(InvalidInput, match="I don.t know `distanse`"):
        read_roster_attributes("infantry morale=34 distanse=2", "words", require_arm=True)


@pytest.mark.parametrize("sides", [[("   ", 2), ("British", 2)], [("French", 2), ("", 1)]])
def test_each_side_of_the_order_is_named(sides):
    from rules.labataille.commands import order_sides

    with pytest.raises(InvalidInput, match="Name each side"):
        order_sides(sides)


def test_the_roster_shows_the_values_the_procedures_read():
    from rules.labataille.battle import unit_words

    assert unit_words({"arm": "infantry", "morale": 34, "melee": 12, "fire": 6,
                       "defence": 9}).described == (
        "infantry", "morale 34", "melee 12", "fire 6", "defence 9")
    # Light cavalry (it may Recall at any time), its MP (the pursuit's losses) and a
    # stacked leader's value (the dice modifier) are read too.
    assert unit_words({"arm": "cavalry", "light": True, "morale": 44, "mp": 9,
                       "leader_value": 2}).described == (
        "light cavalry", "morale 44", "MP 9", "leader value 2")


def test_a_nation_is_named_as_typed_its_first_letter_raised():
    from rules.labataille.units import nation_name

    assert [nation_name(n) for n in ("british", "KGL", "kgl", "Dutch-Belgian", "")] == [
        "British", "KGL", "KGL", "Dutch-Belgian", ""]
