"""A procedure that stops for a player's choice: the question with buttons, the answer by a
button (after a restart too) or by /answer, who may answer, and what waits meanwhile.

Fire at Will's counter-charge: hussars charged only by skirmishing rangers roll a 1,
1 − 2 − 2 = −3, below zero, so the hussars' player decides whether they counter-charge.
"""

from __future__ import annotations

import re

import discord
from sqlalchemy import select, update

from bot.client import create_bot
from bot.offline import OfflineDiscord
from bot.storage import Database
from bot.storage.models import Battle, Event, Question, QuestionMessage

from .conftest import CHANNEL, GM_USER, GUILD, PLAYER, played, reply, send, steps_of, text_of
from .test_battle_safety import url_of

OTHER = 3000  # the rangers' player
SETUP = [
    ('/battle start ruleset:fire-at-will name:Quiberon', GM_USER),
    ('/unit add side:French name:Hussars words:"cav morale=4" strength:4', PLAYER),
    ('/unit add side:British name:Rangers words:"inf open morale=4" strength:4', OTHER),
]
CHARGE = '/charge fire-at-will target:Hussars chargers:Rangers dice:1'
LOOKUP = ('/charge fire-at-will target:Hussars target_type:cavalry morale:4 '
          'chargers:"Rangers: inf open" dice:1')


async def setup(session: OfflineDiscord) -> None:
    for line, user in SETUP:
        message = await reply(session, line, user_id=user)
        assert not message.ephemeral, message.content


async def press(session: OfflineDiscord, message, label: str, user: int):
    return await session.press(message, label, channel_id=CHANNEL, user_id=user,
                               guild_id=GUILD)


async def kinds(db: Database) -> list[str]:
    async with db.transaction() as s:
        return list(await s.scalars(select(Event.kind).order_by(Event.seq)))


async def pending(db: Database):
    async with db.transaction() as s:
        return (await s.scalar(select(Battle))).pending


def buttons(message) -> list[str]:
    return [b["label"] for row in message.components for b in row["components"]]


async def test_the_question_waits_with_buttons_and_the_battle_waits_for_it(battle_session):
    await setup(battle_session)
    asked = await reply(battle_session, CHARGE, user_id=OTHER)
    assert not asked.ephemeral
    assert asked.embeds[0]["title"] == "❓ Does Hussars counter-charge?"
    assert f"Hussars' player (<@{PLAYER}>) or a GM decides" in asked.embeds[0]["description"]
    # The rolls so far: the hussars' test, read below zero.
    assert ("= **−3** vs basic morale 4, below 0 → may counter-charge\n"
            in asked.embeds[0]["description"])
    assert buttons(asked) == ["Counter-charge Rangers", "Stand"]
    db = battle_session.client.db
    assert (await kinds(db))[-1] == "question"
    assert (await pending(db))["question"]["key"] == "counter_charge"
    # Nothing else moves the battle meanwhile.
    refused = await reply(battle_session, CHARGE, user_id=OTHER)
    assert refused.ephemeral and "waiting for an answer" in refused.content
    refused = await reply(battle_session, '/unit add side:British name:Foot words:"inf '
                                          'morale=4" strength:4', user_id=OTHER)
    assert refused.ephemeral and "Does Hussars counter-charge?" in refused.content
    # Only the hussars' player (or a GM) may answer.
    [not_yours] = await press(battle_session, asked, "Stand", OTHER)
    assert not_yours.ephemeral and "This is Hussars' player's choice" in not_yours.content
    assert (await kinds(db))[-1] == "question"


async def test_a_button_answers_after_a_restart(db):
    url = url_of(db)
    async with Database(url) as first, OfflineDiscord(create_bot(first)) as session:
        await setup(session)
        asked = await reply(session, CHARGE, user_id=OTHER)
    async with Database(url) as second, OfflineDiscord(create_bot(second)) as session:
        # The question's message becomes the result, with the result's buttons.
        [result] = await press(session, asked, "Counter-charge Rangers", PLAYER)
        assert result.kind == "update"
        assert buttons(result) == ["📜 Steps", "↩️ Undo", "🎲 Reroll"]
        assert "Answered by" in result.content
        assert not result.ephemeral
        assert result.embeds[0]["title"].endswith("Hussars counter-charges Rangers")
        assert result.embeds[0]["footer"]["text"].endswith(" · #5")
        assert await kinds(second) == ["battle_start", "unit_add", "unit_add", "question",
                                       "resolution"]
        assert await pending(second) is None
        async with second.transaction() as s:
            event = await s.scalar(select(Event).where(Event.seq == 5))
        # The answer is part of the move's request: a reroll or an override replays it.
        assert event.request["options"]["answered"] == "counter_charge=Rangers"
        assert event.summary == ("Answered #4: Counter-charge Rangers. Hussars "
                                 "counter-charges Rangers")
        # The question's buttons, pressed once it is answered: refused privately, and the
        # message (now the result, with its own buttons) left as it is.
        [again] = await press(session, asked, "Stand", PLAYER)
        assert again.ephemeral and "already been answered" in again.content
        # The battle moves on.
        assert not (await reply(session, CHARGE.replace("dice:1", "dice:6"),
                                user_id=OTHER)).ephemeral


async def test_undo_puts_the_question_back_then_takes_it_back(battle_session):
    await setup(battle_session)
    asked = await reply(battle_session, CHARGE, user_id=OTHER)
    await press(battle_session, asked, "Stand", GM_USER)  # a GM answers for a player
    db = battle_session.client.db
    assert await pending(db) is None
    await reply(battle_session, "/gm undo", user_id=GM_USER)
    assert (await pending(db))["seq"] == 4  # waiting again, for the same question
    [result] = await press(battle_session, asked, "Stand", PLAYER)
    assert result.embeds[0]["title"].endswith("Hussars stands: melee follows")
    await reply(battle_session, "/gm undo", user_id=GM_USER)
    await reply(battle_session, "/gm undo", user_id=GM_USER)  # the question itself
    assert await pending(db) is None
    assert not (await reply(battle_session, CHARGE.replace("dice:1", "dice:6"),
                            user_id=OTHER)).ephemeral


async def test_answer_command_and_its_choices(battle_session):
    await setup(battle_session)
    await reply(battle_session, CHARGE, user_id=OTHER)
    choices = await battle_session.autocomplete(["answer"], {"choice": ""}, "choice",
                                                channel_id=CHANNEL, user_id=PLAYER,
                                                guild_id=GUILD)
    assert [c["value"] for c in choices] == ["Rangers", "stand"]
    wrong = await reply(battle_session, "/answer choice:Rangerz", user_id=PLAYER)
    assert wrong.ephemeral and "Did you mean `Rangers`" in wrong.content
    result = await reply(battle_session, "/answer choice:rangers", user_id=PLAYER)
    assert result.embeds[0]["title"].endswith("Hussars counter-charges Rangers")


async def test_a_quick_lookup_asks_too_and_keeps_its_question(battle_session):
    asked = await reply(battle_session, LOOKUP, user_id=PLAYER, channel_id=CHANNEL + 1)
    assert buttons(asked) == ["Counter-charge Rangers", "Stand"]
    assert "event #" not in asked.embeds[0]["footer"]["text"]
    [not_yours] = await battle_session.press(asked, "Stand", channel_id=CHANNEL + 1,
                                             user_id=OTHER, guild_id=GUILD)
    assert not_yours.ephemeral and "only the player who ran it answers it" in not_yours.content
    result = await reply(battle_session, "/answer choice:stand", user_id=PLAYER,
                         channel_id=CHANNEL + 1)
    assert result.embeds[0]["title"].endswith("Hussars stands: melee follows")
    async with battle_session.client.db.transaction() as s:
        assert list(await s.scalars(select(Question))) == []
    nothing = await reply(battle_session, "/answer choice:stand", user_id=PLAYER,
                          channel_id=CHANNEL + 1)
    assert nothing.ephemeral and "No question is waiting for you here" in nothing.content


async def test_the_question_message_pings_its_player_and_nobody_else(battle_session):
    await setup(battle_session)
    [asked] = await send(battle_session, CHARGE, user_id=OTHER)
    payload = asked.request.payload
    # The hussars' player, whose choice it is (test_notify has the rest).
    assert payload["data"]["allowed_mentions"] == {"parse": [], "users": [PLAYER]}


async def test_answers_given_ahead_play_through_without_asking(battle_session):
    await setup(battle_session)
    result = await reply(battle_session, CHARGE + ' choices:"counter_charge=Rangers"',
                         user_id=PLAYER)
    assert result.embeds[0]["title"].endswith("Hussars counter-charges Rangers")
    # No question: the result's buttons.
    assert buttons(result) == ["📜 Steps", "↩️ Undo", "🎲 Reroll"]
    assert (await kinds(battle_session.client.db))[-1] == "resolution"
    lookup = await reply(battle_session, LOOKUP + " choices:stand", channel_id=CHANNEL + 1)
    assert lookup.embeds[0]["title"].endswith("Hussars stands: melee follows")


async def test_an_answer_given_ahead_under_a_misspelt_question_is_refused(battle_session):
    """Passed over, it would leave the battle waiting on a question its player thinks he
    answered: the command is refused, changing nothing, with the name to write."""
    await setup(battle_session)
    before = await kinds(battle_session.client.db)
    refused = await reply(battle_session, CHARGE + ' choices:"counter_charg=Rangers"',
                          user_id=PLAYER)
    assert refused.ephemeral and refused.content == (
        "⚠️ `choices`: no question here is called `counter_charg`; this one is "
        "`counter_charge` (“Does Hussars counter-charge?”). Write `counter_charge=Rangers`.")
    assert await kinds(battle_session.client.db) == before
    assert await pending(battle_session.client.db) is None


async def test_answers_given_ahead_are_the_movers_own_choices_only(battle_session):
    """The Rangers' player may not decide, in `choices`, whether the Hussars counter-charge:
    the question is asked of the Hussars' player all the same. A roll that does not reach the
    question plays as usual (nothing refused after the dice, so nothing to roll again by);
    the GM may give any answer."""
    await setup(battle_session)
    asked = await reply(battle_session, CHARGE + " choices:stand", user_id=OTHER)
    assert asked.content == f"<@{PLAYER}>, your answer:"
    assert buttons(asked) == ["Counter-charge Rangers", "Stand"]
    assert ("The answer given ahead, stand, is not the mover's to give: “Does Hussars "
            "counter-charge?” is asked of its player.") in text_of(asked)
    [answered] = await press(battle_session, asked, "Counter-charge Rangers", PLAYER)
    assert answered.embeds[0]["title"].endswith("Hussars counter-charges Rangers")
    await reply(battle_session, "/gm undo", user_id=GM_USER)
    await reply(battle_session, "/gm undo", user_id=GM_USER)
    passed = await reply(battle_session, CHARGE.replace("dice:1", "dice:6") + " choices:stand",
                         user_id=OTHER)
    assert not passed.ephemeral and not passed.content, passed.content
    await reply(battle_session, "/gm undo", user_id=GM_USER)
    by_gm = await reply(battle_session, CHARGE + " choices:stand", user_id=GM_USER)
    assert by_gm.embeds[0]["title"].endswith("Hussars stands: melee follows")


async def test_le_baton_recall_asks_cavalry_that_need_not_roll(battle_session):
    asked = await reply(battle_session, '/recall le-baton unit:"Greys: british cav '
                                        'heavy-dragoons figures=6"', channel_id=CHANNEL + 2)
    assert buttons(asked) == ["Roll for recall", "Don't roll"]
    assert asked.embeds[0]["footer"]["text"] == "No dice rolled yet"  # asked before any die
    [result] = await battle_session.press(asked, "Don't roll", channel_id=CHANNEL + 2,
                                          user_id=PLAYER, guild_id=GUILD)
    assert result.embeds[0]["title"].endswith("Greys does not roll for recall")


async def test_answer_finds_a_lookup_question_in_a_battle_channel(battle_session):
    await setup(battle_session)
    asked = await reply(battle_session, LOOKUP + " lookup:true", user_id=PLAYER)
    assert buttons(asked) == ["Counter-charge Rangers", "Stand"]
    result = await reply(battle_session, "/answer choice:stand", user_id=PLAYER)
    assert result.embeds[0]["title"].endswith("Hussars stands: melee follows")
    assert (await kinds(battle_session.client.db))[-1] == "unit_add"  # the battle untouched


async def test_a_button_from_another_battle_does_not_answer_this_one(battle_session):
    await setup(battle_session)
    old = await reply(battle_session, CHARGE, user_id=OTHER)
    await reply(battle_session, "/gm undo", user_id=GM_USER)  # the question taken back
    await reply(battle_session, '/battle end confirm:Quiberon', user_id=GM_USER)
    await setup(battle_session)  # a new battle, the same question at the same event number
    await reply(battle_session, CHARGE, user_id=OTHER)
    [refused] = await press(battle_session, old, "Stand", PLAYER)
    assert refused.ephemeral and "That question's battle has ended" in refused.content
    assert "`/battle export`" not in refused.content  # it would export the new battle
    assert (await kinds_now(battle_session))[-1] == "question"


async def kinds_now(session) -> list[str]:
    async with session.client.db.transaction() as s:
        battle = await s.scalar(select(Battle).where(Battle.status == "active"))
        return list(await s.scalars(select(Event.kind).where(Event.battle_id == battle.id)
                                    .order_by(Event.seq)))


async def test_typed_dice_that_run_short_after_an_answer_are_topped_up(battle_session):
    # Le Baton, phase 5: the 2nd Foot fail to stand against cavalry on the one typed die;
    # trying for square needs one more, which the bot rolls.
    asked = await reply(battle_session, '/morale le-baton unit:"2nd Foot: british inf line" '
                                        'phase:5 charged_by:cavalry opponent:Cuirassiers '
                                        'dice:6', channel_id=CHANNEL + 3, user_id=PLAYER)
    assert buttons(asked) == ["Try for square (4+)", "Stay as it is"]
    [result] = await battle_session.press(asked, "Try for square (4+)", user_id=PLAYER,
                                          channel_id=CHANNEL + 3, guild_id=GUILD)
    assert "Dice typed in: 6, then 1 die rolled by the bot" in result.embeds[0]["footer"]["text"]
    assert "Form square (4+)" in await steps_of(battle_session, result,
                                                channel_id=CHANNEL + 3)


async def test_answer_takes_the_players_own_question_first(battle_session):
    await setup(battle_session)
    await reply(battle_session, CHARGE, user_id=OTHER)  # the battle waits on PLAYER
    mine = await reply(battle_session, LOOKUP + " lookup:true", user_id=OTHER)
    assert buttons(mine) == ["Counter-charge Rangers", "Stand"]
    # OTHER's own lookup question, not the battle's (which is PLAYER's to answer).
    result = await reply(battle_session, "/answer choice:stand", user_id=OTHER)
    assert result.embeds[0]["title"].endswith("Hussars stands: melee follows")
    assert (await kinds(battle_session.client.db))[-1] == "question"  # still waiting
    battle = await reply(battle_session, "/answer choice:stand", user_id=PLAYER)
    assert battle.embeds[0]["footer"]["text"].endswith(" · #5")


# --- `/answer` turns the question's message into the result ------------------------------------


async def test_answer_by_command_turns_a_battles_question_into_the_result(battle_session):
    await setup(battle_session)
    asked = await reply(battle_session, CHARGE, user_id=OTHER)
    edited, pointer = await send(battle_session, "/answer choice:stand", user_id=PLAYER)
    assert (edited.kind, edited.message_id) == ("edit", asked.message_id)
    assert edited.embeds[0]["title"].endswith("Hussars stands: melee follows")
    assert buttons(edited) == ["📜 Steps", "↩️ Undo", "🎲 Reroll"]
    assert pointer.content.startswith("✅ Answered: ") and pointer.content.endswith(
        f"/{CHANNEL}/{asked.message_id}")
    # The message is forgotten once answered: nothing is left to take after the answer.
    async with battle_session.client.db.transaction() as s:
        assert list(await s.scalars(select(QuestionMessage.question))) == []


async def test_answer_by_command_to_a_further_question_leaves_the_first_without_buttons(
        battle_session):
    await played(battle_session, "/battle start ruleset:tricorne name:Culloden",
                 '/unit add side:Jacobite name:Camerons words:highland strength:4',
                 "/unit add side:Government name:Barrell words:regular strength:4",
                 "/unit add side:Government name:Wolfe words:regular strength:3")
    first = await reply(battle_session, '/melee tricorne attacker:Camerons defender:Barrell '
                        'choices:"take_ground=advance" dice:"inf inf inf inf  flag flag flag"',
                        user_id=GM_USER)
    assert buttons(first) == ["Attack Wolfe", "No bonus melee"]
    cleared, further = await send(battle_session, "/answer choice:Wolfe", user_id=GM_USER)
    # The first question keeps what it asked, loses its buttons, and says who answered.
    assert (cleared.kind, cleared.message_id) == ("edit", first.message_id)
    assert cleared.embeds == first.embeds and cleared.components == []
    # Typed as a name, the answer is said as its button says it.
    assert cleared.content == "✅ Answered by player: “Attack Wolfe”"
    # The next question is the reply, with its buttons; `/answer` turns it into the result.
    assert further.kind == "response" and further.embeds[0]["title"].startswith("❓")
    result, _ = await send(battle_session, f"/answer choice:{further_choice(further)}",
                           user_id=GM_USER)
    assert (result.kind, result.message_id) == ("edit", further.message_id)
    assert not result.embeds[0]["title"].startswith("❓")


def further_choice(question) -> str:
    """The first answer of a question, as `/answer` takes it (its button's label)."""
    label = buttons(question)[0]
    return f'"{label}"' if " " in label else label


async def test_answer_by_command_turns_a_lookups_question_into_the_result(battle_session):
    asked = await reply(battle_session, LOOKUP, user_id=PLAYER, channel_id=CHANNEL + 1)
    edited, _ = await send(battle_session, "/answer choice:stand", user_id=PLAYER,
                           channel_id=CHANNEL + 1)
    assert (edited.kind, edited.message_id) == ("edit", asked.message_id)
    assert edited.embeds[0]["title"].endswith("Hussars stands: melee follows")
    assert buttons(edited) == ["📜 Steps"]


async def test_a_question_in_another_channel_is_not_edited_from_this_one(battle_session):
    """The message is found by the question and the channel the answer is typed in: an
    answer typed elsewhere cannot reach into another channel's message."""
    await setup(battle_session)
    asked = await reply(battle_session, CHARGE, user_id=OTHER)
    async with battle_session.client.db.transaction() as s:
        await s.execute(update(QuestionMessage).values(channel_id=CHANNEL + 5))
    result = await reply(battle_session, "/answer choice:stand", user_id=PLAYER)
    assert result.kind == "response" and result.message_id != asked.message_id
    assert result.embeds[0]["title"].endswith("Hussars stands: melee follows")


async def test_a_question_a_reroll_asks_again_is_turned_into_the_result_too(battle_session):
    await setup(battle_session)
    await reply(battle_session, CHARGE, user_id=OTHER)
    await reply(battle_session, '/gm dice dice:"1"', user_id=GM_USER)
    again = await reply(battle_session, "/gm reroll", user_id=GM_USER)
    assert again.embeds[0]["title"] == "❓ Does Hussars counter-charge?"
    edited, _ = await send(battle_session, "/answer choice:stand", user_id=PLAYER)
    assert (edited.kind, edited.message_id) == ("edit", again.message_id)
    # The question the reroll took back left nothing behind.
    async with battle_session.client.db.transaction() as s:
        assert list(await s.scalars(select(QuestionMessage.question))) == []


async def test_an_edit_that_fails_any_way_still_gives_the_result(battle_session, monkeypatch):
    await setup(battle_session)
    await reply(battle_session, CHARGE, user_id=OTHER)

    async def cut_off(*args, **kwargs):
        raise OSError("connection reset")

    monkeypatch.setattr(discord.PartialMessage, "edit", cut_off)
    result = await reply(battle_session, "/answer choice:stand", user_id=PLAYER)
    assert result.kind == "response" and not result.ephemeral
    assert result.embeds[0]["title"].endswith("Hussars stands: melee follows")


TRICORNE_LOOKUP = ('/melee tricorne attacker:"Black Watch: highland leader=Murray" '
                   'defender:"Dragoons: battle-cavalry" dice:"inf inf flag cav saber"')


def rally_line(message) -> str:
    [line] = [line for line in message.embeds[0].get("description", "").splitlines()
              if "rally check" in line]
    return line


async def test_dice_rolled_past_the_typed_ones_stay_the_same_through_every_answer(
        battle_session):
    """Five dice typed; the rally check after the first answer needs two more, rolled by
    Huzzah: shown once, on the question that stays above with its rolls, and the same dice
    in the result's steps. The later question and the result point to it, not repeat it."""
    await reply(battle_session, TRICORNE_LOOKUP, channel_id=CHANNEL + 1)
    second = await reply(battle_session, "/answer choice:stand", channel_id=CHANNEL + 1)
    third = await reply(battle_session, "/answer choice:advance", channel_id=CHANNEL + 1)
    result = await reply(battle_session, "/answer choice:none", channel_id=CHANNEL + 1)
    shown = rally_line(second)
    for later in (third, result):
        lines = later.embeds[0]["description"].splitlines()
        assert "🎲 2 earlier rolls: on the question above" in lines
        assert not any("rally check" in line for line in lines)
    # The Steps say the dice whole ("infantry" for the reply's "inf").
    steps = await steps_of(battle_session, result, channel_id=CHANNEL + 1)
    whole = re.sub(r"\b(inf|cav|art)\b",
                   lambda m: {"inf": "infantry", "cav": "cavalry", "art": "artillery"}[m[1]],
                   shown)
    assert whole in steps.splitlines(), (shown, steps)
    assert result.embeds[0]["footer"]["text"].startswith(
        "Dice typed in: inf inf flag cav saber, then 2 dice rolled by the bot")


async def test_undoing_an_answer_asks_the_question_again_with_its_buttons(battle_session):
    await setup(battle_session)
    await reply(battle_session, CHARGE, user_id=OTHER)
    await reply(battle_session, "/answer choice:stand", user_id=PLAYER)
    undone = await reply(battle_session, "/gm undo", user_id=GM_USER)
    assert undone.content.endswith(
        "The question (#4) waits again: “Does Hussars counter-charge?”\n"
        f"<@{PLAYER}>, your answer:")
    # The player whose answer was taken back is told, and nobody else.
    assert undone.request.payload["data"]["allowed_mentions"] == {"parse": [],
                                                                  "users": [PLAYER]}
    assert buttons(undone) == ["Counter-charge Rangers", "Stand"]
    # The reply holding them is the question's message now: `/answer` turns it into the result.
    edited, _ = await send(battle_session, "/answer choice:stand", user_id=PLAYER)
    assert (edited.kind, edited.message_id) == ("edit", undone.message_id)


async def test_undoing_a_reroll_of_a_question_says_the_question_waits_again(battle_session):
    await setup(battle_session)
    await reply(battle_session, CHARGE, user_id=OTHER)
    await reply(battle_session, '/gm dice dice:"6"', user_id=GM_USER)
    rerolled = await reply(battle_session, "/gm reroll", user_id=GM_USER)
    assert not rerolled.embeds[0]["title"].startswith("❓")  # a result this time
    undone = await reply(battle_session, "/gm undo", user_id=GM_USER)
    assert "stands again" not in undone.content
    assert undone.content.endswith(
        "The question it replaced (#4) waits again: “Does Hussars counter-charge?” The GM's "
        "queue is back: 1 die is waiting for the next roll here (`/gm dice clear:true` "
        f"empties it).\n<@{PLAYER}>, your answer:")
    assert buttons(undone) == ["Counter-charge Rangers", "Stand"]


async def test_answering_someone_elses_quick_lookup_says_whose_it_is(battle_session):
    await reply(battle_session, LOOKUP, user_id=PLAYER, channel_id=CHANNEL + 1)
    refused = await reply(battle_session, "/answer choice:stand", user_id=OTHER,
                          channel_id=CHANNEL + 1)
    assert refused.ephemeral
    assert f"The question waiting here is <@{PLAYER}>'s quick lookup" in refused.content
    assert refused.request.payload["data"]["allowed_mentions"]["parse"] == []


async def test_a_button_of_someone_elses_quick_lookup_says_only_he_answers(battle_session):
    """Not "or a GM's": a quick lookup has no GM, and the battle's GM is refused too."""
    asked = await reply(battle_session, LOOKUP, user_id=PLAYER, channel_id=CHANNEL + 1)
    for user in (OTHER, GM_USER):
        [refused] = await battle_session.press(asked, "Stand", channel_id=CHANNEL + 1,
                                               user_id=user, guild_id=GUILD)
        assert refused.ephemeral and refused.content == (
            f"⚠️ This is <@{PLAYER}>'s quick lookup: only the player who ran it answers it. "
            "Run the lookup yourself to be asked."), refused.content


async def test_an_order_in_a_battle_names_the_battles_sides(battle_session):
    await played(battle_session, "/battle start ruleset:labataille name:Bussaco",
                 '/unit add side:French name:1/45e words:"infantry morale=34" strength:6',
                 '/unit add side:British name:95th words:"infantry morale=34" strength:4')
    typo = await reply(battle_session, "/order labataille first:French first_assaults:2 "
                                       "second:Britsh second_assaults:2", user_id=GM_USER)
    assert typo.ephemeral
    assert "There is no side called `Britsh` in this battle. Did you mean `British`?" in \
        typo.content
    order = await reply(battle_session, "/order labataille first:french first_assaults:2 "
                                        "second:British second_assaults:2", user_id=GM_USER)
    assert not order.ephemeral


async def test_undoing_a_reroll_that_asked_again_brings_back_the_question_it_replaced(
        battle_session):
    await setup(battle_session)
    await reply(battle_session, CHARGE, user_id=OTHER)
    await reply(battle_session, '/gm dice dice:"1"', user_id=GM_USER)
    again = await reply(battle_session, "/gm reroll", user_id=GM_USER)
    assert again.embeds[0]["title"] == "❓ Does Hussars counter-charge?"
    undone = await reply(battle_session, "/gm undo", user_id=GM_USER)
    # The undone event's summary asked it: the question is quoted once.
    assert undone.content.startswith(
        "↩️ Undid #7 (question): Reroll of #4: Asked: Does Hussars counter-charge? (event #8). "
        "The question it replaced (#4) waits again. The GM's queue is back: 1 die is waiting "
        "for the next roll here (`/gm dice clear:true` empties it).\n"), undone.content
    assert undone.content.count("Does Hussars counter-charge?") == 1
    assert (await pending(battle_session.client.db))["seq"] == 4


async def test_an_undo_that_leaves_the_question_as_it_was_does_not_ask_it_again(
        battle_session):
    await setup(battle_session)
    asked = await reply(battle_session, CHARGE, user_id=OTHER)
    await reply(battle_session, '/gm dice dice:"6"', user_id=GM_USER)
    undone = await reply(battle_session, "/gm undo", user_id=GM_USER)
    assert "waits again" not in undone.content and buttons(undone) == []
    edited, _ = await send(battle_session, "/answer choice:stand", user_id=PLAYER)
    assert edited.message_id == asked.message_id  # still the question's own message


async def test_an_order_names_a_side_nobody_is_on_yet(battle_session):
    await played(battle_session, "/battle start ruleset:labataille name:Bussaco",
                 '/unit add side:French name:1/45e words:"infantry morale=34" strength:6')
    order = await reply(battle_session, "/order labataille first:French first_assaults:2 "
                                        "second:British second_assaults:2", user_id=GM_USER)
    assert not order.ephemeral


async def test_ending_a_battle_forgets_which_messages_held_its_questions(battle_session):
    await setup(battle_session)
    await reply(battle_session, CHARGE, user_id=OTHER)  # asks the Hussars' player
    await reply(battle_session, "/gm undo", user_id=GM_USER)  # takes the question back
    async with battle_session.client.db.transaction() as s:
        assert len(list(await s.scalars(select(QuestionMessage)))) == 1
    ended = await reply(battle_session, "/battle end confirm:Quiberon", user_id=GM_USER)
    assert not ended.ephemeral, ended.content
    async with battle_session.client.db.transaction() as s:
        assert list(await s.scalars(select(QuestionMessage))) == []


async def test_a_stale_button_of_an_answered_lookup_does_not_answer_the_next_question(
        discord_session):
    asked = await reply(discord_session, '/cavalry labataille chargers:"Huss: cavalry '
                        'morale=44 melee=12 mp=9 nation=french" targets:"2nd: infantry '
                        'morale=41 melee=8 inc=4 retreats" spent:3 dice:"1"')
    assert buttons(asked) == ["Attempt to Recall", "Pursue"]
    _, following = await press(discord_session, asked, "Attempt to Recall", PLAYER)
    assert buttons(following)[1] == "No unit: the charge ends"
    # The recall's second button, pressed late, is not the next question's second button.
    [refused] = await press(discord_session, asked, "Pursue", PLAYER)
    assert refused.ephemeral and "already been answered" in refused.content
    # The question it would have answered still waits for its own answer.
    answered = await press(discord_session, following, "No unit: the charge ends", PLAYER)
    assert not answered[-1].ephemeral, answered[-1].content


async def test_a_second_press_on_a_question_just_answered_leaves_its_result_alone(
        discord_session):
    """Two players press at once: both presses carry the question's buttons. The second is
    refused privately, and the result the message became keeps its Steps button."""
    asked = await reply(discord_session, '/assault labataille attackers:"1/45e: infantry '
                        'morale=34 melee=12 fire=6 defence=9 inc=6" defenders:"52nd: infantry '
                        'morale=41 melee=8 fire=5 defence=9 inc=5" dice:"55 44 3 66 22 33"')
    [result] = await press(discord_session, asked, "DR2", PLAYER)
    assert result.kind == "update" and buttons(result) == ["📜 Steps"]
    sent = await press(discord_session, asked, "DR1", PLAYER)
    assert [(m.kind, m.ephemeral) for m in sent] == [("response", True)], sent
    assert "already been answered" in sent[0].content


async def test_a_new_lookup_question_leaves_another_players_recent_one_waiting(
        battle_session):
    """A new quick-lookup question clears only questions older than a fortnight: another
    player's, asked just before in the same channel, still waits for him to answer it."""
    elsewhere = CHANNEL + 1
    await reply(battle_session, LOOKUP, user_id=PLAYER, channel_id=elsewhere)
    theirs = await reply(battle_session, LOOKUP, user_id=OTHER, channel_id=elsewhere)
    assert theirs.embeds[0]["title"] == "❓ Does Hussars counter-charge?"
    mine = await reply(battle_session, "/answer choice:stand", user_id=PLAYER,
                       channel_id=elsewhere)
    assert not mine.ephemeral, mine.content
    assert mine.embeds[0]["title"].endswith("Hussars stands: melee follows")


async def test_an_answer_with_no_question_ever_asked_says_so(battle_session):
    """`/answer` where nothing was asked, in a battle or out of one: no talk of a question
    "already answered"; it says what `/answer` is for."""
    await setup(battle_session)
    for channel in (CHANNEL, CHANNEL + 1):  # the battle's channel, then one without a battle
        refused = await reply(battle_session, "/answer choice:stand", user_id=PLAYER,
                              channel_id=channel)
        assert refused.ephemeral
        assert refused.content.startswith("⚠️ No question is waiting for you here (none was "
                                          "asked, or it was answered): `/answer` answers the "
                                          "question a command asks")
        assert "already" not in refused.content


async def test_an_answer_after_a_gm_answered_for_the_absent_player_says_who_and_what(
        battle_session):
    """Play by chat: the GM answers for a player away for days; the player's `/answer`
    then says who answered the question and what it played, not "run the command"."""
    await setup(battle_session)
    await reply(battle_session, CHARGE, user_id=OTHER)
    answered = await reply(battle_session, "/answer choice:stand", user_id=GM_USER)
    assert answered.embeds[0]["title"].endswith("Hussars stands: melee follows")
    late = await reply(battle_session, "/answer choice:counter", user_id=PLAYER)
    assert late.ephemeral and late.content == (
        f"⚠️ No question is waiting here: the last one (#4) was answered by <@{GM_USER}> "
        "(event #5: Stand. Hussars vs Rangers: Hussars stands: melee follows). "
        "`/battle log` shows what happened since.")
    # Undone, the answer is no longer the last one: the question waits again.
    await reply(battle_session, "/gm undo", user_id=GM_USER)
    result = await reply(battle_session, "/answer choice:counter", user_id=PLAYER)
    assert result.embeds[0]["title"].endswith("Hussars counter-charges Rangers")
    # A question the GM's reroll took back, and the new dice asked none: said so.
    await reply(battle_session, CHARGE, user_id=OTHER)
    await reply(battle_session, "/gm dice dice:6", user_id=GM_USER)
    await reply(battle_session, "/gm reroll", user_id=GM_USER)
    late = await reply(battle_session, "/answer choice:stand", user_id=PLAYER)
    assert late.ephemeral and late.content == (
        f"⚠️ No question is waiting here: the last one (#8) was taken back by <@{GM_USER}> "
        "(event #10: Undid #8 to reroll it). `/battle log` shows what happened since.")


async def test_a_button_under_a_question_of_a_battle_that_ended_says_so(battle_session):
    """The GM ended the battle while its question waited: its buttons say the battle is
    over, not that the channel has none and a player should start one."""
    await setup(battle_session)
    asked = await reply(battle_session, CHARGE, user_id=OTHER)
    await reply(battle_session, "/battle end confirm:Quiberon", user_id=GM_USER)
    [late] = await press(battle_session, asked, "Stand", PLAYER)
    assert late.ephemeral
    assert late.content == ("⚠️ That question's battle has ended (or is another channel's): "
                            "it can no longer be answered here. `/battle export` gives the "
                            "whole log of the last battle here.")

