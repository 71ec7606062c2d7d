"""/battle: start, show, end, log, export, and move the turn on."""

from __future__ import annotations

import io
import re

import discord
from discord import app_commands
from discord.ext import commands

from bot.battles.errors import BattleError
from bot.battles.store import BattleStore
from bot.battles.validate import read_sides
from bot.buttons import press
from bot.render.battle import (
    BATTLE_COLOUR,
    battle_messages,
    export_json,
    export_markdown,
    log_messages,
    ruleset_title,
    turn_line,
)
from bot.render.resolution import escape
from bot.render.words import counted
from bot.replies import end_view
from bot.respond import Reply, answer
from bot.storage.models import Battle, utcnow
from rules.core.roster import describe_changes
from rules.registry import RULESETS

BATTLE_RULESETS = [
    app_commands.Choice(name=r.title, value=r.key) for r in RULESETS.values() if r.battle
]


def server_group(name: str, description: str) -> app_commands.Group:
    """A command group offered in servers only: a battle belongs to a server's channel, and in
    a DM these commands would only ever answer that there is no battle."""
    return app_commands.Group(
        name=name, description=description, guild_only=True,
        allowed_contexts=app_commands.AppCommandContext(guild=True, dm_channel=False,
                                                        private_channel=False))


def notice(title: str, description: str = "", colour: int = BATTLE_COLOUR) -> Reply:
    return Reply([[discord.Embed(title=title[:256], description=description[:4096] or None,
                                 colour=colour)]])


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-")[:60] or "battle"


class Battles(commands.Cog):
    battle = server_group("battle", "This channel's battle")

    def __init__(self, store: BattleStore) -> None:
        self.store = store

    @battle.command(name="start", description="Start a battle in this channel")
    @app_commands.describe(ruleset="The rule set the battle is played with",
                           name="A name for the battle, e.g. Quebec 1759",
                           sides="Its two sides, e.g. `British, French` (else the first two "
                                 "sides units are added to)")
    @app_commands.choices(ruleset=BATTLE_RULESETS)
    async def start(self, interaction: discord.Interaction, ruleset: app_commands.Choice[str],
                    name: app_commands.Range[str, 1, 100],
                    sides: app_commands.Range[str, 1, 100] | None = None) -> None:
        async def work() -> Reply:
            async with self.store.for_interaction(interaction, "/battle start") as tx:
                if tx.battle is not None:
                    raise BattleError(
                        f"This channel already has a battle: {tx.battle.name}.",
                        hint="End it with `/battle end` first, or start one in another channel.",
                    )
                phases = RULESETS[ruleset.value].battle.phases
                fixed = read_sides(sides) if sides is not None else None
                battle = Battle(channel_id=interaction.channel_id, guild_id=interaction.guild_id,
                                ruleset=ruleset.value, name=name.strip(),
                                created_by=interaction.user.id, sides=fixed,
                                phase=phases[0] if phases else None, settings={},
                                dice_queue=[], turn=1, last_seq=0, status="active")
                tx.add(battle)
                tx.battle = battle
                await tx.record("battle_start", f"Battle started: {battle.name} "
                                                f"({ruleset.name})")
            sides_line = f"Sides: {' and '.join(fixed)}\n" if fixed else ""
            return notice(
                f"⚔️ Battle started: {battle.name}",
                f"{ruleset.name} · {turn_line(battle)}\nGM: {interaction.user.mention}\n"
                f"{sides_line}"
                "Add units with `/unit add`, generals with `/general add`; `/battle show` "
                "shows the roster.",
            )

        await answer(interaction, work)

    @battle.command(name="show", description="Show the battle: turn, roster, generals")
    async def show(self, interaction: discord.Interaction) -> None:
        view = await self.store.view(interaction.channel_id or 0)
        first, *_ = battle_messages(view.battle, view.units, view.generals,
                                     view.engagements)
        await interaction.response.send_message(embeds=first)

    @battle.command(name="end", description="End this channel's battle (GM)")
    @app_commands.describe(confirm="Type the battle's name to confirm (or use the button)")
    async def end(self, interaction: discord.Interaction, confirm: str | None = None) -> None:
        async def work() -> Reply:
            if confirm is None:
                return await self.offer_end(interaction)
            return await self.ended(interaction, confirm=confirm)

        await answer(interaction, work)

    async def offer_end(self, interaction: discord.Interaction) -> Reply:
        """Without a typed confirmation: ask the GM, privately, with a button."""
        async with self.store.for_interaction(interaction, "/battle end") as tx:
            battle = tx.require_gm("end the battle")
            name, battle_id = battle.name, battle.id
        return Reply(content=f"End **{escape(name)}**? Its log stays available to "
                     f"`/battle export`. (Or type `/battle end confirm:{name}`.)",
                     ephemeral=True, view=end_view(battle_id, name))

    async def ended(self, interaction: discord.Interaction, *, confirm: str | None = None,
                    battle_id: int | None = None) -> Reply:
        async with self.store.for_interaction(interaction, "/battle end") as tx:
            battle = tx.require_gm("end the battle")
            if battle_id is not None and battle.id != battle_id:
                raise BattleError("That battle has already ended.",
                                  hint="`/battle show` shows the one in play now.")
            if confirm is not None and confirm.strip().casefold() != battle.name.casefold():
                raise BattleError(
                    f"To end {battle.name}, confirm with its name.",
                    hint=f"Run `/battle end confirm:{battle.name}`, or `/battle end` for a "
                    "button. Its log stays available to `/battle export`.",
                )
            tx.touch(battle)
            battle.status = "ended"
            battle.ended_at = utcnow()
            await tx.record("battle_end", f"Battle ended: {battle.name}")
        return notice(f"🏁 {battle.name} has ended",
                      f"{turn_line(battle)}. `/battle export` gives the whole log.")

    async def pressed_end(self, interaction: discord.Interaction, battle_id: int) -> None:
        await press(interaction, lambda: self.ended(interaction, battle_id=battle_id),
                    done=f"🏁 Ended by {interaction.user.display_name}")

    @battle.command(name="log", description="The battle's recent events")
    @app_commands.describe(count="How many events (default 10)")
    async def log(self, interaction: discord.Interaction,
                  count: app_commands.Range[int, 1, 50] = 10) -> None:
        view = await self.store.view(interaction.channel_id or 0, ended_too=True, events=count)
        first, *_ = log_messages(view.battle, view.events)
        await interaction.response.send_message(embeds=first)

    @battle.command(name="export", description="The whole battle log as a file")
    @app_commands.describe(format="Markdown to read, JSON for tools")
    @app_commands.choices(format=[app_commands.Choice(name="Markdown", value="md"),
                                  app_commands.Choice(name="JSON", value="json")])
    async def export(self, interaction: discord.Interaction,
                     format: app_commands.Choice[str] | None = None) -> None:
        kind = format.value if format else "md"
        view = await self.store.view(interaction.channel_id or 0, ended_too=True, events=None)
        render = export_json if kind == "json" else export_markdown
        text = render(view.battle, view.units, view.generals, view.events)
        file = discord.File(io.BytesIO(text.encode()), filename=f"{slug(view.battle.name)}.{kind}")
        await interaction.response.send_message(
            content=f"📎 {view.battle.name}: {counted(len(view.events), 'event')} "
                    f"({ruleset_title(view.battle)})",
            file=file,
        )

    @battle.command(name="next", description="Move on to the next phase, or turn (GM)")
    async def next(self, interaction: discord.Interaction) -> None:
        async def work() -> Reply:
            async with self.store.for_interaction(interaction, "/battle next") as tx:
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
                        after, diff = rules.new_turn(await tx.roster())
                        await tx.write_roster(after)
                        changes = describe_changes(diff, rules.strength_label)
                roster = await tx.roster()
                await tx.record("turn", f"Now {turn_line(battle)}")
            lines = [f"• {line}" for line in
                     (rules.reminders(roster, battle.phase) if rules.reminders else [])]
            lines += [f"• {line}" for line in changes]
            return notice(f"⏭️ {battle.name}: {turn_line(battle)}", "\n".join(lines))

        await answer(interaction, work)
