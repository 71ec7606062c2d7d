"""/battle: start, show, end, log, export, and move the turn on."""

import io
import re
from collections.abc import Callable
from dataclasses import replace

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from bot.autocomplete import side_choices
from bot.battles.backup import Restored, backup_text
from bot.battles.backup_file import check_size as check_backup_size
from bot.battles.backup_file import read_backup
from bot.battles.charts import (
    ChartsSaid,
    attach_charts,
    attached_charts,
    check_size,
    read_chart_file,
    remove_charts,
)
from bot.battles.errors import BattleError
from bot.battles.lifecycle import (
    battle_for_gm,
    end_battle,
    next_phase,
    set_setting,
    start_battle,
)
from bot.battles.roster_changes import rename_side
from bot.battles.service import BattleStore, Command
from bot.battles.validate import MAX_SIDE, check_battle_name
from bot.battles.views import one_side
from bot.buttons import press
from bot.cogs.lookups import asking_again
from bot.render.battle import (
    BATTLE_COLOUR,
    battle_messages,
    export_markdown,
    log_messages,
    pending_line,
    ruleset_title,
    turn_line,
)
from bot.render.resolution import escape
from bot.render.text import escape_prose
from bot.replies import end_view
from bot.respond import Reply, answer
from bot.threads import open_battle_thread
from rules.core.notation import counted
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


def charts_notice(title: str, said: ChartsSaid) -> Reply:
    lines = [f"• {escape(line)}" for line in said.lines]
    if said.replaced:
        lines.append(f"In place of {escape(said.replaced)}.")
    if said.seq is not None:
        lines.append(f"Event #{said.seq}; `/gm undo` takes it back.")
    return notice(f"{title}: {escape(said.filename)}", "\n".join(lines))


async def download(file: discord.Attachment,
                   size_check: Callable[[str, int], None] = check_size) -> bytes:
    """The attachment's bytes, refused before the download when it is too large to be one
    (a chart pack, unless ``size_check`` says what else), and refused when the download
    fails: by Discord's answer, or by the connection (reset, timed out, cut short)."""
    size_check(file.filename, file.size)
    try:
        return await file.read()
    except (discord.HTTPException, aiohttp.ClientError, OSError):
        raise BattleError(f"I could not download {file.filename} from Discord.",
                          hint="Attach it again; an attachment can expire.") from None


def restored_notice(restored: Restored) -> Reply:
    """What a battle rebuilt from its backup holds, and the question it waits on."""
    battle = restored.battle
    held = (f"{counted(restored.units, 'unit')}, {counted(restored.generals, 'general')}, "
            f"{counted(restored.events, 'event')} of its log")
    lines = [f"{RULESETS[battle.ruleset].title} · {turn_line(battle)}",
             f"GM: <@{battle.created_by}>",
             f"{held}: `/gm undo` takes back moves made before the import too."
             if battle.status == "active" else f"{held}."]
    if battle.status != "active":
        # Kept to be read, not played: the channel has no battle under way.
        lines.append("It had ended, and stays ended: `/battle export` and `/battle log` "
                     "read it; `/battle start` begins a new one here.")
        return notice(f"📥 Ended battle imported: {escape(battle.name)}", "\n".join(lines))
    waiting = pending_line(battle.pending)
    if waiting:
        lines.append(waiting)
    return notice(f"📥 Battle restored: {escape(battle.name)}", "\n".join(lines))


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-")[:60] or "battle"


SIDE_HELP = "Only this side's units and generals (a large battle fits a phone)"


async def shown_battle(store: BattleStore, interaction: discord.Interaction,
                       side: str | None = None, *, values: bool = False) -> Reply:
    """The channel's battle as `/battle show` gives it (a line a unit), or `/unit list`
    (``values``: each unit with its printed values): whole, or one side."""
    view = await store.view(interaction.channel_id or 0)
    return Reply(battle_messages(view if side is None else one_side(view, side),
                                 values=values))


class Battles(commands.Cog):
    battle = server_group("battle", "This channel's battle")

    def __init__(self, store: BattleStore) -> None:
        self.store = store

    @battle.command(name="start", description="Start a battle in this channel")
    @app_commands.describe(ruleset="The rule set the battle is played with",
                           name="A name for the battle, e.g. Quebec 1759",
                           sides="Its two sides, e.g. `British, French` (else the first two "
                                 "sides units are added to)",
                           thread="Open a thread from this channel, named for the battle, and "
                                  "start the battle there")
    @app_commands.choices(ruleset=BATTLE_RULESETS)
    async def start(self, interaction: discord.Interaction, ruleset: app_commands.Choice[str],
                    name: app_commands.Range[str, 1, 100],
                    sides: app_commands.Range[str, 1, 100] | None = None,
                    thread: bool = False) -> None:
        guild, user = interaction.guild_id, interaction.user.id

        async def work() -> Reply:
            command = Command.of(interaction, "/battle start")
            where = ""
            if thread:  # a thread is opened for a battle that can start
                opened = await open_battle_thread(interaction, check_battle_name(name))
                # The battle belongs to the thread: its commands are sent there.
                command = replace(command, channel_id=opened.id)
                where = f"Played in {opened.mention}: there, "
            channel = command.channel_id
            battle = await self.store.apply(
                command, "/battle start",
                lambda tx: start_battle(tx, ruleset.value, name, sides, channel, guild, user))
            sides_line = (f"Sides: {' and '.join(escape(s) for s in battle.sides)}\n"
                          if battle.sides else "")
            add = "add" if where else "Add"
            return notice(
                f"⚔️ Battle started: {escape(battle.name)}",
                f"{ruleset.name} · {turn_line(battle)}\nGM: {interaction.user.mention}\n"
                f"{sides_line}"
                f"{where}{add} units with `/unit add`, generals with `/general add`; "
                "`/battle show` shows the roster.",
            )

        await answer(interaction, work)

    @battle.command(name="show", description="Show the battle: turn, roster, generals")
    @app_commands.describe(side=SIDE_HELP)
    async def show(self, interaction: discord.Interaction,
                   side: app_commands.Range[str, 1, MAX_SIDE] | None = None) -> None:
        await answer(interaction, lambda: shown_battle(self.store, interaction, side))

    @show.autocomplete("side")
    async def _side(self, interaction: discord.Interaction, current: str):
        return await side_choices(self.store, interaction.channel_id, current)

    @battle.command(name="side",
                    description="Rename one of the battle's sides; its units and generals follow")
    @app_commands.describe(side="The side as the battle has it (the list offers them)",
                           name="Its new name, e.g. French")
    async def rename_side(self, interaction: discord.Interaction,
                          side: app_commands.Range[str, 1, MAX_SIDE],
                          name: app_commands.Range[str, 1, MAX_SIDE]) -> None:
        async def work() -> Reply:
            done = await self.store.apply(interaction, "/battle side",
                                          lambda tx: rename_side(tx, side, name))
            moved = [counted(n, what) for n, what in ((done.units, "unit"),
                                                      (done.generals, "general")) if n]
            went = f": {' and '.join(moved)} with it" if moved else ""
            return Reply(content=f"✏️ The {escape(done.old)} side is now "
                                 f"{escape(done.new)}{went} (event #{done.seq}).")

        await answer(interaction, work)

    @rename_side.autocomplete("side")
    async def _renamed_side(self, interaction: discord.Interaction, current: str):
        return await side_choices(self.store, interaction.channel_id, current)

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
        # A question waiting stops no end: the battle it would move is over (GMs only).
        battle = await self.store.apply(
            interaction, "/battle end", lambda tx: battle_for_gm(tx, "end the battle"),
            while_waiting=True)
        return Reply(content=f"End **{escape(battle.name)}**? This is final: `/gm undo` "
                     "does not bring a battle back. Its log stays available to "
                     f"`/battle export`. (Or type `/battle end confirm:{battle.name}`.)",
                     ephemeral=True, view=end_view(battle.id, battle.name))

    async def ended(self, interaction: discord.Interaction, *, confirm: str | None = None,
                    battle_id: int | None = None) -> Reply:
        ended = await self.store.apply(
            interaction, "/battle end",
            lambda tx: end_battle(tx, confirm=confirm, battle_id=battle_id), while_waiting=True)
        battle = ended.battle
        # The player it waited on may come back to its buttons: said here, once.
        dropped = "" if ended.dropped is None else (
            f" The question that waited, “{escape(ended.dropped.question.text)}” "
            f"(#{ended.dropped.seq}), is dropped with it.")
        return notice(f"🏁 {escape(battle.name)} has ended",
                      f"{turn_line(battle)}.{dropped} `/battle export` gives the whole log.")

    async def pressed_end(self, interaction: discord.Interaction, battle_id: int) -> None:
        await press(interaction, lambda: self.ended(interaction, battle_id=battle_id),
                    done=f"🏁 Ended by {escape(interaction.user.display_name)}")

    @battle.command(name="setting", description="Change one of the rule set's settings (GM)")
    @app_commands.describe(name="The setting (the list offers them)",
                           value="Its new value, or `default`")
    async def setting(self, interaction: discord.Interaction,
                      name: app_commands.Range[str, 1, 64],
                      value: app_commands.Range[str, 1, 64]) -> None:
        async def work() -> Reply:
            said, seq = await self.store.apply(
                interaction, "/battle setting", lambda tx: set_setting(tx, name, value))
            return notice(f"⚙️ Setting: {said}", f"Event #{seq}.")

        await answer(interaction, work)

    @setting.autocomplete("name")
    async def _setting_names(self, interaction: discord.Interaction, current: str):
        ruleset = await self.store.ruleset(interaction.channel_id or 0)
        rules = RULESETS[ruleset].battle if ruleset else None
        if rules is None:
            return []
        return [app_commands.Choice(name=f"{f.name}: {f.help}"[:100], value=f.name)
                for f in rules.settings.fields if current.casefold() in f.name][:25]

    @battle.command(name="charts",
                    description="Attach your chart pack to the battle, or see or remove it (GM)")
    @app_commands.describe(file="The chart pack, a JSON file (the rule set's docs give the "
                                "format)",
                           remove="Take the chart pack off the battle")
    async def charts(self, interaction: discord.Interaction,
                     file: discord.Attachment | None = None, remove: bool = False) -> None:
        async def work() -> Reply:
            if file is not None and remove:
                raise BattleError("Attach a chart pack or remove it, not both at once.",
                                  hint="`/battle charts file:` attaches; `remove:true` "
                                       "removes.")
            if file is not None:
                content = read_chart_file(await download(file), file.filename)
                said = await self.store.apply(
                    interaction, "/battle charts",
                    lambda tx: attach_charts(tx, file.filename, content))
                return charts_notice("📊 Chart pack attached", said)
            if remove:
                said = await self.store.apply(interaction, "/battle charts", remove_charts)
                return notice(f"📊 Chart pack removed: {said.filename}"[:256],
                              "Procedures ask for the chart result again. "
                              f"Event #{said.seq}; `/gm undo` takes it back.")
            # Only a look: allowed while a question waits (it may be the chart's own).
            attached = await self.store.apply(interaction, "/battle charts", attached_charts,
                                              while_waiting=True)
            if attached is None:
                return Reply(content="This battle has no chart pack: its procedures say "
                             "which column and row to read and ask for the result. Attach "
                             "yours with `/battle charts file:`.", ephemeral=True)
            return Reply(charts_notice("📊 Chart pack", attached).messages, ephemeral=True)

        await answer(interaction, work)

    @battle.command(name="log", description="The battle's recent events")
    @app_commands.describe(count="How many events (default 10)")
    async def log(self, interaction: discord.Interaction,
                  count: app_commands.Range[int, 1, 50] = 10) -> None:
        async def work() -> Reply:
            view = await self.store.view(interaction.channel_id or 0, ended_too=True,
                                         events=count)
            return Reply(log_messages(view.battle, view.events))

        await answer(interaction, work)

    @battle.command(name="export", description="The whole battle log as a file")
    @app_commands.describe(format="Markdown to read, JSON for tools")
    @app_commands.choices(format=[app_commands.Choice(name="Markdown", value="md"),
                                  app_commands.Choice(name="JSON", value="json")])
    async def export(self, interaction: discord.Interaction,
                     format: app_commands.Choice[str] | None = None) -> None:
        kind = format.value if format else "md"
        channel = interaction.channel_id or 0
        if kind == "json":  # everything `/battle import` needs to rebuild the battle
            data = await self.store.backup(channel)
            text, name, events = backup_text(data), data["battle"]["name"], len(data["events"])
            title = RULESETS[data["battle"]["ruleset"]].title
        else:
            view = await self.store.archive(channel)
            text = export_markdown(view)
            name, events, title = view.battle.name, len(view.events), ruleset_title(view.battle)
        file = discord.File(io.BytesIO(text.encode()), filename=f"{slug(name)}.{kind}")
        await interaction.response.send_message(
            content=f"📎 {escape(name)}: {counted(events, 'event')} ({title})", file=file,
            allowed_mentions=discord.AllowedMentions.none())

    @battle.command(name="import",
                    description="Rebuild a battle here from its JSON export (you become its GM)")
    @app_commands.describe(file="The file `/battle export format:json` wrote")
    async def import_(self, interaction: discord.Interaction,
                      file: discord.Attachment) -> None:
        async def work() -> Reply:
            data = read_backup(await download(file, check_backup_size), file.filename)
            restored = await self.store.restore(interaction, data,
                                                guild_id=interaction.guild_id,
                                                gm=interaction.user.id)
            reply = restored_notice(restored)
            if restored.pending is not None and restored.battle.status == "active":
                return asking_again(self.store, interaction, reply, restored.battle.id,
                                    restored.pending, restored.mention)
            return reply

        await answer(interaction, work)

    @battle.command(name="next", description="Move on to the next phase, or turn (GM)")
    async def next(self, interaction: discord.Interaction) -> None:
        async def work() -> Reply:
            stepped = await self.store.apply(
                interaction, "/battle next", lambda tx: next_phase(tx, turn_line))
            # Reminders quote commands in code spans; the names around them are players'.
            lines = [*(f"• {escape_prose(line)}" for line in stepped.reminders),
                     *(f"• {escape(line)}" for line in stepped.changes)]
            return notice(f"⏭️ {escape(stepped.battle.name)}: {turn_line(stepped.battle)}",
                          "\n".join(lines))

        await answer(interaction, work)
