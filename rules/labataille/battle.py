"""La Bataille in a battle: stacks on the roster, effects on it, firefights that last.

A roster unit is a stack: its increments are its strength, its arm, morale, mêlée, fire and
fire-defence values, formation, order and nationality its attributes, and the general with it
its leader, with his value (the roster general's own; else the stack's ``leader_value``).
A blank result starts a firefight engagement (attackers first); the next assault between
those units is played as a firefight; it ends with any other result or when a side has gone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from rules.core.defaults import read_words
from rules.core.engagements import Engagement, EngagementWords
from rules.core.errors import InvalidInput
from rules.core.fields import Field, FieldSet, json_safe
from rules.core.notation import possessive
from rules.core.records import Effect
from rules.core.registry import UnitWords
from rules.core.roster import (
    GONE,
    Change,
    Phrase,
    Roster,
    RosterUnit,
    disengage,
    engage,
    engagement_changes,
    leave,
    name_key,
    roster_changes,
)
from rules.labataille.effects import (
    CHARGED,
    CHARGING,
    DISORDERED,
    EXHAUSTED,
    REACTED,
    SQUARE,
    TIRED,
    EffectKind,
)
from rules.labataille.fire import SETTING as FIRE_BELOW
from rules.labataille.fire import FireBelowChart
from rules.labataille.inputs import INCREMENTS, ROSTER_FIELDS, SITUATION_FIELDS, build_stack
from rules.labataille.units import ChargeMarker, Fatigue, Formation, Order, Stack, nation_name

FIREFIGHT = "firefight"
# A stack's one attempt against a cavalry charge (or, before it, the cavalry's move): kept as
# an engagement between the cavalry and the stack until the next turn.
REACTIONS = {"charge": "charge", "move": "cavalry move"}


def _attempt_label(engagement: Engagement) -> str:
    """``2nd Foot's attempt against Hussars and Lancers' charge``."""
    chargers, (stack, *_) = engagement.sides
    what = "charge" if engagement.kind == REACTIONS["charge"] else "move"
    return f"{possessive(stack)} attempt against {possessive(' and '.join(chargers))} {what}"


ENGAGEMENT_WORDS = {
    kind: EngagementWords(_attempt_label, f"is recorded (one attempt per {event})",
                          "is cleared", "still holds without {units}",
                          "still holds with {units} back in it", "holds again", icon="📌")
    for event, kind in REACTIONS.items()}
MELEE_SEGMENT = "Mêlée Segment"
# The segments the text names (project default for their order: the Premier turn).
PHASES: tuple[str, ...] = ("Maneuver Segment", "Fire Segment", MELEE_SEGMENT)
# The segments as a remark on one line of a phone names them ("Out of phase: for Mêlée, not
# Maneuver"); `/battle show` gives them whole.
PHASE_NAMES = {phase: phase.removesuffix(" Segment") for phase in PHASES}

# Where players read the rules differently (docs/labataille.md): a battle's settings.
SETTINGS = FieldSet((
    Field(FIRE_BELOW, FireBelowChart,
          "fire at odds below the fire chart's 1:3: `lowest` reads the 1:3 column (default, "
          "as the public La Bataille apps) or `none` (no effect)"),
))


def fire_below(settings: Mapping[str, Any]) -> FireBelowChart:
    """The battle's reading of fire below the chart (its default when not set)."""
    value = settings.get(FIRE_BELOW)
    return FireBelowChart.LOWEST if value is None else \
        SETTINGS.fields[0].convert(value, FIRE_BELOW)


CHANGE_PHRASES: dict[str, Phrase] = {
    # Said as the other rule sets say them (a change read without its rule set, in a rule
    # set's own tests, takes the words the rule sets agree on).
    "arm": Phrase("is now {value}", words=(("other", "neither foot, horse nor guns"),)),
    "nation": Phrase("is now {value}", words=(("french", "French"), ("british", "British"))),
    "morale": Phrase("now has morale {value}", "no longer has a morale"),  # printed morale
    "formation": Phrase("is now in {value}", "no longer has a formation",
                        words=(("skirmish", "skirmish order"),)),
    "light": Phrase("now counts as light troops", "no longer counts as light troops"),
    "state": Phrase("is now {value}", "is in good order"),
    "fatigue": Phrase("is now {value}", "is fresh"),
    "charge": Phrase("now carries {value}", "has its Charge marker removed", words=(
        ("charging", "a Charge marker"),
        ("charged", "an inverted Charge marker (it charged this turn)"))),
}
FATIGUE = {TIRED: Fatigue.TIRED.value, EXHAUSTED: Fatigue.EXHAUSTED.value}
CHARGE_MARKERS = {CHARGING: ChargeMarker.CHARGING.value, CHARGED: ChargeMarker.CHARGED.value,
                  # as logged before the markers read as sentences
                  "charging": ChargeMarker.CHARGING.value, "charged": ChargeMarker.CHARGED.value}


def _number(value: Any) -> Any:
    """A strength as the counters print it: ``12``, not ``12.0`` (a melee strength may be
    halved: ``7.5``)."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


def unit_words(attributes: Mapping[str, Any]) -> UnitWords:
    arm = str(attributes.get("arm", "infantry"))
    described = [f"light {arm}" if attributes.get("light") else arm]
    # The values the procedures read, so that a player can check what the bot will use.
    values = [f"{key} {_number(attributes[key])}"
              for key in ("morale", "melee", "fire", "defence") if key in attributes]
    if "mp" in attributes:
        values.append(f"MP {attributes['mp']}")
    if "leader_value" in attributes:  # a roster general with the stack counts his own
        values.append(f"leader value {attributes['leader_value']}")
    described += values
    if attributes.get("formation"):
        described.append(str(attributes["formation"]))
    if attributes.get("nation"):
        described.append(nation_name(str(attributes["nation"])))
    markers = []
    state = attributes.get("state")
    if state and state != Order.GOOD.value:
        markers.append(str(state))
    if attributes.get("fatigue") and attributes["fatigue"] != Fatigue.FRESH.value:
        markers.append(str(attributes["fatigue"]))
    marker = attributes.get("charge")
    if marker == ChargeMarker.CHARGING.value:
        markers.append("Charge marker")
    elif marker == ChargeMarker.CHARGED.value:
        markers.append("inverted Charge marker")
    return UnitWords(tuple(described), tuple(markers), tuple(values))


def read_roster_attributes(text: str, where: str, *, require_arm: bool) -> dict[str, Any]:
    values = read_words(ROSTER_FIELDS, text, where, "infantry morale=34", "stack",
                        fights=((SITUATION_FIELDS, 'attackers:"1/45e Ligne: distance=2"` or '
                                                   '`defenders:"52nd Foot: canister"'),))
    if require_arm:
        _require_morale(values, where)
    return json_safe(values)


def _require_morale(values: Mapping[str, Any], where: str) -> None:
    if "morale" not in values:
        raise InvalidInput(f"{where}: give the stack's morale (`morale=34`).",
                           hint="e.g. `infantry morale=34 melee=12 fire=6 defence=9`.")


def check_unit(name: str, attributes: Mapping[str, Any], strength: int | None,
               where: str) -> dict[str, Any]:
    """A roster stack as a quick lookup's stack is checked: its morale a d66 value, its
    increments (the strength) within the lookup's range, by the lookup's own checks."""
    values = ROSTER_FIELDS.read_json(dict(attributes), where)
    _require_morale(values, where)
    stack = dict(values)
    if strength is not None:
        stack["increments"] = INCREMENTS.convert(strength, where)
    build_stack(name, stack, where)
    return json_safe(values)


def check_edit(before: Mapping[str, Any], after: Mapping[str, Any]) -> str | None:
    """"The charging units are then marked with an inverted Charge Marker to indicate that
    they charged this turn": a new turn takes it off (``new_turn``), not a player's edit,
    which would let the cavalry charge twice in a turn."""
    if before.get("charge") == ChargeMarker.CHARGED and \
            after.get("charge") != ChargeMarker.CHARGED:
        return ("it charged this turn: its inverted Charge marker stays until the new turn "
                "takes it off.")
    return None


def engine_stack(unit: RosterUnit, roster: Roster, situation: Mapping[str, Any]) -> Stack:
    attrs = ROSTER_FIELDS.read_json(dict(unit.attributes), unit.name)
    values: dict[str, Any] = {**attrs, **situation}
    if unit.strength is not None:
        values["increments"] = max(1, unit.strength)
    general = roster.general_with(unit.name)
    if general is not None:
        values["leader"] = general.name
        if general.value is not None:  # his own value wins over the stack's `leader_value`
            values["leader_value"] = general.value
    return replace(build_stack(unit.name, values, unit.name), side=unit.side)


def firefight_of(roster: Roster, name: str):
    return roster.engaged(name, FIREFIGHT)


def new_turn(roster: Roster) -> tuple[Roster, list[Change]]:
    """The inverted Charge markers say "charged this turn": a new turn takes them off, and
    the attempts made against this turn's charges."""
    units = tuple(replace(u, attributes={k: v for k, v in u.attributes.items()
                                         if k != "charge"})
                  if u.attributes.get("charge") == ChargeMarker.CHARGED.value else u
                  for u in roster.units)
    after = replace(roster, units=units, engagements=tuple(
        e for e in roster.engagements if e.kind not in REACTIONS.values()))
    return after, (roster_changes(roster, after)
                   + engagement_changes(roster, after, ENGAGEMENT_WORDS))


def attempts_against(roster: Roster, stack: str, chargers: Sequence[str], event: str
                     ) -> Engagement | None:
    """The attempt ``stack`` already made against this charge (or move), if any: a Grand
    Charge is one charge, so any of its stacks names it."""
    return next((e for e in roster.engagements if e.kind == REACTIONS[event]
                 and any(name_key(stack) == name_key(n) for n in e.sides[1])
                 and any(name_key(c) == name_key(n) for c in chargers for n in e.sides[0])),
                None)


def reminders(roster: Roster, phase: str | None) -> list[str]:
    """At the Mêlée Segment (and a new turn): the firefights to fight again and the charges
    to resolve; at a new turn, the cavalry still Tired or Exhausted."""
    if phase not in (None, MELEE_SEGMENT, PHASES[0]):
        return []
    lines = [f"{e.label}: fight it again this Mêlée Segment (`/assault labataille`), on the "
             "Firefight column" for e in roster.engagements if e.kind == FIREFIGHT]
    active = [u for u in roster.units if not u.gone]
    charging = [u.name for u in active if u.attributes.get("charge") == "charging"]
    if charging:
        lines.append(f"Charge markers on {', '.join(charging)}: resolve each charge's mêlée "
                     "(`/cavalry labataille`), or take the marker off (`/gm set`)")
    if phase != MELEE_SEGMENT:
        # A routed stack forms no square that holds anything: not reminded.
        squares = [u.name for u in active
                   if u.attributes.get("formation") == Formation.SQUARE.value
                   and u.attributes.get("state") != Order.ROUTED.value]
        if squares:
            lines.append(f"In Square: {', '.join(squares)}: it stays so until it changes "
                         "formation (`/unit edit unit:… words:formation=line`)")
        # Both markers in one line: the advice is the same, said once.
        worn = [f"{fatigue.value.capitalize()}: {', '.join(names)}"
                for fatigue in (Fatigue.TIRED, Fatigue.EXHAUSTED)
                if (names := [u.name for u in active
                              if u.attributes.get("fatigue") == fatigue.value])]
        if worn:
            lines.append(f"{'; '.join(worn)}: clear the marker"
                         f"{'s' if len(worn) > 1 else ''} when your rules let them recover "
                         "(`/unit edit unit:… words:fatigue=fresh`)")
    return lines


def apply_effects(effects: Sequence[Effect], roster: Roster) -> tuple[Roster, list[Change]]:
    after = roster
    attackers = [e.unit for e in effects if e.kind == EffectKind.FIREFIGHT
                 and e.detail == "attacker"]
    defenders = [e.unit for e in effects if e.kind == EffectKind.FIREFIGHT
                 and e.detail == "defender"]
    for effect in effects:
        after = _effect(after, effect)
    if attackers and defenders:
        for name in (*attackers, *defenders):  # roles may have switched: one fresh record
            after, _ = disengage(after, _roster_name(after, name), FIREFIGHT)
        after = engage(after, FIREFIGHT, [_roster_name(after, n) for n in attackers],
                       [_roster_name(after, n) for n in defenders])
    changes = roster_changes(roster, after)
    return after, changes + engagement_changes(roster, after, ENGAGEMENT_WORDS)


def _roster_name(roster: Roster, name: str) -> str:
    return next((u.name for u in roster.units if name_key(u.name) == name_key(name)), name)


def _effect(roster: Roster, effect: Effect) -> Roster:
    key = name_key(effect.unit)
    if not any(name_key(u.name) == key for u in roster.units):
        return roster
    if effect.kind == REACTED:
        chargers = [_roster_name(roster, n) for n in str(effect.value).split("; ")]
        return engage(roster, REACTIONS[effect.detail], chargers,
                      [_roster_name(roster, effect.unit)])
    if effect.kind == EffectKind.ENGAGEMENT_ENDED:
        roster, _ = disengage(roster, _roster_name(roster, effect.unit), FIREFIGHT)
    elif effect.kind in (EffectKind.ROUTED, EffectKind.SURRENDERED, EffectKind.DESTROYED):
        # Driven off (a charge, a rout): the stack leaves its firefight; the others stay
        # locked in it until a side has nobody left.
        roster = leave(roster, _roster_name(roster, effect.unit), FIREFIGHT)
    units = tuple(_unit_effect(u, effect) if name_key(u.name) == key else u
                  for u in roster.units)
    return replace(roster, units=units)


def _unit_effect(unit: RosterUnit, effect: Effect) -> RosterUnit:
    match effect.kind:
        case EffectKind.DAMAGE:
            if unit.strength is None:
                return unit
            # The engine reads the roster's increments, so a loss of the last one comes
            # with its DESTROYED effect (``assault.lose``, ``assault.rout``).
            return replace(unit, strength=max(0, unit.strength - (effect.amount or 0)))
        case EffectKind.MARKER_SET if effect.value == DISORDERED:
            return unit.with_attr("state", Order.DISORDERED.value)
        case EffectKind.MARKER_SET if effect.value in (SQUARE, Formation.SQUARE.value):
            return unit.with_attr("formation", Formation.SQUARE.value)
        case EffectKind.MARKER_SET if effect.value in FATIGUE:
            return unit.with_attr("fatigue", FATIGUE[str(effect.value)])
        case EffectKind.MARKER_SET if effect.value in CHARGE_MARKERS:
            return unit.with_attr("charge", CHARGE_MARKERS[str(effect.value)])
        case EffectKind.FORMATION:
            return unit.with_attr("formation", str(effect.value))
        case EffectKind.ROUTED:
            # PGD: a routed stack stays on the map (it may be charged, and rally).
            return unit.with_attr("state", Order.ROUTED.value)
        case EffectKind.SURRENDERED:
            return replace(unit, status=GONE, gone_reason="surrendered")
        case EffectKind.DESTROYED:
            return replace(unit, strength=0, status=GONE, gone_reason="destroyed")
        case _:
            return unit  # moves are the table's: the reply says them, the bot keeps no map
