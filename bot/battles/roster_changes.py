"""Adding, changing and removing a battle's units and generals, inside the command's
transaction: one event each, snapshotted for undo. The cogs call these with plain values
and get plain results back."""

from __future__ import annotations

from dataclasses import dataclass

from bot.battles.corrections import standing_changes
from bot.battles.errors import BattleError
from bot.battles.store import BattleTx
from bot.battles.validate import (
    battle_side,
    battle_sides,
    check_commander,
    check_general_value,
    check_new_name,
    check_new_side,
    check_new_strength,
    check_one_general,
    check_same_side,
    check_unit_command,
    check_unit_side,
    check_wounds,
    did_you_mean,
    out_of_strength,
)
from bot.storage.models import General, Unit
from rules.core.roster import (
    describe_changes,
    name_key,
    one_strength,
    strength_count,
    take_strength,
    unit_changes,
)


@dataclass(frozen=True)
class Added:
    """A unit or general added: what the reply says of it."""

    name: str
    side: str
    seq: int
    sides_before: list[str] | None  # the battle's sides before, and after: fixed by this?
    sides_after: list[str] | None
    # A unit as its rule set words it on the roster: its strength in its own word (`4 SP`,
    # `12 figures`), what it is, its markers.
    words: tuple[str, ...] = ()
    with_unit: str | None = None  # a general's unit
    value: int | None = None  # a general's value, where the rule set counts one


def read_words(tx: BattleTx, words: str, strength: int | None, *,
               require_arm: bool) -> tuple[dict, int | None]:
    """Unit words and the strength, which may come as the option or among the words in the
    rule set's own word (`figures=12`, `sp=4`)."""
    label = tx.rules.strength_label
    rest, typed = take_strength(words, label, "words", tx.rules.strength_aliases,
                                tx.rules.max_strength)
    tx.rules.refuse_general_words(rest, "words")
    attributes = tx.rules.read_attributes(rest, "words", require_arm=require_arm) \
        if rest or require_arm else {}
    return attributes, one_strength(strength, typed, label)


def add_unit(tx: BattleTx, side: str, name: str, words: str, strength: int | None,
                   commander: str | None, added_by: int) -> Added:
    battle = tx.require_battle()
    sides = battle.sides
    unit_name = check_new_name(tx, name)
    words_read, count = read_words(tx, words, strength, require_arm=True)
    check_new_strength(count, tx.rules.strength_label)
    side = battle_side(tx, side)
    words_read = {**tx.rules.side_words(side), **words_read}
    attributes = tx.rules.check_unit(unit_name, words_read, count, unit_name)
    row = tx.add(Unit(battle_id=battle.id, name=unit_name, name_key=name_key(unit_name),
                      side=side, strength=count, status="active",
                      attributes=attributes, commander=check_commander(tx, commander),
                      added_by=added_by))
    check_unit_command(tx, row)
    check_unit_side(tx, row)
    event = tx.record("unit_add", f"Added {unit_name} ({row.side})")
    said = tx.rules.unit_words(attributes)
    # Left out, it is what the rule set gives (Tricorne: full strength), where it gives one;
    # kept unset, so that a `full` put right later moves it too.
    shown = tx.rules.strength_of(count, attributes)
    strength = (strength_count(shown, tx.rules.strength_label),) if shown is not None else ()
    return Added(unit_name, row.side, event.seq, sides, battle.sides,
                 (*strength, *said.described, *said.markers))


def edit_unit(tx: BattleTx, unit: str, words: str | None, strength: int | None,
                    side: str | None, rename: str | None,
                    commander: str | None) -> tuple[list[str], int]:
    """Change a unit (its player or a GM); the changes in words, and the event's number."""
    row = tx.unit_row(unit)
    tx.require_owner(row, "edit")
    before = tx.unit_of(row)
    standing = tx.roster()
    tx.touch(row)
    new, count = read_words(tx, words or "", strength, require_arm=False)
    if new or count is not None:
        # The unit as it would stand, checked whole: new words against the strength it
        # has, a new strength against the words it has.
        strength_after = row.strength if count is None else count
        # None left: the unit leaves the battle, with its words as they stood.
        checked = row.strength if strength_after == 0 else strength_after
        row.attributes = tx.rules.check_unit(row.name, {**row.attributes, **new},
                                             checked, row.name)
        check_players_edit(tx, row.name, before.attributes, row.attributes)
        row.strength = strength_after
        out_of_strength(tx, row)
    if side is not None:
        row.side = battle_side(tx, side)
    if commander is not None:
        row.commander = check_commander(tx, commander)
    if rename is not None:
        old_name = row.name
        row.name = check_new_name(tx, rename, renaming=row.name_key)
        row.name_key = name_key(row.name)
        tx.unit_renamed_or_gone(old_name, row.name)
    if side is not None or commander is not None:
        check_unit_command(tx, row)
    check_unit_side(tx, row)
    changes = describe_changes(unit_changes(before, tx.unit_of(row)), tx.rules.wording)
    if not changes:
        if any(v is not None for v in (words, strength, side, rename, commander)):
            raise BattleError(f"Nothing to change: {row.name} already has these values.",
                              hint="`/unit list` shows it as it is.")
        raise BattleError(f"Nothing to change on {row.name}.",
                          hint="Give words, strength, side, rename or commander.")
    # A unit left with none (Tricorne: its last block) may move the standing: said, as a
    # GM's correction says it.
    changes += standing_changes(tx.rules, standing, tx.roster())
    event = tx.record("unit_edit", "; ".join(changes))
    return changes, event.seq


def check_players_edit(tx: BattleTx, name: str, before: dict, after: dict) -> None:
    """A change of words the rule set leaves to the rules and the GM is a GM's to make."""
    battle = tx.require_battle()
    why = tx.rules.check_edit(before, after) if tx.rules.check_edit else None
    if why and not tx.actor.is_gm(battle.created_by, battle.gm_role_id):
        raise BattleError(f"{name}: {why}",
                          hint="A GM may change it (`/gm set`), to put a mistake right.")


def remove_unit(tx: BattleTx, unit: str) -> tuple[str, int, list[str]]:
    """Remove a unit: its name, the event's number, and the generals it leaves alone."""
    row = tx.unit_row(unit, allow_gone=True)
    tx.require_owner(row, "remove")
    name = row.name
    alone = tx.unit_renamed_or_gone(name, None)
    tx.delete(row)
    event = tx.record("unit_remove", f"Removed {name}"
                      + (f"; {', '.join(alone)} left alone" if alone else ""))
    return name, event.seq, alone


def add_general(tx: BattleTx, name: str, side: str, unit: str | None, wounds: int,
                      added_by: int, value: int | None = None) -> Added:
    battle = tx.require_battle()
    check_wounds(wounds, tx.rules)
    check_general_value(tx, value)
    sides = battle.sides
    general_name = check_new_name(tx, name, kind="general")
    unit_row = tx.unit_row(unit) if unit else None
    general_side = battle_side(tx, side)
    if unit_row is not None:
        check_same_side(general_name, general_side, unit_row)
    with_unit = unit_row.name if unit_row is not None else None
    row = tx.add(General(battle_id=battle.id, name=general_name,
                         name_key=name_key(general_name), side=general_side,
                         unit_name=with_unit, wounds=wounds, status="active",
                         added_by=added_by, value=value))
    check_one_general(tx, row)
    event = tx.record("general_add", f"Added general {general_name}")
    return Added(general_name, row.side, event.seq, sides, battle.sides, with_unit=with_unit,
                 value=value)


def remove_general(tx: BattleTx, name: str) -> tuple[str, int]:
    row = tx.general_row(name)
    tx.require_owner(row, "remove", general=True)
    general = row.name
    tx.delete(row)
    event = tx.record("general_remove", f"Removed general {general}")
    return general, event.seq


@dataclass(frozen=True)
class SideRenamed:
    """A side renamed: its old and new names, how many units and generals went with it."""

    old: str
    new: str
    units: int
    generals: int
    seq: int


def rename_side(tx: BattleTx, side: str, name: str) -> SideRenamed:
    """Give one of the battle's sides a new name (``Frnch`` to ``French``): the battle's
    sides, and every unit and general on it, follow. A GM may rename any side; a player the
    side whose units and generals are all his own (nobody else's move with it)."""
    battle = tx.require_battle()
    known = battle_sides(tx)
    old = next((s for s in known if name_key(s) == name_key(side)), None)
    if old is None:
        listed = " and ".join(known)
        raise BattleError(f"`{' '.join(side.split())}` is not a side in this battle."
                          f"{did_you_mean(side, known)}",
                          hint=f"Its sides are {listed}." if listed else
                          "It has no sides yet: `/unit add side:` names one.")
    units = [u for u in tx.unit_rows() if name_key(u.side) == name_key(old)]
    generals = [g for g in tx.general_rows() if name_key(g.side) == name_key(old)]
    if not tx.actor.is_gm(battle.created_by, battle.gm_role_id) and not (
            (units or generals)
            and all(row.added_by == tx.actor.user_id for row in (*units, *generals))):
        why = "it holds units or generals another player added" if units or generals else \
            "it has no units or generals yet"
        raise BattleError(f"Only a GM can rename the {old} side: {why}.",
                          hint="Ask a GM; a player may rename a side only he has added to.")
    new = check_new_side(name)
    if new == old:
        raise BattleError(f"The {old} side is already called that.",
                          hint="Give `name:` the new spelling.")
    other = next((s for s in known if s != old and name_key(s) == name_key(new)), None)
    if other is not None:
        raise BattleError(f"The battle already has a side called {other}.",
                          hint="A battle has two different sides: give this one another "
                               "name. To move a unit across, `/unit edit side:`.")
    if battle.sides:
        tx.touch(battle)
        battle.sides = [new if s == old else s for s in battle.sides]
    for row in (*units, *generals):
        tx.touch(row)
        row.side = new
    for row in units:
        check_unit_side(tx, row)
    event = tx.record("side_rename", f"Side {old} renamed {new}")
    return SideRenamed(old, new, len(units), len(generals), event.seq)
