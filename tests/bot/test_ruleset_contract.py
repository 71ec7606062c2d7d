"""Every procedure of every registered rule set has its command, its help, its documented
`huzzah resolve` example and embeds that fit, however its dice fall; and the shared bot code
names no rule set."""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from discord import app_commands

from bot.cogs.lookups import Lookups
from bot.offline import SentMessage
from bot.render.limits import violations
from bot.render.resolution import question_messages, resolution_messages
from bot.rulesets import each_ruleset
from rules.core.decisions import Undecided
from rules.core.records import Resolution
from rules.core.registry import RuleSet
from rules.registry import RULESETS, resolve
from tests.test_docs import EXAMPLES

from .conftest import EITHER_ODDS_SECONDS, reply, send, text_of
from .help_pages import fields_of, pages, text_of_pages
from .phone import PHONE_SCREEN, phone_lines, repeated_effects, screen

ROOT = Path(__file__).resolve().parents[2]
COMMANDS = list(each_ruleset(Lookups(store=None)))  # type: ignore[arg-type]
SUBCOMMANDS = [(c.ruleset, sub) for c in COMMANDS for sub in c.subcommands]
PROCEDURES = [(r, name) for r in RULESETS.values() for name in r.procedures]
SWEEP_SEEDS = 200


def ids(pair) -> str:
    ruleset, item = pair
    return f"{ruleset.key}-{getattr(item, 'procedure', item)}"


def documented(ruleset: RuleSet, procedure: str) -> list[dict]:
    requests = [json.loads(example) for example in EXAMPLES]
    return [r for r in requests if (r["ruleset"], r["procedure"]) == (ruleset.key, procedure)]


def test_each_rule_set_has_a_command_for_each_procedure_and_no_other():
    for commands in COMMANDS:
        given = sorted(sub.procedure for sub in commands.subcommands)
        assert given == sorted(commands.ruleset.procedures), commands.ruleset.key


@pytest.mark.parametrize("pair", SUBCOMMANDS, ids=ids)
async def test_the_command_is_in_the_tree_under_its_verb(discord_session, pair):
    ruleset, sub = pair
    group = discord_session.tree.get_command(sub.verb)
    assert isinstance(group, app_commands.Group)
    command = group.get_command(ruleset.key)
    assert command is not None and command.description.startswith(ruleset.title)
    # Every rule set's command of a verb sits side by side in the one group.
    assert sub.example.startswith(f"/{sub.verb} {ruleset.key} ")


@pytest.mark.parametrize("pair", SUBCOMMANDS, ids=ids)
async def test_the_example_runs_as_a_quick_lookup_through_the_tree(discord_session, pair):
    _, sub = pair
    message = await reply(discord_session, sub.example)
    assert not message.ephemeral, message.content
    assert message.embeds and violations(message.embeds) == []
    assert "Dice typed in" in message.embeds[-1]["footer"]["text"]


@pytest.mark.parametrize("pair", SUBCOMMANDS, ids=ids)
async def test_the_odds_of_the_example_run_through_the_tree_and_fit(discord_session, pair):
    """Held for every rule set the registry has, a later one too: one message, within
    Discord's limits and one screen of a phone, each clause said once. (One test sends the
    command once: an exact walk of its odds can take most of a minute.)"""
    ruleset, sub = pair
    discord_session.client.outcomes.odds_seconds = EITHER_ODDS_SECONDS
    odds = sub.example.replace(f"/{sub.verb} {ruleset.key} ",
                               f"/{sub.verb} odds {ruleset.key} ", 1)
    sent = [m for m in await send(discord_session, odds) if m.kind != "deferral"]
    assert len(sent) == 1, [m.content for m in sent]  # one message, however many results
    (message,) = sent
    assert not message.ephemeral, message.content
    assert message.embeds[0]["title"].startswith("🎯 Odds:")
    assert violations(message.embeds) == []
    footer = message.embeds[-1]["footer"]["text"]
    assert "Exact: every roll counted." in footer or "Estimated from" in footer
    assert phone_lines(message) <= PHONE_SCREEN, "\n".join(screen(message))
    assert repeated_effects(message) == [], "\n".join(screen(message))
    assert violations(message.embeds, message.content) == []


async def help_part(session, ruleset: RuleSet, part: str) -> list:
    """Every page of the part, Next pressed through them."""
    shown = await pages(session, f"/help topic:{ruleset.key} part:{part}", part=part)
    for message in shown:
        assert message.ephemeral
        assert violations(message.embeds) == []
        assert "cut to fit" not in text_of(message)  # whole, not packed short
    return shown


@pytest.mark.parametrize("ruleset", RULESETS.values(), ids=lambda r: r.key)
async def test_the_help_topic_gives_its_commands_with_their_examples(discord_session, ruleset):
    text = text_of_pages(await help_part(discord_session, ruleset, "commands"))
    for commands in COMMANDS:
        for sub in commands.subcommands:
            assert (f"`{sub.example}`" in text) == (commands.ruleset is ruleset), sub.example
            assert (f"/{sub.verb} {commands.ruleset.key}\n" in text) == (
                commands.ruleset is ruleset), sub.example


@pytest.mark.parametrize("ruleset", RULESETS.values(), ids=lambda r: r.key)
async def test_the_help_topic_lists_its_words_and_reference(discord_session, ruleset):
    for part, declared in (("words", ruleset.help.words), ("reference", ruleset.help.reference)):
        titles = list(fields_of(await help_part(discord_session, ruleset, part)))
        for label, words in declared:
            # The words every kind of unit takes may come first, each kind's own after.
            assert (label in titles or f"{label}, also" in titles) and words, (part, label)


@pytest.mark.parametrize("ruleset", RULESETS.values(), ids=lambda r: r.key)
async def test_the_help_topic_names_every_setting_by_its_key(discord_session, ruleset):
    fields = {name.split(":")[0]: value for name, value in
              fields_of(await help_part(discord_session, ruleset, "settings")).items()}
    settings = ruleset.battle.settings.fields if ruleset.battle else ()
    assert {s.name: s.help for s in settings} == fields


@pytest.mark.parametrize("ruleset", RULESETS.values(), ids=lambda r: r.key)
def test_every_setting_says_its_default_and_what_it_changes(ruleset):
    for setting in ruleset.battle.settings.fields if ruleset.battle else ():
        assert "default" in setting.help and len(setting.help.split()) >= 5, setting.name


async def test_the_overview_names_every_procedure(discord_session):
    """Every `/verb rule set`, and the odds once, for any verb. Naming every `/verb odds` one
    by one would not fit a phone screen, so the test holds "any verb" true instead: every
    procedure's odds are under its verb's `odds`."""
    text = text_of_pages(await pages(discord_session, "/help"))
    lines = {line.split("`", 2)[1]: line for line in text.split("\n") if line.startswith("**")
             and "`: " in line}  # a rule set's line, by its key
    for ruleset, sub in SUBCOMMANDS:
        assert f"`/{sub.verb}`" in lines[ruleset.key], ruleset.key
        odds = discord_session.tree.get_command(sub.verb).get_command("odds")
        assert odds.get_command(ruleset.key) is not None, sub.example
    (verb, key), = re.findall(r"`/(\w+) odds ([\w-]+) …`, any verb", text)
    assert (key, verb) in {(r.key, s.verb) for r, s in SUBCOMMANDS}


@pytest.mark.parametrize("pair", PROCEDURES, ids=ids)
def test_every_outcome_and_question_of_the_documented_example_fits_and_reads_on_a_phone(pair):
    """Each result fits in embeds, with a battle's longest dice note and changes too; and
    each result and each question on the way, as a quick lookup shows it with its row of
    buttons, reads within a phone's screen, each effect said once. One walk of the answers
    serves both checks: resolving the example is most of the work."""
    ruleset, procedure = pair
    examples = documented(ruleset, procedure)
    assert examples, f"docs/resolve.md has no {ruleset.key} {procedure} example"
    read: set[str] = set()  # many seeds fall alike: each message is read once
    for example in examples:
        request = {k: v for k, v in example.items() if k not in ("dice", "seed")}
        for seed in range(SWEEP_SEEDS):
            for resolution, shown in every_step({**request, "seed": seed}):
                if resolution is not None:
                    for embeds in resolution_messages(resolution, dice_note="x" * 100,
                                                      battle_changes=["y" * 200] * 10):
                        assert violations([e.to_dict() for e in embeds]) == [], (seed, example)
                key = json.dumps([shown.embeds, shown.components], sort_keys=True)
                if key in read:
                    continue
                read.add(key)
                assert phone_lines(shown) <= PHONE_SCREEN, (seed, "\n".join(screen(shown)))
                assert repeated_effects(shown) == [], (seed, "\n".join(screen(shown)))


DICE_NOTE = "Dice rolled by the bot"


def every_step(request: dict, answers: tuple[str, ...] = ()
               ) -> Iterator[tuple[Resolution | None, SentMessage]]:
    """Each result and each question of the request, answered every way in turn (same
    dice), with its public message: a result with its resolution, a question with None."""
    try:
        resolution = resolve({**request, "answers": list(answers)})
    except Undecided as asked:
        question = asked.question
        yield None, as_sent(question_messages(request["ruleset"], request["procedure"],
                                              question, asked.steps,
                                              whose="The player who rolled",
                                              dice_note=DICE_NOTE),
                            len(question.answers))
        for answer in question.answers:
            yield from every_step(request, (*answers, answer.key))
        return
    yield resolution, as_sent(resolution_messages(resolution, dice_note=DICE_NOTE), 1)


def every_message(request: dict) -> Iterator[SentMessage]:
    """The public message of each result and each question of ``every_step``."""
    for _, shown in every_step(request):
        yield shown


def as_sent(messages, buttons: int) -> SentMessage:
    """The reply's first message as sent, with its buttons (a row holds five)."""
    rows = [{"type": 1, "components": [{"type": 2}] * min(5, buttons - start)}
            for start in range(0, buttons, 5)]
    return SentMessage(kind="response", embeds=[e.to_dict() for e in messages[0]],
                       components=rows)


def rule_set_imports(path: Path) -> list[str]:
    """The rule set packages a module imports (``rules.core`` and the registry are shared)."""
    names = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
        elif isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
    return [n for n in names if n.startswith("rules.")
            and not n.startswith(("rules.core", "rules.registry"))]


def test_only_the_rule_set_modules_import_a_rule_set():
    shared = [p for p in (ROOT / "bot").rglob("*.py")
              if "rulesets" not in p.relative_to(ROOT).parts]
    assert shared
    offenders = {str(p.relative_to(ROOT)): rule_set_imports(p) for p in shared}
    assert {k: v for k, v in offenders.items() if v} == {}
    for path in (ROOT / "rules" / "core").glob("*.py"):
        assert rule_set_imports(path) == [], path

