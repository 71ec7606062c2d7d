"""commands.prepare: quick lookups written as text or JSON, and battles naming roster units."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from rules.core.decisions import Undecided
from rules.core.dice import ScriptedSource
from rules.core.engagements import Engagement
from rules.core.errors import InvalidInput, NotAllowed
from rules.core.roster import Roster, RosterGeneral, RosterUnit, engage
from rules.le_baton import RULESET_ENTRY
from rules.le_baton.battle import MELEE, apply_effects
from rules.le_baton.commands import PROCEDURES, REQUEST_KEYS, prepare
from rules.le_baton.effects import EffectKind as E
from rules.registry import resolve

from .helpers import effects, values


def play(procedure: str, options: dict, dice: str, roster: Roster | None = None):
    source = ScriptedSource.from_text(dice)
    result = prepare(procedure, options, roster)(source)
    source.finish()
    return result


def attrs(nation: str, arm: str, **more) -> dict:
    return {"nation": nation, "arm": arm, **more}


ROSTER = Roster(
    units=(
        RosterUnit("2nd Foot", "British", attrs("british", "infantry", formation="square",
                                                casualties=3), strength=12),
        RosterUnit("Rifles", "British", attrs("british", "infantry", formation="skirmish"),
                   strength=6),
        RosterUnit("45e Ligne", "French", attrs("french", "infantry", formation="column"),
                   strength=9),
        RosterUnit("Voltigeurs", "French", attrs("french", "infantry", formation="line"),
                   strength=4),
        RosterUnit("Lancers", "French", attrs("french", "cavalry", horse="lancers",
                                              charge_marker=True), strength=6),
        RosterUnit("Battery", "British", attrs("british", "artillery", guns=12), strength=4),
        RosterUnit("Guards", "British", attrs("british", "infantry", formation="line"),
                   strength=3),
        RosterUnit("Grande Batterie", "French", attrs("french", "artillery", guns=12),
                   strength=4),
    ),
    generals=(RosterGeneral("Picton", "British", unit="Guards"),),
)


# --- quick lookups -------------------------------------------------------------------------


def test_quick_fire_reads_units_from_text():
    result = play("fire", {"shooter": "2nd Foot: british inf veteran line figures=4",
                           "target": "45e Ligne", "target_type": "column", "distance": "3"},
                  "4 3")
    assert effects(result) == [(E.CASUALTIES, "45e Ligne", 1)]


def test_quick_fire_needs_the_target_type():
    with pytest.raises(InvalidInput, match="Say what 45e Ligne is to the shooter with "
                                           "`target_type`."):
        play("fire", {"shooter": "2nd Foot: british inf figures=4", "target": "45e Ligne"}, "")


def test_quick_fire_refuses_an_unknown_target_type():
    with pytest.raises(InvalidInput, match="`wedge` is not a valid target type"):
        play("fire", {"shooter": "2nd Foot: british inf figures=4", "target": "X",
                      "target_type": "wedge"}, "")


@pytest.mark.parametrize(("procedure", "shooter"), [
    ("fire", {"shooter": "2nd Foot: british inf figures=4"}),
    ("artillery-fire", {"battery": "RHA: british art figures=2"}),
])
def test_fire_needs_a_target(procedure, shooter):
    with pytest.raises(InvalidInput, match="Say which unit is shot at with `target`."):
        play(procedure, {**shooter, "target_type": "line"}, "")
    with pytest.raises(InvalidInput, match="Say which unit is shot at with `target`."):
        play(procedure, {**shooter, "target": " ", "target_type": "line"}, "")


def test_quick_artillery_with_a_unit_behind_on_level_ground():
    result = play("artillery-fire", {
        "battery": "RHA: british art guns=12 figures=2", "target": "45e Ligne",
        "target_type": "column", "range": "long", "behind": "Garde", "behind_type": "line",
        "level_ground": True}, "4 6")
    # +1 for 12 lbs, −1 long range: the dice read as rolled.
    assert effects(result) == [(E.CASUALTIES, "45e Ligne", 2), (E.CASUALTIES, "Garde", 1)]


def test_quick_artillery_range_defaults_to_normal():
    result = play("artillery-fire", {"battery": "RHA: british art figures=1",
                                     "target": "45e Ligne", "target_type": "line"}, "5")
    assert result.steps[0].rolls[0].modifiers == ()


def test_quick_morale_takes_the_situation_from_options():
    result = play("morale", {"unit": "2nd Foot: british inf line figures=12 casualties=3",
                             "phase": "5", "charged_by": "cavalry", "opponent": "Lancers",
                             "flank_or_rear": True}, "3")
    assert result.steps[0].rolls[0].target == ("3 or less (veteran 5 −1 for 3 casualties (−1 per "
                                               "3) −1 charged in flank/rear)")
    assert result.headline == "2nd Foot stands and forms square"


def test_quick_morale_needs_a_phase():
    with pytest.raises(InvalidInput, match="Say which phase the check is for."):
        play("morale", {"unit": "2nd Foot: british inf"}, "")


def test_quick_recall_reads_initiated_charge_from_the_charge_marker():
    result = play("recall", {"unit": "Lancers: french cav lancers figures=6 charge_marker"},
                  "1")
    assert result.headline == "Lancers is recalled to its start"
    result = play("recall", {"unit": "Lancers: french cav figures=6 charge_marker",
                             "initiated_charge": False}, "1")
    assert result.headline == "Lancers is recalled and remains in place"


def test_quick_charge_with_situation_flags():
    result = play("charge", {"charger": "2nd Foot: british inf line figures=12",
                             "target": "Voltigeurs: french inf line figures=4",
                             "target_defensive_terrain": True}, "1 6")
    assert result.headline == "2nd Foot contacts Voltigeurs: melee in phase 11"


def test_quick_melee_reads_situation_words_on_each_side():
    result = play("melee", {"phase": "11",
                            "attacker": "Guards: british inf elite figures=2",
                            "defender": "Voltigeurs: french inf line figures=2 "
                                        "defensive-terrain"}, "4 5 6")
    guards, voltigeurs = result.steps[0].rolls
    assert [m.reason for m in guards.modifiers] == ["enemy in defensive terrain"]
    assert (guards.hits, voltigeurs.hits) == (1, 1)


def test_quick_melee_defaults_to_phase_6():
    result = play("melee", {"attacker": "Hussars: british cav figures=2",
                            "defender": "Lancers: french cav lancers figures=2"}, "5 1")
    assert result.steps[0].title == "Phase 6: melee"


def test_quick_melee_square_and_units_contacted():
    result = play("melee", {"attacker": "Lancers: french cav figures=6 contacted=2",
                            "defender": "2nd Foot: british inf square figures=12"}, "4 4")
    assert effects(result)[0] == (E.CASUALTIES, "Lancers", 2)


def test_units_contacted_are_counted_on_the_cavalry_not_the_square():
    with pytest.raises(InvalidInput, match="defender: `contacted=` counts the infantry units "
                                           "cavalry passes through, and 2nd Foot is not "
                                           "cavalry."):
        play("melee", {"attacker": "Lancers: french cav figures=6",
                       "defender": "2nd Foot: british inf square figures=12 contacted=2"}, "4")


@pytest.mark.parametrize(("option", "phase", "said"), [
    ({"flank_or_rear": True}, 2, "`flank_or_rear` counts in phases 5 or 10, not in phase 2."),
    ({"charged_by": "cavalry"}, 4, "`charged_by` counts in phases 5 or 10, not in phase 4."),
    ({"charging": True}, 5, "`charging` counts in phases 4 or 9, not in phase 5."),
    ({"initiated_charge": True}, 10,
     "`initiated_charge` counts in phases 7, 12 or 13, not in phase 10. Drop "
     "`initiated_charge`, or test the unit in phase 7 or 12, or roll its recall "
     "(`/recall le-baton`)."),
])
def test_an_option_the_phases_check_does_not_read_is_refused(option, phase, said):
    with pytest.raises(InvalidInput, match=re.escape(said)):
        play("morale", {"unit": "4e Léger: french inf column", "phase": phase, **option}, "1")


def test_quick_melee_cannot_name_a_supporting_unit():
    with pytest.raises(InvalidInput, match="defender: in a quick lookup, describe the "
                                           "supporting unit itself as this side instead."):
        play("melee", {"attacker": "L: french cav figures=6",
                       "defender": "B: british art figures=4 supported_by=Guards"}, "")


def test_quick_lookup_needs_nation_and_arm():
    with pytest.raises(InvalidInput, match="shooter: say 2nd Foot's arm. Add infantry, "
                                           "cavalry or artillery."):
        play("fire", {"shooter": "2nd Foot: british", "target": "X", "target_type": "line"},
             "")
    with pytest.raises(InvalidInput, match="`unit` needs a unit."):
        play("morale", {"unit": " ", "phase": 2}, "")


def test_json_units_need_a_name():
    result = play("fire", {"shooter": {"name": "2nd Foot", "nation": "british",
                                       "arm": "infantry", "figures": 2},
                           "target": "X", "target_type": "square"}, "4")
    assert effects(result) == [(E.CASUALTIES, "X", 1)]
    with pytest.raises(InvalidInput, match="shooter: every unit needs a `name`."):
        play("fire", {"shooter": {"nation": "british", "arm": "infantry"}, "target": "X",
                      "target_type": "square"}, "")


# --- in a battle ---------------------------------------------------------------------------


def test_roster_units_by_name_with_casualties_from_the_roster():
    result = play("morale", {"unit": "2nd foot", "phase": 2}, "4", ROSTER)
    assert result.steps[0].rolls[0].target == "4 or less (veteran 5 −1 for 3 casualties (−1 per 3))"


def test_a_general_attached_comes_from_the_roster():
    lost = Engagement("melee", (("45e Ligne",), ("Guards",)), {"lost": "Guards", "test": 7})
    result = play("morale", {"unit": "Guards", "phase": 7}, "6",
                  replace(ROSTER, engagements=(lost,)))
    assert result.steps[0].rolls[0].target == "6 or less (veteran 5 +1 general attached to unit)"


@pytest.mark.parametrize(("target", "row"), [
    ("45e Ligne", "4+ (column)"),
    ("Voltigeurs", "5+ (line)"),
])
def test_the_target_type_is_read_from_the_formation(target, row):
    result = play("fire", {"shooter": "Guards", "target": target}, "1", ROSTER)
    assert result.steps[0].rolls[0].target == row


def test_skirmishers_and_artillery_have_their_own_rows():
    result = play("fire", {"shooter": "Voltigeurs", "target": "Rifles"}, "1 1", ROSTER)
    assert result.steps[0].rolls[0].target == "6+ (skirmishers)"
    result = play("fire", {"shooter": "Voltigeurs", "target": "Battery"}, "1 1", ROSTER)
    assert result.steps[0].rolls[0].target == "5+ (artillery)"
    result = play("artillery-fire", {"battery": "Grande Batterie", "target": "Rifles",
                                     "behind": "2nd Foot", "level_ground": True},
                  "6 5 4 3", ROSTER)
    assert [r.target for r in result.steps[0].rolls] == ["6+ (skirmishers)", "4+ (square)"]
    assert [r.hits for r in result.steps[0].rolls] == [2, 4]


@pytest.mark.parametrize(("procedure", "options", "said"), [
    ("fire", {"shooter": "Guards", "target": "Rifles"}, "Guards and Rifles are on the same side"),
    ("fire", {"shooter": "Guards", "target": "guards", "target_type": "line"},
     "Guards cannot fire at itself"),
    ("artillery-fire", {"battery": "Battery", "target": "Rifles"},
     "Battery and Rifles are on the same side"),
])
def test_fire_is_at_the_enemy_only(procedure, options, said):
    with pytest.raises(NotAllowed, match=said):
        play(procedure, options, "", ROSTER)


def test_the_unit_12_inches_behind_is_any_unit_a_friendly_one_too():
    # "also hitting any unit 12\" behind that target": the French line behind the British
    # skirmishers takes the same dice, read against its own row (5+).
    result = play("artillery-fire", {"battery": "Grande Batterie", "target": "Rifles",
                                     "behind": "Voltigeurs", "level_ground": True},
                  "6 5 4 3", ROSTER)
    assert [(r.label, r.hits) for r in result.steps[0].rolls] == [
        ("Grande Batterie → Rifles", 2), ("Grande Batterie → Voltigeurs", 3)]
    with pytest.raises(NotAllowed, match="Grande Batterie cannot fire at itself"):
        play("artillery-fire", {"battery": "Grande Batterie", "target": "Rifles",
                                "behind": "Grande Batterie", "level_ground": True}, "", ROSTER)


def test_the_unit_behind_the_artillerys_target_is_another():
    with pytest.raises(InvalidInput, match="Rifles is the target: the unit 12\" behind it is "
                                           "another"):
        play("artillery-fire", {"battery": "Grande Batterie", "target": "Rifles",
                                "behind": "rifles", "level_ground": True}, "", ROSTER)


def test_a_quick_lookup_may_not_fire_a_unit_at_itself():
    with pytest.raises(NotAllowed, match="2nd Foot cannot fire at itself"):
        play("fire", {"shooter": "2nd Foot: british inf figures=4", "target": "2nd foot",
                      "target_type": "line"}, "")


@pytest.mark.parametrize("shooter", ["Guards", "Lancers"])
def test_a_battle_unit_fired_at_itself_is_told_so_first(shooter):
    # Not "say what it is to the shooter", nor "it has shot this turn".
    with pytest.raises(NotAllowed, match=f"^{shooter} cannot fire at itself.$"):
        play("fire", {"shooter": shooter, "target": shooter.upper()}, "", ROSTER)


def test_a_given_target_type_overrides_the_roster():
    result = play("fire", {"shooter": "Guards", "target": "Voltigeurs",
                           "target_type": "enfiladed-line"}, "4", ROSTER)
    assert result.steps[0].rolls[0].target == "4+ (enfiladed line)"


def test_cavalry_targets_need_a_target_type():
    with pytest.raises(InvalidInput, match="Say what Lancers is to the shooter with "
                                           "`target_type`."):
        play("fire", {"shooter": "Guards", "target": "Lancers"}, "", ROSTER)


def test_a_unit_behind_the_artillerys_target_is_given_its_row_with_behind_type():
    # The unit 12" behind has its own option for what it is: the hint names that one.
    with pytest.raises(InvalidInput, match="Say what Lancers is to the shooter with "
                                           "`behind_type`."):
        play("artillery-fire", {"battery": "Battery", "target": "45e Ligne",
                                "behind": "Lancers", "level_ground": True}, "", ROSTER)
    with pytest.raises(InvalidInput, match="`behind_type`"):
        play("artillery-fire", {"battery": "Battery: british art figures=4",
                                "target": "45e Ligne", "target_type": "column",
                                "behind": "Garde", "level_ground": True}, "")


def test_the_charge_marker_in_the_roster_means_it_initiated_the_charge():
    result = play("recall", {"unit": "Lancers"}, "5", ROSTER)
    assert result.headline == "Lancers is recalled to its start"


def test_cavalry_that_passed_through_a_square_makes_no_new_contact():
    # "Cavalry pass through full movement distance": its charge's move is spent.
    in_contact = engage(ROSTER, MELEE, ["Lancers"], ["2nd Foot"])
    passed = play("melee", {"phase": 6,
                            "attacker": "Lancers", "defender": "2nd Foot"}, "4", in_contact)
    after, _ = apply_effects(passed.effects, in_contact)
    # Nor does infantry make contact with it: "Infantry cannot charge cavalry".
    for attacker, defender in (("Lancers", "2nd Foot"), ("2nd Foot", "Lancers"),
                               ("Lancers", "Guards"), ("Guards", "Lancers"),
                               ("Guards: fortification", "Lancers")):
        with pytest.raises(NotAllowed, match="Lancers passed through a square this turn: that "
                                             "took its full movement distance"):
            play("melee", {"phase": 6, "attacker": attacker, "defender": defender}, "4", after)
    # Another unit may still charge it: held cavalry "may fight if charged".
    charged = play("melee", {"phase": 6,
                             "attacker": "Hussars", "defender": "Lancers"}, "5 5 1  1 1",
                   replace(after, units=(*after.units, HUSSARS)))
    assert charged.headline == "Hussars wins the melee (2–0): Lancers tests in phase 7"


def test_a_square_passed_through_stays_in_its_other_melee():
    board = engage(engage(ROSTER, MELEE, ["Lancers"], ["2nd Foot"]), MELEE, ["45e Ligne"],
                   ["2nd Foot"])
    passed = play("melee", {"phase": 6, "attacker": "Lancers", "defender": "2nd Foot"}, "4", board)
    after, _ = apply_effects(passed.effects, board)
    assert [e.sides for e in after.engagements] == [(("45e Ligne",), ("2nd Foot",))]


def test_a_unit_that_does_not_test_to_stand_is_told_so_before_the_charger_is_asked():
    with pytest.raises(NotAllowed, match="Lancers is cavalry"):
        play("morale", {"unit": "Lancers", "phase": 10, "charged_by": "cavalry"}, "1", ROSTER)


def test_a_stand_check_against_a_charge_in_a_battle_names_the_charger():
    with pytest.raises(InvalidInput, match="Name the unit charging 2nd Foot with `opponent:`"):
        play("morale", {"unit": "2nd Foot", "phase": 5, "charged_by": "cavalry"}, "1", ROSTER)
    stood = play("morale", {"unit": "Guards", "phase": 5, "charged_by": "cavalry",
                            "opponent": "Lancers"}, "1", ROSTER)
    assert (E.IN_MELEE, "Guards", "Lancers") in values(stood)


def test_cavalry_that_rode_a_unit_down_charges_on_into_a_square():
    # "Charging cavalry make a full move, fighting every unit contacted": a charge marker and
    # no melee (its last opponent destroyed), it may still contact a square.
    result = play("melee", {"phase": 6, "attacker": "Lancers", "defender": "2nd Foot"}, "4", ROSTER)
    assert result.headline == "Lancers passes through 2nd Foot: 1 casualty"


def test_melee_situation_words_follow_the_roster_name():
    result = play("melee", {"phase": 6,
                            "attacker": "Voltigeurs", "defender": "Guards: defensive-terrain"},
                  "4 5 1 1", ROSTER)
    voltigeurs, _ = result.steps[0].rolls
    assert [m.reason for m in voltigeurs.modifiers] == ["enemy in defensive terrain"]


def test_supporting_unit_named_from_the_roster_fights_instead():
    result = play("melee", {"phase": 6, "attacker": "Lancers",
                            "defender": 'Battery: supported_by="2nd Foot"'}, "4", ROSTER)
    assert result.steps[0].outcome.startswith("2nd Foot, 2\" behind or beside Battery")
    assert result.headline == "Lancers passes through 2nd Foot: 1 casualty"


def test_unit_description_words_are_refused_in_a_battle():
    with pytest.raises(InvalidInput) as error:
        play("melee", {"attacker": "Voltigeurs: elite", "defender": "Guards"}, "", ROSTER)
    assert str(error.value) == (
        "attacker: `elite` describes the unit itself, and in a battle the roster says what "
        "Voltigeurs is. Change it with `/unit edit unit:Voltigeurs`, or drop the word.")


def test_situation_words_are_only_for_melees():
    with pytest.raises(InvalidInput) as error:
        play("fire", {"shooter": "Guards: defensive-terrain", "target": "45e Ligne"}, "",
             ROSTER)
    assert str(error.value) == ("shooter: nothing goes after Guards' name here "
                                "(`defensive-terrain`). The battle's roster gives the unit's "
                                "words (`/unit edit` changes them); a fight's situation goes in "
                                "the command's own options, where it has them.")


def test_unknown_units_are_refused_with_a_suggestion():
    with pytest.raises(InvalidInput, match="There is no unit called `Gards` in this battle. "
                                           "Did you mean `Guards`?"):
        play("morale", {"unit": "Gards", "phase": 2}, "", ROSTER)


# --- the rule set entry ---------------------------------------------------------------------


def test_every_procedure_is_registered_with_its_request_keys():
    assert set(RULESET_ENTRY.procedures) == set(PROCEDURES) == set(REQUEST_KEYS)
    assert RULESET_ENTRY.procedures["recall"].keys == ("unit", "initiated_charge")


def test_a_json_request_resolves_through_the_registry():
    result = resolve({"ruleset": "le-baton", "procedure": "recall", "dice": "6",
                      "unit": {"name": "Lancers", "nation": "french", "arm": "cavalry",
                               "quality": "conscript", "charge_marker": True}})
    assert result.headline == "Lancers fails recall: 1 casualty, held"
    said = [e["text"] for e in result.to_dict()["effects"] if e["text"]]
    assert said[0] == "Lancers takes 1 casualty"


def test_in_a_battle_the_melee_names_the_opponent_a_losing_unit_leaves_its_choice_to():
    board = replace(ROSTER, engagements=(Engagement("melee", (("45e Ligne",), ("Guards",))),))
    with pytest.raises(Undecided) as asked:
        play("morale", {"unit": "45e Ligne", "phase": 7}, "6", board)
    question = asked.value.question
    assert (question.key, question.unit, question.by) == (
        "free_formation_change", "Guards", "opponent")
    # Without a melee on the roster there is no loser to test.
    with pytest.raises(NotAllowed, match="45e Ligne is in no melee on the roster: only a "
                                         "unit that lost one tests in phase 7."):
        play("morale", {"unit": "45e Ligne", "phase": 7}, "6", ROSTER)


def test_the_opponent_is_a_name_not_a_unit_with_words():
    with pytest.raises(InvalidInput, match="`opponent` is the unit's name only") as refused:
        play("morale", {"unit": "A: french inf veteran column", "phase": 7,
                        "opponent": "B: british inf veteran line"}, "6")
    assert refused.value.hint == 'e.g. `opponent:"B"`.'


@pytest.mark.parametrize(("target", "refusal"), [
    ("4e Léger: french inf", "`target` is the unit's name only"),
    ("X" * 65, "A unit name must be 1 to 64 characters."),
])
def test_a_quick_lookups_target_is_a_name(target, refusal):
    with pytest.raises(InvalidInput, match=refusal):
        play("fire", {"shooter": "52nd: british inf figures=8", "target": target,
                      "target_type": "column"}, "1 1 1 1")


@pytest.mark.parametrize("phase", [7, 12])
def test_cavalry_losing_a_melee_after_its_own_charge_is_told_its_recall(phase):
    # Phase 12: "Cavalry remains in place and will roll for recall in phase 13 if it
    # initiated a charge this turn."
    result = play("morale", {"unit": "Hussars: british cav", "phase": phase,
                             "initiated_charge": True}, "6")
    assert result.headline.endswith("remains in place; recall in phase 13"), result.headline


HUSSARS = RosterUnit("Hussars", "British", attrs("british", "cavalry", horse="hussars"),
                     strength=6)
CUIRASSIERS = RosterUnit("Cuirassiers", "French", attrs("french", "cavalry",
                                                        horse="cuirassiers"), strength=6)


def test_enemy_cavalry_in_melee_with_another_unit_is_contacted_already():
    # "Enemy cavalry may only be contacted by one French unit": the roster says who has.
    board = replace(ROSTER, units=(*ROSTER.units, HUSSARS, CUIRASSIERS))
    fighting = engage(board, MELEE, ["Lancers"], ["Hussars"])
    with pytest.raises(NotAllowed, match="Hussars is already contacted: enemy cavalry may "
                                         "only be contacted by one unit."):
        play("charge", {"charger": "Cuirassiers", "target": "Hussars"}, "3 4", fighting)
    free = play("charge", {"charger": "Cuirassiers", "target": "Hussars"}, "3 4", board)
    assert free.headline == "Cuirassiers contacts Hussars: melee in phase 6"


def test_units_that_tied_their_last_round_do_not_test_for_losing_it():
    # "Unit loses if it receives more casualties than it inflicts"; "Infantry units that tie
    # continue to fight".
    fighting = engage(ROSTER, MELEE, ["45e Ligne"], ["Guards"])
    # 45e Ligne's 6 dice (2 per 3 of 9): 1 hit; the Guards' 2 (2 per 3 of 3): 1 hit.
    round_ = play("melee", {"phase": 6, "attacker": "45e Ligne", "defender": "Guards"},
                  "4 1 1 1 1 1  4 1", fighting)
    assert round_.headline == ("45e Ligne and Guards tie their melee, 1 all: they fight on in "
                               "phase 11")
    tied, _ = apply_effects(round_.effects, fighting)
    for unit in ("45e Ligne", "Guards"):
        with pytest.raises(NotAllowed) as refused:
            play("morale", {"unit": unit, "phase": 7}, "6", tied)
        other = "Guards" if unit == "45e Ligne" else "45e Ligne"
        assert str(refused.value).startswith(f"{unit} tied its last round with {other}: "
                                             "nobody lost it, so nobody tests in phase 7.")
    # The next round, lost, names its loser again.
    lost = play("melee", {"phase": 6,
                          "attacker": "45e Ligne", "defender": "Guards"}, "4 1 1 1 1  1", tied)
    after, _ = apply_effects(lost.effects, tied)
    assert play("morale", {"unit": "Guards", "phase": 7}, "1", after).headline


def test_infantry_unable_to_form_line_after_losing_a_melee_takes_d6_casualties():
    # Phases 7 and 12: "If a unit is unable to form line when required, it takes d6
    # casualties."
    result = play("morale", {"unit": "Ligne: french inf veteran column figures=12",
                             "phase": 12, "cannot_form_line": True}, "6 3")
    assert (E.CASUALTIES, "Ligne", 3) in effects(result)


@pytest.mark.parametrize(("defender", "refusal"), [
    ('Battery: supported_by="45e Ligne"', "45e Ligne is French and Battery British: only a "
                                          "friendly unit supports artillery."),
    ('Guards: supported_by="2nd Foot"', "defender: `supported_by` names the unit that fights "
                                        "for artillery, and Guards is infantry."),
    ('Battery: supported_by="Battery"', "defender: artillery is supported by infantry or "
                                        "cavalry 2\" behind or beside it, not by Battery."),
])
def test_only_a_friendly_unit_supports_artillery(defender, refusal):
    # "Artillery: Supported by a unit 2" behind or beside it. The supporting unit fights
    # instead of the Artillery."
    with pytest.raises((NotAllowed, InvalidInput)) as refused:
        play("melee", {"attacker": "Voltigeurs", "defender": defender}, "4", ROSTER)
    assert str(refused.value).startswith(refusal)
