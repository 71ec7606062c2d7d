"""Every rule set Huzzah knows, by the key players and JSON requests use."""

from __future__ import annotations

import os
from typing import Any

from rules.core.records import Resolution
from rules.core.registry import RuleSet, resolve_request
from rules.fire_at_will import RULESET_ENTRY as FIRE_AT_WILL
from rules.labataille import RULESET_ENTRY as LABATAILLE
from rules.le_baton import RULESET_ENTRY as LE_BATON
from rules.skirmish import RULESET_ENTRY as SKIRMISH
from rules.tricorne import RULESET_ENTRY as TRICORNE

# The example of docs/adding-a-rule-set.md, kept out of the commands players see: the setting
# HUZZAH_EXAMPLES=1 adds it (the test suite does; so may a developer, in the console).
EXAMPLES = (SKIRMISH,) if os.environ.get("HUZZAH_EXAMPLES") == "1" else ()
RULESETS: dict[str, RuleSet] = {
    r.key: r for r in (FIRE_AT_WILL, LE_BATON, TRICORNE, LABATAILLE, *EXAMPLES)}


def resolve(request: Any) -> Resolution:
    return resolve_request(RULESETS, request)
