"""`/<verb> odds <rule set>` through the real command tree: the odds of every result, as a
quick lookup and on a battle's roster (and chart pack), per answer where the rules ask, and
estimated where the walk would be too long; nothing is rolled or written."""

from __future__ import annotations

import subprocess
import sys

from sqlalchemy import select

from bot.render.limits import EmbedSpec, violations
from bot.storage.models import Battle

from .conftest import GM_USER, reply, text_of
from .test_charts import PACK, attach

EVEN = ('/melee odds fire-at-will attackers:"Grenadiers: inf regular morale=4" '
        'defenders:"Artois: inf regular morale=4"')


async def test_a_quick_lookup_gives_each_result_with_its_exact_chance(discord_session):
    message = await reply(discord_session, EVEN)
    assert not message.ephemeral
    assert message.embeds[0]["title"] == "🎯 Odds: melee (Fire at Will)"
    text = text_of(message)
    # Two equal regulars: each routs the other on a win by 2 or more, 5/18 of the time.
    assert "**Artois routs; Artois loses 2 SP** — 5/18 (27.8%)" in text
    assert "**Grenadiers routs; Grenadiers loses 2 SP** — 5/18 (27.8%)" in text
    assert '**Grenadiers retires 3"; Artois retires 3"** — 1/6 (16.7%)' in text
    assert "• Attackers win by 2: Artois routs, −2 SP: 1/9 (11.1%)" in text
    assert "Expected losses: attackers 0.69 SP, defenders 0.69 SP" in text
    assert "Exact: every roll counted." in text
    assert not violations(message.embeds, message.content)


async def test_odds_in_a_battle_use_its_roster_and_write_nothing(discord_session):
    for line in ("/battle start ruleset:fire-at-will name:Odds",
                 '/unit add side:A name:Grenadiers words:"inf regular morale=4" strength:10',
                 '/unit add side:B name:Artois words:"inf regular morale=4" strength:10'):
        assert not (await reply(discord_session, line, user_id=GM_USER)).ephemeral
    message = await reply(discord_session, '/melee odds fire-at-will attackers:Grenadiers '
                                           'defenders:Artois dice:"3 3"')
    text = text_of(message)
    assert "**Artois routs; Artois loses 2 SP** — 5/18 (27.8%)" in text
    assert "Expected losses: A 0.69 SP, B 0.69 SP" in text  # the roster's sides
    assert "On Odds's roster" in text
    assert "Dice typed in are not used: the odds count every roll." in text
    async with discord_session.client.db.transaction() as session:
        assert await session.scalar(select(Battle.last_seq)) == 3  # no event logged
    unknown = await reply(discord_session, "/melee odds fire-at-will attackers:Nobody "
                                           "defenders:Artois")
    assert unknown.ephemeral and "There is no unit called `Nobody`" in unknown.content
    other = await reply(discord_session, '/melee odds le-baton attacker:Grenadiers '
                                         'defender:Artois phase:6')
    assert other.ephemeral and "`/melee odds fire-at-will`" in other.content


async def test_a_question_on_the_way_gives_the_odds_for_each_answer(discord_session):
    # Infantry in open order charging cavalry: on a 1 to 3 the hussars may counter-charge.
    asked = ('/charge odds fire-at-will target:Hussars target_type:cavalry morale:4 '
             'chargers:"Rangers: inf open"')
    message = await reply(discord_session, asked)
    fields = {f["name"]: f["value"] for e in message.embeds for f in e.get("fields", [])}
    assert list(fields) == ["If: Does Hussars counter-charge? → Counter-charge Rangers",
                            "If: Does Hussars counter-charge? → Stand"]
    assert ("**Hussars counter-charges Rangers, meeting it halfway** — 1/2 (50.0%)"
            in fields["If: Does Hussars counter-charge? → Counter-charge Rangers"])
    assert ("**Hussars stands: melee follows** — certain (100%)"
            in fields["If: Does Hussars counter-charge? → Stand"])
    given = await reply(discord_session, asked + ' choices:"Rangers"')
    assert [f["name"] for e in given.embeds for f in e.get("fields", [])] == ["Results"]


async def test_a_chart_pack_attached_to_the_battle_reads_the_chart(discord_session):
    for line in ("/battle start ruleset:labataille name:Bussaco",
                 '/unit add side:French name:Hussards words:"cavalry morale=34 melee=20 mp=8 '
                 'nation=french charge=charging" strength:4',
                 '/unit add side:British name:Dragoons words:"cavalry morale=34 melee=10" '
                 "strength:4"):
        assert not (await reply(discord_session, line, user_id=GM_USER)).ephemeral
    command = "/cavalry odds labataille chargers:Hussards targets:Dragoons"
    unread = await reply(discord_session, command)
    # Without a pack the player reads the chart: the odds for each reading of it.
    assert sum(1 for e in unread.embeds for f in e.get("fields", [])
               if f["name"].startswith("If:")) >= 5
    await attach(discord_session, PACK)
    read = await reply(discord_session, command)
    text = text_of(read)
    assert "read on its chart pack (`/battle charts` shows it)" in text
    assert "If:" not in text and "Exact: every roll counted." in text
    assert "Dragoons routs" in text


async def test_a_fight_too_big_to_walk_in_time_is_estimated(discord_session):
    discord_session.client.outcomes.odds_seconds = 0.5
    sides = "; ".join(f"A{i}: inf" for i in range(5))
    message = await reply(discord_session, f'/melee odds fire-at-will attackers:"{sides}" '
                                           'defenders:"D1: inf; D2: inf; D3: inf"')
    text = text_of(message)
    assert "Estimated from" in text and "random resolutions (95% intervals)" in text
    assert "about " in text and "%–" in text
    assert not violations(message.embeds, message.content)


async def test_the_project_defaults_that_decided_some_result_are_named(discord_session):
    # Without a chart pack La Bataille reads odds on the Premier chart's columns.
    message = await reply(discord_session, '/cavalry odds labataille chargers:"Hussards: '
                                           'cavalry morale=34 melee=20 mp=8 charge=charging" '
                                           'targets:"Dragoons: cavalry morale=34 melee=10"')
    assert "Project defaults (see /help): without a chart pack, odds are read on the " \
           "Premier chart's columns" in message.embeds[-1]["footer"]["text"]


async def test_the_odds_are_rendered_in_the_worker_process(discord_session, monkeypatch):
    """The worker sends back the reply's embeds, not the odds: grouping and summing
    thousands of outcomes never runs on the event loop."""
    import bot.render.odds

    def not_here(*args, **kwargs):
        raise AssertionError("the odds were rendered on the event loop")

    monkeypatch.setattr(bot.render.odds, "odds_specs", not_here, raising=False)  # here only
    worker = discord_session.client.outcomes
    submitted, submit = [], worker._submit

    def watched(work, *args, **kwargs):
        submitted.append(future := submit(work, *args, **kwargs))
        return future

    monkeypatch.setattr(worker, "_submit", watched)
    message = await reply(discord_session, EVEN)
    [future] = submitted
    came_back = future.result()  # from the worker process
    assert isinstance(came_back, list), type(came_back)
    [embeds] = came_back
    assert all(isinstance(spec, EmbedSpec) for spec in embeds)
    assert [e["title"] for e in message.embeds] == [spec.title for spec in embeds]
    assert "**Artois routs; Artois loses 2 SP** — 5/18 (27.8%)" in text_of(message)


def test_the_worker_renders_without_loading_discord():
    """A worker process imports ``bot.workers`` and what it renders with, nothing more."""
    probe = ("import sys, bot.workers; print(sorted(m for m in ('discord', 'sqlalchemy', "
             "'aiohttp') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=60)
    assert done.stdout.strip().splitlines()[-1] == "[]", done.stdout + done.stderr
