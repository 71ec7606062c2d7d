"""Charge movement (Charge Summary step 3): light cavalry may attempt to Recall at any time
during it. (A charge that falls short of its declared target is ``/cavalry``'s, with
``reached:false``: rules.labataille.charge.fell_short.)"""

from __future__ import annotations

from rules.core.decisions import Answers
from rules.core.dice import DiceSource
from rules.core.errors import NotAllowed
from rules.core.notation import doing
from rules.core.records import Resolution, ResolutionBuilder, Severity
from rules.labataille.assault import Assault, Run
from rules.labataille.charge import INFANTRY, STEPS, recall
from rules.labataille.charts import ChartPack
from rules.labataille.reactions import check_chargers
from rules.labataille.units import RULESET, ChargeMarker, Stack


def light_recall(chargers: tuple[Stack, ...], pack: ChartPack | None, dice: DiceSource,
                 answers: Answers | None = None) -> Resolution:
    check_light(chargers)
    out = ResolutionBuilder(RULESET, "recall", answers=answers or Answers())
    run = Run(Assault(chargers, chargers, pack=pack, cavalry=True), dice, out,
              stacks={c.name: c for c in chargers}, attackers=[c.name for c in chargers],
              steps=dict(STEPS[INFANTRY]))
    names = " and ".join(c.name for c in chargers)
    out.step("3. Charge Movement", f"{names}: light cavalry may attempt to Recall at any time "
             "during Charge movement.")
    if recall(run, "3. Recall"):
        return out.build(f"{doing([c.name for c in chargers], 'is', 'are')} recalled",
                         Severity.NONE)
    return out.build(f"{doing([c.name for c in chargers], 'rides', 'ride')} on", Severity.NONE)


def check_light(chargers: tuple[Stack, ...]) -> None:
    check_chargers(chargers)
    heavy = [c.name for c in chargers if not c.light]
    if heavy:
        raise NotAllowed(f"{', '.join(heavy)}: only light cavalry may Recall at any time "
                         "during Charge movement.",
                         hint="Other cavalry attempts to Recall when a square forms (`/square` "
                              "with `cavalry`) or when its target retreats before the charge "
                              "(`/cavalry`). Light cavalry carries the word `light`.")
    routed = [c.name for c in chargers if c.routed]
    charged = [c.name for c in chargers
               if not c.routed and c.charge is ChargeMarker.CHARGED]
    unable = [f"{doing(names, 'has', 'have')} {why}" for names, why in
              ((routed, "routed"), (charged, "already charged this turn")) if names]
    if unable:
        raise NotAllowed("; ".join(unable) + ": only cavalry still charging may Recall.")
