"""A battle's life: started in a channel, stepped through its phases and turns, ended. Each
runs inside the command's transaction and is one event; the cogs get plain records back."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.battles.decisions import Pending, battle_questions, pending_of
from bot.battles.errors import BattleError
from bot.battles.store import BattleTx
from bot.battles.validate import check_battle_name, read_sides
from bot.battles.views import BattleRecord, record
from bot.storage.models import Battle, utcnow
from bot.storage.question_messages import forget_battle_messages
from rules.core.errors import InvalidInput
from rules.core.fields import Field
from rules.core.names import name_key
from rules.core.roster import describe_changes
from rules.registry import RULESETS


def start_battle(tx: BattleTx, ruleset: str, name: str, sides: str | None,
                       channel_id: int, guild_id: int | None, created_by: int) -> BattleRecord:
    """A new battle in the channel (none may be going on there); the battle as a record."""
    if tx.battle is not None:
        raise BattleError(
            f"This channel already has a battle: {tx.battle.name}.",
            hint="End it with `/battle end` first, or start one in another channel.",
        )
    rules = RULESETS[ruleset].battle
    assert rules is not None
    phases = rules.phases
    battle = tx.add(Battle(channel_id=channel_id, guild_id=guild_id, ruleset=ruleset,
                           name=check_battle_name(name), created_by=created_by,
                           sides=read_sides(sides) if sides is not None else None,
                           phase=phases[0] if phases else None, settings={}, dice_queue=[],
                           turn=1, last_seq=0, status="active"))
    tx.battle = battle
    tx.record("battle_start",
                    f"Battle started: {battle.name} ({RULESETS[ruleset].title})")
    return record(BattleRecord, battle)


def battle_for_gm(tx: BattleTx, what: str) -> BattleRecord:
    """The channel's battle, for a GM about to ``what``."""
    return record(BattleRecord, tx.require_gm(what))


@dataclass(frozen=True)
class Ended:
    battle: BattleRecord  # as it now stands
    dropped: Pending | None  # the question that waited, dropped with the battle


def end_battle(tx: BattleTx, *, confirm: str | None = None,
                     battle_id: int | None = None) -> Ended:
    """End the battle (typed confirmation by its name, or a button for this very battle)."""
    battle = tx.require_gm("end the battle")
    if battle_id is not None and battle.id != battle_id:
        raise BattleError("That battle has already ended.",
                          hint="`/battle show` shows the one in play now.")
    if confirm is not None and name_key(confirm) != name_key(battle.name):
        raise BattleError(
            f"To end {battle.name}, confirm with its name.",
            hint=f"Run `/battle end confirm:{battle.name}`, or `/battle end` for a "
            "button. Its log stays available to `/battle export`.",
        )
    dropped = pending_of(battle)
    tx.touch(battle)
    battle.status = "ended"
    battle.ended_at = utcnow()
    battle.pending = None  # a question waiting moves nothing now: nor does its backup ask it
    tx.record("battle_end", f"Battle ended: {battle.name}")
    forget_battle_messages(tx.conn, battle_questions(battle.id))  # none can be answered now
    return Ended(record(BattleRecord, battle), dropped)


@dataclass(frozen=True)
class Stepped:
    battle: BattleRecord  # as it now stands
    reminders: list[str]  # what the new phase must not forget
    changes: list[str]  # what a new turn did by itself (a halt ends)


def next_phase(tx: BattleTx, turn_text: Any) -> Stepped:
    """On to the next phase, or the next turn; ``turn_text`` words the log's line."""
    battle = tx.require_gm("move the battle on to the next phase or turn")
    rules = tx.rules
    phases = rules.phases
    tx.touch(battle)
    changes: list[str] = []
    if phases and battle.phase in phases and battle.phase != phases[-1]:
        battle.phase = phases[phases.index(battle.phase) + 1]
    else:
        battle.turn += 1
        battle.phase = phases[0] if phases else None
        if rules.new_turn is not None:
            after, diff = rules.new_turn(tx.roster())
            tx.write_roster(after)
            changes = describe_changes(diff, rules.wording)
    roster = tx.roster()
    tx.record("turn", f"Now {turn_text(battle)}")
    reminders = rules.reminders(roster, battle.phase) if rules.reminders else []
    return Stepped(record(BattleRecord, battle), reminders, changes)


def convert_setting(spec: Field, value: str) -> Any:
    """One setting's value as a GM types it; a refusal names the setting once, and a number
    out of range is told the values it takes, not just the bound it crossed."""
    try:
        return spec.convert(value, "")
    except InvalidInput as error:
        if spec.kind is not int or spec.minimum is None or spec.maximum is None:
            raise
        raise InvalidInput(error.message, hint=f"Give a whole number from {spec.minimum} to "
                           f"{spec.maximum}, or `default`.") from None


def set_setting(tx: BattleTx, name: str, value: str) -> tuple[str, int]:
    """Set (or, with ``default``, clear) one of the rule set's battle settings; what it now
    reads, and the event's number."""
    battle = tx.require_gm("change the battle's settings")
    fields = tx.rules.settings
    wanted = name.strip().replace("-", "_").casefold()
    spec = next((f for f in fields.fields if f.name == wanted), None)
    if spec is None and not fields.fields:
        # "Its settings: none" read as a refusal of the name typed, not of the command.
        title = RULESETS[battle.ruleset].title if battle.ruleset in RULESETS else "This rule set"
        raise BattleError(f"{title} has no battle settings to change.",
                          hint="`/gm set` changes a unit's field by hand.")
    if spec is None:
        known = ", ".join(f"`{f.name}`" for f in fields.fields)
        raise BattleError(f"`{name}` is not a setting of this battle's rule set.",
                          hint=f"Its settings: {known}.")
    if not value.strip():
        # Echoed back, a blank value would be an empty code span that Discord shows as ``.
        raise BattleError("`value` is empty.",
                          hint=f"Give `{spec.name}` one of its values, or `default`; "
                               f"`/help topic:{battle.ruleset} part:settings` lists them.")
    settings = dict(battle.settings or {})
    if value.strip().casefold() == "default":
        settings.pop(spec.name, None)
        said = f"{spec.name} back to its default"
    else:
        converted = convert_setting(spec, value.strip())
        settings[spec.name] = getattr(converted, "value", converted)
        said = f"{spec.name} = {settings[spec.name]}"
    if settings == dict(battle.settings or {}):
        now = settings.get(spec.name, "its default")
        raise BattleError(f"`{spec.name}` is already {now}.",
                          hint="`/battle show` gives the battle's settings.")
    if tx.rules.check_settings is not None:
        # Values that only make sense together; what a new value must be, beside the old.
        # The one setting given is all the GM typed: the message names it alone, without
        # the `settings:` a backup's or a request's whole object is refused under.
        tx.rules.check_settings(settings, dict(battle.settings or {}), where="")
    tx.touch(battle)
    battle.settings = settings
    event = tx.record("setting", f"GM set {said}")
    return said, event.seq
