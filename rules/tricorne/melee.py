"""The Tricorne melee procedure, all eight steps, as one resolution.

1 announce; 2 the defending cavalry's retire and rally (asked before any die); 3 the dice;
4 the roll; 5 hits, Victory Banners and the leader casualty check; 6 flags, retreats and
rally checks; 7 taking ground and the bonus melee (each asked of the attacker); 8 the
defender's battle back. A bonus melee runs the same steps against its own target.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from rules.core.decisions import Answer, Answers, NotAnAnswer, Question
from rules.core.dice import BattleDice, DiceSource, Reading, Symbol, read_alike
from rules.core.errors import InvalidInput, NotAllowed, code
from rules.core.headlines import MAX_HEADLINE, fitted
from rules.core.names import name_key
from rules.core.notation import NameWithoutColon, counted, possessive
from rules.core.records import EffectKind, Resolution, ResolutionBuilder, Roll, Severity
from rules.core.roster import UnknownUnit
from rules.tricorne.checks import (
    can_take_ground,
    leader_check,
    lone_leader_check,
    rally_check,
    sabers_or_not,
)
from rules.tricorne.dice_count import DiceCount, Role, melee_dice
from rules.tricorne.effects import (
    BANNER,
    ELIMINATED,
    LEADER_ESCAPES,
    LEADER_JOINS,
    LEADER_KILLED,
    LEADER_RETREATS,
    ROUTED_OFF,
    TAKES_GROUND,
)
from rules.tricorne.settings import FailedRally, Settings
from rules.tricorne.units import (
    IGNORE_FLAGS,
    IGNORE_FLAGS_SOURCE,
    NO_SABER_HITS,
    RETIRE_RULE,
    RULESET,
    TARGET_SYMBOL,
    TERRAIN_RULES,
    Arm,
    Terrain,
    Unit,
    UnitType,
    retreat_per_flag,
)

MAX_BONUS_TARGETS = 8
STOPPED = ("cavalry and artillery that enter forest or buildings must stop and may not "
           "battle")
RETIRE, STAND = Answer("retire", "Retire and rally"), Answer("stand", "Stand and fight")
ADVANCE, STAY = Answer("advance", "Take ground"), Answer("stay", "Stay")
NO_BONUS = Answer("none", "No bonus melee")


@dataclass(frozen=True)
class TypedTarget:
    """How a bonus melee's target typed as the answer is read, and what to type (said with
    the question)."""

    read: Callable[[str], Unit]
    help: str


@dataclass(frozen=True)
class Melee:
    attacker: Unit
    defender: Unit
    card: bool = False  # the attack is an Ambush or First Strike card's
    bonus_targets: tuple[Unit, ...] = ()
    typed_target: TypedTarget | None = field(default=None, compare=False)


@dataclass
class Attack:
    """What one roll of melee dice did to its target."""

    hits: int = 0
    eliminated: bool = False
    retreated: bool = False  # left its hex
    routed: bool = False  # failed its rally check and left the field


@dataclass
class Run:
    melee: Melee
    dice: DiceSource
    settings: Settings
    out: ResolutionBuilder
    units: dict[str, Unit] = field(default_factory=dict)  # each unit as it stands now
    phrases: list[str] = field(default_factory=list)
    worst: Severity = Severity.NONE

    def now(self, unit: Unit) -> Unit:
        return self.units.get(unit.name, unit)

    def update(self, unit: Unit, **changes: object) -> Unit:
        self.units[unit.name] = replace(self.now(unit), **changes)  # type: ignore[arg-type]
        return self.units[unit.name]

    def hurt(self, severity: Severity) -> None:
        self.worst = max(self.worst, severity)


def resolve_melee(melee: Melee, dice: DiceSource, answers: Answers | None = None,
                  settings: Settings | None = None) -> Resolution:
    check_melee(melee)
    out = ResolutionBuilder(RULESET, "melee", answers=answers or Answers())
    run = Run(melee, dice, settings or Settings(), out)
    melee_round(run, melee.attacker, melee.defender, bonus=False)
    units = (melee.attacker, melee.defender, *melee.bonus_targets)
    headline = fitted(run.phrases, MAX_HEADLINE, [u.name for u in units]) or \
        f"{melee.attacker.name} melees {melee.defender.name}"
    return out.build(headline, run.worst)


def check_melee(melee: Melee) -> None:
    attacker, defender = melee.attacker, melee.defender
    if attacker.alone:
        raise NotAllowed(f"{attacker.name} is a lone leader: a leader may not engage in melee "
                         "combat when alone in a hex.",
                         hint="Attach the leader to a unit and melee with the unit.")
    if attacker.stopped_from_battle:
        raise NotAllowed(f"{attacker.name} entered {attacker.terrain.value} this turn: "
                         f"{STOPPED} ({TERRAIN_RULES}).",
                         hint="It may battle from there next turn. If it did not enter that "
                              "hex this turn, say so with `moved=false`.")
    if name_key(attacker.name) == name_key(defender.name):
        if attacker != defender:  # two units described under one name (a quick lookup)
            raise InvalidInput(f"Two units are called `{defender.name}`.",
                               hint="Give each unit its own name so the results say who is "
                                    "who.")
        raise InvalidInput("A unit cannot melee itself.", hint="Name an adjacent enemy unit.")
    for unit in (attacker, defender, *melee.bonus_targets):
        if not unit.alone and unit.blocks <= 0:
            raise InvalidInput(f"{unit.name} has no blocks left.",
                               hint="Give it blocks=1 or more, or leave it out.")
        check_other_hill(unit)


def check_other_hill(unit: Unit) -> None:
    if unit.other_hill and unit.terrain is not Terrain.HILL:
        raise InvalidInput(f"{unit.name}: `other-hill` says it stands on a hill, but its "
                           f"terrain is {unit.terrain.value}.",
                           hint="Give its terrain as `hill` (in a battle, with `/unit edit`), "
                                "or leave `other-hill` out.")


def melee_round(run: Run, attacker: Unit, defender: Unit, *, bonus: bool) -> None:
    attacker, defender = run.now(attacker), as_it_stands(run, defender)
    if defender.name in run.units:  # a bonus target's words hold from here on
        run.units[defender.name] = defender
    prefix = "bonus_" if bonus else ""
    kind = "Bonus melee" if bonus else "Melee"
    run.out.step(f"{kind}: announce",
                 f"{attacker.name} ({attacker.describe()}) melees {defender.name} "
                 f"({defender.describe()}).")
    if defender.alone:
        attack_lone_leader(run, attacker, defender, bonus=bonus)
        return
    role = Role(ordered=True, bonus=bonus, card=run.melee.card)
    retiring = ask_retire(run, attacker, defender, prefix, melee_dice(attacker, defender, role))
    result = attack(run, attacker, defender, role, retiring=retiring, prefix=prefix)
    defender = run.now(defender)
    if retiring and not result.eliminated:
        result = retire_and_rally(run, attacker, defender, result)
    vacated = result.eliminated or result.retreated or result.routed
    if vacated:
        took_ground = ask_take_ground(run, attacker, defender, prefix)
        if took_ground and not retiring and not bonus:
            ask_bonus_melee(run, attacker, defender)
        elif took_ground and retiring:
            run.out.note(f"{attacker.name} took ground after a retire and rally: no bonus "
                         f"melee ({RETIRE_RULE}).")
    elif not result.eliminated:
        battle_back(run, defender, attacker, prefix)


# --- step 2: retire and rally --------------------------------------------------------------


def ask_retire(run: Run, attacker: Unit, defender: Unit, prefix: str, count: DiceCount
               ) -> bool:
    if defender.arm is not Arm.CAVALRY:
        return False
    if run.melee.card:
        run.out.step("Retire and rally", f"{defender.name} may not retire and rally against "
                     "an Ambush or First Strike card.")
        return False
    onto_leader = bool(defender.retire_onto) and not defender.leader
    if defender.cannot_retire and not onto_leader:
        run.out.step("Retire and rally", f"{defender.name} has no two hexes to move back "
                     "into: it may not retire and rally, and the melee is resolved normally.")
        return False
    # Asked before the roll, it says the dice the roll will be: the defender weighs them.
    question = Question(f"{prefix}retire",
                        f"Will {defender.name} retire and rally before {attacker.name} rolls "
                        f"{counted(count.total, 'die', 'dice')}?",
                        (RETIRE, STAND), unit=defender.name, by="defender")
    answer = run.out.ask(question)
    retiring = answer is RETIRE
    run.out.step("Retire and rally",
                 f"{defender.name} retires and rallies: only unit symbols will score hits."
                 if retiring else f"{defender.name} stands, and may battle back.")
    return retiring


def retire_and_rally(run: Run, attacker: Unit, defender: Unit, result: Attack) -> Attack:
    """After hits (and the roll's leader casualty check, step 5): back two hexes (one onto a
    lone friendly leader), then a rally check."""
    leader = defender.retire_onto if not defender.leader else None
    if leader:
        # "The leader is immediately attached to that unit and the unit's retire and rally
        # movement stops."
        run.out.effect(EffectKind.MOVED, defender.name, 1, value="retires and rallies",
                       measure="hex", direction=f"onto {leader}")
        run.out.effect(LEADER_JOINS, leader, value=defender.name)
        defender = run.update(defender, leader=leader)
        moved = f"{defender.name} retires 1 hex onto {leader}, who joins it."
    else:
        # Toward its side, as every retreat: the reply says the distance alone.
        run.out.effect(EffectKind.MOVED, defender.name, 2, value="retires and rallies",
                       measure="hexes")
        moved = f"{defender.name} retires 2 hexes toward its side."
    run.out.step("Retire", moved)
    run.hurt(Severity.MINOR)
    result.retreated = True
    run.phrases.append(f"{defender.name} retires and rallies")
    result.routed = rally(run, defender, attacker)
    if result.routed:
        # A leader who joined it on the way took none of the roll's hits: his check is now.
        leave_leader(run, attacker, defender, checked=bool(result.hits) and not leader)
    return result


# --- steps 3 to 6: dice, hits, leaders, flags ----------------------------------------------


def attack(run: Run, attacker: Unit, defender: Unit, role: Role, *, retiring: bool,
           prefix: str) -> Attack:
    """One roll of melee dice and what it does; ``prefix`` names the questions it asks
    (``bonus_``, ``back_``)."""
    count = melee_dice(attacker, defender, role)
    what = "battles back" if role.battling_back else "rolls"
    title = f"{attacker.name} {what} against {defender.name}"
    if count.total == 0:
        run.out.step(title, f"{count.arithmetic(attacker.kind)}: no dice, no hits.")
        # No roll, so no roll line: the headline says what took the dice.
        run.phrases.append(no_dice(attacker, count))
        return Attack()
    alike = read_alike_in_melee(attacker, defender, retiring, run.settings.die)
    # The roll is named for the step it is (step 8's is the defender battling back).
    label = f"{attacker.name} {'battles back' if role.battling_back else 'melee'}"
    faces = run.dice.roll(BattleDice(count.total, run.settings.die, alike), label)
    readings, ignored = score(attacker, defender, faces, retiring)
    hits, flags = readings.count(Reading.HIT), readings.count(Reading.FLAG)
    applied = min(hits, defender.blocks)
    notes = [count.arithmetic(attacker.kind), *ignored]
    if hits > applied:
        beyond = hits - applied
        notes.append(f"{counted(beyond, 'hit')} beyond its blocks "
                     f"{'has' if beyond == 1 else 'have'} no effect")
    # The hill's flag and the buildings' hit are said on the roll, so the hits and the retreat
    # add up on the reply's own lines.
    hill = flags and not retiring and hill_protection(attacker, defender)
    walls = BUILDINGS_IGNORED in ignored
    # Why a saber or a flag rolled did nothing, said where the player reads the dice.
    sabers = Symbol.SABER in faces and not retiring and attacker.kind in NO_SABER_HITS
    symbols_only = retiring and any(f in (Symbol.SABER, Symbol.FLAG) for f in faces)
    roll = Roll(label, BattleDice(count.total).describe(), faces, count=count.said(attacker.kind),
                hits=hits, readings=readings, target=f"{defender.name} ({defender.arm.value})",
                result=f"{counted(hits, 'hit')}" + (f", {counted(flags, 'flag')}" if flags else "")
                + (" (hill: 1 ignored)" if hill else "")
                + (" (buildings: 1 hit ignored)" if walls else "")
                + (f" ({attacker.kind.value.replace('-', ' ')}: sabers miss)" if sabers else "")
                + (" (retiring: unit symbols only)" if symbols_only else ""),
                notes=tuple(notes))
    run.out.step(title, hits_outcome(defender, applied), roll)
    return take_roll(run, attacker, defender, applied, 0 if retiring else flags, prefix)


def no_dice(unit: Unit, count: DiceCount) -> str:
    """``Cobham's has no melee dice (−2 attacking into forest)``."""
    return f"{unit.name} has no melee dice ({count.taken()})"


def take_roll(run: Run, attacker: Unit, defender: Unit, applied: int, flags: int,
              prefix: str) -> Attack:
    """Steps 5 and 6 for one roll: blocks off, flags and retreats, one leader casualty check
    once the roll's blocks are all removed (hits, then a blocked retreat), then the rally
    check. The check comes before the rally (step 5's "Chance to Hit a Leader" before step
    6's rally checks): a leader it kills adds no die to the rally. A unit that then routs
    leaves its leader alone without a second check (``leave_leader``)."""
    result = Attack(hits=applied)
    if applied:
        result.eliminated = take_hits(run, attacker, defender, applied)
    else:
        run.phrases.append(f"{attacker.name} scores no hit on {defender.name}")
    if not result.eliminated:
        flags = ignore_flag(run, attacker, run.now(defender), flags)
        flags = ask_ignore_flag(run, run.now(defender), flags, prefix)
        if flags:
            result.retreated, result.eliminated = retreat(run, attacker, run.now(defender),
                                                          flags)
    checked = bool(applied or result.eliminated)
    if checked:
        check_attached_leader(run, attacker, defender, result.eliminated)
    if flags and not result.eliminated:
        # "The unit must make its rally check, even if the unit did not retreat."
        result.routed = rally(run, defender, attacker)
        if result.routed:
            leave_leader(run, attacker, defender, checked=checked)
    return result


# Buildings "ignore 1 symbol hit from ranged and melee combat": said in the Steps, and on
# the roll line.
BUILDINGS_IGNORED = f"buildings: 1 symbol hit ignored ({TERRAIN_RULES})"


def score(attacker: Unit, defender: Unit, faces: tuple, retiring: bool
          ) -> tuple[tuple[Reading, ...], list[str]]:
    """Each die read: its target's symbol and sabers hit (not a militia's or light
    cavalry's sabers); flags may force a retreat. Retiring, only unit symbols count."""
    target, saber_hits = _what_hits(attacker, defender, retiring)
    readings = [_reading(face, target, saber_hits, retiring) for face in faces]
    notes = []
    if attacker.kind in NO_SABER_HITS and Symbol.SABER in faces and not retiring:
        notes.append(f"{attacker.kind.value.replace('-', ' ')}: sabers score no hit")
    if retiring and any(f in (Symbol.SABER, Symbol.FLAG) for f in faces):
        notes.append("retire and rally: sabers and flags are ignored")
    if defender.terrain is Terrain.BUILDINGS and Reading.HIT in readings:
        # Buildings "ignore 1 symbol hit from ranged and melee combat": a unit-symbol hit.
        for index, face in enumerate(faces):
            if face is target and readings[index] is Reading.HIT:
                readings[index] = Reading.MISS
                notes.append(BUILDINGS_IGNORED)
                break
    return tuple(readings), notes


def _what_hits(attacker: Unit, defender: Unit, retiring: bool) -> tuple[Symbol, bool]:
    """The target's symbol, and whether a saber hits too."""
    return TARGET_SYMBOL[defender.arm], not retiring and attacker.kind not in NO_SABER_HITS


def _reading(face: Symbol, target: Symbol, saber_hits: bool, retiring: bool) -> Reading:
    if face is target or (face is Symbol.SABER and saber_hits):
        return Reading.HIT
    if face is Symbol.FLAG and not retiring:
        return Reading.FLAG
    return Reading.MISS


def read_alike_in_melee(attacker: Unit, defender: Unit, retiring: bool,
                        die: tuple[Symbol, ...]) -> tuple[tuple[Symbol, ...], ...]:
    """The faces ``score`` reads the same (``BattleDice.alike``). In buildings the target's
    symbol stays apart: they ignore a symbol hit, not a saber."""
    return _alike(*_what_hits(attacker, defender, retiring), retiring,
                  defender.terrain is Terrain.BUILDINGS, die)


@functools.cache
def _alike(target: Symbol, saber_hits: bool, retiring: bool, buildings: bool,
           die: tuple[Symbol, ...]) -> tuple[tuple[Symbol, ...], ...]:
    return read_alike(die, lambda face: (_reading(face, target, saber_hits, retiring),
                                         buildings and face is target))


def hits_outcome(defender: Unit, applied: int) -> str:
    if not applied:
        return f"No hit on {defender.name}."
    left = defender.blocks - applied
    if left == 0:
        return f"{defender.name} loses its last {counted(applied, 'block')}: eliminated."
    return f"{defender.name} loses {counted(applied, 'block')} ({left} left)."


def take_hits(run: Run, attacker: Unit, defender: Unit, applied: int) -> bool:
    """Blocks removed, a Victory Banner for the last; then the attached leader's check."""
    left = defender.blocks - applied
    run.out.effect(EffectKind.DAMAGE, defender.name, applied, measure=_blocks(applied))
    run.update(defender, blocks=left)
    run.hurt(Severity.MAJOR)
    eliminated = left == 0
    if eliminated:
        run.out.effect(ELIMINATED, defender.name)
        run.out.effect(BANNER, attacker.name, value=f"{defender.name} eliminated")
        run.hurt(Severity.DECISIVE)
        run.phrases.append(f"{attacker.name} eliminates {defender.name}")
    else:
        run.phrases.append(f"{attacker.name} scores {counted(applied, 'hit')} on {defender.name}")
    return eliminated


def check_attached_leader(run: Run, enemy: Unit, unit: Unit, gone: bool) -> None:
    """The check of the leader attached to ``unit``, if it has one; ``gone``: the unit has
    left the field (eliminated or routed) and left the leader alone in its hex."""
    unit = run.now(unit)
    if unit.leader:
        check_leader(run, enemy, unit, gone)


def check_leader(run: Run, enemy: Unit, unit: Unit, gone: bool) -> None:
    check = leader_check(unit, gone, run.dice, run.settings)
    default = run.settings.leader_default()
    if default:
        run.out.default(default)
    leader = unit.leader or ""
    run.update(unit, leader=None if gone or not check.passed else leader)
    if not check.passed:
        run.out.effect(LEADER_KILLED, leader)
        run.out.effect(BANNER, enemy.name, value=f"{leader} killed")
        run.hurt(Severity.DECISIVE)
        run.phrases.append(f"{leader} is killed")
        outcome = f"{leader} is killed: a Victory Banner."
    elif gone:
        # The unit is gone; its leader is not: he stands alone, a lone leader, until a unit
        # takes him in (reference §2: a unit retreating onto a lone friendly leader).
        run.out.effect(LEADER_ESCAPES, leader, value=unit.name)
        run.phrases.append(f"{leader} escapes alone")
        outcome = (f"{leader} survives and escapes alone toward the nearest friendly unit: "
                   f"a lone leader now that {unit.name} is gone.")
    else:
        outcome = f"{leader} survives and stays with {unit.name}."
    run.out.step("Leader casualty check", outcome, check.roll)


def ignore_flag(run: Run, attacker: Unit, defender: Unit, flags: int) -> int:
    """A hill ignores 1 flag when attacked from a lower level or from a different group of
    hill hexes, never against artillery (reference §5)."""
    why = hill_protection(attacker, defender)
    if flags and why:
        run.out.step("Hill", f"{defender.name} on a hill attacked {why} ignores 1 flag "
                     f"({TERRAIN_RULES}).")
        return flags - 1
    return flags


def ask_ignore_flag(run: Run, unit: Unit, flags: int, prefix: str) -> int:
    """A unit whose class "may ignore" flags (the government grenadier, 1): its owner's
    choice, asked once the flags are known, after the hill's."""
    may = IGNORE_FLAGS.get(unit.kind, 0)
    if not flags or not may:
        return flags
    ignored = min(may, flags)
    by = "attacker" if "back_" in prefix else "defender"
    # "1 flag of the 1 flag" said as a player would: "the flag".
    which = f"{counted(ignored, 'flag')} of the {counted(flags, 'flag')}" if ignored < flags \
        else "the flag" if flags == 1 else f"the {counted(flags, 'flag')}"
    # Each answer names the unit: in the odds' rows, beside the other side's answers ("Stand
    # and fight & …"), a bare "Ignore 1 flag" reads as anyone's.
    question = Question(f"{prefix}ignore_flag",
                        f"Will {unit.name} ignore {which} against it?",
                        (Answer("ignore", f"{unit.name} ignores {counted(ignored, 'flag')}"),
                         Answer("take", f"{unit.name} takes every flag")),
                        unit=unit.name, by=by)
    if run.out.ask(question).key == "take":
        run.out.step("Flags", f"{unit.name} takes every flag.")
        return flags
    run.phrases.append(f"{unit.name} ignores {counted(ignored, 'flag')}")
    run.out.step("Flags", f"{unit.name} ignores {counted(ignored, 'flag')}: a "
                 f"{unit.kind.value.replace('-', ' ')} may ignore {counted(may, 'flag')} "
                 f"({IGNORE_FLAGS_SOURCE}).")
    return flags - ignored


def hill_protection(attacker: Unit, defender: Unit) -> str | None:
    """Where the attack comes from, when the defender's hill protects it. `other-hill`, on
    either unit, says the two stand on different groups of hill hexes."""
    if defender.terrain is not Terrain.HILL or attacker.arm is Arm.ARTILLERY:
        return None
    if attacker.terrain is not Terrain.HILL:
        return "from below"
    if attacker.other_hill or defender.other_hill:
        return "from another group of hill hexes"
    return None


def retreat(run: Run, attacker: Unit, defender: Unit, flags: int) -> tuple[bool, bool]:
    """Step 6: back per flag; a block lost per hex it cannot complete. Returns (left its
    hex, eliminated)."""
    hexes = flags * retreat_per_flag(defender.kind)
    room = hexes if defender.retreat_room is None else min(hexes, defender.retreat_room)
    lost = min(hexes - room, defender.blocks)
    words = [f"{counted(flags, 'flag')}: {defender.name} must retreat "
             f"{counted(hexes, 'hex', 'hexes')}."]
    if room:
        run.out.effect(EffectKind.MOVED, defender.name, room, value="retreats",
                       measure="hex" if room == 1 else "hexes")
        run.phrases.append(f"{defender.name} retreats {counted(room, 'hex', 'hexes')}")
        run.hurt(Severity.MAJOR)
    if lost:
        words.append(f"It cannot complete {counted(hexes - room, 'hex', 'hexes')} and loses "
                     f"{counted(lost, 'block')} instead.")
        run.phrases.append(f"{defender.name} loses {counted(lost, 'block')} for the retreat it "
                           "cannot make")
        run.out.effect(EffectKind.DAMAGE, defender.name, lost, measure=_blocks(lost),
                       detail="retreat blocked")
        defender = run.update(defender, blocks=defender.blocks - lost)
        run.hurt(Severity.MAJOR)
    if defender.blocks == 0:
        run.out.effect(ELIMINATED, defender.name)
        run.out.effect(BANNER, attacker.name, value=f"{defender.name} eliminated")
        run.phrases.append(f"{defender.name} is eliminated")
        run.hurt(Severity.DECISIVE)
        run.out.step("Retreat", " ".join([*words, "Eliminated."]))
        return bool(room), True
    run.out.step("Retreat", " ".join(words))
    return bool(room), False


def leave_leader(run: Run, enemy: Unit, unit: Unit, *, checked: bool) -> None:
    """A unit its rally check took off the field leaves its leader, if any, alone: one check
    per roll, so a leader ``checked`` already for this roll's hits is left alone without
    another; one not yet checked makes the check of a leader whose unit is gone."""
    unit = run.now(unit)
    leader = unit.leader
    if not leader:
        return
    if not checked:
        check_leader(run, enemy, unit, gone=True)
        return
    run.update(unit, leader=None)
    run.out.effect(LEADER_ESCAPES, leader, value=unit.name)
    run.phrases.append(f"{leader} escapes alone")
    run.out.step("Leader left alone", f"{leader}, checked for this roll's hits, escapes alone "
                 f"toward the nearest friendly unit: a lone leader now that {unit.name} is "
                 "gone.")


def rally(run: Run, unit: Unit, enemy: Unit) -> bool:
    """The rally check and what failing it does: True when the unit left the field (its
    leader, if any, is then left alone: ``leave_leader``)."""
    unit = run.now(unit)
    check = rally_check(unit, run.dice, run.settings)
    for default in (run.settings.rally_default(),
                    None if check.passed else run.settings.failed_rally_default()):
        if default:
            run.out.default(default)
    if check.passed:
        # Passing cancels no hex of the retreat before it (docs/tricorne.md).
        back = retreated(run, unit)
        where = f" where its retreat left it, {counted(back, 'hex', 'hexes')} back" if back \
            else ""
        run.out.step("Rally check", f"{unit.name} rallies{where}: it stays on the field.",
                     check.roll)
        return False
    if run.settings.failed_rally is FailedRally.LOSE_BLOCK:
        run.out.effect(EffectKind.DAMAGE, unit.name, 1, measure=_blocks(1),
                       detail="failed rally check")
        left = unit.blocks - 1
        run.update(unit, blocks=left)
        run.hurt(Severity.MAJOR)
        if left:
            run.out.step("Rally check", f"{unit.name} fails and loses 1 block.", check.roll)
            return False
        run.out.effect(ELIMINATED, unit.name)
        run.out.effect(BANNER, enemy.name, value=f"{unit.name} eliminated")
        run.out.step("Rally check", f"{unit.name} fails and loses its last block.",
                     check.roll)
        run.hurt(Severity.DECISIVE)
        return True
    run.out.effect(ROUTED_OFF, unit.name)
    run.out.effect(BANNER, enemy.name, value=f"{unit.name} routed")
    run.out.step("Rally check", f"{unit.name} fails and routs off the field.", check.roll)
    run.phrases.append(f"{unit.name} routs")
    run.hurt(Severity.DECISIVE)
    return True


# --- a lone leader ---------------------------------------------------------------------------


def attack_lone_leader(run: Run, attacker: Unit, leader: Unit, *, bonus: bool) -> None:
    """A leader alone in a hex may be attacked: any saber kills; otherwise it retreats.
    The attacker may take ground after either."""
    role = Role(ordered=True, bonus=bonus, card=run.melee.card)
    count = melee_dice(attacker, leader, role)
    if count.total <= 0:
        # No die to roll, no saber to fear: nothing forces him back, nor opens his hex.
        run.out.step(f"{attacker.name} attacks {leader.name}",
                     f"{count.arithmetic(attacker.kind)}: no dice. {leader.name} stays.")
        run.phrases.append(f"{no_dice(attacker, count)}; {leader.name} stays")
        return
    faces = run.dice.roll(BattleDice(count.total, run.settings.die,
                                     sabers_or_not(run.settings.die)),
                          f"{attacker.name} melee")
    check = lone_leader_check(leader.name, faces)
    default = run.settings.leader_default()
    if default:
        run.out.default(default)
    roll = replace(check.roll, notes=(count.arithmetic(attacker.kind),),
                   count=count.said(attacker.kind))
    if not check.passed:
        run.out.effect(LEADER_KILLED, leader.name)
        run.out.effect(BANNER, attacker.name, value=f"{leader.name} killed")
        run.hurt(Severity.DECISIVE)
        run.phrases.append(f"{attacker.name} kills {leader.name}")
        outcome = f"{leader.name} is killed: a Victory Banner."
    else:
        run.out.effect(LEADER_RETREATS, leader.name)
        run.phrases.append(f"{leader.name} retreats")
        run.hurt(Severity.MINOR)
        outcome = f"{leader.name} survives and retreats toward his side."
    run.out.step(f"{attacker.name} attacks {leader.name}", outcome, roll)
    if ask_take_ground(run, attacker, leader, "bonus_" if bonus else "") and not bonus:
        ask_bonus_melee(run, attacker, leader)


# --- step 7: taking ground and the bonus melee ----------------------------------------------


def ask_take_ground(run: Run, attacker: Unit, vacated: Unit, prefix: str) -> bool:
    if not can_take_ground(attacker) or run.melee.card:
        why = ("an Ambush or First Strike card's melee" if run.melee.card
               else "artillery")
        run.out.step("Take ground", f"{attacker.name} may not take ground after {why}.")
        return False
    # After a bonus melee, the question says so: it reads otherwise as the first one again.
    text = (f"Will {attacker.name} take ground again, into {possessive(vacated.name)} "
            "vacated hex?" if prefix == "bonus_" else
            f"Will {attacker.name} take ground (advance into the vacated hex)?")
    question = Question(f"{prefix}take_ground", text, (ADVANCE, STAY), unit=attacker.name,
                        by="attacker")
    if run.out.ask(question) is STAY:
        run.out.step("Take ground", f"{attacker.name} stays in its hex.")
        return False
    # It now stands in the vacated hex, on that hex's terrain ("taking ground is never
    # mandatory and follows the normal terrain movement rules", reference §6). A lone
    # leader's hex has no terrain on record: taken as open ground, and said so, rather than
    # as the terrain the unit left (cavalry leaving a forest would be stopped as entering one).
    terrain = Terrain.OPEN if vacated.alone else vacated.terrain
    if vacated.alone and attacker.terrain is not Terrain.OPEN:
        run.out.note(f"{possessive(vacated.name)} hex has no terrain on record: "
                     f"{attacker.name} is taken to stand in the open there (in a battle, "
                     "`/unit edit` sets its terrain).")
    shown = f" ({terrain.value})" if terrain not in (None, Terrain.OPEN) else ""
    # Into the vacated hex, as taking ground always is: the reply names its terrain alone.
    run.out.effect(EffectKind.MOVED, attacker.name, 1, value=TAKES_GROUND, measure="hex",
                   direction=shown.strip() or None, detail=terrain.value if terrain else "")
    # Its `other-hill` was said of the hex it left.
    run.update(attacker, moved=True, other_hill=False,
               **({"terrain": terrain} if terrain else {}))
    run.out.step("Take ground", f"{attacker.name} takes ground: it counts as movement.")
    return True


def bonus_eligible(unit: Unit) -> bool:
    """Infantry with an attached leader, highland units and cavalry."""
    return (unit.arm is Arm.CAVALRY or unit.kind is UnitType.HIGHLAND
            or (unit.arm is Arm.INFANTRY and bool(unit.leader)))


def ask_bonus_melee(run: Run, attacker: Unit, defender: Unit) -> None:
    attacker = run.now(attacker)
    if not bonus_eligible(attacker):
        run.out.step("Bonus melee", f"{attacker.name} gains no bonus melee (only infantry "
                     "with an attached leader, highland units and cavalry do).")
        return
    if attacker.stopped_from_battle:
        run.out.step("Bonus melee", f"{attacker.name} took ground into "
                     f"{attacker.terrain.value}: cavalry that enters forest or buildings must "
                     f"stop and may not battle, so it makes no bonus melee ({TERRAIN_RULES}).")
        return
    targets = bonus_targets(run, defender)
    typed = run.melee.typed_target
    if not targets and typed is None:
        run.out.step("Bonus melee", f"{attacker.name} may make a bonus melee, but no target "
                     "is left: name the units it could attack with the bonus option.")
        return
    answers = (*(Answer(t.name, f"Attack {t.name}") for t in targets), NO_BONUS)
    # Who is adjacent after taking ground is the table's knowledge: besides the targets
    # named ahead, the player may type the one it attacks.
    question = Question("bonus_melee", f"Will {attacker.name} make a bonus melee?", answers,
                        unit=attacker.name, by="attacker", typed=typed.help if typed else "")
    chosen = run.out.ask(question)
    if chosen is NO_BONUS:
        run.out.step("Bonus melee", f"{attacker.name} makes no bonus melee.")
        return
    target = next((t for t in targets if t.name == chosen.key), None)
    melee_round(run, attacker,
                target or typed_target(run, attacker, defender, chosen.key, question),
                bonus=True)


def bonus_targets(run: Run, defender: Unit) -> list[Unit]:
    """The targets the player named (in a battle, the enemy's units); else the defender.
    Neither a unit this melee took off the field, nor the defender once it retreated more
    than 1 hex: it is then not adjacent to the hex the attacker took; nor a leader this
    melee sent back alone (docs/tricorne.md)."""
    gone = gone_names(run)
    if retreated(run, defender) > 1:
        gone.add(defender.name)
    fell_back = fell_back_alone(run)
    named = [as_it_stands(run, t) for t in run.melee.bonus_targets]
    candidates = named or [run.now(defender)]
    return [t for t in candidates if t.name not in gone
            and not (t.alone and t.name in fell_back)][:MAX_BONUS_TARGETS]


def as_it_stands(run: Run, target: Unit) -> Unit:
    """A bonus target as this melee left it (its class, blocks and leader), with the words
    written for it (its hex, cards, reductions): a unit of this melee written out with words
    keeps them, as any other target does."""
    now = run.units.get(target.name)
    if now is None:
        return target
    return replace(target, kind=now.kind, full=now.full, blocks=now.blocks, leader=now.leader,
                   side=now.side)


def retreated(run: Run, unit: Unit) -> int:
    """The hexes ``unit`` has retreated in this melee."""
    return sum(e.amount or 0 for e in run.out.effects if e.unit == unit.name
               and e.kind == EffectKind.MOVED and e.value == "retreats")


def fell_back_alone(run: Run) -> set[str]:
    """The leaders this melee sent back alone: a lone leader who survived the attack and
    retreated, and one whose unit is gone and who escaped. Each goes toward his side, his
    owner choosing the hexes: not to stand beside the enemy that took his hex."""
    return {e.unit for e in run.out.effects if e.kind in (LEADER_RETREATS, LEADER_ESCAPES)}


def gone_names(run: Run) -> set[str]:
    """The units and leaders this melee has taken off the field so far."""
    return {e.unit for e in run.out.effects if e.kind in (ELIMINATED, ROUTED_OFF, LEADER_KILLED)}


def typed_target(run: Run, attacker: Unit, defender: Unit, text: str,
                 question: Question) -> Unit:
    """The bonus melee's target as the player typed it: a unit of this melee by its name
    (as it stands now), else read the way the bonus option reads one."""
    known = {name_key(u.name): u for u in (attacker, defender, *run.melee.bonus_targets)}
    typed = run.melee.typed_target
    assert typed is not None  # asked only with a reader
    # The player's answer, not the dice, is at fault: the odds refuse it whole.
    again = f"Name the unit its bonus melee attacks, or answer {question.listed()}."
    alone = {name_key(name): name for name in fell_back_alone(run)}

    def out_of_reach(message: str) -> InvalidInput:
        # The dice's doing, not the words': only this path is refused, and the odds walk it
        # on as if an answer given ahead had not been given.
        return run.out.answers.out_of_reach(question, InvalidInput(message, hint=again))

    def fell_back(name: str) -> InvalidInput:
        return out_of_reach(f"{name} fell back alone toward his side in this melee: he is "
                            f"not adjacent to the hex {attacker.name} took.")

    # A leader this melee sent back alone: still under his unit on the roster until the
    # answer plays the move on, so the roster would not know him as a target.
    if name_key(text) in alone:
        raise fell_back(alone[name_key(text)])
    try:
        target = as_it_stands(run, known.get(name_key(text)) or typed.read(text))
    except InvalidInput as error:
        # Said against the question it was read for: an answer meant for an earlier one
        # ("Take ground") is not taken for a unit's name without a word of why. A name the
        # roster lacks is answered with the roster, not with the commands that add to it.
        # Words without a colon nor a unit word (`no`, `Take ground`) were no unit written
        # out: the answers are said, not how a unit is written.
        refused = f"The question is “{question.text}”, and {code(text)} is no target it " \
            "may attack."
        if isinstance(error, NameWithoutColon) and not error.words:
            raise NotAnAnswer(refused, hint=f"Answer {question.listed()}, or with "
                              f"{typed.help}.") from None
        hint = f"{again} `/unit list` shows the roster." if isinstance(error, UnknownUnit) \
            else error.hint
        raise NotAnAnswer(f"{refused} {error.message}", hint=hint) from None
    if name_key(target.name) == name_key(attacker.name):
        raise NotAnAnswer("A unit cannot melee itself.", hint=again)
    # Whether the target is still there is the dice's doing.
    if target.name in gone_names(run):
        raise out_of_reach(f"{target.name} has left the field in this melee.")
    if target.alone and name_key(target.name) in alone:
        raise fell_back(target.name)
    back = retreated(run, target) if target.name == defender.name else 0
    if back > 1:
        raise out_of_reach(f"{target.name} retreated {back} hexes: it is not adjacent to the "
                           f"hex {attacker.name} took.")
    if not target.alone and target.blocks <= 0:
        raise InvalidInput(f"{target.name} has no blocks left.", hint=again)
    check_other_hill(target)
    return target


# --- step 8: battle back ---------------------------------------------------------------------


def battle_back(run: Run, defender: Unit, attacker: Unit, prefix: str) -> None:
    """The defender, if it kept a block and its hex, attacks the original attacker: no
    retire and rally against it, no highland bonus, no taking ground."""
    defender, attacker = run.now(defender), run.now(attacker)
    if defender.arm is Arm.LEADER or defender.blocks == 0:
        return
    role = Role(ordered=False, battling_back=True)
    attack(run, defender, attacker, role, retiring=False, prefix=f"{prefix}back_")


def _blocks(count: int) -> str:
    return "block" if count == 1 else "blocks"
