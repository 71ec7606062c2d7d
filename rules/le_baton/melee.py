"""Melee (phases 6 and 11): dice per figure, 4+ to hit, and the result by match-up."""

from __future__ import annotations

from dataclasses import dataclass

from rules.core.dice import D6, D6Pool, DiceSource, plain_readings, pool_readings
from rules.core.errors import InvalidInput, NotAllowed
from rules.core.names import name_key
from rules.core.notation import counted, doing
from rules.core.records import (
    Modifier,
    Resolution,
    ResolutionBuilder,
    Roll,
    Severity,
)
from rules.le_baton.dice_counts import melee_dice
from rules.le_baton.effects import EffectKind
from rules.le_baton.fire import hits
from rules.le_baton.units import (
    BOTH_SIDES,
    RULESET,
    SHEET,
    Arm,
    Formation,
    Horse,
    Unit,
    require_figures,
)

BASE_TO_HIT = 4
MELEE_PHASES = (6, 11)


@dataclass(frozen=True)
class Side:
    unit: Unit
    defensive_terrain: bool = False
    fortification: bool = False
    supported_by: Unit | None = None  # a unit 2" behind or beside artillery fights instead
    units_contacted: int = 1  # infantry units a cavalry charge passes through


def to_hit_modifiers(roller: Unit, enemy: Side) -> list[Modifier]:
    source = f"{SHEET}: melee modifiers"
    modifiers = []
    if enemy.defensive_terrain or enemy.fortification:
        modifiers.append(Modifier(-1, "enemy in defensive terrain", source))
    if enemy.unit.horse is Horse.CUIRASSIERS:
        modifiers.append(Modifier(-1, "vs. cuirassiers", source))
    if enemy.unit.lancers and not enemy.unit.continuing:
        modifiers.append(Modifier(-1, "first combat vs. lancers", source))
    if roller.lancers and roller.continuing:
        modifiers.append(Modifier(-1, "lancers continuing a melee", source))
    return modifiers


def resolve_melee(a: Side, b: Side, phase: int, dice: DiceSource) -> Resolution:
    if phase not in MELEE_PHASES:
        raise InvalidInput("Melees are fought in phase 6 or phase 11.")
    if name_key(a.unit.name) == name_key(b.unit.name):  # one name for both: told apart nowhere
        raise NotAllowed(f"{a.unit.name} is named on both sides.", hint=BOTH_SIDES)
    if a.unit.nation is b.unit.nation:
        raise NotAllowed(f"{a.unit.name} and {b.unit.name} are on the same side.")
    out = ResolutionBuilder(RULESET, "melee")
    a, b = _supported(a, out), _supported(b, out)
    for gun, other in ((a, b), (b, a)):
        if gun.unit.arm is Arm.ARTILLERY and other.unit.arm is not Arm.ARTILLERY:
            return _guns_taken(gun.unit, other.unit, out)
    cavalry, infantry = _cavalry_against_infantry(a, b)
    if cavalry and infantry:
        if infantry.unit.formation is Formation.SQUARE or infantry.fortification:
            return _pass_through(cavalry, infantry, phase, dice, out)
        return _ridden_down(cavalry.unit, infantry.unit, out)
    return _fight(a, b, phase, dice, out)


def _supported(side: Side, out: ResolutionBuilder) -> Side:
    if side.unit.arm is not Arm.ARTILLERY or side.supported_by is None:
        return side
    out.step("Supported artillery",
             f"{side.supported_by.name}, 2\" behind or beside {side.unit.name}, fights "
             "instead of the artillery.")
    return Side(side.supported_by, side.defensive_terrain, side.fortification)


def _cavalry_against_infantry(a: Side, b: Side) -> tuple[Side | None, Side | None]:
    for cav, inf in ((a, b), (b, a)):
        if cav.unit.arm is Arm.CAVALRY and inf.unit.arm is Arm.INFANTRY:
            return cav, inf
    return None, None


def _guns_taken(gun: Unit, enemy: Unit, out: ResolutionBuilder) -> Resolution:
    out.step("Result", f"{enemy.arm.value.capitalize()} vs. unsupported artillery: "
                       "the artillery is destroyed.")
    out.effect(EffectKind.DESTROYED, gun.name, detail=f"{SHEET}: unsupported artillery")
    # No dice are rolled: the headline names the deed, and the line under it the battery's
    # fate (a headline saying both would leave the reply's body empty).
    return out.build(f"{enemy.name} overruns {gun.name}", Severity.DECISIVE)


def _ridden_down(cavalry: Unit, infantry: Unit, out: ResolutionBuilder) -> Resolution:
    what = "skirmishers" if infantry.formation is Formation.SKIRMISH else \
        f"infantry {infantry.formation.value if infantry.formation else 'in the open'}"
    out.step("Result", f"Cavalry vs. {what}: the infantry is destroyed.")
    out.effect(EffectKind.DESTROYED, infantry.name, detail=f"{SHEET}: cavalry vs. column/line")
    return out.build(f"{cavalry.name} rides down {infantry.name}", Severity.DECISIVE)


def _pass_through(cavalry: Side, infantry: Side, phase: int, dice: DiceSource,
                  out: ResolutionBuilder) -> Resolution:
    name = cavalry.unit.name
    rolls = []
    for number in range(1, cavalry.units_contacted + 1):
        # The square fought is known by name; only the others `contacted=` counts are not.
        passed = infantry.unit.name if number == 1 else f"infantry unit {number}"
        (face,) = dice.roll(D6(), f"{name} passing {passed}")
        rolls.append(Roll(f"{name} past {passed}", "1d6", (face,), total=face,
                          target="4+", result="a casualty" if face >= 4 else "no casualty",
                          readings=plain_readings((face,))))
    # No more casualties than figures, where they are given (0: not given, as no dice need
    # them here): the last one lost destroys it (docs/le-baton.md).
    lost = sum(1 for r in rolls if (r.total or 0) >= 4)
    figures = cavalry.unit.figures or None
    destroyed = figures is not None and lost >= figures
    lost = min(lost, figures) if figures is not None else lost
    what = "square" if infantry.unit.formation is Formation.SQUARE else "fortification"
    out.step("Result", f"Cavalry vs. infantry {what}: the infantry do not roll melee dice. "
             f"{name} passes through its full movement distance, is placed where it fits past "
             "the enemy, and takes a casualty on a 4+ for each infantry unit contacted. It "
             "must roll to recall in phase 13.", *rolls)
    if lost:
        out.effect(EffectKind.CASUALTIES, name, lost, detail=f"{SHEET}: passing a square")
    if destroyed:
        out.effect(EffectKind.DESTROYED, name, detail="its last figure lost")
    elif not cavalry.unit.charge_marker:
        # The charge was played at the table: its marker, which holds the cavalry to its
        # recall, goes down now. One already down (`/charge` left it) is not placed again.
        out.effect(EffectKind.CHARGE_MARKER, name, detail=f"{SHEET}: must roll to recall")
    if cavalry.unit.in_melee:  # out of its melee with the square: one never begun is not said
        # The cavalry's alone: the square may be locked with other units, and stays so.
        out.effect(EffectKind.MELEE_ENDS, name)
    if not destroyed:
        out.effect(EffectKind.PASSED_THROUGH, name)  # its full movement distance: spent
    headline = f"{name} passes through {infantry.unit.name}: {lost} " \
        f"{'casualty' if lost == 1 else 'casualties'}"
    if destroyed:
        return out.build(f"{headline}, destroyed", Severity.DECISIVE)
    return out.build(headline, Severity.MINOR if lost else Severity.NONE)


def _roll(roller: Side, enemy: Side, dice: DiceSource) -> Roll:
    count, entry = melee_dice(roller.unit)
    modifiers = to_hit_modifiers(roller.unit, enemy)
    bonus = sum(m.value for m in modifiers)
    # Only the hits are read from these dice (``D6Pool.only_hits``).
    pool = D6Pool(count, BASE_TO_HIT, bonus, only_hits=True)
    faces = dice.roll(pool, f"{roller.unit.name} melee") if count else ()
    scored = hits(faces, BASE_TO_HIT, bonus)
    return Roll(roller.unit.name, f"{count}d6", tuple(faces), tuple(modifiers),
                target=f"{BASE_TO_HIT}+", result=f"{scored} {'hit' if scored == 1 else 'hits'}",
                notes=(f"{counted(roller.unit.figures, 'figure')}: {entry}",), hits=scored,
                readings=pool_readings(faces, BASE_TO_HIT, bonus))


def _fight(a: Side, b: Side, phase: int, dice: DiceSource,
           out: ResolutionBuilder) -> Resolution:
    if a.unit.arm is not b.unit.arm or a.unit.arm is Arm.ARTILLERY:
        raise NotAllowed(f"{a.unit.name} ({a.unit.arm.value}) and {b.unit.name} "
                         f"({b.unit.arm.value}) do not fight a melee of dice.")
    for side in (a, b):
        require_figures(side.unit, " for its melee dice")
    roll_a, roll_b = _roll(a, b, dice), _roll(b, a, dice)
    ha, hb = roll_a.hits or 0, roll_b.hits or 0
    gone = []
    for unit, taken in ((a.unit, hb), (b.unit, ha)):
        lost = min(taken, unit.figures)  # no more casualties than figures
        if lost:
            out.effect(EffectKind.CASUALTIES, unit.name, lost, detail=f"{SHEET}: melee")
        if lost and lost == unit.figures:
            gone.append(unit.name)
    morale_phase = 7 if phase == 6 else 12
    if gone:
        return _destroyed(a.unit, b.unit, (ha, hb), gone, phase, (roll_a, roll_b), out)
    if ha == hb:
        if a.unit.is_infantry:
            when = "in phase 11" if phase == 6 else "next turn in phase 6"
            text = f"Equal casualties ({ha} each): the infantry continue to fight {when}."
            next_ = f"they fight on {when}"
        else:
            # Unlike infantry, tied cavalry are not called on to fight on: the recall comes
            # first. A failed one holds them, and held cavalry "may fight ... if continuing a
            # melee" next turn, as may cavalry a recall leaves in place (docs/le-baton.md).
            between = " and do not fight in phase 11" if phase == 6 else ""
            text = (f"Equal casualties ({ha} each): the cavalry test for recall in phase "
                    f"13{between}. If still in contact after the recall, they may fight on "
                    "next turn in phase 6.")
            next_ = "both test for recall in phase 13"
        out.step(f"Phase {phase}: melee", text, roll_a, roll_b)
        _locked(a.unit, b.unit, out)
        out.effect(EffectKind.MELEE_TIED, a.unit.name)  # the melee keeps it: nobody tests
        if a.unit.is_cavalry:
            for unit in (a.unit, b.unit):
                out.effect(EffectKind.RECALL_DUE, unit.name, detail=f"{SHEET}: a tie")
        # What follows a tie, said with it: nobody tests for losing a melee nobody lost.
        # "Their melee", as a win is "the melee": both stay in it, and the line saying that
        # each is locked in melee would repeat the headline.
        return out.build(f"{a.unit.name} and {b.unit.name} tie their melee, {ha} all: {next_}",
                         Severity.MINOR)
    loser, winner = (a.unit, b.unit) if hb > ha else (b.unit, a.unit)
    out.step(f"Phase {phase}: melee",
             f"{loser.name} receives more casualties than it inflicts: it loses and must test "
             f"morale in phase {morale_phase}.", roll_a, roll_b)
    _locked(a.unit, b.unit, out)
    out.effect(EffectKind.MELEE_LOST, loser.name, value=morale_phase, detail=f"{SHEET}: phase "
               f"{phase}")
    out.note(f"{loser.name} tests morale for losing the melee in phase {morale_phase}.")
    return out.build(f"{winner.name} wins the melee ({max(ha, hb)}–{min(ha, hb)}): "
                     f"{loser.name} tests in phase {morale_phase}", Severity.MAJOR)


def _destroyed(a: Unit, b: Unit, scores: tuple[int, int], gone: list[str], phase: int,
               rolls: tuple[Roll, Roll], out: ResolutionBuilder) -> Resolution:
    """A unit that lost its last figure in the melee is destroyed: the melee is over, and
    nobody tests for it (docs/le-baton.md, where the sheet is silent)."""
    ha, hb = scores
    said = doing(gone, "is", "are")
    lost = "its last figure is" if len(gone) == 1 else "their last figures are"
    out.step(f"Phase {phase}: melee", f"{said} destroyed: {lost} lost. The melee is over.",
             *rolls)
    for name in gone:
        out.effect(EffectKind.DESTROYED, name, detail="its last figure lost")
    if ha == hb:
        head = f"{a.name} and {b.name} tie, {ha} all"
    else:
        winner = a.name if ha > hb else b.name
        head = f"{winner} wins the melee ({max(ha, hb)}–{min(ha, hb)})"
    return out.build(f"{head}: {said} destroyed", Severity.DECISIVE)


def _locked(a: Unit, b: Unit, out: ResolutionBuilder) -> None:
    """Both stay in contact; lancers have now had their first combat and lose its edge."""
    for unit, other in ((a, b), (b, a)):
        out.effect(EffectKind.IN_MELEE, unit.name, value=other.name)
        if unit.lancers and not unit.continuing:
            out.effect(EffectKind.FOUGHT, unit.name, detail=f"{SHEET}: first combat")
