"""Every rule set Huzzah knows, by the key players and JSON requests use."""

from __future__ import annotations

from typing import Any

from rules.core.records import Resolution
from rules.core.registry import RuleSet, resolve_request
from rules.fire_at_will import RULESET_ENTRY as FIRE_AT_WILL
from rules.labataille import RULESET_ENTRY as LABATAILLE
from rules.le_baton import RULESET_ENTRY as LE_BATON
from rules.tricorne import RULESET_ENTRY as TRICORNE

RULESETS: dict[str, RuleSet] = {r.key: r for r in (FIRE_AT_WILL, LE_BATON, TRICORNE, LABATAILLE)}


def resolve(request: Any) -> Resolution:
    return resolve_request(RULESETS, request)
