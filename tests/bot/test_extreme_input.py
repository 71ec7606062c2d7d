"""Extreme but valid input, through the real command tree: every request the bot makes keeps
Discord's limits, the ones the offline transport does not already refuse too (buttons,
select menus, autocomplete values), can ping no one, and a refusal is private.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from bot.offline import transport
from bot.offline.discord_internals import CALLBACK_ROUTE

from .conftest import CHANNEL, EITHER_ODDS_SECONDS, GM_USER, GUILD, PLAYER, send

LABEL, CUSTOM_ID, PER_ROW, ROWS = 80, 100, 5, 5
OPTIONS, OPTION_TEXT, PLACEHOLDER = 25, 100, 150
CHOICES, CHOICE_TEXT = 25, 100


def component_problems(rows: list[dict[str, Any]]) -> Iterator[str]:
    if len(rows) > ROWS:
        yield f"{len(rows)} rows"
    ids = []
    for row in rows:
        items = row.get("components") or []
        if not 1 <= len(items) <= PER_ROW:
            yield f"{len(items)} components in a row"
        for item in items:
            ids.append(item.get("custom_id"))
            if not item.get("custom_id") or len(item["custom_id"]) > CUSTOM_ID:
                yield f"custom_id {item.get('custom_id')!r}"
            if item.get("type") == 2 and not 1 <= len(item.get("label") or "") <= LABEL:
                yield f"button label {item.get('label')!r}"
            if item.get("type") == 3:
                options = item.get("options") or []
                if not 1 <= len(options) <= OPTIONS:
                    yield f"{len(options)} options"
                if len(item.get("placeholder") or "") > PLACEHOLDER:
                    yield "placeholder"
                for option in options:
                    for key in ("label", "value"):
                        if not 1 <= len(option.get(key) or "") <= OPTION_TEXT:
                            yield f"option {key} {option.get(key)!r}"
                    if len(option.get("description") or "") > OPTION_TEXT:
                        yield f"option description {option['description']!r}"
                if len({o.get("value") for o in options}) != len(options):
                    yield "duplicate option values"
    if len(ids) != len(set(ids)):
        yield f"duplicate custom ids {ids}"


def choice_problems(choices: list[dict[str, Any]]) -> Iterator[str]:
    if len(choices) > CHOICES:
        yield f"{len(choices)} choices"
    for choice in choices:
        for key in ("name", "value"):
            text = str(choice.get(key, ""))
            if not 1 <= len(text) <= CHOICE_TEXT:
                yield f"choice {key} {text!r}"


def mention_problems(data: dict[str, Any]) -> Iterator[str]:
    """Nothing pings but the one player a question waits on, named in its content."""
    allowed = data.get("allowed_mentions")
    if not (data.get("content") or data.get("embeds")):
        return
    if allowed is None or allowed.get("parse") != [] or allowed.get("roles"):
        yield f"allowed_mentions {allowed}"
    for user in (allowed or {}).get("users") or []:
        if not (data.get("content") or "").startswith(f"<@{user}>"):
            yield f"pings {user}: {data.get('content')!r}"


@pytest.fixture
def problems(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every request the bot makes, checked; what breaks a rule is listed here."""
    found: list[str] = []
    answer = transport.InteractionCapture.answer

    def checked(self: transport.InteractionCapture, route: Any, request: Any) -> Any:
        payload = request.payload or {}
        data = payload.get("data") or {} if route.key == CALLBACK_ROUTE else payload
        kind = payload.get("type") if route.key == CALLBACK_ROUTE else None
        if kind == transport.AUTOCOMPLETE_RESULT:
            found.extend(choice_problems(data.get("choices") or []))
        elif data and request.method != "DELETE":
            found.extend(component_problems(data.get("components") or []))
            found.extend(mention_problems(data))
        return answer(self, route, request)

    monkeypatch.setattr(transport.InteractionCapture, "answer", checked)
    return found


def long_name(tag: str, size: int = 64) -> str:
    """A name of ``size`` characters, led by ``tag``, that markdown and mentions would read."""
    filler = " **_~|>@everyone <@1000> عربي é̃ 👨‍👩‍👧 __x__ ||y|| " * 4
    return (tag + filler)[:size].strip()[:size]


SIDES = (long_name("A", 32), long_name("B", 32))


async def gm(session: Any, *lines: str) -> list[Any]:
    sent = []
    for line in lines:
        sent += await send(session, line, user_id=GM_USER)
    return sent


async def set_up(session: Any, *lines: str) -> list[Any]:
    """Lines that must work."""
    sent = []
    for line in lines:
        sent += await send(session, line, user_id=GM_USER)
        assert not sent[-1].ephemeral, (line, sent[-1].content)
    return sent


def refused_in_public(sent: list[Any]) -> list[str]:
    return [m.content for m in sent
            if (m.content or "").startswith("⚠️") and not m.ephemeral]


async def test_a_fire_at_will_battle_of_the_longest_names(discord_session, problems):
    session = discord_session
    units = {side: [long_name(f"{side[0]}{i:02d}") for i in range(10)] for side in SIDES}
    lines = [f'/battle start ruleset:fire-at-will name:"{long_name("Battle")}" '
             f'sides:"{SIDES[0]}, {SIDES[1]}"']
    for side, names in units.items():
        lines += [f'/unit add side:"{side}" name:"{name}" words:"inf regular morale=4" strength:4'
                  for name in names]
        lines += [f'/general add name:"{long_name(f"G{side[0]}{i}")}" side:"{side}" '
                  f'unit:"{names[i]}"' for i in range(10)]
    sent = await set_up(session, *lines)
    attackers = "; ".join(f"{n}: charging" for n in units[SIDES[0]])
    defenders = "; ".join(units[SIDES[1]])
    sent += await gm(session, f'/melee odds fire-at-will attackers:"{attackers}" '
                              f'defenders:"{defenders}"')
    sent += await gm(session, f'/melee fire-at-will attackers:"{attackers}" '
                              f'defenders:"{defenders}"')
    sent += await gm(session, "/gm override", "/battle show", "/unit list", "/battle log count:50",
                     "/battle export", "/battle export format:json", "/gm reroll", "/gm undo",
                     "/battle end")
    assert problems == []
    assert refused_in_public(sent) == []


ODD_INPUTS = [
    "", " ", "x" * 6000, "\u200b", "\u200f", "עברית: ", "a\u0301\u0302\u0303" * 30,
    "👨‍👩‍👧" * 40, '"', '""', ";;;;", ":" * 100, "A: " + "charging " * 200, "@everyone",
    "<@1000>", "`", "\\", "morale=" + "9" * 500, long_name("A00") + ": ", "a; " * 300,
]


def autocompleted(tree: Any) -> Iterator[tuple[list[str], str]]:
    """Every (command path, option) that autocompletes."""
    from discord import app_commands

    def walk(command: Any, path: list[str]) -> Iterator[tuple[list[str], str]]:
        if isinstance(command, app_commands.Group):
            for sub in command.commands:
                yield from walk(sub, [*path, sub.name])
            return
        for param in command._params.values():
            if param.autocomplete:
                yield path, param.display_name

    for command in tree.get_commands(guild=None):
        yield from walk(command, [command.name])


@pytest.mark.parametrize("in_battle", [False, True])
async def test_every_autocomplete_answers_within_discords_limits(discord_session, problems,
                                                                in_battle):
    session = discord_session
    if in_battle:
        names = [long_name(f"A{i:02d}") for i in range(30)]
        await set_up(session, f'/battle start ruleset:fire-at-will name:"{long_name("B")}" '
                              f'sides:"{SIDES[0]}, {SIDES[1]}"',
                     *[f'/unit add side:"{SIDES[i % 2]}" name:"{name}" '
                       'words:"inf regular morale=4" strength:4' for i, name in enumerate(names)],
                     *[f'/general add name:"{long_name(f"G{i:02d}")}" side:"{SIDES[i % 2]}"'
                       for i in range(30)])
    paths = list(autocompleted(session.tree))
    assert len(paths) > 10
    for path, option in paths:
        for typed in ODD_INPUTS:
            await session.autocomplete(path, {option: typed}, option, channel_id=CHANNEL,
                                       user_id=GM_USER, guild_id=GUILD)
    assert problems == []


def answer_labels(message: Any) -> list[str]:
    return [b["label"] for row in message.components for b in row["components"]
            if b.get("type") == 2]


async def test_huzzah_buttons_on_stacks_named_alike_to_their_end_differ(discord_session,
                                                                       problems):
    """Three attacking stacks whose 64-character names differ in their last letter only:
    each "Huzzah on all but …" button still names its own."""
    stem = "Régiment de la Reine, 2e bataillon, compagnie des grenadiers n" + "°"
    names = [f"{stem}{n}" for n in (1, 2, 3)]
    assert {len(name) for name in names} == {64}
    stack = "infantry morale=34 melee=12 fire=6 defence=9 inc=6"
    british = "infantry morale=41 melee=8 fire=5 defence=9 inc=5 nation=british"
    attackers = "; ".join(f"{name}: {stack}" for name in names)
    defenders = f"52nd: {british}; 71st: {british}; 95th: {british}"
    [huzzah] = await send(discord_session, f'/assault labataille attackers:"{attackers}" '
                          f'defenders:"{defenders}" dice:"61 45 45 65 56 62 5 42 24 31 12 51 34"')
    labels = answer_labels(huzzah)
    assert len(labels) == 8, (huzzah.content, huzzah.embeds)
    assert len(set(labels)) == len(labels), labels
    assert problems == []


def quick_name(tag: str) -> str:
    """A long name a quick lookup takes: no separator the notation reads between units."""
    return (tag + " **_~>@everyone <@1000> عربي é̃ 👨‍👩‍👧 __x__ 'y' " * 3)[:64].strip()


NAMES = ["52nd", "4e Léger", "Ross", "Cuirassiers", "Black Watch", "Fusiliers", "1/45e",
         "1/3e Grenadiers", "33rd", "2e Cuirassiers", "2nd Foot", "Lancers", "Hussars",
         "Cossacks", "16th Light Dragoons"]
EXAMPLES = [
    '/fire le-baton shooter:"52nd: british inf figures=8" target:"4e Léger" target_type:column '
    'distance:3',
    '/artillery le-baton battery:"Ross: british art figures=4 guns=9" target:"4e Léger" '
    'target_type:column range:close',
    '/morale le-baton unit:"4e Léger: french inf column casualties=3" phase:4 charging:true '
    'opponent:"52nd"',
    '/recall le-baton unit:"Cuirassiers: french cav charge_marker casualties=2" '
    'initiated_charge:true',
    '/charge le-baton charger:"Cuirassiers: french cav cuirassiers figures=8" '
    'target:"52nd: british inf line figures=8"',
    '/melee le-baton attacker:"4e Léger: french inf column figures=12" defender:"52nd: british '
    'inf elite line figures=8 defensive_terrain" phase:6',
    '/melee tricorne attacker:"Black Watch: highland leader=Murray" '
    'defender:"Fusiliers: regular blocks=3"',
    '/assault labataille attackers:"1/45e: infantry morale=34 melee=12 fire=6 defence=9 inc=6" '
    'defenders:"52nd: infantry morale=41 melee=8 fire=5 defence=9 inc=5 nation=british"',
    '/charge labataille attackers:"1/3e Grenadiers: infantry morale=55 melee=20" '
    'defenders:"33rd: infantry morale=41 melee=6"',
    '/cavalry labataille chargers:"2e Cuirassiers: cavalry morale=44 melee=18 mp=8 '
    'nation=french" targets:"2nd Foot: infantry morale=41 melee=8 inc=5" spent:2',
    '/square labataille stack:"2nd Foot: infantry morale=41 nation=british" distance:2',
    '/reaction labataille reactor:"Lancers: cavalry morale=35" charger:"Hussars: cavalry '
    'morale=34 charge=charging" gap:3',
    '/formup labataille stack:"Cossacks: cavalry formation=skirmish morale=34" '
    'charger:"Hussars: cavalry morale=44 charge=charging"',
    '/recall labataille chargers:"16th Light Dragoons: cavalry light morale=44 mp=9 '
    'nation=british"',
    '/charge fire-at-will target:"2nd Foot" target_type:infantry morale:4 '
    'chargers:"Hussars: cav distance=5"',
]


def with_long_names(line: str) -> str:
    for i, name in enumerate(sorted(NAMES, key=len, reverse=True)):
        line = line.replace(f'"{name}:', f'"{quick_name(f"N{i:02d}")}:')
        line = line.replace(f'"{name}"', f'"{quick_name(f"N{i:02d}")}"')
    return line.replace("leader=Murray", "leader=" + "Murray*_~>" * 6 + "Murr")


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.split(" ", 2)[0][1:] + "-"
                         + e.split(" ", 2)[1])
async def test_every_example_with_the_longest_names(discord_session, problems, example):
    """Each help example with 64-character names, rolled, every question answered by its
    buttons in turn (the last button of each: often the one that leads on), and its odds."""
    session = discord_session
    line = with_long_names(example)
    verb, rest = line.split(" ", 1)
    where = {"channel_id": CHANNEL, "user_id": PLAYER, "guild_id": GUILD}
    session.client.outcomes.odds_seconds = EITHER_ODDS_SECONDS
    sent = await send(session, f"{verb} odds {rest}")
    message = (await send(session, line))[-1]
    assert not message.ephemeral, (line, message.content)
    sent.append(message)
    for _ in range(10):
        labels = [label for label in answer_labels(message) if label != "📜 Steps"]
        if not labels:
            break
        pressed = await session.press(message, labels[-1], **where)
        sent += pressed
        message = pressed[-1]
    if "📜 Steps" in answer_labels(message):
        sent += await session.press(message, "📜 Steps", **where)
    assert problems == []
    assert refused_in_public(sent) == []


ROSTERS = {
    "le-baton": ("french cav figures=8",
                 "british inf line figures=8"),
    "labataille": ("cavalry morale=44 melee=18 mp=8 nation=french charge=charging",
                   "infantry morale=41 melee=8 fire=5 defence=9 nation=british"),
    "tricorne": ("battle-cavalry blocks=3", "regular blocks=4"),
    "fire-at-will": ("cav regular morale=4", "inf regular morale=4 shaken"),
}


@pytest.mark.parametrize("ruleset", list(ROSTERS))
async def test_a_big_battle_of_each_rule_set_with_the_longest_names(discord_session, problems,
                                                                   ruleset):
    """Thirty units of 64-character names and as many generals: the roster, every phase
    of a turn with its reminders, the log and the export."""
    session = discord_session
    words = ROSTERS[ruleset]
    lines = [f'/battle start ruleset:{ruleset} name:"{long_name("Battle", 100)}" '
             f'sides:"{SIDES[0]}, {SIDES[1]}"']
    for n in range(30):
        side = n % 2
        lines.append(f'/unit add side:"{SIDES[side]}" name:"{long_name(f"U{n:02d}")}" '
                     f'words:"{words[side]}"')
        lines.append(f'/general add name:"{long_name(f"G{n:02d}")}" side:"{SIDES[side]}" '
                     f'unit:"{long_name(f"U{n:02d}")}"')
        if ruleset == "le-baton":
            lines.append(f'/gm set unit:"{long_name(f"U{n:02d}")}" '
                         + ("field:charge_marker value:true" if side == 0
                            else "field:casualties value:3"))
    sent = await set_up(session, *lines)
    sent += await gm(session, *["/battle next"] * 14, "/battle show", "/unit list",
                     f'/battle show side:"{SIDES[0]}"', "/battle log count:50", "/battle export",
                     "/battle export format:json", f"/help topic:{ruleset}",
                     *[f"/help topic:{ruleset} part:{part}"
                       for part in ("words", "settings", "reference")])
    assert problems == []
    assert refused_in_public(sent) == []
