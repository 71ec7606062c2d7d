"""The odds of a procedure as embeds: each result a player would name, most likely first,
with its exact fraction and percentage (or an estimate and its 95% interval), the distinct
outcomes under it, and the expected losses. One section per answer when the rules ask.

Built as plain ``EmbedSpec`` records, with nothing of Discord's API: the worker process that
works the odds out renders them too (``bot.workers``), since grouping thousands of outcomes
and their intervals would hold the event loop for a third of a second."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from bot.render.limits import EmbedSpec, FieldSpec, pack_messages
from bot.render.text import defaults_note, escape
from rules.core.odds import REFUSED, Distribution, ExpectedLoss, GroupOdds, Odds
from rules.registry import RULESETS

ODDS_COLOUR = 0x9B59B6
LEVELS_OF_DETAIL = ((8, 4), (6, 2), (5, 0), (3, 0), (1, 0))
"""(results listed per answer, ways of coming to each listed under it), tried in turn until
the reply fits one message; the rarer results are summed up (``huzzah resolve`` with
``"mode": "odds"`` gives them all)."""
MAX_BRANCHES_SHOWN = 8
"""Answer paths shown; past them, the reply says to give some answers with ``choices``."""


def odds_specs(odds: Odds, ruleset: str, procedure: str,
               notes: Sequence[str] = ()) -> list[list[EmbedSpec]]:
    """The reply's messages, each a list of embeds (``to_discord`` makes them Discord's)."""
    title = RULESETS[ruleset].title if ruleset in RULESETS else ruleset
    how = ("Exact: every roll counted." if odds.exact else
           f"Estimated from {odds.samples:,} random resolutions (95% intervals): "
           f"{odds.reason}.")
    footer = " · ".join(filter(None, [how, *notes, defaults_note(odds.defaults)]))
    # Grouped once: each level of detail below reads the same groups.
    shown = [(branch, branch.groups) for branch in odds.branches[:MAX_BRANCHES_SHOWN]]
    # One message, however many results: fewer lines each time until it fits.
    for results, ways in LEVELS_OF_DETAIL:
        fields: list[FieldSpec] = []
        for branch, groups in shown:
            fields.append(_branch_field(branch, groups, len(odds.branches) > 1, results,
                                        ways))
        hidden = len(odds.branches) - MAX_BRANCHES_SHOWN
        if hidden > 0:
            fields.append(FieldSpec("More answers", f"{hidden} more combinations of answers: "
                                    "give some with `choices` to see their odds."))
        head = EmbedSpec(
            title=f"🎯 Odds: {procedure.replace('-', ' ')} ({title})",
            description=_description(odds), colour=ODDS_COLOUR,
            author=f"{title} · {procedure.replace('-', ' ').capitalize()}",
            footer=footer, fields=tuple(fields))
        messages = pack_messages(head)
        if len(messages) == 1:
            break
    return messages


def _description(odds: Odds) -> str:
    if len(odds.branches) == 1:
        return "Each result, most likely first, before anyone rolls."
    return ("The rules ask a player to decide on the way: the odds for each answer, most "
            "likely result first.")


def _branch_field(branch: Distribution, groups: Sequence[GroupOdds], several: bool,
                  results: int, ways: int) -> FieldSpec:
    answers = "; ".join(f"{c.text} → {c.label}" for c in branch.answers)
    lines = [_group_line(group, branch, ways) for group in groups[:results]]
    rarer = groups[results:]
    if rarer:
        chance = sum((g.probability for g in rarer), Fraction(0))
        lines.append(f"…and {len(rarer)} rarer {'result' if len(rarer) == 1 else 'results'}, "
                     f"{float(chance):.1%} in all")
    losses = _losses_line(branch.side_losses or branch.losses)
    if losses:
        lines.append(losses)
    name = f"If: {answers}" if several and answers else "Results"
    return FieldSpec(escape(name)[:256], "\n".join(lines))


def _group_line(group: GroupOdds, branch: Distribution, ways: int) -> str:
    name = "Refused by the rules" if group.group == REFUSED else group.group
    line = f"**{escape(name)}** — {_chance(group.probability, group.interval, branch)}"
    if not ways:
        return line
    shown = group.outcomes if len(group.outcomes) > 1 else ()
    for outcome in shown[:ways]:
        chance = _chance(outcome.probability, outcome.interval, branch)
        line += f"\n  • {escape(outcome.label)}: {chance}"
    if len(shown) > ways:
        rarer = len(shown) - ways
        line += f"\n  • and {rarer} rarer {'way' if rarer == 1 else 'ways'}"
    elif len(group.outcomes) == 1 and group.outcomes[0].label != group.group:
        line += f"\n  • {escape(group.outcomes[0].label)}"
    return line


def _chance(probability: Fraction, interval: tuple[float, float] | None,
            branch: Distribution) -> str:
    if branch.exact:
        if probability == 1:
            return "certain (100%)"
        return f"{probability.numerator}/{probability.denominator} ({float(probability):.1%})"
    low, high = interval or (0.0, 1.0)
    return f"about {float(probability):.1%} ({low:.1%}–{high:.1%})"


def _losses_line(losses: Sequence[ExpectedLoss]) -> str:
    if not losses:
        return ""
    said = [f"{escape(loss.side or loss.unit or '')} {float(loss.expected):.2f} {loss.measure}"
            for loss in losses]
    return "Expected losses: " + ", ".join(said)
