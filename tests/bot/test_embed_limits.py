"""Every embed the bot can produce for Fire at Will stays inside Discord's limits.

Small situations are walked through every outcome of their dice (the same seam the exact
odds use); the largest inputs the commands accept are rendered on many random rolls.
"""

from __future__ import annotations

import itertools
import random
import re

import pytest
from discord import app_commands

from bot.errors import CONTENT, refusal_text
from bot.render import limits
from bot.render.limits import MAX_MESSAGES, EmbedSpec, FieldSpec, pack_messages, violations
from bot.render.resolution import resolution_messages, to_discord
from rules.core.decisions import Answers, Undecided
from rules.core.dice import RandomSource, ReplaySource, Unrolled
from rules.core.errors import InvalidInput
from rules.fire_at_will.charge import MAX_CHARGERS, resolve_charge
from rules.fire_at_will.melee import MAX_UNITS_PER_SIDE, resolve_melee
from rules.fire_at_will.units import (
    Arm,
    Charger,
    Cover,
    Direction,
    General,
    MeleeUnit,
    ObstacleReading,
    Order,
    Settings,
    Unit,
)

from .conftest import played, reply, send, text_of


def every_outcome(procedure):
    """Every resolution, down every branch of the dice and every answer to a question."""
    stack = [((), ())]
    while stack:
        prefix, answers = stack.pop()
        try:
            yield procedure(ReplaySource(prefix), Answers(in_order=list(answers)))
        except Unrolled as branch:
            stack.extend(((*prefix, faces), answers) for faces, _ in branch.kind.outcomes())
        except Undecided as asked:
            stack.extend((prefix, (*answers, a.key)) for a in asked.question.answers)


def check(resolution) -> int:
    """Assert every message fits; return how many messages it took."""
    messages = resolution_messages(resolution, dice_note="x" * 100)
    for embeds in messages:
        assert violations([e.to_dict() for e in embeds]) == [], resolution.headline
    cut = [e for m in messages for e in m if "cut to fit" in (e.footer.text or "")]
    assert not cut, "a Fire at Will resolution never needs cutting"
    assert_nothing_lost(resolution, messages)
    return len(messages)


def assert_nothing_lost(resolution, messages) -> None:
    """The compact layout still shows every modifier's reason, total, target and result."""
    text = "\n".join(
        part.replace("\\", "")
        for embeds in messages for e in embeds
        for part in [e.title or "", e.description or "", e.footer.text or ""]
        + [f"{f.name}\n{f.value}" for f in e.fields])
    for step in resolution.steps:
        for roll in step.rolls:
            wanted = [m.reason for m in roll.modifiers]
            wanted += [roll.target or "", roll.result or ""]
            if roll.hits is None and roll.total is not None and (
                    roll.modifiers or len(roll.dice) > 1):
                wanted.append(f"= **{str(roll.total).replace('-', '−')}**")
            for piece in wanted:
                assert piece.replace("\\", "") in text, (piece, resolution.headline)


LONG = "Régiment de la Reine, 2e bataillon, compagnie des grenadiers ««»»"[:64]


def long_name(i: int) -> str:
    return f"{i:02d} {LONG}"[:64]


@pytest.mark.parametrize("arm", list(Arm))
@pytest.mark.parametrize("cover", list(Cover))
@pytest.mark.parametrize("routing", [False, True])
def test_every_charge_outcome_fits(arm, cover, routing):
    target = Unit(long_name(0), arm, Order.OPEN, basic_morale=4, shaken=True, routing=routing)
    chargers = [Charger(Unit(long_name(i + 1), Arm.CAVALRY if i % 2 else Arm.INFANTRY),
                        direction=list(Direction)[i % 3], distance=1)
                for i in range(MAX_CHARGERS)]
    for resolution in every_outcome(lambda d, a: resolve_charge(target, chargers, cover, d, a)):
        check(resolution)


def melee_member(i: int, arm: Arm, general: bool, *, attacking: bool) -> MeleeUnit:
    """Every word the unit's side may carry: a charge's on an attacker; a defender
    counter-charges over an obstacle, uphill, from behind another."""
    unit = Unit(long_name(i), arm, Order.OPEN, regular=True, indian=True, light=True,
                general=General(long_name(50 + i), wounded=i % 2 == 0) if general else None)
    return MeleeUnit(unit, charging=True, flank=True, rear=True, over_obstacle=True,
                     uphill=True, vs_building=attacking, vs_fortification=attacking,
                     overlapping=True, deep=True, front=i % 3 == 0,
                     behind_obstacle=not attacking)


@pytest.mark.parametrize("arms", list(itertools.product([Arm.CAVALRY, Arm.INFANTRY,
                                                         Arm.ARTILLERY], repeat=2)))
def test_every_one_against_one_melee_outcome_fits(arms):
    attackers = [melee_member(1, arms[0], general=True, attacking=True)]
    defenders = [melee_member(2, arms[1], general=True, attacking=False)]
    count = 0
    for resolution in every_outcome(lambda d, a: resolve_melee(attackers, defenders, d)):
        check(resolution)
        count += 1
    assert count >= 36


@pytest.mark.parametrize("reading", list(ObstacleReading))
def test_the_largest_melees_fit(reading):
    rng = random.Random(1)
    for _ in range(150):
        attackers = [melee_member(i, rng.choice(list(Arm)), True, attacking=True)
                     for i in range(MAX_UNITS_PER_SIDE)]
        defenders = [melee_member(20 + i, rng.choice(list(Arm)), True, attacking=False)
                     for i in range(MAX_UNITS_PER_SIDE)]
        check(resolve_melee(attackers, defenders, RandomSource(rng.random()),
                            Settings(reading)))


def test_the_packer_never_exceeds_a_limit_whatever_it_is_given():
    rng = random.Random(7)
    for _ in range(200):
        fields = tuple(
            FieldSpec("n" * rng.randint(0, 400),
                      "\n".join("v" * rng.randint(0, 1500) for _ in range(rng.randint(0, 8))))
            for _ in range(rng.randint(0, 60))
        )
        head = EmbedSpec(title="t" * rng.randint(0, 400), description="d" * rng.randint(0, 5000),
                         author="a" * rng.randint(0, 300), footer="f" * rng.randint(0, 3000),
                         fields=fields)
        messages = pack_messages(head)
        assert 1 <= len(messages) <= MAX_MESSAGES
        for message in messages:
            assert violations([to_discord(spec).to_dict() for spec in message]) == []


def test_an_embed_within_every_limit_is_sent_as_it_is_and_packing_agrees(monkeypatch):
    """The packer gives back an embed that already fits without building it again; built
    again, field by field, it comes out the same. Sizes straddle each limit."""
    rng = random.Random(11)
    fitted = 0
    for _ in range(400):
        fields = tuple(
            FieldSpec(rng.choice(["", " ", "n" * rng.randint(1, 260)]),
                      rng.choice(["", "\n", " \n ", "v" * rng.randint(1, 1030),
                                  "a\n\nb" * rng.randint(1, 3)]))
            for _ in range(rng.choice([0, 1, 3, 25, 26])))
        head = EmbedSpec(title="t" * rng.choice([0, 10, 256, 257]),
                         description="d" * rng.choice([0, 100, 4096, 4097]),
                         author="a" * rng.choice([0, 10, 256, 257]),
                         footer="f" * rng.choice([0, 100, 2048, 2049]), fields=fields)
        packed = pack_messages(head)
        with monkeypatch.context() as slow:
            slow.setattr(limits, "_fits_as_it_is", lambda head: False)
            assert packed == limits.pack_messages(head)
        fitted += packed == [[head]]
    assert 10 < fitted < 390  # both ways were taken
    for count in (25, 26):
        small = EmbedSpec(title="t", fields=tuple(FieldSpec("n", "v") for _ in range(count)))
        assert (pack_messages(small) == [[small]]) is (count == 25)


def test_long_outputs_continue_in_more_fields_and_embeds():
    head = EmbedSpec(title="t", fields=tuple(FieldSpec(f"f{i}", "x" * 1000 + "\n" + "y" * 900)
                                              for i in range(10)))
    messages = pack_messages(head)
    assert len(messages) >= 2
    names = [f.name for m in messages for s in m for f in s.fields]
    assert "f0 (cont.)" in names
    assert names.count("f9") == 1  # nothing lost at this size


def test_a_long_description_goes_on_in_fields_each_named_once_as_going_on():
    # Past the description's room the text goes on in "(cont.)" fields; a part past the
    # first of those is "(cont.)" too, not "(cont.) (cont.)".
    head = EmbedSpec(title="t", description="\n".join("d" * 900 for _ in range(12)))
    names = {f.name for m in pack_messages(head) for s in m for f in s.fields}
    assert names == {"(cont.)"}


# --- the commands themselves -----------------------------------------------------------------

NAME = re.compile(r"^[-_'\w]{1,32}$")


def walk(commands):
    for command in commands:
        yield command
        if isinstance(command, app_commands.Group):
            yield from walk(command.commands)


async def test_registered_commands_respect_discord_limits(discord_session):
    commands = list(walk(discord_session.tree.get_commands()))
    assert len(commands) >= 4
    for command in commands:
        assert NAME.match(command.name) and command.name == command.name.lower()
        assert 1 <= len(command.description) <= 100, command.name
        data = command.to_dict(discord_session.tree)
        options = data.get("options", [])
        assert len(options) <= 25
        for option in options:
            assert NAME.match(option["name"]), option["name"]
            assert 1 <= len(option["description"]) <= 100, (command.name, option["name"])
            assert len(option.get("choices", [])) <= 25
            for choice in option.get("choices", []):
                assert 1 <= len(choice["name"]) <= 100


async def test_help_embeds_fit(discord_session):
    for line in ("/help", "/help topic:fire-at-will"):
        message = await reply(discord_session, line)
        assert violations(message.embeds, message.content) == []


async def test_the_longest_error_fits(discord_session):
    words = " ".join(f"zz{i}" for i in range(40))
    message = await reply(discord_session, f'/melee fire-at-will attackers:"A: {words}" '
                                           'defenders:"D: inf"')
    assert message.ephemeral and len(message.content) <= 2000


async def test_a_refusal_too_long_for_a_message_keeps_how_to_fix_it(discord_session):
    """Too many dice, quoted back: the list is cut short, the way out is not."""
    message = await reply(discord_session, '/melee fire-at-will attackers:"A: inf" '
                                           f'defenders:"D: inf" dice:"{"1" * 5000}"')
    assert message.ephemeral and len(message.content) == 2000
    assert message.content.startswith("⚠️ Too many dice")
    assert message.content.endswith("1… Rolls so far, in order: A melee roll (1d6), D melee roll "
                                    "(1d6).")


# --- Le Baton ---------------------------------------------------------------------------------

from rules.le_baton.charge import ChargeSituation  # noqa: E402
from rules.le_baton.charge import resolve_charge as lb_charge  # noqa: E402
from rules.le_baton.fire import FireTarget, Target, resolve_fire  # noqa: E402
from rules.le_baton.melee import Side  # noqa: E402
from rules.le_baton.melee import resolve_melee as lb_melee  # noqa: E402
from rules.le_baton.morale import PHASE_TITLES, Situation, resolve_morale  # noqa: E402
from rules.le_baton.units import MAX_FIGURES, Formation, Horse, Nation  # noqa: E402
from rules.le_baton.units import Arm as LbArm  # noqa: E402
from rules.le_baton.units import Unit as LbUnit  # noqa: E402


def lb(i: int, nation: Nation, arm: LbArm, formation: Formation | None = None, **kw) -> LbUnit:
    return LbUnit(long_name(i), nation, arm, figures=MAX_FIGURES, formation=formation,
                  casualties=7, **kw)


@pytest.mark.parametrize("phase", list(PHASE_TITLES))
@pytest.mark.parametrize("formation", [Formation.COLUMN, Formation.LINE])
def test_every_le_baton_morale_outcome_fits(phase, formation):
    nation = Nation.FRENCH if phase in (4, 10) else Nation.BRITISH
    arm = LbArm.CAVALRY if phase == 13 else LbArm.INFANTRY
    unit = lb(1, nation, arm, formation if arm is LbArm.INFANTRY else None, general=True)
    for charged_by in (LbArm.INFANTRY, LbArm.CAVALRY):
        # French infantry charge only in column: a French line closes on nobody.
        charging = phase in (4, 9) and not (nation is Nation.FRENCH
                                            and formation is Formation.LINE)
        situation = Situation(charging=charging, flank_or_rear=True, charged_by=charged_by,
                              opponent=long_name(2), initiated_charge=True)
        for resolution in every_outcome(
                lambda d, a, s=situation: resolve_morale(unit, phase, s, d, a)):
            check(resolution)


@pytest.mark.parametrize("arm", [LbArm.INFANTRY, LbArm.CAVALRY])
@pytest.mark.parametrize("formation", list(Formation))
def test_every_le_baton_charge_outcome_fits(arm, formation):
    charger = LbUnit(long_name(1), Nation.BRITISH, arm, figures=12,
                     formation=Formation.COLUMN if arm is LbArm.INFANTRY else None)
    # Two figures: skirmishers shoot one die, so every path can be walked quickly.
    target = LbUnit(long_name(2), Nation.FRENCH, LbArm.INFANTRY, figures=2,
                    formation=formation, casualties=7)
    def charge(dice, answers):
        return lb_charge(charger, target, ChargeSituation(), dice, answers)

    for resolution in every_outcome(charge):
        check(resolution)


def test_the_largest_le_baton_fire_and_melee_fit():
    rng = random.Random(3)
    for _ in range(100):
        a = lb(1, Nation.FRENCH, LbArm.CAVALRY, horse=Horse.LANCERS, in_melee=True)
        b = lb(2, Nation.BRITISH, LbArm.CAVALRY, horse=Horse.CUIRASSIERS)
        check(lb_melee(Side(a, defensive_terrain=True), Side(b, fortification=True), 11,
                       RandomSource(rng.random())))
        shooter = lb(3, Nation.BRITISH, LbArm.INFANTRY, Formation.LINE)
        check(resolve_fire(shooter, Target(long_name(4), FireTarget.COLUMN),
                           RandomSource(rng.random())))


def test_dice_show_as_read_not_as_the_target_text_suggests():
    from bot.render.resolution import roll_line
    from rules.core.dice import Reading
    from rules.core.records import Roll

    pool = Roll("Volley", "3d6", (2, 5, 6), target="a hit on each 'good' die", hits=1,
                readings=(Reading.MISS, Reading.HIT, Reading.DROPPED), result="1 hit")
    assert roll_line(pool).startswith("**Volley** 🎲 2 **5** ~~6~~")


async def test_a_roster_too_long_for_one_message_is_shown_whole(battle_session):
    """Sixty units with names of the longest kind: `/unit list` goes on in a second message
    rather than leaving units out (`/battle show`, without the units' values, fits one), and
    `/battle log` shows all fifty."""
    lines = ['/battle start ruleset:fire-at-will name:Big sides:"British, French"']
    for side in ("British", "French"):
        lines += [f'/unit add side:{side} name:"{side[0]}{n:02d} {"x" * 58}" '
                  'words:"inf regular morale=4" strength:4' for n in range(1, 31)]
    await played(battle_session, *lines)
    for command, messages in (("/battle show", 1), ("/unit list", 2)):
        sent = await send(battle_session, command)
        shown = "\n".join(text_of(message) for message in sent)
        assert len(sent) == messages
        assert [n for n in range(1, 31) if f"F{n:02d} " not in shown] == []
        assert [n for n in range(1, 31) if f"B{n:02d} " not in shown] == []
        assert not any(violations(message.embeds, message.content) for message in sent)
    log = await send(battle_session, "/battle log count:50")
    shown = "\n".join(text_of(message) for message in log)
    assert [n for n in range(12, 62) if f"`#{n}`" not in shown] == []
    assert not any(violations(message.embeds, message.content) for message in log)


def test_a_refusal_cut_short_leaves_no_quote_open_before_its_hint():
    said = refusal_text(InvalidInput("Unknown words: " + " ".join(["`x`"] * 700),
                                     hint="Use `morale=4`."))
    assert len(said) <= CONTENT and said.endswith("… Use `morale=4`.")
    assert said[:-len("… Use `morale=4`.")].count("`") % 2 == 0


@pytest.mark.parametrize("word", ["_a_b_", "a_", "\\_"])
def test_a_refusal_of_player_text_cut_short_keeps_its_hint_and_whole_escapes(word):
    # Escaping lengthens the message: it is measured, and cut, escaped.
    said = refusal_text(InvalidInput("Unknown words: " + " ".join([word] * 500),
                                     hint="Use `morale=4`."))
    assert len(said) <= CONTENT and said.endswith("… Use `morale=4`."), said[-40:]
    kept = said[:-len("… Use `morale=4`.")]
    assert (len(kept) - len(kept.rstrip("\\"))) % 2 == 0, kept[-10:]


@pytest.mark.parametrize("dice", ["6 " * 19, "6 " * 60])
async def test_a_refusal_whose_hint_would_fill_the_message_still_says_what_is_wrong(
        discord_session, dice):
    """Ten units a side with long names: the rolls the hint lists run past a message. The
    refusal still begins with what is wrong (too few dice, or too many), not with "…"."""
    def side(letter: str) -> str:
        return "; ".join(f"{letter}{i}_" + "_x" * 30 + "_: inf" for i in range(10))

    message = await reply(discord_session, f'/melee fire-at-will attackers:"{side("A")}" '
                                           f'defenders:"{side("D")}" dice:"{dice}"')
    assert message.ephemeral and len(message.content) <= 2000
    assert message.content.startswith(("⚠️ Not enough dice: D9\\_", "⚠️ Too many dice: this "
                                       "resolution used 20 but you gave 60")), message.content
    assert " Rolls so far, in order: A0\\_" in message.content
