"""Turn an engine ``Resolution`` into embeds a player reads at a glance on a phone.

The public reply (``resolution_messages``) says the result once: the title is the headline
and the colour says how hard it fell; under it one line per unit the result falls on (in a
battle, what changed on the roster in its place), then one line per roll: who rolled, every
die (and how many and why, where the rules count them and the reply fits a phone), every
modifier with its reason, the total, what it was read against and the outcome; scores
read against nothing that share their modifiers (three battalions charging alike) say the
modifiers once, on a line above theirs; rolls of a step read against the same target (a
side's morale checks) say it once above theirs, with their result where it is the same, and
units on which the same effects fall are named together, where that saves lines of a phone.
Players check dice, so the rolls stay public; the project defaults that decided the result
close it in the footer.

The procedure step by step (each step's narration, the readings under a roll, the
reminders) is the trace (``trace_messages``), shown privately by the Steps button under the
result: it may name the files and sections a reading comes from, which the public reply
never does.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import replace

import discord

from bot.render.limits import EmbedSpec, FieldSpec, pack_messages
from bot.render.text import (
    PHONE_LINE,
    PHONE_SCREEN,
    default_names,
    defaults_note,
    escape,
    escape_prose,
    phone_lines,
)
from rules.core.decisions import Question
from rules.core.dice import Reading
from rules.core.effects import loss_measure, plural, singular
from rules.core.headlines import CUT, SEPARATOR, fitted, listed, together
from rules.core.notation import counted
from rules.core.odds_glance import Fate, fate_of
from rules.core.records import (
    CHECK,
    D66_KIND,
    Effect,
    EffectKind,
    Modifier,
    Resolution,
    Roll,
    Severity,
    Step,
)
from rules.registry import RULESETS

COLOURS: dict[Severity, int] = {
    Severity.NONE: 0x2E8B57,  # green: nothing gave way
    Severity.MINOR: 0xDAA520,  # gold: a small change
    Severity.MAJOR: 0xE67E22,  # orange: losses, a retreat
    Severity.DECISIVE: 0xC0392B,  # red: a rout, a surrender
}

ICONS: dict[Severity, str] = {
    Severity.NONE: "🛡️",
    Severity.MINOR: "↔️",
    Severity.MAJOR: "🩸",  # ⚠️ is kept for errors and refusals
    Severity.DECISIVE: "💥",
}


def source_line(resolution: Resolution) -> str:
    ruleset = RULESETS.get(resolution.ruleset)
    title = ruleset.title if ruleset else resolution.ruleset
    return f"{title} · {resolution.procedure.replace('-', ' ').capitalize()}"


def modifier_text(modifier: Modifier) -> str:
    # The engine's words name units (``+2 Ney's``): player text, escaped as such.
    return f"{modifier.signed()} {escape_prose(modifier.reason)}"


def roll_line(roll: Roll, *, labelled: bool = True, with_target: bool = True,
              notes: bool = True) -> str:
    """One roll on one line: label, every die, every modifier with its reason, total, target.

    ``labelled`` and ``with_target`` are off when the step around it already says them;
    ``notes`` (the readings under the roll) are the trace's: without them, for the public
    reply, a battle die's symbols are the short words the ``dice`` option takes.
    """
    if roll.hits is not None:
        return pool_line(roll, labelled=labelled, with_target=with_target, notes=notes)
    # A d66 reads as its two dice side by side: in the public reply, shown so ("🎲 44").
    d66 = not notes and roll.kind == D66_KIND and len(roll.dice) == 2 and \
        Reading.DROPPED not in roll.readings
    dice = "".join(map(str, roll.dice)) if d66 else dice_text(roll, short=not notes)
    dice += counted_dice(roll, notes)
    parts = [f"**{escape(roll.label)}** 🎲 {dice}" if labelled else f"🎲 {dice}"]
    parts.extend(modifier_text(m) for m in roll.modifiers)
    line = " ".join(parts)
    if roll.total is not None and (roll.modifiers or (len(roll.dice) > 1 and not d66)):
        # A minus as the modifiers print theirs ("−1"), not a hyphen.
        line += f" = **{str(roll.total).replace('-', '−')}**"
    if roll.target and with_target:
        line += f" vs {escape_prose(roll.target)}"
    if roll.result:
        line += f" → {escape_prose(roll.result)}"
    return line + notes_text(roll) if notes else line


# How a die shows by its reading: hits in bold, dice set aside struck through.
SHOWN: dict[Reading, str] = {Reading.HIT: "**{}**", Reading.DROPPED: "~~{}~~"}


# A battle die's symbols as typed in the ``dice`` option: a line of them fits a phone.
SHORT_FACES = {"infantry": "inf", "cavalry": "cav", "artillery": "art"}


def dice_text(roll: Roll, *, short: bool = False) -> str:
    return " ".join(SHOWN.get(reading, "{}").format(
        SHORT_FACES.get(str(face), face) if short else face)
        for face, reading in zip(roll.dice, roll.readings, strict=True))


def pool_line(roll: Roll, *, labelled: bool = True, with_target: bool = True,
              notes: bool = True) -> str:
    """Dice read one by one: each die against the number, hits in bold."""
    dice = (dice_text(roll, short=not notes) or "no dice") + counted_dice(roll, notes)
    line = f"**{escape(roll.label)}** 🎲 {dice}" if labelled else f"🎲 {dice}"
    if roll.modifiers:
        line += " (each die " + " ".join(modifier_text(m) for m in roll.modifiers) + ")"
    if roll.target and with_target:
        line += f" vs {escape_prose(roll.target)}"
    line += f" → {escape_prose(str(roll.result or roll.hits))}"
    return line + notes_text(roll) if notes else line


def counted_dice(roll: Roll, notes: bool) -> str:
    """How many dice and why, after the dice, in the public reply: the Steps say it in the
    notes under the roll."""
    return f" ({escape_prose(roll.count)})" if roll.count and not notes else ""


def notes_text(roll: Roll) -> str:
    return "".join(f"\n  ‣ {escape_prose(note)}" for note in roll.notes)


def shared_target(step: Step) -> str | None:
    """The target every roll of the step is read against, when there are several."""
    targets = {roll.target for roll in step.rolls}
    if len(step.rolls) > 1 and len(targets) == 1:
        return targets.pop()
    return None


def step_field(step: Step) -> FieldSpec:
    """A step in one field: each roll on one line, the outcome closing the last one.

    A target shared by every roll is said once, in the field's name; a lone roll named in
    the step's title drops its label.
    """
    target = shared_target(step)
    labelled = not (len(step.rolls) == 1 and step.rolls[0].label in step.title)
    lines = [roll_line(roll, labelled=labelled, with_target=target is None)
             for roll in step.rolls]
    if not step.outcome:
        pass
    elif lines and "\n" not in lines[-1]:
        lines[-1] += f" — {escape_prose(step.outcome)}"
    else:
        lines.append(escape_prose(step.outcome))
    name = f"{step.title} · vs {target}" if target else step.title
    return FieldSpec(escape(name), "\n".join(lines))


def said_of(effect: Effect) -> str:
    """What an effect says of its unit, after the unit's name ("routs"; nothing for a rule
    set's bookkeeping)."""
    return effect.describe().removeprefix(effect.unit).strip()


def effect_lines(resolution: Resolution, *, said: Sequence[str] | None = None) -> list[str]:
    """One line per unit or general: everything that falls on it, in the order given.

    ``said``: leave out what these lines say already (the headline, what changed on the
    roster); a unit whose every effect they say gets no line, so that the public reply says
    each effect once.
    """
    by_unit: dict[str, list[str]] = {}
    heads = [line.casefold() for line in said or ()]
    units = [effect.unit for effect in resolution.effects]
    gone = set() if said is None else gone_units(resolution.effects)
    for effect in (summed(resolution.effects) if said is not None else resolution.effects):
        if effect.unit in gone and effect.kind in MOOT_WHEN_GONE:
            by_unit.setdefault(effect.unit, [])
            continue
        # "Montcalm: units of his command … are shaken" keeps its colon when it comes first
        # on the line; after another effect it reads on ("is killed, units …").
        text = said_of(effect)
        by_unit.setdefault(effect.unit, [])
        if not text:  # bookkeeping a rule set keeps, which the result itself says
            continue
        if not (heads and said_in(heads, effect.unit, text.lstrip(":").strip(), units)):
            by_unit[effect.unit].append(text)
    if said is None:
        return [_unit_line((unit,), parts) for unit, parts in by_unit.items() if parts]
    _drop_mutual(by_unit)
    for parts in by_unit.values():
        parts[:] = _alike(parts)
    # Units on which the same things fall are said together: three battalions that advance
    # alike are one line, not three. Words after a colon ("Montcalm: units of his command
    # …") are his alone.
    entries = [(unit, parts) for unit, parts in by_unit.items() if parts]
    return min((said_once([_unit_line(units, parts) for units, parts in together(
        (unit, parts, not parts[0].startswith(":")) for unit, parts in tried)],
        resolution.effects) for tried in (entries, tails_apart(entries))),
        key=lambda lines: phone_lines("\n".join(lines)))


def tails_apart(entries: Sequence[tuple[str, list[str]]]) -> list[tuple[str, list[str]]]:
    """A unit whose last effects are all another unit's (1/45e "loses 3 increments,
    advances 3 hexes, is disordered"; 3/45e "advances 3 hexes, is disordered"): those on a
    line of their own, which the other unit's joins ("1/45e and 3/45e: each advances …").
    ``effect_lines`` takes it where it saves a line of a phone."""
    split: list[tuple[str, list[str]]] = []
    for at, (unit, parts) in enumerate(entries):
        tail = next((others for _, others in entries[at + 1:]
                     if 0 < len(others) < len(parts) and parts[-len(others):] == others
                     and not others[0].startswith(":")), None)
        if tail is None:
            split.append((unit, parts))
        else:
            split += [(unit, parts[:-len(tail)]), (unit, list(tail))]
    return split


# A move's direction that is a sum, what its amount is made of: "(the target hex + 2
# impetus)"; not a place ("back", "(forest)").
_MADE_OF = re.compile(r"\((.+ \+ .+)\)")


def said_once(lines: list[str], effects: Sequence[Effect]) -> list[str]:
    """Lines of units that move alike and say what their move is made of ("advances 3 hexes
    (the target hex + 2 impetus)"): the making said once, under them ("3 hexes = the target
    hex + 2 impetus"), not on each line, where that saves a line of a phone. A line alone
    keeps it."""
    for effect in effects:
        made_of = _MADE_OF.fullmatch(effect.direction or "") \
            if effect.kind == EffectKind.MOVED else None
        if made_of is None:
            continue
        moved = f"{effect.amount} {effect.measure} {made_of[0]}"
        carrying = [index for index, line in enumerate(lines) if moved in line]
        said = {index: lines[index].replace(f" {made_of[0]}", "") for index in carrying}
        once = f"{effect.amount} {effect.measure} = {made_of[1]}"
        if len(carrying) > 1 and phone_lines("\n".join([*said.values(), once])) < \
                phone_lines("\n".join(lines[index] for index in carrying)):
            lines = [said.get(index, line) for index, line in enumerate(lines)] + [once]
    return lines


# A unit's state on the table, which a unit that leaves the battle no longer has: a marker
# set or cleared, a formation (whatever rule set's kind is so named). Its losses stay: they
# say how it was lost.
MOOT_WHEN_GONE = frozenset({EffectKind.MARKER_SET, EffectKind.MARKER_CLEARED, "formation"})


def gone_units(effects: Iterable[Effect]) -> set[str]:
    """The units the result takes out of the battle (surrenders, is destroyed, leaves the
    battle), as their rule set declares it or the kind says it."""
    return {effect.unit for effect in effects if (fate_of(effect) or (None,))[0] is Fate.GONE}


def _unit_line(units: Sequence[str], parts: Sequence[str]) -> str:
    first, *rest = parts
    said = ", ".join([first, *(part.lstrip(":").strip() for part in rest)])
    if len(units) > 1:
        return f"{listed([f'**{escape(unit)}**' for unit in units])}: each {escape(said)}"
    return f"**{escape(units[0])}**{'' if said.startswith(':') else ' '}{escape(said)}"


_COUNTED = re.compile(r"\d+ (\w{1,3})\w*")  # a number and its word, cut to its stem


def summed(effects: Sequence[Effect]) -> list[Effect]:
    """Effects alike but for their amount, on one unit, as one ("loses 1 block" and "loses 2
    blocks": "loses 3 blocks")."""
    merged: dict[tuple[object, ...], Effect] = {}
    for effect in effects:
        # Alike as said, but for the number and its plural ("1 block", "2 blocks").
        said = re.sub(r"\d+", "#", _COUNTED.sub(r"# \1", effect.describe()))
        measure = plural(effect.measure) if effect.measure else effect.measure
        key: tuple[object, ...] = (effect.kind, effect.unit, effect.value, measure,
                                   effect.direction, said)
        if effect.amount is None:
            key += (len(merged),)  # nothing to add up: kept as it is
        found = merged.get(key)
        # Added up, the measure is said in the plural (a text says "1 block" of one alone).
        merged[key] = effect if found is None else replace(
            found, amount=(found.amount or 0) + (effect.amount or 0), measure=measure)
    return list(merged.values())


def _alike(parts: list[str]) -> list[str]:
    """Parts said alike, as one, their reasons (if any) after: "wins a Victory Banner ×2"."""
    reasons: dict[str, list[str]] = {}
    counts: dict[str, int] = {}
    for part in parts:
        base, _, reason = part.partition(" (")
        if not (reason.endswith(")") and "(" not in reason):
            base, reason = part, ""
        counts[base] = counts.get(base, 0) + 1
        if reason:
            reasons.setdefault(base, []).append(reason[:-1])
    merged = []
    for base, count in counts.items():
        why = "; ".join(reasons.get(base, ()))
        merged.append(base + (f" ×{count}" if count > 1 else "") + (f" ({why})" if why else ""))
    return merged


def _drop_mutual(by_unit: dict[str, list[str]]) -> None:
    """An effect two units share, said of each ("A is locked in a firefight with B", "B is
    locked in a firefight with A"), is said once: of the first."""
    seen: set[tuple[str, str]] = set()
    for unit, parts in by_unit.items():
        kept = []
        for part in parts:
            for other in by_unit:
                if other != unit and part.endswith(f" {other}") and \
                        (other, part[:-len(other)] + unit) in seen:
                    break
            else:
                kept.append(part)
            seen.add((unit, part))
        parts[:] = kept


_AMOUNT = re.compile(r"(\d+) (\w+)")
# A phrase said of every unit of the fight, on either side: "both sides retire 3\"".
_BOTH_SIDES = re.compile(r"\bboth sides\b")
# A loss, which a headline may give by its amount alone ("Béarn routs, −2 SP").
_LOSS_SAID = re.compile(r"(?:takes|loses) \d")
_STATE = re.compile(r"is \w+")  # a unit's state in one word: "is disordered"


def naming(lines: Sequence[str], unit: str, units: Sequence[str]) -> list[str]:
    """The ``lines`` that name ``unit`` as a whole name, casefolded, each with the longer
    names of ``units`` that hold it blotted out: "Rangers" is not named in "Rogers Rangers
    retires", nor "B" in "wins by 1"."""
    unit = unit.casefold()
    others = {u.casefold() for u in units} - {unit}
    longer = [name for name in others if unit in name]
    whole = re.compile(rf"(?<!\w){re.escape(unit)}(?!\w)")
    found = []
    for line in map(str.casefold, lines):
        line = _without_names(line, longer)
        if whole.search(line):
            found.append(line)
    return found


# Between a headline's phrases: its separator, or the "…" of phrases it left out ("A scores
# 1 hit on B … A retreats 1 hex" is two phrases, not one that says B retreats 1 hex).
_PHRASE_BREAK = re.compile(rf"{re.escape(SEPARATOR)}|\s*{CUT}\s*")


def phrases_of(line: str) -> list[str]:
    """A headline's (or a roster line's) phrases, each apart."""
    return [part for part in _PHRASE_BREAK.split(line) if part]


def said_in(heads: Sequence[str], unit: str, text: str, units: Sequence[str] = ()) -> bool:
    """Whether one of ``heads`` (lines already said, casefolded) says this effect on this
    unit: it names the unit (not only inside the longer name of another of ``units``), and
    the effect's amount (``loses 2 SP``: "2 SP") or, for an effect without one, its verb
    (``routs``: "rout", as in "is routing") is in it. A verb alone never stands for an
    amount: "loses the melee" does not say "loses 2 stands"."""
    text = text.casefold()
    # Each phrase apart: "Fus retreats 1 hex" does not say that Grens takes ground 1 hex.
    phrases = [part for head in heads for part in phrases_of(head)]
    heads = naming(phrases, unit, units)
    if unit in units:
        # "Drawn at 5: both sides retire 3\"" says it of every unit the result falls on.
        heads += [phrase for phrase in phrases
                  if _BOTH_SIDES.search(phrase) and phrase not in heads]
    if not heads:
        return False
    # Read in the words around the names: "Dragoons kills Winslow" says no "wins", nor
    # "Bannerman" a Victory Banner.
    heads = [_without_names(head, (unit, *units)) for head in heads]
    if _STATE.fullmatch(text) and any(" is now " in head for head in heads):
        # A state the move passed through ("is disordered") where the roster gives the one
        # it ended in ("is now routed"): the roster's line says where the unit stands.
        return True
    found = _AMOUNT.findall(text)
    if found:
        amounts = [f"{n} {measure}" for n, measure in found]
        # A loss said in the roster's measure: "takes 2 casualties" is "loses 2 figures".
        if _LOSS_SAID.match(text):
            amounts += [f"loses {n} " for n, _ in found]
            return any(amount in head for amount in amounts for head in heads)
        # The word its amount follows, of a verb of several words too ("takes ground 1 hex",
        # "retires and rallies 1 hex"): as a headline would say it before the amount.
        before = text[:text.find(amounts[0])].split()
        verb = before[-1][:4] if before else ""
        return any(_amount_said(amount, verb, head) for amount in amounts for head in heads)
    words = [w.strip('",.;:') for w in text.split() if w not in ("is", "the", "a")]
    if not words:
        return False
    # The verb's stem ("rout" in "is routing"), or a word of the effect's own that the line
    # repeats ("forms square": "is now in square"; "leaves a charge marker": "has a charge
    # marker"): the roster's line says the same change in its own words. A short word
    # counts as the state the roster's line gives ("forms line": "is now in line").
    return any(words[0][:4] in head or any(len(w) >= 5 and w in head for w in words[1:])
               or any(f"now in {w}" in head for w in words[1:]) for head in heads)


def _amount_said(amount: str, verb: str, head: str) -> bool:
    """Whether ``head`` says this amount of an effect whose verb begins ``verb``: not as
    another verb's ("A retreats 1 hex" does not say that A takes ground 1 hex), but bare
    ("fails recall: 1 casualty") or after its own verb."""
    for found in re.finditer(rf"(?:(\w+) )?{re.escape(amount)}", head):
        before = found[1]
        if before is None or not before.isalpha() or before.startswith(verb):
            return True
    return False


def _without_names(line: str, names: Iterable[str]) -> str:
    """``line`` (casefolded) with each of ``names`` in it blotted out, longest first: a
    whole name, not letters of a word ("A" in "shaken")."""
    for name in sorted({n.casefold() for n in names if n}, key=len, reverse=True):
        line = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", "\0", line)
    return line


def effects_block(resolution: Resolution, battle_changes: Sequence[str] | None, *,
                  once: bool = False) -> str:
    """What the result does, under the headline; in a battle, what changed on the roster.
    ``once``: an effect the headline or a roster change says is not said again."""
    said = [resolution.headline, *(battle_changes or ())] if once else None
    lines = effect_lines(resolution, said=said)
    # A rule set's bookkeeping (a unit that has tested this phase) is no effect to say.
    worded = any(said_of(e) for e in resolution.effects)
    if not worded and not battle_changes:  # a reroll's roster may still change back
        lines = ["No effect on any unit."]
    if battle_changes is not None:
        changes = [line for line in battle_changes
                   if not (once and _headline_says(resolution, line))]
        if once:
            changes = [_aside_left(resolution, left) for line in changes
                       if (left := _left_to_say(resolution, line)) is not None]
        # "No effect on any unit" already says the roster is as it was.
        roster = [escape(line) for line in changes] or \
            ([] if battle_changes or not worded else ["No change to the roster."])
        lines += [f"📋 {line}" for line in roster]
    return "\n".join(lines)


def _headline_says(resolution: Resolution, change: str) -> bool:
    """Whether the headline says this roster change already: word for word ("Rangers
    surrenders"), or a unit's new state in one phrase ("28e Ligne is now in line") that the
    headline gives as what the unit does ("28e Ligne fails to close: forms line 2\" short")."""
    units = [effect.unit for effect in resolution.effects]
    if not any(change.startswith(unit) for unit in units):  # a general's line, say
        return change.casefold() in resolution.headline.casefold()
    # Each phrase apart: "Foot Guards is shaken; Guards routs" does not say Guards is shaken.
    phrases = phrases_of(resolution.headline)
    for unit in dict.fromkeys(units):
        if not change.startswith(unit):
            continue
        for headline in naming(phrases, unit, units):
            if re.search(rf"(?<!\w){re.escape(change.casefold())}", headline):
                return True
            state = _ONE_STATE.fullmatch(change[len(unit):])
            if state and _said_of(headline, unit, units, _verb_of(state[1].casefold())):
                return True
    return False


def _said_of(phrase: str, unit: str, units: Sequence[str], verb: str) -> bool:
    """Whether ``phrase`` (casefolded) says ``verb`` of the unit: after its whole name, with
    no other unit named between but in a list with it ("1/31e and 2/31e rout"), or done to
    it ("Dragoons eliminates Black Watch"). Said of another, it is not the unit's: "Guard
    vs Old Guard: Old Guard routs" says no rout of Guard, nor "1/45e vs 11/45e: 11/45e
    routs" of 1/45e."""
    unit = unit.casefold()
    # Longest first, so that "Guard" is not found inside "Old Guard": the unit is marked
    # \x01, any other \x00.
    for name in sorted({u.casefold() for u in units} | {unit}, key=len, reverse=True):
        mark = "\x01" if name == unit else "\x00"
        phrase = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", mark, phrase)
    listed = r"(?:,| and| &) [\x00\x01]"
    return re.search(rf"\x01(?:{listed})*[^\x00\x01]*?{verb}|{verb}\w* [\x00\x01]"
                     rf"(?:{listed})*(?<=\x01)", phrase) is not None


# A roster line with an aside in brackets: "Rangers surrenders (leaves the battle)".
_ASIDE = re.compile(r"(.+) \(([^()]+)\)")


def _aside_left(resolution: Resolution, change: str) -> str:
    """A roster line whose words the headline says, but for its aside in brackets ("💥
    Rangers surrenders"; "Rangers surrenders (leaves the battle)"): the unit and the aside
    alone ("Rangers leaves the battle"). Any other line, whole."""
    aside = _ASIDE.fullmatch(change)
    # Only an aside that says a thing of its own ("leaves the battle"): a count ("loses 1
    # SP (now 2)", "is wounded (1 wound)") says more of what is before it.
    if aside is None or not aside[2][:1].isalpha() or aside[2].startswith("now ") or \
            not _headline_says(resolution, aside[1]):
        return change
    unit = _line_unit(resolution, change)
    return change if unit is None else f"{unit} {aside[2]}"


def _line_unit(resolution: Resolution, change: str) -> str | None:
    """The unit a roster line is about: the longest of the result's units' names it begins
    with ("Rangers Light …" is not Rangers')."""
    return max((e.unit for e in resolution.effects if change.startswith(f"{e.unit} ")),
               key=len, default=None)


_PHRASES = re.compile(r", | and ")  # between a roster line's phrases
# A roster line that opens with a unit's loss: "loses 2 SP (now 1)", then its other phrases.
_LOSS = re.compile(r"loses (\d+) (\S+) \(now (\d+)\)(?:(?:, | and )(.+))?")


def _left_to_say(resolution: Resolution, change: str) -> str | None:
    """A unit's loss the headline says ("Béarn routs, −2 SP"; "Béarn loses 2 SP (now 1), is
    routing and is shaken"): the line says where its strength now stands and what else the
    headline does not ("Béarn: now 1 SP, is shaken"), or nothing once it has gone; nothing
    for a unit's leaving alone that the headline gives. Any other line, whole."""
    unit = _line_unit(resolution, change)
    loss = _LOSS.fullmatch(change[len(unit) + 1:]) if unit is not None else None
    if loss is None:
        rest = change[len(unit) + 1:] if unit is not None else ""
        # The unit's leaving alone, which the headline gives ("Buffs fails by 3: routs,
        # removed": "Buffs routs off the field"); a line with more to say is kept.
        if unit is not None and ", " not in rest and _verb_said(
                _own_phrases(resolution, unit), unit, rest,
                [effect.unit for effect in resolution.effects]):
            return None
        return change
    units = [effect.unit for effect in resolution.effects]
    amount, measure, count, rest = loss[1], loss[2], int(loss[3]), loss[4] or ""
    # Only the headline's phrases of this unit's own ("Béarn routs, −2 SP"; "Lanciers fails
    # recall: 1 casualty, held"), not another's that names it ("71st loses 1 SP to Béarn").
    # A phrase after the headline's lead ("Attackers win by 3: Béarn routs …"), whose aside
    # may hold a colon of its own ("(tied lowest: first listed)").
    own = _own_phrases(resolution, unit)
    # The loss in the roster's measure ("1 figure") or in its effect's words ("1 casualty"):
    # an effect that counts a loss, not a retreat of as many hexes.
    losses = {f"{amount} {measure}".casefold()} | {
        found.casefold() for effect in resolution.effects
        if effect.unit == unit and effect.amount == int(amount) and loss_measure(effect)[0]
        for found in re.findall(rf"\b{amount} \w+", said_of(effect))}
    phrases = _PHRASES.split(rest) if rest else []  # the line's, after its loss
    if not any(loss in part for loss in losses for part in own):
        # The loss is the line's to say; a phrase the headline says is not: word for word
        # ("7e Hussards is destroyed in its rout": "… (now 0) and is destroyed"), or as the
        # unit's new state, as a line of that state alone would be ("1/31e and 2/31e rout":
        # "… (now 3) and is now routed").
        kept = [p for p in phrases
                if not any(part.startswith(f"{unit} {p}".casefold()) for part in own)
                and not _headline_says(resolution, f"{unit} {p}")
                and not _verb_said(own, unit, p, units)]
        if len(kept) == len(phrases):
            return change
        # Said as the roster says a list: its last phrase after "and".
        return listed([f"{unit} loses {amount} {measure} (now {count})", *kept])
    # The rest of the line the headline does not say ("is shaken", by its general's fall).
    unsaid = [phrase for phrase in phrases if not said_in(own, unit, phrase, units)
              and not _headline_says(resolution, f"{unit} {phrase}")]
    if count == 0:
        return change if unsaid else None  # the headline says how it ended
    now = f"{unit}: now {count} {singular(measure) if count == 1 else plural(measure)}"
    return ", ".join([now, *unsaid])


def _own_phrases(resolution: Resolution, unit: str) -> list[str]:
    """The headline's phrases (casefolded) that begin with the unit's whole name, not a
    longer one holding it ("Guard Grenadiers loses 1 block"); a phrase after the headline's
    lead too ("Attackers win by 3: Béarn routs …")."""
    name = re.compile(rf"{re.escape(unit.casefold())}(?!\w)")
    longer = [other.casefold() for effect in resolution.effects
              if len(other := effect.unit) > len(unit)
              and other.casefold().startswith(unit.casefold())]
    return [part for whole in phrases_of(resolution.headline.casefold())
            for part in dict.fromkeys((whole, whole.split(": ", 1)[-1],
                                       whole.rsplit(": ", 1)[-1]))
            if name.match(part) and not any(part.startswith(other) for other in longer)]


# A new state, and no other change: "is now in line", "is halted".
_ONE_STATE = re.compile(r" is (?:now )?(?:in )?([\w-]+)")


_LEAVING = ("rout", "break")
"""Verbs of a unit leaving the fight: said in the headline, the roster's "routs off the
field" or "breaks and leaves the battle" says nothing more of it."""


def _verb_said(own: Sequence[str], unit: str, phrase: str, units: Sequence[str]) -> bool:
    """Whether the unit's own phrases of the headline (``own``, casefolded) say the roster
    phrase's verb of leaving of ``unit`` ("routs off the field": "Fusiliers routs"; "breaks
    and leaves the battle": "… and breaks"), which the roster would say a second time. Only
    those: a loss's numbers ("loses 2 blocks (now 2)") are the roster's own. A state ("is
    shaken") is ``_headline_says``'s to read. ``own`` holds any phrase beginning with the
    unit's name: "Guard Grenadiers routs" says no rout of Guard."""
    verb = next((v for v in _LEAVING if phrase.casefold().startswith(v)), None)
    if verb is None:
        return False
    return any(_said_of(part, unit, units, rf"\b{verb}") for part in own)


def _verb_of(state: str) -> str:
    """A pattern for a state's word in a headline, where its verb may end otherwise
    ("halted": "halts"; "routing": "routs"); a word with no such ending, whole."""
    for ending in ("ing", "ed", "s"):
        if state.endswith(ending) and len(state) - len(ending) >= 4:
            return rf"\b{re.escape(state[:-len(ending)])}"
    return rf"\b{re.escape(state)}\b"


# The step that says an answer given ahead did not fit its question (``rules.core.records``):
# it decided that the player is asked after all, so the public reply says it too.
SET_ASIDE = "Choices given ahead"
# A battle's remark that the move was played outside its phase (``bot.battles.play``): the
# players should see it, so it is said under the rolls.
OUT_OF_PHASE = "Out of phase"


def scored(roll: Roll) -> bool:
    """A roll read against nothing, only added up (a melee's score, which the side's highest
    settles), with modifiers: units rolling alike have them said once (``alike_rolls``)."""
    return bool(roll.modifiers) and roll.total is not None and not (
        roll.target or roll.result or roll.count or roll.hits is not None)


def alike_rolls(rolls: Sequence[Roll]) -> list[tuple[Roll, ...]]:
    """A step's rolls in order, the scores next to each other with the same modifiers (three
    battalions charging alike) grouped: their modifiers are said once, not on each unit's
    line, which a phone wraps in two."""
    groups: list[tuple[Roll, ...]] = []
    for roll in rolls:
        last = groups[-1] if groups else ()
        if last and scored(roll) and scored(last[0]) and roll.modifiers == last[0].modifiers:
            groups[-1] = (*last, roll)
        else:
            groups.append((roll,))
    return groups


def scores_lines(rolls: Sequence[Roll]) -> list[str]:
    """Scores alike in their modifiers: the modifiers each has, said once, then each unit's
    die and total on a line of its own ("Each +1 charging +1 European regulars:",
    "**2nd Foot Guards** 🎲 1 = **3**")."""
    return [f"Each {' '.join(modifier_text(m) for m in rolls[0].modifiers)}:",
            *(f"**{escape(roll.label)}** 🎲 {dice_text(roll, short=True)} = "
              f"**{str(roll.total).replace('-', '−')}**" for roll in rolls)]


def public_roll_lines(steps: Sequence[Step]) -> list[str]:
    """Every roll of the procedure on one line each, without the readings under it; and an
    answer given ahead that was set aside. A roll made again under the same label (a unit's
    bonus melee, a leader's second casualty check) joins the first one's line, its label
    said once: the order they came in is the Steps'. Scores alike in their modifiers say
    them once, above (``alike_rolls``)."""
    lines: list[str] = []
    labelled: dict[str, tuple[int, str | None]] = {}  # label: its line's index, first target
    run: list[tuple[str, Roll]] = []  # rolls read alike, one after another: said together

    def flush() -> None:
        read_alike_lines(run, lines, labelled)
        run.clear()

    for step in steps:
        if step.title == SET_ASIDE:
            flush()
            lines.append(f"↪️ {escape(step.outcome)}")
        for group in alike_rolls(step.rolls):
            if len(group) > 1 and not any(roll.label in labelled for roll in group):
                flush()
                labelled.update((roll.label, (len(lines) + 1 + at, None))
                                for at, roll in enumerate(group))
                lines.extend(scores_lines(group))
                continue
            for roll in group:
                if run and read_as(run[0], (step.title, roll)) is None:
                    flush()
                if roll.target and roll.hits is None and not roll.count and \
                        roll.label not in labelled:
                    run.append((step.title, roll))
                else:
                    flush()
                    public_roll(roll, lines, labelled)
    flush()
    return lines


def read_as(first: tuple[str, Roll], other: tuple[str, Roll]) -> str | None:
    """What two rolls of the same step's title are, when they are read alike: the words
    their labels end with ("morale" of "1/45e morale" and "2/45e morale") that the step's
    title says too, so that no word of a unit's name is taken ("Ligne" of "1/45e Ligne
    morale" and "2/45e Ligne morale"), each label beginning with a name of its own, and the
    same target; else None."""
    (title, roll), (other_title, other_roll) = first, other
    if title != other_title or roll.target != other_roll.target:
        return None
    words, others = roll.label.split(" "), other_roll.label.split(" ")
    said = title.casefold().split()
    shared = 0
    while shared < min(len(words), len(others)) - 1 and \
            words[-1 - shared] == others[-1 - shared] and \
            words[-1 - shared].casefold() in said:
        shared += 1
    return " ".join(words[len(words) - shared:]) if shared else None


def read_alike_lines(run: Sequence[tuple[str, Roll]], lines: list[str],
                     labelled: dict[str, tuple[int, str | None]]) -> None:
    """Rolls of one step read against the same target ("1/45e morale", "2/45e morale" vs
    "> 34"): what they are and their target said once above them, and their result too
    where it is the same ("Morale vs > 34, each passes:"), then each unit's dice, modifiers
    and total on a line of its own; where that saves a line of a phone, else a line each."""
    rolls = [roll for _, roll in run]
    kind = read_as(run[0], run[-1]) if len(run) > 1 else None
    if kind is None or any(read_as(run[0], other) != kind for other in run[1:]):
        for roll in rolls:
            public_roll(roll, lines, labelled)
        return
    results = {roll.result for roll in rolls}
    same = results.pop() if len(results) == 1 else None
    head = f"{kind[:1].upper()}{kind[1:]} vs {rolls[0].target}"
    head += f", each {same}:" if same else ":"
    each = [f"**{escape(roll.label.removesuffix(' ' + kind))}** " + roll_line(
        replace(roll, result=None) if same else roll, labelled=False, with_target=False,
        notes=False) for roll in rolls]
    alone = [roll_line(roll, notes=False) for roll in rolls]
    if phone_lines("\n".join([escape_prose(head), *each])) >= phone_lines("\n".join(alone)):
        for roll in rolls:
            public_roll(roll, lines, labelled)
        return
    # A roll made again under one of these labels says its target: none is on these lines.
    labelled.update((roll.label, (len(lines) + 1 + at, None)) for at, roll in enumerate(rolls))
    lines.extend([escape_prose(head), *each])


def public_roll(roll: Roll, lines: list[str],
                labelled: dict[str, tuple[int, str | None]]) -> None:
    """One roll's line, or its part of the line of a roll made before under its label."""
    if roll.label in labelled:
        # Read against the same target as the first: it is said once, there.
        index, target = labelled[roll.label]
        lines[index] += "; " + roll_line(roll, labelled=False, notes=False,
                                         with_target=roll.target != target)
    else:
        labelled[roll.label] = len(lines), roll.target
        lines.append(roll_line(roll, notes=False))


def unshown(steps: Sequence[Step], above: int) -> tuple[list[Step], list[str]]:
    """The steps after the first ``above`` rolls, which the answered questions' messages
    above show already (their messages keep their rolls), and the line that points there.
    The Steps give every roll."""
    if above <= 0:
        return list(steps), []
    left, kept = above, []
    for step in steps:
        if left <= 0:
            kept.append(step)
        elif len(step.rolls) > left:  # a step whose later rolls came after the answer
            kept.append(replace(step, rolls=step.rolls[left:]))
            left = 0
        else:
            left -= len(step.rolls)
    return kept, [f"🎲 {counted(above, 'earlier roll')}: on the question above"]


def fitted_roll_lines(steps: Sequence[Step], *around: str, rows: int = 1) -> list[str]:
    """``public_roll_lines``, each roll with how many dice and why (``Roll.count``) while
    the message still fits a phone's screen with the text ``around`` them and ``rows`` of
    buttons; else without: the Steps say them under each roll."""
    lines = public_roll_lines(steps)
    if not any(roll.count for step in steps for roll in step.rolls):
        return lines
    shown = "\n".join(filter(None, [*around, *lines]))
    if phone_lines(shown) + rows <= PHONE_SCREEN:
        return lines
    return public_roll_lines([replace(step, rolls=tuple(replace(roll, count="")
                                                        for roll in step.rolls))
                              for step in steps])


def footer_text(dice_note: str, defaults: Sequence[str], *, short: bool = False,
                unused: Sequence[str] = ()) -> str:
    """Where the dice came from, answers given ahead that no question took, and the project
    defaults that decided the result: in the public reply (``short``) each by its name
    alone, the words before its colon ("leader casualty check") or else its first comma
    ("without a chart pack"); names that take more than a line of a phone only counted
    where that leaves the footer one line ("📜 3 project defaults"). The Steps give them
    whole."""
    if unused:  # keys as `/help` and the docs write them: `counter_charge=Rangers`
        said = "; ".join(f"{key.casefold()}={value}" if sep else key
                         for key, sep, value in (a.partition("=") for a in unused))
        dice_note = " · ".join(filter(None, (dice_note, f"Not asked: {said}")))
    if short:
        named = default_names(defaults)
        if not named:
            return dice_note
        said = f"Project default{'s' if len(named) > 1 else ''}: {'; '.join(named)}"
        if len(named) > 1 and len(said) > DEFAULTS_ROOM:
            # Counted beside the Steps button's icon, which lists them whole, where that
            # keeps the footer to one line of a phone; else the first by name, the rest
            # counted, on a line of their own.
            few = " · ".join(filter(None, (dice_note,
                                           f"📜 {counted(len(named), 'project default')}")))
            if len(few) <= PHONE_LINE:
                return few
            said = f"Project defaults: {named[0]} and {len(named) - 1} more (📜 Steps)"
        return " · ".join(filter(None, (dice_note, said)))
    return " · ".join(filter(None, (dice_note, defaults_note(defaults))))


DEFAULTS_ROOM = 45  # the project defaults a public footer names: one line of a phone
HEADLINE_ROOM = 88  # two lines of a phone, beside the icon
DESCRIBED = 3000  # characters of effects and rolls kept in the description, with room left


def short_headline(headline: str, subjects: Collection[str] = ()) -> str:
    """The headline as the public reply leads with it: within two lines of a phone, its
    phrases fitted as ``rules.core.headlines`` fits them (``subjects``: the units they
    may begin with)."""
    return fitted(headline.split(SEPARATOR), HEADLINE_ROOM, subjects)


def resolution_specs(
    resolution: Resolution, *, dice_note: str = "", battle_changes: Sequence[str] | None = None,
    above: int = 0,
) -> list[list[EmbedSpec]]:
    """The public reply: the headline, one line per unit it falls on (in a battle, what
    changed on the roster), then one line per roll; the project defaults that decided it in
    the footer. Usually one message; more only when it is very long. ``above``: the rolls
    the answered questions' messages above it show, pointed to, not given again.
    """
    title = short_headline(resolution.headline, {e.unit for e in resolution.effects})
    effects = effects_block(replace(resolution, headline=title), battle_changes, once=True)
    footer = footer_text(dice_note, resolution.defaults, short=True, unused=resolution.unused)
    notes = [f"⏱️ {escape_prose(note)}" for note in resolution.notes
             if note.startswith(OUT_OF_PHASE)]
    notes += [f"🔎 {escape(note)}" for note in resolution.notes if note.startswith(CHECK)]
    icon = ICONS[resolution.severity]
    steps, earlier = unshown(resolution.steps, above)
    rolls = [*earlier, *fitted_roll_lines(steps, f"{icon} {title}", effects, *earlier, *notes,
                                          footer),
             *notes]
    description = "\n".join(filter(None, [effects, *rolls]))
    fields: tuple[FieldSpec, ...] = ()
    if len(description) > DESCRIBED:  # a very large fight: its rolls in fields, all kept
        description, fields = effects, (FieldSpec("Rolls", "\n".join(rolls)),)
    head = EmbedSpec(
        title=f"{icon} {escape(title)}",
        description=description or "\u200b",
        colour=COLOURS[resolution.severity],
        footer=footer,
        fields=fields,
    )
    return pack_messages(head)


def trace_specs(
    resolution: Resolution, *, dice_note: str = "", battle_changes: Sequence[str] | None = None
) -> list[list[EmbedSpec]]:
    """The procedure step by step, for the Steps button: the result, then one field per step
    (each roll on one line with the readings under it, the step's outcome closing it), and
    the reminders."""
    fields = [step_field(step) for step in resolution.steps]
    if resolution.notes:
        fields.append(FieldSpec("Reminders", "\n".join(f"• {escape_prose(n)}"
                                                        for n in resolution.notes)))
    head = EmbedSpec(
        title=f"{ICONS[resolution.severity]} {escape(resolution.headline)}",
        description=effects_block(resolution, battle_changes),
        colour=COLOURS[resolution.severity],
        author=f"Steps · {source_line(resolution)}",
        footer=footer_text(dice_note, resolution.defaults, unused=resolution.unused),
        fields=tuple(fields),
    )
    return pack_messages(head)


def to_discord(spec: EmbedSpec) -> discord.Embed:
    embed = discord.Embed(
        title=spec.title or None,
        description=spec.description or None,
        colour=spec.colour,
    )
    if spec.author:
        embed.set_author(name=spec.author)
    if spec.footer:
        embed.set_footer(text=spec.footer)
    for f in spec.fields:
        embed.add_field(name=f.name, value=f.value, inline=f.inline)
    return embed


def resolution_messages(
    resolution: Resolution, *, dice_note: str = "", battle_changes: Sequence[str] | None = None,
    above: int = 0,
) -> list[list[discord.Embed]]:
    return [
        [to_discord(spec) for spec in message]
        for message in resolution_specs(
            resolution, dice_note=dice_note, battle_changes=battle_changes, above=above
        )
    ]


def trace_messages(
    resolution: Resolution, *, dice_note: str = "", battle_changes: Sequence[str] | None = None
) -> list[list[discord.Embed]]:
    return [
        [to_discord(spec) for spec in message]
        for message in trace_specs(resolution, dice_note=dice_note,
                                   battle_changes=battle_changes)
    ]


QUESTION_COLOUR = 0x5865F2  # blurple: the table waits for a player


SO_FAR = "So far (kept once answered):"
"""Above what a move did before its question: the roster shows it only after the answer."""


def question_messages(ruleset: str, procedure: str, question: Question,
                      steps: Sequence[Step], *, whose: str, dice_note: str = "",
                      effects: Sequence[Effect] = (),
                      notes: Sequence[str] = (),
                      changes: Sequence[str] = (),
                      in_battle: bool = False, above: int = 0) -> list[list[discord.Embed]]:
    """The question, who decides, what the move has done so far (``effects``, on the table
    once the question is answered) and its rolls: the player answers with the buttons under
    it (or ``/answer``). ``whose`` is markdown, names already escaped. The steps so far are
    the result's trace, once answered. ``in_battle``: the effects wait for the answer to
    reach the roster, which is said. ``changes``: roster lines already made (what a reroll
    put back), said before what waits for the answer. ``above``: the rolls the answered
    questions' messages above show, pointed to, not given again."""
    typed = f"; or `/answer` with {question.typed}" if question.typed else ""
    so_far = Resolution(ruleset, procedure, "", Severity.NONE, (), tuple(effects))
    done = effect_lines(so_far, said=())
    if done and in_battle:  # not on the roster until the answer plays the move on
        done = [SO_FAR, *done]
    title = f"❓ {escape(question.text)}"
    said = [f"{whose} decides{typed}.", *(f"📋 {escape(line)}" for line in changes), *done]
    timed = [f"⏱️ {note}" for note in notes]
    rows = -(-len(question.answers) // 5)  # five buttons a row
    steps, earlier = unshown(steps, above)
    head = EmbedSpec(
        title=title,
        description="\n".join([*said, *earlier,
                               *fitted_roll_lines(steps, title, *said, *earlier, *timed,
                                                  dice_note, rows=rows),
                               *timed]),
        colour=QUESTION_COLOUR,
        footer=dice_note,
    )
    return [[to_discord(spec) for spec in message] for message in pack_messages(head)]
