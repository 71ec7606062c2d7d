"""What the reacting player may attempt while cavalry moves and charges, before any mêlée: an
infantry stack forming Square (Charge Summary step 2, then the cavalry's Recall), a Reaction
Charge (step 4 and the Reaction Charge Sequence), and skirmishing cavalry Forming Up to stand
(step 5).

Each is one attempt per triggering event: per charge, or per move of cavalry that carries no
Charge marker yet; a Grand Charge (several charging stacks) is one charge. Every attempt says
so in a ``reacted`` effect, which a battle keeps until the next turn.
"""

from __future__ import annotations

from dataclasses import replace

from rules.core.decisions import Answer, Answers, Question
from rules.core.dice import D66, DiceSource, d66_add, d66_band, d66_value, plain_readings
from rules.core.errors import InvalidInput, NotAllowed
from rules.core.notation import doing, possessive
from rules.core.records import Modifier, Resolution, ResolutionBuilder, Roll, Severity
from rules.labataille.assault import Assault, Run
from rules.labataille.charge import INFANTRY, STEPS, TRY_RECALL, check_recall, recall
from rules.labataille.charts import CARRE_RESULTS, ChartPack
from rules.labataille.effects import CHARGED, CHARGING, DISORDERED, REACTED, SQUARE, EffectKind
from rules.labataille.morale import Check, morale_check
from rules.labataille.needs import check_leaders
from rules.labataille.units import (
    RULESET,
    Arm,
    ChargeMarker,
    Fatigue,
    Formation,
    Order,
    Stack,
    nation_name,
)

SQUARE_DISTANCE = 4  # "if the phasing cavalry moves within 4 hexes"
MAX_GAP = 20
CARRE_ANSWERS = (Answer("C", "C: square formed"), Answer("D", "D: disordered"),
                 Answer("R", "R: routed"))
RECALL_SQUARE = (TRY_RECALL, Answer("no", "Ride on"))


FORMED = Formation.LINE  # skirmishing cavalry that forms up (project reading: in line)


def hexes(distance: int) -> str:
    return f"{distance} hex" if distance == 1 else f"{distance} hexes"


def event(chargers: tuple[Stack, ...]) -> str:
    """The triggering event: the charge, once the cavalry carries its Charge marker; before
    that, its move."""
    return "charge" if any(c.charge is ChargeMarker.CHARGING for c in chargers) else "move"


def reacted(out: ResolutionBuilder, stack: Stack, chargers: tuple[Stack, ...]) -> None:
    if chargers:
        out.effect(REACTED, stack.name, detail=event(chargers),
                   value="; ".join(c.name for c in chargers))


def check_chargers(chargers: tuple[Stack, ...]) -> None:
    not_cavalry = [c.name for c in chargers if c.arm is not Arm.CAVALRY]
    if not_cavalry:
        raise InvalidInput(f"{', '.join(not_cavalry)}: not cavalry.",
                           hint="Name the charging cavalry (several stacks: a Grand Charge).")


def form_square(infantry: Stack, distance: int, chargers: tuple[Stack, ...], target: bool,
                pack: ChartPack | None, dice: DiceSource, answers: Answers | None = None
                ) -> Resolution:
    check_square(infantry, distance)
    check_chargers(chargers)
    if target and event(chargers) != "charge":
        # "If the stack was the declared target of the Charge": there is a Charge.
        raise InvalidInput("`target` says the stack is the declared target of the cavalry's "
                           "Charge, but the cavalry carries no Charge marker.",
                           hint="Mark the charging cavalry `charging` (its Charge marker), "
                                "or drop `target`: cavalry only moving has no target.")
    if event(chargers) == "charge":  # a square that forms asks for the Recall
        check_recall(chargers, pack)
    out = ResolutionBuilder(RULESET, "square", answers=answers or Answers())
    reacted(out, infantry, chargers)
    modifiers = [Modifier(infantry.mod, "Square chart modifiers (given)", "the players' charts")
                 ] if infantry.mod else []
    faces = dice.roll(D66(), f"{infantry.name} square")
    total = d66_add(d66_value(faces), sum(m.value for m in modifiers))  # type: ignore[arg-type]
    roll = Roll(f"{infantry.name} square", "d66", faces, modifiers=tuple(modifiers),
                total=total, target=f"{nation_name(infantry.nation) or 'any nation'}, from "
                                    f"{infantry.formation.value}, {hexes(distance)}",
                readings=plain_readings(faces))
    carre = pack.carre if pack is not None else None
    formation = infantry.formation.value
    found = carre.result(infantry.nation, formation, distance, total) if carre else None
    if found is not None:
        source = f"{pack.name}: {pack.carre.provenance}"  # type: ignore[union-attr]
        out.step("2. Form Square", f"Row {total}, {hexes(distance)}: {found}.",
                 replace(roll, result=found, notes=(source,)))
    else:
        why = f"; {carre.missing(infantry.nation, formation, distance)}" if carre else ""
        nation = nation_name(infantry.nation) or "its nation"
        out.step("2. Form Square", f"Read row {total} of the Square (Carré) Realization chart "
                 f"({nation}, from {formation}, {hexes(distance)}{why}).", roll)
        found = out.ask(Question("carre_result", f"Read the Square (Carré) Realization chart: "
                                 f"{hexes(distance)}, row {total}. What does it say?",
                                 CARRE_ANSWERS, by="defender", unit=infantry.name,
                                 cell=("Square (Carré) Realization", hexes(distance),
                                       d66_band(total)))).key
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
    if found == "C" and event(chargers) == "charge":
        after = square_recall(out, chargers, target, pack, dice)
        if after is not None:  # what the cavalry does next leads the reply too
            phrase = f"{phrase}; {after}"
    elif found == "C" and chargers:
        out.step("2. Form Square", "The cavalry carries no Charge marker: it is moving, not "
                 "charging, so there is no Recall.")
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


def square_recall(out: ResolutionBuilder, chargers: tuple[Stack, ...], target: bool,
                  pack: ChartPack | None, dice: DiceSource) -> str | None:
    """The cavalry's Recall once the square formed (a Grand Charge recalls as one); what the
    cavalry must do when it does not recall, for the headline (None: it recalled)."""
    run = Run(Assault(chargers, chargers, pack=pack, cavalry=True), dice, out,
              stacks={c.name: c for c in chargers}, attackers=[c.name for c in chargers],
              steps=dict(STEPS[INFANTRY]))
    names = " and ".join(c.name for c in chargers)
    question = Question("recall", f"The square formed: will {names} attempt to Recall?",
                        RECALL_SQUARE, by="attacker", unit=chargers[0].name)
    if out.ask(question) is TRY_RECALL and recall(run, "2. Recall"):
        return None
    must = ("it was the declared target: the cavalry must charge the Square"
            if target else "the cavalry rides on with its charge")
    out.step("2. Recall", f"No recall: {must}.")
    return f"{names} must charge the Square" if target else \
        f"{doing([c.name for c in chargers], 'rides', 'ride')} on"


def reaction_charge(reactor: Stack, chargers: tuple[Stack, ...], gap: int,
                    pack: ChartPack | None, dice: DiceSource, answers: Answers | None = None
                    ) -> Resolution:
    check_reaction(reactor, chargers, gap)
    out = ResolutionBuilder(RULESET, "reaction", answers=answers or Answers())
    reacted(out, reactor, chargers)
    outcome = morale_check(reactor, Check.REACTION, dice, pack, out, label="reaction charge")
    out.note("Each eligible stack may attempt a Reaction Charge once per Charge (a Grand "
             "Charge is one Charge); the Reaction Zone and Charge Zone must intersect.")
    names = " and ".join(c.name for c in chargers)
    if not outcome.passed:
        out.step("a. Reaction Charge", f"{reactor.name} fails: it remains in place, not "
                 f"disordered; the charge of {names} goes on.", outcome.roll)
        return out.build(f"{reactor.name} does not react", Severity.NONE)
    charger = accepting(out, reactor, chargers, outcome.roll)
    # The charge met is over as a charge: its cavalry is now the defender of the reactor's
    # (project reading, docs/labataille.md); the rest of a Grand Charge rides on.
    out.effect(EffectKind.MARKER_SET, charger.name, value=CHARGED,
               detail="met by a Reaction Charge: now the defender")
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
             f"place a Charge marker on it. {charger.name} is now the defender: its Charge "
             "marker is inverted (it charged this turn). Resolve the mêlée as the charge of "
             f"{reactor.name} on {charger.name} (Cavalry Charge vs. Cavalry).",
             *([outcome.roll] if len(chargers) == 1 else []))
    return out.build(f"{reactor.name} counter-charges {charger.name}", Severity.MINOR)


def accepting(out: ResolutionBuilder, reactor: Stack, chargers: tuple[Stack, ...],
              roll: Roll) -> Stack:
    """In a Grand Charge at least one charging stack must accept the Reaction Charge: the
    phasing player says which meets it."""
    if len(chargers) == 1:
        return chargers[0]
    out.step("a. Reaction Charge", f"{reactor.name} passes: in a Grand Charge at least one "
             "charging stack must accept the Reaction Charge.", roll)
    question = Question("accepts", f"Which charging stack accepts "
                        f"{possessive(reactor.name)} Reaction Charge?",
                        tuple(Answer(str(n), c.name) for n, c in enumerate(chargers, start=1)),
                        by="attacker", unit=chargers[0].name)
    return chargers[int(out.ask(question).key) - 1]


def check_reaction(reactor: Stack, chargers: tuple[Stack, ...], gap: int) -> None:
    if reactor.arm is not Arm.CAVALRY or any(c.arm is not Arm.CAVALRY for c in chargers):
        raise NotAllowed("A Reaction Charge is cavalry against charging cavalry.")
    if reactor.state is not Order.GOOD:
        raise NotAllowed(f"{reactor.name} is {reactor.state.value}: only cavalry in Good "
                         "Order may Reaction Charge.")
    if reactor.fatigue is Fatigue.EXHAUSTED:
        raise NotAllowed(f"{reactor.name} is Exhausted and may not Reaction Charge.")
    if not 0 <= gap <= MAX_GAP:
        raise InvalidInput(f"`gap` is the number of hexes between the two stacks (0 to "
                           f"{MAX_GAP}).")
    check_charging(chargers, "a Reaction Charge is")
    check_leaders([reactor])  # its morale check counts its leader's value


def check_charging(chargers: tuple[Stack, ...], attempt: str) -> None:
    """A Reaction Charge and a Form Up are "at any time during Charge movement" (Summary steps
    4 and 5): cavalry only moving carries no Charge marker and has no Charge Zone."""
    not_charging = [c.name for c in chargers if c.charge is not ChargeMarker.CHARGING]
    if not_charging:
        carry = "carries" if len(not_charging) == 1 else "carry"
        raise NotAllowed(f"{' and '.join(not_charging)} {carry} no Charge marker: {attempt} "
                         "attempted during Charge movement.",
                         hint="Give the charging cavalry its marker: the word "
                              "`charge=charging` (in a battle, `/unit edit unit:… "
                              "words:charge=charging`, by its player or a GM).")



def form_up(skirmishers: Stack, chargers: tuple[Stack, ...], pack: ChartPack | None,
            dice: DiceSource) -> Resolution:
    """Charge Summary step 5: cavalry in Skirmish Order in the Charge Zone attempts to Form Up
    and Stand. The text names no test: a morale check, as the Reaction Charge's (project
    reading, docs/labataille.md)."""
    check_form_up(skirmishers)
    check_chargers(chargers)
    check_charging(chargers, "Forming Up is")
    out = ResolutionBuilder(RULESET, "formup")
    reacted(out, skirmishers, chargers)
    outcome = morale_check(skirmishers, Check.REACTION, dice, pack, out, label="form up")
    out.default("Forming Up is a morale check with the Reaction Charge's modifiers (the text "
                "names no test): a project reading")
    name = skirmishers.name
    if outcome.passed:
        out.effect(EffectKind.FORMATION, name, value=FORMED.value,
                   detail="form up and stand")
        out.step("5. Form Up and Stand", f"{name} forms up and stands: it no longer "
                 "retreats before the charge.", outcome.roll)
        return out.build(f"{name} forms up and stands", Severity.NONE)
    out.step("5. Form Up and Stand", f"{name} stays in Skirmish Order (not disordered); when "
             "the charging cavalry moves adjacent it may still Retreat Before Charge.",
             outcome.roll)
    return out.build(f"{name} stays in Skirmish Order", Severity.MINOR)


def check_form_up(stack: Stack) -> None:
    if stack.arm is not Arm.CAVALRY or stack.formation is not Formation.SKIRMISH:
        raise NotAllowed(f"{stack.name} is not cavalry in Skirmish Order: only skirmishing "
                         "cavalry forms up to stand.",
                         hint="Give it `cavalry formation=skirmish`.")
    if stack.routed:
        raise NotAllowed(f"{stack.name} is routed and cannot form up.")
    check_leaders([stack])  # its morale check counts its leader's value
