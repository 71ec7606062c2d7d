"""A headline of phrases fitted to its room: said as one per unit, then cut between phrases."""

from __future__ import annotations

from rules.core.headlines import fitted

UNITS = ("Fraser's Highlanders", "Lochiel’s Camerons", "Lord Elcho's Lifeguards")


def test_without_a_phrase_on_how_it_ended_who_struck_first_leads():
    phrases = ["Fraser's Highlanders scores 3 hits on Lochiel’s Camerons",
               "Lochiel’s Camerons scores 2 hits on Fraser's Highlanders",
               "Fraser's Highlanders retreats 1 hex"]
    assert fitted(phrases, 100, UNITS) == (
        "Fraser's Highlanders scores 3 hits on Lochiel’s Camerons … Fraser's Highlanders "
        "retreats 1 hex")


def test_a_headline_that_fits_is_said_whole():
    assert fitted(["A scores 1 hit on B", "B retreats 1 hex"], 88) == (
        "A scores 1 hit on B; B retreats 1 hex")


def test_a_units_phrases_one_after_another_are_said_as_one_before_any_is_cut():
    phrases = ["Fraser's Highlanders scores 3 hits on Lochiel’s Camerons",
               "Lochiel’s Camerons retreats 3 hexes", "Lochiel’s Camerons routs"]
    assert fitted(phrases, 110, UNITS) == (
        "Fraser's Highlanders scores 3 hits on Lochiel’s Camerons; Lochiel’s Camerons "
        "retreats 3 hexes and routs")


def test_a_cut_keeps_whole_phrases_how_it_ended_first_then_the_latest():
    phrases = ["Fraser's Highlanders scores 1 hit on Lord Elcho's Lifeguards",
               "Lord Elcho's Lifeguards retreats 10 hexes",
               "Fraser's Highlanders takes ground 1 hex",
               "Fraser's Highlanders scores 2 hits on Lochiel’s Camerons",
               "Lochiel’s Camerons retreats 3 hexes", "Lochiel’s Camerons routs"]
    said = fitted(phrases, 150, UNITS)
    assert said == ("… Fraser's Highlanders takes ground 1 hex and scores 2 hits on Lochiel’s "
                    "Camerons; Lochiel’s Camerons retreats 3 hexes and routs")
    assert len(said) <= 150
    assert "routs" in fitted(phrases, 60, UNITS)  # a phrase is never cut in the middle
    assert fitted(phrases, 60, UNITS) == "… Lochiel’s Camerons retreats 3 hexes and routs"


def test_a_units_phrases_too_long_said_as_one_are_kept_one_by_one():
    units = ("Lord Ogilvy's Forfarshire Regiment", "Hamilton's Dragoons", "Gardiner's Dragoons")
    phrases = ["Lord Ogilvy's Forfarshire Regiment eliminates Hamilton's Dragoons",
               "Lord Ogilvy's Forfarshire Regiment scores 1 hit on Gardiner's Dragoons",
               "Gardiner's Dragoons retreats 1 hex"]
    assert fitted(phrases, 88, units) == (
        "Lord Ogilvy's Forfarshire Regiment eliminates Hamilton's Dragoons …")


def test_a_headline_is_cut_within_a_phrase_only_when_no_phrase_fits_alone():
    long = "Highland Regiment of Foot retreats 2 hexes and takes 2 flags it cannot ignore"
    assert fitted([long, long], 40) == long[:39].rstrip() + "…"


def test_a_blow_that_fell_on_nobody_gives_way_to_one_that_did():
    units = ("Cobham’s Dragoons", "FitzJames’s Horse")
    phrases = ["Cobham’s Dragoons scores no hit on FitzJames’s Horse",
               "FitzJames’s Horse scores 2 hits on Cobham’s Dragoons",
               "Cobham’s Dragoons retreats 2 hexes"]
    assert fitted(phrases, 88, units) == (
        "… FitzJames’s Horse scores 2 hits on Cobham’s Dragoons …")
    assert fitted(phrases, 100, units) == (
        "… FitzJames’s Horse scores 2 hits on Cobham’s Dragoons; Cobham’s Dragoons retreats "
        "2 hexes")
