"""Le Baton in a battle: roster fields, roster units as engine units, effects on the roster,
the thirteen phases and the reminders that carry melees and recalls over turns."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from rules.core.defaults import read_words
from rules.core.engagements import Engagement
from rules.core.errors import InvalidInput
from rules.core.fields import Field, FieldSet, json_safe
from rules.core.names import name_key
from rules.core.notation import option_value
from rules.core.records import Effect
from rules.core.registry import UnitWords
from rules.core.roster import (
    GONE,
    Change,
    Roster,
    RosterUnit,
    disengage,
    engage,
    engagement_changes,
    roster_changes,
)
from rules.le_baton.effects import EffectKind
from rules.le_baton.inputs import (
    FIGURES,
    MELEE_SITUATION,
    ROSTER_FIELDS,
    UNIT,
    build_unit,
    implied_arm,
)
from rules.le_baton.units import Arm, Formation, Horse, Nation, Quality, Unit

PHASES: tuple[str, ...] = (
    "1. artillery fire",
    "2. morale for artillery casualties",
    "3. French move, British shoot",
    "4. French morale and closing",
    "5. British infantry stand",
    "6. melees",
    "7. morale for losing melees",
    "8. British move, French shoot",
    "9. British morale and closing",
    "10. French infantry stand",
    "11. melees",
    "12. morale for losing melees",
    "13. cavalry recall",
)

# Markers the battle keeps on a unit, besides its description, read by their own types.
MARKERS = ("casualties", "halted", "held", "charge_marker", "recall_due", "fought",
           "recall_failed", "charged_by_infantry", "fired", "bombarded", "charge_failed",
           "tested", "passed_through")
MARKER_FIELDS = FieldSet((
    *(f for f in UNIT.fields if f.name in MARKERS),
    Field("fought", bool, "it has fought a round of its current melee"),
    Field("recall_failed", bool, "it failed its recall this turn: it rolls again in phase 13 "
          "next turn"),
    Field("charged_by_infantry", str, "the infantry unit that charged it this turn"),
    Field("fired", bool, "it has shot in its side's fire phase this turn"),
    Field("bombarded", bool, "the battery has fired in phase 1 this turn"),
    Field("tested", str, "the phases it has tested morale in this turn, e.g. `2 4`"),
    Field("charge_failed", bool, "British infantry that did not roll its 6 to charge this "
          "turn"),
    Field("passed_through", bool, "cavalry that passed through a square this turn: its full "
          "move is spent"),
))
# The markers a GM sets (`/gm set`): whether a unit has fought a round of its melee, or
# failed its recall this turn, or which infantry unit charged it this turn, is the rules' own
# bookkeeping: `/gm undo` takes back the move that set it, and the next turn clears it.
BOOKKEEPING = ("fought", "recall_failed", "charged_by_infantry", "fired", "bombarded",
               "charge_failed", "tested", "passed_through")
GM_MARKERS = FieldSet(tuple(f for f in MARKER_FIELDS.fields if f.name not in BOOKKEEPING))
# Markers of cavalry alone: a charge's start, a failed recall, a recall due.
CAVALRY_MARKERS = ("held", "charge_marker", "recall_due", "recall_failed")
# Melees that continue and firefights are engagements of the battle (rules.core.engagements).
MELEE, FIREFIGHT = "melee", "firefight"


# Markers shown by name on a roster line, in this order.
SHOWN_MARKERS = ("halted", "held", "charge_marker", "recall_due")
# The turn's bookkeeping, shown on the roster in words, so that a player sees why a second
# volley or a second roll of 6 is refused.
SHOWN_THIS_TURN = {"bombarded": "has fired in phase 1 this turn",
                   "fired": "has fired this turn", "charge_failed": "failed its 6 this turn",
                   "passed_through": "passed through a square this turn"}


def tested_phases(stored: Any) -> tuple[int, ...]:
    """The phases a unit has tested its morale in this turn, as the roster keeps them
    (``"2 4"``)."""
    return tuple(int(p) for p in str(stored or "").split() if p.isdigit())


def unit_words(attributes: Mapping[str, Any]) -> UnitWords:
    """``infantry, elite, column`` · ``charge marker, 3 casualties``; a cavalry type and a
    weight of shot too (``cavalry, cuirassiers``, ``artillery, 9 lb``): they change the
    dice."""
    described = [str(attributes[key]).replace("-", " ")
                 for key in ("arm", "horse", "quality", "formation") if attributes.get(key)]
    if attributes.get("guns"):
        described.append(f"{attributes['guns']} lb")
    markers = [m.replace("_", " ") for m in SHOWN_MARKERS if attributes.get(m)]
    markers += [said for m, said in SHOWN_THIS_TURN.items() if attributes.get(m)]
    if attributes.get("casualties"):
        count = attributes["casualties"]
        markers.append(f"{count} {'casualty' if count == 1 else 'casualties'}")
    return UnitWords(tuple(described), tuple(markers))


def read_roster_attributes(text: str, where: str, *, require_arm: bool) -> dict[str, Any]:
    values = read_words(ROSTER_FIELDS, text, where, "british inf veteran line", fights=(
        (MELEE_SITUATION, 'defender:"Fraser\'s Highlanders: defensive-terrain"'),))
    if require_arm:  # a new unit; an edit's words are merged into one that has its arm
        values = implied_arm(values)
        # Its nation may come from its side's name (``side_words``): ``check_unit`` asks.
        _require(values, where, ("arm",))
    # What each arm may have is checked with the rest of the unit (``check_unit``).
    return json_safe(values)


def _require(values: Mapping[str, Any], where: str,
             words: tuple[str, ...] = ("nation", "arm")) -> None:
    for needed in words:
        if needed not in values:
            raise InvalidInput(f"{where}: say the unit's {needed}.",
                               hint="e.g. `british inf veteran line`, and its strength "
                                    "as `figures=12`.")


def _stored_words(values: Mapping[str, Any], where: str) -> dict[str, Any]:
    """The description and the markers, each read by its own type."""
    values = dict(values)
    markers = {k: values.pop(k) for k in MARKERS if k in values}
    return {**json_safe(ROSTER_FIELDS.read_json(values, where)),
            **MARKER_FIELDS.read_json(markers, where)}


def check_unit(name: str, attributes: Mapping[str, Any], strength: int | None,
               where: str) -> dict[str, Any]:
    """A roster unit as a quick lookup's unit is checked: its nation and arm, what each arm
    may have, its figures (the strength) within the lookup's range, by the lookup's own
    checks."""
    checked = _stored_words(attributes, where)
    _require(checked, where)
    unit = dict(checked)
    if strength is not None:
        unit["figures"] = FIGURES.convert(strength, where)
    built = build_unit(name, unit, where)
    marked = [m for m in CAVALRY_MARKERS if checked.get(m)]
    if marked and not built.is_cavalry:
        raise InvalidInput(f"{where}: only cavalry has `{marked[0]}`, and {name} is "
                           f"{built.arm.value}.", hint="Leave it off infantry and artillery.")
    return checked


def _nation_named(side: str) -> Nation | None:
    """The nation a side is named for (French, British), if it is."""
    return next((n for n in Nation if name_key(side) == n.value), None)


def side_words(side: str) -> dict[str, Any]:
    """A unit added to a side named for a nation is of that nation, unless its words say
    otherwise (``check_side`` refuses them then)."""
    named = _nation_named(side)
    return {"nation": named.value} if named is not None else {}


def check_side(side: str, attributes: Mapping[str, Any]) -> None:
    """A unit on a side named for a nation is of that nation: the sheet's phases go by it
    (a French unit on the British side would shoot and test in the French phases)."""
    named = _nation_named(side)
    nation = attributes.get("nation")
    if named is not None and nation is not None and nation != named.value:
        shown = str(nation).capitalize()
        raise InvalidInput(f"A {shown} unit cannot be on the {side} side: it fires, moves and "
                           f"tests in the {shown} phases.",
                           hint=f"Put it on the {shown} side, or give it `{named.value}` in its "
                                "words.")


def engine_unit(unit: RosterUnit, roster: Roster) -> Unit:
    a = unit.attributes
    return Unit(
        name=unit.name,
        nation=Nation(a.get("nation", Nation.FRENCH.value)),
        arm=Arm(a.get("arm", Arm.INFANTRY.value)),
        quality=Quality(a.get("quality", Quality.VETERAN.value)),
        figures=unit.strength or 0,
        casualties=a.get("casualties", 0),
        formation=Formation(a["formation"]) if a.get("formation") else None,
        horse=Horse(a["horse"]) if a.get("horse") else None,
        guns=a.get("guns"),
        general=roster.general_with(unit.name) is not None,
        in_melee=(melee := roster.engaged(unit.name, MELEE)) is not None,
        melee_new=melee is not None and not melee.state.get("fought"),
        firefight=roster.engaged(unit.name, FIREFIGHT) is not None,
        halted=bool(a.get("halted")),
        held=bool(a.get("held")),
        charge_marker=bool(a.get("charge_marker")),
        recall_due=bool(a.get("recall_due")),
        fought=bool(a.get("fought")),
        recall_failed=bool(a.get("recall_failed")),
        fired=bool(a.get("fired")),
        bombarded=bool(a.get("bombarded")),
        tested=tested_phases(a.get("tested")),
        charge_failed=bool(a.get("charge_failed")),
        passed_through=bool(a.get("passed_through")),
    )


def apply_effects(effects: Sequence[Effect], roster: Roster) -> tuple[Roster, list[Change]]:
    after = roster
    for effect in effects:
        if find_unit(after, effect.unit) is not None:
            after = _effect(after, effect)
    hit = {name_key(e.unit) for e in effects if e.kind == EffectKind.CASUALTIES}
    for unit in after.units:
        if unit.strength == 0 and not unit.gone and name_key(unit.name) in hit:
            # Its last figure lost: nothing is left to fight, test or be fought
            # (docs/le-baton.md, where the sheet is silent).
            after = _effect(after, Effect(EffectKind.DESTROYED, unit.name))
    changes = roster_changes(roster, after)
    return after, changes + engagement_changes(roster, after)


def _effect(roster: Roster, effect: Effect) -> Roster:
    name = effect.unit
    match effect.kind:
        case EffectKind.IN_MELEE | EffectKind.FIREFIGHT if (
                effect.value and _both_here(roster, name, effect.value)):
            # The roster's spelling of both names, whatever the effect said.
            kind = MELEE if effect.kind == EffectKind.IN_MELEE else FIREFIGHT
            # A new round of a melee: who lost the last one no longer counts.
            roster = _melee_state(roster, name, lost=None) if kind == MELEE else roster
            return engage(roster, kind, [find_unit(roster, name).name],
                          [find_unit(roster, effect.value).name])
        case EffectKind.MELEE_LOST:
            return _melee_state(roster, name, lost=find_unit(roster, name).name,
                                test=effect.value)
        case EffectKind.MELEE_TIED:
            return _melee_state(roster, name, lost=None, tied=True)
        case EffectKind.MELEE_ENDS:
            return _release(roster, name, MELEE)
        case EffectKind.ROUTED | EffectKind.REMOVED | EffectKind.DESTROYED:
            # Nobody stays locked in melee or firefight with a unit that has gone.
            return _release(_with_unit(roster, name, effect), name, None)
        case _:
            return _with_unit(roster, name, effect)


def _both_here(roster: Roster, name: str, other: str) -> bool:
    """Both units on the roster and still in the battle: nobody is locked in a fight with a
    unit that has gone (one destroyed earlier in the same move, say)."""
    found = [find_unit(roster, name), find_unit(roster, other)]
    return all(unit is not None and not unit.gone for unit in found)


def _melee_state(roster: Roster, name: str, *, lost: str | None, test: Any = None,
                 tied: bool = False) -> Roster:
    """The melee ``name`` is in with its last round's loser (None: nobody lost it) and the
    phase the loser tests in, or that its last round was a tie."""
    state = {"lost": lost, "test": test} if lost is not None else {"tied": True} if tied else {}
    if state:  # a round of it fought: from now on the melee continues
        state["fought"] = True
    engagements = tuple(
        replace(e, state={**{k: v for k, v in e.state.items()
                             if k not in ("lost", "test", "tied")}, **state})
        if e.kind == MELEE and e.involves(name) else e for e in roster.engagements)
    return replace(roster, engagements=engagements)


def melee_tied(roster: Roster, name: str) -> bool:
    """Whether the last round of the melee ``name`` is in was a tie."""
    engagement = roster.engaged(name, MELEE)
    return engagement is not None and bool(engagement.state.get("tied"))


def melee_loser(roster: Roster, name: str) -> tuple[str, int] | None:
    """The last round of the melee ``name`` is in, when someone lost it: the loser and the
    phase the loser tests in."""
    engagement = roster.engaged(name, MELEE)
    if engagement is None or not engagement.state.get("lost"):
        return None
    return str(engagement.state["lost"]), int(engagement.state.get("test") or 0)


def _losers_to_test(roster: Roster, phase: int) -> list[str]:
    """Phase 7 or 12: each melee's loser that has yet to test ("Check Morale for Losing
    Melees"), once, with whom it lost to (a unit in two melees is marked in both)."""
    winners: dict[str, list[str]] = {}
    for engagement in roster.engagements:
        lost, test = engagement.state.get("lost"), engagement.state.get("test")
        due = engagement.kind == MELEE and lost and int(test or 0) == phase
        loser = find_unit(roster, str(lost)) if due else None
        if loser is None or loser.gone or phase in tested_phases(loser.attr("tested")):
            continue
        others = winners.setdefault(loser.name, [])
        others += [n for side in engagement.sides for n in side
                   if name_key(n) != name_key(loser.name) and n not in others]
    return [f"{name} lost its melee with {' and '.join(others)}: it tests morale now "
            f"(`/morale le-baton unit:{option_value(name)} phase:{phase}`)."
            for name, others in winners.items()]


def _with_unit(roster: Roster, name: str, effect: Effect) -> Roster:
    units = tuple(_unit_effect(u, effect) if name_key(u.name) == name_key(name) else u
                  for u in roster.units)
    return replace(roster, units=units)


def _unit_effect(unit: RosterUnit, effect: Effect) -> RosterUnit:
    match effect.kind:
        case EffectKind.CASUALTIES:
            # No more casualties than figures: a unit cannot lose what it no longer has.
            lost = effect.amount or 0 if unit.strength is None else \
                min(effect.amount or 0, unit.strength)
            strength = None if unit.strength is None else unit.strength - lost
            unit = replace(unit, strength=strength)
            return unit.with_attr("casualties", unit.attr("casualties", 0) + lost)
        case EffectKind.ROUTED:
            return replace(unit, status=GONE, gone_reason="routed")
        case EffectKind.REMOVED | EffectKind.DESTROYED:
            return replace(unit, status=GONE, gone_reason="destroyed")
        case EffectKind.HALTED:
            return unit.with_attr("halted", True)
        case EffectKind.HELD:  # held, it rolls again in phase 13 next turn
            return (unit.with_attr("held", True).with_attr("recall_due", False)
                    .with_attr("recall_failed", True))
        case EffectKind.CHARGE_MARKER:
            return unit.with_attr("charge_marker", True)
        case EffectKind.RECALL_DUE:
            return unit.with_attr("recall_due", True)
        case EffectKind.RECALLED:
            return (unit.with_attr("charge_marker", False).with_attr("held", False)
                    .with_attr("recall_due", False).with_attr("recall_failed", False))
        case EffectKind.FOUGHT:
            return unit.with_attr("fought", True)
        case (EffectKind.FIRED | EffectKind.BOMBARDED | EffectKind.CHARGE_FAILED
              | EffectKind.PASSED_THROUGH):
            return unit.with_attr(str(effect.kind), True)
        case EffectKind.INFANTRY_CHARGED:
            return unit.with_attr("charged_by_infantry", str(effect.value))
        case EffectKind.TESTED:
            phases = sorted({*tested_phases(unit.attr("tested")), effect.amount or 0})
            return unit.with_attr("tested", " ".join(map(str, phases)))
        case EffectKind.FORMATION:
            return unit.with_attr("formation", effect.value)
        case _:
            return unit  # movement on the table: the reply says it, the bot keeps no map


def _release(roster: Roster, name: str, kind: str | None) -> Roster:
    """End ``name``'s engagements (of ``kind``); units out of a melee have not fought in
    the next one yet (the lancers' first-combat edge)."""
    melees = {name_key(u) for e in roster.engagements if e.kind == MELEE and e.involves(name)
              and kind in (None, MELEE) for side in e.sides for u in side}
    after, _ = disengage(roster, name, kind)
    units = tuple(u.with_attr("fought", None)
                  if name_key(u.name) in melees and u.attr("fought") else u
                  for u in after.units)
    return replace(after, units=units)


def find_unit(roster: Roster, name: str) -> RosterUnit | None:
    return next((u for u in roster.units if name_key(u.name) == name_key(name)), None)


def new_turn(roster: Roster) -> tuple[Roster, list[Change]]:
    """A halt, a failed recall, an infantry charge on a target and a melee's loss to test
    each count for their turn (the recall is rolled again next turn)."""
    units = tuple(map(_next_turn, roster.units))
    # A melee's loser tests in phase 7 or 12 of the turn it lost (the melee goes on): a loss
    # left untested is no test due next turn, nor a reason to refuse the winner one.
    # A melee carried into a new turn continues, whether or not its round was entered.
    engagements = tuple(
        replace(e, state={**{k: v for k, v in e.state.items() if k not in ("lost", "test")},
                          "fought": True})
        if e.kind == MELEE else e for e in roster.engagements)
    after = replace(roster, units=units, engagements=engagements)
    # A unit out of the battle loses its turn's markers too, and nobody is told.
    gone = {name_key(u.name) for u in roster.units if u.gone}
    return after, [c for c in roster_changes(roster, after) if name_key(c.who) not in gone]


def _next_turn(unit: RosterUnit) -> RosterUnit:
    # Out of the battle or not: a unit the GM brings back is not held to last turn's markers.
    for marker in ("halted", "recall_failed", "fired", "bombarded", "charge_failed",
                   "passed_through"):
        if unit.attr(marker):
            unit = unit.with_attr(marker, False)
    for marker in ("charged_by_infantry", "tested"):
        if unit.attr(marker):
            unit = unit.with_attr(marker, None)
    return unit


def tied_awaiting_recall(roster: Roster, engagement: Engagement) -> bool:
    """A melee whose last round the cavalry tied, before their recall (phase 13 clears
    ``recall_due``, whether the recall passes or fails)."""
    units = [find_unit(roster, name) for side in engagement.sides for name in side]
    return bool(engagement.state.get("tied")) and any(
        unit is not None and unit.attr("recall_due") for unit in units)


def reminders(roster: Roster, phase: str | None) -> list[str]:
    """What the coming phase must not forget: melees that go on, cavalry to recall."""
    active = [u for u in roster.units if not u.gone]
    lines: list[str] = []
    if phase in (PHASES[0], PHASES[5], PHASES[10]):
        for engagement in roster.engagements:
            if engagement.kind == MELEE:
                first, other = engagement.sides
                both = f"{' and '.join(first)} and {' and '.join(other)}"
                if phase == PHASES[10] and tied_awaiting_recall(roster, engagement):
                    # "Cavalry units that tie test for recall in phase 13": no round first.
                    lines.append(f"{both} tied their melee: they do not fight in phase 11, "
                                 "and test recall in phase 13.")
                elif engagement.state.get("fought"):
                    lines.append(f"Melee continues: {both}.")
                else:  # contact made this turn (a charge): its first round is still to come
                    lines.append(f"First round of melee: {both}.")
    if phase in (PHASES[6], PHASES[11]):
        lines += _losers_to_test(roster, PHASES.index(phase) + 1)
    if phase in (PHASES[0], PHASES[12]):
        for unit in active:
            if unit.attr("recall_failed") and phase == PHASES[12]:
                continue  # failed this very turn: it rolls again next turn
            if unit.attr("held"):
                lines.append(f"{unit.name} is held (failed recall): it cannot move, and must "
                             "test recall in phase 13.")
            elif unit.attr("charge_marker"):
                # Phase 13: "cannot move until recalled", which phases 3 and 8 must heed.
                lines.append(f"{unit.name} has a charge marker in place: it cannot move until "
                             "recalled, and must test recall in phase 13.")
            elif unit.attr("recall_due"):
                lines.append(f"{unit.name} tied its melee: it must test recall in phase 13.")
    return lines
