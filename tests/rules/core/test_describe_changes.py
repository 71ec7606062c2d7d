"""Roster changes read as sentences a player would write: never a field name, None or True."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.core.engagements import Engagement, EngagementWords, declare_engagement_words
from rules.core.errors import InvalidInput
from rules.core.records import Effect
from rules.core.roster import (
    Change,
    Phrase,
    Roster,
    RosterGeneral,
    RosterUnit,
    Wording,
    describe_changes,
    engagement_changes,
    general_changes,
    take_strength,
    unit_changes,
)
from rules.le_baton.battle import apply_effects as lb_effects
from rules.le_baton.effects import EffectKind
from rules.registry import RULESETS


def unit(who: str, field: str, before, after) -> Change:
    return Change(who, "unit", field, before, after)


def test_a_destroyed_unit_is_one_sentence():
    changes = [unit("La Sarre", "status", "active", "gone"),
               unit("La Sarre", "gone_reason", None, "destroyed")]
    assert describe_changes(changes) == ["La Sarre is destroyed"]


def test_le_baton_markers_and_engagements_read_as_players_say_them():
    changes = [Change("Melee: La Sarre against 42nd Highlanders", "engagement", "melee",
                      None, "active"),
               unit("Hussars", "charge_marker", True, False),
               Change("Melee: 4e Léger against 52nd", "engagement", "melee", "active", None),
               unit("4e Léger", "fought", True, None)]
    assert describe_changes(changes, "figures") == [
        "Melee: La Sarre against 42nd Highlanders begins",
        "Hussars has its charge marker removed",
        "Melee: 4e Léger against 52nd ends",
    ]


def test_losses_and_several_changes_make_one_sentence_per_unit():
    changes = [unit("4e Léger", "strength", 12, 11), unit("4e Léger", "casualties", None, 1),
               unit("4e Léger", "formation", "line", "skirmish")]
    assert describe_changes(changes, "figures") == [
        "4e Léger loses 1 figure (now 11), has 1 casualty in all and is now in skirmish order"]
    assert describe_changes([unit("2nd Foot", "strength", 4, 2),
                             unit("2nd Foot", "routing", None, True)]) == [
        "2nd Foot loses 2 SP (now 2) and is routing"]


def test_fire_at_will_words_and_unit_columns():
    before = RosterUnit("Rangers", "British", {"arm": "infantry", "regular": True}, 3)
    after = RosterUnit("Rangers", "French", {"arm": "cavalry", "morale": 4}, 5,
                       commander="Montcalm")
    faw = RULESETS["fire-at-will"].battle.wording
    assert describe_changes(unit_changes(before, after), faw) == [
        "Rangers is now on the French side, gains 2 SP (now 5), is now commanded by Montcalm, "
        "is now cavalry, now has basic morale 4 and no longer counts as regulars"]
    # La Bataille's morale is the printed one, not Fire at Will's basic morale.
    lb = RULESETS["labataille"].battle.wording
    assert describe_changes([unit("52nd", "morale", 41, 44)], lb) == ["52nd now has morale 44"]


def test_generals_and_restored_units():
    before = RosterGeneral("Wolfe", "British", "2nd Foot", 0)
    after = RosterGeneral("Wolfe", "British", None, 1, "killed")
    assert describe_changes(general_changes(before, after)) == [
        "Wolfe has left 2nd Foot, is wounded (1 wound) and is killed"]
    back = [unit("Hussars", "status", "gone", "active"),
            unit("Hussars", "gone_reason", "routed", None)]
    assert describe_changes(back) == ["Hussars is back in the battle"]


def test_a_field_no_rule_set_phrases_still_reads_plainly():
    changes = [unit("X", "square_formed", None, True), unit("X", "ammunition_left", 3, None),
               unit("X", "spirit_level", None, 2)]
    (line,) = describe_changes(changes)
    assert line == ("X is now square formed, has its ammunition left cleared and now has "
                    "spirit level 2")
    assert "_" not in line and "None" not in line and "True" not in line


def test_every_effect_of_a_le_baton_melee_reads_without_field_names():
    roster = Roster((RosterUnit("28e Ligne", "French", {"nation": "french", "arm": "infantry"},
                                12),
                     RosterUnit("Buffs", "British", {"nation": "british", "arm": "infantry"},
                                8),
                     RosterUnit("Rifles", "British", {"nation": "british", "arm": "infantry"},
                                4)))
    _, changes = lb_effects([Effect(EffectKind.IN_MELEE, "28e Ligne", value="Buffs"),
                             Effect(EffectKind.CASUALTIES, "Rifles", 2),
                             Effect(EffectKind.REMOVED, "Rifles")], roster)
    assert describe_changes(changes, "figures") == [
        "Rifles loses 2 figures (now 2), is destroyed and has 2 casualties in all",
        "Melee: 28e Ligne against Buffs begins",
    ]


def test_two_rule_sets_may_phrase_one_field_each_its_own_way():
    change = [unit("X", "arm", None, "other")]
    mine = Wording(phrases={"arm": Phrase("becomes {value}")})
    assert describe_changes(change, mine) == ["X becomes other"]
    assert describe_changes(change, RULESETS["fire-at-will"].battle.wording) == [
        "X is now neither foot, horse nor guns"]


def test_a_rule_set_says_its_own_reasons_for_leaving_the_battle():
    gone = [unit("Black Watch", "status", "active", "gone"),
            unit("Black Watch", "gone_reason", None, "eliminated")]
    assert describe_changes(gone, RULESETS["tricorne"].battle.wording) == [
        "Black Watch is eliminated"]
    assert describe_changes(gone, Wording("SP")) == [
        "Black Watch is out of the battle (eliminated)"]
    mine = Wording(gone_reasons={"destroyed": "is cut to pieces"})
    assert describe_changes([unit("X", "status", "active", "gone"),
                             unit("X", "gone_reason", None, "destroyed")], mine) == [
        "X is cut to pieces"]


def test_the_strength_word_is_taken_out_of_the_words():
    assert take_strength("british inf FIGURES=12 line", "figures", "words") == (
        "british inf line", 12)
    assert take_strength("inf regular sp=4", "SP", "words") == ("inf regular", 4)
    assert take_strength("inf regular", "SP", "words") == ("inf regular", None)
    assert take_strength("sp=4 sp=4", "SP", "words") == ("", 4)
    with pytest.raises(InvalidInput, match="given twice"):
        take_strength("sp=4 sp=5", "SP", "words")
    # Past any strength: the bound told is the rule set's (60 figures), else the bot's.
    with pytest.raises(InvalidInput) as refused:
        take_strength("figures=1000", "figures", "words", most=60)
    assert str(refused.value) == ("words: `figures=1000` is more than any unit's strength. "
                                  "It must be at most 60.")
    with pytest.raises(InvalidInput) as refused:
        take_strength("figures=1000", "figures", "words")
    assert str(refused.value).endswith("It must be at most 999.")


@pytest.mark.parametrize(("words", "said"), [
    ("sp=-1", "`sp=-1`: a strength cannot be below 0."),
    ("sp=" + "9" * 30, "`sp=999999999999999…` is more than any unit's strength."),
    ("sp=" + "9" * 5000, "`sp=999999999999999…` is more than any unit's strength."),
    ("sp=00004", None),
    ("sp=lots", "`sp=lots` is not a strength."),
])
def test_a_strength_out_of_range_says_which_way(words, said):
    """A whole number is not refused as if it were none: below 0 or past any strength, the
    refusal says so; a long one is cut with an ellipsis; one of thousands of digits too."""
    if said is None:
        assert take_strength(words, "SP", "words") == ("", 4)
        return
    with pytest.raises(InvalidInput) as refused:
        take_strength(words, "SP", "words")
    assert refused.value.message == f"words: {said}"


def test_a_kind_of_engagement_may_have_its_own_words():
    declare_engagement_words("vigil-test", {"vigil": EngagementWords(
        lambda e: f"{e.sides[1][0]} watches {e.sides[0][0]}", "is kept", "is over")})
    vigil = Engagement("vigil", (("Hussars",), ("2nd Foot",)))
    assert vigil.label == "2nd Foot watches Hussars"
    assert describe_changes([Change(vigil.label, "engagement", "vigil", None, "active"),
                             Change(vigil.label, "engagement", "vigil", "active", None)]) == [
        "2nd Foot watches Hussars is kept", "2nd Foot watches Hussars is over"]
    # Another rule set words the same kind its own way: each battle reads its own, and a
    # change read outside any battle falls back to the plain words.
    starts = {"vigil": EngagementWords(None, "starts", "stops")}
    declare_engagement_words("other-vigil-test", starts)
    assert describe_changes([Change(vigil.label_in(starts), "engagement", "vigil", None,
                                    "active")], Wording(engagements=starts)) == [
        "Vigil: Hussars against 2nd Foot starts"]
    assert vigil.label == "Vigil: Hussars against 2nd Foot"


def engaged(*engagements: Engagement) -> Roster:
    return Roster(engagements=engagements)


def test_units_that_leave_an_engagement_that_goes_on_are_said_to_leave_it():
    """A unit out of a melee of several: the others fight on, and "begins" would read as a
    new melee (in some rule sets a new one brings back what the first had spent)."""
    melee = Engagement("melee", (("1/45e", "2/45e"), ("52nd", "95th")))
    on = Engagement("melee", (("1/45e",), ("52nd", "95th")))
    assert engagement_changes(engaged(melee), engaged(on)) == [
        Change("Melee: 1/45e against 52nd and 95th", "engagement", "melee", ("2/45e",),
               "active")]
    both = Engagement("melee", (("1/45e",), ("52nd",)))
    assert describe_changes(engagement_changes(engaged(melee), engaged(both))) == [
        "Melee: 1/45e against 52nd goes on without 2/45e and 95th"]
    # What really ends or begins reads so: a side left with nobody, sides swapped (the
    # same units swapped are the same fight, as before), a fresh record in a stored one's
    # place.
    assert describe_changes(engagement_changes(engaged(both), engaged())) == [
        "Melee: 1/45e against 52nd ends"]
    swapped = Engagement("melee", (("52nd",), ("1/45e",)))
    assert engagement_changes(engaged(both), engaged(swapped)) == []
    assert describe_changes(engagement_changes(engaged(melee), engaged(swapped))) == [
        "Melee: 1/45e and 2/45e against 52nd and 95th ends",
        "Melee: 52nd against 1/45e begins"]
    assert describe_changes(engagement_changes(engaged(replace(melee, id=7)),
                                               engaged(both))) == [
        "Melee: 1/45e and 2/45e against 52nd and 95th ends",
        "Melee: 1/45e against 52nd begins"]
    assert describe_changes(engagement_changes(engaged(replace(melee, id=7)),
                                               engaged(replace(both, id=7)))) == [
        "Melee: 1/45e against 52nd goes on without 2/45e and 95th"]


def test_units_back_in_an_engagement_that_went_on_are_said_to_be_back_in_it():
    """The move that took a unit out of a melee undone: the same melee goes on with it back,
    and one an undone move had ended goes on again; neither begins."""
    melee = Engagement("melee", (("1/45e", "2/45e"), ("52nd",)), id=3)
    on = Engagement("melee", (("1/45e",), ("52nd",)), id=3)
    assert engagement_changes(engaged(on), engaged(melee)) == [
        Change("Melee: 1/45e and 2/45e against 52nd", "engagement", "melee", "active",
               ("2/45e",))]
    assert describe_changes(engagement_changes(engaged(on), engaged(melee), undoing=True)) == [
        "Melee: 1/45e and 2/45e against 52nd goes on with 2/45e back in it"]
    assert describe_changes(engagement_changes(engaged(), engaged(on), undoing=True)) == [
        "Melee: 1/45e against 52nd goes on again"]
    # A fresh record with more units is a new fight.
    assert describe_changes(engagement_changes(engaged(on), engaged(replace(melee, id=4)))) == [
        "Melee: 1/45e against 52nd ends", "Melee: 1/45e and 2/45e against 52nd begins"]


def test_a_record_a_unit_leaves_reads_in_its_rule_sets_words():
    words = RULESETS["labataille"].battle.engagements  # type: ignore[union-attr]
    grand = Engagement("charge", (("Hussars", "Lancers"), ("2nd Foot",)))
    left = Engagement("charge", (("Hussars",), ("2nd Foot",)))
    assert describe_changes(engagement_changes(engaged(grand), engaged(left), words),
                            RULESETS["labataille"].battle.wording) == [  # type: ignore
        "2nd Foot's attempt against Hussars' charge still holds without Lancers"]


def test_a_unit_that_leaves_the_battle_is_said_to_go_without_its_markers():
    changes = [unit("Canadiens", "strength", 3, 2), unit("Canadiens", "routing", None, True),
               unit("Canadiens", "status", "active", "gone"),
               unit("Canadiens", "gone_reason", None, "surrendered")]
    assert describe_changes(changes, RULESETS["fire-at-will"].battle.wording) == [
        "Canadiens loses 1 SP (now 2) and surrenders (leaves the battle)"]


def test_units_that_change_alike_are_one_sentence():
    changes = [unit(name, "state", "good", "disordered") for name in ("1/45e", "2/45e")]
    changes += [unit("3/45e", "state", "good", "routed"), unit("Lancers", "charge", True, None),
                unit("Hussars", "charge", True, None)]
    assert describe_changes(changes, RULESETS["labataille"].battle.wording) == [
        "1/45e and 2/45e: each is now disordered",
        "3/45e is now routed",
        "Lancers and Hussars: each has its Charge marker removed",
    ]
    # Three, and a general of the same words stays his own line.
    lost = [unit(name, "strength", 4, 3) for name in ("A", "B", "C")]
    assert describe_changes(lost) == ["A, B and C: each loses 1 SP (now 3)"]
    assert describe_changes([unit("A", "strength", 4, 3), unit("B", "strength", 3, 2)]) == [
        "A loses 1 SP (now 3)", "B loses 1 SP (now 2)"]
    killed = [Change(name, "general", "status", "active", "killed")
              for name in ("Montcalm", "Wolfe")]
    assert describe_changes(killed) == ["Montcalm is killed", "Wolfe is killed"]


def test_a_name_that_holds_a_lists_words_is_said_on_its_own():
    changes = [unit(name, "state", "good", "disordered")
               for name in ("1/45e, Grenadiers", "2/45e and 3/45e", "4/45e", "5/45e")]
    assert describe_changes(changes, RULESETS["labataille"].battle.wording) == [
        "1/45e, Grenadiers is now disordered",
        "2/45e and 3/45e is now disordered",
        "4/45e and 5/45e: each is now disordered",
    ]
