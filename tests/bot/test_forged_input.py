"""Input no Discord client sends unless it is forged: a button's custom id naming a row id no
database can hold, an attachment option whose file is missing from ``resolved``. Each is
refused privately, as a stale button or a bad option is."""

from __future__ import annotations

from bot.offline import command_payload

from .conftest import CHANNEL, GM_USER, GUILD, PLAYER, reply, send, text_of
from .test_charts import PACK
from .test_charts import setup as labataille_battle
from .test_decisions import CHARGE, LOOKUP, OTHER, setup

PAST_A_ROW_ID = 2**63  # past any SQLite row id (a signed 64-bit integer)
PAST_A_POSTGRESQL_ID = 2**31  # past an Integer column in PostgreSQL (32 bits)
STALE_QUESTION = "That question has already been answered"


async def forged(session, message, label: str, custom_id: str, user_id: int = GM_USER):
    *_, answer = await session.press_forged(message, label, custom_id, channel_id=CHANNEL,
                                            user_id=user_id, guild_id=GUILD)
    return answer


async def test_a_question_id_past_any_row_id_is_refused_as_a_stale_button(battle_session):
    asked = await reply(battle_session, LOOKUP)
    label = asked.components[0]["components"][0]["label"]
    for where in (f"q{PAST_A_ROW_ID}:0", f"q{PAST_A_POSTGRESQL_ID}:0", f"q{10**40}:0"):
        refused = await forged(battle_session, asked, label, f"huzzah:answer:{where}:0",
                               user_id=PLAYER)
        assert refused.ephemeral and STALE_QUESTION in refused.content, refused.content


async def test_a_battle_button_naming_ids_past_any_row_id_is_refused(battle_session):
    await setup(battle_session)
    asked = await reply(battle_session, CHARGE, user_id=OTHER)
    label = asked.components[0]["components"][0]["label"]
    # A battle no row holds reads as one that ended; a question past the battle's events
    # as one already answered.
    for custom_id, said in ((f"huzzah:answer:b{PAST_A_ROW_ID}:4:0",
                             "That question's battle has ended (or is another channel's)"),
                            (f"huzzah:answer:b1:{PAST_A_ROW_ID}:0", STALE_QUESTION)):
        refused = await forged(battle_session, asked, label, custom_id)
        assert refused.ephemeral and said in refused.content, refused.content
    *_, result = await battle_session.press(asked, label, channel_id=CHANNEL,
                                            user_id=PLAYER, guild_id=GUILD)
    for custom_id, said in ((f"huzzah:gm:undo:1:{PAST_A_ROW_ID}", "is no longer the last one"),
                            (f"huzzah:gm:reroll:{PAST_A_ROW_ID}:5", "is of another battle"),
                            (f"huzzah:override:1:{PAST_A_ROW_ID}", "is no longer the last one")):
        refused = await forged(battle_session, result, "↩️ Undo", custom_id)
        assert refused.ephemeral and said in refused.content, refused.content
    ended = await forged(battle_session, result, "↩️ Undo", f"huzzah:end:{PAST_A_ROW_ID}")
    assert ended.ephemeral and "That battle has already ended" in ended.content
    log = await reply(battle_session, "/battle log")  # nothing was done
    assert "`#5` player: " in text_of(log) and "#6" not in text_of(log)


async def test_an_answer_button_past_the_questions_answers_is_refused(battle_session):
    """A button's place among the answers, forged one past the last (or far past it), is
    refused as a stale button is, and the question still waits."""
    await setup(battle_session)
    asked = await reply(battle_session, CHARGE, user_id=OTHER)
    labels = [b["label"] for row in asked.components for b in row["components"]]
    battle, seq = asked.components[0]["components"][0]["custom_id"].split(":")[2:4]
    for index in (len(labels), 99):
        refused = await forged(battle_session, asked, labels[0],
                               f"huzzah:answer:{battle}:{seq}:{index}", user_id=PLAYER)
        assert refused.ephemeral and refused.content == (
            "⚠️ That button no longer matches the question. Use the buttons under the "
            "question, or `/answer`."), refused.content
    shown = text_of(await reply(battle_session, "/battle show"))
    assert "Waiting for an answer" in shown


async def test_an_attachment_missing_from_resolved_is_refused(discord_session):
    await labataille_battle(discord_session)
    await discord_session.start()
    for missing in ("attachments", None):
        payload = command_payload(discord_session.tree, ["battle", "charts"], {"file": PACK},
                                  application_id=discord_session.application_id,
                                  channel_id=CHANNEL, user_id=GM_USER, guild_id=GUILD)
        resolved = payload["data"]["resolved"]
        if missing is None:
            del payload["data"]["resolved"]
        else:
            del resolved[missing]
        [refused] = await discord_session.invoke_raw(payload)
        assert refused.ephemeral
        assert refused.content == ("⚠️ Discord did not send the file attached to `file`. "
                                   "Attach it again.")
    none = await send(discord_session, "/battle charts")
    assert "This battle has no chart pack" in none[0].content
