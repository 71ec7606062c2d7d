"""Battle state as embeds and files: the roster, the turn, the log, the export."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from bot.battles.decisions import ANSWER_SUMMARY, Pending, asked_ago, awaited, mentioned
from bot.battles.views import (
    UNDID_ANSWER,
    UNDID_KIND,
    BattleRecord,
    BattleView,
    EngagementRecord,
    EventRecord,
    GeneralRecord,
    UnitRecord,
)
from bot.render.limits import EmbedSpec, FieldSpec, pack_messages
from bot.render.resolution import SO_FAR, effect_lines, escape, step_field, to_discord
from bot.render.text import PHONE_SCREEN, escape_prose, phone_lines
from bot.render.trace import resolution_of
from rules.core.engagements import Engagement, engagement_words
from rules.core.names import name_key
from rules.core.notation import counted
from rules.core.records import Resolution
from rules.core.registry import BattleRules, UnitWords
from rules.core.roster import Roster, strength_count
from rules.registry import RULESETS

BATTLE_COLOUR = 0x1F4E79

# A battle, unit, general or event as the store hands it out: a read-only record, never a
# database row.
Battle, Unit, General, Event = BattleRecord, UnitRecord, GeneralRecord, EventRecord


def ruleset_title(battle: Battle) -> str:
    ruleset = RULESETS.get(battle.ruleset)
    return ruleset.title if ruleset else battle.ruleset


def battle_rules(battle: Battle) -> BattleRules | None:
    ruleset = RULESETS.get(battle.ruleset)
    return ruleset.battle if ruleset else None


def turn_line(battle: Battle) -> str:
    return f"Turn {battle.turn}" + (f", {battle.phase}" if battle.phase else "")


def unit_line(unit: Unit, generals: Sequence[General], strength_label: str = "SP",
              unit_words: Callable[[Mapping[str, Any]], UnitWords] | None = None,
              strength_of: Callable[[int | None, Mapping[str, Any]], int | None] | None = None,
              side_said: bool = False, values: bool = True) -> str:
    """``**Name** · 4 SP · what it is · *markers* · with General · under Commander``; the
    rule set says how its attributes read, and what strength a unit added without one has.
    ``side_said``: the side's heading says the word its side is named (a nation every unit
    on the side has), so the line leaves it out. ``values``: with its printed values
    (``morale 4``), as `/unit list` gives it; without them, as `/battle show` does."""
    words = unit_words(dict(unit.attributes or {})) if unit_words else UnitWords()
    parts = [f"**{escape(unit.name)}**"]
    strength = strength_of(unit.strength, dict(unit.attributes or {})) if strength_of else \
        unit.strength
    if strength is not None:
        parts.append(strength_count(strength, strength_label))
    # A unit's nation named as its side is said once, by the side's heading, where every
    # unit on the side has it (``side_said``).
    described = [w for w in words.described
                 if not side_said or w.casefold() != unit.side.casefold()]
    if not values:
        described = [w for w in described if w not in words.values]
    if described:
        parts.append(escape(", ".join(described)))
    markers = [escape(marker) for marker in words.markers]
    if unit.status == "gone":
        markers.append(f"out: {unit.gone_reason}" if unit.gone_reason else "out")
    line = " · ".join(parts)
    if markers:
        line += " · " + ", ".join(f"*{m}*" for m in markers)
    with_general = [g for g in generals if g.unit_name and name_key(g.unit_name)
                    == name_key(unit.name) and g.status == "active"]
    # A unit out of the battle leaves its general to the Generals heading ("with 2nd Foot
    # (out of the battle)"): said once.
    if with_general and unit.status != "gone":
        line += f" · with {', '.join(_general_on_line(g) for g in with_general)}"
    # Whose command it is in (a general's fate may fall on it), unless he is with it.
    if unit.commander and name_key(unit.commander) not in {name_key(g.name)
                                                            for g in with_general}:
        line += f" · under {escape(unit.commander)}"
    return line


def _general_said(general: General) -> list[str]:
    """What a general has besides his place: ``value +2``, ``1 wound``."""
    said = []
    if general.value is not None:
        said.append(f"value {general.value:+d}")
    if general.wounds:
        said.append(f"{general.wounds} wound{'s' if general.wounds > 1 else ''}")
    return said


def _general_on_line(general: General) -> str:
    """A general on his unit's line: ``Ney (value +2)``."""
    said = _general_said(general)
    return escape(general.name) + (f" ({', '.join(said)})" if said else "")


def general_line(general: General, out: Collection[str] = ()) -> str:
    """``**Wolfe** (British) · with 2nd Foot``; ``out``: the name keys of units out of the
    battle, beside which a general is said to have been."""
    parts = [f"**{escape(general.name)}** ({escape(general.side)})"]
    if general.unit_name:
        gone = " (out of the battle)" if name_key(general.unit_name) in out else ""
        # A general killed or captured is with nobody now: where he fell is history.
        was = "with" if general.status == "active" else "was with"
        parts.append(f"{was} {escape(general.unit_name)}{gone}")
    parts += _general_said(general)
    if general.status != "active":
        parts.append(f"*{general.status}*")
    return " · ".join(parts)


def _side_said(side: str, units: Sequence[Unit],
               unit_words: Callable[[Mapping[str, Any]], UnitWords] | None) -> bool:
    """Whether every unit on ``side`` is described by the side's name (French units on the
    French side): the heading says it for them all. Where only some are (one British stack
    among others of no nation given, whose rules differ), each line says its own."""
    if unit_words is None:
        return False
    key = side.casefold()
    return all(any(w.casefold() == key for w in unit_words(dict(u.attributes or {})).described)
               for u in units)


def roster_fields(units: Sequence[Unit], generals: Sequence[General],
                  rules: BattleRules | None = None, values: bool = True) -> list[FieldSpec]:
    label = rules.strength_label if rules else "SP"
    words = rules.unit_words if rules else None
    strength_of = rules.strength_of if rules else None
    sides: dict[str, list[Unit]] = {}
    for unit in units:
        sides.setdefault(unit.side, []).append(unit)
    fields = []
    for side, members in sides.items():
        said = _side_said(side, members, words)  # once a side: it reads every unit's words
        fields.append(FieldSpec(escape(side), "\n".join(
            unit_line(u, generals, label, words, strength_of, side_said=said, values=values)
            for u in members)))
    # A general with a unit in the battle is said on its line alone, with his value and
    # wounds.
    on_lines = {name_key(u.name) for u in units if u.status != "gone"}
    listed_apart = [g for g in generals if not (
        g.status == "active" and g.unit_name and name_key(g.unit_name) in on_lines)]
    if listed_apart:
        out = {name_key(u.name) for u in units if u.status == "gone"}
        fields.append(FieldSpec("Generals", "\n".join(general_line(g, out)
                                                      for g in listed_apart)))
    return fields or [FieldSpec("Roster", "No units yet: add them with `/unit add`.")]


def engagement_field(engagements: Sequence[EngagementRecord],
                     rules: BattleRules | None = None) -> list[FieldSpec]:
    """The fights that last, one line each: ``Melee: 4e Léger against 52nd``."""
    if not engagements:
        return []
    lines = []
    for row in engagements:
        first, other = row.sides
        # As the rule set words its kind of engagement (a record of an attempt is no fight).
        words = rules.engagements if rules else None
        label = Engagement(row.kind, (tuple(first), tuple(other))).label_in(words)
        lines.append(f"{engagement_words(row.kind, words).icon} {escape(label)}")
    return [FieldSpec("Engagements", "\n".join(lines))]


def standing_field(rules: BattleRules | None, roster: Roster) -> list[FieldSpec]:
    """What each side has won so far, where the rule set counts it."""
    if rules is None or rules.standings is None:
        return []
    lines = rules.standings(roster)
    return [FieldSpec("Standing", "\n".join(escape(line) for line in lines))] if lines else []


def file_time(when: datetime) -> str:
    """``2026-11-27 21:00:31 UTC``: a time in a file, to the second (no Discord client there
    shows a ``<t:…>`` time, and a reader has no use for microseconds)."""
    if when.tzinfo is not None:
        when = when.astimezone(UTC)
    return when.strftime("%Y-%m-%d %H:%M:%S UTC")


def asked_at(pending: Pending) -> str:
    """``, asked 2026-11-27 21:00:31 UTC``: when the question was asked, for a file (as it
    was kept, should it not read as a time)."""
    if not pending.asked_at:
        return ""
    try:
        return f", asked {file_time(datetime.fromisoformat(pending.asked_at))}"
    except ValueError:
        return f", asked {escape(pending.asked_at)}"


def pending_line(data: Mapping[str, Any] | None,
                 when: Callable[[Pending], str] = asked_ago,
                 person: Callable[[int], str] = mentioned) -> str:
    """``❓ Waiting for an answer to “Will Black Watch take ground?” (#9, asked …): Black
    Watch's player (@Ann) or a GM``: the question a battle waits on, since when, and whose
    it is. The player is named, not pinged (``/battle show`` allows no mention); ``person``
    words him."""
    if not data:
        return ""
    pending = Pending.from_dict(data)
    return (f"❓ Waiting for an answer to “{escape(pending.question.text)}” "
            f"(#{pending.seq}{when(pending)}): {awaited(pending, escape, person)} or a GM")


def has_values(units: Sequence[Unit], rules: BattleRules | None) -> bool:
    """Whether a unit has printed values (``morale 4``) that `/unit list` gives."""
    return rules is not None and any(rules.unit_words(dict(u.attributes or {})).values
                                     for u in units)


def _runs_past_a_screen(title: str, description: str, fields: Sequence[FieldSpec]) -> bool:
    """Whether the roster runs past a phone's screen (its footer a line more)."""
    shown = [title, description, *(f"{f.name}\n{f.value}" for f in fields)]
    return sum(phone_lines(text) for text in shown) + 1 > PHONE_SCREEN


def _roster_footer(view: BattleView, values: bool, long: bool) -> str:
    units = counted(len(view.units), "unit")
    footer = f"{view.side} only: {units}" if view.side else units
    footer += f" · {counted(view.battle.last_seq, 'event')}"
    # A roster past a phone's screen: one side at a time fits.
    if view.side is None and long and len(view.battle.sides or ()) > 1:
        footer += " · side: shows one side"
    if not values and has_values(view.units, battle_rules(view.battle)):
        footer += " · values: /unit list"
    return footer


def settings_line(settings: Mapping[str, Any]) -> str:
    """``Settings: obstacle reading attacker``: the settings a GM changed from their defaults."""
    return "Settings: " + ", ".join(f"{escape(str(k).replace('_', ' '))} {escape(str(v))}"
                                    for k, v in settings.items())


def battle_messages(view: BattleView, *, values: bool = False):
    """`/battle show`; with ``values``, `/unit list`: each unit with its printed values."""
    battle, units, generals, charts = view.battle, view.units, view.generals, view.charts
    gm = f"<@{battle.created_by}>" + (f", <@&{battle.gm_role_id}>" if battle.gm_role_id else "")
    queued = len(battle.dice_queue or [])
    description = f"{ruleset_title(battle)} · {turn_line(battle)}\nGM: {gm}"
    # The sides, until each has a heading of its own over its units.
    headed = {name_key(u.side) for u in units}
    if battle.sides and not all(name_key(side) in headed for side in battle.sides):
        description += f"\nSides: {' and '.join(escape(s) for s in battle.sides)}"
    if queued:
        description += f"\n{counted(queued, 'die', 'dice')} queued by the GM for the next roll"
    if battle.settings:
        description += f"\n{settings_line(battle.settings)}"
    if charts:
        description += f"\nChart pack: {escape(charts)} (`/battle charts` shows it)"
    waiting = pending_line(battle.pending)
    if waiting:
        description += f"\n{waiting}"
    title = f"⚔️ {escape(battle.name)}"
    fields = (*roster_fields(units, generals, battle_rules(battle), values),
              *engagement_field(view.engagements, battle_rules(battle)),
              *standing_field(battle_rules(battle), view.roster))
    long = _runs_past_a_screen(title, description, fields)
    head = EmbedSpec(title=title, description=description, colour=BATTLE_COLOUR,
                     footer=_roster_footer(view, values, long), fields=fields)
    return [[to_discord(s) for s in m] for m in pack_messages(head)]


# Unit and general names hold no `:` or `;`, but may hold ". " (`Régt. de Béarn`): a full
# stop ends a clause only in an answer's summary, which ``undone_label`` reads apart.
_CLAUSE_END = re.compile(r": |; ")
UNDO_LABEL = 30  # characters of the event an undo names, past which it is cut with "…"
# Summaries that are one clause around a side's name, which may hold ": " (`Army: Left
# Wing`): "Added Rangers (Army: Left Wing)", "Side Frnch renamed French".
_ONE_CLAUSE = frozenset({"unit_add", "side_rename"})


def undone_label(summary: str, kind: str | None = None, answer: str | None = None) -> str:
    """The event an undo took back, in a few words: its summary's first clause ("Béarn vs
    2nd Foot", "Added Rangers (British)"), a question by its words, an answer by the answer
    ("Answered #5: Stand"), cut to ``UNDO_LABEL`` characters at a word. The undone event's own
    line says the rest. ``kind`` and ``answer``, as the undo kept them (``undid``), say where
    the summary's clauses end; an undo logged before it kept them is read by its stops."""
    if kind in _ONE_CLAUSE:
        label = summary
    elif summary.startswith(ANSWER_SUMMARY):  # an answer: which, and what
        number, _, rest = summary.partition(": ")
        said = answer or ""
        if kind is None and not answer:
            said, stop, _ = rest.partition(". ")
            if not stop or _CLAUSE_END.search(said):
                said = ""
        if not said:
            # A result whose headline begins with the answer (``Answered #5: 1/45e vs 52nd:
            # DR2: 52nd routs``) does not say it apart: its first clause stands for it.
            said = _CLAUSE_END.split(rest, maxsplit=1)[0]
        label = f"{number}: {said}"
    else:
        label = _CLAUSE_END.split(summary, maxsplit=1)[0]
        if label == "Asked":  # a question: its words
            label = summary
    if len(label) <= UNDO_LABEL:
        return label
    return label[:UNDO_LABEL - 1].rsplit(" ", 1)[0].rstrip(" ,;:.") + "…"


def log_said(event: Event) -> str:
    """What the event did, in its summary's words; an undo names what it took back by its
    number and a short label, not the whole of its summary again."""
    quoted = f"Undid #{event.reverts}: "
    if event.kind == "undo" and event.summary.startswith(quoted):
        undid = event.request or {}
        label = undone_label(event.summary[len(quoted):], undid.get(UNDID_KIND),
                             undid.get(UNDID_ANSWER))
        return f"Undid #{event.reverts} ({label})"
    return event.summary


def log_line(event: Event, shown: Collection[int] = ()) -> str:
    """``#7 Ann: Béarn vs 2nd Foot: Attackers win by 3``: the event's number, who, and what
    happened. An undone one is struck through; the line that undid it, when not among the
    ``shown`` ones, is named after it."""
    line = f"`#{event.seq}` {escape(event.user_name)}: {escape(log_said(event))}"
    if event.undone_by is not None:
        line = f"~~{line}~~"
        if event.undone_by not in shown:
            line += f" (undone by #{event.undone_by})"
    return line


def log_footer(battle: Battle, events: Sequence[Event]) -> str:
    """Where the battle stands and where the rest is, in one phone line where it can be: the
    turn is left out when the last line shown already says it ("Now Turn 2, movement")."""
    last = events[-1] if events else None
    said = last is not None and last.kind == "turn" and last.undone_by is None \
        and last.summary == f"Now {turn_line(battle)}"
    pointer = "whole log: /battle export"
    return pointer[0].upper() + pointer[1:] if said else f"{turn_line(battle)} · {pointer}"


def log_messages(battle: Battle, events: Sequence[Event]):
    shown = {e.seq for e in events}
    head = EmbedSpec(
        title=f"📜 {escape(battle.name)}: the last "
              + ("event" if len(events) == 1 else f"{len(events)} events"),
        description="\n".join(log_line(e, shown) for e in events)
        or "Nothing has happened yet.",
        colour=BATTLE_COLOUR,
        footer=log_footer(battle, events),
    )
    return [[to_discord(s) for s in m] for m in pack_messages(head)]


def changes_text(event: Event) -> list[str]:
    if event.resolution and event.resolution.get("roster_changes"):
        return list(event.resolution["roster_changes"])
    return []


def named_in(events: Sequence[Event]) -> Callable[[int], str]:
    """A person as the log names him (the name his latest event gives), for a file: there a
    mention is a bare number. One the log never names keeps his mention (an importer)."""
    names = {event.user_id: event.user_name for event in events if event.user_name}
    return lambda user_id: escape(names[user_id]) if user_id in names else mentioned(user_id)


def export_markdown(view: BattleView) -> str:
    """The battle as a Markdown file to read: what `/battle show` says (the roster, the fights
    still going on, the question waiting), then the whole log with each result's Steps."""
    # Player text (names, summaries) as typed, as a reply shows it.
    battle, rules = view.battle, battle_rules(view.battle)
    person = named_in(view.events)
    waiting = pending_line(battle.pending, asked_at, person)
    lines = [f"# {escape(battle.name)}", "",
             f"- Rule set: {ruleset_title(battle)}",
             f"- Channel: {battle.channel_id}",
             f"- Status: {battle.status} ({turn_line(battle)})",
             f"- Started: {file_time(battle.created_at)} by {person(battle.created_by)}",
             # What the battle plays by, as `/battle show` says it: the log alone would
             # leave a reader to work out which setting or pack an undo took back.
             *([f"- {settings_line(battle.settings)}"] if battle.settings else []),
             *([f"- Chart pack: {escape(view.charts)}"] if view.charts else []),
             *([f"- {waiting}"] if waiting else []), "",
             "## Roster", ""]
    # An empty roster is said once: not `/battle show`'s "add them with /unit add" under a
    # second Roster heading.
    listed = roster_fields(view.units, view.generals, rules) \
        if view.units or view.generals else []
    if not listed:
        lines += ["No units.", ""]
    for field in (*listed,
                  *engagement_field(view.engagements, rules), *standing_field(rules, view.roster)):
        lines += [f"### {field.name}", "", *(f"- {line}" for line in field.value.split("\n")), ""]
    lines += ["## Log", ""]
    asking = (battle.pending or {}).get("seq")
    for event in view.events:
        undone = f" (undone by #{event.undone_by})" if event.undone_by else ""
        lines.append(f"### #{event.seq} {event.kind.replace('_', ' ')}{undone}")
        lines.append("")
        lines.append(f"{file_time(event.created_at)} · {escape(event.user_name)} · "
                     f"`{event.command}`")
        lines.append("")
        lines.append(escape(event.summary))
        if event.resolution:
            lines += step_lines(event.resolution)
        if event.seq == asking and view.so_far is not None:
            lines += so_far_lines(view.so_far)
        for change in changes_text(event):
            lines.append(f"- {escape(change)}")
        lines.append("")
    return "\n".join(lines)


def so_far_lines(so_far: Resolution) -> list[str]:
    """The question waiting, as its message says it: the rolls its move made before it and
    what they did, which the roster shows only once it is answered (no event keeps them
    until then)."""
    done = effect_lines(so_far, said=())
    return [*step_lines(so_far.to_dict()), *([f"- {SO_FAR}"] if done else []),
            *(f"  - {line}" for line in done)]


def step_lines(resolution: Mapping[str, Any]) -> list[str]:
    """A result's Steps in the Markdown export, as the Steps button shows them: each step
    with its rolls and the readings under them, then the reminders and the project defaults
    that decided it."""
    kept = resolution_of(resolution)
    lines: list[str] = []
    for step in kept.steps:
        field = step_field(step)
        lines.append(f"- **{field.name}**")
        for line in filter(None, field.value.split("\n")):
            # A reading under a roll is indented: an item under the roll's.
            lines.append(f"    - {line.strip()}" if line[:1].isspace() else f"  - {line}")
    lines += [f"- Reminder: {escape_prose(note)}" for note in kept.notes]
    lines += [f"- Project default: {escape_prose(default)}" for default in kept.defaults]
    return lines
