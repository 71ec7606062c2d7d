"""Replies to a played procedure: its result, or the question it stopped at, with buttons.

The buttons are ``DynamicItem``s: their custom ids say which question and which answer
(``huzzah:answer:b12:7:0`` is answer 0 to the question battle 12 asked in event 7;
``q5:0`` is quick-lookup question 5), or whose steps (``huzzah:steps:b12:7``: event 7 of
battle 12; ``huzzah:steps:t<interaction id>``: a quick lookup's), so they keep working after
a restart. A press is
answered by the cog whose command the button stands for, found in the bot's cogs by its name
and known here by the methods it answers with (:class:`AnswerPresses`, :class:`GMPresses`,
:class:`EndPresses`, :class:`HelpPresses`): those cogs build their replies with this module,
so it imports none of them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Protocol

import discord

from bot.battles.decisions import GM_CHOICE, Asked, Pending, awaited, battle_question
from bot.battles.play import Played
from bot.render.resolution import escape, question_messages, resolution_messages
from bot.render.words import answered_label
from bot.respond import Reply
from rules.core.outcomes import Outcome

ANSWER_PREFIX = "huzzah:answer:"
MAX_BUTTONS = 25  # five rows of five
LABEL = 80  # Discord's longest button label
ROW_NUMBER_MAX = 2**31 - 1
"""The largest id or event number a button can name: ``Integer`` columns, 32 bits wide in
PostgreSQL."""


class AnswerPresses(Protocol):
    """Answers a question's buttons (the ``Decisions`` cog)."""

    async def pressed(self, interaction: discord.Interaction, button_id: str,
                      index: int) -> None: ...


class GMPresses(Protocol):
    """Answers Undo, Reroll and the override menu (the ``GM`` cog)."""

    async def pressed(self, interaction: discord.Interaction, action: str, battle_id: int,
                      seq: int) -> None: ...

    async def picked(self, interaction: discord.Interaction, battle_id: int, seq: int,
                     result: str) -> None: ...


class StepsPresses(Protocol):
    """Shows a result's steps (the ``Steps`` cog)."""

    async def pressed(self, interaction: discord.Interaction, where: str, key: int,
                      seq: int) -> None: ...


class HelpPresses(Protocol):
    """Turns a help reply to another of its pages (the ``Help`` cog)."""

    async def pressed(self, interaction: discord.Interaction, topic: str, part: str,
                      page: int) -> None: ...


class EndPresses(Protocol):
    """Answers the button that confirms ``/battle end`` (the ``Battles`` cog)."""

    async def pressed_end(self, interaction: discord.Interaction, battle_id: int) -> None: ...


def cog_named(interaction: discord.Interaction, name: str) -> Any:
    """The bot's cog of that name, which answers a press; every cog is added at start-up."""
    cog = interaction.client.get_cog(name)  # type: ignore[attr-defined]
    assert cog is not None, name
    return cog


def row_number(digits: str) -> int:
    """A number in a custom id, as the id or event number it names. One no row can have (a
    forged id) is read as 0, which no row has either: the press is refused as a stale one
    is, where the database would have failed on it."""
    if len(digits) > len(str(ROW_NUMBER_MAX)):
        return 0
    number = int(digits)
    return number if number <= ROW_NUMBER_MAX else 0


def event_number(seq: int) -> str:
    """A move's event in its footer: "#10", as an undo names the events it brings back, which
    leaves room on the footer's line of a phone for the project defaults."""
    return f"#{seq}"


def played_reply(played: Played, trace: int | None = None) -> Reply:
    """A result, with its Steps button (and in a battle Undo and Reroll). ``trace`` is the
    key a quick lookup's steps are kept under (a battle's are its event's)."""
    footer = played.dice_note
    if played.seq is not None:
        footer += f" · {event_number(played.seq)}"
    if played.battle_id and played.seq:
        view: discord.ui.View | None = Buttons(
            [steps_button(StepsButton.id_for("b", played.battle_id, played.seq)),
             *gm_buttons(played.battle_id, played.seq,
                         reroll=bool(played.resolution.rolls) or played.asked)])
    elif trace is not None:
        view = Buttons([steps_button(StepsButton.id_for("t", trace))])
    else:
        view = None
    return Reply(resolution_messages(played.resolution, dice_note=footer,
                                     battle_changes=played.changes, above=played.above),
                 view=view)


class Buttons(discord.ui.View):
    """Buttons sent as the component dicts Discord takes, with no ``ui.Item`` behind them.

    Every button the bot sends belongs to a ``DynamicItem`` class registered at start-up
    (``bot.client``): its custom id says what a press does, and the registered class answers
    it, after a restart too. A sent message therefore needs no items of its own, and
    discord.py keeps no view for it (``is_finished``). Building the items cost a tenth of a
    millisecond on every move; so did a ``View``'s own set-up (its item weights, its timeout
    and its stop future), none of which a view with no items and no listener ever uses.
    discord.py asks a view it sends only for what is answered here.
    """

    ROW = 5  # buttons in one action row
    timeout = None  # nothing to wait for: a press is answered by its DynamicItem class

    def __init__(self, buttons: Sequence[tuple[str, str, discord.ButtonStyle]]) -> None:
        # ``View.__init__`` is not called: see the class's description.
        self._rows = [
            {"type": 1, "components": [
                {"type": 2, "style": style.value, "disabled": False, "label": label,
                 "custom_id": custom_id}
                for label, custom_id, style in buttons[start:start + self.ROW]]}
            for start in range(0, len(buttons), self.ROW)]

    @property
    def children(self) -> list[discord.ui.Item[Any]]:
        return []

    def to_components(self) -> list[dict[str, Any]]:
        return self._rows

    def has_components_v2(self) -> bool:
        return False

    def is_dispatchable(self) -> bool:
        return False

    def is_finished(self) -> bool:
        return True


def gm_buttons(battle_id: int, seq: int, *, reroll: bool = True,
               ) -> list[tuple[str, str, discord.ButtonStyle]]:
    """Undo and Reroll under a battle result: for GMs, while it is the last roll. A result
    that rolled no dice and asked nothing has no Reroll: the same command would give it
    again."""
    actions = ("undo", "reroll") if reroll else ("undo",)
    return [(GM_LABELS[action], GMButton.id_for(action, battle_id, seq),
             discord.ButtonStyle.secondary) for action in actions]


def steps_button(custom_id: str) -> tuple[str, str, discord.ButtonStyle]:
    return (STEPS_LABEL, custom_id, discord.ButtonStyle.secondary)


def deciders(pending: Pending) -> str:
    """``Hussars' player (<@1000>) or a GM``: who may answer, named without a ping, at the
    start of a sentence."""
    whose = awaited(pending, escape)  # worded as a battle waiting on it says it
    if whose.startswith("the "):
        whose = "The" + whose[3:]
    if pending.seq is not None and pending.question.by != GM_CHOICE:
        whose += " or a GM"
    return whose


def asked_reply(asked: Asked) -> Reply:
    pending = asked.pending
    question = pending.question
    whose = deciders(pending)
    footer = asked.dice_note + (f" · {event_number(pending.seq)}" if pending.seq else "")
    messages = question_messages(pending.ruleset, pending.procedure, question, asked.steps,
                                 whose=whose, dice_note=footer, effects=asked.effects,
                                 notes=asked.notes, changes=asked.changes,
                                 in_battle=pending.seq is not None, above=asked.above)
    # The player it waits on is pinged in the content (an embed never pings), and only him.
    content = f"<@{asked.mention}>, your answer:" if asked.mention is not None else None
    return Reply(messages, content=content, view=answer_view(asked), asks=True,
                 mention=asked.mention)


def reply_to(outcome: Played | Asked, trace: int | None = None) -> Reply:
    """The reply to a played procedure; ``trace``: the key a quick lookup's steps are kept
    under, for its Steps button."""
    if isinstance(outcome, Asked):
        return asked_reply(outcome)
    return played_reply(outcome, trace)


def waiting_view(battle_id: int, pending: Pending) -> discord.ui.View:
    """The buttons of the question a battle waits on (under a reply other than the one
    that asked it: a battle imported into a channel)."""
    return answer_view(Asked(pending, (), "", battle_question(battle_id, pending.seq)))


def answer_view(asked: Asked) -> discord.ui.View:
    return Buttons([(AnswerButton.label_for(answer.label),
                     AnswerButton.id_for(asked.button_id, index),
                     discord.ButtonStyle.primary)
                    for index, answer in enumerate(asked.pending.question.answers[:MAX_BUTTONS])])


class AnswerButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=re.escape(ANSWER_PREFIX)
                   + r"(?P<where>[bq]\d+):(?P<seq>\d+):(?P<index>\d{1,2})"):
    """One answer to one question; pressing it answers (see ``bot.cogs.decisions``)."""

    def __init__(self, button_id: str, index: int, label: str = "answer") -> None:
        super().__init__(discord.ui.Button(
            label=self.label_for(label), style=discord.ButtonStyle.primary,
            custom_id=self.id_for(button_id, index)))
        self.button_id = button_id
        self.index = index

    @staticmethod
    def id_for(button_id: str, index: int) -> str:
        return f"{ANSWER_PREFIX}{button_id}:{index}"

    @staticmethod
    def label_for(label: str) -> str:
        """The button's label within Discord's 80 characters. A longer one keeps its end as
        well as its beginning: a unit's name often ends it ("Huzzah on all but …"), and
        stacks named alike but for their last letters must still have buttons that differ."""
        if len(label) <= LABEL:
            return label or "answer"
        head = (LABEL - 1) // 2
        return f"{label[:head]}…{label[head + 1 - LABEL:]}"

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]
                             ) -> AnswerButton:
        label = getattr(item, "label", None) or "answer"
        where = match["where"]
        return cls(f"{where[0]}{row_number(where[1:])}:{row_number(match['seq'])}",
                   int(match["index"]), label)

    async def callback(self, interaction: discord.Interaction) -> None:
        cog: AnswerPresses = cog_named(interaction, "Decisions")
        await cog.pressed(interaction, self.button_id, self.index)


GM_PREFIX = "huzzah:gm:"
GM_LABELS = {"undo": "↩️ Undo", "reroll": "🎲 Reroll"}


class GMButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
               template=re.escape(GM_PREFIX)
               + r"(?P<action>undo|reroll):(?P<battle>\d+):(?P<seq>\d+)"):
    """Undo or Reroll under a battle result: GMs only, as ``/gm undo`` and ``/gm reroll``."""

    def __init__(self, action: str, battle_id: int, seq: int) -> None:
        super().__init__(discord.ui.Button(
            label=GM_LABELS[action], style=discord.ButtonStyle.secondary,
            custom_id=self.id_for(action, battle_id, seq)))
        self.action, self.battle_id, self.seq = action, battle_id, seq

    @staticmethod
    def id_for(action: str, battle_id: int, seq: int) -> str:
        return f"{GM_PREFIX}{action}:{battle_id}:{seq}"

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]) -> GMButton:
        return cls(match["action"], int(match["battle"]), int(match["seq"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        cog: GMPresses = cog_named(interaction, "GM")
        await cog.pressed(interaction, self.action, self.battle_id, self.seq)


STEPS_PREFIX = "huzzah:steps:"
STEPS_LABEL = "📜 Steps"
KEY_MAX = 2**63 - 1  # a quick lookup's key: an interaction's snowflake, a BigInteger


class StepsButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=re.escape(STEPS_PREFIX) + r"(?P<where>[bt])(?P<key>\d+)"
                  r"(?::(?P<seq>\d+))?"):
    """Shows whoever presses it the result's steps, privately: a battle event's
    (``b<battle>:<seq>``) or a quick lookup's (``t<key>``)."""

    def __init__(self, where: str, key: int, seq: int = 0) -> None:
        super().__init__(discord.ui.Button(
            label=STEPS_LABEL, style=discord.ButtonStyle.secondary,
            custom_id=self.id_for(where, key, seq)))
        self.where, self.key, self.seq = where, key, seq

    @staticmethod
    def id_for(where: str, key: int, seq: int | None = None) -> str:
        return f"{STEPS_PREFIX}{where}{key}" + (f":{seq}" if where == "b" else "")

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]
                             ) -> StepsButton:
        where = match["where"]
        if where == "b":
            return cls(where, row_number(match["key"]), row_number(match["seq"] or "0"))
        digits = match["key"]
        key = int(digits) if len(digits) <= len(str(KEY_MAX)) else 0
        return cls(where, key if key <= KEY_MAX else 0)

    async def callback(self, interaction: discord.Interaction) -> None:
        cog: StepsPresses = cog_named(interaction, "Steps")
        await cog.pressed(interaction, self.where, self.key, self.seq)


END_PREFIX = "huzzah:end:"


def end_view(battle_id: int, name: str) -> discord.ui.View:
    return Buttons([(EndButton.label_for(name), EndButton.id_for(battle_id),
                     discord.ButtonStyle.danger)])


class EndButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                template=re.escape(END_PREFIX) + r"(?P<battle>\d+)"):
    """Confirms ``/battle end``: GMs only, and only for the battle it was offered for."""

    def __init__(self, battle_id: int, name: str = "the battle") -> None:
        super().__init__(discord.ui.Button(
            label=self.label_for(name), style=discord.ButtonStyle.danger,
            custom_id=self.id_for(battle_id)))
        self.battle_id = battle_id

    @staticmethod
    def id_for(battle_id: int) -> str:
        return f"{END_PREFIX}{battle_id}"

    @staticmethod
    def label_for(name: str) -> str:
        return f"🏁 End {name}"[:80]

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]) -> EndButton:
        return cls(int(match["battle"]), getattr(item, "label", None) or "the battle")

    async def callback(self, interaction: discord.Interaction) -> None:
        cog: EndPresses = cog_named(interaction, "Battles")
        await cog.pressed_end(interaction, self.battle_id)


HELP_PREFIX = "huzzah:help:"


class HelpButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=re.escape(HELP_PREFIX)
                 + r"(?P<topic>[a-z0-9-]{0,40}):(?P<part>[a-z]{1,20}):(?P<page>\d{1,3})"):
    """A help reply's Back or Next: shows whoever pressed it that page in place of this one
    (``huzzah:help:tricorne:words:1``: Tricorne's words, second page; the overview's topic
    is empty)."""

    def __init__(self, topic: str, part: str, page: int, label: str = "page") -> None:
        super().__init__(discord.ui.Button(
            label=label, style=discord.ButtonStyle.secondary,
            custom_id=self.id_for(topic, part, page)))
        self.topic, self.part, self.page = topic, part, page

    @staticmethod
    def id_for(topic: str, part: str, page: int) -> str:
        return f"{HELP_PREFIX}{topic}:{part}:{page}"

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]) -> HelpButton:
        return cls(match["topic"], match["part"], int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        cog: HelpPresses = cog_named(interaction, "Help")
        await cog.pressed(interaction, self.topic, self.part, self.page)


OVERRIDE_PREFIX = "huzzah:override:"
MENU_SIZE = 25  # options in one select menu


def override_view(key: tuple[int, int], outcomes: Sequence[Outcome],
                  units: Sequence[str] = (), shared: Sequence[str] = ()) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    options = []
    for outcome in outcomes[:MENU_SIZE]:
        label, rest = answered_label(outcome.label, outcome.leads, units, shared=shared)
        options.append(discord.SelectOption(label=label, value=outcome.key, description=rest))
    view.add_item(OverrideMenu(*key, options=options))
    return view


class OverrideMenu(discord.ui.DynamicItem[discord.ui.Select[Any]],
                   template=re.escape(OVERRIDE_PREFIX) + r"(?P<battle>\d+):(?P<seq>\d+)"):
    """``/gm override``'s results as a menu: picking one overrides, GMs only, while that roll
    is still the last."""

    def __init__(self, battle_id: int, seq: int,
                 options: list[discord.SelectOption] | None = None) -> None:
        super().__init__(discord.ui.Select(
            placeholder="Pick the result to apply", min_values=1, max_values=1,
            options=options or [discord.SelectOption(label="…", value="-")],
            custom_id=f"{OVERRIDE_PREFIX}{battle_id}:{seq}"))
        self.battle_id, self.seq = battle_id, seq

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]
                             ) -> OverrideMenu:
        return cls(int(match["battle"]), int(match["seq"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        cog: GMPresses = cog_named(interaction, "GM")
        values = (interaction.data or {}).get("values") or ["-"]
        await cog.picked(interaction, self.battle_id, self.seq, str(values[0]))
