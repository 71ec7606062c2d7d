"""La Bataille's procedures, as options in and a ready-to-roll procedure out: a slash
command's options and a JSON request (``huzzah resolve``) are read here alike.

A quick lookup describes every stack (``1/45e: infantry morale=34 melee=12 fire=6
defence=9``, or a JSON object with its ``name``). In a battle, stacks are roster names
followed by this assault's words (``distance=2 retreats``); a firefight between the named
units is found on the roster, its locked units marked as such and the others as new.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from rules.core.decisions import Answers
from rules.core.defaults import asking, dispatcher, named
from rules.core.dice import DiceSource
from rules.core.engagements import Engagement
from rules.core.errors import InvalidInput, NotAllowed, code
from rules.core.fields import did_you_mean, split_units
from rules.core.notation import (
    doing,
    option_value,
    possessive,
    refuse_roster_word,
    roster_entry,
)
from rules.core.records import Resolution
from rules.core.roster import Roster, name_key
from rules.labataille.assault import Assault, resolve_assault
from rules.labataille.battle import (
    SETTINGS,
    attempts_against,
    engine_stack,
    fire_below,
    firefight_of,
)
from rules.labataille.charge import MAX_CHARGE_MP, resolve_charge
from rules.labataille.charts import ChartPack, read_pack
from rules.labataille.fire import FireBelowChart
from rules.labataille.inputs import ROSTER_FIELDS, SITUATION_FIELDS, STACKS
from rules.labataille.movement import check_light, light_recall
from rules.labataille.order import assault_order
from rules.labataille.reactions import event, form_square, form_up, reaction_charge
from rules.labataille.units import MAX_STACKS, ChargeMarker, Stack

Prepared = Callable[..., Resolution]
PACK = "charts"  # the setting an attached chart pack is handed in (`/battle charts`)


def prepare_assault(options: Mapping[str, Any], roster: Roster | None,
                    settings: Mapping[str, Any], *, old_guard: bool) -> Prepared:
    pack = battle_pack(options, settings)
    firefight = flag(options, "firefight", False, "a firefight carried over")
    if roster is None:
        attackers = given_stacks(options, "attackers", roster, "Attacker")
        defenders = given_stacks(options, "defenders", roster, "Defender")
    else:
        attackers = roster_stacks(options["attackers"], "attackers", roster)
        defenders = roster_stacks(options["defenders"], "defenders", roster)
        opposed(attackers, defenders)
        attackers, defenders, firefight = locked_in(roster, attackers, defenders)
    assault = Assault(tuple(attackers), tuple(defenders), old_guard, firefight, pack,
                      fire_below=fire_below_of(settings))
    return asking(options, lambda dice, answers: resolve_assault(assault, dice, answers))


def roster_stacks(text: str, where: str, roster: Roster) -> list[Stack]:
    stacks = []
    for part in split_units(text, where, MAX_STACKS):
        unit, words = roster_entry(part, roster, where)
        for word in words.split():
            refuse_roster_word(word, unit.name, where, ROSTER_FIELDS, SITUATION_FIELDS,
                               what="stack")
        _, situation = SITUATION_FIELDS.read_text(words, f"{where}: {unit.name}", names=False)
        stacks.append(engine_stack(unit, roster, situation))
    return stacks


def opposed(ours: Sequence[Stack], theirs: Sequence[Stack]) -> None:
    """In a battle, a stack acts against the enemy's: never a stack of its own side."""
    for stack in ours:
        if any(name_key(s.name) == name_key(stack.name) for s in theirs):
            raise NotAllowed(f"{stack.name} cannot act against itself.",
                             hint="Name the enemy's stacks.")
        friend = next((s for s in theirs if s.side and s.side == stack.side), None)
        if friend is not None:
            raise NotAllowed(f"{stack.name} and {friend.name} are on the same side "
                             f"({stack.side}).", hint="Name the enemy's stacks.")


def locked_in(roster: Roster, attackers: list[Stack], defenders: list[Stack]
              ) -> tuple[list[Stack], list[Stack], bool]:
    """Stacks already in a firefight with each other are locked in it; the others are new."""
    fights: list[Engagement] = []
    for stack in (*attackers, *defenders):
        fight = firefight_of(roster, stack.name)
        if fight is not None and fight not in fights:
            fights.append(fight)
    if not fights:
        return attackers, defenders, False
    if len(fights) > 1:
        raise InvalidInput("These stacks are in different firefights.",
                           hint="Fight each firefight as its own assault.")
    fight = fights[0]
    named = {name_key(s.name) for s in (*attackers, *defenders)}
    left_out = [n for side in fight.sides for n in side if name_key(n) not in named]
    if left_out:
        # "If new units join a Firefight, the Assault is resolved as if it was a new Mêlée":
        # with the stacks in it, whose values count in the new odds.
        raise InvalidInput(f"{doing(left_out, 'is', 'are')} locked in this firefight: name "
                           f"{'it' if len(left_out) == 1 else 'them'} too.",
                           hint="A firefight goes on with every stack in it; new stacks "
                                "join beside them, on either side.")
    first = {name_key(n) for n in fight.sides[0]}
    for stack in (*attackers, *defenders):
        if fight.involves(stack.name) and (name_key(stack.name) in first) != (stack in attackers):
            role = "attacks" if name_key(stack.name) in first else "defends"
            raise InvalidInput(f"{stack.name} {role} in its firefight.",
                               hint="Name it on that side; new units may join either side.")
    return ([replace(s, locked=fight.involves(s.name)) for s in attackers],
            [replace(s, locked=fight.involves(s.name)) for s in defenders], True)


def prepare_order(options: Mapping[str, Any], roster: Roster | None,
                  settings: Mapping[str, Any]) -> Prepared:
    sides = order_sides(options.get("sides"))
    if roster is not None:
        sides = battle_sides(sides, roster)
    kind = str(options.get("kind") or "assaults")

    def run(dice: DiceSource, answers: Answers | None = None) -> Resolution:
        return assault_order(sides, dice, kind)

    return run


def battle_sides(sides: tuple[tuple[str, int], tuple[str, int]],
                 roster: Roster) -> tuple[tuple[str, int], tuple[str, int]]:
    """In a battle, the sides named are the roster's, spelt as it spells them (a typo would
    order a side nobody plays)."""
    known = {name_key(member.side): member.side
             for member in (*roster.units, *roster.generals)}
    for side, _ in sides:
        # A side with nobody on the roster yet may be the battle's second: refused only
        # once both are there.
        if name_key(side) not in known and len(known) >= 2:
            raise InvalidInput(
                f"There is no side called {code(side)} in this battle."
                f"{did_you_mean(side, known.values())}",
                hint=f"The battle's sides: {', '.join(known.values())}.")
    (first, first_count), (second, second_count) = sides
    return ((known.get(name_key(first), first), first_count),
            (known.get(name_key(second), second), second_count))


def order_sides(given: Any) -> tuple[tuple[str, int], tuple[str, int]]:
    """``sides``: each of the two sides with its number of assaults, as an object
    (``{"French": 3, "British": 2}``) or as pairs (the command's, which may repeat a name)."""
    pairs = list(given.items()) if isinstance(given, Mapping) else given
    if not isinstance(pairs, list | tuple) or len(pairs) != 2 or not all(
            isinstance(pair, list | tuple) and len(pair) == 2 for pair in pairs):
        raise InvalidInput("`sides` maps each of the two sides to its number of assaults, "
                           'like {"French": 3, "British": 2}.')
    for side, count in pairs:
        if isinstance(count, bool) or not isinstance(count, int):
            raise InvalidInput(f"`sides`: {possessive(side)} number of assaults must be a "
                               "whole number.")
    (first, first_count), (second, second_count) = pairs
    first, second = " ".join(str(first).split()), " ".join(str(second).split())
    if not first or not second:
        raise InvalidInput("Name each side, e.g. `first:French second:British`.")
    return (first, first_count), (second, second_count)


def given_stacks(options: Mapping[str, Any], key: str, roster: Roster | None,
                 default: str) -> list[Stack]:
    """A quick lookup's stacks as described (one JSON object, or a list), or a battle's as
    named on the roster."""
    given = options.get(key)
    if roster is None:
        return STACKS.several([given] if isinstance(given, Mapping) else given,
                              named(options, key), default, MAX_STACKS)
    return roster_stacks(given, key, roster)


def one_stack(options: Mapping[str, Any], key: str, roster: Roster | None,
              default: str) -> Stack:
    stacks = given_stacks(options, key, roster, default)
    if len(stacks) != 1:
        raise InvalidInput(f"`{key}` is one stack.", hint="Name one stack here.")
    return stacks[0]


def flag(options: Mapping[str, Any], key: str, default: bool, meaning: str) -> bool:
    value = options.get(key)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise InvalidInput(f"`{key}` is true or false ({meaning}).")
    return value


def whole(options: Mapping[str, Any], key: str, low: int, high: int) -> int | None:
    value = options.get(key)
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                              or not low <= value <= high):
        raise InvalidInput(f"`{key}` is a whole number from {low} to {high}.")
    return value


def battle_pack(options: Mapping[str, Any], settings: Mapping[str, Any]) -> ChartPack | None:
    """The chart pack a request gives (``charts``), else the one attached to the battle."""
    if options.get(PACK) is not None:
        return read_pack(options[PACK], PACK)
    return read_pack(settings[PACK], "the battle's chart pack") if settings.get(PACK) else None


def fire_below_of(settings: Mapping[str, Any]) -> FireBelowChart:
    """The battle's (or the request's) reading of fire below the fire chart."""
    return fire_below(SETTINGS.read_json({k: v for k, v in settings.items() if k != PACK},
                                         "settings"))


def prepare_cavalry(options: Mapping[str, Any], roster: Roster | None,
                    settings: Mapping[str, Any]) -> Prepared:
    chargers = given_stacks(options, "chargers", roster, "Charger")
    targets = given_stacks(options, "targets", roster, "Target")
    opposed(chargers, targets)
    charge = Assault(tuple(chargers), tuple(targets),
                     pack=battle_pack(options, settings), cavalry=True,
                     spent=whole(options, "spent", 0, MAX_CHARGE_MP),
                     reached=flag(options, "reached", True, "the charge came adjacent to its "
                                  "declared target"),
                     fire_below=fire_below_of(settings))
    return asking(options, lambda dice, answers: resolve_charge(charge, dice, answers))


def charging(options: Mapping[str, Any], key: str, roster: Roster | None,
             stack: Stack, *, required: bool = False) -> tuple[Stack, ...]:
    """The charging cavalry a stack reacts to (several: a Grand Charge). In a battle they
    must be named, and the stack may not have reacted to this charge (or move) already."""
    if not options.get(key):
        if roster is not None:
            raise InvalidInput(f"Name the charging cavalry in `{key}`.",
                               hint="A stack makes one attempt per charge: the battle "
                                    "keeps which charge it answered.")
        if required:
            raise InvalidInput(f"Give the charging cavalry in `{key}`.",
                               hint="Its stack, with its Charge marker (`charge=charging`).")
        return ()
    chargers = tuple(given_stacks(options, key, roster, "Cavalry"))
    opposed(chargers, [stack])
    if roster is not None:
        done = attempts_against(roster, stack.name, [c.name for c in chargers],
                                event(chargers))
        if done is not None:
            chargers_of, _ = done.sides
            what = "charge" if event(chargers) == "charge" else "move"
            raise NotAllowed(f"{stack.name} has already made its attempt against "
                             f"{possessive(' and '.join(chargers_of))} {what}.",
                             hint="One attempt per triggering event; a Grand Charge is one "
                                  "charge. A new turn clears it; a GM may `/gm undo`.")
    return chargers


def prepare_square(options: Mapping[str, Any], roster: Roster | None,
                   settings: Mapping[str, Any]) -> Prepared:
    infantry = one_stack(options, "stack", roster, "Infantry")
    chargers = charging(options, "cavalry", roster, infantry)
    pack = battle_pack(options, settings)
    distance = whole(options, "distance", 1, 4)
    if distance is None:
        raise InvalidInput("Say how far the cavalry is with `distance` (1 to 4 hexes).")
    target = flag(options, "target", False, "the square was the charge's declared target")
    return asking(options, lambda dice, answers: form_square(
        infantry, distance, chargers, target, pack, dice, answers))


def prepare_reaction(options: Mapping[str, Any], roster: Roster | None,
                     settings: Mapping[str, Any]) -> Prepared:
    reactor = one_stack(options, "reactor", roster, "Reacting cavalry")
    chargers = charging(options, "charger", roster, reactor, required=True)
    pack, gap = battle_pack(options, settings), whole(options, "gap", 0, 20) or 0
    return asking(options, lambda dice, answers: reaction_charge(
        reactor, chargers, gap, pack, dice, answers))


def prepare_formup(options: Mapping[str, Any], roster: Roster | None,
                   settings: Mapping[str, Any]) -> Prepared:
    skirmishers = one_stack(options, "stack", roster, "Skirmishers")
    chargers = charging(options, "charger", roster, skirmishers)
    pack = battle_pack(options, settings)

    def run(dice: DiceSource, answers: Answers | None = None) -> Resolution:
        return form_up(skirmishers, chargers, pack, dice)

    return run


def prepare_recall(options: Mapping[str, Any], roster: Roster | None,
                   settings: Mapping[str, Any]) -> Prepared:
    chargers = tuple(given_stacks(options, "chargers", roster, "Light cavalry"))
    if roster is not None:
        # "At any time during Charge movement": the roster knows which cavalry is charging
        # (a quick lookup's cavalry is taken to be, as its command says).
        check_light(chargers)
        idle = [c.name for c in chargers if c.charge is not ChargeMarker.CHARGING]
        if idle:
            raise NotAllowed(f"{doing(idle, 'carries', 'carry')} no Charge marker: only cavalry "
                             "that is charging may Recall.",
                             hint="A Charge marker is placed when the charge is declared: "
                                  f"`/unit edit unit:{option_value(idle[0])} "
                                  'words:charge=charging` places it (its player or a GM).')
    pack = battle_pack(options, settings)
    return asking(options, lambda dice, answers: light_recall(chargers, pack, dice, answers))


PROCEDURES: dict[str, Callable[..., Prepared]] = {
    "assault": lambda o, r, s: prepare_assault(o, r, s, old_guard=False),
    "charge": lambda o, r, s: prepare_assault(o, r, s, old_guard=True),
    "order": prepare_order,
    "cavalry": prepare_cavalry,
    "square": prepare_square,
    "reaction": prepare_reaction,
    "formup": prepare_formup,
    "recall": prepare_recall,
}


prepare = dispatcher(PROCEDURES)
