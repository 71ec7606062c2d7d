"""Snapshots of column values: detached copies, exactly as a trip through JSON leaves them."""

from __future__ import annotations

import json
import math
from enum import StrEnum

import pytest

from bot.storage.models import plain_values


class Arm(StrEnum):
    CAVALRY = "cavalry"


CASES = [
    {"arm": "infantry", "regular": True, "morale": 4, "note": None, "width": 1.5},
    {"sides": [["Grenadiers", "Rangers"], ["Artois"]], "state": {"round": 2, "hits": []}},
    {"pair": ("a", 1)},  # a tuple becomes a list
    {"arm": Arm.CAVALRY},  # an enum becomes its value
    {"by_number": {1: "a", 2.5: "b", None: "c"}},  # keys become text
    {"odd": [math.inf, -math.inf]},
    [{"deep": [[["x"]]]}],
]


@pytest.mark.parametrize("value", CASES)
def test_a_snapshot_is_what_json_makes_of_the_value(value):
    copy = plain_values({"column": value})["column"]
    assert json.dumps(copy) == json.dumps(json.loads(json.dumps(value)))
    assert copy == json.loads(json.dumps(value))


def test_a_snapshot_shares_nothing_with_the_live_value():
    live = {"state": {"hits": [1, 2]}, "sides": [["A"], ["B"]]}
    copy = plain_values({"column": live})["column"]
    live["state"]["hits"].append(3)
    live["sides"][0].append("C")
    assert copy == {"state": {"hits": [1, 2]}, "sides": [["A"], ["B"]]}


def test_nan_takes_the_trip_too():
    [copy] = plain_values({"column": [math.nan]})["column"]
    assert math.isnan(copy)
