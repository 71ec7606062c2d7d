"""The GM's corrections to a battle: the dice queue, any field of a unit or a general, a unit
brought back, the GM role. Each runs inside the command's transaction and is one event;
every value is held to the bounds a player's own command would have."""

from __future__ import annotations

import difflib
from typing import Any

from bot.battles.errors import BattleError
from bot.battles.store import BattleTx, roster_general
from bot.battles.validate import (
    battle_side,
    check_commander,
    check_counts_wounds,
    check_general_command,
    check_new_name,
    check_unit_command,
    check_unit_side,
    general_value_bounds,
    no_strength_left,
    out_of_strength,
    wounds_bound,
)
from rules.core.dice import FULL_WIDTH, Face, parse_dice
from rules.core.errors import InvalidInput, code
from rules.core.fields import WHOLE
from rules.core.notation import option_value, possessive
from rules.core.registry import BattleRules
from rules.core.roster import (
    GONE,
    MAX_STRENGTH,
    Roster,
    describe_changes,
    general_changes,
    name_key,
    strength_word,
    unit_changes,
)

UNIT_COLUMNS = ("name", "side", "strength", "status", "commander")
GENERAL_FIELDS = ("side", "unit", "wounds", "status", "value")
GENERAL_STATUSES = ("active", "incapacitated", "captured", "killed")
# The bounds /unit add and /general add put on their options: a GM's correction is held to
# the same, so no value reaches the database that a player could not have entered.
STRENGTH_RANGE = (0, MAX_STRENGTH)


def strength_range(rules: BattleRules) -> tuple[int, int]:
    """A unit's strength as the rule set bounds it (La Bataille: 0 to 40 increments), else
    as the bot does (``STRENGTH_RANGE``); a refusal says this range."""
    if rules.max_strength is None:
        return STRENGTH_RANGE
    return 0, min(rules.max_strength, MAX_STRENGTH)


def standing_changes(rules: BattleRules, before: Roster, after: Roster) -> list[str]:
    """The standing a change moved (Tricorne's Victory Banners), said as it now is and as it
    was: it is counted from the roster, so a correction that kills a leader or brings an
    eliminated unit back moves it, and no unit's change says so."""
    if rules.standings is None:
        return []
    # Each side's line beside its own: a unit moved to the other side can list the sides
    # the other way round. A side new to the standing is said as it now is.
    was = {line.partition(": ")[0]: line for line in rules.standings(before)}
    moved = []
    for line in rules.standings(after):
        old = was.get(line.partition(": ")[0])
        if old is None:
            moved.append(line)
        elif old != line:
            moved.append(f"{line} (was {old.partition(': ')[2] or old})")
    return moved


def check_given(value: str) -> None:
    """A value to set: a blank one is a slip, never a way to clear a field."""
    if not value.strip():
        raise InvalidInput("`value` is empty.",
                           hint="Give the new value; `none` clears one that may be left out.")


BEYOND = 10**18
"""What a number of more than 18 figures counts as: past any range (and int() refuses more
than 4,300 figures)."""


def figures(value: str) -> int | None:
    """The whole number ``value`` says in plain figures, as a unit's words and typed dice
    read them (a phone's wide `５` too); None when it is none. Python's int() would also
    read other scripts' digits (`٣`) and `1_0`."""
    plain = value.strip().translate(FULL_WIDTH)
    if not WHOLE.fullmatch(plain):
        return None
    if len(plain.lstrip("+-").lstrip("0")) > 18:
        return -BEYOND if plain.startswith("-") else BEYOND
    return int(plain)


def parse_int(value: str, field: str, bounds: tuple[int, int]) -> int | None:
    """A whole number within ``bounds``; None for `none`, which clears it."""
    minimum, maximum = bounds
    if value.strip().casefold() == "none":
        return None
    number = figures(value)
    if number is None:
        raise InvalidInput(f"`{field}` takes a whole number, not `{value[:20]}`.",
                           hint=f"Type it in the digits 0-9, from {minimum} to {maximum}."
                           if not value.isascii() else f"Use {minimum} to {maximum}.")
    if number < minimum:
        raise InvalidInput(f"`{field}` cannot be below {minimum}.",
                           hint=f"Use {minimum} to {maximum}.")
    if number > maximum:
        raise InvalidInput(f"`{field}` cannot be above {maximum}.",
                           hint=f"Use {minimum} to {maximum}.")
    return number



def queue_dice(tx: BattleTx, dice: str | None, clear: bool) -> list[Face]:
    """Add faces to the dice queue (``clear``: in place of what it held, or nothing); the
    queue as it now stands. Neither: the queue as it is, changing nothing."""
    battle = tx.require_gm("queue dice")
    given = bool(dice and dice.strip())
    if not clear and not given:
        return list(battle.dice_queue or [])
    typed = (dice or "").strip()
    if typed.casefold() in ("clear", "none", "empty"):
        raise InvalidInput(f"`{typed}` is not a die: the queue is emptied with `clear:true`.",
                           hint="`/gm dice clear:true` (and no `dice`).")
    faces = parse_dice(dice or "", tx.rules.dice_faces) if given else []
    tx.touch(battle)
    battle.dice_queue = [*([] if clear else battle.dice_queue), *faces]
    queued = len(battle.dice_queue)
    summary = "GM cleared the dice queue" if clear and not faces else (
        f"GM {'replaced the dice queue with' if clear else 'queued'} {len(faces)} "
        f"{'die' if len(faces) == 1 else 'dice'} ({queued} waiting)")
    tx.record("dice_queue", summary)
    return list(battle.dice_queue)


def set_unit_field(tx: BattleTx, unit: str, field: str,
                   value: str) -> tuple[list[str], int, str | None]:
    """Set one field of a unit; the changes in words, the event's number, and the unit's name
    when it was given strength to come back with but is still out of the battle."""
    tx.require_gm("set unit fields")
    check_given(value)
    row = tx.unit_row(unit, allow_gone=True)
    before = tx.unit_of(row)
    standing = tx.roster()
    tx.touch(row)
    field = said = field.strip().lower().replace("-", "_")
    if field == strength_word(tx.rules.strength_label):  # `figures`, as `/unit add` takes it
        field = "strength"
    _set_unit_field(tx, row, field, value, said)
    if field in ("side", "commander"):
        check_unit_command(tx, row)
    back = field == "status" and row.status != GONE  # restored by hand
    if field == "strength" or back or _is_word(tx, field):
        _check_unit(tx, row, strength_set=field == "strength")
    check_unit_side(tx, row)
    changes = describe_changes(unit_changes(before, tx.unit_of(row)), tx.rules.wording)
    if not changes:
        raise BattleError(f"{possessive(row.name)} {said} is already {value}.")
    changes += standing_changes(tx.rules, standing, tx.roster())
    event = tx.record("gm_set", "GM set: " + "; ".join(changes))
    can_return = row.status == GONE and not before.strength and bool(row.strength)
    return changes, event.seq, row.name if can_return else None


def _set_unit_field(tx: BattleTx, row: Any, field: str, value: str, said: str) -> None:
    """Set ``field`` from ``value``; a refusal names the field as typed (``said``)."""
    if field == "strength":
        bounds = strength_range(tx.rules)
        try:
            row.strength = parse_int(value, said, bounds)
        except InvalidInput:
            # Above the bound: the rule set's own check, where it bounds strength, refuses it
            # as everywhere else (La Bataille's 40 increments); else this refusal stands,
            # with the rule set's range.
            number = figures(value)
            if number is not None and bounds[1] < number < BEYOND:
                tx.rules.check_unit(row.name, dict(row.attributes), number, row.name)
            raise
        out_of_strength(tx, row)
        if row.status == GONE and row.strength and row.gone_reason == no_strength_left(tx):
            row.gone_reason = None  # still out, but no longer for want of strength
    elif field == "status":
        # In any case: a phone's keyboard types `Gone`, as it types `Yes` for a marker.
        state = value.strip().casefold()
        if state not in ("active", "gone"):
            other = field_taking(tx.rules, value)
            raise InvalidInput(f"`status` is `active` or `gone`, not {code(value)}.",
                               hint=(f"For {code(value)}, use `{other}`. " if other else "")
                               + "`value:gone` takes the unit out of the battle; "
                                 "`value:active` brings it back.")
        if state == row.status:
            # Already so: a unit out keeps why it left (eliminated: a Victory Banner to the
            # other side), which "removed by the GM" would take away.
            return
        if state == "active" and row.status == GONE:
            check_has_strength(tx, row)
        row.status = state
        row.gone_reason = None if state == "active" else "removed by the GM"
        if state == "gone":  # out of its fights; its general's fate is the GM's to set
            tx.unit_renamed_or_gone(row.name, None, generals=False)
    elif field == "side":
        row.side = battle_side(tx, value)
    elif field == "name":
        old_name = row.name
        row.name = check_new_name(tx, value, renaming=row.name_key)
        row.name_key = name_key(row.name)
        tx.unit_renamed_or_gone(old_name, row.name)
    elif field == "commander":
        row.commander = check_commander(tx, value)
    elif _is_word(tx, field):
        attributes: dict[str, Any] = dict(row.attributes)
        if value.strip().casefold() == "none":
            attributes.pop(field, None)
        else:
            attributes[field] = value
        row.attributes = attributes
    else:
        raise not_a_field(field, "unit", unit_field_names(tx.rules))


def not_a_field(field: str, kind: str, names: list[str]) -> InvalidInput:
    """A field `/gm set` or `/gm general` does not know, with the nearest and the list."""
    close = difflib.get_close_matches(field, names, n=1, cutoff=0.7)
    return InvalidInput(f"`{field}` is not a {kind} field."
                        + (f" Did you mean `{close[0]}`?" if close else ""),
                        hint=f"Fields: {', '.join(names)}.")


def unit_field_names(rules: BattleRules) -> list[str]:
    """What `/gm set` sets on a unit: its columns, the rule set's words and its markers."""
    return [*UNIT_COLUMNS, *(f.name for f in (*rules.unit_fields.fields,
                                              *rules.marker_fields.fields))]


def field_taking(rules: BattleRules, value: str) -> str | None:
    """``field:state value:disordered``: the rule set's unit field (or marker) that takes
    ``value`` as one of its words, as `/gm set` takes it; None where none does."""
    word = value.strip().casefold()
    for spec in (*rules.unit_fields.fields, *rules.marker_fields.fields):
        if spec.is_enum:
            member = spec.enum_words().get(word)
            if member is not None:
                return f"field:{spec.name} value:{member.value}"
        elif spec.kind is bool and word in spec.spellings():
            return f"field:{spec.name} value:true"
    return None


def _is_word(tx: BattleTx, field: str) -> bool:
    """One of the rule set's unit words (`morale`, `full`, `formation`) or markers
    (`casualties`, `held`)."""
    return field not in UNIT_COLUMNS and (tx.rules.unit_fields.knows(f"{field}=x")
                                          or field in unit_field_names(tx.rules))


def _check_unit(tx: BattleTx, row: Any, *, strength_set: bool = False) -> None:
    """The unit as the GM leaves it, checked as `/unit add` checks a new one. A unit out of
    the battle keeps the strength it left with (a destroyed stack, no increments): that is
    checked when it is set, and when the unit comes back."""
    # Out of the battle with none left (a destroyed stack): nothing to check, whatever the
    # rule set's least; it comes back only with some (``check_has_strength``).
    counted = row.status != GONE or (strength_set and row.strength != 0)
    row.attributes = tx.rules.check_unit(row.name, row.attributes,
                                         row.strength if counted else None, row.name)


def check_has_strength(tx: BattleTx, row: Any) -> None:
    """A unit out of the battle comes back only with some strength to fight with."""
    if row.strength == 0:
        raise BattleError(f"{row.name} has no {tx.rules.strength_label} left to come back "
                          "with.", hint="Give it some first: `/gm set "
                          f"unit:{option_value(row.name)} field:strength value:…`, then "
                          "restore it.")


def restore_unit(tx: BattleTx, unit: str) -> tuple[str, list[str], int]:
    """Bring a unit that is out of the battle back; what it did (its name, and the standing
    it moved) and the event's number."""
    tx.require_gm("restore units")
    row = tx.unit_row(unit, allow_gone=True)
    standing = tx.roster()
    if row.status != "gone":
        raise BattleError(f"{row.name} is still in the battle.")
    check_has_strength(tx, row)
    tx.touch(row)
    row.status, row.gone_reason = "active", None
    _check_unit(tx, row)
    moved = standing_changes(tx.rules, standing, tx.roster())
    event = tx.record("gm_restore", "; ".join([f"GM restored {row.name}", *moved]))
    return row.name, moved, event.seq


def general_field_names(rules: BattleRules) -> list[str]:
    """What `/gm general` sets on a general in this rule set: his wounds where it counts
    them, his value where it counts one (La Bataille's generals carry a value, no wounds)."""
    return [f for f in GENERAL_FIELDS
            if not (f == "wounds" and rules.max_wounds == 0)
            and not (f == "value" and rules.general_values is None)]


def set_general_field(tx: BattleTx, general: str, field: str,
                            value: str) -> tuple[list[str], int]:
    """Set one field of a general; the changes in words, and the event's number."""
    tx.require_gm("set generals' fields")
    field = field.strip().lower()
    if field not in GENERAL_FIELDS:
        raise not_a_field(field[:20], "general", general_field_names(tx.rules))
    check_given(value)
    row = tx.general_row(general)
    before = roster_general(row)
    standing = tx.roster()
    tx.touch(row)
    # A field the rule set does not count: `value` is this command's own option, which
    # cannot be left out, so the refusal names the fields there are.
    others = f"Fields: {', '.join(general_field_names(tx.rules))}."
    if field == "wounds":
        # As many as the rule set lets a general carry, as `/general add` takes.
        check_counts_wounds(tx.rules, hint=others)
        row.wounds = parse_int(value, "wounds", (0, wounds_bound(tx.rules, row.status))) or 0
    elif field == "value":
        # As `/general add` takes it: within the rule set's bounds, `none` to clear.
        row.value = parse_int(value, "value", general_value_bounds(tx, hint=others))
    elif field == "status":
        status = value.strip().casefold()  # `Killed`, as a phone's keyboard types it
        if status not in GENERAL_STATUSES:
            raise InvalidInput(f"`status` is one of {', '.join(GENERAL_STATUSES)}.")
        if row.wounds > wounds_bound(tx.rules, status):
            # Back in play with the wound that took him out would be a state no rule makes.
            raise InvalidInput(f"{row.name} carries {row.wounds} light wounds: in play a "
                               f"general carries at most {tx.rules.max_wounds}.",
                               hint="Set his wounds first (`field:wounds`), then his status.")
        row.status = status
    elif field == "unit":
        row.unit_name = (None if value.strip().casefold() == "none"
                         else (tx.unit_row(value)).name)
    else:
        row.side = battle_side(tx, value)
    if field in ("unit", "side", "status"):
        check_general_command(tx, row)
    changes = describe_changes(general_changes(before, roster_general(row)))
    if not changes:
        raise BattleError(f"{possessive(row.name)} {field} is already {value}.")
    changes += standing_changes(tx.rules, standing, tx.roster())
    event = tx.record("gm_set", "GM set: " + "; ".join(changes))
    return changes, event.seq


def set_gm_role(tx: BattleTx, role_id: int | None, role_name: str | None) -> None:
    battle = tx.require_gm("name the GM role")
    tx.touch(battle)
    battle.gm_role_id = role_id
    tx.record("gm_role", f"GM role set to {role_name}" if role_id else "GM role cleared")
