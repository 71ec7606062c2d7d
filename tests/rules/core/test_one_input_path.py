"""A JSON request (``huzzah resolve``) is read by the very code that reads a slash command's
options: a unit written as in Discord or given as a JSON object comes out the same, and a
refusal names the field as the request wrote it."""

from __future__ import annotations

import pytest

from rules.core.dice import ScriptedSource
from rules.core.errors import InvalidInput
from rules.core.registry import resolve_request
from rules.registry import RULESETS


def resolved(request: dict) -> dict:
    return resolve_request(RULESETS, request).to_dict()


def prepared(ruleset: str, procedure: str, options: dict, dice: str) -> dict:
    source = ScriptedSource.from_text(dice)
    result = RULESETS[ruleset].battle.prepare(procedure, options, None, {})(source)
    source.finish()
    return result.to_dict()


@pytest.mark.parametrize(("written", "as_json"), [
    ({"ruleset": "fire-at-will", "procedure": "melee", "attackers": "Grenadiers: inf regular "
      "charging; Rangers: inf open", "defenders": "Béarn: inf regular"},
     {"ruleset": "fire-at-will", "procedure": "melee",
      "attackers": [{"name": "Grenadiers", "arm": "infantry", "regular": True, "charging": True},
                    {"name": "Rangers", "arm": "infantry", "order": "open"}],
      "defenders": [{"name": "Béarn", "arm": "infantry", "regular": True}]}),
    ({"ruleset": "tricorne", "procedure": "melee", "attacker": "Black Watch: highland "
      "leader=Murray", "defender": "Fusiliers: regular"},
     {"ruleset": "tricorne", "procedure": "melee",
      "attacker": {"name": "Black Watch", "type": "highland", "leader": "Murray"},
      "defender": {"name": "Fusiliers", "type": "regular"}}),
    ({"ruleset": "labataille", "procedure": "cavalry", "attackers": "2e Cuirassiers: cavalry "
      "morale=44 melee=18 mp=8", "defenders": "2nd Foot: infantry morale=41 melee=8 inc=5",
      "spent": 2, "answers": {"chart_result": "DR"}},
     {"ruleset": "labataille", "procedure": "cavalry",
      "attackers": [{"name": "2e Cuirassiers", "arm": "cavalry", "morale": 44, "melee": 18,
                     "mp": 8}],
      "defenders": [{"name": "2nd Foot", "morale": 41, "melee": 8, "increments": 5}],
      "spent": 2, "answers": {"chart_result": "DR"}}),
], ids=["fire-at-will", "tricorne", "labataille"])
def test_a_unit_written_as_in_discord_reads_as_its_json_object(written, as_json):
    dice = {"fire-at-will": "5 2 3", "tricorne": "inf saber art cav cav  inf flag  saber inf "
            "flag flag cav inf", "labataille": "45 1 41"}[written["ruleset"]]
    assert resolved({**written, "dice": dice}) == resolved({**as_json, "dice": dice})


def test_a_request_may_give_the_charged_unit_as_the_command_does():
    options = {"target": "2nd Foot", "target_type": "infantry", "morale": 4,
               "chargers": "Hussars: cav distance=5"}
    request = {"ruleset": "fire-at-will", "procedure": "charge", **options, "dice": "3"}
    whole = {"ruleset": "fire-at-will", "procedure": "charge", "dice": "3",
             "target": {"name": "2nd Foot", "arm": "infantry", "morale": 4},
             "chargers": [{"name": "Hussars", "arm": "cavalry", "distance": 5}]}
    assert resolved(request) == prepared("fire-at-will", "charge", options, "3") == \
        resolved(whole)


def test_a_unit_given_whole_and_by_parts_is_refused():
    with pytest.raises(InvalidInput, match="`target` gives the unit whole: drop target_type"):
        resolved({"ruleset": "fire-at-will", "procedure": "charge", "target_type": "cavalry",
                  "target": {"name": "2nd Foot", "arm": "infantry", "morale": 4},
                  "chargers": "Hussars: cav"})


def test_a_renamed_field_is_named_as_the_request_wrote_it():
    with pytest.raises(InvalidInput, match=r"^`attackers` must be a list of 1 to \d+ stacks"):
        resolved({"ruleset": "labataille", "procedure": "recall", "attackers": []})
    # The command names its own option.
    with pytest.raises(InvalidInput, match="^chargers: no unit given"):
        prepared("labataille", "recall", {"chargers": " ; "}, "")


def test_the_order_of_assaults_takes_the_sides_as_an_object_or_as_pairs():
    as_object = resolved({"ruleset": "labataille", "procedure": "order",
                          "sides": {"French": 2, "British": 2}, "dice": "3 5"})
    as_pairs = resolved({"ruleset": "labataille", "procedure": "order",
                         "sides": [["French", 2], ["British", 2]], "dice": "3 5"})
    assert as_object == as_pairs
    assert as_object["headline"].startswith("British")
    with pytest.raises(InvalidInput, match="Name two different sides"):
        resolved({"ruleset": "labataille", "procedure": "order",
                  "sides": [["French", 2], ["french", 2]], "dice": "3 5"})
