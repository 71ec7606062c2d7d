"""Tricorne's melee, as options in and a ready-to-roll melee out: a slash command's options
and a JSON request (``huzzah resolve``) are read here alike.

A quick lookup describes every unit (``Black Watch: highland blocks=3 leader=Murray``, or a
JSON object with its ``name``). In a battle, units are roster names: blocks, type, terrain,
the moved flag and the general with a unit (its attached leader) come from the roster, and a
general with no unit is a lone leader that may be attacked. The words after a name add only
this melee's situation.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from rules.core.defaults import asking, dispatcher
from rules.core.errors import InvalidInput
from rules.core.fields import split_units
from rules.core.notation import (
    possessive,
    refuse_roster_word,
    roster_entry,
    split_name,
    unquoted,
)
from rules.core.records import Resolution
from rules.core.roster import ACTIVE, Roster, name_key
from rules.tricorne.battle import engine_unit, lone_leader
from rules.tricorne.inputs import (
    SITUATION_FIELDS,
    TYPED_BONUS_TARGET,
    UNIT,
    UNITS,
)
from rules.tricorne.melee import MAX_BONUS_TARGETS, Melee, TypedTarget, resolve_melee
from rules.tricorne.settings import settings_from
from rules.tricorne.units import Unit

Prepared = Callable[..., Resolution]


def prepare_melee(options: Mapping[str, Any], roster: Roster | None,
                  battle_settings: Mapping[str, Any]) -> Prepared:
    settings = settings_from(battle_settings)
    card = options.get("card") or False
    if not isinstance(card, bool):
        raise InvalidInput("`card` is true or false (an Ambush or First Strike card's melee).")
    if roster is None:
        attacker = UNITS.one(options.get("attacker"), "attacker", "Attacker")
        defender = UNITS.one(options.get("defender"), "defender", "Defender")
        bonus = UNITS.several(options["bonus"], "bonus", "Target", MAX_BONUS_TARGETS
                              ) if options.get("bonus") else []
        typed = TYPED_BONUS_TARGET
    else:
        attacker = roster_unit(options["attacker"], "attacker", roster)
        defender = roster_unit(options["defender"], "defender", roster)
        named = [roster_unit(part, "bonus", roster)
                 for part in split_units(options["bonus"], "bonus", MAX_BONUS_TARGETS)
                 ] if options.get("bonus") else []
        if name_key(attacker.name) == name_key(defender.name):  # not "on its own side"
            raise InvalidInput("A unit cannot melee itself.", hint="Name an adjacent enemy unit.")
        check_sides(attacker, [defender, *named])
        bonus = named or enemies(roster, defender)
        typed = typed_roster_target(attacker, roster)
    melee = Melee(attacker, defender, card, tuple(bonus), typed)
    return asking(options, lambda dice, answers: resolve_melee(melee, dice, answers, settings))


def roster_unit(text: str, where: str, roster: Roster) -> Unit:
    """``Black Watch: moved cards=1``: a roster unit and this melee's words; or the name
    of a general alone in a hex."""
    name, words = split_name(text)
    if name is None:
        name, words = unquoted(text), ""
    leader = _lone_leader(name, roster)
    if leader is not None:
        if words.strip():
            raise InvalidInput(f"{where}: {leader.name} is a lone leader; nothing more goes "
                               "with its name.")
        return lone_leader(leader)
    unit, words = roster_entry(text, roster, where, several=where == "bonus")
    for word in words.split():
        # A quick lookup's words too (`leader=`, `blocks=`): the roster says those, and the
        # refusal says where (a general put with the unit, its strength).
        refuse_roster_word(word, unit.name, where, UNIT, SITUATION_FIELDS)
    _, situation = SITUATION_FIELDS.read_text(words, f"{where}: {unit.name}", names=False)
    return _onto_roster_leader(engine_unit(unit, roster, situation), roster, where)


def _onto_roster_leader(unit: Unit, roster: Roster, where: str) -> Unit:
    """In a battle, the leader a unit would retire onto is a general of the roster: of the
    unit's side, active, and alone in his hex ("a lone friendly leader")."""
    if not unit.retire_onto:
        return unit
    general = roster.general(unit.retire_onto)
    fix = "`retire_onto=` names a general of its own side alone in a hex one hex back."
    if general.status != ACTIVE:
        raise InvalidInput(f"{where}: {unit.name} cannot retire onto {general.name}, who is "
                           f"{general.status}.", hint=fix)
    if name_key(general.side) != name_key(unit.side):
        raise InvalidInput(f"{where}: {general.name} is on the {general.side} side, not "
                           f"{possessive(unit.name)}.", hint=fix)
    if general.unit is not None:
        raise InvalidInput(f"{where}: {general.name} is with {general.unit}, not alone in a "
                           "hex.", hint=fix)
    return replace(unit, retire_onto=general.name)


def _lone_leader(name: str, roster: Roster):
    key = name_key(name)
    if any(name_key(u.name) == key for u in roster.units):
        return None
    return next((g for g in roster.generals if name_key(g.name) == key
                 and g.unit is None and g.status == ACTIVE), None)


def enemies(roster: Roster, defender: Unit) -> list[Unit]:
    """A bonus melee's targets when the player names none: the defender's side, the
    defender first, then its other units and lone leaders (the player picks the adjacent
    one when asked)."""
    side = name_key(defender.side)
    units = [engine_unit(u, roster, {}) for u in roster.units
             if name_key(u.side) == side and not u.gone and (u.strength is None or u.strength)]
    leaders = [lone_leader(g) for g in roster.generals
               if name_key(g.side) == side and g.unit is None and g.status == ACTIVE]
    ordered = sorted((*units, *leaders), key=lambda u: u.name != defender.name)
    return ordered[:MAX_BONUS_TARGETS]


def typed_roster_target(attacker: Unit, roster: Roster) -> TypedTarget:
    """In a battle, a bonus melee's target typed as the answer is an enemy roster unit or
    lone leader, by name."""
    def read(text: str) -> Unit:
        target = roster_unit(text, "bonus melee target", roster)
        check_sides(attacker, [target])
        return target

    return TypedTarget(read, "the name of the enemy unit it attacks")


def check_sides(attacker: Unit, others: list[Unit]) -> None:
    same = [u.name for u in others if name_key(u.side) == name_key(attacker.side)]
    if same:
        raise InvalidInput(f"{', '.join(same)} {'is' if len(same) == 1 else 'are'} on "
                           f"{possessive(attacker.name)} side ({attacker.side}).",
                           hint="Melee an enemy unit.")


PROCEDURES = {"melee": prepare_melee}


prepare = dispatcher(PROCEDURES)
