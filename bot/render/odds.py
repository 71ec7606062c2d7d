"""The odds of a procedure as one embed a phone shows at a glance.

The title says who wins, each side's chance (``rules.core.odds_glance``); then the main
outcomes, each with a bar of fixed width and its percentage, one line for the rest, and the
expected losses. Where the rules ask a player to decide, the bars are those of the first
answers, and a table gives each other answer's chances (answers with the same chances share a
row). The footer says whether the odds are exact or estimated. ``huzzah resolve`` with
``"mode": "odds"`` gives every result with its exact fraction.

Built as plain ``EmbedSpec`` records, with nothing of Discord's API: the worker process that
works the odds out renders them too (``bot.workers``), since grouping thousands of outcomes
would hold the event loop."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from bot.render.limits import EmbedSpec, pack_messages
from bot.render.text import PHONE_SCREEN, defaults_line, escape, phone_lines
from rules.core.odds import Choice, Distribution, ExpectedLoss, Odds
from rules.core.odds_glance import Glance, Line, fight_of, glance, total
from rules.registry import RULESETS

ODDS_COLOUR = 0x9B59B6
BAR_WIDTH = 8
"""Cells of a bar, each of eight steps: with its percentage, 14 characters, so that a label of
30 fits a phone's 45-character line."""
MAIN_LINES = 5
"""Main outcomes shown, the rest summed in one line; fewer beside a table of answers."""
TABLE_LINES = 2
"""Main outcomes beside a table of answers at the least; more while the rest holds more than
``REST_AT_MOST`` (up to ``MAIN_LINES``), as long as the reply fits a phone."""
REST_AT_MOST = Fraction(1, 10)
"""What "other results" may hold beside a table of answers, where lines allow: a rest of a
quarter or a half of the chances would hide how the fight goes."""
CHART_LINES = 7
"""Lines beside a chart the player reads: a d66 chart's six bands of rows, and one more."""
MAX_ROWS = 4
"""Rows of the table of answers; past them the reply says to give some with ``choices``."""
ROWS_ROOM = 7
"""Phone lines the other rows may fill (45 characters a line): long answers take fewer rows."""
LABEL_ROOM = 88
"""A row's answers at the most (two phone lines): past them cut after an answer, with "…"."""
TITLE_VERDICTS = 3
"""Who wins, in the title: the likeliest three, and the rest in one."""
ROW_FIGURES = 2
"""Chances per row of the table: the likeliest."""
_EIGHTHS = " ▏▎▍▌▋▊▉"


def odds_specs(odds: Odds, ruleset: str, procedure: str,
               notes: Sequence[str] = ()) -> list[list[EmbedSpec]]:
    """The reply's messages, each a list of embeds (``to_discord`` makes them Discord's)."""
    title = RULESETS[ruleset].title if ruleset in RULESETS else ruleset
    sides = dict(odds.sides)
    decides = ruleset not in RULESETS or procedure not in RULESETS[ruleset].no_winner
    rows = _rows(odds.branches, sides, decides)
    first = rows[0].glance
    how = _how(odds, [first, *(row.glance for row in rows[1:])])
    footer = " · ".join(filter(None, [how, *notes, defaults_line(odds.defaults)]))
    lines = []
    several = len(rows) > 1
    # With answers still open, the first row's chances are one answer's, not the fight's: a
    # title "A wins 100%" would read as a sure thing where another answer holds it even.
    verdict = _verdict(first)
    if several and verdict:
        verdict = "by the answers below"
    heading = f"🎯 Odds: {verdict}" if verdict else \
        f"🎯 Odds: {procedure.replace('-', ' ')} ({title})"
    if several:
        lines.append(f"If {escape(rows[0].label)}:")
    if first.charts:  # the chart unread: every band of rows it may be read on
        column = f", the {first.column} column" if first.column else ""
        lines.append(f"Read on your {' and '.join(first.charts)} chart{column}:")
    losses = _losses_line(odds.branches[rows[0].members[0]], sides)
    # The phone lines left for the bars and the table of answers.
    room = PHONE_SCREEN - sum(phone_lines(text) for text in [heading, *lines, losses, footer]
                              if text)
    if several:  # the bars first, as the rest allows with the table's first row kept
        count = _main_lines(first, room - sum(phone_lines(line) for line in _table(rows, 0)))
    else:
        count = CHART_LINES if first.charts else MAIN_LINES
    shown, rest = first.top(count)
    room -= len(shown) + (rest is not None)
    table = _table(rows, room)
    lines += [_bar_line(line, first) for line in shown]
    if rest is not None:
        lines.append(_bar_line(rest, first))
    if losses:
        lines.append(losses)
    lines += table
    head = EmbedSpec(title=heading, description="\n".join(lines), colour=ODDS_COLOUR,
                     footer=footer)
    return pack_messages(head)


def _table(rows: Sequence[_Row], room: int) -> list[str]:
    """The other answers, a row each: who wins where answers change the likeliest winner,
    else how (a few points' difference in who wins says less than how it comes about); then
    how many rows did not fit. The first row always, the others in ``ROWS_ROOM`` phone lines
    and in ``room`` (the "…and N more" line counted)."""
    by_verdict = len({row.glance.verdicts[0].label if row.glance.verdicts else ""
                      for row in rows}) > 1
    lines: list[str] = []
    room = min(ROWS_ROOM, room - (len(rows) > 2))
    # The answers every other row begins with, said once above them.
    head = _common_head([row.label for row in rows[1:]]) if len(rows) > 2 else ""
    if head:
        lines.append(f"If {escape(head)}:")
        room -= phone_lines(lines[0])
    shown = 0
    for row in rows[1:MAX_ROWS]:
        line = _row_line(row, by_verdict, head)
        room -= phone_lines(line)
        if room < 0 and shown:
            break
        lines.append(line)
        shown += 1
    hidden = len(rows) - 1 - shown
    if hidden > 0:
        # One phone line: what `choices` does is in /help.
        lines.append(f"…and {hidden} more {'row' if hidden == 1 else 'rows'}: give answers "
                     "in `choices`.")
    return lines


def _main_lines(seen: Glance, room: int) -> int:
    """Main outcomes beside a table of answers: ``TABLE_LINES``, and more while the rest
    holds more than ``REST_AT_MOST``, up to ``MAIN_LINES`` and as ``room`` (phone lines for
    the bars and the rest's) allows."""
    count = TABLE_LINES
    limit = min(MAIN_LINES, room - 1)
    while count < limit and count + 1 < len(seen.lines) and \
            1 - total(line.probability for line in seen.lines[:count]) > REST_AT_MOST:
        count += 1
    return count


# --- rows of answers ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Row:
    """Answer paths with the same chances: one row of the table."""

    members: tuple[int, ...]  # indexes into ``odds.branches``
    glance: Glance
    label: str


def _rows(branches: Sequence[Distribution], sides: Mapping[str, str],
          decides: bool = True) -> list[_Row]:
    grouped: dict[tuple[object, ...], list[int]] = {}
    glances: dict[tuple[object, ...], Glance] = {}
    # Every answer's: the same fight. A procedure that decides none has no sides to win.
    fight = fight_of(branches, sides) if decides else []
    for index, branch in enumerate(branches):
        seen = glance(branch, sides, fight)
        key = (tuple((v.label, v.probability) for v in seen.verdicts),
               tuple((line.label, line.probability) for line in seen.lines))
        grouped.setdefault(key, []).append(index)
        glances.setdefault(key, seen)
    answers = [tuple((_whose(c), c.label) for c in branch.answers) for branch in branches]
    # One player answers every question: named in the first row, the others are his too.
    sole = len({who for path in answers for who, _ in path}) == 1
    unnamed = [tuple((None, label) for _, label in path) for path in answers]
    rows = []
    for key, members in grouped.items():
        label = _row_label(members, unnamed if sole and rows else answers)
        rows.append(_Row(tuple(members), glances[key], label))
    return rows


Said = tuple[str | None, str]
"""An answer as a row says it: whose choice it is (a unit, the GM; None: not named) and its
label (``("Lochiel's", "Take ground")``)."""


def _whose(choice: Choice) -> str | None:
    """Whose choice an answer is: the unit whose player answers, or the GM."""
    if choice.unit:
        return choice.unit
    return "GM" if choice.by == "gm" else None


def _said(answer: Said | str) -> Said:
    """An answer by the one who chose it; a label that names its unit ("Grenadiers ignores
    1 flag") needs no name before it."""
    who, label = (None, answer) if isinstance(answer, str) else answer
    if who is not None and (label == who or label.startswith(f"{who} ")):
        return None, label
    return who, label


def _row_label(members: Sequence[int], answers: Sequence[Sequence[Said | str]]) -> str:
    """The answers of a row, each after the name of whose choice it is ("Cobham's
    Dragoons: Stand and fight; Lochiel's: Take ground, Attack Barrell's"): those its paths
    share when no other path shares them too, else each path's, what they begin with said
    once ("…; Lochiel's: (Take ground, No bonus melee) or Stay")."""
    said = [tuple(_said(a) for a in path) for path in answers]
    paths = [said[i] for i in members]
    shared: list[Said] = []
    for labels in zip(*paths, strict=False):
        if len(set(labels)) > 1:
            break
        shared.append(labels[0])
    others = [a for i, a in enumerate(said) if i not in members]
    if len(paths) == 1 or (shared and not any(a[:len(shared)] == tuple(shared)
                                              for a in others)):
        return _cut(_words(shared if len(paths) > 1 else paths[0]))
    kept = _same_in_every_path(paths, others)
    if kept:
        return _cut(_words(kept))
    return _cut(_alternatives(paths))


def _words(answers: Sequence[Said]) -> str:
    """One path's answers: each chooser named once before the answers he gives in a row."""
    groups: list[tuple[str | None, list[str]]] = []
    for who, label in answers:
        if groups and groups[-1][0] == who:
            groups[-1][1].append(label)
        else:
            groups.append((who, [label]))
    return "; ".join(", ".join(labels) if who is None else f"{who}: {', '.join(labels)}"
                     for who, labels in groups)


def _alternatives(paths: Sequence[tuple[Said, ...]]) -> str:
    """Paths of the same chances: the answers they begin with said once, then each path's
    own, "or" between them, bracketed where one holds more than one answer."""
    common = 0
    while all(len(path) > common + 1 for path in paths) and \
            len({path[common] for path in paths}) == 1:
        common += 1
    begun, rests = paths[0][:common], [path[common:] for path in paths]
    choosers = {who for rest in rests for who, _ in rest}
    if len(choosers) == 1:
        (who,) = choosers
        ways = " or ".join(f"({w})" if len(rest) > 1 else w for rest in rests
                           for w in [", ".join(label for _, label in rest)])
        if begun and begun[-1][0] == who:  # the same player goes on choosing
            return f"{_words(begun)}, {ways}"
        tail = ways if who is None else f"{who}: {ways}"
    else:
        tail = " or ".join(f"({_words(rest)})" if len(rest) > 1 else _words(rest)
                           for rest in rests)
    return "; ".join(filter(None, [_words(begun), tail]))


def _same_in_every_path(paths: Sequence[tuple[Said, ...]],
                        others: Sequence[tuple[Said, ...]]) -> list[Said]:
    """The answers every path of a row gives, an answer that differs between them left out
    (it changes nothing), when no other path gives them all; else none. Listed path by
    path, such rows would be cut to the same first answers and read as one."""
    if len({len(path) for path in paths}) != 1:
        return []
    same = [i for i, labels in enumerate(zip(*paths, strict=True)) if len(set(labels)) == 1]
    if len(same) == len(paths[0]):
        return []

    def gives_them(path: tuple[Said, ...]) -> bool:
        return len(path) == len(paths[0]) and all(path[i] == paths[0][i] for i in same)

    if not same or any(gives_them(other) for other in others):
        return []
    return [paths[0][i] for i in same]


_BETWEEN = re.compile(r"; |, | or ")


def _outside(text: str, at: int) -> bool:
    return text[:at].count("(") == text[:at].count(")")


def _cut(label: str) -> str:
    """A row's answers within ``LABEL_ROOM``: a chooser's answers left out from the middle
    ("…"), the first and the last kept, where that fits (rows that differ in their last
    answers still read apart); else cut after the last whole answer that fits, outside
    brackets where one does."""
    if len(label) <= LABEL_ROOM:
        return label
    ends = [m.start() for m in re.finditer("; ", label) if _outside(label, m.start())]
    if ends:
        last = label[ends[-1] + 2:]
        for end in reversed(ends[:-1]):
            kept = f"{label[:end]}; …; {last}"
            if len(kept) <= LABEL_ROOM:
                return kept
    head = label[:LABEL_ROOM - 2]
    ends = [m.start() for m in _BETWEEN.finditer(head)]
    outside = [end for end in ends if _outside(head, end)]
    cut = max(outside or ends or [0])
    return (head[:cut] if cut > 0 else head.rstrip()) + " …"


def _common_head(labels: Sequence[str]) -> str:
    """The longest run of whole choosers' answers ("Cobham's Dragoons: Stand and fight")
    that every label begins with and goes on after; "" if none."""
    first = labels[0]
    ends = [m.start() for m in re.finditer("; ", first)
            if first[:m.start()].count("(") == first[:m.start()].count(")")]
    for end in reversed(ends):
        head = first[:end]
        if all(label.startswith(f"{head}; ") for label in labels):
            return head
    return ""


def _row_line(row: _Row, by_verdict: bool, head: str = "") -> str:
    """``If <answers> → <chances>``; under a ``head`` the row's own answers after "· "."""
    seen = row.glance
    # The same winners in every row: what differs is how, and its likeliest line says it.
    # Two, as by winners: a row's likeliest result alone would read as its only one.
    figures = (seen.verdicts if by_verdict and seen.verdicts else seen.lines)[:ROW_FIGURES]
    label = row.label[len(head) + 2:] if head else row.label
    return f"{'· ' if head else 'If '}{escape(label)} → {_figures(figures, seen)}"


# --- lines -------------------------------------------------------------------------------------


def _verdict(seen: Glance) -> str:
    """Who wins, the likeliest ``TITLE_VERDICTS`` and the rest in one (a fight of many sides,
    a chart of many columns)."""
    verdicts = seen.verdicts
    if len(verdicts) <= TITLE_VERDICTS + 1:
        return _figures(verdicts, seen)
    rest = total(line.probability for line in verdicts[TITLE_VERDICTS:])
    return f"{_figures(verdicts[:TITLE_VERDICTS], seen)} · other {_percent(rest, seen)}"


def _figures(lines: Sequence[Line], seen: Glance) -> str:
    return " · ".join(f"{escape(line.label)} {_percent(line.probability, seen)}"
                      for line in lines)


def bar(probability: Fraction) -> str:
    """A bar of ``BAR_WIDTH`` cells in eighths; any chance above none shows a sliver."""
    eighths = round(probability * BAR_WIDTH * 8)
    if probability > 0:
        eighths = max(eighths, 1)
    full, part = divmod(eighths, 8)
    drawn = "█" * full + (_EIGHTHS[part] if part else "")
    return drawn.ljust(BAR_WIDTH)


def _bar_line(line: Line, seen: Glance) -> str:
    return f"`{bar(line.probability)}{_percent(line.probability, seen):>6}` " \
           f"{escape(line.label)}"


def percent(probability: Fraction) -> str:
    """``42%``; a tenth of a point under 10% and over 99% (``8.3%``, ``99.6%``); never 0%
    or 100% for a chance that is neither."""
    value = float(probability * 100)
    if probability == 1:
        return "100%"
    if probability == 0:
        return "0%"
    if value < 0.1:
        return "<0.1%"
    if value > 99.9:
        return ">99.9%"
    return f"{value:.1f}%" if value < 10 or value > 99 else f"{value:.0f}%"


def _percent(probability: Fraction, seen: Glance) -> str:
    return percent(probability) if seen.exact else f"~{percent(probability)}"


def _how(odds: Odds, seen: Sequence[Glance]) -> str:
    if odds.exact:
        return "Exact: every roll counted."
    widest = max((max(abs(line.probability - Fraction(lo).limit_denominator(10**6)),
                      abs(Fraction(hi).limit_denominator(10**6) - line.probability))
                  for s in seen for line in (*s.verdicts, *s.lines)
                  for lo, hi in [line.interval or (0.0, 0.0)]), default=Fraction(0))
    # Why not every roll was counted (the paths, the seconds) is in ``huzzah resolve``'s
    # JSON: on a phone, the estimate's size and margin say enough.
    return (f"Estimated from {odds.samples:,} random resolutions, ±{float(widest * 100):.1f} "
            "points (95%).")


def _losses_line(branch: Distribution, sides: Mapping[str, str]) -> str:
    losses: Sequence[ExpectedLoss] = branch.side_losses or branch.losses
    if not losses:
        return ""
    said = [f"{escape(_side_name(loss, sides))} {float(loss.expected):.2f} {loss.measure}"
            for loss in losses]
    # A chart the player reads ends its paths: what it takes is not in the figure.
    before = " before the chart's result" if any(o.cell for o in branch.outcomes) else ""
    return f"Expected losses{before}: " + ", ".join(said)


def _side_name(loss: ExpectedLoss, sides: Mapping[str, str]) -> str:
    """A side of one unit by the unit's name (``Béarn``, not ``defenders``)."""
    if loss.unit is not None:
        return loss.unit
    units = [unit for unit, side in sides.items() if side == loss.side]
    side = loss.side or ""
    return units[0] if len(units) == 1 else side[:1].upper() + side[1:]
