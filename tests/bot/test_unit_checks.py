"""One check for a unit's words and strength, in every rule set: a value a quick lookup
refuses (or `huzzah resolve` does) is refused the same way by `/unit add`, `/unit edit` and
`/gm set`, privately and with nothing written; the values a lookup takes, all four take."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest
from sqlalchemy import update

from bot.offline import OfflineDiscord
from bot.resolve_cli import resolve_text
from bot.storage.models import Unit

from .conftest import GM_USER, reply
from .test_battle_safety import everything
from .test_battles import units

# Each rule set's battle, with one unit of it that the edits and corrections change.
BATTLES = {
    "fire-at-will": ("/battle start ruleset:fire-at-will name:Quebec",
                     '/unit add side:British name:Rangers words:"inf regular morale=4" '
                     'strength:4'),
    "tricorne": ("/battle start ruleset:tricorne name:Culloden",
                 "/unit add side:Government name:Barrell words:regular strength:4"),
    "le-baton": ("/battle start ruleset:le-baton name:Albuera",
                 '/unit add side:British name:Buffs words:"british inf line" strength:8'),
    "labataille": ("/battle start ruleset:labataille name:Ligny",
                   '/unit add side:French name:Garde words:"infantry morale=34" strength:4'),
}


async def gm(session: OfflineDiscord, line: str):
    return await reply(session, line, user_id=GM_USER)


async def start(session: OfflineDiscord, ruleset: str) -> None:
    for line in BATTLES[ruleset]:
        message = await gm(session, line)
        assert not message.ephemeral, message.content


@dataclass(frozen=True)
class Bad:
    """One bad value, typed in each place a unit's words or strength are given."""

    ruleset: str
    lookup: str  # a quick lookup (in the battle's channel, `lookup:true`)
    request: dict[str, Any]  # the same unit in a `huzzah resolve` request
    add: str
    edit: str
    gm_set: str
    refusal: str  # what each says after naming where it looked

    def lines(self) -> list[str]:
        return [self.lookup, self.add, self.edit, self.gm_set]


def faw_melee(morale: int) -> dict[str, Any]:
    return {"ruleset": "fire-at-will", "procedure": "melee",
            "attackers": [{"name": "Grenadiers", "arm": "infantry", "morale": morale}],
            "defenders": [{"name": "Béarn", "arm": "infantry"}]}


def tricorne_melee(**attacker: Any) -> dict[str, Any]:
    return {"ruleset": "tricorne", "procedure": "melee",
            "attacker": {"name": "Barrell", "type": "regular", **attacker},
            "defender": {"name": "Clan", "type": "highland"}}


def baton_melee(**attacker: Any) -> dict[str, Any]:
    return {"ruleset": "le-baton", "procedure": "melee", "phase": 6,
            "attacker": {"name": "Buffs", "nation": "british", "figures": 8, **attacker},
            "defender": {"name": "28e", "nation": "french", "arm": "infantry", "figures": 8}}


def assault(**attacker: Any) -> dict[str, Any]:
    return {"ruleset": "labataille", "procedure": "assault",
            "attackers": [{"name": "Garde", **attacker}],
            "defenders": [{"name": "B", "morale": 34}]}


FAW_LOOKUP = ('/melee fire-at-will attackers:"Grenadiers: inf morale={}" '
              'defenders:"Béarn: inf" lookup:true')
TRICORNE_LOOKUP = ('/melee tricorne attacker:"Barrell: regular {}" defender:"Clan: highland" '
                   'lookup:true')
BATON_LOOKUP = ('/melee le-baton attacker:"Buffs: british {} figures=8" '
                'defender:"28e: french inf figures=8" phase:6 lookup:true')
ASSAULT_LOOKUP = ('/assault labataille attackers:"Garde: {}" defenders:"B: morale=34 melee=8" '
                  'lookup:true')

BAD = {
    "fire-at-will morale above 20": Bad(
        "fire-at-will", FAW_LOOKUP.format(21), faw_melee(21),
        '/unit add side:French name:Béarn words:"inf morale=21"',
        "/unit edit unit:Rangers words:morale=21",
        "/gm set unit:Rangers field:morale value:21",
        "`morale` cannot be 21. It must be at most 20."),
    "fire-at-will morale 0": Bad(
        "fire-at-will", FAW_LOOKUP.format(0), faw_melee(0),
        '/unit add side:French name:Béarn words:"inf morale=0"',
        "/unit edit unit:Rangers words:morale=0",
        "/gm set unit:Rangers field:morale value:0",
        "`morale` cannot be 0. It must be at least 1."),
    "tricorne blocks over full strength": Bad(
        "tricorne", TRICORNE_LOOKUP.format("blocks=5"), tricorne_melee(blocks=5),
        "/unit add side:Government name:Munro words:regular strength:5",
        "/unit edit unit:Barrell strength:5",
        "/gm set unit:Barrell field:strength value:5",
        "has 5 blocks but 4 at full strength. Give 0 to 4 blocks, or `full=5`."),
    "tricorne full strength under its blocks": Bad(
        "tricorne", TRICORNE_LOOKUP.format("blocks=4 full=3"), tricorne_melee(blocks=4, full=3),
        '/unit add side:Government name:Munro words:"regular full=3 blocks=4"',
        "/unit edit unit:Barrell words:full=3",
        "/gm set unit:Barrell field:full value:3",
        "has 4 blocks but 3 at full strength. Give 0 to 3 blocks, or `full=4`."),
    "tricorne blocks above 12": Bad(
        "tricorne", TRICORNE_LOOKUP.format("blocks=13 full=12"),
        tricorne_melee(blocks=13, full=12),
        "/unit add side:Government name:Munro words:\"regular full=12\" strength:13",
        "/unit edit unit:Barrell words:blocks=13",
        "/gm set unit:Barrell field:strength value:13",
        "`blocks` cannot be 13. It must be at most 12."),
    "tricorne full above 12": Bad(
        "tricorne", TRICORNE_LOOKUP.format("full=13"), tricorne_melee(full=13),
        '/unit add side:Government name:Munro words:"regular full=13"',
        "/unit edit unit:Barrell words:full=13",
        "/gm set unit:Barrell field:full value:13",
        "`full` cannot be 13. It must be at most 12."),
    "le-baton figures above 60": Bad(
        "le-baton", ('/melee le-baton attacker:"Buffs: british inf line figures=61" '
                     'defender:"28e: french inf figures=8" phase:6 lookup:true'),
        baton_melee(arm="infantry", figures=61),
        '/unit add side:British name:52nd words:"british inf line" strength:61',
        "/unit edit unit:Buffs words:figures=61",
        "/gm set unit:Buffs field:strength value:61",
        "`figures` cannot be 61. It must be at most 60."),
    "le-baton cavalry in line": Bad(
        "le-baton", BATON_LOOKUP.format("cav line"), baton_melee(arm="cavalry", formation="line"),
        '/unit add side:British name:52nd words:"british cav line"',
        "/unit edit unit:Buffs words:cav",
        "/gm set unit:Buffs field:arm value:cavalry",
        "is cavalry: column, line, square and skirmish are infantry formations. Drop `line`."),
    "le-baton hussars on foot": Bad(
        "le-baton", BATON_LOOKUP.format("inf line hussars"),
        baton_melee(arm="infantry", formation="line", horse="hussars"),
        '/unit add side:British name:52nd words:"british inf line hussars"',
        "/unit edit unit:Buffs words:hussars",
        "/gm set unit:Buffs field:horse value:hussars",
        "is infantry: `hussars` is a kind of cavalry. Drop `hussars`, or make the unit "
        "cavalry."),
    "le-baton guns on foot": Bad(
        "le-baton", BATON_LOOKUP.format("inf line guns=6"),
        baton_melee(arm="infantry", formation="line", guns=6),
        '/unit add side:British name:52nd words:"british inf line guns=6"',
        "/unit edit unit:Buffs words:guns=6",
        "/gm set unit:Buffs field:guns value:6",
        "is infantry: `guns=` is the weight of shot of artillery. Drop `guns=6`, or make "
        "the unit artillery."),
    "labataille morale 38": Bad(
        "labataille", ASSAULT_LOOKUP.format("morale=38"), assault(morale=38),
        '/unit add side:French name:Ney words:"infantry morale=38"',
        "/unit edit unit:Garde words:morale=38",
        "/gm set unit:Garde field:morale value:38",
        "morale 38 is not a d66 value. Each digit is 1 to 6, like 34 or 45."),
    "labataille morale 60": Bad(
        "labataille", ASSAULT_LOOKUP.format("morale=60"), assault(morale=60),
        '/unit add side:French name:Ney words:"infantry morale=60"',
        "/unit edit unit:Garde words:morale=60",
        "/gm set unit:Garde field:morale value:60",
        "morale 60 is not a d66 value. Each digit is 1 to 6, like 34 or 45."),
    "labataille morale 67": Bad(
        "labataille", ASSAULT_LOOKUP.format("morale=67"), assault(morale=67),
        '/unit add side:French name:Ney words:"infantry morale=67"',
        "/unit edit unit:Garde words:morale=67",
        "/gm set unit:Garde field:morale value:67",
        "`morale` cannot be 67. It must be at most 66."),
    "labataille increments above 40": Bad(
        "labataille", ASSAULT_LOOKUP.format("morale=34 inc=41"),
        assault(morale=34, increments=41),
        '/unit add side:French name:Ney words:"infantry morale=34 increments=41"',
        "/unit edit unit:Garde words:increments=41",
        "/gm set unit:Garde field:strength value:41",
        "`increments` cannot be 41. It must be at most 40."),
}


@pytest.mark.parametrize("bad", BAD.values(), ids=BAD.keys())
async def test_a_value_a_lookup_refuses_is_refused_the_same_way_everywhere(discord_session,
                                                                          bad):
    session = discord_session
    code, response = resolve_text(json.dumps(bad.request))
    assert code == 2 and response["error"]["message"].endswith(bad.refusal)
    await start(session, bad.ruleset)
    before = await everything(session.client.db)
    for line in bad.lines():
        refused = await gm(session, line)
        assert refused.ephemeral, line
        assert refused.content.startswith("⚠️ "), line
        assert refused.content.endswith(bad.refusal), (line, refused.content)
    assert await everything(session.client.db) == before


@dataclass(frozen=True)
class Good:
    """The values at the edges of what a lookup takes, taken in each place."""

    ruleset: str
    lookups: tuple[str, ...]
    commands: tuple[str, ...]  # /unit add, /unit edit and /gm set, one after another
    stored: dict[str, tuple[dict[str, Any], int | None]]  # unit: its words, its strength


GOOD = {
    "fire-at-will": Good(
        "fire-at-will", (FAW_LOOKUP.format(1), FAW_LOOKUP.format(20)),
        ('/unit add side:French name:Béarn words:"inf morale=20" strength:1',
         "/unit edit unit:Rangers words:morale=1",
         "/gm set unit:Béarn field:morale value:1",
         "/gm set unit:Rangers field:strength value:999"),
        {"Rangers": ({"arm": "infantry", "regular": True, "morale": 1}, 999),
         "Béarn": ({"arm": "infantry", "morale": 1}, 1)}),
    "tricorne": Good(
        "tricorne", (TRICORNE_LOOKUP.format("blocks=4"), TRICORNE_LOOKUP.format("blocks=1"),
                     TRICORNE_LOOKUP.format("blocks=12 full=12")),
        ('/unit add side:Government name:Munro words:"regular full=12 blocks=12"',
         "/unit add side:Government name:Price words:regular strength:1",
         "/unit edit unit:Barrell words:full=5 strength:5",
         "/gm set unit:Munro field:strength value:1",
         "/gm set unit:Munro field:full value:1",
         "/gm set unit:Price field:full value:1"),
        {"Barrell": ({"type": "regular", "full": 5}, 5),
         "Munro": ({"type": "regular", "full": 1}, 1),
         "Price": ({"type": "regular", "full": 1}, 1)}),
    "le-baton": Good(
        "le-baton", (BATON_LOOKUP.format("inf line"), BATON_LOOKUP.format("cav hussars"),
                     BATON_LOOKUP.format("art guns=6")),
        ('/unit add side:British name:52nd words:"british cav hussars figures=60"',
         '/unit add side:British name:"RHA" words:"british art guns=6" strength:1',
         "/unit edit unit:Buffs words:skirmish strength:60",
         "/gm set unit:RHA field:guns value:12",
         "/gm set unit:52nd field:horse value:lancers"),
        {"Buffs": ({"nation": "british", "arm": "infantry", "formation": "skirmish"}, 60),
         "52nd": ({"nation": "british", "arm": "cavalry", "horse": "lancers"}, 60),
         "RHA": ({"nation": "british", "arm": "artillery", "guns": 12}, 1)}),
    "labataille": Good(
        "labataille", (ASSAULT_LOOKUP.format("morale=11 melee=12 inc=1"),
                       ASSAULT_LOOKUP.format("morale=66 melee=12 inc=40")),
        ('/unit add side:French name:Ney words:"infantry morale=66" strength:40',
         "/unit edit unit:Garde words:morale=11 strength:1",
         "/gm set unit:Ney field:morale value:45",
         "/gm set unit:Garde field:strength value:40"),
        {"Garde": ({"arm": "infantry", "morale": 11}, 40),
         "Ney": ({"arm": "infantry", "morale": 45}, 40)}),
}


@pytest.mark.parametrize("good", GOOD.values(), ids=GOOD.keys())
async def test_the_values_a_lookup_takes_are_taken_everywhere(discord_session, good):
    session = discord_session
    await start(session, good.ruleset)
    for line in good.lookups:
        looked = await reply(session, line)
        assert not looked.ephemeral, (line, looked.content)
    for line in good.commands:
        message = await gm(session, line)
        assert not message.ephemeral, (line, message.content)
    stored = {name: (unit.attributes, unit.strength)
              for name, unit in (await units(session)).items()}
    assert stored == good.stored


# --- what only a roster unit is asked -------------------------------------------------------

# A unit's kind (its morale, for a stack) taken away by `/gm set field:… value:none` is
# refused as `/unit add` refuses a unit without it.
NEEDED = {
    "fire-at-will arm": (
        "fire-at-will", '/unit add side:French name:Béarn words:"regular morale=4"',
        "/gm set unit:Rangers field:arm value:none",
        "say what the unit is. Add cavalry, infantry, artillery or other, e.g. "
        "`inf regular morale=4`."),
    "tricorne type": (
        "tricorne", "/unit add side:Government name:Munro words:full=4",
        "/gm set unit:Barrell field:type value:none",
        "say what the unit is. e.g. `regular`, `highland`, `battle-cavalry` or "
        "`trained-artillery`, and its blocks as `blocks=4`."),
    # On a side named for no nation: a side named British would give it (`side_words`).
    "le-baton nation": (
        "le-baton", '/unit add side:Allies name:52nd words:"inf line"',
        "/gm set unit:Buffs field:nation value:none",
        "say the unit's nation. e.g. `british inf veteran line`, and its strength as "
        "`figures=12`."),
    "le-baton arm": (
        # Words that say no arm: a formation would say infantry (`inputs.implied_arm`).
        "le-baton", '/unit add side:British name:52nd words:"british veteran"',
        "/gm set unit:Buffs field:arm value:none",
        "say the unit's arm. e.g. `british inf veteran line`, and its strength as "
        "`figures=12`."),
    "labataille morale": (
        "labataille", "/unit add side:French name:Ney words:infantry",
        "/gm set unit:Garde field:morale value:none",
        "give the stack's morale (`morale=34`). e.g. `infantry morale=34 melee=12 fire=6 "
        "defence=9`."),
}


@pytest.mark.parametrize(("ruleset", "add", "gm_set", "refusal"), NEEDED.values(),
                         ids=NEEDED.keys())
async def test_what_a_unit_needs_cannot_be_set_to_none(discord_session, ruleset, add, gm_set,
                                                       refusal):
    await start(discord_session, ruleset)
    before = await everything(discord_session.client.db)
    for line in (add, gm_set):
        refused = await gm(discord_session, line)
        assert refused.ephemeral and refused.content.endswith(refusal), refused.content
    assert await everything(discord_session.client.db) == before


async def test_a_tricorne_leader_is_a_general_however_it_is_typed(discord_session):
    await start(discord_session, "tricorne")
    before = await everything(discord_session.client.db)
    for line in ("/unit add side:Government name:Cope words:lone-leader",
                 "/unit edit unit:Barrell words:lone-leader",
                 "/gm set unit:Barrell field:type value:leader"):
        refused = await gm(discord_session, line)
        assert refused.ephemeral and refused.content.endswith(
            "a leader is a general, not a unit. Add it with `/general add`; without a unit "
            "it is alone."), refused.content
    assert await everything(discord_session.client.db) == before


async def test_a_unit_out_of_the_battle_is_checked_whole_when_it_comes_back(discord_session):
    session = discord_session
    await start(session, "tricorne")
    await gm(session, "/gm set unit:Barrell field:status value:gone")
    # Out of the battle, its words may change without its blocks (4) being held to them...
    lowered = await gm(session, "/gm set unit:Barrell field:full value:3")
    assert lowered.content == "🛠️ Barrell now has 3 blocks at full strength (event #4)."
    # ...but it comes back only as a unit a lookup would take.
    refusal = "⚠️ Barrell has 4 blocks but 3 at full strength. Give 0 to 3 blocks, or `full=4`."
    for line in ("/gm restore unit:Barrell", "/gm set unit:Barrell field:status value:active"):
        refused = await gm(session, line)
        assert refused.ephemeral and refused.content == refusal
    refused = await gm(session, "/gm set unit:Barrell field:strength value:5")
    assert refused.ephemeral and refused.content.startswith("⚠️ Barrell has 5 blocks")
    await gm(session, "/gm set unit:Barrell field:strength value:3")
    back = await gm(session, "/gm restore unit:Barrell")
    assert back.content == "♻️ Barrell is back in the battle (event #6)."


async def test_a_destroyed_stack_keeps_no_increments_until_a_gm_gives_it_some(discord_session):
    session = discord_session
    await start(session, "labataille")
    # What an assault leaves of a stack that lost its last increment.
    async with session.client.db.transaction() as s:
        await s.execute(update(Unit).where(Unit.name == "Garde").values(
            strength=0, status="gone", gone_reason="destroyed"))
    renamed = await gm(session, "/gm set unit:Garde field:morale value:45")
    assert not renamed.ephemeral, renamed.content
    refused = await gm(session, "/gm restore unit:Garde")
    assert refused.content == ("⚠️ Garde has no increments left to come back with. Give it "
                               "some first: `/gm set unit:Garde field:strength value:…`, then "
                               "restore it.")
    await gm(session, "/gm set unit:Garde field:strength value:2")
    assert not (await gm(session, "/gm restore unit:Garde")).ephemeral
    garde = (await units(session))["Garde"]
    assert (garde.status, garde.strength, garde.attributes["morale"]) == ("active", 2, 45)


async def test_le_baton_lancers_that_have_fought_a_round_can_still_be_changed(
        discord_session):
    session = discord_session
    for line in ("/battle start ruleset:le-baton name:Albuera",
                 '/unit add side:French name:Lanciers words:"french cav veteran '
                 'horse=lancers" strength:8',
                 '/unit add side:British name:"16th LD" words:"british cav veteran" '
                 "strength:8"):
        await gm(session, line)
    await reply(session, '/melee le-baton attacker:Lanciers defender:"16th LD" phase:6 '
                         'dice:"1 1 1 1 1 1 1 1"')
    assert (await units(session))["Lanciers"].attributes["fought"] is True
    edited = await gm(session, "/unit edit unit:Lanciers words:elite")
    assert edited.content == "✏️ Lanciers is now elite (event #5)."
    corrected = await gm(session, "/gm set unit:Lanciers field:quality value:conscript")
    assert corrected.content == "🛠️ Lanciers is now conscript (event #6)."
    assert (await units(session))["Lanciers"].attributes["fought"] is True
