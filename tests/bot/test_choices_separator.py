"""Answers given ahead in `choices`: `;` between them, as the option's description and a
refusal say; a comma before another `question=` reads as `;` does, while a unit's name may
still hold a comma."""

from __future__ import annotations

from bot.rulesets import CHOICES_HELP
from rules.core.decisions import Answers

from .conftest import reply

ASSAULT = ('/assault labataille attackers:"1/45e: infantry morale=34 melee=12 fire=6 '
           'defence=9 inc=6" defenders:"52nd: infantry morale=41 melee=8 fire=5 defence=9 '
           'inc=5 nation=british" dice:"44 52 5 33 41 55"')


async def test_a_comma_before_the_next_question_separates_answers_as_a_semicolon_does(
        discord_session):
    semicolon = await reply(discord_session, f'{ASSAULT} choices:"huzzah=no; chart_result=DR2"')
    comma = await reply(discord_session, f'{ASSAULT} choices:"huzzah=no, chart_result=DR2"')
    assert semicolon.embeds[0]["title"] == "🩸 DR2: 52nd routs"
    assert comma.embeds == semicolon.embeds


async def test_answers_run_together_are_refused_naming_the_separator(discord_session):
    refused = await reply(discord_session, f'{ASSAULT} choices:"no, DR2"')
    assert refused.ephemeral
    assert refused.content == (
        "⚠️ `no, DR2` is not an answer to “Will 52nd Huzzah and turn the tables on 1/45e?”. "
        "Answer “Huzzah!” (`huzzah`) or “No Huzzah” (`no`). Several answers given ahead go "
        "with `;` between them: `a=x; b=y`.")


async def test_the_choices_option_says_its_separator_within_discords_limit(discord_session):
    assert "`;` between" in CHOICES_HELP and len(CHOICES_HELP) <= 100
    group = discord_session.tree.get_command("assault")
    command = group.get_command("labataille")
    assert command.get_parameter("choices").description == CHOICES_HELP


def test_a_comma_in_an_answer_that_is_a_name_stays_in_it():
    answers = Answers.read("counter_charge=Smith, Jones; stand")
    assert answers.by_question == {"counter_charge": "Smith, Jones"}
    assert answers.in_order == ["stand"]
    assert Answers.read("huzzah = no ,chart-result = DR2").by_question == {
        "huzzah": "no", "chart_result": "DR2"}
