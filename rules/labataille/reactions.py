"""What happens while cavalry charges, before any mêlée: an infantry stack forming Square
(Charge Summary step 2, then the cavalry's Recall) and a Reaction Charge (step 4 and the
Reaction Charge Sequence)."""

from __future__ import annotations

from dataclasses import replace

from rules.core.decisions import Answer, Answers, Question
from rules.core.dice import D66, DiceSource, d66_add, d66_value
from rules.core.errors import InvalidInput, NotAllowed
from rules.core.records import EffectKind, Modifier, Resolution, ResolutionBuilder, Roll, Severity
from rules.labataille.assault import Assault, Run
from rules.labataille.charge import INFANTRY, STEPS, TRY_RECALL, recall
from rules.labataille.charts import CARRE_RESULTS, ChartPack
from rules.labataille.effects import CHARGING, DISORDERED, SQUARE
from rules.labataille.morale import Check, morale_check
from rules.labataille.units import RULESET, Arm, Fatigue, Formation, Order, Stack

SQUARE_DISTANCE = 4  # "if the phasing cavalry moves within 4 hexes"
MAX_GAP = 20
CARRE_ANSWERS = (Answer("C", "C: square formed"), Answer("D", "D: disordered"),
                 Answer("R", "R: routed"))
RECALL_SQUARE = (TRY_RECALL, Answer("no", "Ride on"))


def form_square(infantry: Stack, distance: int, cavalry: Stack | None, target: bool,
                pack: ChartPack | None, dice: DiceSource, answers: Answers | None = None
                ) -> Resolution:
    check_square(infantry, distance)
    out = ResolutionBuilder(RULESET, "square", answers=answers or Answers())
    modifiers = [Modifier(infantry.mod, "Square chart modifiers (given)", "the players' charts")
                 ] if infantry.mod else []
    faces = dice.roll(D66(), f"{infantry.name} square")
    total = d66_add(d66_value(faces), sum(m.value for m in modifiers))  # type: ignore[arg-type]
    roll = Roll(f"{infantry.name} square", "d66", faces, modifiers=tuple(modifiers),
                total=total, target=f"{infantry.nation or 'any nation'}, {distance} hexes")
    found = pack.carre.result(infantry.nation, distance, total) \
        if pack is not None and pack.carre is not None else None
    if found is not None:
        source = f"{pack.name}: {pack.carre.provenance}"  # type: ignore[union-attr]
        out.step("2. Form Square", f"Row {total}, {distance} hexes: {found}.",
                 replace(roll, result=found, notes=(source,)))
    else:
        out.step("2. Form Square", f"Read row {total} of the Square (Carré) Realization chart "
                 f"({infantry.nation or 'its nation'}, {distance} hexes).", roll)
        found = out.ask(Question("carre_result", f"Read the Square (Carré) Realization chart: "
                                 f"{distance} hexes, row {total}. What does it say?",
                                 CARRE_ANSWERS, by="defender", unit=infantry.name)).key
    phrase = f"{infantry.name} {CARRE_RESULTS[found]}"
    severity = Severity.NONE
    if found == "C":
        out.effect(EffectKind.MARKER_SET, infantry.name, value=SQUARE, detail="carré")
    elif found == "D":
        out.effect(EffectKind.MARKER_SET, infantry.name, value=DISORDERED, detail="carré")
        severity = Severity.MINOR
    else:
        out.effect(EffectKind.ROUTED, infantry.name, detail="failed to form square")
        severity = Severity.MAJOR
    out.step("2. Form Square", f"{phrase}." + (" A stack may attempt to form Square once per "
                                               "triggering event." if found != "C" else ""))
    if found == "C" and cavalry is not None:
        square_recall(out, cavalry, target, pack, dice)
    return out.build(phrase, severity)


def check_square(infantry: Stack, distance: int) -> None:
    if infantry.arm is not Arm.INFANTRY:
        raise NotAllowed(f"{infantry.name} is not infantry: only infantry forms Square.")
    if infantry.formation is Formation.SQUARE:
        raise NotAllowed(f"{infantry.name} is already in Square.")
    if infantry.routed:
        raise NotAllowed(f"{infantry.name} is routed and cannot form Square.")
    if not 1 <= distance <= SQUARE_DISTANCE:
        raise NotAllowed(f"Square may be attempted when the cavalry comes within "
                         f"{SQUARE_DISTANCE} hexes (it is {distance}).",
                         hint="Give `distance` from 1 to 4 hexes, with a clear line of sight.")


def square_recall(out: ResolutionBuilder, cavalry: Stack, target: bool,
                  pack: ChartPack | None, dice: DiceSource) -> None:
    if cavalry.arm is not Arm.CAVALRY:
        raise InvalidInput(f"{cavalry.name} is not cavalry.", hint="Give the charging "
                           "cavalry as `cavalry`.")
    run = Run(Assault((cavalry,), (cavalry,), pack=pack, cavalry=True), dice, out,
              stacks={cavalry.name: cavalry}, attackers=[cavalry.name],
              steps=dict(STEPS[INFANTRY]))
    question = Question("recall", f"The square formed: will {cavalry.name} attempt to "
                        "Recall?", RECALL_SQUARE, by="attacker", unit=cavalry.name)
    if out.ask(question) is TRY_RECALL and recall(run, "2. Recall"):
        return
    must = ("it was the declared target: the cavalry must charge the Square"
            if target else "the cavalry rides on with its charge")
    out.step("2. Recall", f"No recall: {must}.")


def reaction_charge(reactor: Stack, charger: Stack, gap: int, pack: ChartPack | None,
                    dice: DiceSource) -> Resolution:
    check_reaction(reactor, charger, gap)
    out = ResolutionBuilder(RULESET, "reaction")
    outcome = morale_check(reactor, Check.REACTION, dice, pack, label="reaction charge")
    out.note("Each eligible stack may attempt a Reaction Charge once per Charge (a Grand "
             "Charge is one Charge); the Reaction Zone and Charge Zone must intersect.")
    if not outcome.passed:
        out.step("a. Reaction Charge", f"{reactor.name} fails: it remains in place, not "
                 f"disordered; {charger.name} continues its movement.", outcome.roll)
        return out.build(f"{reactor.name} does not react", Severity.NONE)
    charger_moves, reactor_moves = gap - gap // 2, gap // 2
    for stack, hexes in ((charger, charger_moves), (reactor, reactor_moves)):
        if hexes:
            out.effect(EffectKind.MOVED, stack.name, hexes, value="moves",
                       measure="hex" if hexes == 1 else "hexes", direction="to meet midway")
    out.effect(EffectKind.MARKER_SET, reactor.name, value=CHARGING,
               detail="the reacting player is now the attacker")
    odd = " (the gap is odd: the charging cavalry moves one more hex)" if gap % 2 else ""
    out.step("a. Reaction Charge", f"{reactor.name} passes: the two are brought face to face "
             f"midway: {charger.name} moves {charger_moves}, {reactor.name} {reactor_moves}"
             f"{odd}. {reactor.name} becomes the attacker for the rest of this Charge: "
             f"place a Charge marker on it. In a Grand Charge at least one charging unit "
             "must accept the Reaction Charge.", outcome.roll)
    return out.build(f"{reactor.name} counter-charges {charger.name}", Severity.MINOR)


def check_reaction(reactor: Stack, charger: Stack, gap: int) -> None:
    if reactor.arm is not Arm.CAVALRY or charger.arm is not Arm.CAVALRY:
        raise NotAllowed("A Reaction Charge is cavalry against charging cavalry.")
    if reactor.state is not Order.GOOD:
        raise NotAllowed(f"{reactor.name} is {reactor.state.value}: only cavalry in Good "
                         "Order may Reaction Charge.")
    if reactor.fatigue is Fatigue.EXHAUSTED:
        raise NotAllowed(f"{reactor.name} is Exhausted and may not Reaction Charge.")
    if not 0 <= gap <= MAX_GAP:
        raise InvalidInput(f"`gap` is the number of hexes between the two stacks (0 to "
                           f"{MAX_GAP}).")

