"""The revised Infantry Assault (steps 1-9) and Old Guard Charge (steps 1-10), one procedure.

The Old Guard Charge is the assault with its own differences: it is resolved at once, its
"finished" branches proceed to step 10 (exploitation), and its Huzzah is against the single
charging stack. A firefight carried over repeats the sequence on the Firefight column,
without Huzzah and without distance modifiers for the units already locked in it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from fractions import Fraction

from rules.core.decisions import Answer, Answers, Question
from rules.core.dice import D6, D66, DiceSource, d66_add, d66_band, d66_value, plain_readings
from rules.core.errors import InvalidInput, NotAllowed
from rules.core.fields import did_you_mean
from rules.core.headlines import MAX_HEADLINE, fitted
from rules.core.names import name_key
from rules.core.notation import counted, doing, listed
from rules.core.records import Modifier, Resolution, ResolutionBuilder, Roll, Severity
from rules.labataille.charts import MAX_IMPETUS, ChartPack, ChartResult, Table, parse_result
from rules.labataille.effects import DISORDERED, INCREMENTS, EffectKind
from rules.labataille.fire import BELOW_SAID, FireBelowChart, fire
from rules.labataille.morale import Check, Outcome, morale_check, shift_count, shift_source
from rules.labataille.needs import check_assault_needs
from rules.labataille.published import (
    PREMIER_COLUMNS,
    PREMIER_COLUMNS_SOURCE,
    ratio_value,
)
from rules.labataille.units import (
    MAX_STACKS,
    RULESET,
    TEXT,
    Arm,
    Fatigue,
    Formation,
    Order,
    Stack,
)

YES_HUZZAH, NO_HUZZAH = Answer("huzzah", "Huzzah!"), Answer("no", "No Huzzah")
NEW_ASSAULT, NO_NEW_ASSAULT = Answer("new", "Declare a new assault"), Answer("no", "Finish")
# The Old Guard's charge does not finish there: "If a new Assault was not declared proceed
# to Step 10" (exploitation). The same key, so that `choices` reads alike.
NO_NEW_CHARGE = Answer("no", "No: go on to exploitation")
CHART_ANSWERS = (
    Answer("AS", "AS"), Answer("AR", "AR"), Answer("firefight", "Blank: firefight"),
    *(Answer(f"DR{n}", f"DR{n}") for n in range(MAX_IMPETUS + 1)),
    *(Answer(f"DS{n}", f"DS{n}") for n in range(MAX_IMPETUS + 1)),
)
# In a charge a blank is a bounce, and the # of DR# and DS# is ignored.
CHARGE_ANSWERS = (Answer("AS", "AS"), Answer("AR", "AR"), Answer("bounce", "Blank: bounce"),
                  Answer("DR", "DR"), Answer("DS", "DS"))
CASUALTY_STEP = 3  # the roll moves 3 per casualty (step 4)
# The mêlée roll's fire modifiers, by whose fire inflicted the casualties (step 4): the
# roll's line says them short, its source names the step.
FIRE_REASONS = {"attackers": ("attackers' fire", 1, "step 4b"),
                "defenders": ("defenders' fire", -1, "step 4a")}


@dataclass(frozen=True)
class Assault:
    attackers: tuple[Stack, ...]
    defenders: tuple[Stack, ...]
    old_guard: bool = False
    firefight: bool = False  # carried over from an earlier Mêlée Segment
    pack: ChartPack | None = None
    cavalry: bool = False  # a Cavalry Charge (rules.labataille.charge)
    spent: int | None = None  # the MPs the charge expended (cavalry: pursuit losses)
    reached: bool = True  # the charge came adjacent to its declared target within 5 MPs
    fire_below: FireBelowChart = FireBelowChart.LOWEST  # the battle's reading (fire.py)

    @property
    def procedure(self) -> str:
        if self.cavalry:
            return "Cavalry Charge"
        return "Old Guard Charge" if self.old_guard else "Infantry Assault"


# The numbers of the shared steps in the assault's sequence (a charge numbers them its way).
ASSAULT_STEPS = {"shifts": "3b", "odds": "6", "roll": "7", "advance": "8"}


@dataclass
class Run:
    assault: Assault
    dice: DiceSource
    out: ResolutionBuilder
    stacks: dict[str, Stack] = field(default_factory=dict)
    attackers: list[str] = field(default_factory=list)
    defenders: list[str] = field(default_factory=list)
    gone: set[str] = field(default_factory=set)
    doubled: set[str] = field(default_factory=set)
    passed: set[str] = field(default_factory=set)  # defenders that passed step 3
    left_shifts: int = 0
    right_shifts: bool = False  # the Huzzah turned the shifts right
    new_melee: bool = True  # real odds (not the Firefight column)
    fire_modifier: list[Modifier] = field(default_factory=list)
    fire_casualties: dict[str, int] = field(default_factory=dict)  # inflicted, by side
    phrases: list[str] = field(default_factory=list)
    worst: Severity = Severity.NONE
    steps: dict[str, str] = field(default_factory=lambda: dict(ASSAULT_STEPS))

    def standing(self, names: list[str]) -> list[Stack]:
        return [self.stacks[n] for n in names if n not in self.gone]

    def hurt(self, severity: Severity) -> None:
        self.worst = max(self.worst, severity)


def resolve_assault(assault: Assault, dice: DiceSource, answers: Answers | None = None
                    ) -> Resolution:
    check_assault(assault)
    check_assaulting(assault)
    procedure = "charge" if assault.old_guard else "assault"
    out = ResolutionBuilder(RULESET, procedure, answers=answers or Answers())
    run = Run(assault, dice, out, stacks={s.name: s for s in
                                          (*assault.attackers, *assault.defenders)})
    run.attackers = [s.name for s in assault.attackers]
    run.defenders = [s.name for s in assault.defenders]
    sequence(run)
    headline = fitted(run.phrases, MAX_HEADLINE, run.stacks) or f"{assault.procedure}"
    return out.build(headline, run.worst)


def check_assaulting(assault: Assault) -> None:
    """An Infantry Assault, or an Old Guard Charge, is made by infantry that has not routed.
    A firefight goes on between the stacks locked in it, whichever they are."""
    what = "an Old Guard Charge" if assault.old_guard else "an Infantry Assault"
    if not assault.firefight:
        mounted = [s.name for s in assault.attackers if s.arm is not Arm.INFANTRY]
        if mounted:
            raise InvalidInput(f"{', '.join(mounted)}: {what} is made by infantry.",
                               hint="Cavalry charges with `/cavalry labataille`; artillery "
                                    "does not assault.")
    routed = [s.name for s in assault.attackers if s.routed]
    if routed:
        raise NotAllowed(f"{doing(routed, 'has', 'have')} routed and cannot assault.",
                         hint="A routed stack rallies before it attacks again.")


def check_assault(assault: Assault) -> None:
    for label, group in (("attackers", assault.attackers), ("defenders", assault.defenders)):
        if not group:
            raise InvalidInput(f"Name the {label}.", hint="One stack or more: `Name: words`.")
        if len(group) > MAX_STACKS:
            raise InvalidInput(f"At most {MAX_STACKS} {label} in one assault.")
    names = [name_key(s.name) for s in (*assault.attackers, *assault.defenders)]
    if len(set(names)) != len(names):
        raise InvalidInput("A stack is named twice.", hint="Give each stack its own name.")
    locked = [s.name for s in (*assault.attackers, *assault.defenders) if s.locked]
    if locked and not assault.firefight:
        # "Firefights use the Firefight column": a stack locked in one is in a firefight.
        raise InvalidInput(f"{locked[0]} is marked `locked` (already in this firefight), but "
                           "the assault is not a firefight.",
                           hint="Add `firefight:true` to fight on in the firefight, or drop "
                                "`locked` for a fresh assault.")
    if assault.firefight and not locked:
        raise InvalidInput("A firefight goes on between stacks already locked in it, and no "
                           "stack is marked `locked`.",
                           hint="Mark the stacks already in the firefight `locked` (new ones "
                                "joining it are not), or drop `firefight:true` for a fresh "
                                "assault.")
    if assault.old_guard:
        # The Old Guard is the one stack new to the fight: "they may enter a Firefight as
        # new units and declare an Old Guard Charge", beside the stacks locked in it: on
        # either side, since joining the defending side alone makes it the attacker (roles).
        charging = [s for s in assault.attackers if not s.locked]
        if assault.firefight and not charging and any(s.locked for s in assault.defenders):
            charging = [s for s in assault.defenders if not s.locked]
        if assault.firefight and not charging:
            raise NotAllowed("Old Guard units involved in a Firefight may not conduct an Old "
                             "Guard Charge.",
                             hint="Only Old Guard entering the firefight as new units may.")
        if len(charging) != 1:
            raise InvalidInput("An Old Guard Charge is one charging stack.",
                               hint="Charge with one stack (the stacks locked in a firefight "
                                    "it joins attack beside it), or use an assault.")
    check_fire_at(assault)
    if not assault.cavalry:  # a charge checks its own (rules.labataille.charge)
        check_assault_needs(assault.attackers, assault.defenders)


def check_fire_at(assault: Assault) -> None:
    """A stack's ``at`` names an enemy stack of this assault: a slip would send the shot at
    the first enemy stack without a word."""
    for shooters, targets in ((assault.attackers, assault.defenders),
                              (assault.defenders, assault.attackers)):
        names = {name_key(t.name): t.name for t in targets}
        for stack in shooters:
            if stack.at and name_key(stack.at) not in names:
                raise InvalidInput(
                    f"{stack.name}: `at={stack.at}` names no enemy stack of this "
                    f"{'charge' if assault.cavalry else 'assault'}."
                    + did_you_mean(stack.at, list(names.values())),
                    hint=f"Name {listed(list(names.values()), 'or')}.")


def sequence(run: Run) -> None:
    roles(run)
    if retreat_before_assault(run) or unsupplied_artillery(run) or morale_checks(run):
        return
    offensive_and_defensive_fire(run)
    if not run.standing(run.attackers):
        run.out.step("4. Fire", "No assaulting unit is left: the assault is finished.")
        return None
    if not run.standing(run.defenders):
        run.out.step("4. Fire", "No target unit is left: the assaulting units advance into "
                     "the target hex.")
        advance(run, "into the target hex", disorder=False)
        return finished(run, advanced=True)
    if run.assault.firefight:
        run.out.step("5. British Huzzah", "No Huzzah in a firefight: skip step 5.")
    else:
        huzzah(run)
    if not run.standing(run.attackers):
        return
    column = odds(run)
    result = melee_resolution(run, column)
    apply_result(run, result)


# --- roles in a firefight ------------------------------------------------------------------


def roles(run: Run) -> None:
    assault = run.assault
    if not assault.firefight:
        return
    new_attackers = [s.name for s in assault.attackers if not s.locked]
    new_defenders = [s.name for s in assault.defenders if not s.locked]
    if not new_attackers and not new_defenders:
        run.new_melee = False
        run.out.step("Firefight", "The firefight goes on: the Firefight column, no Huzzah, "
                     "no distance modifiers.")
        return
    if new_defenders and not new_attackers:
        run.attackers, run.defenders = run.defenders, run.attackers
        run.out.step("Firefight: roles switch",
                     f"{doing(new_attackers + new_defenders, 'joins', 'join')} the "
                     "defending side only: the role of attacker and defender is switched. "
                     f"{doing(run.attackers, 'now attacks', 'now attack')} (move the Assault "
                     "marker).")
    else:
        run.out.step("Firefight: new units",
                     f"{doing(new_attackers + new_defenders, 'joins', 'join')}: the assault "
                     "is resolved as a new mêlée, with the actual odds.")


# --- steps 1 and 2 ---------------------------------------------------------------------------


def retreat_before(run: Run, what: str, rule: str) -> list[Stack]:
    """The targets that retreat before the assault or charge leave it."""
    leaving = [s for s in run.standing(run.defenders) if s.retreats]
    for stack in leaving:
        run.out.effect(EffectKind.MOVED, stack.name, value=f"retreats before {what}",
                       detail=rule)
        run.gone.add(stack.name)
    return leaving


def retreat_before_assault(run: Run) -> bool:
    leaving = retreat_before(run, "assault", "15.4")
    if not leaving:
        return False
    names = doing([s.name for s in leaving], "retreats", "retreat")
    if run.standing(run.defenders):
        run.out.step("1. Retreat Before Assault", f"{names} before the assault; "
                     "the assault goes on against the others.")
        return False
    run.out.step("1. Retreat Before Assault", f"{names} before the assault.")
    advance(run, "into the vacated hex", disorder=False)
    no = NO_NEW_CHARGE if run.assault.old_guard else NO_NEW_ASSAULT
    question = Question("new_assault", "Will the assaulting units declare an assault on a "
                        "unit in their front?", (NEW_ASSAULT, no), by="attacker",
                        unit=run.attackers[0])
    again = run.out.ask(question) is NEW_ASSAULT
    run.phrases.append(f"{names} before the assault")
    if again:
        run.out.step("1b. New assault", "A new assault is declared: resolve it as its own "
                     "assault.")
        return True
    finished(run, advanced=True)
    return True


def unsupplied_artillery(run: Run, units: str = "assaulting units",
                         then: Callable[[Run], None] | None = None) -> bool:
    """Unsupplied artillery alone routs; with every target gone, the attackers advance and
    ``then`` ends the procedure (the assault's end, by default)."""
    stranded = [s for s in run.standing(run.defenders)
                if s.arm is Arm.ARTILLERY and s.unsupplied and not s.covered]
    if not stranded:
        return False
    for stack in stranded:
        rout(run, stack, "unsupplied artillery (17.7)")
    routing = doing([s.name for s in stranded], "routs", "rout")
    run.phrases.append(f"{routing} for want of ammunition")
    if run.standing(run.defenders):
        run.out.step("2. Unsupplied Artillery", f"{routing} for want of ammunition.")
        return False
    run.out.step("2. Unsupplied Artillery", f"{routing} for want of ammunition; the {units} "
                 "advance into the target hex.")
    advance(run, "into the target hex", disorder=False)
    if then is None:
        finished(run, advanced=True)
    else:
        then(run)
    return True


# --- step 3 ------------------------------------------------------------------------------------


def morale_checks(run: Run) -> bool:
    """Simultaneous checks: every stack rolls, then the results apply."""
    pack = run.assault.pack
    attacker_outcomes = [morale_check(s, Check.ATTACKER, run.dice, pack, run.out,
                                      distance=not s.locked)
                         for s in run.standing(run.attackers)]
    # New units joining a firefight apply the distance modifiers "regardless of their role
    # as attacker or defender" (the text's notes on firefights).
    defender_outcomes = [morale_check(s, Check.DEFENDER, run.dice, pack, run.out,
                                      distance=run.assault.firefight and not s.locked)
                         for s in run.standing(run.defenders)]
    for outcome in attacker_outcomes:
        stack = outcome.stack
        if outcome.passed:
            run.doubled.add(stack.name)
            words = f"{stack.name} passes: its offensive fire is doubled."
        else:
            words = f"{stack.name} fails: {fail(run, stack)}."
        run.out.step("3a. Attacker morale check", words, outcome.roll)
    defenders_checked(run, defender_outcomes, "3b. Defender morale check", "passes")
    if not run.standing(run.attackers):
        run.out.step("3. Morale", "All assaulting units routed: the assault is finished.")
        run.phrases.append("the assault breaks before contact")
        return True
    if not run.standing(run.defenders):
        run.out.step("3. Morale", "All target units routed: the assaulting units advance "
                     "into the target hex.")
        advance(run, "into the target hex", disorder=False)
        finished(run, advanced=True)
        return True
    if run.passed:
        shift_roll(run)
    return False


def defenders_checked(run: Run, outcomes: list[Outcome], title: str, verb: str) -> None:
    """Passing defenders double their defensive fire (and earn the shift die); failing ones
    disorder, or rout if already disordered."""
    for outcome in outcomes:
        stack = outcome.stack
        if outcome.passed:
            run.doubled.add(stack.name)
            run.passed.add(stack.name)
            words = f"{stack.name} {verb}: its defensive fire is doubled."
        else:
            words = f"{stack.name} fails: {fail(run, stack)}."
        run.out.step(title, words, outcome.roll)


def shift_roll(run: Run) -> None:
    title = f"{run.steps['shifts']}. Column shifts"
    if not run.new_melee:
        run.out.step(title, "No shift die: the Firefight column takes no shifts.")
        return
    faces = run.dice.roll(D6(), "defender column shifts")
    run.left_shifts = shift_count(int(faces[0]))  # type: ignore[arg-type]
    roll = Roll("defender column shifts", "1d6", faces, result=f"{run.left_shifts} left",
                notes=("1-2: 0, 3-4: 1, 5-6: 2 left column shifts",
                       shift_source(run.steps["shifts"])),
                readings=plain_readings(faces))
    run.out.step(title, f"{counted(run.left_shifts, 'left column shift')} on the "
                 "Assault et Mêlée chart.", roll)


def fail(run: Run, stack: Stack) -> str:
    """A failed check: disorder, or rout if already disordered."""
    if stack.state is Order.GOOD:
        run.out.effect(EffectKind.MARKER_SET, stack.name, value=DISORDERED)
        run.stacks[stack.name] = _with(stack, state=Order.DISORDERED)
        run.hurt(Severity.MINOR)
        return "disordered"
    rout(run, stack, "failed morale while disordered")
    run.phrases.append(f"{stack.name} routs")
    return "already disordered, it routs"


def rout(run: Run, stack: Stack, why: str) -> None:
    """"Each Routing stack loses one increment for each Zone of Influence retreated from":
    as many as it has (where they are known), and one left with none is destroyed. The bot
    keeps no map: a stack given no `zoc` loses none, and the result says so."""
    run.out.effect(EffectKind.ROUTED, stack.name, detail=why)
    if stack.zoc is None:
        # What is missing first: a public footer names a default by its first words.
        run.out.default(f"no `zoc` given: {stack.name}: no increments lost to Zones of "
                        "Influence (give `zoc=N`)")
    zoc = stack.zoc or 0
    left = run.stacks[stack.name].increments if stack.name in run.stacks else None
    lost = zoc if left is None else min(zoc, left)
    if lost:
        run.out.effect(EffectKind.DAMAGE, stack.name, lost, measure=INCREMENTS,
                       detail="Zones of Influence retreated from")
    if left is not None and lost == left > 0:
        run.stacks[stack.name] = _with(run.stacks[stack.name], increments=0)
        run.out.effect(EffectKind.DESTROYED, stack.name, detail="no increments left")
        run.phrases.append(f"{stack.name} is destroyed in its rout")
    run.gone.add(stack.name)
    run.hurt(Severity.MAJOR)


# --- step 4 ------------------------------------------------------------------------------------


def offensive_and_defensive_fire(run: Run) -> None:
    """Simultaneous: every shot is taken from the stacks as step 3 left them."""
    shots = []
    for shooters, targets in ((run.attackers, run.defenders), (run.defenders, run.attackers)):
        for stack in run.standing(shooters):
            if stack.fire is None:
                continue
            target = fire_target(run, stack, targets)
            canister = stack.canister and stack.arm is Arm.ARTILLERY and shooters is run.defenders
            shots.append(fire(stack, target, stack.name in run.doubled, run.dice,
                              canister=canister, below=run.assault.fire_below))
    if not shots:
        run.out.step("4. Offensive and Defensive Fire", "No stack has a fire value: no fire.")
        return
    for shot in shots:
        outcome = (f"{shot.stack.name} fires on {shot.target.name}: "
                   + (f"{counted(shot.casualties, 'casualty', 'casualties')}." if shot.roll
                      else f"{BELOW_SAID[FireBelowChart.NONE]}."))
        run.out.step("4. Offensive and Defensive Fire", outcome,
                     *([shot.roll] if shot.roll else []))
    by_side = {"attackers": 0, "defenders": 0}
    for shot in shots:
        side = "attackers" if shot.stack.name in run.attackers else "defenders"
        by_side[side] += taken(run, shot.target, shot.casualties)
    run.fire_casualties = by_side
    run.fire_modifier = fire_modifiers(by_side)
    run.out.note("No morale checks for casualties from offensive and defensive fire.")


def fire_modifiers(inflicted: dict[str, int]) -> list[Modifier]:
    """The mêlée roll moves 3 per casualty: up for the attackers' fire, down for the
    defenders'."""
    return [Modifier(sign * CASUALTY_STEP * inflicted[side], reason, f"{TEXT} {step}")
            for side, (reason, sign, step) in FIRE_REASONS.items() if inflicted.get(side)]


def fire_target(run: Run, stack: Stack, targets: list[str]) -> Stack:
    """The stack a shot goes at: the one named in ``at`` if it still stands, else the first."""
    standing = run.standing(targets)
    if stack.at:
        named = [t for t in standing if name_key(t.name) == name_key(stack.at)]
        if named:
            return named[0]
    return standing[0]


def taken(run: Run, target: Stack, casualties: int) -> int:
    """The casualties a shot inflicts on its target: as many as it has increments left to
    lose (a stack another shot destroyed takes none). They are what moves the mêlée roll."""
    left = run.stacks[target.name].increments or 0
    lost = lose(run, target, casualties) if casualties else 0
    if not left and casualties:
        run.out.step("4. Casualties inflicted", f"{target.name} is destroyed already: none "
                     f"of {casualties} more count.")
    elif lost < casualties:
        run.out.step("4. Casualties inflicted", f"{target.name} had "
                     f"{counted(left, 'increment', 'increments')} to lose: "
                     f"{counted(lost, 'casualty', 'casualties')} of {casualties} inflicted.")
    return lost


def lose(run: Run, stack: Stack, casualties: int, why: str = "fire") -> int:
    """Increments lost (to fire, or to a pursuit), as many as it has; a stack with none left
    is removed. How many it lost."""
    stack = run.stacks[stack.name]
    assert stack.increments is not None  # rules.labataille.needs asked for them
    lost = min(casualties, stack.increments)
    if not lost:  # removed already, by another shot
        return 0
    run.out.effect(EffectKind.DAMAGE, stack.name, lost, measure=INCREMENTS, detail=why)
    run.stacks[stack.name] = _with(stack, increments=stack.increments - lost)
    run.hurt(Severity.MAJOR)
    if lost == stack.increments:
        run.out.effect(EffectKind.DESTROYED, stack.name, detail="no increments left")
        run.gone.add(stack.name)
        run.phrases.append(f"{stack.name} is destroyed by {why}")
    return lost


# --- step 5 ------------------------------------------------------------------------------------


ONLY, ALL_BUT = "only ", "all but "


def huzzah_answers(attackers: list[Stack]) -> tuple[Answer, ...]:
    """"May then Assault any units in their front orientation which were formerly assaulting
    them": with several attackers, the Huzzah may target one alone or all but one (every
    choice among three; the table knows which stand in the British front)."""
    if len(attackers) < 2:
        return YES_HUZZAH, NO_HUZZAH
    only = [Answer(f"{ONLY}{s.name}", f"Huzzah on {s.name} only") for s in attackers]
    all_but = [Answer(f"{ALL_BUT}{s.name}", f"Huzzah on all but {s.name}")
               for s in attackers] if len(attackers) > 2 else []
    return (replace(YES_HUZZAH, label="Huzzah on all"), *only, *all_but, NO_HUZZAH)


def huzzah_targets(chosen: Answer, attackers: list[Stack]) -> list[Stack]:
    """The formerly attacking stacks the Huzzah targets."""
    if chosen.key.startswith(ONLY):
        return [s for s in attackers if s.name == chosen.key[len(ONLY):]]
    if chosen.key.startswith(ALL_BUT):
        return [s for s in attackers if s.name != chosen.key[len(ALL_BUT):]]
    return attackers


def huzzah(run: Run) -> None:
    british = [s for s in run.standing(run.defenders) if s.name in run.passed and s.may_huzzah]
    if not british:
        return
    standing = run.standing(run.attackers)
    question = Question("huzzah", f"Will {_names(british)} Huzzah and turn the tables on "
                        f"{_names(standing)}?", huzzah_answers(standing),
                        unit=british[0].name, by="defender")
    chosen = run.out.ask(question)
    if chosen is NO_HUZZAH:
        run.out.step("5. British Huzzah",
                     f"{doing([s.name for s in british], 'does', 'do')} not Huzzah.")
        return
    targets = huzzah_targets(chosen, standing)
    if len(targets) < len(standing):
        run.out.step("5. British Huzzah", f"The Huzzah targets {_names(targets)}, in the "
                     f"front of {_names(british)}.")
    failed = []
    for stack in targets:
        outcome = morale_check(stack, Check.DEFENDER, run.dice, run.assault.pack, run.out,
                               distance=False, label="Huzzah morale")
        if outcome.passed:
            words = f"{stack.name} passes."
        else:
            failed.append(stack)
            words = f"{stack.name} fails: {fail(run, stack)}."
        run.out.step("5a. Huzzah morale check", words, outcome.roll)
    if len(failed) < len(targets):
        run.out.step("5. British Huzzah", "The Huzzah is not successful: the mêlée is resolved "
                     "with the original attackers."
                     if not failed else "Some stacks fail: the mêlée is resolved with the "
                     "original attackers.")
        return
    run.phrases.append(f"{_names(british)} Huzzah")  # only one that turns the tables is said
    # "Now become the attacker for the remainder of this Mêlée", against the stacks their
    # Huzzah assaulted: those in their front. The others take no further part.
    survivors = [s.name for s in targets if s.name not in run.gone]
    run.attackers, run.defenders = [s.name for s in british], survivors
    run.right_shifts = True
    # The roll is the new attacker's: the casualties its fire inflicted now add (the former
    # attackers' fire is now the defenders').
    run.fire_casualties = {"attackers": run.fire_casualties.get("defenders", 0),
                           "defenders": run.fire_casualties.get("attackers", 0)}
    run.fire_modifier = fire_modifiers(run.fire_casualties)
    run.out.step("5. British Huzzah", "All stacks fail: "
                 f"{doing([s.name for s in british], 'becomes', 'become')} the attacker for "
                 "the rest of this mêlée; the column shifts are now right shifts.")
    if not survivors:
        run.out.step("5. British Huzzah", "No former attacker is left to fight.")
        run.phrases.append("no former attacker is left to fight")
        run.attackers = []


# --- steps 6 and 7 -----------------------------------------------------------------------------


def odds(run: Run) -> int | None:
    """The column index on the chart, or None for the Firefight column."""
    pack = run.assault.pack
    title = f"{run.steps['odds']}. Mêlée odds"
    if not run.new_melee:
        run.out.step(title, "The Firefight column.")
        return None
    attack, attack_words = melee_total(run, run.attackers, "attacker")
    defend, defend_words = melee_total(run, run.defenders, "defender")
    columns = chart_columns(pack)
    ratio = Fraction(attack) / Fraction(defend) if defend else None
    index = _column(columns, ratio)
    words = [f"{attack_words} against {defend_words}"]
    words += uncounted_multipliers(run)
    if run.assault.cavalry:
        words += square_multipliers(run)
    if ratio is not None and ratio < ratio_value(columns[0]):
        words.append("below the chart: the lowest column")
    shift = run.left_shifts * (1 if run.right_shifts else -1)
    if shift:
        moved = max(0, min(len(columns) - 1, index + shift))
        words.append(f"{abs(shift)} {'right' if shift > 0 else 'left'} shift"
                     f"{'s' if abs(shift) != 1 else ''}: {columns[index]} → {columns[moved]}")
        index = moved
    source = (f"columns: {pack.name}, {pack.assault_provenance}" if read_on(pack)
              else f"columns: {PREMIER_COLUMNS_SOURCE}")
    if not read_on(pack):
        # Named, in a reply's footer, by the words before its colon.
        run.out.default("Premier chart's columns: " + (
            "no chart pack" if pack is None else "the chart pack has no Assault et Mêlée "
            "chart") + ", so odds are read on the Premier chart's columns (1:2 to 5:1)")
    run.out.step(title, f"The {columns[index]} column: " + "; ".join(words) + f". ({source})")
    return index


def read_on(pack: ChartPack | None) -> bool:
    """Whether the Assault et Mêlée chart is the pack's (else the players read theirs)."""
    return pack is not None and pack.has_assault


def chart_columns(pack: ChartPack | None) -> tuple[str, ...]:
    return pack.columns if read_on(pack) else PREMIER_COLUMNS  # type: ignore[union-attr]


def melee_total(run: Run, names: list[str], role: str) -> tuple[Fraction, str]:
    table = multipliers(run.assault, role)
    total, parts = Fraction(0), []
    for stack in run.standing(names):
        assert stack.melee is not None  # rules.labataille.needs asked for it
        value = Fraction(stack.melee).limit_denominator(100)
        why = []
        if table is not None:
            for word in (stack.formation.value, stack.state.value, stack.fatigue.value):
                if word in table.values:
                    value *= Fraction(table.values[word]).limit_denominator(100)
                    why.append(f"× {table.values[word]:g} {word}")
        total += value
        parts.append(f"{stack.name} {stack.melee:g}" + (f" ({' '.join(why)})" if why else ""))
    return total, f"{' + '.join(parts)} = {float(total):g}"


# The situations of a stack reference A.4 gives a mêlée value multiplier for, by side (its
# other rows are a stack's place or its foe, which the words do not say). Its General Order
# row is cavalry's alone: infantry in General Order has no multiplier to miss.
LISTED_MULTIPLIERS = {
    "attacker": {Formation.SKIRMISH, Formation.GENERAL, Order.DISORDERED, Fatigue.TIRED,
                 Fatigue.EXHAUSTED},
    "defender": {Formation.SKIRMISH, Order.DISORDERED, Order.ROUTED, Fatigue.TIRED,
                 Fatigue.EXHAUSTED},
}

ORDER_SAID = {Formation.SKIRMISH: "in Skirmish Order", Formation.GENERAL: "in General Order"}


def uncounted_multipliers(run: Run) -> list[str]:
    """A stack in a situation the published charts multiply (disordered, tired, …) that the
    chart pack's Mêlée Modifiers do not name: its value counts as given, and the odds say so
    rather than leave the multiplier out silently."""
    said = []
    for role, names in (("attacker", run.attackers), ("defender", run.defenders)):
        table = multipliers(run.assault, role)
        for stack in run.standing(names):
            words = [ORDER_SAID.get(w, w.value) for w in (stack.formation, stack.state,
                                                          stack.fatigue)
                     if w in LISTED_MULTIPLIERS[role]
                     and (w is not Formation.GENERAL or stack.arm is Arm.CAVALRY)
                     and (table is None or w.value not in table.values)]
            if not words:
                continue
            kind = "multipliers" if len(words) > 1 else "multiplier"
            lacking = (f"no chart pack gives its {kind}" if run.assault.pack is None
                       else f"the chart pack's Mêlée Modifiers give no {kind} for it")
            said.append(f"{stack.name} is {' and '.join(words)}: {lacking}, so its mêlée "
                        "value counts as given")
    return said


def square_multipliers(run: Run) -> list[str]:
    """A charge into a Square: the pack's Mêlée Modifiers for Cavalry count it (the odds show
    its multiplier); without one, the reply says it must be counted in the values given."""
    table = multipliers(run.assault, "defender")
    if table is not None and Formation.SQUARE.value in table.values:
        return []
    lacking = ("no chart pack, so the Mêlée Modifiers for Cavalry's square multiplier"
               if run.assault.pack is None else "the chart pack's Mêlée Modifiers for Cavalry "
               "have no square multiplier: it")
    return [f"{s.name} is in Square: {lacking} must be counted in the mêlée values given"
            for s in run.standing(run.defenders) if s.formation is Formation.SQUARE]


def multipliers(assault: Assault, role: str) -> Table | None:
    """The pack's mêlée value multipliers for a side (the cavalry chart in a charge)."""
    pack = assault.pack
    if pack is None:
        return None
    if assault.cavalry:
        return pack.cavalry_attacker_multipliers if role == "attacker" \
            else pack.cavalry_defender_multipliers
    return pack.attacker_multipliers if role == "attacker" else pack.defender_multipliers


def _column(columns: tuple[str, ...], ratio: Fraction | None) -> int:
    if ratio is None:
        return len(columns) - 1
    fitting = [i for i, c in enumerate(columns) if ratio_value(c) <= ratio]
    return fitting[-1] if fitting else 0


def melee_resolution(run: Run, column: int | None) -> ChartResult:
    pack = run.assault.pack
    modifiers = [*run.fire_modifier]
    for names, sign, role in ((run.attackers, 1, "attacking"), (run.defenders, -1,
                                                                   "defending")):
        led = [s for s in run.standing(names) if s.leader and s.leader_value]
        if led:
            best = max(led, key=lambda s: s.leader_value or 0)
            modifiers.append(Modifier(sign * (best.leader_value or 0), f"{best.leader} ({role})",
                                      "reference/labataille.md A.6"))
    faces = run.dice.roll(D66(), "mêlée resolution")
    natural = d66_value(faces)  # type: ignore[arg-type]
    total = d66_add(natural, sum(m.value for m in modifiers))
    name = "Firefight" if column is None else chart_columns(pack)[column]
    roll = Roll("mêlée", "d66", faces, modifiers=tuple(modifiers), total=total,
                target=f"{name} column", readings=plain_readings(faces))
    readable = read_on(pack) and (column is not None or pack.firefight)  # type: ignore[union-attr]
    if readable:
        result = pack.result(total, column)  # type: ignore[union-attr]
        said = result.read_in(run.assault.cavalry)
        roll = replace(roll, result=said,
                       notes=(f"{pack.name}: {pack.assault_provenance}",))  # type: ignore[union-attr]
        run.out.step(f"{run.steps['roll']}. Mêlée resolution",
                     f"Row {total}, {name} column: {said}.", roll)
        return result
    answers = CHARGE_ANSWERS if run.assault.cavalry else CHART_ANSWERS
    question = Question("chart_result", f"Read the Assault et Mêlée chart: the {name} column, "
                        f"row {total}. What does it say?", answers, by="player",
                        cell=("Assault et Mêlée", name, d66_band(total)))
    run.out.step(f"{run.steps['roll']}. Mêlée resolution", f"Read row {total} of the {name} "
                 "column on your Assault et Mêlée chart.", roll)
    answer = run.out.ask(question)
    result = parse_result(answer.key)
    run.out.step(f"{run.steps['roll']}. Chart result",
                 f"The chart says {result.read_in(run.assault.cavalry)} (given by the "
                 "player).")
    return result


# --- results, steps 8 to 10 -----------------------------------------------------------------


def whole_side(names: list[str], side: str, one: str, many: str) -> str:
    """A result that falls on every stack of a side, for the headline: one or two by name,
    more by their count ("all 4 defenders rout"), since a list of regiments would fill a
    phone's title before its verb; the units' lines name each."""
    return doing(names, one, many) if len(names) <= 2 else f"all {len(names)} {side} {many}"


def apply_result(run: Run, result: ChartResult) -> None:
    match result.code:
        case "AS":
            names = [s.name for s in run.standing(run.attackers)]
            for stack in run.standing(run.attackers):
                run.out.effect(EffectKind.SURRENDERED, stack.name, detail="AS")
                run.gone.add(stack.name)
            run.hurt(Severity.DECISIVE)
            run.phrases.append(f"AS: {whole_side(names, 'attackers', 'surrenders', 'surrender')}")
            run.out.step("7a. AS", "Attackers surrender: removed from play. The defenders do "
                         "not advance.")
            finished(run, advanced=False)
        case "AR":
            names = [s.name for s in run.standing(run.attackers)]
            run.phrases.append(f"AR: {whole_side(names, 'attackers', 'routs', 'rout')}")
            for stack in run.standing(run.attackers):
                rout(run, stack, "AR")
            run.out.step("7b. AR", "Attacking units rout, each losing an increment per Zone "
                         "of Influence retreated from. The defenders do not advance.")
            finished(run, advanced=False)
        case "FF":
            firefight(run)
        case "DR" | "DS":
            surrender = result.code == "DS"
            names = [s.name for s in run.standing(run.defenders)]
            run.phrases.append(f"{result.label}: " + (
                whole_side(names, "defenders", "surrenders", "surrender") if surrender
                else whole_side(names, "defenders", "routs", "rout")))
            for stack in run.standing(run.defenders):
                if surrender:
                    run.out.effect(EffectKind.SURRENDERED, stack.name, detail="DS")
                    run.gone.add(stack.name)
                else:
                    rout(run, stack, "DR")
            run.hurt(Severity.DECISIVE if surrender else Severity.MAJOR)
            run.out.step(f"7{'e' if surrender else 'd'}. {result.label}",
                         "Defenders surrender: removed from play." if surrender else
                         "Defending units rout, each losing an increment per Zone of "
                         "Influence retreated from.")
            advance(run, "into the target hex", disorder=True, impetus=result.hexes)
            impetus(run, result.hexes, surrender)
            finished(run, advanced=True)
    end_firefight(run, result)


def advance(run: Run, where: str, *, disorder: bool, impetus: int = 0) -> None:
    """Advance after Mêlée: one hex, and the hexes of impetus after it (step 9) said with
    it, as one move."""
    words = []
    for stack in run.standing(run.attackers):
        if impetus:
            run.out.effect(EffectKind.MOVED, stack.name, 1 + impetus, value="advances",
                           measure="hexes", direction=f"(the target hex + {impetus} impetus)")
        else:
            run.out.effect(EffectKind.MOVED, stack.name, 1, value="advances", measure="hex",
                           direction=where)
        if not disorder:
            continue
        if stack.state is Order.GOOD:
            run.out.effect(EffectKind.MARKER_SET, stack.name, value=DISORDERED,
                           detail="Advance after Mêlée")
            run.stacks[stack.name] = _with(stack, state=Order.DISORDERED)
            words.append(f"{stack.name} is disordered")
        else:
            words.append(f"{stack.name} stays disordered and does not rout")
    if disorder:
        advancing = [s.name for s in run.standing(run.attackers)]
        run.out.step(f"{run.steps['advance']}. Advance after Mêlée",
                     f"{doing(advancing, 'advances', 'advance')} into the vacated hex: "
                     f"{', '.join(words)}. Displace any overstacked units back where they "
                     "came from.")


def impetus(run: Run, hexes: int, surrendered: bool) -> None:
    charging = run.assault.old_guard and not run.right_shifts
    title = "9. Old Guard Charge Impetus" if charging else "9. Assault Impetus"
    if not hexes:
        run.out.step(title, "No further advance (#0).")
        return
    path = ("any way they see fit" if surrendered
            else "along the defenders' exact path of retreat (the attacker picks among several)")
    run.out.step(title, f"Advance {counted(hexes, 'more hex', 'more hexes')} {path}, stopping on "
                 "entering an enemy Zone of Influence.")


def finished(run: Run, *, advanced: bool) -> None:
    # Exploitation is the Old Guard's: not the British who turned the tables on it, nor the
    # stacks locked in a firefight it joined.
    guard = [s for s in run.standing(run.attackers) if not s.locked]
    if run.assault.old_guard and not run.right_shifts and advanced and guard:
        names = _names(guard)
        run.out.step("10. Old Guard Charge Exploitation", f"{names} may continue moving with "
                     "any remaining MPs unless in a Zone of Influence, and may declare a new "
                     "assault, even if disordered, resolved as a normal mêlée in the Mêlée "
                     "Segment.")
        # What the Guard's player may do next: said with the result, not only in its steps,
        # and short, so that a public headline (two lines of a phone) keeps it beside how
        # the targets left; step 10 in the Steps says what exploiting allows.
        run.phrases.append(f"{names} may exploit")


def firefight(run: Run) -> None:
    attackers, defenders = run.standing(run.attackers), run.standing(run.defenders)
    for stack in attackers:
        run.out.effect(EffectKind.FIREFIGHT, stack.name, value=_names(defenders),
                       detail="attacker")
    for stack in defenders:
        run.out.effect(EffectKind.FIREFIGHT, stack.name, value=_names(attackers),
                       detail="defender")
    run.phrases.append("Blank: a firefight")
    run.hurt(Severity.MINOR)
    run.out.step("7c. Blank: Firefight", "Leave the Assault marker, remove the Number "
                 "markers and mark every unit in the mêlée with a Firefight marker. Next "
                 "Mêlée Segment the sequence repeats on the Firefight column, without Huzzah.")


def end_firefight(run: Run, result: ChartResult) -> None:
    if not run.assault.firefight or result.code == "FF":
        return
    # Only the stacks locked in it leave it: a unit that joined this turn was never in it.
    for name in (*run.attackers, *run.defenders):
        if name not in run.gone and run.stacks[name].locked:
            run.out.effect(EffectKind.ENGAGEMENT_ENDED, name, value="firefight")


# --- small helpers -----------------------------------------------------------------------------


def _with(stack: Stack, **changes: object) -> Stack:
    return replace(stack, **changes)  # type: ignore[arg-type]


def _names(stacks: list[Stack]) -> str:
    return listed([s.name for s in stacks])
