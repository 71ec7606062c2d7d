"""The unit notation and JSON reader shared by every rule set."""

from __future__ import annotations

import shlex

import pytest

from rules.core.errors import InvalidInput
from rules.core.fields import join_words, split_units, split_words, unit_parts
from rules.fire_at_will.inputs import MELEE, MELEE_JSON, read_chargers, read_melee_side
from rules.fire_at_will.units import Arm, Direction, Order


def test_name_words_and_values():
    name, values = MELEE.read_text('2nd Foot: inf regulars charging general="Sir John" wounded',
                                   "attackers")
    assert name == "2nd Foot"
    assert values == {"arm": Arm.INFANTRY, "regular": True, "charging": True,
                      "general": "Sir John", "general_wounded": True}


def test_dashed_and_underscored_words_both_read():
    _, values = MELEE.read_text("inf over-obstacle vs_building", "x")
    assert values == {"arm": Arm.INFANTRY, "over_obstacle": True, "vs_building": True}


def test_unknown_word_suggests_the_closest():
    with pytest.raises(InvalidInput, match="I don't know `chargin`. Did you mean `charging`?"):
        MELEE.read_text("inf chargin", "attackers #1")


@pytest.mark.parametrize(("typed", "said"), [
    ("irregular", "`regular` means the opposite: leave it out."),
    ("irregulars", "`regular` means the opposite: leave it out."),
    ("unshaken", "`shaken` means the opposite: leave it out."),
])
def test_a_word_denied_is_not_offered_as_a_near_miss(typed, said):
    with pytest.raises(InvalidInput) as refused:
        MELEE.read_text(f"Compagnie Franche: inf {typed}", "attackers")
    assert refused.value.message == f"attackers: I don't know `{typed}`. {said}"


def test_a_word_denied_among_a_list_of_values_is_said_to_mean_the_opposite():
    from rules.tricorne.inputs import UNIT

    with pytest.raises(InvalidInput) as refused:
        UNIT.read_text("Rangers: irregular", "attacker")
    assert refused.value.message == (
        "attacker: I don't know `irregular`. `regular` means the opposite.")


def test_a_value_parted_from_its_name_by_a_space_is_told_so():
    with pytest.raises(InvalidInput) as refused:
        MELEE.read_text("inf =4", "attackers #1")
    assert str(refused.value) == ("attackers #1: `=4` has no name before its `=`. Write the name "
                                  "and its value together, without a space (`name=4`).")


def test_a_text_values_second_word_unquoted_is_told_how_to_quote_it():
    with pytest.raises(InvalidInput) as refused:
        MELEE.read_text("inf general=Sir John", "attackers #1")
    assert refused.value.message == (
        "attackers #1: I don't know `John`. If it is part of `general`, a value with spaces "
        'goes in double quotes: `general="Sir John"`.')
    assert refused.value.hint.startswith("Words you can use: ")
    # A typo after a value is still a typo.
    with pytest.raises(InvalidInput, match="Did you mean `charging`?"):
        MELEE.read_text("inf general=Montcalm chargin", "attackers #1")


def test_unknown_word_lists_the_words_you_can_use():
    with pytest.raises(InvalidInput, match="Words you can use: .*cavalry.*morale="):
        MELEE.read_text("inf zzz", "attackers #1")


def test_bad_number_and_range():
    with pytest.raises(InvalidInput, match="`morale` must be a whole number, not `x`"):
        MELEE.read_text("inf morale=x", "u")
    with pytest.raises(InvalidInput, match="cannot be -1. It must be at least 1"):
        MELEE.read_text("inf morale=-1", "u")


def test_a_word_given_no_value_is_told_to_take_one():
    # Echoed in a code span, the blank value would show as two stray backticks.
    with pytest.raises(InvalidInput) as blank:
        MELEE.read_text("inf morale=", "u")
    assert str(blank.value) == "u: `morale` needs a value. Write it in plain figures, like `4`."


def test_a_word_of_a_few_values_given_none_is_told_which_to_give():
    with pytest.raises(InvalidInput) as blank:
        MELEE.read_text("inf order=", "u")
    assert str(blank.value) == "u: `order` needs a value. Use one of: close, open."


def test_contradiction_is_refused():
    with pytest.raises(InvalidInput) as both:
        MELEE.read_text("inf cav", "u")
    assert (both.value.message, both.value.hint) == (
        "u: `infantry` and `cavalry` both give its arm.", "Keep one of `infantry` and `cavalry`.")


def test_unclosed_quote():
    with pytest.raises(InvalidInput, match="a double quote is not closed") as refused:
        MELEE.read_text('inf general="Sir', "u")
    assert refused.value.hint == ('Close it (`"Sir"`), or leave it out: double quotes group a '
                                  "value with spaces; an apostrophe is part of a name and "
                                  "needs none.")


def test_split_units_and_limits():
    assert split_units("A: inf; B: cav\nC: art", "x", 5) == ["A: inf", "B: cav", "C: art"]
    with pytest.raises(InvalidInput, match="no unit given"):
        split_units(" ; ", "x", 5)
    with pytest.raises(InvalidInput, match="at most 2"):
        split_units("a;b;c", "x", 2)


def test_melee_side_defaults_names_and_requires_an_arm():
    units = read_melee_side("cav charging; Rangers: inf open", "attackers")
    assert [u.name for u in units] == ["Attacker 1", "Rangers"]
    assert units[1].unit.order is Order.OPEN
    with pytest.raises(InvalidInput, match="say what Rangers is"):
        read_melee_side("Rangers: open", "defenders")


def test_chargers_read_direction_and_distance():
    (charger,) = read_chargers("Hussars: cav rear distance=5.5")
    assert charger.direction is Direction.REAR and charger.distance == 5.5


def test_json_takes_canonical_names_only_and_rejects_unknown_keys():
    values = MELEE_JSON.read_json({"name": "A", "arm": "cavalry", "over_obstacle": True}, "a[0]")
    assert values["over_obstacle"] is True
    with pytest.raises(InvalidInput, match="unknown field `over-obstacle`"):
        MELEE_JSON.read_json({"name": "A", "arm": "cavalry", "over-obstacle": True}, "a[0]")
    with pytest.raises(InvalidInput, match="must be a JSON object"):
        MELEE_JSON.read_json([1], "a[0]")


def test_json_types_are_checked():
    with pytest.raises(InvalidInput, match="`charging` is yes or no"):
        MELEE_JSON.read_json({"name": "A", "arm": "cavalry", "charging": "maybe"}, "a")
    with pytest.raises(InvalidInput, match="must be a whole number"):
        MELEE_JSON.read_json({"name": "A", "arm": "cavalry", "morale": 4.5}, "a")
    with pytest.raises(InvalidInput, match="`dragoons` is not a valid arm. Use one of"):
        MELEE_JSON.read_json({"name": "A", "arm": "dragoons"}, "a")


def test_long_names_are_refused():
    with pytest.raises(InvalidInput, match="too long"):
        MELEE.read_text("x" * 65 + ": inf", "u")


def shlex_with_double_quotes(text: str) -> list[str]:
    """``shlex.split`` as the notation quotes: double quotes only, no escapes, no comments."""
    lexer = shlex.shlex(text, posix=True)
    lexer.whitespace_split, lexer.commenters, lexer.quotes, lexer.escape = True, "", '"', ""
    return list(lexer)


@pytest.mark.parametrize("text", [
    "charging front", "  inf   regular\tmorale=4\n", "", "   ", "a\x0bb", "é\u00a0x",
    'general="Wolfe" cav', "name='2nd Foot' inf", r"a\ b", 'x="a b" "c d"', 'a"b c"d', '""',
    "Fraser's general=\"Lord George's\"", "x ’ ‘ y",
])
def test_split_words_reads_as_shlex_does_with_double_quotes_only(text):
    assert split_words(text) == shlex_with_double_quotes(text)


def test_split_words_refuses_an_unclosed_quote_as_shlex_does():
    with pytest.raises(ValueError):
        split_words('general="Wolfe')
    with pytest.raises(ValueError):
        shlex_with_double_quotes('general="Wolfe')


def test_an_apostrophe_is_a_letter_of_a_word():
    assert split_words("Fraser's inf general=Lord_George's") == [
        "Fraser's", "inf", "general=Lord_George's"]
    assert split_words("Lochiel’s ‘x") == ["Lochiel’s", "‘x"]
    assert split_words("general=\"Lord George's\" 'open'") == [
        "general=Lord George's", "'open'"]


def test_words_are_typed_back_so_that_they_read_the_same():
    words = ["general=Sir John: the elder", "Fraser's", "A; B", "inf"]
    assert join_words(words) == 'general="Sir John: the elder" Fraser\'s "A; B" inf'
    assert split_words(join_words(words)) == words


def test_a_semicolon_in_double_quotes_does_not_end_a_unit():
    assert unit_parts('"Regiment; 1st Bn": inf; B: cav\nC') == [
        '"Regiment; 1st Bn": inf', "B: cav", "C"]
    assert unit_parts("Fraser's: inf; Barrell's: inf") == ["Fraser's: inf", "Barrell's: inf"]


def test_a_json_object_read_again_reads_the_same_and_is_not_shared():
    """Stored units are read on every move: the same answer each time, a fresh dict each
    time, and every refusal each time."""
    from rules.fire_at_will.battle import ROSTER_FIELDS

    first = ROSTER_FIELDS.read_json({"arm": "cavalry", "regular": True, "morale": 4}, "Hussars")
    first["morale"] = 9  # a caller's change must not reach the next reader
    again = ROSTER_FIELDS.read_json({"arm": "cavalry", "regular": True, "morale": 4}, "Hussars")
    assert again == {"arm": Arm.CAVALRY, "regular": True, "morale": 4}
    # True == 1 and 1 == 1.0 in Python, but not as stored values: each reads as itself.
    assert ROSTER_FIELDS.read_json({"morale": 4.0}, "Hussars") == {"morale": 4}
    with pytest.raises(InvalidInput, match="morale"):
        ROSTER_FIELDS.read_json({"morale": True}, "Hussars")
    for _ in range(2):
        with pytest.raises(InvalidInput, match="unknown field `moral`"):
            ROSTER_FIELDS.read_json({"moral": 4}, "Hussars")


def test_a_float_read_again_keeps_its_sign():
    from rules.core.fields import Field, FieldSet

    fields = FieldSet([Field("width", float, "width")])
    assert str(fields.read_json({"width": 0.0}, "unit")["width"]) == "0.0"
    assert str(fields.read_json({"width": -0.0}, "unit")["width"]) == "-0.0"


def test_a_text_read_again_reads_alike_and_its_refusal_names_each_place():
    """Each reading of a text gets a dict of its own, and a refusal names the place of each
    reading."""
    from rules.core.fields import Field, FieldSet

    fields = FieldSet([Field("morale", int, "morale", minimum=0, maximum=10**6)])
    first = fields.read_text("Hussars: morale=4", "attackers")
    first[1]["morale"] = 99
    assert fields.read_text("Hussars: morale=4", "defenders") == ("Hussars", {"morale": 4})
    for where in ("attackers", "defenders"):
        with pytest.raises(InvalidInput, match=f"^{where}: "):
            fields.read_text("Hussars: morale=x", where)


def test_a_phones_curly_double_quotes_group_words_as_double_quotes_do():
    assert split_words("inf general=“Sir John” charging") == ["inf", "general=Sir John",
                                                              "charging"]
    assert split_words("general=„Sir John”") == ["general=Sir John"]
    assert split_words("Lochiel’s inf") == ["Lochiel’s", "inf"]  # an apostrophe stays


def test_a_word_that_is_part_of_several_names_each():
    from rules.core.fields import did_you_mean

    assert did_you_mean("cavalry", ["battle-cavalry", "light-cavalry", "regular"]) == (
        " Did you mean `battle-cavalry` or `light-cavalry`?")
    assert did_you_mean("regulr", ["battle-cavalry", "regular"]) == " Did you mean `regular`?"


def test_a_near_miss_names_each_word_once_as_the_help_spells_it():
    # `obstacle` is part of two words, each also read with an underscore: the player is
    # offered the two words, not four spellings of them.
    with pytest.raises(InvalidInput) as refused:
        MELEE.read_text("Dragoons: cav charging obstacle", "attackers")
    assert str(refused.value).startswith(
        "attackers: I don't know `obstacle`. "
        "Did you mean `over-obstacle` or `behind-obstacle`? Words you can use: ")


def test_a_near_miss_offers_an_alias_as_the_word_it_stands_for():
    from rules.tricorne.inputs import UNIT

    with pytest.raises(InvalidInput) as refused:
        UNIT.read_text("Hussars: light cav", "defender")
    assert str(refused.value).startswith(
        "defender: I don't know `light`. "
        "Did you mean `light-cavalry` or `light-artillery`? Words you can use: ")


@pytest.mark.parametrize(("typed", "meant"), [
    ("fr", "french"), ("brit", "british"), ("vet", "veteran"), ("consc", "conscript"),
])
def test_the_start_of_one_word_is_offered_as_that_word(typed, meant):
    from rules.le_baton.inputs import MELEE_UNIT

    with pytest.raises(InvalidInput) as refused:
        MELEE_UNIT.read_text(f"1er Ligne: {typed} inf column figures=12", "attacker")
    assert str(refused.value).startswith(
        f"attacker: I don't know `{typed}`. Did you mean `{meant}`? ")


def test_a_start_is_offered_only_as_a_word_of_the_kind_typed():
    """A bare word is not offered a name that takes a value, nor a text value's next word
    a name (it gets the hint to quote the value instead)."""
    from rules.le_baton.inputs import UNIT as LE_BATON
    from rules.tricorne.inputs import UNIT as TRICORNE

    with pytest.raises(InvalidInput) as bare:
        LE_BATON.read_text("british inf fo figures=8", "u")
    assert "formation" not in bare.value.message
    with pytest.raises(InvalidInput) as quoted:
        TRICORNE.read_text("highland leader=Gaspard Le Marchant", "u")
    assert "a value with spaces goes in double quotes" in quoted.value.message
    with pytest.raises(InvalidInput) as alias:
        TRICORNE.read_text("elit", "u")
    assert alias.value.message.endswith("Did you mean `elite`?"), alias.value.message


def test_the_words_help_names_the_short_words_the_examples_use():
    """`inf` and `cav` in every example: the words part of /help lists them beside the troop
    types they stand for. A word a battle stored long ago with a space in it is no word a
    player types, and is not listed."""
    from rules.labataille.inputs import ROSTER_FIELDS as LA_BATAILLE

    # Each beside its own type: "general (also carre)" would read as general order.
    assert "cavalry (cav, horse) / infantry (inf, foot) / artillery (art, guns) / other: " \
        "troop type" in MELEE.help_lines()
    formation = next(line for line in LA_BATAILLE.help_lines() if line.startswith("column"))
    assert formation.startswith("column / line / square (carre, carré) / skirmish / general: ")
