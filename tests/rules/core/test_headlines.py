"""A headline of phrases fitted to its room: said as one per unit, then cut between phrases."""

from __future__ import annotations

from rules.core.headlines import fitted

UNITS = ("Fraser's Highlanders", "Lochiel’s Camerons", "Lord Elcho's Lifeguards")


def test_a_headline_that_fits_is_said_whole():
    assert fitted(["A scores 1 hit on B", "B retreats 1 hex"], 88) == (
        "A scores 1 hit on B; B retreats 1 hex")


def test_a_units_phrases_one_after_another_are_said_as_one_before_any_is_cut():
    phrases = ["Fraser's Highlanders scores 3 hits on Lochiel’s Camerons",
               "Lochiel’s Camerons retreats 3 hexes", "Lochiel’s Camerons routs"]
    assert fitted(phrases, 110, UNITS) == (
        "Fraser's Highlanders scores 3 hits on Lochiel’s Camerons; Lochiel’s Camerons "
        "retreats 3 hexes and routs")


def test_a_cut_keeps_whole_phrases_how_it_ended_first_then_the_first_then_the_latest():
    phrases = ["Fraser's Highlanders scores 1 hit on Lord Elcho's Lifeguards",
               "Lord Elcho's Lifeguards retreats 10 hexes",
               "Fraser's Highlanders takes ground 1 hex",
               "Fraser's Highlanders scores 2 hits on Lochiel’s Camerons",
               "Lochiel’s Camerons retreats 3 hexes", "Lochiel’s Camerons routs"]
    said = fitted(phrases, 150, UNITS)
    assert said == ("Fraser's Highlanders scores 1 hit on Lord Elcho's Lifeguards … Lochiel’s "
                    "Camerons retreats 3 hexes and routs")
    assert len(said) <= 150
    assert "routs" in fitted(phrases, 60, UNITS)  # a phrase is never cut in the middle
    assert fitted(phrases, 60, UNITS) == "… Lochiel’s Camerons retreats 3 hexes and routs"
