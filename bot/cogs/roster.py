"""/unit and /general: the battle's roster. Every change is an event, and can be undone."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.autocomplete import general_name_choices, suggestions, unit_name_choices
from bot.battles.errors import BattleError
from bot.battles.store import BattleStore, BattleTx, roster_general, roster_unit
from bot.battles.validate import (
    MAX_SIDE,
    MAX_WOUNDS,
    battle_side,
    check_commander,
    check_new_name,
    check_wounds,
)
from bot.cogs.battle import server_group
from bot.render.battle import attribute_words, battle_messages
from bot.respond import Reply, answer
from bot.storage.models import General, Unit
from rules.core.fields import Field, FieldSet
from rules.core.registry import BattleRules
from rules.core.roster import (
    MAX_STRENGTH,
    describe_changes,
    name_key,
    one_strength,
    strength_word,
    take_strength,
    unit_changes,
)
from rules.registry import RULESETS

UNIT_WORDS = ("Unit words, e.g. `inf regular morale=4`; strength as `sp=4` or `figures=12` "
              "(see /help topic)")
# One option for every rule set, so its description names each one's word for strength.
STRENGTH = "Strength, in the rule set's own unit: " + ", ".join(
    f"{r.battle.strength_label} ({r.title})" for r in RULESETS.values() if r.battle)


def done(text: str) -> Reply:
    return Reply(content=text[:2000])


def read_words(tx: BattleTx, words: str, strength: int | None, *,
               require_arm: bool) -> tuple[dict, int | None]:
    """Unit words and the strength, which may come as the option or among the words in the
    rule set's own word (`figures=12`, `sp=4`)."""
    label = tx.rules.strength_label
    rest, typed = take_strength(words, label, "words")
    attributes = tx.rules.read_attributes(rest, "words", require_arm=require_arm) \
        if rest or require_arm else {}
    return attributes, one_strength(strength, typed, label)


def words_with_strength(rules: BattleRules) -> FieldSet:
    """The roster words, and the rule set's word for strength, for autocomplete to offer."""
    label = rules.strength_label
    strength = Field(strength_word(label), int, f"strength in {label}", minimum=0,
                     maximum=MAX_STRENGTH)
    return FieldSet((*rules.unit_fields.fields, strength))


def sides_note(before: list[str] | None, after: list[str] | None) -> str:
    """Said once, when the command fixed the battle's two sides."""
    if before or not after:
        return ""
    return f" The battle's sides are now {after[0]} and {after[1]}."


class Roster(commands.Cog):
    unit = server_group("unit", "The battle's units")
    general = server_group("general", "The battle's generals")

    def __init__(self, store: BattleStore) -> None:
        self.store = store

    # --- units ----------------------------------------------------------------------------

    @unit.command(name="add", description="Add a unit to the battle")
    @app_commands.describe(side="Its side, e.g. British", name="The unit's name",
                           words=UNIT_WORDS, strength=STRENGTH,
                           commander="The general commanding it")
    async def add(self, interaction: discord.Interaction,
                  side: app_commands.Range[str, 1, MAX_SIDE],
                  name: app_commands.Range[str, 1, 64], words: str,
                  strength: app_commands.Range[int, 0, MAX_STRENGTH] | None = None,
                  commander: str | None = None) -> None:
        async def work() -> Reply:
            async with self.store.for_interaction(interaction, "/unit add") as tx:
                battle = tx.require_battle()
                sides = battle.sides
                unit_name = await check_new_name(tx, name)
                attributes, count = read_words(tx, words, strength, require_arm=True)
                row = Unit(battle_id=battle.id, name=unit_name, name_key=name_key(unit_name),
                           side=await battle_side(tx, side), strength=count, status="active",
                           attributes=attributes, commander=await check_commander(tx, commander),
                           added_by=interaction.user.id)
                tx.add(row)
                event = await tx.record("unit_add", f"Added {unit_name} ({row.side})")
                label = tx.rules.strength_label
            described = attribute_words(attributes)
            if count is not None:
                described.append(f"{count} {label}")
            return done(f"➕ {unit_name} joins the {row.side} side: {', '.join(described)} "
                        f"(event #{event.seq}).{sides_note(sides, battle.sides)}")

        await answer(interaction, work)

    @unit.command(name="edit", description="Change a unit: its words, strength, side, name")
    @app_commands.describe(unit="The unit", words="Words to set, e.g. `shaken morale=5`",
                           strength=STRENGTH, side="New side",
                           rename="New name", commander="New commander (`none` to clear)")
    async def edit(self, interaction: discord.Interaction, unit: str, words: str | None = None,
                   strength: app_commands.Range[int, 0, MAX_STRENGTH] | None = None,
                   side: str | None = None, rename: str | None = None,
                   commander: str | None = None) -> None:
        async def work() -> Reply:
            async with self.store.for_interaction(interaction, "/unit edit") as tx:
                row = await tx.unit_row(unit)
                tx.require_owner(row, "edit")
                before = roster_unit(row)
                tx.touch(row)
                new, count = read_words(tx, words or "", strength, require_arm=False)
                if new:
                    row.attributes = tx.rules.check_attributes({**row.attributes, **new},
                                                               row.name)
                if count is not None:
                    row.strength = count
                if side is not None:
                    row.side = await battle_side(tx, side)
                if commander is not None:
                    row.commander = await check_commander(tx, commander)
                if rename is not None:
                    old_name = row.name
                    row.name = await check_new_name(tx, rename)
                    row.name_key = name_key(row.name)
                    await tx.unit_renamed_or_gone(old_name, row.name)
                changes = describe_changes(unit_changes(before, roster_unit(row)),
                                           tx.rules.strength_label)
                if not changes:
                    raise BattleError(f"Nothing to change on {row.name}.",
                                      hint="Give words, strength, side, rename or commander.")
                event = await tx.record("unit_edit", "; ".join(changes))
            return done(f"✏️ {'; '.join(changes)} (event #{event.seq}).")

        await answer(interaction, work)

    @unit.command(name="remove", description="Remove a unit from the roster")
    @app_commands.describe(unit="The unit")
    async def remove(self, interaction: discord.Interaction, unit: str) -> None:
        async def work() -> Reply:
            async with self.store.for_interaction(interaction, "/unit remove") as tx:
                row = await tx.unit_row(unit, allow_gone=True)
                tx.require_owner(row, "remove")
                await tx.unit_renamed_or_gone(row.name, None)
                await tx.delete(row)
                event = await tx.record("unit_remove", f"Removed {row.name}")
            return done(f"➖ {row.name} removed from the roster (event #{event.seq}; a GM can "
                        "`/gm undo` it).")

        await answer(interaction, work)

    @unit.command(name="list", description="The battle's roster")
    async def list(self, interaction: discord.Interaction) -> None:
        view = await self.store.view(interaction.channel_id or 0)
        first, *_ = battle_messages(view.battle, view.units, view.generals,
                                     view.engagements)
        await interaction.response.send_message(embeds=first)

    @edit.autocomplete("unit")
    @remove.autocomplete("unit")
    async def _unit(self, interaction: discord.Interaction, current: str):
        return await unit_name_choices(self.store, interaction.channel_id, current)

    @add.autocomplete("words")
    @edit.autocomplete("words")
    async def _words(self, interaction: discord.Interaction, current: str):
        ruleset = await self.store.ruleset(interaction.channel_id or 0)
        rules = RULESETS[ruleset].battle if ruleset else None
        return suggestions(words_with_strength(rules), current) if rules else []

    # --- generals -------------------------------------------------------------------------

    @general.command(name="add", description="Add a general to the battle")
    @app_commands.describe(name="The general's name", side="His side",
                           unit="The unit he is with", wounds="Light wounds he already has")
    async def general_add(self, interaction: discord.Interaction,
                          name: app_commands.Range[str, 1, 64],
                          side: app_commands.Range[str, 1, MAX_SIDE],
                          unit: str | None = None,
                          wounds: app_commands.Range[int, 0, MAX_WOUNDS] = 0) -> None:
        async def work() -> Reply:
            async with self.store.for_interaction(interaction, "/general add") as tx:
                battle = tx.require_battle()
                check_wounds(wounds, tx.rules)
                sides = battle.sides
                general_name = await check_new_name(tx, name)
                with_unit = (await tx.unit_row(unit)).name if unit else None
                row = General(battle_id=battle.id, name=general_name,
                              name_key=name_key(general_name), side=await battle_side(tx, side),
                              unit_name=with_unit, wounds=wounds, status="active",
                              added_by=interaction.user.id)
                tx.add(row)
                event = await tx.record("general_add", f"Added general {general_name}")
            where = f" with {with_unit}" if with_unit else ""
            return done(f"🎖️ {general_name} ({row.side}) takes the field{where} "
                        f"(event #{event.seq}).{sides_note(sides, battle.sides)}")

        await answer(interaction, work)

    @general.command(name="remove", description="Remove a general")
    @app_commands.describe(name="The general")
    async def general_remove(self, interaction: discord.Interaction, name: str) -> None:
        async def work() -> Reply:
            async with self.store.for_interaction(interaction, "/general remove") as tx:
                row = await tx.general_row(name)
                tx.require_owner(row, "remove")
                before = roster_general(row)
                await tx.delete(row)
                event = await tx.record("general_remove", f"Removed general {before.name}")
            return done(f"➖ General {before.name} removed (event #{event.seq}).")

        await answer(interaction, work)

    @general_remove.autocomplete("name")
    @edit.autocomplete("commander")
    @add.autocomplete("commander")
    async def _general(self, interaction: discord.Interaction, current: str):
        return await general_name_choices(self.store, interaction.channel_id, current)

    @general_add.autocomplete("unit")
    async def _general_unit(self, interaction: discord.Interaction, current: str):
        return await unit_name_choices(self.store, interaction.channel_id, current)
