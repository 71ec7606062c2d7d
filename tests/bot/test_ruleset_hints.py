"""The rule set remembered per channel is only a hint: a move corrects it."""

from __future__ import annotations

from sqlalchemy import update

from bot.offline import OfflineDiscord
from bot.storage.models import Battle

from .conftest import CHANNEL, GM_USER, reply

SETUP = [
    '/battle start ruleset:fire-at-will name:Minden',
    '/unit add side:British name:"12th Foot" words:"inf regular morale=4" strength:4',
    '/unit add side:French name:Picardie words:"inf regular morale=4" strength:4',
]
MOVE = '/melee fire-at-will attackers:"12th Foot" defenders:Picardie dice:"3 3"'


async def other_process_switches_the_rule_set(session: OfflineDiscord) -> None:
    # Every change the bot makes to a battle moves its last_seq: so does this one.
    async with session.client.db.transaction() as s:
        await s.execute(update(Battle).values(ruleset="le-baton",
                                              last_seq=Battle.last_seq + 1))


async def test_a_move_refused_for_another_rule_set_forgets_the_old_hint(discord_session):
    for line in SETUP:
        await reply(discord_session, line, user_id=GM_USER)
    store = discord_session.client.store
    await reply(discord_session, MOVE)
    assert await store.ruleset(CHANNEL) == "fire-at-will"
    await other_process_switches_the_rule_set(discord_session)
    assert await store.ruleset(CHANNEL) == "fire-at-will"  # a hint, not yet corrected
    refused = await reply(discord_session, MOVE)
    assert refused.ephemeral and "played with Le Baton" in refused.content
    assert await store.ruleset(CHANNEL) == "le-baton"
