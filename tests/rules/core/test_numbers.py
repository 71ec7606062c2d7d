"""Numbers read from the unit notation, procedure options and JSON: only finite, plain numbers
within their bounds. NaN compares false with every bound, so it must be stopped on reading."""

from __future__ import annotations

import json
import math

import pytest

from rules.core.errors import InvalidInput
from rules.core.fields import MAX_MAGNITUDE, Field
from rules.core.roster import take_strength
from rules.fire_at_will.inputs import CHARGER_JSON, read_chargers
from rules.fire_at_will.units import Arm, Charger, Unit
from rules.le_baton.fire import FireTarget, Target, resolve_fire
from rules.registry import resolve
from tests.rules.le_baton.helpers import foot, run

DISTANCE = Field("distance", float, "inches", minimum=0, maximum=1000)
MORALE = Field("morale", int, "basic morale", minimum=1, maximum=20)
UNBOUNDED = Field("count", int, "no bounds of its own")


@pytest.mark.parametrize("written", ["nan", "NaN", "inf", "-inf", "infinity", "Infinity",
                                     "1e999", "1e2", "1_000", "0x10", "5.5.5", "½", "٣"])
def test_text_that_is_not_plain_figures_is_refused(written):
    with pytest.raises(InvalidInput, match=f"`distance` must be a number, not `{written}`"):
        DISTANCE.convert(written, "chargers #1")


@pytest.mark.parametrize("written", ["", " "])
def test_no_figures_at_all_is_told_to_give_some(written):
    with pytest.raises(InvalidInput, match="^chargers #1: `distance` needs a value. Write it"):
        DISTANCE.convert(written, "chargers #1")


@pytest.mark.parametrize(("written", "value"), [("5", 5.0), ("5.5", 5.5), (" 3 ", 3.0),
                                                (".5", 0.5), ("0", 0.0), ("+2", 2.0)])
def test_plain_figures_are_read(written, value):
    assert DISTANCE.convert(written, "x") == value


@pytest.mark.parametrize("raw", [math.nan, math.inf, -math.inf])
def test_non_finite_json_numbers_are_refused(raw):
    with pytest.raises(InvalidInput, match="`distance` must be a number"):
        DISTANCE.convert(raw, "chargers[0]")
    with pytest.raises(InvalidInput, match="`morale` must be a whole number"):
        MORALE.convert(raw, "target")


def test_a_nan_distance_never_reaches_the_reach_check():
    with pytest.raises(InvalidInput, match="`distance` must be a number, not `nan`"):
        read_chargers("Hussars: cav distance=nan")
    with pytest.raises(InvalidInput, match="`distance` must be a number, not `nan`"):
        CHARGER_JSON.read_json({"name": "Hussars", "arm": "cavalry", "distance": math.nan},
                               "chargers[0]")


def test_a_charger_built_directly_with_nan_is_refused():
    with pytest.raises(InvalidInput, match="cannot be measured"):
        Charger(Unit("Hussars", Arm.CAVALRY), distance=math.nan)


def test_huge_numbers_are_refused_by_their_bound_and_echoed_short():
    with pytest.raises(InvalidInput) as info:
        MORALE.convert("9" * 30, "target")
    assert str(info.value) == ("target: `morale` cannot be 9999999999999999…. "
                               "It must be at most 20.")
    with pytest.raises(InvalidInput, match="cannot be 1000000000000000…"):
        MORALE.convert(10**400, "target")  # a JSON integer of 401 digits
    with pytest.raises(InvalidInput, match="must be a number, not `9999999999999999…`"):
        DISTANCE.convert("9" * 5000, "x")  # too long to read at all


def test_a_number_field_without_bounds_still_has_one():
    assert UNBOUNDED.convert(MAX_MAGNITUDE, "x") == MAX_MAGNITUDE
    with pytest.raises(InvalidInput, match=f"at most {MAX_MAGNITUDE}"):
        UNBOUNDED.convert(MAX_MAGNITUDE + 1, "x")


def test_whole_numbers_stay_whole():
    assert MORALE.convert(4.0, "x") == 4 and isinstance(MORALE.convert(4.0, "x"), int)
    with pytest.raises(InvalidInput, match="must be a whole number, not `4.5`"):
        MORALE.convert("4.5", "x")
    with pytest.raises(InvalidInput, match="must be a whole number"):
        MORALE.convert(True, "x")


REQUESTS = {
    "fire-at-will charge distance": (
        '{"ruleset": "fire-at-will", "procedure": "charge", "target": {"name": "Foot", '
        '"arm": "infantry", "morale": 4}, "chargers": [{"name": "Hussars", "arm": "cavalry", '
        '"distance": NaN}], "dice": "3"}', "`chargers[0].distance` is NaN"),
    "le-baton fire distance": (
        '{"ruleset": "le-baton", "procedure": "fire", "shooter": {"name": "52nd", "nation": '
        '"british", "arm": "infantry", "figures": 8}, "target": "Ligne", "target_type": "line", '
        '"distance": Infinity, "dice": "1 2 3 4"}', "`distance` is Infinity"),
    "le-baton morale phase": (
        '{"ruleset": "le-baton", "procedure": "morale", "unit": {"name": "A", "nation": '
        '"french", "arm": "infantry"}, "phase": -Infinity, "dice": "3"}', "`phase` is -Infinity"),
    "seed": ('{"ruleset": "le-baton", "procedure": "recall", "unit": {"name": "A", "nation": '
             '"french", "arm": "cavalry"}, "seed": NaN}', "`seed` is NaN"),
}


@pytest.mark.parametrize("text", REQUESTS.values(), ids=list(REQUESTS))
def test_nan_and_infinity_anywhere_in_a_request_are_refused(text):
    request, message = text
    with pytest.raises(InvalidInput, match=message.replace("[", r"\[").replace("]", r"\]")):
        resolve(json.loads(request))


def test_a_request_with_1e999_is_refused():
    request = json.loads('{"ruleset": "le-baton", "procedure": "fire", "shooter": {"name": '
                         '"52nd", "nation": "british", "arm": "infantry", "figures": 8}, '
                         '"target": "Ligne", "target_type": "line", "distance": 1e999}')
    with pytest.raises(InvalidInput, match="`distance` is Infinity"):
        resolve(request)


@pytest.mark.parametrize(("options", "message"), [
    ({"phase": 10**400}, "`phase` cannot be 1000000000000000…. It must be at most 13."),
    ({"phase": 14}, "`phase` cannot be 14. It must be at most 13."),
    ({"phase": "1e3"}, "`phase` must be a whole number, not `1e3`"),
])
def test_le_baton_phase_options_are_bounded(options, message):
    request = {"ruleset": "le-baton", "procedure": "morale",
               "unit": {"name": "A", "nation": "french", "arm": "infantry"}, "dice": "3",
               **options}
    with pytest.raises(InvalidInput, match=message.replace("(", r"\(").replace(")", r"\)")):
        resolve(request)


def test_le_baton_fire_distance_option_is_bounded():
    request = {"ruleset": "le-baton", "procedure": "fire", "target": "Ligne",
               "shooter": {"name": "52nd", "nation": "british", "arm": "infantry", "figures": 8},
               "target_type": "line", "distance": 10**30}
    with pytest.raises(InvalidInput, match="`distance` cannot be 1000000000000000…"):
        resolve(request)


def test_le_baton_fire_called_directly_with_nan_is_refused():
    with pytest.raises(InvalidInput, match="cannot be measured"):
        run(resolve_fire, foot(), Target("Ligne", FireTarget.LINE), dice_text="",
            distance=math.nan)


def test_a_phones_full_width_figures_are_plain_ones_as_in_typed_dice():
    """`５` is 5 in every width, as typed dice read it: in a unit's words and in its
    strength word alike."""
    assert MORALE.convert("５", "x") == 5
    assert DISTANCE.convert("１２．５", "x") == 12.5
    assert take_strength("inf regular sp=４", "SP", "words") == ("inf regular", 4)


@pytest.mark.parametrize("written", ["٣", "३"])
def test_a_strength_in_another_scripts_digits_is_refused_as_in_typed_dice(written):
    with pytest.raises(InvalidInput, match=f"words: `sp={written}` is not a strength"):
        take_strength(f"inf regular sp={written}", "SP", "words")
