"""/gm: the GM corrects anything. Every correction is itself an event in the log."""

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import replace

import discord
from discord import app_commands
from discord.ext import commands

from bot.autocomplete import general_name_choices, unit_name_choices
from bot.battles.actor import Actor
from bot.battles.corrections import (
    GENERAL_FIELDS,
    general_field_names,
    queue_dice,
    restore_unit,
    set_general_field,
    set_gm_role,
    set_unit_field,
    unit_field_names,
)
from bot.battles.decisions import Asked
from bot.battles.errors import BattleError, NoBattle, NotTheLast
from bot.battles.play import rules_for
from bot.battles.rerolls import (
    ListingKey,
    listing_job,
    not_listed,
    override_last,
    reroll_last,
)
from bot.battles.service import BattleStore
from bot.buttons import press
from bot.cogs.lookups import asking_again, replied
from bot.render.battle import turn_line
from bot.render.resolution import escape
from bot.render.words import (
    answered_label,
    answers_lead,
    own_effects,
    result_label,
    shared_effects,
)
from bot.replies import MENU_SIZE, deciders, override_view, played_reply
from bot.respond import Reply, answer
from bot.workers import OutcomeWorker, TooSlow
from rules.core.errors import RulesError
from rules.core.headlines import SEPARATOR
from rules.core.notation import counted, option_value
from rules.core.outcomes import Enumeration

# Discord drops an autocomplete not answered within 3 seconds.
AUTOCOMPLETE_WAIT = 2.0
# Offered while the list of results is still being worked out.
STILL_WORKING = "still-working"


def private(text: str) -> Reply:
    return Reply(content=text[:2000], ephemeral=True)


def public(text: str) -> Reply:
    return Reply(content=text[:2000])


QUEUE_SHOWN = 1800  # characters of faces a reply lists: a message holds 2,000 in all


def queue_text(queue: Sequence[object]) -> str:
    """The queued faces in order; past what a message holds, the first of them and how many
    more, so that the GM is not left to count a list cut off mid-way."""
    shown = " ".join(str(face) for face in queue)
    if len(shown) <= QUEUE_SHOWN:
        return shown
    listed = shown[:QUEUE_SHOWN + 1].rsplit(" ", 1)[0].split(" ")
    return f"{' '.join(listed)} … and {len(queue) - len(listed)} more ({len(queue)} in all)"


def typed_result(listing: Enumeration, typed: str, asked: bool = True) -> str:
    """A result typed as the list shows it (``Light Dragoons routs, loses 1 SP``), or as
    much of one as fits no other: its start (``Béarn routs and loses 2 SP; La``), an answer
    given on its way (a chart's ``DR1``), a run of its words, or words anywhere in it
    (``shaken``); as its key. Anything else as it was (a key picked from the list, the
    rules' own label). Typing that fits several is refused, naming the first of them."""
    # As the menu leads a result with its answers (`DS: 1/45e Ligne surrenders`): the
    # results of those answers, read for the rest.
    lead, sep, rest = typed.partition(": ")
    if sep and rest.strip() and answers_lead(lead.split(" · ")):
        codes = {code.strip().casefold() for code in lead.split("·")}
        narrowed = tuple(o for o in listing.outcomes
                         if codes <= {a.casefold() for a in o.leads or ()})
        if narrowed:
            return typed_result(replace(listing, outcomes=narrowed), rest, asked)
    wanted = " ".join(typed.split()).casefold()
    labels = {o.key: result_label(o.label, listing.units) for o in listing.outcomes}
    exact = next((key for key, label in labels.items() if label.casefold() == wanted), None)
    if exact is not None or listing.find(typed) is not None:
        return exact or typed
    # Whole, as two alike in their first words differ only past a menu's cut.
    whole = {o.key: result_label(o.label, listing.units, limit=300) for o in listing.outcomes}
    # A whole result typed out is that one, however many begin with the same words.
    exact = next((key for key, label in whole.items() if label.casefold() == wanted), None)
    if exact is not None:
        return exact
    answered = {o.key: {a.casefold() for a in o.answers or ()} for o in listing.outcomes}
    # A chart's code as the headline leads with it (`DS1: …`), for a chart a pack read.
    coded = {o.key: o.code.casefold() for o in listing.outcomes if o.code}
    # A chart's code typed without its number (`DS` for DS3, DS4 and DS5): its letters.
    begun = {o.key: {lead for lead in o.leads or () if " " not in lead
                     and lead.casefold().startswith(wanted)} for o in listing.outcomes}
    words = wanted.split()
    several: list[str] = []
    for fits in (lambda key: whole[key].casefold().startswith(wanted),
                 lambda key: wanted in answered[key],
                 lambda key: coded.get(key) == wanted,
                 lambda key: bool(begun[key]),
                 lambda key: wanted in whole[key].casefold(),
                 lambda key: all(word in whole[key].casefold() for word in words)):
        fitting = [key for key in whole if words and fits(key)]
        if len(fitting) == 1:
            return fitting[0]
        several = several or fitting
    if not several:
        return typed
    apart = _told_apart(several, whole)
    said = f"`{typed.strip()}` fits {len(several)} results{apart}"
    hint = "Type more of the one you want, or pick it from what the `result` option offers."
    codes = sorted({lead for key in several for lead in begun[key]}, key=str.casefold)
    if len(codes) > 1:  # the letters of several codes: the whole code tells them apart
        hint = (f"Type the whole code ({', '.join(f'`{c}`' for c in codes[:-1])} or "
                f"`{codes[-1]}`), or more of the result.")
    if any(wanted in answered[key] for key in several):
        # An answer on the roll's way (a chart read): what the GM wants is most often that
        # answer on the same dice, which the question itself gives.
        if len(said) > ANSWER_APART:
            said = (f"`{typed.strip()}` answers a question on this roll's way; "
                    f"{len(several)} results follow from it on other dice.")
        answer = typed.strip()
        hint = (f"To keep the dice and answer again, `/gm undo` puts the roll's questions "
                f"back, the last first: then `/answer choice:{answer}` to the one it "
                "answers. Or type more of the result.") if asked else (
            f"The move was given its answers ahead (`choices`): to keep its dice and answer "
            f"`{answer}` instead, `/gm undo` it and play it again with `choices:\"{answer}\"` "
            "and its dice, as its roll lines show them. Or type more of the result.")
    raise BattleError(said, hint=hint)


ANSWER_APART = 200
"""Characters past which the results an answer leads to are counted, not quoted: a phone's
few lines (a chart's DR1 may lead to seventeen, alike in all but a die before it)."""


def _told_apart(keys: list[str], labels: Mapping[str, str]) -> str:
    """What tells the results apart: where they share some of their effects, each one's
    others (": alike but for “Greys loses 1 increment” · nothing more."); else each whole."""
    shared = shared_effects([labels[key] for key in keys])
    shown = keys[:3]
    more = "…" if len(keys) > 3 else ""
    if not shared:
        return ": " + "; ".join(f"“{labels[key]}”" for key in shown) + (more or ".")
    own = [own_effects(labels[key], shared) for key in shown]
    return ", alike but for: " + " · ".join(
        f"“{SEPARATOR.join(parts)}”" if parts else "nothing more" for parts in own) + (more or ".")


def result_choices(listing: Enumeration, current: str) -> list[app_commands.Choice[str]]:
    """The results that hold what the GM typed, in their words or their answers (`DS`),
    each led by its answers as the menu shows it."""
    wanted = current.casefold()
    shown = ((o, answered_label(o.label, o.leads, listing.units)[0])
             for o in listing.outcomes)
    return [app_commands.Choice(name=label, value=o.key)
            for o, label in shown if wanted in label.casefold()
            or wanted in o.label.casefold()][:25]


class GM(commands.Cog):
    # A battle lives in a server channel; in a DM there is nothing to correct.
    gm = app_commands.Group(
        name="gm", description="GM tools: undo, reroll, dice, corrections", guild_only=True,
        allowed_contexts=app_commands.AppCommandContext(guild=True, dm_channel=False,
                                                        private_channel=False))

    def __init__(self, store: BattleStore, outcomes: OutcomeWorker) -> None:
        self.store = store
        self.outcomes = outcomes

    @gm.command(name="undo", description="Undo the last event, restoring the battle exactly")
    async def undo(self, interaction: discord.Interaction) -> None:
        await answer(interaction, lambda: self.undone(interaction))

    async def undone(self, interaction: discord.Interaction,
                     expected: tuple[int, int] | None = None) -> Reply:
        undone = await self.store.undo(interaction, "/gm undo", expected)
        # The reply says the battle as the undo left it: a turn's own summary says where it
        # had moved the battle on to.
        said = escape(undone.summary) if undone.back_to is None else \
            f"back to {turn_line(undone.back_to)}"
        back = ""
        waiting = undone.waiting
        if undone.brought_back and (waiting is None or waiting.seq not in undone.brought_back):
            seqs = ", ".join(f"#{seq}" for seq in undone.brought_back)
            back = f" The result it replaced ({seqs}) stands again."
        if waiting is not None:  # its buttons come with the reply, as under the question
            replaced = "The question it replaced" if waiting.seq in undone.brought_back \
                else "The question"
            # Quoted unless the summary just said it ("… Asked: Will Black Watch …?").
            quoted = "." if escape(waiting.question.text) in said else \
                f": “{escape(waiting.question.text)}”"
            back += f" {replaced} (#{waiting.seq}) waits again{quoted}"
            if undone.mention is None:  # no ping (mentions off, or his own undo) names him
                back += f" {deciders(waiting)} decides."
        if undone.queue_now is not None and not undone.queued_back:
            back += " The GM's queue is now empty." if not undone.queue_now else (
                f" The GM's queue now holds {counted(undone.queue_now, 'die', 'dice')}.")
        if undone.queued_back:  # a player's next roll would take them, unwarned
            dice = "1 die is" if undone.queued_back == 1 else f"{undone.queued_back} dice are"
            back += (f" The GM's queue is back: {dice} waiting for the next roll here "
                     "(`/gm dice clear:true` empties it).")
        roster = "".join(f"\n📋 {escape(change)}" for change in undone.changes)
        reply = public(f"↩️ Undid #{undone.seq} ({undone.kind.replace('_', ' ')}): "
                       f"{said} (event #{undone.undo_seq}).{back}{roster}")
        if waiting is None:
            return reply
        return asking_again(self.store, interaction, reply, undone.battle_id, waiting,
                            undone.mention)

    @gm.command(name="reroll", description="Undo the last roll and roll it again")
    async def reroll(self, interaction: discord.Interaction) -> None:
        async def work() -> Reply:
            reply = await self.rerolled(interaction)
            # The result it replaces stays above in the channel (a button's press turns it
            # into "Rerolled by"): this one says it stands in its place.
            said = f"🎲 Rerolled by {escape(interaction.user.display_name)}: this replaces " \
                "the last result."
            return replace(reply, content="\n".join(filter(None, (said, reply.content))))

        await answer(interaction, work)

    async def rerolled(self, interaction: discord.Interaction,
                       expected: tuple[int, int] | None = None) -> Reply:
        # A question waiting belongs to the last roll, which the reroll takes back with it.
        played = await self.store.apply(
            interaction, "/gm reroll", lambda tx: reroll_last(tx, expected), while_waiting=True)
        reply = replied(self.store, interaction, played)  # a question asked anew is kept too
        if played.dropped is None:
            return reply
        # The player it waited on was pinged, and may come back to its buttons: said once,
        # its words quoted unless the question below asks them again.
        text, seq = played.dropped.text, played.dropped.seq
        again = isinstance(played, Asked) and played.pending.question.text == text
        said = f" (#{seq})" if again else f", “{escape(text)}” (#{seq}),"
        dropped = f"The question that waited{said} is dropped with it"
        dropped += "; the one below replaces it." if isinstance(played, Asked) else "."
        return replace(reply, content="\n".join(filter(None, (dropped, reply.content))))

    async def pressed(self, interaction: discord.Interaction, action: str, battle_id: int,
                      seq: int) -> None:
        """Undo or Reroll under a result: as the command, and only while it is the last."""
        who = escape(interaction.user.display_name)
        if action == "undo":
            await press(interaction, lambda: self.undone(interaction, (battle_id, seq)),
                        done=f"↩️ Undone by {who}")
        else:
            await press(interaction, lambda: self.rerolled(interaction, (battle_id, seq)),
                        done=f"🎲 Rerolled by {who}")

    @gm.command(name="override", description="Replace the last result with another the rules allow")
    @app_commands.describe(result="The result to apply instead (pick from the list; leave it "
                           "out for a menu)")
    async def override(self, interaction: discord.Interaction,
                       result: str | None = None) -> None:
        async def work() -> Reply:
            if result is None:
                return await self.override_menu(interaction)
            if result == STILL_WORKING:
                raise BattleError("The list of results was not ready yet.",
                                  hint="Open the `result` option again and pick one.")
            return await self.overridden(interaction, result)

        # The menu is the GM's alone: a slow one is deferred privately. A result typed in
        # is played in public (a refusal replaces the public "thinking…" privately).
        await answer(interaction, work, ephemeral=result is None)

    async def overridden(self, interaction: discord.Interaction, result: str,
                         expected: tuple[int, int] | None = None) -> Reply:
        # Worked out with no transaction open: the channel stays free meanwhile.
        try:
            key, listing = await self._listing(interaction)
        except NoBattle:
            if expected is None:
                raise
            # A menu under an ended battle's roll: said as its Undo and Reroll say it.
            raise NotTheLast(expected[1], None, none_here=True) from None
        if expected is not None and expected != key:
            raise NotTheLast(expected[1], key[1] if expected[0] == key[0] else None)
        found = await self.outcomes.result(listing)
        picked = typed_result(found, result, await self.store.move_asked(key))
        played = await self.store.apply(
            interaction, "/gm override", lambda tx: override_last(tx, key, found, picked),
            while_waiting=True)
        return played_reply(played)

    async def override_menu(self, interaction: discord.Interaction) -> Reply:
        """The results the rules allow for the last roll, in a menu (privately, to the GM)."""
        key, listing = await self._listing(interaction)
        found = await self.outcomes.result(listing)
        if not found.outcomes:
            raise not_listed(found)
        shown = found.outcomes[:MENU_SIZE]
        more = len(found.outcomes) - len(shown)
        text = f"Override #{key[1]} with:"
        if more:
            text += (f" (the {len(shown)} first of {len(found.outcomes)} results; type in "
                     "the `result` option to search the rest)")
        # What every result does is said once: each option says what is its own. Read on
        # all the results, not the menu's: what the first 25 share, the rest may not; and
        # a search cut short may have missed a result without it.
        shared = [] if found.cut_short else shared_effects([o.label for o in found.outcomes])
        if shared:
            said = result_label(SEPARATOR.join(shared), found.units, limit=1500)
            text += f"\nEvery one of them: {escape(said)}."
        return Reply(content=text, ephemeral=True,
                     view=override_view(key, shown, found.units, shared))

    async def picked(self, interaction: discord.Interaction, battle_id: int, seq: int,
                     result: str) -> None:
        """A result picked from the override menu: as ``/gm override result``."""
        await press(interaction,
                    lambda: self.overridden(interaction, result, (battle_id, seq)),
                    done=f"🛠️ Overridden by {escape(interaction.user.display_name)}")

    async def _listing(
        self, interaction: discord.Interaction
    ) -> tuple[ListingKey, asyncio.Future[Enumeration]]:
        """The (cached or newly started) results of the channel's last roll; GMs only.

        A cache hit costs one read; only a miss takes the channel's lock, briefly, to put
        the roster back as it was before the roll and hand that to the worker.
        """
        channel = interaction.channel_id or 0
        key = await self.store.last_roll(channel, Actor.from_interaction(interaction))
        listing = self.outcomes.cached(key)
        if listing is None:
            key, job = await self.store.peek(channel, listing_job)
            listing = self.outcomes.start(key, job)
        return key, listing

    @override.autocomplete("result")
    async def _results(self, interaction: discord.Interaction, current: str):
        try:
            _, listing = await self._listing(interaction)
        except RulesError:
            return []  # no battle, not a GM, nothing to override
        try:
            found = await self.outcomes.result(listing, timeout=AUTOCOMPLETE_WAIT)
        except TooSlow:
            # Still running: say so; the next keystroke finds it further along.
            return [app_commands.Choice(
                name="⏳ Still working out the possible results: type again in a moment",
                value=STILL_WORKING)]
        except RulesError:
            return []
        return result_choices(found, current)

    @gm.command(name="dice", description="Queue dice for the next rolls here, or show the queue")
    @app_commands.describe(dice="Faces to use next, in order, e.g. `6 6 1` (none: show the "
                           "queue)", clear="Empty the queue first (with dice: they replace it)")
    async def dice(self, interaction: discord.Interaction, dice: str | None = None,
                   clear: bool = False) -> None:
        async def work() -> Reply:
            # The queue moves no unit: the GM may set it while a question waits.
            queue = await self.store.apply(
                interaction, "/gm dice", lambda tx: queue_dice(tx, dice, clear),
                while_waiting=True)
            if not queue:
                return private("🎲 Dice queue: empty. The bot rolls the next dice in this "
                               "channel itself.")
            return private(f"🎲 Dice queue: {queue_text(queue)}. The next rolls in this "
                           "channel use them first, in order.")

        # The queue is the GM's secret: even "thinking…" must not show in the channel.
        await answer(interaction, work, ephemeral=True)

    @gm.command(name="set", description="Set any field of a unit, checked like /unit add")
    @app_commands.describe(unit="The unit (gone units too)", field="The field to set",
                           value="The new value (`none` clears strength or commander)")
    async def set(self, interaction: discord.Interaction, unit: str, field: str,
                  value: str) -> None:
        async def work() -> Reply:
            changes, seq, out = await self.store.apply(
                interaction, "/gm set", lambda tx: set_unit_field(tx, unit, field, value))
            back = f" `/gm restore unit:{option_value(out)}` brings it back." if out else ""
            return public(f"🛠️ {escape('; '.join(changes))} (event #{seq}).{back}")

        await answer(interaction, work)

    @set.autocomplete("field")
    async def _fields(self, interaction: discord.Interaction, current: str):
        ruleset = await self.store.ruleset(interaction.channel_id or 0)
        if ruleset is None:
            return []
        names = unit_field_names(rules_for(ruleset))
        return [app_commands.Choice(name=n, value=n) for n in names if current.lower() in n][:25]

    @gm.command(name="restore", description="Bring a unit that is out of the battle back")
    @app_commands.describe(unit="The unit to restore")
    async def restore(self, interaction: discord.Interaction, unit: str) -> None:
        async def work() -> Reply:
            name, moved, seq = await self.store.apply(
                interaction, "/gm restore", lambda tx: restore_unit(tx, unit))
            also = "".join(f"; {escape(line)}" for line in moved)
            return public(f"♻️ {escape(name)} is back in the battle{also} (event #{seq}).")

        await answer(interaction, work)

    @gm.command(name="general", description="Set a general's side, unit, wounds, status or value")
    @app_commands.describe(general="The general",
                           field="The field to set (those the battle's rule set counts)",
                           value="New value")
    async def general(self, interaction: discord.Interaction, general: str,
                      field: str, value: str) -> None:
        async def work() -> Reply:
            changes, seq = await self.store.apply(
                interaction, "/gm general",
                lambda tx: set_general_field(tx, general, field, value))
            return public(f"🛠️ {escape('; '.join(changes))} (event #{seq}).")

        await answer(interaction, work)

    @general.autocomplete("field")
    async def _general_fields(self, interaction: discord.Interaction, current: str):
        """The fields the battle's rule set counts: no `wounds` where its generals carry
        none (La Bataille), no `value` where they carry none (Fire at Will)."""
        ruleset = await self.store.ruleset(interaction.channel_id or 0)
        names = list(GENERAL_FIELDS) if ruleset is None else general_field_names(
            rules_for(ruleset))
        return [app_commands.Choice(name=n, value=n) for n in names
                if current.strip().lower() in n][:25]

    @gm.command(name="role", description="Name a role whose members are GMs of this battle")
    @app_commands.describe(role="The GM role (leave out to clear it)")
    async def role(self, interaction: discord.Interaction,
                   role: discord.Role | None = None) -> None:
        async def work() -> Reply:
            if role is not None and role.is_default():
                # Every member holds @everyone, and a GM check never counts it (Actor): as
                # the GM role it would be announced and make no one a GM.
                raise BattleError("@everyone cannot be the GM role: every member has it.",
                                  hint="Name a role only the GMs hold, or give them Manage "
                                       "Channel in this channel.")
            role_id, name = (role.id, role.name) if role else (None, None)
            # Who counts as a GM moves no unit: it may change while a question waits.
            await self.store.apply(interaction, "/gm role",
                                   lambda tx: set_gm_role(tx, role_id, name), while_waiting=True)
            return public(f"👑 GM role: {role.mention if role else 'none'}.")

        await answer(interaction, work)

    @general.autocomplete("general")
    async def _generals(self, interaction: discord.Interaction, current: str):
        return await general_name_choices(self.store, interaction.channel_id, current)

    @set.autocomplete("unit")
    @restore.autocomplete("unit")
    async def _units(self, interaction: discord.Interaction, current: str):
        return await unit_name_choices(self.store, interaction.channel_id, current,
                                       gone_too=True)
