"""Le Baton's procedures from a command's options (Discord text) or a JSON request.

Units are written ``Name: words`` in quick lookups (``2nd Foot: british inf veteran line
figures=12``); in a battle they are roster names, followed by the fight's situation words.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from rules.core.defaults import asking
from rules.core.dice import DiceSource
from rules.core.errors import InvalidInput, NotAllowed
from rules.core.fields import Field, FieldSet
from rules.core.headlines import listed
from rules.core.notation import (
    MAX_NAME_LENGTH,
    echo,
    option_value,
    refuse_roster_word,
    roster_entry,
)
from rules.core.records import Resolution
from rules.core.roster import Roster, RosterUnit, name_key
from rules.le_baton.battle import MELEE, PHASES, engine_unit, melee_loser, melee_tied
from rules.le_baton.charge import ChargeSituation, resolve_charge
from rules.le_baton.fire import (
    ArtilleryTarget,
    FireTarget,
    Range,
    Target,
    resolve_artillery_fire,
    resolve_fire,
)
from rules.le_baton.inputs import (
    MELEE_JSON,
    MELEE_SITUATION,
    MELEE_UNIT,
    UNIT,
    UNIT_JSON,
    read_unit_json,
    read_unit_text,
)
from rules.le_baton.melee import Side, resolve_melee
from rules.le_baton.morale import Situation, check_who_tests, resolve_morale
from rules.le_baton.units import Arm, Formation, Unit

Prepared = Callable[[DiceSource], Resolution]
NO_WORDS = FieldSet(())
# Numbers given as a command's own options; JSON may hold any number, so each is bounded.
DISTANCE = Field("distance", float, "inches to the target", minimum=0, maximum=100)
PHASE = Field("phase", int, "the phase of the turn", minimum=1, maximum=len(PHASES))


# A command's own option is all the player gave: the refusal names it once (`phase` cannot
# be 14), not as its place too (phase: `phase` cannot be 14).
def _convert(kind: type, value: Any, name: str) -> Any:
    return None if value is None else Field(name, kind, "").convert(value, "")


def _number(spec: Field, value: Any) -> Any:
    return None if value is None else spec.convert(value, "")


def unit_from(value: Any, where: str, roster: Roster | None, *, melee: bool = False
              ) -> tuple[Unit, dict[str, Any]]:
    """A unit from text (quick lookup), a JSON object, or a roster name plus situation words."""
    if isinstance(value, Mapping):
        return read_unit_json(value, where, MELEE_JSON if melee else UNIT_JSON)
    if not isinstance(value, str) or not value.strip():
        raise InvalidInput(f"`{where}` needs a unit.")
    if roster is None:
        return read_unit_text(value, where, MELEE_UNIT if melee else UNIT)
    roster_unit, words = roster_entry(value, roster, where, several=False, words=melee,
                                      described=UNIT)
    unit = engine_unit(roster_unit, roster)
    for word in words.split():  # a melee's words: none that the roster says
        refuse_roster_word(word, unit.name, where, UNIT)
    _, values = (MELEE_SITUATION if melee else NO_WORDS).read_text(
        words, f"{where}: {unit.name}", names=False)
    return unit, values


def target_kind(kind: Any, target: str, roster: Roster | None, table: type,
                option: str = "target_type") -> Any:
    """The target's row: given (in ``option``), or read off a roster unit's formation."""
    if kind is not None:
        return _convert(table, kind, option)
    if roster is not None:
        unit = engine_unit(roster.unit(target), roster)
        if unit.arm is Arm.ARTILLERY:
            return table("artillery")
        if unit.formation is Formation.SKIRMISH:
            return table("skirmishers")
        if unit.formation is not None:
            return table(unit.formation.value)
    raise InvalidInput(f"Say what {target} is to the shooter with `{option}`.")


def _target_name(value: Any, roster: Roster | None) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InvalidInput("Say which unit is shot at with `target`.")
    if roster is not None:
        return roster.unit(value).name
    name = " ".join(value.split())
    if ":" in name or ";" in name:  # a unit described, as `shooter` is: only its name goes
        raise InvalidInput(f"`target` is the unit's name only, not `{echo(name[:40])}`.",
                           hint="Say what it is with `target_type` (e.g. `column`).")
    if len(name) > MAX_NAME_LENGTH:
        raise InvalidInput(f"A unit name must be 1 to {MAX_NAME_LENGTH} characters.",
                           hint="Shorten the `target`.")
    return name


def _target(given: Any, kind: Any, roster: Roster | None, table: type,
            option: str = "target_type") -> Target:
    """A unit fired at, with its nation when it is a roster unit; ``option`` is the one
    that says what it is (the unit behind the artillery's target has its own)."""
    name = _target_name(given, roster)
    if roster is None:
        return Target(name, target_kind(kind, name, roster, table, option))
    found = roster.unit(name)
    unit = engine_unit(found, roster)
    # Figures not given are not known: never taken as none left.
    return Target(name, target_kind(kind, name, roster, table, option), unit.nation,
                  found.strength, unit.arm)


def prepare_fire(o: Mapping[str, Any], roster: Roster | None) -> Prepared:
    shooter, _ = unit_from(o.get("shooter"), "shooter", roster)
    if isinstance(o.get("target"), str) and name_key(o["target"]) == name_key(shooter.name):
        raise NotAllowed(f"{shooter.name} cannot fire at itself.")  # before what it is to itself
    target = _target(o.get("target"), o.get("target_type"), roster, FireTarget)
    distance = _number(DISTANCE, o.get("distance"))
    return lambda dice: resolve_fire(shooter, target, dice, distance=distance)


def prepare_artillery(o: Mapping[str, Any], roster: Roster | None) -> Prepared:
    battery, _ = unit_from(o.get("battery"), "battery", roster)
    targets = [_target(o.get("target"), o.get("target_type"), roster, ArtilleryTarget)]
    if o.get("behind"):
        targets.append(_target(o["behind"], o.get("behind_type"), roster, ArtilleryTarget,
                               "behind_type"))
    range_ = _convert(Range, o.get("range"), "range") or Range.NORMAL
    level = bool(o.get("level_ground"))
    return lambda dice: resolve_artillery_fire(battery, targets, range_, dice,
                                               level_ground=level)


def _melee_opponent(unit: Unit, roster: Roster) -> str | None:
    """The one unit ``unit`` is locked in melee with on the roster, if one."""
    melee = roster.engaged(unit.name, MELEE)
    facing = melee.facing(unit.name) if melee is not None else ()
    return facing[0] if len(facing) == 1 else None


def _situation(o: Mapping[str, Any], unit: Unit, roster: Roster | None) -> Situation:
    # In a battle the unit's melee names its opponent when the command does not.
    if roster is not None and not o.get("opponent"):
        o = {**o, "opponent": _melee_opponent(unit, roster)}
    opponent = o.get("opponent") or "the enemy"
    if ":" in str(opponent):  # a name, not a unit with its words: nothing reads them
        raise InvalidInput(f"`opponent` is the unit's name only, not `{opponent}`.",
                           hint=f"e.g. `opponent:\"{str(opponent).partition(':')[0].strip()}\"`.")
    infantry = formation = None
    if roster is not None and o.get("opponent"):
        # In a battle the opponent is a roster unit: only infantry may change formation.
        opponent = roster.unit(str(opponent)).name
        opposing = engine_unit(roster.unit(opponent), roster)
        infantry, formation = opposing.is_infantry, opposing.formation
    return Situation(
        charging=bool(o.get("charging")),
        flank_or_rear=bool(o.get("flank_or_rear")),
        charged_by=_convert(Arm, o.get("charged_by"), "charged_by"),
        opponent=str(opponent),
        cannot_form_line=bool(o.get("cannot_form_line")),
        initiated_charge=bool(o.get("initiated_charge", unit.charge_marker)),
        opponent_infantry=infantry,
        opponent_formation=formation,
    )


def _morale(unit: Unit, phase: int, situation: Situation, o: Mapping[str, Any]) -> Prepared:
    return asking(o, lambda dice, answers: resolve_morale(unit, phase, situation, dice, answers))


def prepare_morale(o: Mapping[str, Any], roster: Roster | None) -> Prepared:
    unit, _ = unit_from(o.get("unit"), "unit", roster)
    phase = _number(PHASE, o.get("phase"))
    if phase is None:  # in a battle, only outside a check's phases (`phases.phase_options`)
        raise InvalidInput("Say which phase the check is for.",
                           hint="`phase:` 2, 4, 5, 7, 9, 10 or 12" + (
                               "." if roster is None else
                               ": the battle is in none of those phases now."))
    _check_phase_options(o, phase)
    if phase in (7, 12) and roster is not None:
        _check_melee_loser(unit.name, phase, roster)
    situation = _situation(o, unit, roster)
    if phase in (5, 10) and situation.charged_by is None and roster is not None \
            and o.get("opponent"):
        # The roster knows what charges: a pass places infantry 2" away and brings cavalry
        # on into contact, so the opponent's arm says it when `charged_by` does not.
        arm = engine_unit(roster.unit(situation.opponent), roster).arm
        if arm in (Arm.INFANTRY, Arm.CAVALRY):
            situation = replace(situation, charged_by=arm)
    check_who_tests(unit, phase, situation)  # a unit that does not test is told so first
    if roster is not None and phase in (5, 10) and not o.get("opponent") \
            and _melee_opponent(unit, roster) is None:
        # Standing or not, the check decides a contact (or places the charger 2" away): the
        # roster needs its other side, whether or not `charged_by` says its arm.
        arm = f" charged_by:{o['charged_by']}" if o.get("charged_by") else ""
        raise InvalidInput(f"Name the unit charging {unit.name} with `opponent:`: the "
                           "check decides whether it makes contact.",
                           hint=f"e.g. `/morale le-baton unit:{option_value(unit.name)} "
                                f"phase:{phase}{arm} opponent:Lancers`; `/charge` makes the "
                                "check itself.")
    return _morale(unit, phase, situation, o)


# The phases whose check reads each option: given for another, it would change nothing.
RECALL_PHASE = 13
PHASE_OPTIONS: dict[str, tuple[int, ...]] = {
    "charging": (4, 9), "cannot_form_line": (4, 7, 9, 12), "flank_or_rear": (5, 10),
    "charged_by": (5, 10), "initiated_charge": (7, 12, 13)}


def _check_phase_options(o: Mapping[str, Any], phase: int) -> None:
    for key, phases in PHASE_OPTIONS.items():
        if o.get(key) not in (None, False) and phase not in phases:
            # Phase 13's test is the recall, a command of its own.
            every = [str(p) for p in phases]
            tested = listed([p for p in every if p != str(RECALL_PHASE)], "or")
            recall = ", or roll its recall (`/recall le-baton`)" if RECALL_PHASE in phases \
                else ""
            raise InvalidInput(f"`{key}` counts in phases {listed(every, 'or')}, not in phase "
                               f"{phase}.",
                               hint=f"Drop `{key}`, or test the unit in phase {tested}{recall}.")


def _check_melee_loser(name: str, phase: int, roster: Roster) -> None:
    """Phases 7 and 12 test the unit that lost its melee: in a battle the roster knows which
    one did (its melee's last round)."""
    engagement = roster.engaged(name, MELEE)
    if engagement is None:
        raise NotAllowed(f"{name} is in no melee on the roster: only a unit that lost one "
                         f"tests in phase {phase}.", hint="A melee played outside the battle: "
                         "test with `lookup:true`.")
    if melee_tied(roster, name):
        # "Infantry units that tie continue to fight"; "Cavalry units that tie test for
        # recall in phase 13".
        raise NotAllowed(f"{name} tied its last round with "
                         f"{listed(list(engagement.facing(name)))}: nobody lost it, so nobody "
                         f"tests in phase {phase}.",
                         hint="Infantry that tie fight on in the next melee phase; cavalry "
                              "that tie test for recall in phase 13. A round entered by "
                              "mistake: a GM takes it back with `/gm undo`.")
    found = melee_loser(roster, name)
    if found is None or name_key(found[0]) == name_key(name):
        return  # no round fought here yet: fought at the table, say
    loser, test = found
    raise NotAllowed(f"{name} won its melee with {loser}: only the loser tests morale in "
                     f"phase {phase}.", hint=f"Test {loser}: `/morale le-baton unit:"
                     f"{option_value(loser)} phase:{test or phase}`.")


def prepare_recall(o: Mapping[str, Any], roster: Roster | None) -> Prepared:
    unit, _ = unit_from(o.get("unit"), "unit", roster)
    return _morale(unit, 13, _situation(o, unit, roster), o)


def prepare_charge(o: Mapping[str, Any], roster: Roster | None) -> Prepared:
    charger, _ = unit_from(o.get("charger"), "charger", roster)
    target, _ = unit_from(o.get("target"), "target", roster)
    if roster is not None and charger.is_infantry:
        _check_one_infantry_charge(charger.name, roster.unit(target.name))
    s = ChargeSituation(**{k: bool(o.get(k)) for k in (
        "target_defensive_terrain", "flank_or_rear", "another_infantry_charging",
        "target_already_contacted", "cannot_form_line")})
    if roster is not None and target.is_cavalry and _contacted_by_another(target, charger,
                                                                          roster):
        s = replace(s, target_already_contacted=True)
    return asking(o, lambda dice, answers: resolve_charge(charger, target, s, dice, answers))


def _contacted_by_another(target: Unit, charger: Unit, roster: Roster) -> bool:
    """"Enemy cavalry may only be contacted by one French (British) unit": in a battle,
    cavalry already in melee with another unit is contacted."""
    melee = roster.engaged(target.name, MELEE)
    return melee is not None and any(name_key(other) != name_key(charger.name)
                                     for other in melee.facing(target.name))


def _check_one_infantry_charge(charger: str, target: RosterUnit) -> None:
    """"Multiple infantry units may not charge the same target": in a battle the target
    keeps, for the turn, the infantry unit that charged it (its charge may have stopped
    short)."""
    first = target.attr("charged_by_infantry")
    if first and name_key(str(first)) != name_key(charger):
        raise NotAllowed(f"{first} has charged {target.name} this turn: multiple infantry "
                         "units may not charge the same target.",
                         hint="Cavalry may charge it too; or wait for the next turn. A charge "
                              "entered by mistake: a GM takes it back with `/gm undo`.")


def _side(value: Any, where: str, roster: Roster | None) -> Side:
    unit, values = unit_from(value, where, roster, melee=True)
    if "contacted" in values and not unit.is_cavalry:
        raise InvalidInput(f"{where}: `contacted=` counts the infantry units cavalry passes "
                           f"through, and {unit.name} is not cavalry.",
                           hint="Put `contacted=N` on the cavalry unit.")
    support = None
    if values.get("supported_by"):
        support = _support(unit, str(values["supported_by"]), where, roster)
    return Side(unit, bool(values.get("defensive_terrain")), bool(values.get("fortification")),
                support, values.get("contacted", 1))


def _support(gun: Unit, named: str, where: str, roster: Roster | None) -> Unit:
    """"Artillery: supported by a unit 2" behind or beside it. The supporting unit fights
    instead": a friendly unit of the roster."""
    if gun.arm is not Arm.ARTILLERY:
        raise InvalidInput(f"{where}: `supported_by` names the unit that fights for "
                           f"artillery, and {gun.name} is {gun.arm.value}.",
                           hint="Leave it off, or give it to the battery.")
    if roster is None:
        raise InvalidInput(f"{where}: in a quick lookup, describe the supporting unit itself "
                           "as this side instead.")
    support = engine_unit(roster.unit(named), roster)
    if name_key(support.name) == name_key(gun.name) or support.arm is Arm.ARTILLERY:
        raise InvalidInput(f"{where}: artillery is supported by infantry or cavalry 2\" "
                           f"behind or beside it, not by {support.name}.",
                           hint="Name the unit that fights for the guns, or leave "
                                "`supported_by` off.")
    if support.nation is not gun.nation:
        raise NotAllowed(f"{support.name} is {support.nation.value.capitalize()} and "
                         f"{gun.name} {gun.nation.value.capitalize()}: only a friendly unit "
                         "supports artillery.",
                         hint="Name a unit of the battery's own side, or leave "
                              "`supported_by` off.")
    return support


def prepare_melee(o: Mapping[str, Any], roster: Roster | None) -> Prepared:
    phase = _number(PHASE, o.get("phase"))
    a = _side(o.get("attacker"), "attacker", roster)
    b = _side(o.get("defender"), "defender", roster)
    for unit, other in ((a.unit, b.unit), (b.unit, a.unit)):
        # It makes no contact. Enemy cavalry may still charge it ("may fight if charged");
        # infantry cannot charge cavalry, and a square or fortification moves nowhere.
        charged = unit is b.unit and other.is_cavalry
        if unit.passed_through and not unit.in_melee and not charged:
            # "Cavalry pass through full movement distance": its charge has gone its whole
            # way. "Units with a charge marker in place cannot move until recalled."
            raise NotAllowed(f"{unit.name} passed through a square this turn: that took its "
                             "full movement distance, and with its charge marker in place "
                             "it cannot move until recalled, so it makes no new contact.",
                             hint="It rolls for recall in phase 13 (`/recall`); the next "
                                  "turn (`/battle next`) clears the pass. A pass entered by "
                                  "mistake: a GM takes it back with `/gm undo`.")
    if phase is None and roster is not None:
        # Only outside phases 6 and 11 (`phases.phase_options`): a melee a British charge
        # made is phase 11's, and fought as phase 6's its loser would test in phase 7.
        raise InvalidInput("Say which phase the melee is for.",
                           hint="`phase:` 6 or 11: the battle is in neither now.")
    return lambda dice: resolve_melee(a, b, phase or 6, dice)  # a quick lookup: phase 6


PROCEDURES: dict[str, Callable[[Mapping[str, Any], Roster | None], Prepared]] = {
    "fire": prepare_fire,
    "artillery-fire": prepare_artillery,
    "morale": prepare_morale,
    "recall": prepare_recall,
    "charge": prepare_charge,
    "melee": prepare_melee,
}

REQUEST_KEYS: dict[str, tuple[str, ...]] = {
    "fire": ("shooter", "target", "target_type", "distance"),
    "artillery-fire": ("battery", "target", "target_type", "range", "behind", "behind_type",
                       "level_ground"),
    "morale": ("unit", "phase", "charging", "flank_or_rear", "charged_by", "opponent",
               "cannot_form_line", "initiated_charge"),
    "recall": ("unit", "initiated_charge"),
    "charge": ("charger", "target", "target_defensive_terrain", "flank_or_rear",
               "another_infantry_charging", "target_already_contacted", "cannot_form_line"),
    "melee": ("phase", "attacker", "defender"),
}


def prepare(procedure: str, options: Mapping[str, Any], roster: Roster | None = None,
            battle_settings: Mapping[str, Any] | None = None) -> Prepared:
    return PROCEDURES[procedure](options, roster)
