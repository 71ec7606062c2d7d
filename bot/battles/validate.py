"""Checks on names, sides and commanders shared by the roster and GM commands."""

from __future__ import annotations

import difflib
import re
import unicodedata
from typing import Any

from bot.battles.errors import BattleError
from bot.battles.store import BattleTx
from rules.core.errors import InvalidInput, code
from rules.core.notation import option_value
from rules.core.registry import BattleRules
from rules.core.roster import ACTIVE, GONE, name_key, strength_count
from rules.registry import RULESETS

MAX_SIDE = 32
MAX_NAME = 64
# What the unit notation reads as the end of a name, of a unit, or as a quote.
# A name is quoted in code spans ("Did you mean `2nd Foot`?"): a backtick would break them.
NOT_IN_NAMES = ';:"`'
NAMES_HINT = 'without ; : " or backticks (an apostrophe is fine)'
# A phone's curly double quotes are double quotes to the notation too; a new name is refused
# them (names kept from before, in a battle or a backup, are read as they are).
NOT_IN_NEW_NAMES = NOT_IN_NAMES + "“”„"
NEW_NAMES_HINT = 'without ; : " (or a phone\'s “ ”) or backticks (an apostrophe is fine)'
# Letters and signs that show as blank space though they are not spaces (Hangul fillers, the
# blank Braille pattern), and marks Unicode says to show as nothing (the combining grapheme
# joiner, Khmer inherent vowels, Mongolian and other variation selectors): a name of them
# looks empty, or like another.
_BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f\u17b4\u17b5"
                   + "".join(map(chr, range(0x180B, 0x1810)))
                   + "".join(map(chr, range(0xFE00, 0xFE10))))
_JOINER = "\u200d"
_EMOJI_STYLE = "\ufe0f"  # shows the symbol before it as an emoji
_BLACK_FLAG = "\U0001f3f4"
_TAGS = range(0xE0020, 0xE0080)


def unseen_character(text: str) -> str | None:
    """A character of ``text`` that cannot be seen (``U+200B``): a zero-width space, a soft
    hyphen, a control, a right-to-left override or a blank letter would make two names that
    look alike, or turn the rest of a log line around. The joiner inside an emoji (🏴‍☠️)
    and the tags of a flag such as Scotland's are part of what is seen, and kept there."""
    for index, char in enumerate(text):
        before = text[index - 1] if index else ""
        after = text[index + 1] if index + 1 < len(text) else ""
        if char == _JOINER and _is_symbol(before) and _is_symbol(after):
            continue
        if char == _EMOJI_STYLE and before and unicodedata.category(before) == "So":
            continue
        if ord(char) in _TAGS and (before == _BLACK_FLAG or (before and ord(before) in _TAGS)):
            continue
        if char in _BLANK or unicodedata.category(char) in ("Cc", "Cf"):
            return f"U+{ord(char):04X}"
    return None


def _is_symbol(char: str) -> bool:
    """A pictograph or its variation selector, as emoji are made of."""
    return bool(char) and unicodedata.category(char) in ("So", "Sk", "Mn")


def check_seen(text: str, what: str) -> None:
    """Refuses ``what`` (a name, a side) holding a character nobody can see."""
    unseen = unseen_character(text)
    if unseen is not None:
        raise BattleError(f"{what.capitalize()} holds a character that cannot be seen "
                          f"({unseen}).", hint="Type it again: text pasted from elsewhere can "
                                               "carry one.")


def check_battle_name(name: str) -> str:
    """A battle's name as it is kept: without spaces around it, not blank, all seen."""
    name = name.strip()
    if not name:
        raise BattleError("A battle needs a name.", hint="e.g. `name:\"Plains of Abraham\"`.")
    if "`" in name:  # it is quoted in code spans (`/battle end confirm:…`)
        raise BattleError("A battle's name cannot hold a backtick.",
                          hint="e.g. `name:\"Plains of Abraham\"`.")
    check_seen(name, "the battle's name")
    return name


def name_refused(name: str) -> str:
    """Why a name is refused, quoting it back in a code span unless a backtick in it would
    break one."""
    if not name.strip():
        return "A name cannot be blank."
    return "A name cannot hold a backtick." if "`" in name else f"`{name}` cannot be a name."


def check_new_name(tx: BattleTx, name: str, *, renaming: str | None = None,
                   kind: str = "unit") -> str:
    """A free name for a new unit or general (names are unique, ignoring case, spacing and
    the kind of apostrophe). ``renaming``: the name's own key, when a unit is renamed, so
    that it may be spelled anew (``Barrell’s`` to ``Barrell's``). ``kind`` says what is
    named, for the refusal of a blank name."""
    name = " ".join(name.split())
    if not name:
        # A blank name would be echoed as empty backticks: say what is missing instead.
        example = "Montcalm" if kind == "general" else "2nd Foot"
        raise BattleError(f"A {kind} needs a name.",
                          hint=f"Give `name:` 1 to {MAX_NAME} characters, e.g. `{example}`.")
    if len(name) > MAX_NAME or any(c in name for c in NOT_IN_NEW_NAMES):
        raise BattleError(name_refused(name),
                          hint=f"Use 1 to {MAX_NAME} characters, {NEW_NAMES_HINT}.")
    check_seen(name, f"the {kind}'s name")
    if name.casefold() == "none":  # `none` clears a unit's commander, a general's unit
        raise BattleError(f"A {kind} cannot be called `{name}`: the word clears a commander "
                          "or a general's unit where one is asked.", hint="Pick another name.")
    taken = {u.name_key: u.name for u in tx.unit_rows()}
    taken |= {g.name_key: g.name for g in tx.general_rows()}
    taken.pop(renaming, None)
    if name_key(name) in taken:
        # Quoted as typed: a name like `<@2>` would otherwise show as a mention.
        raise BattleError(f"There is already a unit or general called "
                          f"{code(taken[name_key(name)])} in this battle.",
                          hint="Pick another name, or edit the existing one.")
    return name


def check_same_side(general: str, side: str, unit: Any,
                    hint: str = "Give his side, or one of his side's units.") -> None:
    """A general (``general``, of ``side``) is with, or commands, units of his side only."""
    if name_key(side) != name_key(unit.side):
        raise BattleError(f"{general} is {side} and {unit.name} is {unit.side}: a "
                          "general takes the field with a unit of his own side.", hint=hint)


def check_unit_command(tx: BattleTx, unit: Any) -> None:
    """The unit as a command leaves it: its commander and the generals with it of its side."""
    if unit.commander is not None:
        commander = next((g for g in tx.general_rows()
                          if g.name_key == name_key(unit.commander)), None)
        if commander is not None:
            check_same_side(commander.name, commander.side, unit,
                            hint="Name a general of its side as its commander, or `none`.")
    for general in tx.general_rows():
        if general.unit_name and name_key(general.unit_name) == unit.name_key:
            check_same_side(general.name, general.side, unit,
                            hint=f"Move him off it first: `/gm general general:"
                                 f"{option_value(general.name)} field:unit value:none`.")


def check_unit_side(tx: BattleTx, unit: Any) -> None:
    """The unit's side as its rule set holds it to its words (Le Baton: its nation)."""
    if tx.rules.check_side is not None:
        tx.rules.check_side(unit.side, unit.attributes)


def check_general_command(tx: BattleTx, general: Any) -> None:
    """The general as a command leaves him: the unit he is with, and the units he commands,
    of his side; no other general with his unit."""
    for unit in tx.unit_rows():
        if (general.unit_name and unit.name_key == name_key(general.unit_name)) or (
                unit.commander and name_key(unit.commander) == general.name_key):
            check_same_side(general.name, general.side, unit,
                            hint="Give him a unit of his side, or set his unit to `none` "
                                 "first; a unit he commands takes another commander with "
                                 "`/unit edit`.")
    check_one_general(tx, general)


def check_one_general(tx: BattleTx, general: Any) -> None:
    """One general with a unit: every rule set's procedures read one (its leader's die, its
    casualty check), and a second would be left out of them without a word."""
    if not general.unit_name or general.status != ACTIVE:
        return
    other = next((g for g in tx.general_rows()
                  if g is not general and g.status == ACTIVE and g.unit_name
                  and name_key(g.unit_name) == name_key(general.unit_name)), None)
    if other is not None:
        raise BattleError(f"{general.unit_name} already has {other.name} with it: one general "
                          "goes with a unit.",
                          hint=f"Move him off it first: `/gm general general:"
                               f"{option_value(other.name)} field:unit value:none`.")


def check_commander(tx: BattleTx, commander: str | None) -> str | None:
    """An existing general's name, or None for `none`."""
    if commander is None or commander.strip().casefold() in ("", "none"):
        return None
    return tx.general_row(commander).name


def check_side(side: str) -> str:
    """A well-formed side name (which sides the battle has is ``battle_side``'s business)."""
    side = " ".join(side.split())
    if not side or len(side) > MAX_SIDE:
        raise BattleError(f"A side is 1 to {MAX_SIDE} characters, e.g. British or French.")
    check_seen(side, "a side")
    return side


SIDE_SEPARATORS = ",;"


def read_sides(text: str) -> list[str]:
    """``British, French`` for `/battle start sides:`: exactly two different sides."""
    sides = [check_side(part) for part in re.split(f"[{SIDE_SEPARATORS}]", text)
             if part.strip()]
    if len(sides) != 2 or name_key(sides[0]) == name_key(sides[1]):
        given = f" (`sides` gave {len(sides)}: {', '.join(sides)})" if len(sides) > 2 else ""
        raise BattleError(f"A battle has two different sides{given}.",
                          hint="Name them separated by a comma, e.g. `sides:British, French`.")
    return sides


def battle_sides(tx: BattleTx) -> list[str]:
    """The battle's sides: fixed ones, else those its units and generals are on so far."""
    battle = tx.require_battle()
    if battle.sides:
        return list(battle.sides)
    seen: dict[str, str] = {}
    for row in (*tx.unit_rows(), *tx.general_rows()):
        seen.setdefault(name_key(row.side), row.side)
    return list(seen.values())


def battle_side(tx: BattleTx, side: str) -> str:
    """One of the battle's sides, in its own spelling, whatever the case typed.

    The first two sides typed become the battle's sides; a third is refused, with a
    "did you mean" for a near miss, so `Britsh` never starts a side of its own.
    """
    side = check_side(side)
    known = battle_sides(tx)
    for existing in known:
        if name_key(existing) == name_key(side):
            return existing
    if len(known) >= 2:
        raise BattleError(f"`{side}` is not a side in this battle.{did_you_mean(side, known)}",
                          hint=f"Its sides are {' and '.join(known)}: use one of them, or "
                               f"{RENAME_SIDE} puts a misspelt one right.")
    side = check_new_side(side)
    if known:
        battle = tx.require_battle()
        tx.touch(battle)  # undoing this command un-fixes the sides again
        battle.sides = [*known, side]
    return side


RENAME_SIDE = "`/battle side`"


def check_new_side(side: str) -> str:
    """A well-formed name for a side new to the battle: none of the marks that separate the
    two sides at `/battle start` (a side already in a battle keeps its name, whatever it
    holds)."""
    side = check_side(side)
    between = next((c for c in side if c in SIDE_SEPARATORS), None)
    if between is not None:
        raise BattleError(f"A side's name may not hold `{between}`: it separates the two "
                          "sides at `/battle start`.", hint="Name it without one, e.g. British.")
    return side


def did_you_mean(side: str, known: list[str]) -> str:
    lowered = {name_key(k): k for k in known}
    close = difflib.get_close_matches(name_key(side), list(lowered), n=1, cutoff=0.6)
    return f" Did you mean {lowered[close[0]]}?" if close else ""


MAX_GENERAL_VALUE = 9
"""The largest value (either sign) any option takes; each rule set says its own bounds."""
MAX_WOUNDS = 9
"""The most light wounds any option takes; each rule set says how many it allows."""


def general_value_bounds(tx: BattleTx, hint: str = "Leave `value` out.") -> tuple[int, int]:
    """The bounds of a general's value in the battle's rule set; refused where it counts
    none, with ``hint`` (the option to leave out, or the fields to pick from)."""
    if tx.rules.general_values is None:
        title = RULESETS[tx.require_battle().ruleset].title
        raise InvalidInput(f"{title} generals carry no value.", hint=hint)
    return tx.rules.general_values


def check_general_value(tx: BattleTx, value: int | None) -> None:
    """A general's value, within the bounds of the battle's rule set."""
    if value is None:
        return
    low, high = general_value_bounds(tx)
    if not low <= value <= high:
        raise InvalidInput(f"A general's value goes from {low} to {high} here.",
                           hint=f"Use {low} to {high}.")


def check_counts_wounds(rules: BattleRules, hint: str = "Leave `wounds` out.") -> None:
    """Refused where the battle's rule set counts no wounds on generals."""
    if rules.max_wounds == 0:
        raise InvalidInput("This rule set counts no wounds on generals.", hint=hint)


def wounds_bound(rules: BattleRules, status: str) -> int:
    """The light wounds a general may carry: as many as his rule set lets him carry and
    stay in play, and one more once out of it (Fire at Will: "a second light wound
    incapacitates")."""
    return rules.max_wounds + (1 if rules.max_wounds and status != "active" else 0)


def check_wounds(wounds: int, rules: BattleRules) -> None:
    """A general's light wounds, as many as the battle's rule set lets him carry."""
    if wounds <= rules.max_wounds:
        return
    check_counts_wounds(rules)
    raise InvalidInput(f"A general carries at most {rules.max_wounds} light "
                       f"{'wound' if rules.max_wounds == 1 else 'wounds'} and stays in play.",
                       hint=f"Use 0 to {rules.max_wounds}; a GM marks him out of play with "
                       "`/gm general field:status`.")


def check_new_strength(strength: int | None, label: str) -> None:
    """A new unit's strength: none at all is a unit not in the battle."""
    if strength == 0:
        raise InvalidInput(f"A unit starts with at least {strength_count(1, label)}.",
                           hint=f"Give its {label} now, e.g. `strength:4`.")


def no_strength_left(tx: BattleTx) -> str:
    """Why a unit with no strength is out of the battle: ``no SP left``."""
    return f"no {tx.rules.strength_label} left"


def out_of_strength(tx: BattleTx, row: Any) -> None:
    """A unit an edit leaves with no strength leaves the battle, as play takes it out."""
    if row.strength == 0 and row.status != GONE:
        row.status, row.gone_reason = GONE, no_strength_left(tx)
        tx.unit_renamed_or_gone(row.name, None, generals=False)
