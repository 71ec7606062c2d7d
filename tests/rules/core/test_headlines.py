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
    # The beginning leads; then how it ended, with the phrase before it; then the latest
    # that fits.
    assert said == ("Fraser's Highlanders scores 1 hit on Lord Elcho's Lifeguards … Fraser's "
                    "Highlanders takes ground 1 hex … Lochiel’s Camerons retreats 3 hexes and "
                    "routs")
    assert len(said) <= 150
    assert fitted(phrases, 110, UNITS) == (
        "Fraser's Highlanders scores 1 hit on Lord Elcho's Lifeguards … Lochiel’s Camerons "
        "retreats 3 hexes and routs")
    # A phrase is never cut in the middle: with room for one, the first, and "…" after it.
    assert fitted(phrases, 62, UNITS) == (
        "Fraser's Highlanders scores 1 hit on Lord Elcho's Lifeguards …")
    # Without room for it whole, the first is cut at a word's end, never a later one kept.
    assert fitted(phrases, 60, UNITS) == "Fraser's Highlanders scores 1 hit on Lord Elcho's …"


def test_a_cut_headline_never_opens_on_the_gap_mark():
    """A phone shows a title's start: it keeps who struck first, and how hard; what it
    leaves out is cut at a phrase's end."""
    units = ("Royal Artillery", "Atholl Brigade")
    phrases = ["Royal Artillery scores 1 hit on Atholl Brigade",
               "Atholl Brigade retreats 2 hexes", "Atholl Brigade routs"]
    assert fitted(phrases, 88, units) == (
        "Royal Artillery scores 1 hit on Atholl Brigade … Atholl Brigade routs")
    assert fitted(phrases, 60, units) == "Royal Artillery scores 1 hit on Atholl Brigade …"
    assert fitted(phrases, 100, units) == (
        "Royal Artillery scores 1 hit on Atholl Brigade; Atholl Brigade retreats 2 hexes and "
        "routs")


def test_a_units_phrases_too_long_said_as_one_are_kept_one_by_one():
    units = ("Lord Ogilvy's Forfarshire Regiment", "Hamilton's Dragoons", "Gardiner's Dragoons")
    phrases = ["Lord Ogilvy's Forfarshire Regiment eliminates Hamilton's Dragoons",
               "Lord Ogilvy's Forfarshire Regiment scores 1 hit on Gardiner's Dragoons",
               "Gardiner's Dragoons retreats 1 hex"]
    assert fitted(phrases, 88, units) == (
        "Lord Ogilvy's Forfarshire Regiment eliminates Hamilton's Dragoons …")


def test_a_headline_is_cut_within_a_phrase_only_when_no_phrase_fits_alone():
    long = "Highland Regiment of Foot retreats 2 hexes and takes 2 flags it cannot ignore"
    assert fitted([long, long], 40) == "Highland Regiment of Foot retreats 2 …"
    assert fitted(["Lochiel’s-Camerons-of-Achnacarry retreats"], 20) == "Lochiel’s-Camerons …"


def test_a_blow_that_fell_on_nobody_gives_way_to_one_that_did():
    units = ("Cobham’s Dragoons", "FitzJames’s Horse", "Ogilvy’s")
    phrases = ["Cobham’s Dragoons scores 2 hits on FitzJames’s Horse",
               "Cobham’s Dragoons scores 1 hit on Ogilvy’s",
               "FitzJames’s Horse scores no hit on Cobham’s Dragoons"]
    assert fitted(phrases, 100, units) == (
        "Cobham’s Dragoons scores 2 hits on FitzJames’s Horse and scores 1 hit on Ogilvy’s …")


def test_a_first_blow_that_fell_on_nobody_still_leads():
    """The beginning is kept, whatever it says: what follows is said on the units' lines."""
    units = ("Cobham’s Dragoons", "FitzJames’s Horse")
    phrases = ["Cobham’s Dragoons scores no hit on FitzJames’s Horse",
               "FitzJames’s Horse scores 2 hits on Cobham’s Dragoons",
               "Cobham’s Dragoons retreats 2 hexes"]
    assert fitted(phrases, 88, units) == "Cobham’s Dragoons scores no hit on FitzJames’s Horse …"
    assert fitted(phrases, 100, units) == (
        "Cobham’s Dragoons scores no hit on FitzJames’s Horse … Cobham’s Dragoons retreats 2 "
        "hexes")
