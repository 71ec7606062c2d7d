"""Answering the rules' questions: the buttons under a question, and ``/answer``.

Either way the answer plays the procedure on (see ``bot.battles.decisions``). A button's
answer turns the question's message into the result (its answer buttons give way to the
result's); a further question is a reply of its own, with its buttons. ``/answer`` does the
same to the question's message (kept by ``bot.storage.question_messages``) and replies with
a line pointing to the result; a question whose message was not kept (asked before it was)
or cannot be edited (deleted) gets the result as ``/answer``'s reply, and its buttons go
away when pressed. A press by someone whose choice it is not, or on a question already
answered, is refused privately and changes nothing.
"""

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.battles.decisions import Asked, Pending
from bot.battles.errors import BattleError
from bot.battles.play import Played
from bot.battles.service import BattleStore
from bot.buttons import press
from bot.cogs.lookups import replied
from bot.render.resolution import escape
from bot.respond import Reply, answer
from rules.core.errors import RulesError
from rules.core.names import name_key

MAX_CHOICES = 25

log = logging.getLogger(__name__)


class Decisions(commands.Cog):
    def __init__(self, store: BattleStore) -> None:
        self.store = store

    @app_commands.command(name="answer",
                          description="Answer the question a roll is waiting on (buttons do "
                          "the same)")
    @app_commands.describe(choice="Your answer (pick from the list)")
    async def answer_command(self, interaction: discord.Interaction,
                             choice: app_commands.Range[str, 1, 100]) -> None:
        async def work() -> Reply:
            taken = taken_for(await self.waiting(interaction), choice)
            outcome = await self.play_on(interaction, None, choice)
            reply = replied(self.store, interaction, outcome)
            if outcome.question_message is None:  # not kept: the result is a reply of its own
                return reply
            return await in_place(interaction, outcome.question_message, reply, taken)

        await answer(interaction, work)

    @answer_command.autocomplete("choice")
    async def _choices(self, interaction: discord.Interaction, current: str):
        pending = await self.waiting(interaction)
        if pending is None:
            return []
        wanted = name_key(current)  # an answer naming a unit: ’ finds '
        return [app_commands.Choice(name=a.label[:100], value=a.key[:100])
                for a in pending.question.answers
                if wanted in name_key(a.label) or wanted in name_key(a.key)][:MAX_CHOICES]

    async def waiting(self, interaction: discord.Interaction) -> Pending | None:
        """The question this channel's battle waits on, else this player's latest quick
        lookup question here."""
        return await self.store.waiting_question(interaction.channel_id or 0,
                                                 interaction.user.id)

    async def play_on(self, interaction: discord.Interaction, button_id: str | None,
                      given: str | int) -> Played | Asked:
        """The answer to the question ``button_id`` names (None: the one waiting here). A
        button gives its answer's place among that question's answers, and is read against
        that question only."""
        where, _ = button_id.split(":", 1) if button_id else ("", "")
        if not where:  # `/answer`: whatever is waiting here
            waiting = await self.waiting(interaction)
            # Nothing waiting, or a quick lookup's question: the lookup path says which.
            if waiting is None or waiting.seq is None:
                return await self.store.answer_lookup(interaction, None, given)
            return await self.store.answer(interaction, None, given)
        ids = question_ids(button_id)
        if ids is None:
            raise BattleError("That button no longer matches a question.",
                              hint="Use the buttons under the latest question, or `/answer`.")
        if where.startswith("q"):
            return await self.store.answer_lookup(interaction, ids[0], given)
        return await self.store.answer(interaction, ids, given)

    async def pressed(self, interaction: discord.Interaction, button_id: str,
                      index: int) -> None:
        """A button under a question: the result goes out publicly; the question's buttons go
        away once it is answered; a refusal is private and changes nothing (a second press
        on a question just answered leaves the result it became, and its buttons, alone)."""
        async def work() -> Reply:
            return replied(self.store, interaction,
                           await self.play_on(interaction, button_id, index))

        await press(interaction, work, becomes=True, done=answered_by(interaction))


def answered_by(interaction: discord.Interaction, taken: str | None = None) -> str:
    """Who answered; ``taken``: the answer's button label, where what was typed differs."""
    said = f"✅ Answered by {escape(interaction.user.display_name)}"
    return f"{said}: “{escape(taken)}”" if taken else said


def taken_for(pending: Pending | None, given: str) -> str | None:
    """The label of the answer ``given`` takes, where it is not what was typed: `huzzah` is
    the key of "Huzzah on all", `counter` the start of "Counter-charge Ottawa"; the reply
    says which was taken. None where the label was typed, or the answer is refused (the
    answer itself then says why)."""
    if pending is None:
        return None
    try:
        label = pending.question.answer(given).label
    except RulesError:
        return None
    return None if name_key(label) == name_key(given) else label


async def in_place(interaction: discord.Interaction, message_id: int, reply: Reply,
                   taken: str | None = None) -> Reply:
    """Turn the question's message into the result, as a press of its buttons does, and
    answer `/answer` with a line pointing to it; a further question is the reply itself,
    and the answered question only loses its buttons. If the message cannot be edited (it
    was deleted, the bot may not see the channel), the result is the reply, as it is.
    ``taken``: the answer's label, said beside who answered (see ``taken_for``)."""
    channel_id = interaction.channel_id or 0
    question = interaction.client.get_partial_messageable(
        channel_id, guild_id=interaction.guild_id).get_partial_message(message_id)
    becomes = not reply.asks and not reply.ephemeral and len(reply.messages) == 1
    try:
        if becomes:
            await question.edit(content=answered_by(interaction, taken),
                                embeds=reply.messages[0], view=reply.view)
        else:
            await question.edit(content=answered_by(interaction, taken), view=None)
    except discord.HTTPException as error:  # deleted, or out of the bot's reach now
        log.info("question message %s not edited into its answer: %s", message_id, error)
        return reply
    except Exception:  # the answer is saved: its result must reach the channel all the same
        log.warning("could not edit question message %s into its answer", message_id,
                    exc_info=True)
        return reply
    if not becomes:
        return reply
    result = reply.messages[0][0].title if reply.messages[0] else None
    # The link from the interaction's own ids: discord.py's ``jump_url`` reads the guild from
    # its cache, which may not hold it yet.
    link = f"https://discord.com/channels/{interaction.guild_id or '@me'}/{channel_id}/" \
        f"{message_id}"
    return Reply(content=f"✅ Answered: {result or 'the result'}\n{link}")


def question_ids(button_id: str) -> tuple[int, int] | None:
    """``b<battle>:<seq>`` or ``q<question>:0`` as two ids; None when they are not ids a
    database holds (a forged or garbled button)."""
    where, _, seq = button_id.partition(":")
    try:
        ids = (int(where[1:]), int(seq))
    except ValueError:
        return None
    return ids if all(0 <= i < 2**63 for i in ids) else None

