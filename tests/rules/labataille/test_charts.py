"""Chart packs: the format, strict validation with the row and column named, and results."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from rules.core.errors import InvalidInput
from rules.labataille.charts import ChartResult, describe_pack, parse_result, read_pack

from .helpers import PACK_DATA, pack


def test_the_test_pack_reads_with_its_provenance():
    charts = pack()
    assert charts.columns == ("1:2", "1:1", "2:1", "3:1")
    assert charts.firefight
    assert charts.result(41, 2) == ChartResult("DR", 1)
    assert charts.result(61, None) == ChartResult("DS", 0)
    assert charts.result(23, 2) == ChartResult("FF")
    assert charts.assault_provenance == "made for Huzzah's tests: not a La Bataille chart"
    assert charts.defender_situations.provenance == "test defender chart"
    assert charts.distance.values == {"1": 0, "2": -3, "3": -6}


@pytest.mark.parametrize(("text", "result"), [
    ("AS", ChartResult("AS")), ("ar", ChartResult("AR")), ("", ChartResult("FF")),
    ("firefight", ChartResult("FF")), ("-", ChartResult("FF")), ("DR2", ChartResult("DR", 2)),
    ("DS 1", ChartResult("DS", 1)), ("DR", ChartResult("DR", 0)),
])
def test_results_read_as_the_chart_prints_them(text, result):
    assert parse_result(text) == result


@pytest.mark.parametrize("text", ["DX2", "AS1", "DR12", "AD"])
def test_a_result_not_on_the_chart_is_refused(text):
    with pytest.raises(InvalidInput, match="not an Assault et Mêlée result|takes no number"):
        parse_result(text)


def broken(change) -> dict:
    data = copy.deepcopy(PACK_DATA)
    change(data)
    return data


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d["assault"]["rows"].__setitem__("41-46", ["", "", "DX1", "DR2", ""]),
     "row 41-46, column 2:1: `DX1` is not an Assault et Mêlée result"),
    (lambda d: d["assault"]["rows"].pop("61-66"), "no row for 61, 62, 63, 64, 65, 66"),
    (lambda d: d["assault"]["rows"].__setitem__("11", ["AS"] * 5), "row 11 is given twice"),
    (lambda d: d["assault"]["rows"].__setitem__("51-56", ["", ""]), "row 51-56 needs 5 results"),
    (lambda d: d["assault"]["rows"].__setitem__("17", ["AS"] * 5), "`17` is not a d66 value"),
    (lambda d: d["assault"].__setitem__("columns", ["1:1", "1:2", "Firefight"]),
     "must be higher odds than the column before it"),
    (lambda d: d["assault"].__setitem__("columns", ["one to one"]), "is not an odds column"),
    (lambda d: d.pop("provenance"), "provenance must be text"),
    (lambda d: d.__setitem__("fire", {}), "unknown key `fire`"),
    (lambda d: d["attacker_morale"]["distance"].__setitem__("30", -9),
     "`30` is not a distance in hexes"),
    (lambda d: d["melee_multipliers"]["attacker"].__setitem__("disordered", 0),
     "`disordered` must be a positive number"),
    (lambda d: d["defender_morale"]["situations"].__setitem__("tired", 3),
     "`tired` is not a situation"),
    (lambda d: d.__setitem__("assault", ["AR"]), "`assault` (the Assault et Mêlée chart) "
                                                 "must be a JSON object"),
])
def test_a_broken_pack_is_refused_with_where(change, message):
    with pytest.raises(InvalidInput) as error:
        read_pack(broken(change))
    assert message in str(error.value)


def test_a_pack_must_be_an_object():
    with pytest.raises(InvalidInput, match="must be a JSON object"):
        read_pack(["not", "a", "pack"])


def test_a_pack_is_checked_whole_and_every_error_listed_at_once():
    def three(d):
        d["assault"]["rows"]["41-46"][2] = "DX1"
        d["attacker_morale"]["distance"]["30"] = -9
        d["melee_multipliers"]["attacker"]["disordered"] = 0
    with pytest.raises(InvalidInput) as error:
        read_pack(broken(three))
    assert str(error.value).splitlines()[:4] == [
        "chart pack: 3 errors (fix them all; docs/labataille.md gives the format):",
        "• assault: row 41-46, column 2:1: `DX1` is not an Assault et Mêlée result.",
        "• attacker_morale: distance: `30` is not a distance in hexes (1 to 20).",
        "• melee_multipliers: attacker: `disordered` must be a positive number.",
    ]


def test_at_most_20_errors_are_listed():
    def many(d):
        for key in d["assault"]["rows"]:
            d["assault"]["rows"][key] = ["XX"] * 5
    with pytest.raises(InvalidInput) as error:
        read_pack(broken(many))
    lines = str(error.value).splitlines()
    assert lines[0].startswith("chart pack: 30 errors")
    assert len([line for line in lines if line.startswith("• ")]) == 20
    assert lines[-1] == "…and 10 more."


@pytest.mark.parametrize("cell", ["DS9", "DR6"])
def test_a_result_the_procedure_cannot_apply_is_refused(cell):
    # The # of DR# and DS# is what the procedure offers: DR0 to DR5 (its buttons).
    with pytest.raises(InvalidInput, match=rf"row 61-66, column 3:1: `{cell}`: DR# and DS# "
                                           r"go from 0 to 5 \(hexes of impetus\)"):
        read_pack(broken(lambda d: d["assault"]["rows"]["61-66"].__setitem__(3, cell)))


# --- the shipped example: the printed Premier Carré table of La Bataille pour la Prusse 1806 ---

PRUSSE = Path(__file__).parents[3] / "docs" / "examples" / "labataille-prusse-1806-carre.json"


def test_the_prusse_1806_carre_pack_reads_and_says_it_is_premier():
    prusse = read_pack(json.loads(PRUSSE.read_text()))
    assert "Premier, not the revised chart" in prusse.provenance
    assert "La Bataille pour la Prusse 1806" in prusse.provenance
    assert not prusse.has_assault  # a pack may hold only the charts its players own
    carre = prusse.carre
    # Reference A.12, French, by the formation it forms from and the cavalry's distance.
    assert [carre.result("french", "column", 4, r) for r in (11, 66)] == ["C", "C"]
    assert [carre.result("french", "column", 2, r) for r in (43, 44, 61, 62)] == [
        "C", "D", "D", "R"]
    assert [carre.result("french", "line", 4, r) for r in (64, 65)] == ["C", "D"]
    assert [carre.result("french", "line", 1, r) for r in (22, 23, 53, 54)] == [
        "C", "D", "D", "R"]  # the Austerlitz figure of reference A.7
    assert carre.result("french", "skirmish", 1, 22) is None
    assert carre.result("british", "line", 1, 22) is None
    assert carre.missing("french", "skirmish", 1) == ("the chart pack's Carré chart has no "
                                                      "french table for skirmish")
    assert carre.missing("british", "line", 1) == ("the chart pack's Carré chart has no "
                                                   "table for British")


def test_a_carre_table_split_by_formation_is_checked_like_any_other():
    bad = {"name": "x", "provenance": "y", "carre": {"french": {
        "column": {"4": {"11-66": "C"}}, "line": {"4": {"11-64": "C"}}, "2": {"11-66": "C"}}}}
    with pytest.raises(InvalidInput) as error:
        read_pack(bad)
    lines = str(error.value).splitlines()
    assert "• carre: french, line, 4 hexes: no row for 65, 66." in lines
    assert "• carre: french: `2`: give distances or formations (column, line…), not both." \
        in lines


def test_a_pack_without_an_assault_chart_reads_and_the_result_is_asked():
    from .helpers import asked, assault, stack

    carre_only = read_pack({key: PACK_DATA[key] for key in ("name", "provenance", "carre")})
    assert not carre_only.has_assault
    assert describe_pack({key: PACK_DATA[key] for key in ("name", "provenance", "carre")}) == [
        "Test pack (made for Huzzah's tests: not a La Bataille chart)",
        "Assault et Mêlée: not in this pack (its results are asked, on the Premier chart's "
        "columns)",
        "Square (Carré) Realization: any"]
    assert asked([stack("A", melee=20)], [stack("D")], "45 45 1 41",
                 pack=carre_only) == "chart_result"
    played = assault([stack("A", melee=20)], [stack("D")], "45 45 1 41", "chart_result=DR1",
                     pack=carre_only)
    assert played.defaults[1:] == ("Premier chart's columns: the chart pack has no Assault et "
                                   "Mêlée chart, so odds are read on the Premier chart's "
                                   "columns (1:2 to 5:1)",
                                   "no `zoc` given: D: no increments lost to Zones of "
                                   "Influence (give `zoc=N`)")


@pytest.mark.parametrize("chart", ["attacker_morale", "defender_morale", "melee_multipliers",
                                   "cavalry_multipliers", "stand_morale", "recall", "carre"])
def test_a_chart_that_holds_no_values_is_refused(chart):
    # An empty chart would be attached and listed (`Square (Carré) Realization: ` and nothing
    # after it, `recall thresholds: 0 values`) while every procedure reads it as absent.
    for empty in ({}, {"provenance": "a rules book"}):
        with pytest.raises(InvalidInput) as refused:
            read_pack({"name": "Empty", "provenance": "nowhere", chart: empty})
        assert str(refused.value) == (f"chart pack: `{chart}` holds no values: give its "
                                      "chart's values, or leave it out. See "
                                      "docs/labataille.md for the format.")


def test_a_pack_with_no_chart_is_refused():
    with pytest.raises(InvalidInput, match="chart pack: it holds no chart: give at least one "
                                           "of assault, attacker_morale"):
        read_pack({"name": "Empty", "provenance": "nowhere"})
