"""The unit notation's quoting, and slips in it that deserve their own message.

Players write units as ``Name: words``, several separated by ``;``. Double quotes group
text (``general="Sir John"``); an apostrophe is a letter of a name (``Fraser's``), never a
quote. The usual slips are a name without its colon (``Hussars cav``), units run together
with a comma (``A: inf, B: cav``) and commas between words (``inf, charging``). Read as
plain unknown words they would earn a misleading "did you mean"; these helpers name the
slip and show the right form.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

from rules.core.errors import InvalidInput, echo
from rules.core.headlines import listed
from rules.core.roster import Roster, RosterUnit, name_key

UNIT_FORM = "`Name: words`"
LIST_FORM = "`Name: words; Name: words`"
FORM_HINT = (
    f"Write each unit as {UNIT_FORM}; where an option takes several, separate them with "
    f"`;`: {LIST_FORM}."
)
ONE_UNIT_HINT = f"This option takes one unit, written {UNIT_FORM}: give each unit its own."

QUOTE = '"'
# A phone's curly double quotes (“ ” and „) are double quotes wherever quotes group text.
CURLY_QUOTES = str.maketrans({"“": QUOTE, "”": QUOTE, "„": QUOTE})
def quoting_rule(words: str = "inf") -> str:
    """The quoting rule, its units described by ``words``: a rule set's topic gives its own
    (Tricorne has no `inf`)."""
    return (
        f"An apostrophe is part of a name: `Fraser's Highlanders: {words}`, and `Lochiel’s` "
        "typed on a phone finds `Lochiel's`. Double quotes (a phone's “ ” too), and only "
        "they, group text: a value with "
        "spaces (`general=\"Sir John\"`), or in a quick lookup a name holding `:` or `;` "
        f"(`\"Regiment: 1st Bn\": {words}`); a battle's unit names hold neither."
    )


QUOTING_RULE = quoting_rule()
"""The quoting rule, as the README gives it."""

MAX_NAME_LENGTH = 64

# A comma (or |, &, /, "and") just before another ``Name:``: where a `;` belongs. A name is
# at most MAX_NAME_LENGTH characters, so the look for its colon goes no further: the work
# stays in proportion to the text however many separators it holds.
_WRONG_SEPARATOR = re.compile(
    rf"\s*(?:[,|&/]|\band\b)\s*(?=[^,|&/:;=\"]{{1,{MAX_NAME_LENGTH}}}:)")


def possessive(name: str) -> str:
    """``Hussars'``, ``2nd Foot's``: many unit names end in s; a name that reads as a
    possessive already (``Barrell's``) is left as it is."""
    if name.endswith(("'s", "’s")):
        return name
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def doing(names: Sequence[str], one: str, many: str) -> str:
    """The names and the verb that agrees with them: ``52nd advances``, ``52nd and 71st
    advance``, ``52nd, 71st and 95th advance`` (``one`` and ``many`` are the verb's two
    forms)."""
    return f"{listed(names)} {one if len(names) == 1 else many}"


def outside_quotes(text: str, chars: str) -> list[int]:
    """Where ``chars`` occur in ``text`` outside double quotes."""
    found = []
    quoted = False
    for match in re.finditer(f"[{re.escape(QUOTE + chars)}]", text):
        if match.group() == QUOTE:
            quoted = not quoted
        elif not quoted:
            found.append(match.start())
    return found


def unquoted(text: str) -> str:
    """Text without its spaces around and the double quotes around it, if it has both:
    ``"Regiment: 1st Bn"`` names the regiment ``Regiment: 1st Bn``."""
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] == QUOTE and QUOTE not in text[1:-1]:
        return text[1:-1].strip()
    return text


def split_name(text: str) -> tuple[str | None, str]:
    """``Name: words`` as (name, words); (None, text) when there is no name.

    Only a colon outside double quotes ends a name, and a name holds no ``=`` or quote
    unless it is quoted whole, so ``inf general="Sir John: the elder"`` has no name and
    ``"Regiment: 1st Bn": inf`` is the regiment's.
    """
    text = text.translate(CURLY_QUOTES)
    if QUOTE not in text:  # nearly always: the first colon ends the name
        index = text.find(":")
        if index < 0:
            return None, text
        name = text[:index].strip()
        return (None, text) if "=" in name else (name or None, text[index + 1:])
    return _split_name_outside_quotes(text)


def _split_name_outside_quotes(text: str) -> tuple[str | None, str]:
    """``split_name`` for any text: a colon inside double quotes is not the end of a name."""
    colons = outside_quotes(text, ":")
    if not colons:
        return None, text
    typed = text[:colons[0]].strip()
    name = unquoted(typed)
    if name == typed and ("=" in name or QUOTE in name):
        return None, text
    return name or None, text[colons[0] + 1:]


def second_unit(text: str, token: str, where: str, *, several: bool = True) -> InvalidInput:
    """Two units run together in one: ``A: inf charging, B: inf open``."""
    return InvalidInput(
        f"{where}: `{echo(text)}` holds more than one unit "
        f"(`{echo(_second_name(text, token))}` starts another).",
        hint=_list_hint(text, _WRONG_SEPARATOR.sub("; ", " ".join(text.split())), several),
    )


def _second_name(text: str, token: str) -> str:
    """The second unit's whole name, where a comma (or the like) shows where it begins:
    `Black Watch:`, not the `Watch:` its colon is typed on; else the word with the colon."""
    stem = token.partition(":")[0]
    for part in _WRONG_SEPARATOR.split(" ".join(text.split()))[1:]:
        name, colon, _ = part.partition(":")
        if colon and name.endswith(stem):
            return f"{name}:"
    return token


def _list_hint(text: str, suggestion: str, several: bool) -> str:
    if not several:
        return ONE_UNIT_HINT
    if suggestion == " ".join(text.split()):
        return FORM_HINT
    return f"{FORM_HINT} Here: `{echo(suggestion)}`."


class NameWithoutColon(InvalidInput):
    """A unit written without the colon after its name; ``words``: the unit words after the
    name, empty where the text holds none (`no`: an answer, perhaps, not a unit)."""

    def __init__(self, message: str, *, hint: str | None = None, words: str = "") -> None:
        super().__init__(message, hint=hint)
        self.words = words


def missing_colon(name_words: Sequence[str], rest: str, where: str) -> InvalidInput:
    """Words that are no unit word, before ones that are: a name without its colon."""
    name = " ".join(name_words)
    return NameWithoutColon(
        f"{where}: `{echo(name)}` reads as the unit's name without its colon: write "
        f"`{echo(name)}: {echo(rest) or 'words'}`.",
        hint=FORM_HINT, words=rest,
    )


def comma_between_words(token: str, where: str) -> InvalidInput:
    return InvalidInput(
        f"{where}: separate words with spaces, not commas (`{echo(token)}`).",
        hint=FORM_HINT,
    )


ROSTER_GIVES = ("The battle's roster gives the unit's words (`/unit edit` changes them); a "
                "fight's situation goes in the command's own options, where it has them.")


def roster_entry(text: str, roster: Roster, where: str, *, several: bool = True,
                 words: bool = True, described: Vocabulary | None = None
                 ) -> tuple[RosterUnit, str]:
    """``2nd Foot: charging front`` in a battle: the roster unit, then this fight's words.

    A name without its colon (``2nd Foot charging``) and a second unit run into the words
    (``2nd Foot: charging, Rangers: flank``) are refused with the right form. ``several``
    says whether the option takes a list of units, ``words`` whether words may follow a name:
    where none may, one is refused (it would be lost), as a word that ``described`` knows
    the unit by if it is one (the roster says that).
    """
    name, rest = split_name(text)
    if name is None:
        return _unit_without_colon(text, roster, where, several, words), ""
    if split_name(rest)[0] is not None:
        token = next(t for t in rest.split() if ":" in t)
        raise second_unit(text, token, where, several=several)
    unit = roster.unit(name)
    if not words and rest.split():  # the roster says it all: a word here would be lost
        word = rest.split()[0]
        if described is not None:
            refuse_roster_word(word, unit.name, where, described)
        raise InvalidInput(f"{where}: nothing goes after {possessive(unit.name)} name here "
                           f"(`{echo(word)}`).", hint=ROSTER_GIVES)
    return unit, rest


def _unit_without_colon(text: str, roster: Roster, where: str, several: bool,
                        words: bool) -> RosterUnit:
    """The roster unit ``text`` names whole; a roster name that starts it, followed by
    more, is refused with the right form. Only prefixes that could be a roster name are
    tried (no more words than its longest, and one more for a separator after it), each
    looked up in a set: the work grows with the text, not with the text times the roster."""
    split = text.split()
    keys = {name_key(u.name) for u in roster.units}
    longest = max((len(key.split()) for key in keys), default=0)
    for count in range(min(len(split) - 1, longest + 1), 0, -1):
        prefix = " ".join(split[:count])
        bare = prefix.rstrip(",|&/")
        if name_key(bare) in keys:
            raise _after_name(text, bare, " ".join(split[count:]), where,
                              several=several, words=words, separated=bare != prefix)
    return roster.unit(unquoted(text))


def _after_name(text: str, name: str, rest: str, where: str, *, several: bool, words: bool,
                separated: bool) -> InvalidInput:
    """A roster name followed, without a colon, by more: another unit or the fight's words."""
    if separated:  # ``2nd Foot, Rangers``: two units, the wrong separator
        return InvalidInput(f"{where}: `{echo(text)}` holds more than one unit.",
                            hint=_list_hint(text, f"{name}; {rest}", several))
    if not words:
        return InvalidInput(f"{where}: nothing goes after {possessive(name)} name here "
                            f"(`{echo(rest)}`).",
                            hint="Give the situation with the command's own options.")
    return InvalidInput(
        f"{where}: put a colon after the unit's name: `{echo(name)}: {echo(rest)}`.",
        hint=FORM_HINT if several else ONE_UNIT_HINT,
    )


class Vocabulary(Protocol):
    """The words a unit or a fight may be described with: a ``rules.core.fields.FieldSet``,
    which reads the notation these helpers check."""

    def knows(self, token: str) -> bool: ...


# The words a quick lookup names a unit's general or leader by (``general="Wolfe"``, each
# rule set's ``BattleRules.general_words``): in a battle he is one of its generals, put with
# a unit by `/general add … unit:` or `/gm general`, which `/unit edit` refuses to do.
GENERAL_WORDS = ("general", "leader")


def refuse_roster_word(word: str, unit: str, where: str, described: Vocabulary,
                       allowed: Vocabulary | None = None, what: str = "unit") -> None:
    """A word after a roster name that describes the unit itself (its class, its morale):
    the roster says that, so the word is refused with where to change it. ``allowed`` are
    this fight's words, which may share a spelling with the unit's own."""
    if not described.knows(word) or (allowed is not None and allowed.knows(word)):
        return
    key, _, value = word.partition("=")
    if key.casefold() in GENERAL_WORDS:
        general = option_value(value.strip().strip('"')) if value.strip().strip('"') else "…"
        raise InvalidInput(
            f"{where}: `{echo(word)}` names {possessive(unit)} {key.casefold()}, and in a "
            "battle that is one of its generals.",
            hint=f"Put him with it: `/general add name:{general} side:… "
                 f"unit:{option_value(unit)}`, or for one already in the battle a GM's "
                 f"`/gm general general:{general} field:unit value:{option_value(unit)}`; "
                 "or drop the word.")
    raise InvalidInput(
        f"{where}: `{word}` describes the {what} itself, and in a battle the roster says what "
        f"{unit} is.",
        hint=f"Change it with `/unit edit unit:{option_value(unit)}`, or drop the word.")


def option_value(text: str) -> str:
    """A slash command option's value as a hint writes it to be typed: quoted when it holds
    a space (``unit:"2e Cuirassiers"``), as the console and the examples take it."""
    return f'"{text}"' if " " in text else text


def counted(count: int, one: str, many: str | None = None) -> str:
    """``1 figure``, ``3 figures``, ``2 casualties``."""
    return f"{count} {one if count == 1 else (many or one + 's')}"


def measured(value: float) -> str:
    """A distance as a reply says it: short (``4.5``, ``3``), but never rounded onto a limit
    it is refused for passing (``4.0000001``, not ``4``)."""
    short = f"{value:g}"
    return short if float(short) == value else repr(value)
