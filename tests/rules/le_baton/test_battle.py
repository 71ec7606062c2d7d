"""Le Baton in a battle: effects on the roster, a new turn, and the phase reminders."""

from __future__ import annotations

import pytest

from rules.core.dice import ScriptedSource
from rules.core.errors import InvalidInput, NotAllowed
from rules.core.records import Effect
from rules.core.roster import GONE, Change, Roster, RosterGeneral, RosterUnit, describe_changes
from rules.le_baton import RULESET_ENTRY
from rules.le_baton.battle import (
    PHASES,
    apply_effects,
    check_unit,
    engine_unit,
    new_turn,
    read_roster_attributes,
    reminders,
)
from rules.le_baton.commands import prepare
from rules.le_baton.effects import EffectKind as E
from rules.le_baton.units import Arm, Formation, Horse, Nation, Quality


def british(arm: str, **attrs) -> dict:
    return {"nation": "british", "arm": arm, **attrs}


def french(arm: str, **attrs) -> dict:
    return {"nation": "french", "arm": arm, **attrs}


ROSTER = Roster(
    units=(
        RosterUnit("2nd Foot", "British", british("infantry", formation="line"), strength=12),
        RosterUnit("45e Ligne", "French", french("infantry", formation="column"), strength=9),
        RosterUnit("Lancers", "French", french("cavalry", horse="lancers"), strength=6),
        RosterUnit("Scots Greys", "British", british("cavalry", horse="heavy-dragoons"),
                   strength=6),
        RosterUnit("Battery", "British", british("artillery", guns=9), strength=4),
    ),
    generals=(RosterGeneral("Picton", "British", unit="2nd Foot"),),
)


def apply(*effects: Effect, roster: Roster = ROSTER) -> tuple[Roster, list[Change]]:
    return apply_effects(effects, roster)


def unit(roster: Roster, name: str) -> RosterUnit:
    return roster.unit(name, allow_gone=True)


def locked(roster: Roster, a: str, b: str) -> Roster:
    after, _ = apply(Effect(E.IN_MELEE, a, value=b), Effect(E.IN_MELEE, b, value=a),
                     roster=roster)
    return after


# --- apply_effects --------------------------------------------------------------------------


def test_casualties_lower_strength_and_raise_casualties():
    after, changes = apply(Effect(E.CASUALTIES, "2nd Foot", 3))
    assert unit(after, "2nd Foot").strength == 9
    assert unit(after, "2nd Foot").attr("casualties") == 3
    assert changes == [Change("2nd Foot", "unit", "strength", 12, 9),
                       Change("2nd Foot", "unit", "casualties", None, 3)]
    again, _ = apply(Effect(E.CASUALTIES, "2nd Foot", 1), roster=after)
    assert (unit(again, "2nd Foot").strength, unit(again, "2nd Foot").attr("casualties")) == (
        8, 4)


def test_a_unit_that_loses_its_last_figure_is_destroyed_and_counts_only_what_it_had():
    after, changes = apply(Effect(E.CASUALTIES, "Battery", 6))
    battery = unit(after, "Battery")
    assert (battery.strength, battery.attr("casualties")) == (0, 4)
    assert (battery.status, battery.gone_reason) == (GONE, "destroyed")
    assert Change("Battery", "unit", "status", "active", GONE) in changes
    # In a melee: out of it, and its partner free.
    before = locked(ROSTER, "2nd Foot", "45e Ligne")
    after, _ = apply(Effect(E.CASUALTIES, "45e Ligne", 12), roster=before)
    assert unit(after, "45e Ligne").gone and after.engagements == ()
    # One figure left: still there.
    after, _ = apply(Effect(E.CASUALTIES, "45e Ligne", 8))
    assert not unit(after, "45e Ligne").gone


def test_casualties_count_in_the_next_morale_check():
    after, _ = apply(Effect(E.CASUALTIES, "45e Ligne", 3))
    assert engine_unit(unit(after, "45e Ligne"), after).casualties == 3
    assert engine_unit(unit(after, "45e Ligne"), after).figures == 6


@pytest.mark.parametrize(("kind", "reason"), [(E.ROUTED, "routed"), (E.REMOVED, "destroyed")])
def test_rout_or_destruction_takes_the_unit_out_and_releases_its_melee_partner(kind, reason):
    before = locked(ROSTER, "2nd Foot", "45e Ligne")
    after, changes = apply(Effect(kind, "2nd Foot"), roster=before)
    gone = unit(after, "2nd Foot")
    assert (gone.status, gone.gone_reason) == (GONE, reason)
    assert after.engaged("45e Ligne") is None and after.engagements == ()
    assert Change("Melee: 2nd Foot against 45e Ligne", "engagement", "melee", "active",
                  None) in changes


def test_melee_ends_releases_both_units():
    before = locked(ROSTER, "2nd Foot", "45e Ligne")
    after, _ = apply(Effect(E.MELEE_ENDS, "45e Ligne"), roster=before)
    assert after.engaged("2nd Foot") is None and after.engaged("45e Ligne") is None


def test_in_melee_engages_both_units_once():
    after = locked(ROSTER, "2nd Foot", "45e Ligne")
    [melee] = after.engagements  # the pair of effects makes one engagement
    assert (melee.kind, melee.sides) == ("melee", (("2nd Foot",), ("45e Ligne",)))
    assert after.engaged("45e Ligne").facing("45e Ligne") == ("2nd Foot",)
    assert engine_unit(unit(after, "45e Ligne"), after).in_melee
    assert not engine_unit(unit(after, "Lancers"), after).in_melee


def test_a_firefight_is_an_engagement_of_its_own_kind():
    after, changes = apply(Effect(E.FIREFIGHT, "2nd Foot", value="45e Ligne"))
    assert engine_unit(unit(after, "45e Ligne"), after).firefight
    assert not engine_unit(unit(after, "45e Ligne"), after).in_melee
    assert changes == [Change("Firefight: 2nd Foot against 45e Ligne", "engagement",
                              "firefight", None, "active")]


def test_formation_changes_the_roster():
    after, changes = apply(Effect(E.FORMATION, "2nd Foot", value="square"))
    assert engine_unit(unit(after, "2nd Foot"), after).formation is Formation.SQUARE
    assert changes == [Change("2nd Foot", "unit", "formation", "line", "square")]


def test_charge_marker_then_recall_clears_it():
    after, _ = apply(Effect(E.CHARGE_MARKER, "Lancers"))
    assert engine_unit(unit(after, "Lancers"), after).charge_marker
    after, _ = apply(Effect(E.RECALLED, "Lancers"), roster=after)
    assert not engine_unit(unit(after, "Lancers"), after).charge_marker


def test_failed_recall_holds_the_unit_until_it_is_recalled():
    after, _ = apply(Effect(E.CHARGE_MARKER, "Lancers"), Effect(E.CASUALTIES, "Lancers", 1),
                     Effect(E.HELD, "Lancers"))
    assert engine_unit(unit(after, "Lancers"), after).held
    after, _ = new_turn(after)
    assert engine_unit(unit(after, "Lancers"), after).held
    after, _ = apply(Effect(E.RECALLED, "Lancers"), roster=after)
    lancers = engine_unit(unit(after, "Lancers"), after)
    assert (lancers.held, lancers.charge_marker) == (False, False)


def test_a_failed_recall_is_rolled_again_next_turn_not_this_one():
    after, changes = apply(Effect(E.CHARGE_MARKER, "Lancers"), Effect(E.HELD, "Lancers"))
    assert [c.field for c in changes if c.field == "recall_failed"] == ["recall_failed"]
    assert reminders(after, PHASES[12]) == []
    with pytest.raises(NotAllowed, match="Lancers failed its recall this turn: it rolls again "
                                         "in phase 13 next turn."):
        prepare("recall", {"unit": "Lancers"}, after)(ScriptedSource.from_text("1"))
    next_turn, changes = new_turn(after)
    assert Change("Lancers", "unit", "recall_failed", True, False) in changes
    recalled = prepare("recall", {"unit": "Lancers"}, next_turn)(ScriptedSource.from_text("1"))
    assert recalled.headline.startswith("Lancers is recalled")


def test_a_unit_recalled_this_turn_is_not_asked_to_roll_again():
    """One recall roll a turn: recalled, the unit is no longer obliged, and a second roll
    (a failure would cost a casualty and hold it) is refused, not offered."""
    marked, _ = apply(Effect(E.CHARGE_MARKER, "Lancers"))
    passed = prepare("recall", {"unit": "Lancers"}, marked)(ScriptedSource.from_text("1"))
    after, _ = apply(*passed.effects, roster=marked)
    with pytest.raises(NotAllowed, match="Lancers has rolled for recall this turn"):
        prepare("recall", {"unit": "Lancers"}, after)(ScriptedSource.from_text("6"))
    next_turn, _ = new_turn(after)  # next turn it may choose to roll again
    asked = prepare("recall", {"unit": "Lancers", "answers": "roll_recall=roll"},
                    next_turn)(ScriptedSource.from_text("1"))
    assert asked.headline.startswith("Lancers is recalled")


def test_a_hold_cleared_by_hand_still_leaves_the_recall_to_next_turn():
    # "They must roll again to recall in phase 13 next turn": a mistaken roll is undone.
    after, _ = apply(Effect(E.CHARGE_MARKER, "Lancers"), Effect(E.HELD, "Lancers"))
    lancers = after.unit("Lancers")
    cleared = Roster(tuple(u.with_attr("held", False) if u is lancers else u
                           for u in after.units), after.generals, after.engagements)
    with pytest.raises(NotAllowed, match="rolls again in phase 13 next turn"):
        prepare("recall", {"unit": "Lancers"}, cleared)(ScriptedSource.from_text("1"))


def test_whether_a_recall_failed_this_turn_is_no_marker_a_gm_sets():
    names = [f.name for f in RULESET_ENTRY.battle.marker_fields.fields]
    assert "held" in names
    assert not {"recall_failed", "charged_by_infantry", "fought"} & set(names)


def test_a_tied_cavalry_melee_leaves_both_to_recall_until_they_roll():
    after, _ = apply(Effect(E.RECALL_DUE, "Lancers"))
    assert engine_unit(unit(after, "Lancers"), after).recall_due
    assert reminders(after, PHASES[12]) == [
        "Lancers tied its melee: it must test recall in phase 13."]
    held, _ = apply(Effect(E.HELD, "Lancers"), roster=after)
    assert not engine_unit(unit(held, "Lancers"), held).recall_due
    recalled, _ = apply(Effect(E.RECALLED, "Lancers"), roster=after)
    assert not engine_unit(unit(recalled, "Lancers"), recalled).recall_due


def test_cavalry_that_tied_in_phase_6_are_not_reminded_of_a_melee_in_phase_11():
    tied, _ = apply(Effect(E.MELEE_TIED, "Lancers"), Effect(E.RECALL_DUE, "Lancers"),
                    Effect(E.RECALL_DUE, "Scots Greys"),
                    roster=locked(ROSTER, "Lancers", "Scots Greys"))
    assert reminders(tied, PHASES[10]) == [
        "Lancers and Scots Greys tied their melee: they do not fight in phase 11, and test "
        "recall in phase 13."]
    # Both fail their recall: held, still in contact, they fight on next turn in phase 6.
    held, _ = apply(Effect(E.HELD, "Lancers"), Effect(E.HELD, "Scots Greys"), roster=tied)
    held, _ = new_turn(held)
    assert reminders(held, PHASES[5]) == ["Melee continues: Lancers and Scots Greys."]


def test_recall_to_the_start_of_the_charge_ends_the_melee():
    before = locked(ROSTER, "Lancers", "Scots Greys")
    after, _ = apply(Effect(E.RECALLED, "Lancers"), Effect(E.MELEE_ENDS, "Lancers"),
                     roster=before)
    assert before.engaged("Scots Greys") is not None
    assert after.engaged("Scots Greys") is None


def test_halted_is_cleared_by_a_new_turn():
    after, _ = apply(Effect(E.HALTED, "45e Ligne"))
    assert engine_unit(unit(after, "45e Ligne"), after).halted
    after, changes = new_turn(after)
    assert not engine_unit(unit(after, "45e Ligne"), after).halted
    assert changes == [Change("45e Ligne", "unit", "halted", True, False)]


def test_a_new_turn_says_nothing_of_a_unit_that_has_routed():
    after, _ = apply(Effect(E.HALTED, "45e Ligne"), Effect(E.ROUTED, "45e Ligne"))
    next_turn, changes = new_turn(after)
    assert changes == []
    # Its turn's marker ends all the same, for a unit a GM brings back.
    assert unit(next_turn, "45e Ligne").attr("halted") is False


def test_a_new_turn_without_halts_changes_nothing():
    assert new_turn(ROSTER) == (ROSTER, [])


def test_firefight_marks_the_unit():
    after, _ = apply(Effect(E.FIREFIGHT, "2nd Foot", value="45e Ligne"))
    assert engine_unit(unit(after, "2nd Foot"), after).firefight


@pytest.mark.parametrize("kind", [E.PLACED, E.RETIRE, E.FOLLOW_UP])
def test_movement_on_the_table_changes_no_roster_field(kind):
    assert apply(Effect(kind, "2nd Foot", 2, value="from 45e Ligne")) == (ROSTER, [])


def test_effects_on_names_outside_the_roster_are_ignored():
    assert apply(Effect(E.IN_MELEE, "the enemy", value="2nd Foot")) == (ROSTER, [])


# --- reminders --------------------------------------------------------------------------------


def marked(roster: Roster = ROSTER) -> Roster:
    roster = locked(roster, "2nd Foot", "45e Ligne")
    after, _ = apply(Effect(E.CHARGE_MARKER, "Lancers"), Effect(E.HELD, "Scots Greys"),
                     roster=roster)
    after, _ = new_turn(after)  # the Greys failed their recall last turn
    return after


MELEE = "Melee continues: 2nd Foot and 45e Ligne."
# Phase 13: "Units with a charge marker in place cannot move until recalled": said at the
# turn's start, before the moves of phases 3 and 8, as a held unit's is.
LANCERS_RECALL = ("Lancers has a charge marker in place: it cannot move until recalled, and "
                  "must test recall in phase 13.")
GREYS_HELD = ("Scots Greys is held (failed recall): it cannot move, and must test recall in "
              "phase 13.")


@pytest.mark.parametrize(("phase", "expected"), [
    (PHASES[0], [MELEE, LANCERS_RECALL, GREYS_HELD]),
    (PHASES[5], [MELEE]),
    (PHASES[10], [MELEE]),
    (PHASES[12], [LANCERS_RECALL, GREYS_HELD]),
    (PHASES[1], []),
    (PHASES[6], []),
    (None, []),
])
def test_reminders_list_continuing_melees_and_cavalry_to_recall(phase, expected):
    assert reminders(marked(), phase) == expected


def test_a_melee_a_charge_began_this_turn_is_not_said_to_continue():
    """Contact made in phases 3 to 5 is fought first in phase 6: no round of it has been
    fought, so it does not "continue"; after its first round it does."""
    begun = locked(ROSTER, "2nd Foot", "45e Ligne")
    assert reminders(begun, PHASES[5]) == ["First round of melee: 2nd Foot and 45e Ligne."]
    fought, _ = apply(Effect(E.IN_MELEE, "2nd Foot", value="45e Ligne"),
                      Effect(E.MELEE_LOST, "45e Ligne", value=7), roster=begun)
    assert reminders(fought, PHASES[10]) == ["Melee continues: 2nd Foot and 45e Ligne."]
    tied, _ = apply(Effect(E.MELEE_TIED, "2nd Foot"), roster=begun)
    assert reminders(tied, PHASES[10]) == ["Melee continues: 2nd Foot and 45e Ligne."]


def test_reminders_leave_out_units_that_are_gone():
    after, _ = apply(Effect(E.ROUTED, "Lancers"), roster=marked())
    assert reminders(after, PHASES[12]) == [GREYS_HELD]


def test_the_thirteen_phases_of_the_sheet():
    assert len(PHASES) == 13
    assert [p.split(".")[0] for p in PHASES] == [str(n) for n in range(1, 14)]
    assert RULESET_ENTRY.battle.phases == PHASES


# --- roster fields ----------------------------------------------------------------------------


def test_roster_words_are_read_as_the_unit_description():
    assert read_roster_attributes("british cav elite lancers", "unit", require_arm=True) == {
        "nation": "british", "arm": "cavalry", "quality": "elite", "horse": "lancers"}


def test_roster_words_refuse_a_name_and_need_nation_and_arm():
    with pytest.raises(InvalidInput, match="only words go here"):
        read_roster_attributes("Guards: british inf", "unit", require_arm=True)
    with pytest.raises(InvalidInput, match="unit: say the unit's arm. e.g. `british inf "
                                           "veteran line`"):
        read_roster_attributes("british veteran", "unit", require_arm=True)
    assert read_roster_attributes("square", "unit", require_arm=False) == {"formation": "square"}


def test_check_unit_keeps_markers_by_their_own_types():
    checked = check_unit("unit", british("cavalry", casualties="3", held="yes",
                                         charge_marker=False), None, "unit")
    assert checked == {"nation": "british", "arm": "cavalry", "casualties": 3,
                       "held": True, "charge_marker": False}
    with pytest.raises(InvalidInput, match="unit: only cavalry has `held`, and unit is "
                                           "infantry"):
        check_unit("unit", british("infantry", held="yes"), None, "unit")
    with pytest.raises(InvalidInput, match="unit: `wedge` is not a valid formation. Use one "
                                           "of: column, line, square, skirmish."):
        check_unit("unit", {"formation": "wedge"}, None, "unit")


def test_check_unit_takes_the_mark_of_a_round_fought():
    # A melee marks its units as having fought a round; their words still check.
    fought = british("infantry", fought=True)
    assert check_unit("Buffs", fought, 8, "Buffs") == fought
    assert check_unit("Buffs", {**fought, "fought": None}, 8, "Buffs") == british("infantry")


def test_engine_unit_reads_the_roster():
    picton = engine_unit(unit(ROSTER, "2nd Foot"), ROSTER)
    assert (picton.nation, picton.arm, picton.quality, picton.figures, picton.general) == (
        Nation.BRITISH, Arm.INFANTRY, Quality.VETERAN, 12, True)
    lancers = engine_unit(unit(ROSTER, "Lancers"), ROSTER)
    assert (lancers.horse, lancers.general) == (Horse.LANCERS, False)
    assert engine_unit(unit(ROSTER, "Battery"), ROSTER).guns == 9


# --- a turn played on the roster ---------------------------------------------------------------


def play(procedure: str, options: dict, dice: str, roster: Roster):
    source = ScriptedSource.from_text(dice)
    result = prepare(procedure, options, roster)(source)
    source.finish()
    return apply_effects(result.effects, roster)[0], result


def test_a_charge_locks_the_units_and_the_loser_falls_back():
    without_general = Roster(ROSTER.units)
    # 45e Ligne closes on a 4 (5 −1 charging); 2nd Foot fails to stand by 1 on a 6.
    roster, _ = play("charge", {"charger": "45e Ligne", "target": "2nd Foot"}, "4 6",
                     without_general)
    assert reminders(roster, PHASES[5]) == ["First round of melee: 45e Ligne and 2nd Foot."]
    with pytest.raises(NotAllowed, match="continuing a previous melee") as refused:
        play("fire", {"shooter": "2nd Foot", "target": "45e Ligne"}, "", roster)
    # The shot a charged unit may still make comes before `/charge`: the refusal says so.
    assert refused.value.hint == ("Charged this turn? Shoot at the charger before `/charge`, "
                                  "which plays the checks that follow the shooting; a GM "
                                  "takes the charge back with `/gm undo`.")
    # The winner's player takes the free formation change: 2nd Foot forms square.
    roster, result = play("morale", {"unit": "45e Ligne", "phase": 7, "opponent": "2nd Foot",
                                     "choices": "free_formation_change=square"}, "6", roster)
    assert result.headline == "45e Ligne fails by 1: falls back into line"
    assert unit(roster, "45e Ligne").attr("formation") == "line"
    assert unit(roster, "2nd Foot").attr("formation") == "square"
    assert reminders(roster, PHASES[10]) == []


def test_a_melee_carried_into_a_new_turn_is_not_taken_for_a_charge_this_turn():
    """"Units continuing a previous melee cannot shoot": next turn the melee is no charge
    of this turn, and the refusal does not ask whether it was."""
    roster, _ = play("charge", {"charger": "45e Ligne", "target": "2nd Foot"}, "4 6",
                     Roster(ROSTER.units))
    roster, _ = new_turn(roster)
    with pytest.raises(NotAllowed, match="continuing a previous melee") as refused:
        play("fire", {"shooter": "2nd Foot", "target": "45e Ligne"}, "", roster)
    assert refused.value.hint == "It fights on in the melee phase instead (6 or 11)."


def test_lancers_keep_their_first_combat_edge_until_they_have_fought():
    """Contact from a charge is not a combat: the first melee still counts as the first."""
    from rules.le_baton.melee import Side, resolve_melee

    def modifiers(resolution):
        return [m.reason for r in resolution.steps[-1].rolls for m in r.modifiers]

    def pair(roster):
        return (engine_unit(unit(roster, "Lancers"), roster),
                engine_unit(unit(roster, "Scots Greys"), roster))

    charged, _ = apply_effects(
        [Effect(E.IN_MELEE, "Lancers", value="Scots Greys"),
         Effect(E.IN_MELEE, "Scots Greys", value="Lancers")], ROSTER)
    lancers, greys = pair(charged)
    first = resolve_melee(Side(lancers), Side(greys), 6, ScriptedSource([4] * 30))
    assert modifiers(first) == ["first combat vs. lancers"]
    fought, _ = apply_effects(first.effects, charged)
    lancers, greys = pair(fought)
    second = resolve_melee(Side(lancers), Side(greys), 11, ScriptedSource([4] * 30))
    assert modifiers(second) == ["lancers continuing a melee"]


def test_the_roster_counts_one_casualty_in_the_singular():
    from rules.le_baton.battle import unit_words

    assert unit_words({"arm": "infantry", "casualties": 1}).markers == ("1 casualty",)
    assert unit_words({"arm": "infantry", "casualties": 3}).markers == ("3 casualties",)


def test_the_melee_keeps_who_lost_its_last_round_and_only_the_loser_tests():
    from rules.le_baton.battle import melee_loser
    from rules.le_baton.melee import Side, resolve_melee

    locked_in = locked(ROSTER, "2nd Foot", "45e Ligne")
    foot, ligne = (engine_unit(unit(locked_in, n), locked_in) for n in ("2nd Foot", "45e Ligne"))
    # 2nd Foot's 8 dice: 3 hits; 45e Ligne's 6: 2 hits. 45e Ligne loses, tests in phase 12.
    lost = resolve_melee(Side(foot), Side(ligne), 11,
                         ScriptedSource([4, 4, 4, *[1] * 5, 1, 1, 1, 1, 4, 5]))
    after, _ = apply_effects(lost.effects, locked_in)
    assert melee_loser(after, "2nd Foot") == ("45e Ligne", 12)
    # Phase 12 reminds the loser to test, until it has.
    assert reminders(after, PHASES[11]) == [
        '45e Ligne lost its melee with 2nd Foot: it tests morale now '
        '(`/morale le-baton unit:"45e Ligne" phase:12`).']
    assert reminders(after, PHASES[6]) == []
    with pytest.raises(NotAllowed, match="2nd Foot won its melee with 45e Ligne: only the "
                                         "loser tests morale in phase 12."):
        prepare("morale", {"unit": "2nd Foot", "phase": 12}, after)
    tested = prepare("morale", {"unit": "45e Ligne", "phase": 12}, after)(
        ScriptedSource.from_text("1"))
    assert tested.headline == "45e Ligne passes"
    assert reminders(apply_effects(tested.effects, after)[0], PHASES[11]) == []
    # A round that ties: nobody lost it.
    tie = resolve_melee(Side(foot), Side(ligne), 6, ScriptedSource([1] * 21))
    tied, _ = apply_effects(tie.effects, after)
    assert melee_loser(tied, "45e Ligne") is None


def test_a_melee_lost_last_turn_is_not_tested_again_this_turn():
    from rules.le_baton.battle import melee_loser
    from rules.le_baton.melee import Side, resolve_melee

    locked_in = locked(ROSTER, "2nd Foot", "45e Ligne")
    foot, ligne = (engine_unit(unit(locked_in, n), locked_in) for n in ("2nd Foot", "45e Ligne"))
    # 45e Ligne loses a phase 6 round and tests in phase 7 of this turn, not of the next.
    lost = resolve_melee(Side(foot), Side(ligne), 6,
                         ScriptedSource([4, 4, 4, *[1] * 5, 1, 1, 1, 1, 4, 5]))
    after, _ = apply_effects(lost.effects, locked_in)
    next_turn, changes = new_turn(after)
    assert next_turn.engaged("2nd Foot") is not None  # the melee goes on
    assert melee_loser(next_turn, "2nd Foot") is None
    assert reminders(next_turn, PHASES[6]) == []
    assert changes == []


def test_the_roster_says_what_changes_a_units_dice():
    from rules.le_baton.battle import unit_words

    assert unit_words({"arm": "cavalry", "horse": "light-dragoons", "quality": "veteran"}
                      ).described == ("cavalry", "light dragoons", "veteran")
    assert unit_words({"arm": "artillery", "guns": 9}).described == ("artillery", "9 lb")


def test_a_unit_shoots_once_a_turn():
    roster = Roster(ROSTER.units)
    volley = prepare("fire", {"shooter": "2nd Foot", "target": "45e Ligne"}, roster)(
        ScriptedSource.from_text("4 4 4 4 4 4"))
    after, changes = apply_effects(volley.effects, roster)
    assert unit(after, "2nd Foot").attr("fired") is True
    assert not describe_changes([c for c in changes if c.who == "2nd Foot"])  # nothing said
    with pytest.raises(NotAllowed, match="2nd Foot has shot this turn: a unit shoots once, in "
                                         r"its side's fire phase \(3\)"):
        prepare("fire", {"shooter": "2nd Foot", "target": "45e Ligne"}, after)(
            ScriptedSource.from_text("4 4 4 4 4 4"))
    # Another unit may; and the next turn, this one again.
    prepare("fire", {"shooter": "Battery", "target": "45e Ligne"}, after)(
        ScriptedSource.from_text("4 4"))
    next_turn, _ = new_turn(after)
    assert unit(next_turn, "2nd Foot").attr("fired") is False
    prepare("fire", {"shooter": "2nd Foot", "target": "45e Ligne"}, next_turn)(
        ScriptedSource.from_text("4 4 4 4 4 4"))


def test_a_battery_fires_once_in_phase_1_a_turn():
    # "Choose a target. ... Roll one die per crew figure."
    roster = Roster(ROSTER.units)
    guns = prepare("artillery-fire", {"battery": "Battery", "target": "45e Ligne"}, roster)(
        ScriptedSource.from_text("4 4 4 4"))
    after, changes = apply_effects(guns.effects, roster)
    assert unit(after, "Battery").attr("bombarded") is True
    assert not describe_changes([c for c in changes if c.who == "Battery"])  # nothing said
    with pytest.raises(NotAllowed, match="Battery has fired in phase 1 this turn: a battery "
                                         "chooses one target a turn"):
        prepare("artillery-fire", {"battery": "Battery", "target": "45e Ligne"}, after)(
            ScriptedSource.from_text("4 4 4 4"))
    # Its phase 3 volley is another matter; and the next turn, phase 1 again.
    prepare("fire", {"shooter": "Battery", "target": "45e Ligne"}, after)(
        ScriptedSource.from_text("4 4"))
    next_turn, _ = new_turn(after)
    assert unit(next_turn, "Battery").attr("bombarded") is False
    prepare("artillery-fire", {"battery": "Battery", "target": "45e Ligne"}, next_turn)(
        ScriptedSource.from_text("4 4 4 4"))


def test_a_unit_tests_its_morale_once_a_phase():
    # A second test of the same phase would be a roll until it passes.
    roster = Roster(ROSTER.units)
    test = prepare("morale", {"unit": "45e Ligne", "phase": 2}, roster)(
        ScriptedSource.from_text("6"))
    after, changes = apply_effects(test.effects, roster)
    assert unit(after, "45e Ligne").attr("tested") == "2"
    assert not describe_changes([c for c in changes if c.who == "45e Ligne"
                                 and c.field == "tested"])  # nothing said
    refused = "45e Ligne has tested its morale in phase 2 this turn"
    with pytest.raises(NotAllowed, match=refused):
        prepare("morale", {"unit": "45e Ligne", "phase": 2}, after)(
            ScriptedSource.from_text("1"))
    # Another phase's test is its own, and phase 2's is still remembered after it.
    phase_4 = prepare("morale", {"unit": "45e Ligne", "phase": 4}, after)(
        ScriptedSource.from_text("1"))
    after, _ = apply_effects(phase_4.effects, after)
    assert unit(after, "45e Ligne").attr("tested") == "2 4"
    with pytest.raises(NotAllowed, match=refused):
        prepare("morale", {"unit": "45e Ligne", "phase": 2}, after)(
            ScriptedSource.from_text("1"))
    # The next turn, phase 2 again.
    next_turn, _ = new_turn(after)
    assert unit(next_turn, "45e Ligne").attr("tested") is None
    prepare("morale", {"unit": "45e Ligne", "phase": 2}, next_turn)(
        ScriptedSource.from_text("1"))


def test_a_charges_closing_check_is_its_phase_4_test():
    # "4. French check morale for shooting casualties and to close for melee": one test.
    roster = Roster(ROSTER.units)
    charge = prepare("charge", {"charger": "45e Ligne", "target": "2nd Foot"}, roster)(
        ScriptedSource.from_text("1 1"))
    after, _ = apply_effects(charge.effects, roster)
    with pytest.raises(NotAllowed, match="45e Ligne has tested its morale in phase 4"):
        prepare("morale", {"unit": "45e Ligne", "phase": 4}, after)(
            ScriptedSource.from_text("1"))


def test_british_infantry_that_did_not_roll_its_6_tries_again_next_turn():
    roster = Roster(ROSTER.units)  # no general with 2nd Foot
    stays = prepare("charge", {"charger": "2nd Foot", "target": "45e Ligne"}, roster)(
        ScriptedSource.from_text("5"))
    assert stays.headline == "2nd Foot does not charge"
    after, _ = apply_effects(stays.effects, roster)
    with pytest.raises(NotAllowed, match="2nd Foot did not roll its 6 to charge this turn"):
        prepare("charge", {"charger": "2nd Foot", "target": "45e Ligne"}, after)(
            ScriptedSource.from_text("6 1 1"))
    next_turn, _ = new_turn(after)
    charges = prepare("charge", {"charger": "2nd Foot", "target": "45e Ligne",
                                 "choices": "form_square=stay"}, next_turn)(
        ScriptedSource.from_text("6 1 1"))
    assert charges.headline == "45e Ligne stands: the charge stops 2\" short"


def test_only_a_unit_this_move_hit_is_destroyed_at_no_figures():
    # A unit at 0 figures kept from before (an old battle, an import) is left alone by a move
    # that does not touch it.
    kept = Roster((*ROSTER.units[:4], RosterUnit("Battery", "British",
                                                  british("artillery", guns=9), strength=0)))
    after, _ = apply(Effect(E.CASUALTIES, "45e Ligne", 1), roster=kept)
    assert not unit(after, "Battery").gone


def test_no_fight_is_made_with_a_unit_destroyed_in_the_same_move():
    after, changes = apply(Effect(E.CASUALTIES, "45e Ligne", 9),
                           Effect(E.FIREFIGHT, "2nd Foot", value="45e Ligne"),
                           Effect(E.FIREFIGHT, "45e Ligne", value="2nd Foot"))
    assert unit(after, "45e Ligne").gone and after.engagements == ()
    assert not any(c.kind == "engagement" for c in changes)


def test_last_turns_markers_end_for_a_unit_out_of_the_battle_unsaid():
    gone = RosterUnit("Buffs", "British", british("infantry", formation="line", halted=True,
                                                  recall_failed=True, fired=True,
                                                  charge_failed=True,
                                                  charged_by_infantry="45e Ligne"),
                      strength=4, status=GONE, gone_reason="routed")
    after, changes = new_turn(Roster((gone,)))
    buffs = unit(after, "Buffs")
    assert [buffs.attr(m) for m in ("halted", "recall_failed", "fired", "charge_failed",
                                    "charged_by_infantry")] == [False, False, False, False, None]
    assert changes == []  # the roster changed, and nobody is told


def test_the_roster_shows_the_turns_volley_and_failed_6():
    from rules.le_baton.battle import unit_words

    said = unit_words(british("infantry", formation="line", fired=True, charge_failed=True))
    assert said.markers == ("has fired this turn", "failed its 6 this turn")


def test_a_loser_in_two_melees_is_reminded_once_with_both_winners():
    both = locked(locked(ROSTER, "2nd Foot", "45e Ligne"), "2nd Foot", "Lancers")
    after, _ = apply(Effect(E.MELEE_LOST, "2nd Foot", value=12), roster=both)
    assert reminders(after, PHASES[11]) == [
        '2nd Foot lost its melee with 45e Ligne and Lancers: it tests morale now '
        '(`/morale le-baton unit:"2nd Foot" phase:12`).']
