"""Reading La Bataille stacks from the text notation and from JSON (one list of fields, one
reader)."""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from typing import Any

from rules.core.errors import InvalidInput
from rules.core.fields import Field, FieldSet
from rules.core.notation import possessive
from rules.core.unit_input import UnitReader
from rules.labataille.published import RECALL_THRESHOLDS
from rules.labataille.units import (
    HUZZAH_NATIONS,
    MAX_INCREMENTS,
    MAX_LEADER,
    MAX_MODIFIER,
    MAX_MP,
    MAX_VALUE,
    MAX_ZOC,
    Arm,
    ChargeMarker,
    Fatigue,
    Formation,
    Order,
    Stack,
)

NAME = Field("name", str, "the stack's name")

# What a stack is: the roster keeps these.
DESCRIPTION: tuple[Field, ...] = (
    Field("arm", Arm, "the stack's arm", words={
        "inf": Arm.INFANTRY, "art": Arm.ARTILLERY, "arty": Arm.ARTILLERY,
        "cav": Arm.CAVALRY}),
    Field("morale", int, "printed morale, a d66 value (11 to 66): a check passes above it",
          minimum=11, maximum=66),
    Field("melee", float, "mêlée value of the stack (needed where the odds are read)",
          minimum=0, maximum=MAX_VALUE),
    Field("fire", int, "fire value (left out or 0: it does not fire)", minimum=0,
          maximum=MAX_VALUE),
    Field("defence", int, "fire-defence value it is fired on with", aliases=("defense",),
          minimum=1, maximum=MAX_VALUE),
    Field("formation", Formation, "its formation (general: General Order)",
          # "line (formed up)": what a Form Up wrote before it wrote plain `line`; battles
          # and backups may still hold it.
          words={"carre": Formation.SQUARE, "carré": Formation.SQUARE,
                 "line (formed up)": Formation.LINE}),
    Field("state", Order, "its order",
          words={"disorder": Order.DISORDERED, "rout": Order.ROUTED}),
    Field("nation", str, "nationality (`british` and `kgl` may Huzzah)"),
    Field("leader_value", int, "the stacked leader's value (a dice modifier; a roster "
          "general's own wins)",
          aliases=("lv",), minimum=-MAX_LEADER, maximum=MAX_LEADER),
    Field("mp", int, "printed Movement Potential (cavalry: pursuit losses)", minimum=1,
          maximum=MAX_MP),
    Field("light", bool, "light cavalry (may attempt to Recall at any time)"),
    Field("fatigue", Fatigue, "cavalry's fatigue after a charge"),
    Field("charge", ChargeMarker, "its Charge marker (charged: inverted)"),
)

# What belongs to this one assault.
SITUATION: tuple[Field, ...] = (
    Field("mod", int, "morale check modifiers from your charts, in d66 steps",
          minimum=-MAX_MODIFIER, maximum=MAX_MODIFIER),
    Field("distance", int, "hexes from the target when the assault was declared",
          minimum=0, maximum=20),
    Field("locked", bool, "already locked in this firefight (no distance modifier)"),
    Field("retreats", bool, "eligible to Retreat Before Assault, and does"),
    Field("unsupplied", bool, "artillery without ammunition"),
    Field("covered", bool, "stacked with infantry or supplied artillery"),
    Field("canister", bool, "defending artillery able to fire canister"),
    Field("zoc", int, "enemy Zones of Influence it would rout through", minimum=0,
          maximum=MAX_ZOC),
    Field("at", str, "the enemy stack it fires at (default: the first)"),
    Field("recall", int, "the Recall threshold on 1d6 (default: its nation's)", minimum=1,
          maximum=7),
)

# A quick lookup's stack also says its increments and its leader (in a battle, its
# strength and the general with it).
INCREMENTS = Field("increments", int, "its strength, needed where fire or a pursuit may cost some",
                   aliases=("inc",), minimum=1,
                   maximum=MAX_INCREMENTS)
QUICK: tuple[Field, ...] = (
    INCREMENTS,
    Field("leader", str, "the stacked leader's name"),
)

STACK = FieldSet((*DESCRIPTION, *QUICK, *SITUATION))
STACK_JSON = FieldSet((NAME, *DESCRIPTION, *QUICK, *SITUATION))
ROSTER_FIELDS = FieldSet(DESCRIPTION)
SITUATION_FIELDS = FieldSet(SITUATION)


def build_stack(name: str, values: Mapping[str, Any], where: str) -> Stack:
    if "morale" not in values:
        raise InvalidInput(f"{where}: give {possessive(name)} morale (`morale=34`).",
                           hint="Its printed morale, a d66 value from 11 to 66.")
    morale = values["morale"]
    if morale % 10 not in range(1, 7):
        raise InvalidInput(f"{where}: morale {morale} is not a d66 value.",
                           hint="Each digit is 1 to 6, like 34 or 45.")
    check_nation(str(values.get("nation", "")), where)
    if values.get("canister") and values.get("unsupplied"):
        # "Assuming facing and ammunition allow ... canister": the two words contradict.
        raise InvalidInput(f"{where}: {name} is `unsupplied` (no ammunition), so it fires no "
                           "`canister`.", hint="Drop one of the two words.")
    if values.get("canister") and values.get("arm", Arm.INFANTRY) is not Arm.ARTILLERY:
        # "Defending stacks containing artillery": the shift would be silently lost.
        raise InvalidInput(f"{where}: {name} is not artillery, so it fires no `canister`.",
                           hint="Give the stack that holds the guns the word `artillery`, "
                                "or drop `canister`.")
    leader = values.get("leader")
    if values.get("leader_value") and not leader:
        leader = "its leader"
    fields = {k: v for k, v in values.items()
              if k not in ("name", "leader") and k in Stack.__dataclass_fields__}
    if fields.get("fire") == 0:  # a fire value of 0 fires nothing, as one left out does
        fields["fire"] = None
    return Stack(name=name, leader=leader, **fields)


def check_nation(nation: str, where: str) -> None:
    """Any nation goes (a game has its own), but a near miss of one the rules give
    something to (the Huzzah, a Recall threshold) is a slip that would quietly change what
    the stack may do."""
    known = sorted({*HUZZAH_NATIONS, *RECALL_THRESHOLDS})
    typed = nation.casefold()
    if not typed or typed in known:
        return
    # A ratio misses a slip in a short name (`klg`): there, one letter off or two swapped.
    close = [k for k in known if len(k) <= 4 and _one_slip(typed, k)] or \
        difflib.get_close_matches(typed, known, n=1, cutoff=0.8)
    if close:
        raise InvalidInput(f"{where}: nation `{nation}`: did you mean `{close[0]}`?",
                           hint=f"The rules name {', '.join(known)}; any other nation goes.")


def _one_slip(typed: str, known: str) -> bool:
    """One letter wrong, missing or extra, or two neighbours swapped."""
    if abs(len(typed) - len(known)) > 1:
        return False
    if len(typed) == len(known):
        wrong = [i for i, (a, b) in enumerate(zip(typed, known, strict=True)) if a != b]
        return len(wrong) == 1 or (len(wrong) == 2 and wrong[1] == wrong[0] + 1
                                   and typed[wrong[0]] == known[wrong[1]]
                                   and typed[wrong[1]] == known[wrong[0]])
    short, long = sorted((typed, known), key=len)
    return any(long[:i] + long[i + 1:] == short for i in range(len(long)))


# A quick lookup's stacks, written (`52nd: infantry morale=41`) or as JSON objects.
STACKS = UnitReader(STACK, STACK_JSON, build_stack, noun="stack")
