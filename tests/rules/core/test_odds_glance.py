"""The odds at a glance: results grouped by the fates of the units that fought, who wins, the
results under a lone main outcome, and one line for the rest, each figure the exact sum of
the results under it."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules.core.dice import D6, DiceSource, TwoD6
from rules.core.effects import register_effects
from rules.core.odds import Distribution, OutcomeOdds, exact_odds, odds_for_request
from rules.core.odds_glance import (
    DRAWN,
    FIREFIGHT,
    HOLD,
    OTHER,
    Fate,
    Glance,
    fate_of,
    glance,
    lead_of,
)
from rules.core.records import Effect, Resolution, ResolutionBuilder, Severity
from rules.registry import RULESETS

from .test_odds import REQUESTS, EffectKind, request

SIDES = {"Grenadiers": "attackers", "Béarn": "defenders"}


def test_a_fate_is_read_from_the_kind_or_a_move_s_verb_and_detail_has_none():
    assert fate_of(Effect(EffectKind.SURRENDERED, "33rd")) == (Fate.GONE, "surrenders")
    assert fate_of(Effect("eliminated", "Fusiliers")) == (Fate.GONE, "is eliminated")
    assert fate_of(Effect("routed_off", "Fusiliers")) == (Fate.ROUTS, "routs")
    assert fate_of(Effect(EffectKind.RETIRE, "Béarn", 3)) == (Fate.FALLS_BACK, "retires")
    assert fate_of(Effect(EffectKind.MOVED, "52nd", 2, value="retreats before the enemy")) \
        == (Fate.FALLS_BACK, "retreats")
    # Detail: an advance, a loss, a marker, a general's fate.
    for effect in (Effect(EffectKind.MOVED, "1/45e", 1, value="advances"),
                   Effect(EffectKind.MOVED, "Foot", 1, value="takes ground"),
                   Effect(EffectKind.LOSE_SP, "Béarn", 2),
                   Effect(EffectKind.MARKER_SET, "52nd", value="disordered"),
                   Effect(EffectKind.GENERAL_KILLED, "Bougainville")):
        assert fate_of(effect) is None, effect


@pytest.mark.parametrize(("headline", "lead"), [
    ("52nd wins the melee (4–2): 4e Léger tests in phase 7", "52nd wins the melee"),
    ("4e Léger and 52nd tie, 3 all", "4e Léger and 52nd tie"),
    ("Attackers win by 2: Béarn routs, −2 SP", "Attackers win"),
    ("Drawn at 5: both sides retire 3\"", "Drawn"),
    ("Drawn at −8: both sides retire 3\"", "Drawn"),
    ("Black Watch scores 2 hits on Fusiliers; Fusiliers scores 1 hit", "Black Watch scores "
     "2 hits on Fusiliers"),
    ("British chooses the first assault (tie: the dice decided)",
     "British chooses the first assault"),
    ("Lancers does not react", "Lancers does not react"),
])
def test_a_headline_s_lead_says_what_happened_without_how(headline, lead):
    assert lead_of(headline) == lead


def clash(dice: DiceSource) -> Resolution:
    """Two d6, one a side, as a melee: the higher wins, by 3 or more the loser routs (losing
    1 SP, or 2 on a 6), else retires; a tie fights on. Bougainville, with the defenders, is
    wounded on a 1 of the defenders' die: detail, not who won."""
    out = ResolutionBuilder("test", "clash")
    (attack,) = dice.roll(D6(), "attackers")
    (defend,) = dice.roll(D6(), "defenders")
    margin = attack - defend  # type: ignore[operator]
    if defend == 1:
        out.effect(EffectKind.GENERAL_WOUNDED, "Bougainville")
    if margin == 0:
        return out.build(f"Tied at {attack}", Severity.NONE)
    winner, loser = ("Attackers", "Béarn") if margin > 0 else ("Defenders", "Grenadiers")
    if abs(margin) >= 3:
        out.effect(EffectKind.ROUTED, loser)
        out.effect(EffectKind.LOSE_SP, loser, 2 if 6 in (attack, defend) else 1)
        return out.build(f"{winner} win by {abs(margin)}: {loser} routs", Severity.DECISIVE)
    out.effect(EffectKind.RETIRE, loser, 3, measure='"')
    return out.build(f"{winner} win by {abs(margin)}: {loser} retires", Severity.MAJOR)


def exact_sum(line) -> Fraction:
    return sum((o.probability for o in line.outcomes), Fraction(0))


def test_results_are_grouped_by_fates_with_exact_sums_and_who_wins_is_said_per_side():
    odds = exact_odds(clash, sides=SIDES)
    seen = glance(odds.branch(), odds.sides)
    lines = {line.label: line.probability for line in seen.lines}
    # A rout by 3, 4 or 5, with 1 or 2 SP lost and Bougainville wounded or not: one outcome.
    assert lines == {"Béarn routs": Fraction(6, 36), "Grenadiers routs": Fraction(6, 36),
                     "Béarn retires": Fraction(9, 36), "Grenadiers retires": Fraction(9, 36),
                     HOLD: Fraction(6, 36)}
    assert len(seen.lines[0].outcomes) > 1  # the ways of coming to it are under it
    verdicts = {line.label: line.probability for line in seen.verdicts}
    assert verdicts == {"Grenadiers wins": Fraction(15, 36), "Béarn wins": Fraction(15, 36),
                        HOLD: Fraction(6, 36)}
    for line in (*seen.lines, *seen.verdicts):
        assert line.probability == exact_sum(line)
    assert sum((line.probability for line in seen.lines), Fraction(0)) == 1
    assert sum((line.probability for line in seen.verdicts), Fraction(0)) == 1


def test_the_rest_is_one_line_and_the_lines_with_it_sum_to_exactly_one():
    odds = exact_odds(clash, sides=SIDES)
    seen = glance(odds.branch(), odds.sides)
    shown, rest = seen.top(2)
    assert [line.label for line in shown] == ["Béarn retires", "Grenadiers retires"]
    assert rest is not None and rest.label == OTHER
    assert rest.probability == Fraction(18, 36) == exact_sum(rest)
    assert sum((line.probability for line in (*shown, rest)), Fraction(0)) == 1
    # A rest of one line is that line itself.
    shown, rest = seen.top(4)
    assert rest is None and len(shown) == 5


def test_without_sides_a_fight_decides_no_winner_and_only_its_outcomes_are_shown():
    seen = glance(exact_odds(clash).branch(), {})
    assert seen.verdicts == ()
    assert {line.label for line in seen.lines} >= {"Béarn routs", "Grenadiers retires"}


def test_a_lead_naming_a_winner_or_a_tie_says_who_won():
    def melee(dice: DiceSource) -> Resolution:
        (a,) = dice.roll(D6(), "a")
        (b,) = dice.roll(D6(), "b")
        out = ResolutionBuilder("test", "melee")
        out.effect(EffectKind.CASUALTIES, "52nd", b)
        out.effect(EffectKind.CASUALTIES, "4e Léger", a)
        if a == b:
            return out.build(f"4e Léger and 52nd tie, {a} all", Severity.MINOR)
        winner = "52nd" if b < a else "4e Léger"
        return out.build(f"{winner} wins the melee ({max(a, b)}–{min(a, b)})", Severity.MAJOR)

    odds = exact_odds(melee, sides={"4e Léger": "attacker", "52nd": "defender"})
    seen = glance(odds.branch(), odds.sides)
    assert {line.label: line.probability for line in seen.verdicts} == {
        "52nd wins": Fraction(15, 36), "4e Léger wins": Fraction(15, 36),
        DRAWN: Fraction(6, 36)}
    assert [line.label for line in seen.lines] == [
        "4e Léger wins the melee", "52nd wins the melee", "4e Léger and 52nd tie"]


def test_a_lone_main_outcome_shows_the_results_under_it_by_what_sets_them_apart():
    def volley(dice: DiceSource) -> Resolution:
        faces = dice.roll(TwoD6(), "volley")
        hits = sum(1 for face in faces if face >= 5)  # type: ignore[operator]
        out = ResolutionBuilder("test", "volley")
        out.effect(EffectKind.MARKER_SET, "Foe", value="under fire")
        if hits:
            out.effect(EffectKind.CASUALTIES, "Foe", hits)
        return out.build(f"Foe is under fire: {hits} hits", Severity.MINOR)

    seen = glance(exact_odds(volley).branch(), {"Foe": "target"})
    # Every result marks Foe "under fire": said by none of the lines but the one that has
    # nothing else, which says its lead.
    assert [(line.label, line.probability) for line in seen.lines] == [
        ("Foe takes 1–2 casualties", Fraction(5, 9)), ("Foe is under fire", Fraction(4, 9))]


@pytest.mark.parametrize("pair", sorted(REQUESTS), ids="-".join)
def test_every_figure_of_every_rule_set_s_glance_is_the_exact_sum_under_it(pair):
    odds = odds_for_request(RULESETS, request(*pair), max_leaves=20_000)
    assert odds.exact
    for branch in odds.branches:
        seen = glance(branch, odds.sides)
        assert isinstance(seen, Glance)
        outcomes = [o for line in seen.lines for o in line.outcomes]
        assert sorted(map(id, outcomes)) == sorted(map(id, branch.outcomes))  # each once
        for line in (*seen.lines, *seen.verdicts):
            assert line.probability == exact_sum(line) > 0, line.label
        for shown in range(1, 4):
            top, rest = seen.top(shown)
            total = sum((line.probability for line in top), Fraction(0))
            assert total + (rest.probability if rest else 0) == 1
        if seen.verdicts:
            assert sum((v.probability for v in seen.verdicts), Fraction(0)) == 1


def test_units_that_give_way_alike_are_named_together_by_side_or_all():
    def rout(dice: DiceSource) -> Resolution:
        (face,) = dice.roll(D6(), "d6")
        out = ResolutionBuilder("test", "rout")
        losers = {1: ["A1", "A2", "D1"], 2: ["A1", "A2"], 3: ["A1"]}.get(face, [])
        for unit in losers:
            out.effect(EffectKind.RETIRE, unit, 3)
        return out.build(f"rolled {face}", Severity.MINOR)

    sides = {"A1": "attackers", "A2": "attackers", "D1": "defenders"}
    seen = glance(exact_odds(rout, sides=sides).branch(), sides)
    assert {line.label: line.probability for line in seen.lines} == {
        "all retire": Fraction(1, 6), "Attackers retire": Fraction(1, 6),
        "A1 retires": Fraction(1, 6), HOLD: Fraction(1, 2)}
    assert {line.label: line.probability for line in seen.verdicts} == {
        DRAWN: Fraction(1, 6), "D1 wins": Fraction(1, 3), HOLD: Fraction(1, 2)}


def test_a_firefight_is_an_outcome_of_its_own_beside_who_wins():
    def assault(dice: DiceSource) -> Resolution:
        (face,) = dice.roll(D6(), "d6")
        out = ResolutionBuilder("test", "assault")
        if face <= 2:
            out.effect(EffectKind.ROUTED, "52nd")
            return out.build("DR: the defenders rout", Severity.MAJOR)
        out.effect(EffectKind.FIREFIGHT, "1/45e", value="52nd")
        out.effect(EffectKind.FIREFIGHT, "52nd", value="1/45e")
        return out.build(f"Blank ({face}): a firefight", Severity.MINOR)

    sides = {"1/45e": "attackers", "52nd": "defenders"}
    seen = glance(exact_odds(assault, sides=sides).branch(), sides)
    assert [(line.label, line.probability) for line in seen.verdicts] == [
        (FIREFIGHT, Fraction(2, 3)), ("1/45e wins", Fraction(1, 3))]
    assert [(line.label, line.probability) for line in seen.lines] == [
        (FIREFIGHT, Fraction(2, 3)), ("52nd routs", Fraction(1, 3))]


def test_a_rule_set_declares_by_which_of_its_kinds_a_unit_gives_way():
    register_effects({"broken": "breaks and leaves"}, "declared",
                     fates={"broken": ("gone", "breaks")})
    assert fate_of(Effect("broken", "Rangers", ruleset="declared")) == (Fate.GONE, "breaks")
    # Undeclared, its words say nothing: detail, not a fate.
    assert fate_of(Effect("broken", "Rangers", ruleset="another")) is None
    with pytest.raises(ValueError, match="falls back, routs, gone"):
        register_effects({"shattered": "shatters"}, "declared",
                         fates={"shattered": ("shattered", "shatters")})


def chart_rows(exact: bool) -> Distribution:
    """Where the dice land on a chart the player reads: five bands of the 2:1 column (rows
    61–66 the likeliest, by a leader's +6) and a band of the 1:1 column, in 1,000 parts."""
    cells = [("2:1", "11–16", 118), ("2:1", "21–26", 121), ("2:1", "31–36", 114),
             ("2:1", "41–46", 124), ("2:1", "61–66", 231), ("1:1", "31–36", 292)]
    return Distribution((), tuple(
        OutcomeOdds(f"{column} {rows}", "Read the chart", Severity.NONE, Fraction(n, 1000),
                    None if exact else n, cell=("Assault et Mêlée", column, rows))
        for column, rows, n in cells), exact, None if exact else 1000)


def test_a_charts_rows_read_likeliest_first_and_the_other_columns_last():
    seen = glance(chart_rows(exact=True), SIDES)
    assert [line.label for line in seen.lines] == [
        "rows 61–66", "rows 41–46", "rows 21–26", "rows 11–16", "rows 31–36",
        "other columns"]


def test_an_estimates_rows_as_likely_within_a_point_keep_the_charts_order():
    """12.4%, 12.1% and 11.8% are all ~12% to a reader, and as likely within the noise of
    an estimate: the chart's order, not the noise's."""
    seen = glance(chart_rows(exact=False), SIDES)
    assert [line.label for line in seen.lines] == [
        "rows 61–66", "rows 11–16", "rows 21–26", "rows 41–46", "rows 31–36",
        "other columns"]
