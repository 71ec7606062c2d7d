"""Charges (phases 3 and 8) played through to the melee: who may charge, the British
infantry's 6 to charge, cavalry's bonus move, squares and skirmishers firing, then the
charger's closing check (4 or 9) and the target's check to stand (5 or 10)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.core.decisions import Answers
from rules.core.dice import D6, DiceSource, TwoD6, plain_readings
from rules.core.errors import NotAllowed
from rules.core.names import name_key
from rules.core.notation import possessive
from rules.core.records import Resolution, ResolutionBuilder, Roll, Severity
from rules.le_baton.dice_counts import fire_dice
from rules.le_baton.effects import EffectKind
from rules.le_baton.fire import FireTarget, Target, casualties, destroyed, shoot
from rules.le_baton.may_charge import closing_phase, why_it_cannot_charge
from rules.le_baton.morale import Situation, run_check
from rules.le_baton.units import (
    BOTH_SIDES,
    RULESET,
    SHEET,
    Formation,
    Nation,
    Unit,
    require_figures,
)

SQUARE_DICE = 2  # "Squares contacted fire two dice."


@dataclass(frozen=True)
class ChargeSituation:
    target_defensive_terrain: bool = False
    flank_or_rear: bool = False
    another_infantry_charging: bool = False
    target_already_contacted: bool = False
    cannot_form_line: bool = False


def check_charge(charger: Unit, target: Unit, s: ChargeSituation) -> None:
    """Who may charge whom, as the sheet's charge paragraphs say."""
    name = charger.name
    if name_key(target.name) == name_key(name):  # one name for both: told apart nowhere
        raise NotAllowed(f"{name} is named on both sides.", hint=BOTH_SIDES)
    if charger.nation is target.nation:
        raise NotAllowed(f"{name} and {target.name} are on the same side.")
    if refusal := why_it_cannot_charge(charger):
        raise NotAllowed(refusal.reason, hint=refusal.until or None)
    if charger.is_infantry:
        if target.is_cavalry:
            raise NotAllowed(f"{name} is infantry: infantry cannot charge cavalry.")
        if s.another_infantry_charging:
            raise NotAllowed(f"Another infantry unit is already charging {target.name}: "
                             "multiple infantry units may not charge the same target.")
    elif target.is_cavalry and s.target_already_contacted:
        raise NotAllowed(f"{target.name} is already contacted: enemy cavalry may only be "
                         "contacted by one unit.")


def resolve_charge(charger: Unit, target: Unit, s: ChargeSituation,
                   dice: DiceSource, answers: Answers | None = None) -> Resolution:
    check_charge(charger, target, s)
    out = ResolutionBuilder(RULESET, "charge", answers=answers or Answers())
    phase = 3 if charger.nation is Nation.FRENCH else 8
    if (charger.british_infantry and not charger.general
            and not s.target_defensive_terrain and not _rolls_a_six(charger, dice, out)):
        out.effect(EffectKind.CHARGE_FAILED, charger.name)  # no second try this turn
        return out.build(f"{charger.name} does not charge", Severity.NONE)
    out.step(f"Phase {phase}: charge declared",
             f"{charger.name} charges {target.name}" + (" in flank or rear." if s.flank_or_rear
                                                         else "."))
    if charger.is_cavalry:
        _bonus_move(charger, dice, out)
    else:  # "Multiple infantry units may not charge the same target": kept for the turn
        out.effect(EffectKind.INFANTRY_CHARGED, target.name, value=charger.name)
    charger = _reaction_fire(charger, target, dice, out)
    if destroyed(out):
        # The fire took its last figure: no charge goes on, and nobody tests against it.
        return out.build(f"{charger.name} is destroyed by {possessive(target.name)} fire",
                         Severity.DECISIVE)
    if charger.is_cavalry:  # its charge marker, where the charge began, for its recall
        out.effect(EffectKind.CHARGE_MARKER, charger.name, detail=f"{SHEET}: cavalry charges")
    if charger.is_infantry:
        phase_check = closing_phase(charger)
        check, outcome = run_check(charger, phase_check, Situation(
            charging=True, opponent=target.name, cannot_form_line=s.cannot_form_line),
            dice, out)
        if check.fail_by >= 3 or (check.fail_by and (phase_check == 9 or charger.in_column)):
            return out.build(outcome.headline, outcome.severity)
    if target.formation is Formation.SKIRMISH:
        out.note(f"Skirmishers are destroyed if contacted: if {charger.name} still reaches "
                 f"{target.name} after its evade, remove it.")
        return out.build(f"{target.name} shoots and evades {charger.name}", Severity.MINOR)
    fight = 6 if charger.nation is Nation.FRENCH else 11
    if target.is_infantry and not target.in_melee:
        stand_phase = 5 if target.nation is Nation.BRITISH else 10
        check, outcome = run_check(target, stand_phase, Situation(
            flank_or_rear=s.flank_or_rear, charged_by=charger.arm, opponent=charger.name),
            dice, out)
        if check.fail_by >= 3 or any(e.kind is EffectKind.PLACED for e in out.effects
                                     if e.unit == charger.name):
            return out.build(outcome.headline, outcome.severity)
        # A square formed in this check (phase 5's pass or its 4+, phase 10's "May form
        # square") does not fire: "Squares contacted fire two dice" is the charge's own
        # fire, in its move (phase 3 or 8), when the unit was not yet a square; the melee
        # that follows is the square's ("Infantry do not roll melee dice").
    _contact(charger, target, out)
    return out.build(f"{charger.name} contacts {target.name}: melee in phase {fight}",
                     Severity.MINOR)


def _rolls_a_six(charger: Unit, dice: DiceSource, out: ResolutionBuilder) -> bool:
    (face,) = dice.roll(D6(), f"{charger.name} rolls to charge")
    ok = face == 6
    out.step("British infantry without a general",
             "It charges." if ok else "It does not charge; it may try again next turn.",
             Roll(f"{charger.name} to charge", "1d6", (face,), total=face, target="6",
                  result="charges" if ok else "stays", readings=plain_readings((face,))))
    return ok


def _bonus_move(charger: Unit, dice: DiceSource, out: ResolutionBuilder) -> None:
    faces = dice.roll(TwoD6(), f"{charger.name} bonus move")
    inches = sum(faces)
    out.step("Cavalry bonus movement",
             f"{charger.name} adds {inches}\" to its move. Mark the spot where the charge "
             "began: it returns there when recalled. It fights every unit it contacts, "
             "stopping at the end of its move or on meeting enemy cavalry, difficult terrain "
             "or friendly infantry or cavalry.",
             Roll(f"{charger.name} bonus move", "2d6", faces, total=inches,
                  result=f'+{inches}"', readings=plain_readings(faces)))


def _reaction_fire(charger: Unit, target: Unit, dice: DiceSource,
                   out: ResolutionBuilder) -> Unit:
    """Squares fire two dice at cavalry; skirmishers shoot and evade 2d6". Returns the
    charger with the casualties it took (they count in its morale check)."""
    if target.formation is Formation.SQUARE and charger.is_cavalry:
        return _square_fires(charger, target, dice, out)
    if target.formation is not Formation.SKIRMISH:
        return charger
    require_figures(target, " to shoot at the chargers")
    # The charger's row of the target table: British infantry charge in any formation, and
    # a charger in skirmish order is still "Skirmishers 6+".
    kind = (FireTarget.CHARGING_CAVALRY if charger.is_cavalry else
            FireTarget.COLUMN if charger.in_column else
            FireTarget.SKIRMISHERS if charger.formation is Formation.SKIRMISH else
            FireTarget.LINE)
    roll = shoot(target, Target(charger.name, kind), fire_dice(target), dice)
    if charger.figures and (roll.hits or 0) >= charger.figures:
        # Its last figure lost: nobody comes on, so nobody evades.
        out.step(f"{target.name} (skirmishers) shoot", "They shoot.", roll)
        return _hit(charger, roll, out)
    faces = dice.roll(TwoD6(), f"{target.name} evades")
    inches = sum(faces)
    out.step(f"{target.name} (skirmishers) shoot and evade",
             f"They shoot, then move {inches}\" away.", roll,
             Roll(f"{target.name} evade", "2d6", faces, total=inches, result=f'{inches}"',
                  readings=plain_readings(faces)))
    out.effect(EffectKind.PLACED, target.name, inches, value=f"away from {charger.name}")
    return _hit(charger, roll, out)


def _square_fires(charger: Unit, target: Unit, dice: DiceSource,
                  out: ResolutionBuilder) -> Unit:
    """"Squares contacted fire two dice": a square the charging cavalry meets in its move."""
    roll = shoot(target, Target(charger.name, FireTarget.CHARGING_CAVALRY), SQUARE_DICE, dice)
    out.step(f"{target.name} (square) fires", "Squares contacted fire two dice.", roll)
    return _hit(charger, roll, out)


def _hit(charger: Unit, roll: Roll, out: ResolutionBuilder) -> Unit:
    """The charger with the casualties the reaction fire scored on it."""
    if roll.hits:
        # No more casualties than figures, where they are given (0: not given).
        lost = casualties(out, Target(charger.name, FireTarget.LINE,
                                      figures=charger.figures or None),
                          roll.hits, f"{SHEET}: charges")
        return replace(charger, casualties=charger.casualties + lost)
    return charger


def _contact(charger: Unit, target: Unit, out: ResolutionBuilder) -> None:
    for unit, other in ((charger.name, target.name), (target.name, charger.name)):
        if not any(e.kind is EffectKind.IN_MELEE and e.unit == unit for e in out.effects):
            out.effect(EffectKind.IN_MELEE, unit, value=other)
