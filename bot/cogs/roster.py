"""/unit and /general: the battle's roster. Every change is an event, and can be undone."""

import discord
from discord import app_commands
from discord.ext import commands

from bot.autocomplete import (
    general_name_choices,
    side_choices,
    suggestions,
    unit_name_choices,
)
from bot.battles.roster_changes import (
    add_general,
    add_unit,
    edit_unit,
    remove_general,
    remove_unit,
)
from bot.battles.service import BattleStore
from bot.battles.validate import (
    MAX_GENERAL_VALUE,
    MAX_SIDE,
    MAX_WOUNDS,
)
from bot.cogs.battle import SIDE_HELP, server_group, shown_battle
from bot.render.resolution import escape
from bot.respond import Reply, answer
from rules.core.fields import Field, FieldSet
from rules.core.registry import BattleRules
from rules.core.roster import (
    MAX_STRENGTH,
    strength_count,
    strength_word,
)
from rules.registry import RULESETS

UNIT_WORDS = ("Unit words, e.g. `inf regular morale=4`; strength as `sp=4` or `figures=12` "
              "(see /help topic)")
# One option serves every rule set: its description stays the same, within Discord's 100
# characters however many rule sets there are, and autocomplete says the number in the word
# of the battle's rule set (`4 figures`, `4 SP`).
STRENGTH = "Strength, in the rule set's own word (offered as you type a number)"
STRENGTH_OFFERED = range(1, 13)  # offered before a number is typed


def strength_choices(rules: BattleRules | None, current: object
                     ) -> list[app_commands.Choice[int]]:
    """The number typed so far (or the small ones) in the battle's word for strength."""
    if rules is None:
        return []
    typed = str(current or "").strip()
    numbers = [int(typed)] if typed.isdigit() and int(typed) <= MAX_STRENGTH else (
        [] if typed else list(STRENGTH_OFFERED))
    return [app_commands.Choice(name=strength_count(n, rules.strength_label), value=n)
            for n in numbers]


def done(text: str) -> Reply:
    return Reply(content=text[:2000])


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
    return f" The battle's sides are now {escape(after[0])} and {escape(after[1])}."


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
        user = interaction.user.id

        async def work() -> Reply:
            added = await self.store.apply(
                interaction, "/unit add",
                lambda tx: add_unit(tx, side, name, words, strength, commander, user))
            return done(f"➕ {escape(added.name)} joins the {escape(added.side)} side: "
                        f"{escape(', '.join(added.words))} "
                        f"(event #{added.seq}).{sides_note(added.sides_before, added.sides_after)}")

        await answer(interaction, work)

    @unit.command(name="edit", description="Change a unit: its words, strength, side, name")
    @app_commands.describe(unit="The unit",
                           words="Words to set, as `/unit add` takes them (`/help` lists "
                                 "each rule set's)",
                           strength=STRENGTH, side="New side",
                           rename="New name", commander="New commander (`none` to clear)")
    async def edit(self, interaction: discord.Interaction, unit: str, words: str | None = None,
                   strength: app_commands.Range[int, 0, MAX_STRENGTH] | None = None,
                   side: str | None = None, rename: str | None = None,
                   commander: str | None = None) -> None:
        async def work() -> Reply:
            changes, seq = await self.store.apply(
                interaction, "/unit edit",
                lambda tx: edit_unit(tx, unit, words, strength, side, rename, commander))
            return done(f"✏️ {escape('; '.join(changes))} (event #{seq}).")

        await answer(interaction, work)

    @unit.command(name="remove", description="Remove a unit from the roster")
    @app_commands.describe(unit="The unit")
    async def remove(self, interaction: discord.Interaction, unit: str) -> None:
        async def work() -> Reply:
            name, seq, alone = await self.store.apply(
                interaction, "/unit remove", lambda tx: remove_unit(tx, unit))
            left = "".join(f" {escape(general)} is left alone, with no unit." for general in alone)
            return done(f"➖ {escape(name)} removed from the roster (event #{seq}; a GM can "
                        f"`/gm undo` it).{left}")

        await answer(interaction, work)

    @unit.command(name="list", description="The battle's roster")
    @app_commands.describe(side=SIDE_HELP)
    async def list(self, interaction: discord.Interaction,
                   side: app_commands.Range[str, 1, MAX_SIDE] | None = None) -> None:
        await answer(interaction, lambda: shown_battle(self.store, interaction, side,
                                                       values=True))

    @edit.autocomplete("unit")
    @remove.autocomplete("unit")
    async def _unit(self, interaction: discord.Interaction, current: str):
        return await unit_name_choices(self.store, interaction.channel_id, current)

    @add.autocomplete("side")
    @edit.autocomplete("side")
    @list.autocomplete("side")
    async def _side(self, interaction: discord.Interaction, current: str):
        return await side_choices(self.store, interaction.channel_id, current)

    @add.autocomplete("strength")
    @edit.autocomplete("strength")
    async def _strength(self, interaction: discord.Interaction, current: str):
        ruleset = await self.store.ruleset(interaction.channel_id or 0)
        return strength_choices(RULESETS[ruleset].battle if ruleset else None, current)

    @add.autocomplete("words")
    @edit.autocomplete("words")
    async def _words(self, interaction: discord.Interaction, current: str):
        ruleset = await self.store.ruleset(interaction.channel_id or 0)
        rules = RULESETS[ruleset].battle if ruleset else None
        return suggestions(words_with_strength(rules), current) if rules else []

    # --- generals -------------------------------------------------------------------------

    @general.command(name="add", description="Add a general to the battle")
    @app_commands.describe(name="The general's name", side="His side",
                           unit="The unit he is with", wounds="Light wounds he already has",
                           value="His value where the rule set counts one (La Bataille: the "
                                 "leader's dice modifier)")
    async def general_add(self, interaction: discord.Interaction,
                          name: app_commands.Range[str, 1, 64],
                          side: app_commands.Range[str, 1, MAX_SIDE],
                          unit: str | None = None,
                          wounds: app_commands.Range[int, 0, MAX_WOUNDS] = 0,
                          value: app_commands.Range[int, -MAX_GENERAL_VALUE,
                                                    MAX_GENERAL_VALUE] | None = None) -> None:
        user = interaction.user.id

        async def work() -> Reply:
            added = await self.store.apply(
                interaction, "/general add",
                lambda tx: add_general(tx, name, side, unit, wounds, user, value))
            where = f" with {escape(added.with_unit)}" if added.with_unit else ""
            where += f", value {added.value:+d}" if added.value is not None else ""
            return done(f"🎖️ {escape(added.name)} ({escape(added.side)}) takes the field{where} "
                        f"(event #{added.seq}).{sides_note(added.sides_before, added.sides_after)}")

        await answer(interaction, work)

    @general.command(name="remove", description="Remove a general")
    @app_commands.describe(name="The general")
    async def general_remove(self, interaction: discord.Interaction, name: str) -> None:
        async def work() -> Reply:
            general, seq = await self.store.apply(
                interaction, "/general remove", lambda tx: remove_general(tx, name))
            return done(f"➖ General {escape(general)} removed (event #{seq}).")

        await answer(interaction, work)

    @general_remove.autocomplete("name")
    @edit.autocomplete("commander")
    @add.autocomplete("commander")
    async def _general(self, interaction: discord.Interaction, current: str):
        return await general_name_choices(self.store, interaction.channel_id, current)

    @general_add.autocomplete("side")
    async def _general_side(self, interaction: discord.Interaction, current: str):
        return await side_choices(self.store, interaction.channel_id, current)

    @general_add.autocomplete("unit")
    async def _general_unit(self, interaction: discord.Interaction, current: str):
        return await unit_name_choices(self.store, interaction.channel_id, current)
