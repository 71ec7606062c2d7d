"""/help: the overview, and each rule set's topic one part at a time, in pages of one phone
screen each.

The overview names every rule set with its commands and one example, how to ask for the odds,
where the words and settings are, and the battle and GM commands in brief. A topic is given in
parts (its commands with their examples, the words its units take, its battle settings, its
reference text): a whole topic passes the 6000 characters one message may carry, and a phone
would scroll through screens of it to find one word. A reply longer than one screen is cut
into pages (``paged``), whole fields kept together where they fit; its Back and Next buttons
show the page before or after in its place, stepping on from a part's last page to the next
part's first, so that every line of a topic is a press or two away.

Everything shown is read from the rule sets' own declarations (their commands, examples, unit
words, settings and reference) and from the command tree, so a rule set added later is shown
with no change here.
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import handle_error
from bot.render.limits import EmbedSpec, FieldSpec, pack
from bot.render.resolution import to_discord
from bot.render.text import PHONE_SCREEN, phone_lines
from bot.replies import Buttons, HelpButton
from bot.rulesets import RuleSetCommands, Subcommand
from rules.core.errors import InvalidInput, code
from rules.core.fields import Field, did_you_mean, near_misses
from rules.core.notation import LIST_FORM, quoting_rule
from rules.core.registry import BattleRules, RuleSet
from rules.core.roster import strength_word
from rules.registry import RULESETS

HELP_COLOUR = 0x34495E
TITLE = "Huzzah: dice for horse-and-musket wargames"
SETTING_COMMAND = "/battle setting"

# An option of an example given a unit as `Name: words` (`attackers:"Béarn: inf regular"`).
UNIT_OPTION = re.compile(r'(\w+):"([^":;]+:[^";]*)"')

# The commands of a battle, in the order a table meets them; each line lists its group's
# subcommands as the command tree has them.
BATTLE_GROUPS = ("battle", "unit", "general")
GM_GROUP = "gm"


class Part(StrEnum):
    """The parts of a rule set's topic, each one reply."""

    COMMANDS = "commands"
    WORDS = "words"
    SETTINGS = "settings"
    REFERENCE = "reference"


PART_SAYS = {
    Part.COMMANDS: "its commands, each with an example",
    Part.WORDS: "the words its units take, and how to quote names",
    Part.SETTINGS: "a battle's settings: key, default, what each changes",
    Part.REFERENCE: "figures its players look up often",
}


# --- /help --------------------------------------------------------------------------------


def shortest_example(rule_set: RuleSetCommands) -> str:
    """The rule set's example that takes the fewest lines on a phone: the overview shows one."""
    return min((sub.example for sub in rule_set.subcommands), key=len)


def ruleset_lines(rule_set: RuleSetCommands) -> str:
    """``**Fire at Will** `fire-at-will`: /charge · /melee · …``, then one example: the key
    once, not after every verb, so that a page fits one more rule set."""
    ruleset = rule_set.ruleset
    verbs = " · ".join(f"`/{sub.verb}`" for sub in rule_set.subcommands)
    return f"**{ruleset.title}** `{ruleset.key}`: {verbs}\ne.g. `{shortest_example(rule_set)}`"


NAV_ROW = 1
"""The phone line of a page's Back and Next buttons."""
PAGE_NUMBER = "10/10 · "  # a page's number before its footer, as long as it grows


def _field_lines(field: FieldSpec) -> int:
    return phone_lines(field.name) + phone_lines(field.value)


def _cont(name: str) -> str:
    return name if name.endswith(" (cont.)") else f"{name} (cont.)"


# A line ending so leads into the next ("…, e.g.:" before its example): the two stay on
# one page, so that a field's part on the next page starts a sentence of its own.
_LEADS_ON = re.compile(r"(?:[,:;(—]|\be\.g\.|\bi\.e\.)$")


def _leads_on(line: str) -> bool:
    """Whether a page may not end after ``line``: it leads into the line after it."""
    return bool(_LEADS_ON.search(line.rstrip()))


def _split_field(field: FieldSpec, room: int) -> tuple[FieldSpec, FieldSpec] | None:
    """The field's first lines that fit ``room`` phone lines, ending where a line or a
    sentence ends, and the rest under its name "(cont.)"; None if not even its name and
    its first line (with those it leads into) fit."""
    lines = field.value.split("\n")
    used = phone_lines(field.name)
    taken = fits = 0
    while taken < len(lines) - 1 and used + phone_lines(lines[taken]) <= room:
        used += phone_lines(lines[taken])
        taken += 1
        if not _leads_on(lines[taken - 1]):
            fits = taken
    if not fits:
        return None
    return (FieldSpec(field.name, "\n".join(lines[:fits])),
            FieldSpec(_cont(field.name), "\n".join(lines[fits:])))


_SENTENCE = re.compile(r"(?<=[.;:]) (?=\S)")


def _split_text(text: str, room: int) -> tuple[str, str] | None:
    """The text's first sentences that fit ``room`` phone lines, and the rest."""
    sentences = _SENTENCE.split(text)
    taken = 0
    while taken < len(sentences) - 1 and phone_lines(" ".join(sentences[:taken + 1])) <= room:
        taken += 1
    if not taken:
        return None
    return " ".join(sentences[:taken]), " ".join(sentences[taken:])


def paged(title: str, texts: Sequence[str], fields: Sequence[FieldSpec], footer: str, *,
          whole: bool = True) -> list[EmbedSpec]:
    """The reply cut into pages that each fit one phone screen, title, footer and a row of
    buttons counted. ``texts`` go first, each kept on one page where it fits one; then the
    fields, each on one page where it fits one if ``whole`` (a command and its example),
    else cut at a line to fill each page (lists of words). Each page's footer starts with
    its number ("2/3 · …") when there are several."""
    room = PHONE_SCREEN - phone_lines(title) - phone_lines(PAGE_NUMBER + footer) - NAV_ROW
    pages: list[tuple[list[str], list[FieldSpec]]] = [([], [])]
    used = 0
    queue: list[str | FieldSpec] = [*texts, *fields]
    while queue:
        item = queue.pop(0)
        is_text = isinstance(item, str)
        cost = phone_lines(item) if is_text else _field_lines(item)
        texts_here, fields_here = pages[-1]
        if used + cost <= room:
            (texts_here if is_text else fields_here).append(item)  # type: ignore[arg-type]
            used += cost
            continue
        if used and cost <= room and (whole or is_text):  # whole on the next page
            pages.append(([], []))
            used = 0
            queue.insert(0, item)
            continue
        split = (_split_text(item, room - used) if is_text  # type: ignore[arg-type]
                 else _split_field(item, room - used))  # type: ignore[arg-type]
        if split is None:
            if used:
                pages.append(([], []))
                used = 0
                queue.insert(0, item)
            else:  # not even a line of it fits: shown whole, on a page of its own
                (texts_here if is_text else fields_here).append(item)  # type: ignore[arg-type]
                used = room
            continue
        head, tail = split
        (texts_here if is_text else fields_here).append(head)  # type: ignore[arg-type]
        pages.append(([], []))
        used = 0
        queue.insert(0, tail)
    if not pages[-1][0] and not pages[-1][1] and len(pages) > 1:
        pages.pop()
    count = len(pages)
    return [EmbedSpec(title=title, description="\n".join(page_texts), colour=HELP_COLOUR,
                      fields=tuple(page_fields),
                      footer=" · ".join(filter(None, [f"{number}/{count}" if count > 1
                                                      else "", footer])))
            for number, (page_texts, page_fields) in enumerate(pages, 1)]


def subcommand_names(tree: app_commands.CommandTree, name: str) -> str:
    """``/gm undo · reroll · …``: a group and its subcommands as the tree has them."""
    group = tree.get_command(name)
    if not isinstance(group, app_commands.Group):
        return ""
    return f"`/{name}` " + " · ".join(sub.name for sub in group.commands)


def overview(tree: app_commands.CommandTree,
             rulesets: Sequence[RuleSetCommands]) -> list[EmbedSpec]:
    """The overview's pages: each rule set with its verbs and one example, then the odds,
    the topics, a battle's commands and the GM's."""
    battle = "\n".join(filter(None, (subcommand_names(tree, g) for g in BATTLE_GROUPS)))
    odds = min((f"/{sub.verb} odds {r.ruleset.key}" for r in rulesets for sub in r.subcommands),
               key=len)
    examples = [ruleset_lines(r) for r in rulesets]
    lookups = [
        f"**Odds**: `{odds} …`, any verb",
        "**Words, quoting names, settings**: `/help topic:`",
    ]
    common = [
        f"**A battle here**: {battle}\nThen the commands above move its units; "
        "`lookup:true` only looks up.",
        f"**GM**: {subcommand_names(tree, GM_GROUP)}",
        "`/answer` a question; `/notify off` or `on`: pings",
    ]
    # A battle's commands kept on one page: a last page of one line would be a press for
    # nothing.
    return paged(TITLE, [*examples, *lookups, "\n".join(common)], (), "")


# --- /help topic:<rule set> part:<part> ---------------------------------------------------


def described(sub: Subcommand, ruleset: RuleSet) -> str:
    """The command's description without the rule set's title it starts with."""
    text = sub.command.description
    prefix = f"{ruleset.title}: "
    return text[len(prefix):] if text.startswith(prefix) else text


def commands_part(rule_set: RuleSetCommands) -> EmbedSpec:
    ruleset = rule_set.ruleset
    fields = tuple(FieldSpec(f"/{sub.verb} {ruleset.key}",
                             f"{described(sub, ruleset)}\n`{sub.example}`")
                   for sub in rule_set.subcommands)
    first = rule_set.subcommands[0]
    return EmbedSpec(
        title=f"{ruleset.title}: commands",
        description=(f"Each example is a quick lookup with its own dice. `odds` after the "
                     f"verb gives the odds first (`/{first.verb} odds {ruleset.key} …`). A "
                     "choice the rules leave to a player comes as buttons; `choices` gives "
                     "the answers ahead, in order, as the buttons word them (`;` between "
                     "two)."),
        fields=fields)


@dataclass(frozen=True)
class UnitExample:
    """A unit in the notation as one of the rule set's own examples gives it."""

    command: str  # `/melee fire-at-will`
    option: str  # `attackers`
    unit: str  # `Béarn: inf regular`


def unit_example(rule_set: RuleSetCommands) -> UnitExample | None:
    """The shortest unit of two words or more among the rule set's examples: its own words,
    taken as typed (the examples are run by the tests), rather than another rule set's."""
    found = [UnitExample(f"/{sub.verb} {rule_set.ruleset.key}", option, unit)
             for sub in rule_set.subcommands
             for option, unit in UNIT_OPTION.findall(sub.example)]
    fuller = [e for e in found if len(e.unit.split(":", 1)[1].split()) >= 2] or found
    return min(fuller, key=lambda e: len(e.unit), default=None)


def notation(rule_set: RuleSetCommands) -> str:
    example = unit_example(rule_set)
    shown = (f", e.g. `{example.option}:\"{example.unit}\"` in `{example.command}`"
             if example else "")
    # The rule set's own words for the quoting rule's sample unit (Tricorne has no `inf`).
    words = (example.unit.partition(":")[2].strip() if example else "") or "inf"
    return (f"Describe units in one option as {LIST_FORM}. The name comes before the colon; "
            f"the words after it say what the unit is and what it is doing{shown}. "
            + quoting_rule(words))


def unit_add_example(rules: BattleRules) -> str:
    """A whole `/unit add`, as typed, in the rule set's own words."""
    return (f'/unit add side:British name:"2nd Foot" words:"{rules.unit_example}" '
            f"strength:4")


def battle_words(ruleset: RuleSet) -> list[FieldSpec]:
    """How a battle's roster takes this rule set's words, and its own word for strength."""
    rules = ruleset.battle
    if rules is None:
        return []
    label = rules.strength_label
    word = strength_word(label)
    example = f", e.g.:\n`{unit_add_example(rules)}`\n" if rules.unit_example else ". "
    return [FieldSpec(f"In a battle: strength in {label}", (
        f"A unit's strength counts {label}, in `/battle show` and every reply. Give it "
        f"with `strength` on `/unit add` or `/unit edit`, or among the words as "
        f"`{word}=N`{example}A unit's general is added with `/general add … unit:`, not "
        f"among its words."))]


SHARED_AT_LEAST = 3  # words every kind of unit takes, listed once rather than under each


def word_fields(groups: Sequence[tuple[str, list[str]]]) -> list[FieldSpec]:
    """Each kind of unit's words (a melee's, a charge's); the words they all take, what a
    unit is, listed once before them, so that a phone does not scroll through them twice."""
    shared = [line for line in groups[0][1]
              if all(line in lines for _, lines in groups[1:])] if len(groups) > 1 else []
    if len(shared) < SHARED_AT_LEAST:
        return [FieldSpec(label, "\n".join(lines)) for label, lines in groups]
    own = [(label, [line for line in lines if line not in shared]) for label, lines in groups]
    return [FieldSpec("Every unit", "\n".join(shared)),
            *(FieldSpec(f"{label}, also", "\n".join(lines)) if lines else
              FieldSpec(label, "The words of every unit, above.") for label, lines in own)]


def words_part(rule_set: RuleSetCommands) -> EmbedSpec:
    ruleset = rule_set.ruleset
    fields = word_fields([(label, words.help_lines()) for label, words in ruleset.help.words])
    return EmbedSpec(title=f"{ruleset.title}: unit words", description=notation(rule_set),
                     fields=(*fields, *battle_words(ruleset)))


def takes(setting: Field) -> str:
    """The values a setting takes, as a GM types them."""
    if setting.is_enum:
        return " · ".join(f"`{member.value}`" for member in setting.kind)
    if setting.kind in (int, float):
        kind = "a whole number" if setting.kind is int else "a number"
        if setting.minimum is None or setting.maximum is None:
            return kind
        return f"{kind}, {setting.minimum:g} to {setting.maximum:g}"
    if setting.kind is bool:
        return "`true` · `false`"
    return "text"


def settings_part(ruleset: RuleSet) -> EmbedSpec:
    settings = ruleset.battle.settings.fields if ruleset.battle else ()
    example = settings[0].name
    return EmbedSpec(
        title=f"{ruleset.title}: battle settings",
        description=(f"Where players read the rules differently. A GM changes one with "
                     f"`{SETTING_COMMAND} name:{example} value:…`; `value:default` puts it "
                     f"back. `huzzah resolve` takes them as `settings`."),
        fields=tuple(FieldSpec(f"{setting.name}: {takes(setting)}", setting.help)
                     for setting in settings))


def reference_part(ruleset: RuleSet) -> EmbedSpec:
    return EmbedSpec(title=f"{ruleset.title}: reference", fields=tuple(
        FieldSpec(label, "\n".join(f"• {line}" for line in lines))
        for label, lines in ruleset.help.reference))


def parts_of(ruleset: RuleSet) -> list[Part]:
    """The parts with something in them: every rule set has commands and words."""
    parts = [Part.COMMANDS, Part.WORDS]
    if ruleset.battle and ruleset.battle.settings.fields:
        parts.append(Part.SETTINGS)
    if ruleset.help.reference:
        parts.append(Part.REFERENCE)
    return parts


# What a rule set without the part is told: a Le Baton player asking for its settings learns
# why there are none, not only that there are none.
LACKING = {Part.SETTINGS: "has no settings: its rules leave nothing to choose",
           Part.REFERENCE: "has no reference part"}


def listed_parts(parts: Sequence[Part]) -> str:
    return " · ".join(f"`part:{part.value}`" for part in parts)


def chosen_part(ruleset: RuleSet | None, typed: str) -> Part:
    """The part typed (in any case), if the topic has it; else a refusal listing the parts
    it has (with no topic, every part)."""
    parts = parts_of(ruleset) if ruleset else list(Part)
    word = typed.strip().casefold()
    part = next((p for p in Part if p.value == word), None)
    if part is not None and part in parts:
        return part
    if part is None and ruleset is not None:
        # A near miss of a part the topic lacks (`setings`) is told why it lacks it, as the
        # part spelt right is.
        every = [p.value for p in Part]
        near_parts = near_misses(word, every, starts=every)
        part = next((p for p in Part if p not in parts and near_parts == [p.value]), None)
    listing = f"{'Its' if ruleset else 'The'} parts: {listed_parts(parts)}."
    names = [p.value for p in parts]
    near = "" if part is not None else did_you_mean(word, names, starts=names)
    if ruleset is None:  # with no topic, every part is one of its
        raise InvalidInput(f"{code(typed)} is not a part of a topic.{near}", hint=listing)
    if part is None:
        raise InvalidInput(f"{ruleset.title} has no part {code(typed)}.{near}", hint=listing)
    raise InvalidInput(f"{ruleset.title} {LACKING[part]}.", hint=listing)


def others(ruleset: RuleSet, shown: Part) -> str:
    """The footer: the topic's other parts, as typed (a footer shows no markdown)."""
    parts = " · ".join(f"part:{part.value}" for part in parts_of(ruleset) if part is not shown)
    return f"More of /help topic:{ruleset.key}: {parts}"


def topic_pages(rule_set: RuleSetCommands, part: Part = Part.COMMANDS) -> list[EmbedSpec]:
    """The part's pages. A command keeps its example on its page; a list of words or
    figures runs on from page to page."""
    ruleset = rule_set.ruleset
    if part is Part.COMMANDS:
        spec = commands_part(rule_set)
    elif part is Part.WORDS:
        spec = words_part(rule_set)
    elif part is Part.SETTINGS:
        spec = settings_part(ruleset)
    else:
        spec = reference_part(ruleset)
    whole = part in (Part.COMMANDS, Part.SETTINGS)
    return paged(spec.title, [spec.description] if spec.description else [], spec.fields,
                 others(ruleset, part), whole=whole)


OVERVIEW = "overview"  # the overview's part in a button's id; its topic is empty


def _label(place: str, page: int, count: int) -> str:
    return f"{place} {page + 1}/{count}".strip() if count > 1 else place


def help_view(rule_set: RuleSetCommands | None, part: str, page: int,
              count: int) -> discord.ui.View | None:
    """Back and Next under a page: a page of the same part, or the part before's last and
    the next part's first; none under a reply of one page."""
    buttons: list[tuple[str, str, discord.ButtonStyle]] = []
    style = discord.ButtonStyle.secondary
    topic = rule_set.ruleset.key if rule_set else ""
    place = "" if rule_set is None else part
    parts = parts_of(rule_set.ruleset) if rule_set is not None else []
    at = parts.index(Part(part)) if rule_set is not None else 0
    if page > 0:
        buttons.append((f"◀ {_label(place, page - 1, count)}",
                        HelpButton.id_for(topic, part, page - 1), style))
    elif rule_set is not None and at > 0:
        before = parts[at - 1]
        last = len(topic_pages(rule_set, before)) - 1
        buttons.append((f"◀ {_label(before.value, last, last + 1)}",
                        HelpButton.id_for(topic, before.value, last), style))
    if page < count - 1:
        buttons.append((f"{_label(place, page + 1, count)} ▶",
                        HelpButton.id_for(topic, part, page + 1), style))
    elif rule_set is not None and at < len(parts) - 1:
        after = parts[at + 1]
        pages = len(topic_pages(rule_set, after))
        buttons.append((f"{_label(after.value, 0, pages)} ▶",
                        HelpButton.id_for(topic, after.value, 0), style))
    return Buttons(buttons) if buttons else None


class Help(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    def rulesets(self) -> list[RuleSetCommands]:
        return list(getattr(self.bot, "rulesets", []))

    @app_commands.command(name="help",
                          description="How to use Huzzah: commands, examples, unit words, settings")
    @app_commands.describe(topic="A rule set: its commands with examples, words and settings",
                           part="One part of the rule set's topic (default: its commands)")
    @app_commands.choices(
        topic=[app_commands.Choice(name=r.title, value=r.key) for r in RULESETS.values()],
    )
    async def help(
        self, interaction: discord.Interaction,
        topic: app_commands.Choice[str] | None = None,
        part: app_commands.Range[str, 1, 100] | None = None,
    ) -> None:
        if topic is None:
            if part is not None:
                chosen = chosen_part(None, part)
                # A rule set that has the part: the command given must show it.
                example = next(r.key for r in RULESETS.values() if chosen in parts_of(r))
                raise InvalidInput(
                    f"`part:{chosen.value}` is a part of a rule set's topic.",
                    hint=f"Name the rule set too: `/help topic:{example} "
                         f"part:{chosen.value}`.")
            specs, view = self.page(None, OVERVIEW, 0)
        else:
            (rule_set,) = [r for r in self.rulesets() if r.ruleset.key == topic.value]
            chosen = chosen_part(rule_set.ruleset, part) if part else Part.COMMANDS
            specs, view = self.page(rule_set, chosen.value, 0)
        await interaction.response.send_message(
            embeds=[to_discord(s) for s in specs], ephemeral=True,
            **({"view": view} if view else {}))

    def page(self, rule_set: RuleSetCommands | None, part: str,
             page: int) -> tuple[list[EmbedSpec], discord.ui.View | None]:
        """A page of the overview (no rule set) or of a rule set's part, with its buttons;
        one past the last (the help changed since the buttons were sent) is the last."""
        if rule_set is None:
            pages = overview(self.bot.tree, self.rulesets())
        else:
            pages = topic_pages(rule_set, Part(part))
        page = min(page, len(pages) - 1)
        return pack(pages[page]), help_view(rule_set, part, page, len(pages))

    async def pressed(self, interaction: discord.Interaction, topic: str, part: str,
                      page: int) -> None:
        """Back or Next: the page asked for, in place of the one pressed."""
        found = [r for r in self.rulesets() if r.ruleset.key == topic]
        known = (not topic and part == OVERVIEW) or (
            len(found) == 1 and part in {p.value for p in parts_of(found[0].ruleset)})
        if not known:
            await handle_error(interaction, InvalidInput(
                "That help page is no longer there.", hint="`/help` gives the overview."))
            return
        specs, view = self.page(found[0] if topic else None, part, page)
        await interaction.response.edit_message(embeds=[to_discord(s) for s in specs],
                                                view=view)

    # The parts offered are those of the topic chosen (Fire at Will has no reference part):
    # fixed choices would offer every rule set's parts to each.
    @help.autocomplete("part")
    async def _parts(self, interaction: discord.Interaction,
                     current: str) -> list[app_commands.Choice[str]]:
        ruleset = RULESETS.get(str(interaction.namespace.topic or ""))
        typed = current.strip().casefold()
        return [app_commands.Choice(name=f"{p.value}: {PART_SAYS[p]}", value=p.value)
                for p in (parts_of(ruleset) if ruleset else Part) if p.value.startswith(typed)]
