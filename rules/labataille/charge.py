"""The revised Cavalry Charge's mêlées: against PGD (routed units), against infantry and
artillery (steps 1-9), against cavalry (steps 1-4, then the regroup), on the assault's
shared steps (morale checks, shifts, fire, odds, the chart, advance after mêlée).

Which procedure applies follows the targets (Charge Summary step 6): all routed, PGD; all
cavalry, cavalry; otherwise infantry and artillery. The reply says which.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.core.decisions import Answer, Answers, Question
from rules.core.dice import D6, DiceSource, plain_readings
from rules.core.errors import InvalidInput, NotAllowed
from rules.core.headlines import MAX_HEADLINE, fitted
from rules.core.notation import counted, doing, listed, possessive
from rules.core.records import Modifier, Resolution, ResolutionBuilder, Roll, Severity
from rules.labataille.assault import (
    Assault,
    Run,
    advance,
    check_assault,
    defenders_checked,
    fire_target,
    lose,
    melee_resolution,
    odds,
    retreat_before,
    rout,
    shift_roll,
    taken,
    unsupplied_artillery,
    whole_side,
)
from rules.labataille.charts import ChartPack, ChartResult
from rules.labataille.effects import CHARGED, DISORDERED, EXHAUSTED, TIRED, EffectKind
from rules.labataille.fire import BELOW_SAID, FireBelowChart, fire
from rules.labataille.morale import Check, morale_check
from rules.labataille.needs import check_charge_needs
from rules.labataille.published import (
    RECALL_LEADER,
    RECALL_SOURCE,
    RECALL_THRESHOLDS,
)
from rules.labataille.units import RULESET, TEXT, Arm, ChargeMarker, Fatigue, Stack, nation_name

PGD, INFANTRY, CAVALRY = "PGD", "infantry and artillery", "cavalry"
MAX_CHARGE_MP = 5  # "Charging units have 5 MPs to conduct their Charge movement"
TRY_RECALL, NO_RECALL = Answer("recall", "Attempt to Recall"), Answer("no", "Pursue")
NEW_TARGET, END_CHARGE = Answer("new", "Choose a new target"), Answer("end", "End the Charge")
INTO_A_UNIT = Answer("unit", "Into or through a unit: pursue it")
INTO_NONE = Answer("none", "No unit: the charge ends")
REGROUP_HEXES = 2
PURSUIT_SOURCE = f"{TEXT}, Cavalry Charge vs. PGD step 1 and vs. Infantry step 8"
CANISTER_SOURCE = f"{TEXT}, Cavalry Charge vs. Infantry and Artillery step 3 NOTE"
STEPS = {
    PGD: {"regroup": "2"},
    INFANTRY: {"shifts": "3", "odds": "5", "roll": "6", "advance": "7", "regroup": "9"},
    CAVALRY: {"shifts": "-", "odds": "2", "roll": "3", "advance": "4", "regroup": "5"},
}


def target_kind(targets: tuple[Stack, ...]) -> str:
    if all(t.routed for t in targets):
        return PGD
    standing = [t for t in targets if not t.routed]
    return CAVALRY if all(t.arm is Arm.CAVALRY for t in standing) else INFANTRY


def resolve_charge(charge: Assault, dice: DiceSource, answers: Answers | None = None
                   ) -> Resolution:
    check_charge(charge)
    out = ResolutionBuilder(RULESET, "cavalry", answers=answers or Answers())
    kind = target_kind(charge.defenders)
    run = Run(charge, dice, out, stacks={s.name: s for s in
                                         (*charge.attackers, *charge.defenders)},
              steps=dict(STEPS[kind]))
    run.attackers = [s.name for s in charge.attackers]
    run.defenders = [s.name for s in charge.defenders]
    if not charge.reached:
        fell_short(run)
        return out.build(f"{doing(run.attackers, 'falls', 'fall')} short: disordered",
                         Severity.MINOR)
    out.step("Cavalry Charge", f"{_names(charge.defenders)}: the Cavalry Charge vs. {kind} "
             "Mêlée procedure.")
    out.note("Charge movement may trigger Opportunity Fire and Reaction Charges, but not "
             "Opportunity Charges.")
    {PGD: against_pgd, INFANTRY: against_infantry, CAVALRY: against_cavalry}[kind](run)
    headline = fitted(run.phrases, MAX_HEADLINE, run.stacks) or f"Cavalry Charge vs. {kind}"
    return out.build(headline, run.worst)


def check_charge(charge: Assault) -> None:
    check_assault(charge)
    not_cavalry = [s.name for s in charge.attackers if s.arm is not Arm.CAVALRY]
    if not_cavalry:
        raise InvalidInput(f"{', '.join(not_cavalry)}: only cavalry charge.",
                           hint="Give the charging stacks `cavalry`; infantry assault.")
    routed = [s.name for s in charge.attackers if s.routed]
    exhausted = [s.name for s in charge.attackers
                 if not s.routed and s.fatigue is Fatigue.EXHAUSTED]
    unable = [f"{doing(names, 'is', 'are')} {why} and cannot charge"
              for names, why in ((routed, "routed"), (exhausted, "exhausted")) if names]
    if unable:
        # Exhausted cavalry may not charge: a reading of the series rules (docs/labataille.md).
        fixes = (["A routed stack rallies before it charges again."] if routed else []) + (
            ["Exhausted cavalry may not initiate a charge: once your rules let it recover, "
             "its marker comes off (`fatigue=fresh`)."] if exhausted else [])
        raise InvalidInput("; ".join(unable) + ".", hint=" ".join(fixes))
    charged = [s.name for s in charge.attackers if s.charge is ChargeMarker.CHARGED]
    if charged:
        carries = "carries" if len(charged) == 1 else "carry"
        raise NotAllowed(f"{' and '.join(charged)} {carries} an inverted Charge marker: "
                         "charged this turn (or met by a Reaction Charge).",
                         hint="A new turn takes the inverted markers off.")
    if not charge.reached:
        return
    if any(s.retreats for s in charge.defenders):  # a Recall may follow (step 1b)
        check_recall(charge.attackers, charge.pack)
    kind = target_kind(charge.defenders)
    if kind != CAVALRY:
        if charge.spent is None:
            raise InvalidInput("Give `spent`: the MPs the charge expended (0 to 5).",
                               hint="Pursuit losses are (printed MP − MPs expended) ÷ 3.")
        if not any(s.mp for s in charge.attackers):
            raise InvalidInput("Give the charging cavalry's printed Movement Potential "
                               "(`mp=6`).",
                               hint="Pursuit losses are (printed MP − MPs expended) ÷ 3.")
    check_charge_needs(charge.attackers, charge.defenders, pgd=kind == PGD,
                       cavalry=kind == CAVALRY, losses=pursuit_count(charge))


def fell_short(run: Run) -> None:
    """Charge Summary step 3: cavalry that has not come adjacent to its declared target when
    its 5 MPs are spent is Disordered, and the charge is finished (no mêlée, no regroup:
    project reading; it still charged this turn)."""
    riders = run.standing(run.attackers)
    for stack in riders:
        if not stack.disordered:
            run.out.effect(EffectKind.MARKER_SET, stack.name, value=DISORDERED,
                           detail="charge fell short")
        run.out.effect(EffectKind.MARKER_SET, stack.name, value=CHARGED,
                       detail="inverted Charge marker")
    run.out.step("3. Charge Movement", f"{_names(riders)} did not reach "
                 f"{_names(list(run.assault.defenders))}, its declared target, with its "
                 f"{MAX_CHARGE_MP} MPs: Disordered, and the charge is finished. Mark it with "
                 "an inverted Charge marker (it charged this turn).")


# --- the three mêlée procedures -----------------------------------------------------------------


def against_pgd(run: Run) -> None:
    losses = pursuit_losses(run, "1. Pursuit")
    ridden = []  # those the pursuit leaves standing, to rout again ("destroyed" says the rest)
    for stack in run.standing(run.defenders):
        pursue(run, stack, losses)
        if stack.name not in run.gone:
            rout(run, stack, "PGD charged")
            if run.stacks[stack.name].increments != 0:  # else destroyed in its rout: said
                ridden.append(stack.name)
    if ridden:
        run.phrases.append(f"{doing(ridden, 'is', 'are')} ridden down")
    run.out.step("1. Pursuit", "The PGD units rout again, each losing an increment per Zone "
                 "of Influence retreated from.")
    regroup(run, melee=False)


def against_infantry(run: Run) -> None:
    if retreat_before_charge(run) or unsupplied_artillery(
            run, "charging units", lambda done: regroup(done, melee=False)):
        return
    if roll_to_stand(run):
        return
    defensive_fire(run)
    if not run.standing(run.attackers):
        run.phrases.append("no mêlée")  # each stack destroyed is named already, once
        run.out.step("4. Defensive Fire", "No charging cavalry is left: there is no mêlée.")
        return
    if not run.standing(run.defenders):
        run.out.step("4. Defensive Fire", "No target is left: the cavalry advances into the "
                     "target hex.")
        advance(run, "into the target hex", disorder=False)
        regroup(run, melee=False)
        return
    column = odds(run)
    result = melee_resolution(run, column)
    apply_result(run, result, pursuit=True)


def against_cavalry(run: Run) -> None:
    run.out.note("Cavalry against cavalry: each mêlée is resolved one at a time; the players "
                 "alternate choosing which (`/order labataille kind:cavalry` says who chooses "
                 "first).")
    if retreat_before_charge(run):
        return
    column = odds(run)
    result = melee_resolution(run, column)
    apply_result(run, result, pursuit=False)


# --- step 1: retreat before charge and recall ------------------------------------------------


def retreat_before_charge(run: Run) -> bool:
    leaving = retreat_before(run, "charge", "18.3")
    if not leaving:
        return False
    names = doing([s.name for s in leaving], "retreats", "retreat")
    run.phrases.append(f"{names} before the charge")
    run.out.step("1a. Retreat Before Charge", f"{names} before the charge (18.3.1). "
                 "Retreat Before Charge may trigger Opportunity Reactions.")
    question = Question("recall", "Will the charging cavalry attempt to Recall?",
                        (TRY_RECALL, NO_RECALL), by="attacker", unit=run.attackers[0])
    if run.out.ask(question) is TRY_RECALL and recall(run, "1b. Recall"):
        return True
    if run.standing(run.defenders):
        run.out.step("1b. Pursue", "The cavalry charges the stacks that stay.")
        return False
    question = Question("pursued_into", "Did the retreating stacks retreat into or through "
                        "any unit?", (INTO_A_UNIT, INTO_NONE), by="attacker",
                        unit=run.attackers[0])
    if run.out.ask(question) is INTO_A_UNIT:
        # The charge to come is what the chargers' player acts on: the reply leads with it
        # (a phone's headline keeps its first phrase; the retreat has its own line).
        run.phrases.insert(0, f"{listed(run.attackers)} must charge the units "
                           f"{listed([s.name for s in leaving])} retreated into or through")
        run.out.step("1b. Pursue", "The cavalry must pursue and charge the units the "
                     "retreating stacks retreated into or through: resolve that as its own "
                     "charge.")
        return True
    # Nothing to pursue: the charge ends without a mêlée (project reading).
    run.out.step("1b. Pursue", "The retreating stacks went into or through no unit: the "
                 "cavalry advances into the vacated hex and the charge ends.")
    advance(run, "into the vacated hex", disorder=False)
    regroup(run, melee=False)
    return True


def recall(run: Run, title: str) -> bool:
    """A Recall attempt of the charging cavalry: True when recalled (the charge is over
    unless a new target is chosen)."""
    leader = next((s for s in run.standing(run.attackers) if s.leader), None)
    stack = run.stacks[run.attackers[0]]
    threshold, source = recall_threshold(run, stack)
    modifiers = (Modifier(RECALL_LEADER, f"{leader.leader} (cavalry leader)", RECALL_SOURCE),) \
        if leader else ()
    faces = run.dice.roll(D6(), "recall")
    total = int(faces[0]) + sum(m.value for m in modifiers)  # type: ignore[arg-type]
    recalled = total >= threshold
    roll = Roll("recall", "1d6", faces, modifiers=modifiers, total=total,
                target=f"≥ {threshold}", result="recalled" if recalled else "rides on",
                notes=(source,), readings=plain_readings(faces))
    if not recalled:
        run.out.step(title, "The Recall fails: the cavalry rides on.", roll)
        return False
    question = Question("after_recall", "The cavalry is recalled: choose a new target, or "
                        "end the Charge?", (NEW_TARGET, END_CHARGE), by="attacker",
                        unit=stack.name)
    run.out.step(title, "The cavalry is recalled.", roll)
    run.phrases.append("the cavalry is recalled")
    if run.out.ask(question) is NEW_TARGET:
        run.out.step(title, "A new target: resolve the charge on it as its own charge.")
        return True
    regroup(run, melee=False)
    return True


def recall_threshold(run: Run, stack: Stack) -> tuple[int, str]:
    return threshold_of(stack, run.assault.pack)


def threshold_of(stack: Stack, pack: ChartPack | None) -> tuple[int, str]:
    """A stack's Recall threshold on 1d6 and where it comes from: its own `recall`, the chart
    pack's game, else Talavera's (reference A.8), named as such."""
    if stack.recall is not None:
        return stack.recall, "Recall threshold given"
    nation = stack.nation.casefold()
    table = pack.recall if pack is not None else None
    if table is not None and nation in table.values:
        return int(table.values[nation]), table.provenance
    if nation in RECALL_THRESHOLDS:
        lacking = f"; the chart pack has none for {nation_name(stack.nation)}" \
            if table is not None else ""
        return RECALL_THRESHOLDS[nation], RECALL_SOURCE + lacking
    raise InvalidInput(f"{stack.name}: no Recall threshold for "
                       f"{stack.nation or 'a stack without a nation'}.",
                       hint="Give `recall=N` (recalled on N or more on 1d6), or a chart "
                            "pack's `recall` table for your game; the thresholds shipped are "
                            f"Talavera's ({', '.join(RECALL_THRESHOLDS)}).")


def check_recall(chargers: tuple[Stack, ...], pack: ChartPack | None) -> None:
    """Refuses, before any die, a charge that may be asked to Recall without a threshold
    (a Grand Charge recalls on its first-named stack's)."""
    if chargers:
        threshold_of(chargers[0], pack)


# --- steps 2 to 4 ----------------------------------------------------------------------------


def roll_to_stand(run: Run) -> bool:
    """Each target stack checks morale; True when all routed (the charge is over)."""
    pack = run.assault.pack
    outcomes = [morale_check(s, Check.STAND, run.dice, pack, run.out, label="roll to stand")
                for s in run.standing(run.defenders)]
    defenders_checked(run, outcomes, "3. Roll to Stand", "stands")
    if not run.standing(run.defenders):
        run.out.step("3. Roll to Stand", "All targets routed: the cavalry advances into the "
                     "target hex.")
        advance(run, "into the target hex", disorder=False)
        pursuit_of_routed(run, [o.stack for o in outcomes])
        regroup(run, melee=False)
        return True
    if run.passed:
        shift_roll(run)
    return False


def defensive_fire(run: Run) -> None:
    shots = []
    for stack in run.standing(run.defenders):
        if stack.fire is None:
            continue
        target = fire_target(run, stack, run.attackers)
        canister = stack.canister and stack.arm is Arm.ARTILLERY
        shots.append(fire(stack, target, stack.name in run.doubled, run.dice,
                          canister=canister, canister_source=CANISTER_SOURCE,
                          below=run.assault.fire_below))
    if not shots:
        run.out.step("4. Defensive Fire", "No target stack has a fire value: no fire.")
        return
    for shot in shots:
        run.out.step("4. Defensive Fire", f"{shot.stack.name} fires on {shot.target.name}: "
                     + (f"{counted(shot.casualties, 'casualty', 'casualties')}." if shot.roll
                        else f"{BELOW_SAID[FireBelowChart.NONE]}."),
                     *([shot.roll] if shot.roll else []))
    casualties = sum(taken(run, shot.target, shot.casualties) for shot in shots)
    if casualties:
        run.fire_modifier = [Modifier(-3 * casualties, "defenders' fire",
                                      f"{TEXT}, Cavalry Charge step 4a")]
    run.out.note("The charging cavalry takes no morale checks from defensive fire.")


# --- results, advance, pursuit, regroup --------------------------------------------------------


def apply_result(run: Run, result: ChartResult, *, pursuit: bool) -> None:
    cavalry = not pursuit
    step = run.steps["roll"]
    match result.code:
        case "AS":
            names = [s.name for s in run.standing(run.attackers)]
            for stack in run.standing(run.attackers):
                run.out.effect(EffectKind.SURRENDERED, stack.name, detail="AS")
                run.gone.add(stack.name)
            run.hurt(Severity.DECISIVE)
            run.phrases.append(f"AS: {whole_side(names, 'attackers', 'surrenders', 'surrender')}")
            run.out.step(f"{step}a. AS", "Attackers surrender: removed from play. The "
                         "defenders do not advance.")
        case "AR":
            names = [s.name for s in run.standing(run.attackers)]
            run.phrases.append(f"AR: {whole_side(names, 'attackers', 'routs', 'rout')}")
            for stack in run.standing(run.attackers):
                rout(run, stack, "AR")
                # Routed, it does not regroup; its charge is over all the same.
                run.out.effect(EffectKind.MARKER_SET, stack.name, value=CHARGED,
                               detail="inverted Charge marker")
            run.out.step(f"{step}b. AR", "Attackers rout. The defenders do not advance.")
        case "FF":
            bouncing = run.standing(run.attackers) + (run.standing(run.defenders) if cavalry
                                                      else [])
            for stack in bouncing:
                run.out.effect(EffectKind.MOVED, stack.name, value="bounces", detail="15.11")
            run.phrases.append("Blank: the cavalry bounces")
            run.hurt(Severity.MINOR)
            run.out.step(f"{step}c. Blank: Bounce",
                         f"{doing([s.name for s in bouncing], 'bounces', 'bounce')} (15.11) "
                         "and the Charge is finished.")
            regroup(run, melee=True, moved=False)
        case "DR" | "DS":
            defeated(run, result, pursuit=pursuit)
            regroup(run, melee=True)


def defeated(run: Run, result: ChartResult, *, pursuit: bool) -> None:
    step = run.steps["roll"]
    ignored = f" The # is ignored in a charge mêlée ({result.label} read as {result.code})." \
        if result.hexes else ""
    names = [s.name for s in run.standing(run.defenders)]
    if result.code == "DS":
        for stack in run.standing(run.defenders):
            run.out.effect(EffectKind.SURRENDERED, stack.name, detail="DS")
            run.gone.add(stack.name)
        run.hurt(Severity.DECISIVE)
        run.phrases.append(f"DS: {whole_side(names, 'defenders', 'surrenders', 'surrender')}")
        run.out.step(f"{step}e. DS", "Defenders surrender: removed from play." + ignored)
        advance(run, "into the target hex", disorder=True)
        return
    run.phrases.append(f"DR: {whole_side(names, 'defenders', 'routs', 'rout')}")
    if pursuit:
        run.out.step(f"{step}d. DR", "Defenders rout: pursuit losses before the rout."
                     + ignored)
        losses = pursuit_losses(run, f"{step}d. Pursuit losses")
        routing = run.standing(run.defenders)
        for stack in routing:
            pursue(run, stack, losses)
        advance(run, "into the target hex", disorder=True)
        for stack in routing:
            if stack.name not in run.gone:
                rout(run, stack, "DR")
        run.out.step("8. Pursuit", "The defenders complete their rout, each losing an "
                     "increment per Zone of Influence retreated from.")
        return
    for stack in run.standing(run.defenders):
        rout(run, stack, "DR")
    run.out.step(f"{step}d. DR", "Defenders rout. There is no pursuit of cavalry after "
                 "mêlée." + ignored)
    advance(run, "into the target hex", disorder=True)


def pursuit_of_routed(run: Run, routed: list[Stack]) -> None:
    """Step 8 when every target routed at the roll to stand: the cavalry pursues them (not
    the stacks that retreated before the charge)."""
    losses = pursuit_losses(run, "8. Pursuit")
    for stack in routed:
        pursue(run, stack, losses)
    run.out.step("8. Pursuit", f"Each routed target loses {counted(losses, 'increment')} to the "
                 "pursuit, then completes its rout.")


def fastest(chargers: Sequence[Stack]) -> Stack | None:
    """The charging stack with the highest printed Movement Potential."""
    return max((s for s in chargers if s.mp), key=lambda s: s.mp or 0, default=None)


def pursuit_count(charge: Assault) -> int:
    """(printed MP − MPs expended) ÷ 3, rounded down, on the cavalry with the highest MP."""
    quickest = fastest(charge.attackers)
    if quickest is None or charge.spent is None:
        return 0
    return max(0, ((quickest.mp or 0) - charge.spent) // 3)


def pursuit_losses(run: Run, title: str) -> int:
    """(printed MP − MPs expended) ÷ 3, rounded down, on the cavalry with the highest MP."""
    quickest = fastest(run.standing(run.attackers))
    if quickest is None or run.assault.spent is None:
        return 0
    mp = quickest.mp or 0
    losses = max(0, (mp - run.assault.spent) // 3)
    run.out.step(title, f"Pursuit losses: ({possessive(quickest.name)} printed MP {mp} − "
                 f"{run.assault.spent} MPs expended) ÷ 3, rounded down = {losses}. "
                 f"({PURSUIT_SOURCE})")
    return losses


def pursue(run: Run, stack: Stack, losses: int) -> None:
    if losses:
        lose(run, stack, losses, "pursuit")


def regroup(run: Run, *, melee: bool, moved: bool = True) -> None:
    """Cavalry Regroup: two hexes back along the charge path, Tired or Exhausted, and the
    inverted Charge marker."""
    riders = run.standing(run.attackers)
    if not riders:
        return
    words = []
    for stack in riders:
        if moved:
            run.out.effect(EffectKind.MOVED, stack.name, REGROUP_HEXES, value="regroups",
                           measure="hexes", direction="back along the charge path")
        # A charge without mêlée tires; with mêlée, or on cavalry already tired, exhausts.
        fatigue = EXHAUSTED if melee or stack.fatigue is not Fatigue.FRESH else TIRED
        run.out.effect(EffectKind.MARKER_SET, stack.name, value=fatigue, detail="regroup")
        run.out.effect(EffectKind.MARKER_SET, stack.name, value=CHARGED,
                       detail="inverted Charge marker")
        words.append(f"{stack.name} is {fatigue}")
    path = ("Each charging stack moves two hexes back along the exact path the Charge "
            "followed, displacing any unit there one hex further along it. " if moved else "")
    them, they = ("it", "it") if len(riders) == 1 else ("them", "they")
    run.out.step(f"{run.steps['regroup']}. Cavalry Regroup", f"{path}{', '.join(words)}; "
                 f"mark {them} with an inverted Charge marker ({they} charged this turn).")


def _names(stacks: list[Stack]) -> str:
    return listed([s.name for s in stacks])
