"""Morale checks (phases 2, 4, 5, 7, 9, 10, 12) and cavalry recall (13).

A check rolls 1d6 against the unit's number (Elite 6, Veteran 5, Conscript 4) after the
phase's modifiers change that number: at or under it passes; "fail by N" is how far over it
the roll is (../shared/reference/le-baton.md). Each phase then has its own consequences.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from rules.core.decisions import Answer, Answers, Question, Undecided
from rules.core.dice import D6, DiceSource, plain_readings
from rules.core.errors import NotAllowed
from rules.core.notation import counted
from rules.core.records import (
    Modifier,
    Resolution,
    ResolutionBuilder,
    Roll,
    Severity,
    Step,
)
from rules.le_baton.effects import EffectKind
from rules.le_baton.may_charge import why_it_cannot_charge
from rules.le_baton.units import MORALE, RULESET, SHEET, Arm, Formation, Nation, Unit

PHASE_TITLES: dict[int, str] = {
    2: "morale for artillery casualties",
    4: "French morale for shooting casualties and to close for melee",
    5: "British infantry morale to stand for melee",
    7: "morale for losing melees",
    9: "British morale for shooting casualties and to close for melee",
    10: "French infantry morale to stand for melee",
    12: "morale for losing melees",
    13: "cavalry recall",
}
MORALE_PHASES = tuple(PHASE_TITLES)


@dataclass(frozen=True)
class Situation:
    """What the sheet's modifiers and outcomes ask about the unit testing."""

    charging: bool = False
    flank_or_rear: bool = False
    charged_by: Arm | None = None
    opponent: str = "the enemy"
    cannot_form_line: bool = False
    initiated_charge: bool = False
    # Whether the opponent may take an infantry formation; None when nobody knows (a quick
    # lookup naming it only).
    opponent_infantry: bool | None = None
    # The opponent's formation where the roster knows it: a change to it is no change.
    opponent_formation: Formation | None = None

    @property
    def opponent_named(self) -> bool:
        return self.opponent != "the enemy"


@dataclass(frozen=True)
class PhaseModifier:
    reason: str
    value: int
    phases: tuple[int, ...]
    applies: Callable[[Unit, Situation], bool]


PHASE_MODIFIERS: tuple[PhaseModifier, ...] = (
    PhaseModifier("British infantry in column", -1, (2, 7, 9, 12),
                  lambda u, s: u.british_infantry and u.in_column),
    PhaseModifier("infantry in column", -1, (5,), lambda u, s: u.is_infantry and u.in_column),
    PhaseModifier("infantry charging", -1, (4, 9), lambda u, s: u.is_infantry and s.charging),
    PhaseModifier("charged in flank/rear", -1, (5, 10), lambda u, s: s.flank_or_rear),
)


def threshold_modifiers(unit: Unit, phase: int, situation: Situation) -> list[Modifier]:
    source = f"{SHEET}: phase {phase} modifiers"
    modifiers = []
    if unit.casualties >= 3:
        modifiers.append(Modifier(-(unit.casualties // 3),
                                  f"for {unit.casualties} casualties (−1 per 3)", source))
    if unit.general:
        modifiers.append(Modifier(+1, "general attached to unit", source))
    modifiers += [Modifier(m.value, m.reason, source) for m in PHASE_MODIFIERS
                  if phase in m.phases and m.applies(unit, situation)]
    return modifiers


def check_who_tests(unit: Unit, phase: int, situation: Situation) -> None:
    """Each phase says who tests; a unit that does not is refused with the reason."""
    if phase not in PHASE_TITLES:
        raise NotAllowed(f"Phase {phase} has no morale check.",
                         hint=f"Checks are made in phases {', '.join(map(str, MORALE_PHASES))}.")
    # Who tests at all comes before whose phase it is: "test it in phase 10" would send
    # cavalry, or a unit in melee, to a phase that refuses it too.
    if phase in (5, 10) and not unit.is_infantry:
        raise NotAllowed(f"{unit.name} is {unit.arm.value}: only infantry test to stand.")
    # A charge marker on cavalry not held by a failed recall: it charged this turn.
    charged = unit.charge_marker and not unit.held
    if phase in (4, 9) and unit.is_cavalry and (situation.charging or charged):
        raise NotAllowed(f"{unit.name} is charging cavalry: charging cavalry do not test.")
    if phase in (5, 10) and unit.in_melee:
        raise NotAllowed(f"{unit.name} is already in melee: infantry in melee do not test.")
    nation = {4: Nation.FRENCH, 9: Nation.BRITISH, 5: Nation.BRITISH, 10: Nation.FRENCH}
    if phase in nation and unit.nation is not nation[phase]:
        other = {4: 9, 9: 4, 5: 10, 10: 5}[phase]
        raise NotAllowed(f"{unit.name} is {unit.nation.value.capitalize()}: phase {phase} is "
                         f"for {nation[phase].value.capitalize()} units.",
                         hint=f"Test it in phase {other}.")
    # Whose phase it is before whether it may charge: "drop `charging`" would leave it
    # refused again, in the other side's phase.
    if phase in (4, 9) and situation.charging:
        _check_may_charge(unit)
    if phase in (7, 12) and unit.arm is Arm.ARTILLERY:
        # Artillery never loses a melee: unsupported it is destroyed; supported, the unit
        # beside it fights instead.
        raise NotAllowed(f"{unit.name} is artillery: artillery does not test for losing a "
                         "melee.", hint="Unsupported artillery is destroyed in the melee; "
                         "supported, the unit supporting it fights and tests instead.")
    if phase == 13 and not unit.is_cavalry:
        raise NotAllowed(f"{unit.name} is not cavalry: only cavalry roll for recall.")


def _check_may_charge(unit: Unit) -> None:
    """`charging` takes −1 and reads a failure as a charge stopped short: only a unit that
    may charge (`may_charge`, the reasons `/charge` gives) is closing for melee. The hint
    says what to do with this check instead."""
    refusal = why_it_cannot_charge(unit)
    # Tested in this phase already, the check is refused as a second test of the phase
    # (`resolve_morale`), `charging` or not, with the GM's undo and reroll.
    if refusal is None or refusal.key == "tested":
        return
    drop = f"Drop `charging` to test {unit.name} for shooting casualties"
    if refusal.key == "in_melee":  # as the charger (its check came with `/charge`) or target
        hint = f"A charge's closing check is rolled with `/charge`, before contact. {drop}."
    elif refusal.key == "formation" and unit.nation is Nation.FRENCH:
        hint = f"{drop}, or give it in column."
    else:
        hint = f"{drop}."
    raise NotAllowed(refusal.reason, hint=hint)


@dataclass(frozen=True)
class Check:
    roll: Roll
    threshold: int
    fail_by: int  # 0 when passed

    @property
    def passed(self) -> bool:
        return self.fail_by == 0


def roll_check(unit: Unit, phase: int, situation: Situation, dice: DiceSource) -> Check:
    base = MORALE[unit.quality]
    modifiers = threshold_modifiers(unit, phase, situation)
    threshold = base + sum(m.value for m in modifiers)
    # Phase 13's test is the recall: a morale roll by its name in the sheet.
    check = "recall" if phase == 13 else "morale"
    (face,) = dice.roll(D6(), f"{unit.name} {check} (phase {phase})")
    fail_by = max(0, face - threshold)
    arithmetic = " ".join([f"{unit.quality.value} {base}",
                           *(f"{m.signed()} {m.reason}" for m in modifiers)])
    roll = Roll(
        label=f"{unit.name} {check}",
        kind="1d6",
        dice=(face,),
        total=face,
        target=f"{threshold} or less ({arithmetic})",
        result="passes" if fail_by == 0 else f"fails by {fail_by}",
        target_modifiers=tuple(modifiers),
        readings=plain_readings((face,)),
    )
    return Check(roll, threshold, fail_by)


def run_check(
    unit: Unit, phase: int, situation: Situation, dice: DiceSource, out: ResolutionBuilder
) -> tuple[Check, Outcome]:
    """Check, then the phase's consequences, appended to ``out`` in that order."""
    check_who_tests(unit, phase, situation)
    check = roll_check(unit, phase, situation, dice)
    # Once a phase, whether `/morale` or `/charge` rolled it; the recall once a turn.
    out.effect(EffectKind.TESTED, unit.name, phase)
    consequences = ResolutionBuilder(out.ruleset, out.procedure, answers=out.answers)
    try:
        outcome = OUTCOMES[phase](unit, situation, check, dice, consequences)
    except Undecided as asked:  # show the check and what followed it before the question
        step = _check_step(unit, phase, check, "")
        raise Undecided(asked.question, (*out.steps, step, *consequences.steps),
                        asked.set_aside, cells=asked.cells) from None
    out.steps.append(_check_step(unit, phase, check, outcome.text))
    out.steps.extend(consequences.steps)
    out.effects.extend(consequences.effects)
    out.notes.extend(consequences.notes)
    for default in consequences.defaults:
        out.default(default)
    return check, outcome


def resolve_morale(
    unit: Unit, phase: int, situation: Situation, dice: DiceSource,
    answers: Answers | None = None,
) -> Resolution:
    out = ResolutionBuilder(RULESET, "recall" if phase == 13 else "morale",
                            answers=answers or Answers())
    check_who_tests(unit, phase, situation)
    if phase != 13 and phase in unit.tested:
        # One test of a unit a phase: a second would be a roll until it passes.
        raise NotAllowed(f"{unit.name} has tested its morale in phase {phase} this turn.",
                         hint="A GM takes the test back with `/gm undo`, or rolls it again "
                              "with `/gm reroll`.")
    if phase == 13 and unit.recall_failed:
        raise NotAllowed(f"{unit.name} failed its recall this turn: it rolls again in phase 13 "
                         "next turn.", hint="`/battle next` moves the battle on; a GM takes "
                         "the failed roll back with `/gm undo`.")
    if phase == 13 and phase in unit.tested:
        # Recalled this turn, it is no longer obliged: a second roll is no choice it has.
        raise NotAllowed(f"{unit.name} has rolled for recall this turn: it rolls once a "
                         "turn.", hint="A GM takes the roll back with `/gm undo`, or rolls "
                         "it again with `/gm reroll`.")
    if phase == 13 and not _must_roll_recall(unit, situation):
        # "Cavalry not obligated to roll for recall may still choose to roll."
        chosen = out.ask(Question(
            "roll_recall", f"{unit.name} need not roll for recall. Roll anyway?",
            (Answer("roll", "Roll for recall"), Answer("stay", "Don't roll")),
            unit=unit.name, by="player"))
        if chosen.key == "stay":
            out.step(f"Phase 13: {PHASE_TITLES[13]}",
                     f"{unit.name} is not obliged to roll for recall and does not: it stays "
                     "where it is.")
            return out.build(f"{unit.name} does not roll for recall", Severity.NONE)
    _, outcome = run_check(unit, phase, situation, dice, out)
    return out.build(outcome.headline, outcome.severity)


def _must_roll_recall(unit: Unit, situation: Situation) -> bool:
    """Cavalry that began a charge this turn (its charge marker), failed a recall (held) or
    tied a melee must roll: "Units with a charge marker in place cannot move until
    recalled"; "Cavalry units that tie test for recall in phase 13"."""
    return situation.initiated_charge or unit.charge_marker or unit.held or unit.recall_due


def _check_step(unit: Unit, phase: int, check: Check, text: str) -> Step:
    return Step(f"Phase {phase}: {PHASE_TITLES[phase]}", text, (check.roll,))


@dataclass(frozen=True)
class Outcome:
    text: str
    headline: str
    severity: Severity


def _rout(unit: Unit, check: Check, out: ResolutionBuilder) -> Outcome:
    out.effect(EffectKind.ROUTED, unit.name, detail=f"{SHEET}: fail by 3+")
    return Outcome("Rout. Remove the unit from the game.",
                   f"{unit.name} fails by {check.fail_by}: routs, removed", Severity.DECISIVE)


def _d6_casualties(unit: Unit, why: str, dice: DiceSource, out: ResolutionBuilder) -> bool:
    """d6 casualties, no more than the unit's figures where they are known (0: not given);
    whether they took its last figure, which destroys it, as by fire or in a melee
    (docs/le-baton.md)."""
    (face,) = dice.roll(D6(), f"{unit.name} casualties ({why})")
    lost = min(face, unit.figures) if unit.figures else face
    destroyed = lost == unit.figures
    taken = f"{unit.name} takes {counted(lost, 'casualty', 'casualties')}"
    out.step("Unable to form line",
             f"{taken}, its last {'figure' if lost == 1 else 'figures'}: it is destroyed."
             if destroyed else f"{taken}.",
             Roll(f"{unit.name} casualties", "1d6", (face,), total=face, result=f"{face}",
                  readings=plain_readings((face,))))
    out.effect(EffectKind.CASUALTIES, unit.name, lost, detail=f"{SHEET}: {why}")
    if destroyed:
        out.effect(EffectKind.DESTROYED, unit.name, detail="its last figure lost")
    return destroyed


def _cannot_form_line(unit: Unit, text: str, headline: str, dice: DiceSource,
                      out: ResolutionBuilder) -> Outcome:
    """"If a unit is unable to form line when required, it takes d6 casualties" (phases 4,
    7 and 12)."""
    if _d6_casualties(unit, "unable to form line", dice, out):
        return Outcome(text, f"{headline}, destroyed", Severity.DECISIVE)
    return Outcome(text, headline, Severity.MAJOR)


def _passed(unit: Unit, text: str) -> Outcome:
    return Outcome(text, f"{unit.name} passes", Severity.NONE)


# --- phase 2 -----------------------------------------------------------------------------


def _phase_2(unit: Unit, s: Situation, check: Check, dice: DiceSource,
             out: ResolutionBuilder) -> Outcome:
    if check.passed:
        return _passed(unit, "Carry on.")
    if check.fail_by >= 3:
        return _rout(unit, check, out)
    out.effect(EffectKind.HALTED, unit.name, detail=f"{SHEET}: phase 2, fail by 1 or 2")
    text = "Halt. No movement this turn."
    headline = f"{unit.name} fails by {check.fail_by}: halts"
    if unit.british_infantry:
        text += (" As British infantry it may instead immediately retire up to 6\", change "
                 "formation and make no further movement this turn.")
        headline += ", or may retire up to 6\""  # the player's choice, said with the result
    return Outcome(text, headline, Severity.MINOR)


# --- phases 4 and 9: shooting casualties and closing for melee ------------------------------


def _phase_4(unit: Unit, s: Situation, check: Check, dice: DiceSource,
             out: ResolutionBuilder) -> Outcome:
    if check.passed:
        return _passed(unit, "En avant! Continue to phase 5.")
    if check.fail_by >= 3:
        return _rout(unit, check, out)
    if not (s.charging and unit.is_infantry and unit.in_column):
        return Outcome("Fail by 1 or 2: only charging infantry columns are affected; others "
                       "pass.", f"{unit.name} fails by {check.fail_by}: carries on",
                       Severity.NONE)
    if s.cannot_form_line:
        return _cannot_form_line(
            unit, f"The charging column must form line 2\" from {s.opponent} but cannot.",
            f"{unit.name} fails to close and cannot form line", dice, out)
    out.effect(EffectKind.FORMATION, unit.name, detail=f"{SHEET}: phase 4", value="line")
    out.effect(EffectKind.PLACED, unit.name, 2, value=f"from {s.opponent}")
    return Outcome(f"The charging column forms line 2\" from {s.opponent}: no melee.",
                   f"{unit.name} fails to close: forms line 2\" short", Severity.MINOR)


def _phase_9(unit: Unit, s: Situation, check: Check, dice: DiceSource,
             out: ResolutionBuilder) -> Outcome:
    if check.passed:
        return _passed(unit, "Charge! (Or carry on.)")
    if check.fail_by >= 3:
        return _rout(unit, check, out)
    if unit.is_infantry and s.charging:
        out.effect(EffectKind.PLACED, unit.name, 2, value=f"from {s.opponent}")
        return Outcome(f"British infantry remain in place: the charge stops 2\" from "
                       f"{s.opponent}.", f"{unit.name} fails to close: halts 2\" short",
                       Severity.MINOR)
    # The sheet's words, in the headline as in the outcome.
    what, does = ("British cavalry stand still.", "stands still") if unit.is_cavalry else \
        ("British infantry remain in place.", "remains in place")
    return Outcome(what, f"{unit.name} fails by {check.fail_by}: {does}", Severity.MINOR)


# --- phases 5 and 10: infantry standing for melee -------------------------------------------


def _form_square_on_4(unit: Unit, dice: DiceSource, out: ResolutionBuilder) -> bool:
    # The roll is the try: "forms square … not formed" would say both.
    (face,) = dice.roll(D6(), f"{unit.name} tries for square")
    formed = face >= 4
    out.step("Form square (4+)",
             f"{unit.name} {'forms square' if formed else 'does not form square'}.",
             Roll(f"{unit.name} tries for square", "1d6", (face,), total=face, target="4+",
                  result="formed" if formed else "not formed", readings=plain_readings((face,))))
    if formed:
        out.effect(EffectKind.FORMATION, unit.name, detail=f"{SHEET}: phase 5", value="square")
    return formed


def _phase_5(unit: Unit, s: Situation, check: Check, dice: DiceSource,
             out: ResolutionBuilder) -> Outcome:
    if check.fail_by >= 3:
        return _rout(unit, check, out)
    by_cavalry = s.charged_by is Arm.CAVALRY
    if check.passed and by_cavalry:
        return _stands_against_cavalry(unit, s, out)
    if check.passed:
        if s.charged_by is Arm.INFANTRY:
            _of_opponent(s, out, EffectKind.PLACED, 2, value=f"from {unit.name}")
            return Outcome(f"Stand. The charging French infantry{_named(s)} are placed "
                           "2\" away in their current formation: no melee.",
                           f"{unit.name} stands: the charge stops 2\" short", Severity.NONE)
        return _passed(unit, "Stand; fight in phase 6.")
    text = "Stand, but may not change formation"
    # Locked in a firefight, it "cannot … change formation": no square to try for.
    if by_cavalry and unit.formation is not Formation.SQUARE and not unit.firefight:
        tries = out.ask(Question(
            "try_square", f"Charged by cavalry, does {unit.name} try to form square on a 4+?",
            (Answer("try", "Try for square (4+)"), Answer("stay", "Stay as it is")),
            unit=unit.name, by="defender"))
        if tries.key == "try":
            formed = _form_square_on_4(unit, dice, out)
            text += (" except that, charged by cavalry, it may form square on a 4+: "
                     + ("it does." if formed else "it does not."))
        else:
            text += ("; charged by cavalry, it could have tried for square on a 4+ and "
                     "did not.")
    else:
        if by_cavalry and unit.formation is not Formation.SQUARE:  # a firefight holds it
            out.default(_LOCKED_NO_SQUARE.format(unit=unit.name))
        text += "."
    _charger_in_contact(s, unit.name, out)
    return Outcome(f"{text} The charging unit moves into contact; fight in phase 6.",
                   f"{unit.name} stands: melee in phase 6", Severity.MINOR)


# The reading that decides the melee to come, named in the reply (docs/le-baton.md).
_LOCKED_NO_SQUARE = ("no square in a firefight: {unit} is locked in a firefight, and lines "
                     "so locked cannot change formation")


def _stands_against_cavalry(unit: Unit, s: Situation, out: ResolutionBuilder) -> Outcome:
    """Phase 5 passed, charged by cavalry: square at once, then the melee of phase 6."""
    if unit.formation is Formation.SQUARE:
        text, headline = "Stand, in square; fight in phase 6.", f"{unit.name} stands in square"
    elif unit.firefight:
        # Locked in a firefight, lines "cannot move, charge or change formation".
        out.default(_LOCKED_NO_SQUARE.format(unit=unit.name))
        text = ("Stand. Locked in a firefight, it cannot change formation: it meets the "
                "cavalry as it is; fight in phase 6.")
        headline = f"{unit.name} stands, locked in its firefight: no square"
    else:
        out.effect(EffectKind.FORMATION, unit.name, detail=f"{SHEET}: phase 5", value="square")
        text = ("Stand. Charged by cavalry, the British infantry form square immediately; "
                "fight in phase 6.")
        headline = f"{unit.name} stands and forms square"
    _charger_in_contact(s, unit.name, out)
    return Outcome(text, headline, Severity.NONE)


def _charger_in_contact(s: Situation, unit: str, out: ResolutionBuilder) -> None:
    """The charger comes on into melee, whether the unit charged stood or failed to: the
    charger first, as the charge's own contact has it ("Melee: Lancers against 2nd Foot")."""
    _of_opponent(s, out, EffectKind.IN_MELEE, value=unit)
    out.effect(EffectKind.IN_MELEE, unit, value=s.opponent)


def _of_opponent(s: Situation, out: ResolutionBuilder, kind: EffectKind, amount: int | None = None,
                 **kw: str) -> None:
    """An effect on the opponent, when it is named: "the enemy" is no unit, and what falls on
    it is said by the outcome ("the charging unit moves into contact")."""
    if s.opponent_named:
        out.effect(kind, s.opponent, amount, **kw)


def _named(s: Situation) -> str:
    """The opponent in brackets after the sheet's words for it, when it is named."""
    return f" ({s.opponent})" if s.opponent_named else ""


def _phase_10(unit: Unit, s: Situation, check: Check, dice: DiceSource,
              out: ResolutionBuilder) -> Outcome:
    if check.fail_by >= 3:
        return _rout(unit, check, out)
    if check.passed:
        if s.charged_by is Arm.INFANTRY:
            square = _may_form_square(unit, out)
            _of_opponent(s, out, EffectKind.PLACED, 2, value=f"from {unit.name}")
            return Outcome(f"{square.text} The charging British infantry{_named(s)} are "
                           "placed 2\" away: no melee.",
                           f"{unit.name} stands: the charge stops 2\" short", Severity.NONE)
        stands = _may_form_square(unit, out)
        if s.charged_by is not Arm.CAVALRY:
            return stands
        _charger_in_contact(s, unit.name, out)  # the melee of phase 11
        return replace(stands, text=f"{stands.text} The charging cavalry moves into contact; "
                                    "fight in phase 11.")
    _charger_in_contact(s, unit.name, out)
    # The sheet's line names infantry; charged by cavalry, the cavalry is what moves in.
    charger = "cavalry" if s.charged_by is Arm.CAVALRY else "infantry" \
        if s.charged_by is Arm.INFANTRY else "unit"
    return Outcome(f"Stand. May not change formation. The charging British {charger} moves "
                   "into contact. Fight in phase 11.", f"{unit.name} stands: melee in phase 11",
                   Severity.MINOR)


def _may_form_square(unit: Unit, out: ResolutionBuilder) -> Outcome:
    """Phase 10, pass: "Stand. May form square." (a choice, no roll)."""
    if not unit.is_infantry or unit.formation is Formation.SQUARE:
        return _passed(unit, "Stand.")
    if unit.firefight:  # locked in a firefight, it "cannot … change formation"
        return _passed(unit, "Stand; locked in a firefight, it may not form square.")
    chosen = out.ask(Question(
        "form_square", f"{unit.name} stands. Does it form square?",
        (Answer("square", "Form square"), Answer("stay", "Stay as it is")),
        unit=unit.name, by="defender"))
    if chosen.key == "square":
        out.effect(EffectKind.FORMATION, unit.name, detail=f"{SHEET}: phase 10",
                   value="square")
        return Outcome("Stand, and form square.", f"{unit.name} passes and forms square",
                       Severity.NONE)
    return _passed(unit, "Stand; it may form square and does not.")


# --- phases 7 and 12: losing melees ----------------------------------------------------------


def _losing(unit: Unit, s: Situation, check: Check, dice: DiceSource,
            out: ResolutionBuilder, next_fight: int) -> Outcome:
    if check.fail_by >= 3:
        return _rout(unit, check, out)
    if check.passed:
        when = "next turn in phase 6" if next_fight == 6 else f"in phase {next_fight}"
        text = f"The units continue to fight {when}."
        if unit.is_cavalry and s.initiated_charge and next_fight == 6:
            text += " The cavalry rolls for recall in phase 13 this turn."
            # As when it fails: the recall is what the player must not forget.
            return Outcome(text, f"{unit.name} passes; recall in phase 13", Severity.NONE)
        return _passed(unit, text)
    if unit.is_cavalry:
        fight = f" and fights in phase {next_fight}" if next_fight == 11 else ""
        recall = " It rolls for recall in phase 13." if s.initiated_charge else ""
        # The recall is what the player must not forget: the headline says it.
        return Outcome(f"Cavalry remains in place{fight}.{recall}",
                       f"{unit.name} fails by {check.fail_by}: remains in place"
                       + ("; recall in phase 13" if s.initiated_charge else ""),
                       Severity.MINOR)
    if unit.formation is Formation.LINE:
        (face,) = dice.roll(D6(), f"{unit.name} retires (d6\")")
        out.step("Retire d6\"", f"{unit.name} retires {face}\"; {s.opponent} follows up.",
                 Roll(f"{unit.name} retires", "1d6", (face,), total=face, result=f'{face}"',
                      readings=plain_readings((face,))))
        out.effect(EffectKind.RETIRE, unit.name, face, detail=f"{SHEET}: already in line")
        _of_opponent(s, out, EffectKind.FOLLOW_UP)
        return Outcome(f"Already in line: it retires d6\" and the winner follows up; fighting "
                       f"continues in phase {next_fight}.",
                       f"{unit.name} fails by {check.fail_by}: retires, melee goes on",
                       Severity.MAJOR)
    if s.cannot_form_line:
        return _cannot_form_line(unit, "It must form line 2\" back from the enemy but cannot.",
                                 f"{unit.name} fails by {check.fail_by}: cannot form line",
                                 dice, out)
    out.effect(EffectKind.FORMATION, unit.name, value="line")
    out.effect(EffectKind.PLACED, unit.name, 2, value=f"back from {s.opponent}")
    out.effect(EffectKind.MELEE_ENDS, unit.name)
    text = (f"Infantry not in line form line 2\" back from the enemy. "
            f"{s.opponent[:1].upper()}{s.opponent[1:]} may make a free formation change.")
    if s.opponent_named and s.opponent_infantry is not False:
        # The opponent's choice; formations are infantry's (cavalry has none to change).
        chosen = out.ask(Question(
            "free_formation_change", f"Does {s.opponent} make a free formation change?",
            (Answer("none", "No change"),
             *(Answer(f.value, f"Form {f.value}") for f in Formation
               if f is not s.opponent_formation)),
            unit=s.opponent, by="opponent"))
        if chosen.key != "none":
            out.effect(EffectKind.FORMATION, s.opponent, value=chosen.key,
                       detail=f"{SHEET}: free formation change")
            text += f" It forms {chosen.key}."
        else:
            text += " It keeps its formation."
    return Outcome(text, f"{unit.name} fails by {check.fail_by}: falls back into line",
                   Severity.MAJOR)


def _phase_7(unit, s, check, dice, out) -> Outcome:
    return _losing(unit, s, check, dice, out, next_fight=11)


def _phase_12(unit, s, check, dice, out) -> Outcome:
    return _losing(unit, s, check, dice, out, next_fight=6)


# --- phase 13: recall ---------------------------------------------------------------------


def _phase_13(unit: Unit, s: Situation, check: Check, dice: DiceSource,
              out: ResolutionBuilder) -> Outcome:
    if check.passed:
        out.effect(EffectKind.RECALLED, unit.name, detail=f"{SHEET}: phase 13")
        if s.initiated_charge:
            if unit.in_melee:  # a melee it is in ends; one it was never in is not said
                out.effect(EffectKind.MELEE_ENDS, unit.name)
            return Outcome("The cavalry unit is picked up and placed at the spot where it "
                           "began the charge, in its original formation and facing.",
                           f"{unit.name} is recalled to its start", Severity.NONE)
        return Outcome("It did not initiate the charge: it remains in place.",
                       f"{unit.name} is recalled and remains in place", Severity.NONE)
    out.effect(EffectKind.CASUALTIES, unit.name, 1, detail=f"{SHEET}: failed recall")
    if unit.figures == 1:
        # Its last figure lost, it is destroyed, as by fire or in a melee (docs/le-baton.md):
        # nothing is left to hold or to roll again next turn.
        out.effect(EffectKind.DESTROYED, unit.name, detail="its last figure lost")
        return Outcome("The cavalry take one casualty, their last figure: the unit is "
                       "destroyed.", f"{unit.name} fails recall: 1 casualty, destroyed",
                       Severity.DECISIVE)
    out.effect(EffectKind.HELD, unit.name, detail=f"{SHEET}: failed recall")
    return Outcome("The cavalry take one casualty. Next turn they cannot move, but may fight "
                   "if charged or continuing a melee from phase 11. They roll again to recall "
                   "in phase 13 next turn.", f"{unit.name} fails recall: 1 casualty, held",
                   Severity.MAJOR)


OUTCOMES = {2: _phase_2, 4: _phase_4, 5: _phase_5, 7: _phase_7, 9: _phase_9, 10: _phase_10,
            12: _phase_12, 13: _phase_13}
