"""Stored JSON: written by orjson, read back as the standard library reads it."""

from __future__ import annotations

import json
from enum import Enum, StrEnum

import pytest

from bot.storage.json_text import dumps, loads


class Arm(StrEnum):
    INFANTRY = "infantry"


class Plain(Enum):
    ONE = 1


@pytest.mark.parametrize("value", [
    {"dice": [3, 3], "note": None, "unit": "Béarn 🎲", "ok": True, "half": 0.5},
    {1: "number keys", 2.5: "float keys", None: "null keys"},
    {"arm": Arm.INFANTRY, "plain": Plain.ONE, "pair": (1, 2)},
    [2 ** 70, -(2 ** 70)],  # past 64 bits: written by the standard library
])
def test_values_read_back_as_the_standard_librarys_text_would(value):
    assert loads(dumps(value)) == json.loads(json.dumps(value, default=_enum_value))


def test_text_orjson_will_not_read_is_read_all_the_same():
    assert loads('{"a": NaN}')["a"] != loads('{"a": NaN}')["a"]  # NaN, as json reads it
    assert loads(b'{"a": 1}') == {"a": 1}


def test_a_value_no_encoder_knows_is_refused():
    with pytest.raises(TypeError):
        dumps({"a": object()})


def _enum_value(value):
    return value.value
