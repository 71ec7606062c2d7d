"""Slips in the unit notation get a message naming the slip and showing the right form."""

from __future__ import annotations

import re

import pytest

from rules.core.errors import InvalidInput
from rules.core.notation import FORM_HINT, ONE_UNIT_HINT, echo, roster_entry, split_name
from rules.core.roster import Roster, RosterUnit, name_key
from rules.fire_at_will.inputs import MELEE, read_chargers, read_melee_side
from rules.le_baton.inputs import read_unit_text

ROSTER = Roster((RosterUnit("2nd Foot", "British"), RosterUnit("Rangers", "British"),
                 RosterUnit("La Sarre", "French")))


def refused(call, *args, **kw) -> str:
    with pytest.raises(InvalidInput) as info:
        call(*args, **kw)
    return str(info.value)


def test_split_name_stops_at_the_first_colon_outside_quotes():
    assert split_name("2nd Foot: inf") == ("2nd Foot", " inf")
    assert split_name('inf general="Sir John: the elder"') == (
        None, 'inf general="Sir John: the elder"')
    assert split_name("inf general=A:B") == (None, "inf general=A:B")
    assert split_name(": inf") == (None, " inf")


def test_an_apostrophe_is_part_of_a_name():
    assert split_name("Fraser's Highlanders: inf regular charging") == (
        "Fraser's Highlanders", " inf regular charging")
    assert split_name("Lochiel’s Camerons: cards=1") == ("Lochiel’s Camerons", " cards=1")
    name, values = MELEE.read_text(
        "Fraser's Highlanders: inf regular charging general=\"Lord George's\"", "attackers")
    assert name == "Fraser's Highlanders"
    assert values["general"] == "Lord George's" and values["charging"] is True


def test_a_name_in_double_quotes_may_hold_a_colon_or_a_semicolon():
    assert split_name('"Regiment: 1st Bn": inf') == ("Regiment: 1st Bn", " inf")
    assert split_name('"Regiment; 1st Bn": inf') == ("Regiment; 1st Bn", " inf")
    (first, second) = read_melee_side('"Regiment; 1st Bn": inf; "Fraser\'s: Old": cav',
                                      "attackers")
    assert (first.name, second.name) == ("Regiment; 1st Bn", "Fraser's: Old")


def test_a_quoted_colon_in_a_general_is_no_unit_name():
    name, values = MELEE.read_text('inf general="Sir John: the elder"', "x")
    assert name is None and values["general"] == "Sir John: the elder"


def test_a_name_without_its_colon():
    assert refused(read_chargers, "Hussars cav distance=5") == (
        "chargers #1: `Hussars` reads as the unit's name without its colon: write "
        f"`Hussars: cav distance=5`. {FORM_HINT}")


def test_a_name_of_several_words_without_its_colon():
    # "Foot" is also a word (infantry), but capitalised after a name it is part of the name.
    message = refused(read_melee_side, "2nd Foot inf regular", "attackers")
    assert "`2nd Foot` reads as the unit's name without its colon: write " \
           "`2nd Foot: inf regular`." in message


@pytest.mark.parametrize("text", ["Black Watch", "Black Watch charging"])
def test_a_name_of_two_capitalised_words_is_a_name_though_the_first_is_near_a_word(text):
    # "black" is near "blocks", "Black Watch" a regiment: a name without its colon.
    assert "`Black Watch` reads as the unit's name without its colon" in \
        refused(read_melee_side, text, "attackers")


@pytest.mark.parametrize("text", ["Fraser's Highlanders", "Lochiel’s Camerons"])
def test_a_possessive_is_a_name_though_it_is_near_a_word(text):
    # Le Baton knows `cuirassiers`, which `fraser's` is near; no word has an apostrophe.
    from rules.le_baton.inputs import UNIT

    with pytest.raises(InvalidInput) as refused_:
        UNIT.read_text(text, "unit")
    assert f"`{text}` reads as the unit's name without its colon" in str(refused_.value)


@pytest.mark.parametrize("text", ["Frasers Highlanders", "Lochiels Camerons"])
def test_two_capitalised_words_each_only_loosely_near_a_word_are_a_name(text):
    # Le Baton knows `cuirassiers` and `lancers`, which a "did you mean" would offer for
    # `frasers` and `highlanders`; neither is a slip of them.
    from rules.le_baton.inputs import UNIT

    with pytest.raises(InvalidInput) as refused_:
        UNIT.read_text(text, "unit")
    assert f"`{text}` reads as the unit's name without its colon" in str(refused_.value)


def test_two_capitalised_slips_of_words_are_mistyped_words():
    from rules.le_baton.inputs import UNIT

    with pytest.raises(InvalidInput, match="I don't know `veteren`. Did you mean `veteran`?"):
        UNIT.read_text("Veteren Cavalery", "unit")


def test_one_word_near_a_word_is_that_word_mistyped():
    assert "I don't know `regulr`. Did you mean `regular`?" in \
        refused(read_melee_side, "Regulr Cavalry", "attackers")


def test_a_name_alone_without_its_colon():
    assert "write `Hussars: words`" in refused(read_chargers, "Hussars")


def test_a_typo_is_still_a_typo():
    assert refused(read_chargers, "cavv distance=5").startswith(
        "chargers #1: I don't know `cavv`. Did you mean `cav`?")


def test_a_nameless_unit_still_reads():
    (charger,) = read_chargers("cav distance=5")
    assert charger.unit.name == "Charger 1"


def test_units_run_together_with_a_comma():
    assert refused(read_melee_side, "A: inf charging, B: inf open", "attackers") == (
        "attackers #1: `A: inf charging, B: inf open` holds more than one unit (`B:` starts "
        f"another). {FORM_HINT} Here: `A: inf charging; B: inf open`.")


@pytest.mark.parametrize("separator", [" | ", " & ", " and ", " / ", ","])
def test_other_wrong_separators_get_the_same_suggestion(separator):
    message = refused(read_melee_side, f"A: inf charging{separator}2nd Foot: inf", "attackers")
    assert "Here: `A: inf charging; 2nd Foot: inf`." in message


def test_units_run_together_without_a_separator():
    message = refused(read_melee_side, "A: inf charging B: inf open", "attackers")
    assert message.endswith(f"(`B:` starts another). {FORM_HINT}")


def test_commas_between_words():
    assert refused(read_melee_side, "A: inf, charging", "attackers") == (
        f"attackers: A: separate words with spaces, not commas (`inf,`). {FORM_HINT}")


def test_an_option_for_one_unit_says_so():
    message = refused(read_unit_text, "A: french inf column, B: british inf line", "attacker")
    assert message.startswith("attacker: `A: french inf column, B: british inf line` holds "
                              "more than one unit")
    assert message.endswith(ONE_UNIT_HINT)


def test_long_text_is_echoed_short():
    message = refused(read_melee_side, "A: inf, " + "B" * 300 + ": inf", "attackers")
    assert len(message) < 700 and "…" in message


# --- roster names in a battle -----------------------------------------------------------------


def test_roster_entries_read_name_and_words():
    unit, words = roster_entry("2nd Foot: charging front", ROSTER, "attackers")
    assert unit.name == "2nd Foot" and words.split() == ["charging", "front"]
    assert roster_entry("Rangers", ROSTER, "attackers")[0].name == "Rangers"


def test_a_roster_name_without_its_colon():
    assert refused(roster_entry, "La Sarre charging", ROSTER, "attackers") == (
        f"attackers: put a colon after the unit's name: `La Sarre: charging`. {FORM_HINT}")


def test_roster_names_run_together_with_a_comma():
    assert refused(roster_entry, "2nd Foot, Rangers", ROSTER, "defenders") == (
        f"defenders: `2nd Foot, Rangers` holds more than one unit. {FORM_HINT} "
        "Here: `2nd Foot; Rangers`.")


def test_a_second_roster_unit_inside_the_words():
    message = refused(roster_entry, "2nd Foot: front, Rangers: flank", ROSTER, "defenders")
    assert message == (f"defenders: `2nd Foot: front, Rangers: flank` holds more than one unit "
                       f"(`Rangers:` starts another). {FORM_HINT} Here: "
                       "`2nd Foot: front; Rangers: flank`.")


def test_one_unit_options_in_a_battle():
    assert refused(roster_entry, "2nd Foot, Rangers", ROSTER, "attacker",
                   several=False).endswith(ONE_UNIT_HINT)
    assert refused(roster_entry, "La Sarre charging", ROSTER, "charger", several=False,
                   words=False) == (
        "charger: nothing goes after La Sarre's name here (`charging`). Give the situation "
        "with the command's own options.")


def test_roster_names_with_an_apostrophe():
    roster = Roster((RosterUnit("Lochiel's Camerons", "Jacobite"),
                     RosterUnit("Barrell's", "Government")))
    unit, words = roster_entry("Lochiel's Camerons: cards=1", roster, "attacker")
    assert unit.name == "Lochiel's Camerons" and words.split() == ["cards=1"]
    assert roster_entry("Barrell's", roster, "defender")[0].name == "Barrell's"
    assert roster_entry('"Barrell\'s": flank', roster, "defender")[0].name == "Barrell's"
    assert roster_entry('"Barrell\'s"', roster, "defender")[0].name == "Barrell's"
    assert refused(roster_entry, "Barrell's flank", roster, "defender") == (
        f"defender: put a colon after the unit's name: `Barrell's: flank`. {FORM_HINT}")


def test_an_unknown_roster_name_is_still_unknown():
    message = refused(roster_entry, "Béarn charging", ROSTER, "attackers")
    assert re.match(r"There is no unit called `Béarn charging` in this battle", message)


def test_splitting_a_name_off_reads_quotes_only_where_there_are_some():
    """The way without quotes (nearly every text) splits as the way through them would."""
    import random

    from rules.core.notation import _split_name_outside_quotes

    rng = random.Random(5)
    for _ in range(20000):
        text = "".join(rng.choice("ab :=\"' ") for _ in range(rng.randint(0, 10)))
        assert split_name(text) == _split_name_outside_quotes(text), text


def test_a_name_without_its_colon_is_looked_for_in_as_many_prefixes_as_the_roster_allows(
        monkeypatch):
    """A 6,000-character option (Discord's most) without a colon tries no more prefixes
    than the roster's longest name has words, plus one for a separator after it: each
    prefix is looked up once, not compared with every roster unit."""
    import rules.core.notation as notation

    calls = []

    def counted(name: str) -> str:
        calls.append(name)
        return name_key(name)

    monkeypatch.setattr(notation, "name_key", counted)
    for words in (60, 3000):
        calls.clear()
        message = refused(roster_entry, ("x " * words)[:6000], ROSTER, "attackers")
        assert message.startswith("There is no unit called `x x x")
        # One key per roster unit, then at most 2 + 1 prefixes ("La Sarre" has 2 words).
        assert len(calls) == len(ROSTER.units) + 3


def test_a_separator_after_the_longest_roster_name_still_reads_as_one():
    assert refused(roster_entry, "La Sarre , Rangers", ROSTER, "defenders").startswith(
        "defenders: `La Sarre , Rangers` holds more than one unit.")


def test_a_wrong_separator_is_looked_for_only_before_a_name_as_long_as_names_go():
    """The look for the colon of the next name after a comma stops at the longest a name
    may be (64 characters): a text of thousands of "and"s is not read once per "and"."""
    name = "B" * 64
    assert refused(read_melee_side, f"A: inf, {name}: inf", "attackers").endswith(
        f"Here: `A: inf; {echo(name)}: inf`.")
    assert refused(read_melee_side, f"A: inf, {name}B: inf", "attackers").endswith(FORM_HINT)


def test_a_hint_quotes_a_unit_name_with_a_space_as_it_is_typed():
    from rules.core.errors import InvalidInput
    from rules.core.notation import refuse_roster_word
    from rules.labataille.inputs import ROSTER_FIELDS

    with pytest.raises(InvalidInput) as refused:
        refuse_roster_word("cavalry", "2e Cuirassiers", "charger", ROSTER_FIELDS)
    assert refused.value.hint == ('Change it with `/unit edit unit:"2e Cuirassiers"`, or drop '
                                  "the word.")


def test_a_verb_agrees_with_the_units_it_follows():
    from rules.core.notation import doing

    # A unit is one: "Hussars falls short", as every reply says of a unit.
    assert doing(["Hussars"], "falls", "fall") == "Hussars falls"
    assert doing(["52nd", "71st"], "advances", "advance") == "52nd and 71st advance"


def test_two_capitalised_words_each_near_a_word_are_words_mistyped():
    assert "I don't know `reguler`. Did you mean `regular`?" in \
        refused(read_melee_side, "Reguler Cavalery", "attackers")


def test_names_and_their_verb_read_as_a_list():
    from rules.core.notation import doing

    assert doing(["52nd"], "advances", "advance") == "52nd advances"
    assert doing(["52nd", "71st"], "advances", "advance") == "52nd and 71st advance"
    assert doing(["52nd", "71st", "95th"], "advances", "advance") == (
        "52nd, 71st and 95th advance")


def test_a_phones_curly_double_quotes_group_a_name_as_straight_ones_do():
    """The quoting rule says a phone's “ ” are double quotes: for a whole name too, not only
    for a value (``general=“Sir John”``)."""
    from rules.core.fields import unit_parts

    assert split_name("“Regiment: 1st Bn”: inf") == ("Regiment: 1st Bn", " inf")
    assert unit_parts("„Regiment; 1st Bn“: inf; Rangers: inf open") == [
        '"Regiment; 1st Bn": inf', "Rangers: inf open"]
    (first, second) = read_melee_side("“Regiment; 1st Bn”: inf; „Fraser's: Old“: cav",
                                      "attackers")
    assert (first.name, second.name) == ("Regiment; 1st Bn", "Fraser's: Old")
