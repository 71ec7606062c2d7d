"""The facts the Tricorne text relies on but does not print, as a battle's settings.

The die's faces, the rally check and the leader casualty check are NOT FOUND in the text or
in public sources (../shared/reference/tricorne.md). Each is a setting with a project
default; docs/tricorne.md gives each default's reason, and a reply says in its footer when
a default decided its outcome. Dice a table types in are read as typed, whatever the faces.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from rules.core.dice import BATTLE_DIE_FACES, SYMBOL_ALIASES, Symbol
from rules.core.errors import InvalidInput
from rules.core.fields import Field, FieldSet, said_at
from rules.core.notation import counted, listed

DEFAULT_DIE = "inf inf cav art saber flag"


class RallyDice(StrEnum):
    """How many dice a rally check rolls before the unit's own modifiers."""

    BLOCKS = "blocks"  # one per block left
    ONE = "1"
    TWO = "2"
    THREE = "3"


class RallySuccess(StrEnum):
    """Which faces rally a unit: one is enough."""

    UNIT_OR_SABER = "unit-or-saber"  # its own arm's symbol or a saber
    SABER = "saber"
    UNIT = "unit"  # its own arm's symbol
    NOT_FLAG = "not-flag"  # anything but a flag


class FailedRally(StrEnum):
    ROUT = "rout"  # leaves the field: removed, a Victory Banner to the other side
    LOSE_BLOCK = "lose-block"


@dataclass(frozen=True)
class Settings:
    die: tuple[Symbol, ...] = BATTLE_DIE_FACES
    rally_dice: RallyDice = RallyDice.BLOCKS
    rally_leader: int = 1  # dice an attached leader adds to a rally check
    rally_success: RallySuccess = RallySuccess.UNIT_OR_SABER
    failed_rally: FailedRally = FailedRally.ROUT
    leader_dice: int = 2  # dice of a leader casualty check while the unit stands
    leader_sabers: int = 2  # sabers among them that kill the leader

    def rally_default(self) -> str | None:
        """The footer's words when the rally check ran on project defaults."""
        fixed = Settings()
        if (self.rally_dice, self.rally_leader, self.rally_success) == (
                fixed.rally_dice, fixed.rally_leader, fixed.rally_success):
            return ("rally check: 1 die per block left, +1 with a leader; its own unit "
                    "symbol or a saber rallies")
        return None

    def failed_rally_default(self) -> str | None:
        if self.failed_rally is FailedRally.ROUT:
            return "a failed rally check routs the unit off the field"
        return None

    def leader_default(self) -> str | None:
        if (self.leader_dice, self.leader_sabers) == (2, 2):
            return ("leader casualty check: 2 dice, 2 sabers kill; 1 die, a saber kills, "
                    "when the unit is eliminated; a saber kills a lone leader")
        return None


def read_die(text: Any, where: str = "die") -> tuple[Symbol, ...]:
    """A die's faces as a table writes them: ``inf inf cav art saber flag``."""
    if isinstance(text, list | tuple):
        words = [str(w) for w in text]
    elif isinstance(text, str):
        words = text.replace(",", " ").split()
    else:
        raise InvalidInput(f"{where}: list the die's faces, like `{DEFAULT_DIE}`.")
    faces = []
    for word in words:
        symbol = SYMBOL_ALIASES.get(word.lower())
        if symbol is None:
            raise InvalidInput(f"{where}: `{word[:16]}` is not a battle-die face.",
                               hint=f"Faces are inf, cav, art, saber and flag, like "
                                    f"`{DEFAULT_DIE}`.")
        faces.append(symbol)
    if not 2 <= len(faces) <= 12:
        raise InvalidInput(f"{where}: a die has 2 to 12 faces, not {len(faces)}.",
                           hint=f"Like `{DEFAULT_DIE}`.")
    return tuple(faces)


def check_settings(values: Mapping[str, Any] | None,
                   before: Mapping[str, Any] | None = None, where: str = "settings"
                   ) -> Settings:
    """Settings as ``settings_from`` reads them; where a GM sets a new die (``before``: the
    battle's settings until now), a die with every symbol. The text reads each (a unit's
    symbol hits it, a saber hits any, a flag may retreat it, a leader's check is read on
    sabers): a die without one leaves a rule dead. A die set before that was required, in
    a battle or its backup, is read as it was set. ``where`` is blank for one setting a GM
    gives: each message then names the setting alone."""
    settings = settings_from(values, where)
    new_die = before is not None and (values or {}).get("die") != before.get("die")
    missing = [symbol.value for symbol in Symbol if symbol not in settings.die]
    if new_die and missing:
        raise InvalidInput(f"{said_at(where, 'die')}: a battle die shows every symbol the rules "
                           f"read; this one has no {listed(missing, 'or')}.",
                           hint=f"Like `{DEFAULT_DIE}`.")
    return settings


SETTINGS = FieldSet((
    Field("die", str, f"the battle die's faces (default `{DEFAULT_DIE}`: the Commands & "
          "Colors die; the Tricorne breakdown is not published)"),
    Field("rally_dice", RallyDice, "rally check dice before modifiers: `blocks` (default, one "
          "per block left, as players report) or a fixed 1, 2 or 3"),
    Field("rally_leader", int, "dice an attached leader adds to a rally check (default 1)",
          minimum=0, maximum=3),
    Field("rally_success", RallySuccess, "faces that rally a unit: `unit-or-saber` (default, "
          "the faces that would hit its own kind), `saber`, `unit` or `not-flag`"),
    Field("failed_rally", FailedRally, "what a failed rally check does: `rout` (default, "
          "leaves the field, as play reports say) or `lose-block`"),
    Field("leader_dice", int, "dice of a leader casualty check (default 2)",
          minimum=1, maximum=6),
    Field("leader_sabers", int, "sabers among them that kill the leader (default 2)",
          minimum=1, maximum=6),
))


def settings_from(values: Mapping[str, Any] | None, where: str = "settings") -> Settings:
    """Settings from a battle's stored values or a request's ``settings`` object."""
    read = SETTINGS.read_json(dict(values or {}), where or "settings")
    if "die" in read:
        read["die"] = read_die(read["die"], said_at(where, "die"))
    dice, sabers = read.get("leader_dice", 2), read.get("leader_sabers", 2)
    if sabers > dice:
        said = f"a leader check of {counted(dice, 'die', 'dice')} cannot need " \
            f"{counted(sabers, 'saber')}."
        raise InvalidInput(f"{where}: {said}" if where else f"A{said[1:]}",
                           hint="Set `leader_sabers` to at most `leader_dice` (set "
                                "`leader_sabers` first to lower both).")
    return Settings(**read)
