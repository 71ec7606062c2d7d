"""Distinct outcomes, for GM overrides: exhaustive when small, sampled when large."""

from __future__ import annotations

from dataclasses import replace

from rules.core.dice import D6Pool, ReplaySource
from rules.core.outcomes import distinct_outcomes
from rules.core.prepared import label_of
from rules.core.records import Effect, EffectKind, Resolution, ResolutionBuilder, Severity
from rules.fire_at_will.charge import resolve_charge
from rules.fire_at_will.melee import resolve_melee
from rules.fire_at_will.units import Arm, Charger, Cover, General, MeleeUnit, Unit


def test_every_charge_result_is_found_and_replays():
    target = Unit("T", Arm.INFANTRY, basic_morale=4)
    chargers = [Charger(Unit("C", Arm.INFANTRY))]
    outcomes = distinct_outcomes(lambda d: resolve_charge(target, chargers, Cover.NONE, d))
    # Plainest first: no effect on units, then the rout.
    assert [o.label for o in outcomes] == [
        "T stands: melee follows (no effect on units)",
        "T routs; T loses 1 SP",
    ]
    for outcome in outcomes:
        replayed = resolve_charge(target, chargers, Cover.NONE, ReplaySource(outcome.path))
        assert label_of(replayed) == outcome.label


def test_rare_general_results_are_found_exhaustively():
    att = [MeleeUnit(Unit("A", Arm.INFANTRY))]
    dfn = [MeleeUnit(Unit("D", Arm.INFANTRY, general=General("G")))]
    labels = {o.label for o in distinct_outcomes(lambda d: resolve_melee(att, dfn, d))}
    assert "D routs; D loses 2 SP; G is captured; G: units of his command within 18\" are shaken" \
        in labels
    assert len({o.key for o in distinct_outcomes(lambda d: resolve_melee(att, dfn, d))}) == len(
        labels)


def test_large_fights_fall_back_to_sampling():
    att = [MeleeUnit(Unit(f"A{i}", Arm.INFANTRY)) for i in range(8)]
    dfn = [MeleeUnit(Unit("D", Arm.INFANTRY))]
    outcomes = distinct_outcomes(lambda d: resolve_melee(att, dfn, d), max_leaves=100,
                                 samples=500)
    labels = {o.label for o in outcomes}
    assert "D routs; D loses 2 SP" in labels
    for outcome in outcomes:
        assert label_of(resolve_melee(att, dfn, ReplaySource(outcome.path))) == outcome.label


def test_a_pool_too_large_to_walk_is_sampled_not_expanded():
    def volley(dice):
        faces = dice.roll(D6Pool(30, 4), "volley")
        out = ResolutionBuilder("test", "volley")
        out.effect(EffectKind.DAMAGE, "T", sum(1 for f in faces if f >= 4))
        return out.build("volley", Severity.NONE)

    outcomes = distinct_outcomes(volley, max_leaves=1000, samples=300)
    assert 5 <= len(outcomes) <= 31


def test_a_label_leaves_out_effects_of_no_words():
    from rules.le_baton.effects import EffectKind as LB

    resolution = Resolution("le-baton", "charge", "Buffs does not charge", Severity.NONE, (),
                            (Effect(LB.CHARGE_FAILED, "Buffs", ruleset="le-baton"),))
    assert label_of(resolution) == "Buffs does not charge (no effect on units)"
    placed = replace(resolution, effects=(
        Effect(LB.INFANTRY_CHARGED, "52nd", value="Buffs", ruleset="le-baton"),
        Effect(LB.PLACED, "Buffs", 2, value="from 52nd", ruleset="le-baton")))
    assert label_of(placed) == 'Buffs is placed 2" from 52nd'


def test_a_sample_whose_dice_put_an_answer_given_ahead_out_of_reach_is_no_fault():
    """Sampled (the walk too large), a path on which the dice put an answer given ahead out
    of reach is left to the walk's listing: the GM's list is made, not a traceback."""
    from rules.core.decisions import OutOfReach
    from rules.core.dice import D6
    from rules.core.outcomes import enumerate_outcomes

    def prepared(dice, answers=None):
        (face,) = dice.roll(D6(), "melee")
        if face <= 3:
            raise OutOfReach("D has left the field.", asking=("bonus_melee", 0))
        return ResolutionBuilder("test", "melee").build(f"A rolls {face}", Severity.MINOR)

    found = enumerate_outcomes(prepared, max_leaves=0, samples=60)
    assert {o.headline for o in found.outcomes} == {"A rolls 4", "A rolls 5", "A rolls 6"}
