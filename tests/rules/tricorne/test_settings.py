"""The settings for what the text does not print, and the JSON procedure of `huzzah resolve`."""

from __future__ import annotations

import pytest

from rules.core.dice import Symbol
from rules.core.errors import InvalidInput
from rules.tricorne import RULESET_ENTRY
from rules.tricorne.settings import (
    FailedRally,
    RallyDice,
    Settings,
    check_settings,
    read_die,
    settings_from,
)

from .helpers import dice


def test_defaults():
    assert settings_from(None) == Settings()
    assert Settings().die == (Symbol.INFANTRY, Symbol.INFANTRY, Symbol.CAVALRY,
                              Symbol.ARTILLERY, Symbol.SABER, Symbol.FLAG)
    assert (Settings().rally_dice, Settings().failed_rally) == (RallyDice.BLOCKS,
                                                                FailedRally.ROUT)


def test_a_die_is_read_from_symbol_names_or_letters():
    assert read_die("i c a s f f") == (Symbol.INFANTRY, Symbol.CAVALRY, Symbol.ARTILLERY,
                                       Symbol.SABER, Symbol.FLAG, Symbol.FLAG)
    assert settings_from({"die": "flag art cav inf saber"}).die == (
        Symbol.FLAG, Symbol.ARTILLERY, Symbol.CAVALRY, Symbol.INFANTRY, Symbol.SABER)
    assert read_die(["inf", "cav", "art", "saber", "flag"]) == tuple(Symbol)


@pytest.mark.parametrize(("values", "message"), [
    ({"die": "inf horse"}, "`horse` is not a battle-die face"),
    ({"die": "inf"}, "a die has 2 to 12 faces, not 1"),
    # Each symbol is read by a rule: a die without one leaves that rule dead.
    ({"die": "inf inf cav art flag flag"}, "a battle die shows every symbol the rules read; "
                                           "this one has no saber"),
    ({"die": "inf saber"}, "this one has no cavalry, artillery or flag"),
    ({"die": 6}, "`die` needs some text"),
    ({"rally_dice": "4"}, "`4` is not a valid rally dice"),
    ({"leader_dice": 1, "leader_sabers": 2}, "cannot need 2 sabers"),
    ({"leader_dice": 0}, "leader_dice"),
    ({"rally_leader": 9}, "rally_leader"),
    ({"rallydice": "1"}, "rallydice"),
])
def test_bad_settings_are_refused_with_the_reason(values, message):
    with pytest.raises(InvalidInput) as error:
        check_settings(values, {})
    assert message in str(error.value) + str(getattr(error.value, "hint", ""))


def test_a_die_set_before_every_symbol_was_required_still_reads_and_goes_with_others():
    old = {"die": "inf saber"}
    assert settings_from(old).die == (Symbol.INFANTRY, Symbol.SABER)
    assert check_settings(old).die == (Symbol.INFANTRY, Symbol.SABER)  # a backup's
    # Another setting changed beside it: the die is not the GM's change.
    assert check_settings({**old, "failed_rally": "lose-block"}, old).die == (
        Symbol.INFANTRY, Symbol.SABER)


def test_the_die_setting_decides_the_faces_a_random_roll_can_show():
    from rules.core.dice import BattleDice, RandomSource

    # Eight of its twelve faces sabers: a seeded roll of 120 shows mostly sabers.
    die = settings_from({"die": "inf cav art flag " + "sab " * 8}).die
    faces = RandomSource(1).roll(BattleDice(120, die), "test")
    assert set(faces) == set(Symbol)
    assert faces.count(Symbol.SABER) > 60


# --- the JSON procedure ----------------------------------------------------------------------


MELEE = RULESET_ENTRY.procedures["melee"].run


def test_json_melee_with_answers_and_settings():
    request = {
        "attacker": {"name": "Black Watch", "type": "highland", "leader": "Murray"},
        "defender": {"name": "Hussars", "type": "battle-cavalry", "blocks": 2},
        "answers": {"retire": "retire", "take_ground": "advance"},
        "settings": {"rally_dice": "1"},
    }
    source = dice("cav cav flag sab flag")
    result = MELEE(request, source)
    source.finish()
    data = result.to_dict()
    assert data["ruleset"] == "tricorne"
    assert [(e["kind"], e["unit"], e.get("amount")) for e in data["effects"]] == [
        ("damage", "Hussars", 2), ("eliminated", "Hussars", None),
        ("victory_banner", "Black Watch", None), ("moved", "Black Watch", 1)]
    assert "defaults" not in data
    assert "retire and rally: sabers and flags are ignored" in data["steps"][2]["rolls"][0][
        "notes"]


@pytest.mark.parametrize(("request_", "message"), [
    ({"attacker": {"type": "regular"}, "defender": {"name": "B", "type": "regular"}},
     "needs a `name`"),
    ({"attacker": {"name": "A", "type": "regular", "blocks": 5},
      "defender": {"name": "B", "type": "regular"}}, "5 blocks but 4 at full strength"),
    ({"attacker": {"name": "A", "type": "regular"},
      "defender": {"name": "B", "type": "regular"}, "card": "yes"}, "`card` is true or false"),
    ({"attacker": {"name": "A", "type": "regular"}, "defender": {"name": "a",
                                                                 "type": "regular"}},
     "Two units are called `a`"),
    ({"attacker": {"name": "A", "type": "regular"}, "defender": {"name": "A",
                                                                 "type": "regular"}},
     "cannot melee itself"),
    ({"attacker": {"name": "A", "type": "regular"},
      "defender": {"name": "B", "type": "regular", "blocks": 0}}, "no blocks left"),
    ({"attacker": {"name": "A", "type": "regular"},
      "defender": {"name": "B", "type": "regular"}, "bonus": {"name": "C"}}, "must be a list"),
])
def test_json_melee_refuses_bad_requests(request_, message):
    with pytest.raises(InvalidInput, match=message):
        MELEE(request_, dice(""))
