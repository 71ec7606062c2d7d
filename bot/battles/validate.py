"""Checks on names, sides and commanders shared by the roster and GM commands."""

from __future__ import annotations

from bot.battles.errors import BattleError
from bot.battles.store import BattleTx
from rules.core.roster import name_key

MAX_SIDE = 32
MAX_NAME = 64


async def check_new_name(tx: BattleTx, name: str) -> str:
    """A free name for a new unit or general (names are unique, ignoring case and spacing)."""
    name = " ".join(name.split())
    if not name or len(name) > MAX_NAME or ";" in name or ":" in name:
        raise BattleError(f"`{name}` cannot be a name.",
                          hint=f"Use 1 to {MAX_NAME} characters, without ; or :.")
    taken = {u.name_key for u in await tx.unit_rows()}
    taken |= {g.name_key for g in await tx.general_rows()}
    if name_key(name) in taken:
        raise BattleError(f"There is already a unit or general called {name} in this battle.",
                          hint="Pick another name, or edit the existing one.")
    return name


async def check_commander(tx: BattleTx, commander: str | None) -> str | None:
    """An existing general's name, or None for `none`."""
    if commander is None or commander.strip().casefold() in ("", "none"):
        return None
    return (await tx.general_row(commander)).name


def check_side(side: str) -> str:
    side = " ".join(side.split())
    if not side or len(side) > MAX_SIDE:
        raise BattleError(f"A side is 1 to {MAX_SIDE} characters, e.g. British or French.")
    return side
