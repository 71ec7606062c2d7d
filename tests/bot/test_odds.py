"""`/<verb> odds <rule set>` through the real command tree: the odds of every result, as a
quick lookup and on a battle's roster (and chart pack), per answer where the rules ask, and
estimated where the walk would be too long; nothing is rolled or written."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from fractions import Fraction

from sqlalchemy import select

from bot.render.limits import EmbedSpec, violations
from bot.render.odds import bar, odds_specs, percent
from bot.storage.models import Battle
from rules.core.odds import odds_for_request
from rules.registry import RULESETS

from .conftest import GM_USER, played, reply, text_of
from .phone import PHONE_SCREEN, phone_lines
from .test_charts import PACK, attach

EVEN = ('/melee odds fire-at-will attackers:"Grenadiers: inf regular morale=4" '
        'defenders:"Artois: inf regular morale=4"')


async def test_a_quick_lookup_gives_each_result_with_its_exact_chance(discord_session):
    message = await reply(discord_session, EVEN)
    assert not message.ephemeral
    (embed,) = message.embeds
    # Two equal regulars: each wins 15/36 of the time (routing the other on a win by 2 or
    # more, 5/18), and they draw (both retire) 1/6 of the time.
    assert embed["title"] == "🎯 Odds: Artois wins 42% · Grenadiers wins 42% · drawn 17%"
    assert embed["description"].split("\n") == [
        "`██▎        28%` Artois routs",
        "`██▎        28%` Grenadiers routs",
        "`█▍         17%` all retire",
        "`█▏         14%` Artois retires",
        "`█▏         14%` Grenadiers retires",
        "Expected losses: Grenadiers 0.69 SP, Artois 0.69 SP"]
    assert embed["footer"]["text"] == "Exact: every roll counted."
    assert not violations(message.embeds, message.content)


async def test_odds_in_a_battle_use_its_roster_and_write_nothing(discord_session):
    for line in ("/battle start ruleset:fire-at-will name:Odds",
                 '/unit add side:A name:Grenadiers words:"inf regular morale=4" strength:10',
                 '/unit add side:B name:Artois words:"inf regular morale=4" strength:10'):
        assert not (await reply(discord_session, line, user_id=GM_USER)).ephemeral
    message = await reply(discord_session, '/melee odds fire-at-will attackers:Grenadiers '
                                           'defenders:Artois dice:"3 3"')
    text = text_of(message)
    assert "`██▎        28%` Artois routs" in text
    # Sides A and B of the roster, each of one unit, named by it.
    assert message.embeds[0]["title"].startswith("🎯 Odds: Artois wins 42% · ")
    assert "Expected losses: Grenadiers 0.69 SP, Artois 0.69 SP" in text
    assert "On Odds' roster" in text
    assert "Dice typed in are not used." in text
    async with discord_session.client.db.transaction() as session:
        assert await session.scalar(select(Battle.last_seq)) == 3  # no event logged
    unknown = await reply(discord_session, "/melee odds fire-at-will attackers:Nobody "
                                           "defenders:Artois")
    assert unknown.ephemeral and "There is no unit called `Nobody`" in unknown.content
    other = await reply(discord_session, '/melee odds le-baton attacker:Grenadiers '
                                         'defender:Artois phase:6')
    assert other.ephemeral and "`/melee odds fire-at-will`" in other.content


async def test_a_unit_losing_its_last_sp_is_read_as_gone(discord_session):
    """A unit of 1 SP leaves the battle on any loss: the odds say so, and name the winner by
    its one unit, as any other win."""
    for line in ("/battle start ruleset:fire-at-will name:Odds",
                 '/unit add side:A name:Grenadiers words:"inf regular morale=4" strength:4',
                 '/unit add side:B name:Artois words:"inf regular morale=4" strength:1'):
        assert not (await reply(discord_session, line, user_id=GM_USER)).ephemeral
    melee = await reply(discord_session, "/melee odds fire-at-will attackers:Grenadiers "
                                         "defenders:Artois")
    (embed,) = melee.embeds
    # Grenadiers wins 15/36 (any win takes Artois's last SP); 1/6 drawn.
    assert embed["title"] == "🎯 Odds: Artois wins 42% · Grenadiers wins 42% · drawn 17%"
    assert embed["description"].split("\n")[0] == "`███▍       42%` Artois leaves the battle"
    charge = await reply(discord_session, '/charge odds fire-at-will target:Artois '
                                          'chargers:"Grenadiers"')
    assert "`████       50%` Artois leaves the battle" in text_of(charge)


async def test_a_question_on_the_way_gives_the_odds_for_each_answer(discord_session):
    # Infantry in open order charging cavalry: on a 1 to 3 the hussars may counter-charge.
    asked = ('/charge odds fire-at-will target:Hussars target_type:cavalry morale:4 '
             'chargers:"Rangers: inf open"')
    message = await reply(discord_session, asked)
    (embed,) = message.embeds
    # The bars are the first answer's; the table gives the other's chances.
    assert embed["description"].split("\n") == [
        "If Hussars: Counter-charge Rangers:",
        "`████       50%` Hussars counter-charges Rangers",
        "`████       50%` Hussars stands",
        "If Stand → Hussars stands 100%"]
    given = await reply(discord_session, asked + ' choices:"Rangers"')
    assert "If " not in given.embeds[0]["description"]


async def test_the_title_gives_no_one_answers_chances_as_the_fights(discord_session):
    # Tricorne cavalry may retire before the attacker rolls: retiring, A wins for sure;
    # standing, both often hold. "A wins 100%" in the title would read as a sure thing.
    asked = '/melee odds tricorne attacker:"A: regular" defender:"C: battle-cavalry"'
    embed = (await reply(discord_session, asked)).embeds[0]
    assert embed["title"] == "🎯 Odds: by the answers below"
    assert embed["description"].startswith("If C: Retire and rally:\n")
    stands = (await reply(discord_session, asked + ' choices:"stand"')).embeds[0]
    assert stands["title"].startswith("🎯 Odds: ") and "answers" not in stands["title"]


async def test_beside_a_table_of_answers_the_bars_cover_most_of_the_chances(discord_session):
    # Two bars beside the table left "other results" 48%: more of the fight hidden than
    # shown. Bars are added while the rest holds more than a tenth, as the phone allows.
    message = await reply(discord_session, '/melee odds tricorne attacker:"Black Watch: '
                                           'highland" defender:"Fusiliers: regular"')
    (embed,) = message.embeds
    assert embed["description"].split("\n") == [
        "If Black Watch: Take ground, Attack Fusiliers:",
        "`██▍        29%` both hold",
        "`█▉         23%` Fusiliers retreats",
        "`█▍         17%` Fusiliers is eliminated",
        "`█▎         15%` Fusiliers routs",
        "`▉          12%` Black Watch retreats",
        "`▎         3.9%` other results",
        "Expected losses: Black Watch 0.51 blocks, Fusiliers 2.39 blocks",
        # Every answer is Black Watch's: named once, in the first row.
        "If (Take ground, No bonus melee) or Stay → Fusiliers retreats 40% · both hold 29%"]
    assert phone_lines(message) <= PHONE_SCREEN


async def test_a_row_names_the_unit_whose_choice_each_answer_is(discord_session):
    # Standing is the dragoons' choice; ignoring the battle back's flag, the grenadiers'
    # (the attacker's): each row says whose, not "Stand and fight & Ignore 1 flag"; what
    # the rows after the first begin with is said once, above them.
    asked = ('/melee odds tricorne attacker:"Grenadiers: grenadier" '
             'defender:"Dragoons: battle-cavalry"')
    message = await reply(discord_session, asked)
    rows = message.embeds[0]["description"].split("\n")
    assert [row.split(" → ")[0] for row in rows if row.startswith(("If", "·"))] == [
        "If Dragoons: Retire and rally:",
        "If Dragoons: Stand and fight:",
        "· Grenadiers ignores 1 flag",
        "· Grenadiers takes every flag"]
    assert phone_lines(message) <= PHONE_SCREEN


async def test_a_row_of_alike_answers_says_whose_each_is_and_groups_them(discord_session):
    """Cobham's Dragoons stands; Lochiel's takes ground without a bonus melee, or stays:
    the same chances, said as one row under the dragoons' answer, not "Stand and fight &
    Take ground & No bonus melee or Stand and fight & Stay"."""
    await played(discord_session,
                 '/battle start ruleset:tricorne name:Prestonpans sides:"Government, Jacobite"',
                 '/unit add side:Jacobite name:"Lochiel\'s" words:"highland" strength:4',
                 '/unit add side:Government name:"Barrell\'s" words:"regular" strength:4',
                 '/unit add side:Government name:"Cobham\'s Dragoons" words:"battle-cavalry" '
                 'strength:3')
    message = await reply(discord_session, '/melee odds tricorne attacker:"Lochiel\'s" '
                                           'defender:"Cobham\'s Dragoons"')
    rows = message.embeds[0]["description"].split("\n")
    assert [row for row in rows if row.startswith(("If", "·"))] == [
        "If Cobham's Dragoons: Retire and rally:",
        "If Cobham's Dragoons: Stand and fight:",
        "· Lochiel's: Take ground, Attack Barrell's → both hold 27% · Cobham's Dragoons "
        "retreats 22%",
        "· Lochiel's: (Take ground, No bonus melee) or Stay → both hold 27% · Cobham's "
        "Dragoons retreats 27%"]
    assert phone_lines(message) <= PHONE_SCREEN


async def test_a_chart_pack_attached_to_the_battle_reads_the_chart(discord_session):
    for line in ("/battle start ruleset:labataille name:Bussaco",
                 '/unit add side:French name:Hussards words:"cavalry morale=34 melee=20 mp=8 '
                 'nation=french charge=charging" strength:4',
                 '/unit add side:British name:Dragoons words:"cavalry morale=34 melee=10" '
                 "strength:4"):
        assert not (await reply(discord_session, line, user_id=GM_USER)).ephemeral
    command = "/cavalry odds labataille chargers:Hussards targets:Dragoons"
    unread = await reply(discord_session, command)
    # Without a pack the player reads the chart: where the dice land on it, by column and
    # band of rows (no modifier: each band a sixth).
    (embed,) = unread.embeds
    assert embed["title"] == "🎯 Odds: the 2:1 column 100%"
    assert embed["description"].split("\n") == [
        "Read on your Assault et Mêlée chart:",
        *(f"`█▍         17%` rows {tens}1–{tens}6" for tens in range(1, 7))]
    await attach(discord_session, PACK)
    read = await reply(discord_session, command)
    text = text_of(read)
    assert "read on its chart pack (`/battle charts` shows it)" in text
    assert "If " not in text and "Exact: every roll counted." in text
    assert "Dragoons routs" in text


async def test_a_charts_rows_read_likeliest_first_as_every_rule_sets_lines(discord_session):
    """A leader's +6 moves the d66 a band up: rows 61–66 take two bands' chance, and lead,
    as the likeliest result leads every reply; even rows keep the chart's order, and the
    other columns close the list, as "other results" does."""
    message = await reply(discord_session, '/cavalry odds labataille chargers:"2e Cuirassiers: '
                                           'cavalry morale=44 melee=18 mp=8 nation=french '
                                           'leader=Ney leader_value=6" targets:"2nd Foot: '
                                           'infantry morale=41 melee=8 inc=5" spent:2')
    (embed,) = message.embeds
    assert embed["title"] == ("🎯 Odds: the 2:1 column 69% · the 1.5:1 column 16% · "
                              "the 1:1 column 16%")
    assert embed["description"].split("\n") == [
        "Read on your Assault et Mêlée chart, the 2:1 column:",
        "`█▉         23%` rows 61–66",
        *(f"`▉          11%` rows {tens}1–{tens}6" for tens in range(2, 6)),
        "`██▌        31%` other columns"]


async def test_a_fight_too_big_to_walk_in_time_is_estimated(discord_session):
    discord_session.client.outcomes.odds_seconds = 0.5
    sides = "; ".join(f"A{i}: inf" for i in range(5))
    message = await reply(discord_session, f'/melee odds fire-at-will attackers:"{sides}" '
                                           'defenders:"D1: inf; D2: inf; D3: inf"')
    text = text_of(message)
    # The estimate's size and margin; why it is not exact is the JSON's (`huzzah resolve`).
    assert re.search(r"Estimated from [\d,]+ random resolutions, ±\d+\.\d points \(95%\)\.",
                     text), text
    assert all("~" in line for line in message.embeds[0]["description"].split("\n")
               if line.startswith("`"))
    assert not violations(message.embeds, message.content)


async def test_the_project_defaults_that_decided_some_result_are_named(discord_session):
    # Without a chart pack La Bataille reads odds on the Premier chart's columns.
    message = await reply(discord_session, '/cavalry odds labataille chargers:"Hussards: '
                                           'cavalry morale=34 melee=20 mp=8 charge=charging" '
                                           'targets:"Dragoons: cavalry morale=34 melee=10"')
    assert "Project defaults (see /help): Premier chart's columns: no chart pack, so odds are " \
           "read on the Premier chart's columns" in message.embeds[-1]["footer"]["text"]


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
    assert "`██▎        28%` Artois routs" in text_of(message)


def test_the_worker_renders_without_loading_discord():
    """A worker process imports ``bot.workers`` and what it renders with, nothing more."""
    probe = ("import sys, bot.workers; print(sorted(m for m in ('discord', 'sqlalchemy', "
             "'aiohttp') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=60)
    assert done.stdout.strip().splitlines()[-1] == "[]", done.stdout + done.stderr


async def test_answers_with_other_chances_are_a_row_each_of_the_table(discord_session):
    message = await reply(discord_session, '/charge odds le-baton charger:"Cuirassiers: french '
                                           'cav cuirassiers figures=8" target:"52nd: british '
                                           'inf line figures=8"')
    (embed,) = message.embeds
    assert embed["title"] == "🎯 Odds: charge (Le Baton)"  # a charge decides no winner
    # Every result of the charge leaves its marker and locks both in melee: said by no
    # line; what sets them apart is whether 52nd forms square (the other is said by its
    # headline's lead, not as "nothing more").
    assert embed["description"].split("\n") == [
        "If 52nd: Try for square (4+):",
        "`███████▍   92%` 52nd forms square",
        "`▋         8.3%` Cuirassiers contacts 52nd",
        # Its two likeliest, so that the one is not read as the only one.
        "If Stay as it is → 52nd forms square 83% · Cuirassiers contacts 52nd 17%"]


def test_a_bar_has_a_fixed_width_in_eighths_and_any_chance_shows():
    assert bar(Fraction(1)) == "████████"
    assert bar(Fraction(42, 100)) == "███▍    "
    assert bar(Fraction(1, 2)) == "████    "
    assert bar(Fraction(1, 10_000)) == "▏       "
    assert bar(Fraction(0)) == "        "
    assert {len(bar(Fraction(n, 97))) for n in range(98)} == {8}


def test_a_percentage_is_never_rounded_to_certain_or_impossible():
    assert [percent(Fraction(n, d)) for n, d in ((1, 1), (0, 1), (5, 12), (1, 12), (1, 2000),
                                                 (1999, 2000), (1, 100_000))] == [
        "100%", "0%", "42%", "8.3%", "<0.1%", ">99.9%", "<0.1%"]


def test_a_long_row_of_answers_is_cut_after_a_whole_answer_in_two_phone_lines():
    from bot.render.odds import LABEL_ROOM, _row_label, phone_lines

    # A battle's bonus melee: every target a path of its own, several answers deep.
    targets = ["Munro's 37th Foot", "Barrell's 4th Foot", "Cobham's Dragoons"]
    answers = [("Take ground", f"Attack {first}", "Take ground", f"Attack {second}")
               for first in targets for second in targets]
    label = _row_label([0, 1], answers)
    assert label == ("Take ground, Attack Munro's 37th Foot, Take ground, Attack Munro's "
                     "37th Foot …")
    assert len(label) <= LABEL_ROOM and phone_lines(f"If {label}:") == 2
    short = [("Take ground",), ("Stay",)]
    assert _row_label([1], short) == "Stay"


def test_rows_whose_paths_differ_only_in_an_answer_that_changes_nothing_read_apart():
    """A battle's bonus melee against cavalry that retires: taking ground again or not
    changes nothing, the next target does. Each row is named by the answers its paths share,
    that answer left out, not cut to the same words as the other row."""
    from bot.render.odds import _row_label

    lochiel, cobham = "Lochiel's", "Cobham's Dragoons"
    start = ((lochiel, "Take ground"), (lochiel, "Attack Cobham's Dragoons"),
             (cobham, "Retire and rally"))
    answers = [(*start, (lochiel, again), (lochiel, target))
               for target in ("Attack Royal Artillery", "Attack Cobham's Dragoons")
               for again in ("Take ground", "Stay")]
    first, second = _row_label([0, 1], answers), _row_label([2, 3], answers)
    # Past two phone lines, the answers between the first chooser's and the last are left
    # out: the last, which sets the rows apart, stays.
    assert first == ("Lochiel's: Take ground, Attack Cobham's Dragoons; …; Lochiel's: "
                     "Attack Royal Artillery")
    assert second == ("Lochiel's: Take ground, Attack Cobham's Dragoons; …; Lochiel's: "
                      "Attack Cobham's Dragoons")


def test_odds_name_their_project_defaults_in_three_phone_lines_at_most():
    from bot.render.text import DEFAULTS_WHOLE, defaults_line

    short = ["without a chart pack, odds are read on the Premier chart's columns"]
    assert defaults_line(short) == ("Project defaults (see /help): without a chart pack, odds "
                                    "are read on the Premier chart's columns")
    two = [*short, "rally check: 1 die per block left, +1 with a leader; its own unit "
                   "symbol or a saber rallies"]
    assert defaults_line(two) == ("Project defaults (see /help): without a chart pack; "
                                  "rally check")
    many = [f"default number {n}: what it does at length" for n in range(6)]
    assert defaults_line(many) == "Project defaults (see /help): default number 0 and 5 more"
    assert all(len(defaults_line(d)) <= DEFAULTS_WHOLE for d in (short, two, many))


async def test_odds_refuse_an_answer_given_ahead_that_a_question_does_not_take(
        discord_session):
    """As the move itself would: the player's words are at fault, not the dice, so no
    share of the odds is put down to "refused by the rules"."""
    refused = await reply(discord_session, '/melee odds tricorne attacker:"5th Foot: regular" '
                                           'defender:"Prescott Rgt: militia" '
                                           'choices:"no bonus melee"')
    assert refused.ephemeral
    assert "`no bonus melee` is not an answer to “Will 5th Foot take ground" in \
        refused.content
    assert "Answer “Take ground” (`advance`) or “Stay”." in refused.content


def test_forming_square_is_named_not_read_as_both_sides_holding():
    """Forming square decides no fight (the charge's mêlée does): the odds say whether the
    square forms, not "both hold" for a square and a disordered line alike."""
    request = {"ruleset": "labataille", "procedure": "square", "distance": 1,
               "stack": {"name": "2nd Foot", "morale": 41},
               "cavalry": {"name": "2e Cuirassiers", "arm": "cavalry", "morale": 44,
                           "melee": 18, "mp": 8, "nation": "french", "charge": "charging"},
               "target": True, "charts": json.loads(PACK.data)}
    [[embed]] = odds_specs(odds_for_request(RULESETS, request), "labataille", "square")
    assert embed.title == "🎯 Odds: square (La Bataille)"
    assert embed.description.split("\n") == ["`████       50%` 2nd Foot forms square",
                                             "`██▋        33%` 2nd Foot is disordered",
                                             "`█▍         17%` 2nd Foot routs"]


async def test_expected_losses_count_the_fire_before_a_chart_the_player_reads(discord_session):
    """Without a chart pack an assault's paths end at the chart, after fire that has already
    cost increments: the expected losses count them and say they stop at the chart."""
    message = await reply(discord_session, '/assault odds labataille attackers:"1/45e: infantry '
                          'morale=34 melee=12 fire=6 defence=9 inc=6" defenders:"52nd: infantry '
                          'morale=41 melee=8 fire=5 defence=9 inc=5"')
    [losses] = [line for line in text_of(message).split("\n") if "Expected losses" in line]
    found = re.fullmatch(r"Expected losses before the chart's result: 1/45e ([\d.]+) "
                         r"increments, 52nd ([\d.]+) increments", losses)
    assert found, losses
    # Doubled fire at 1:1 hits on 52–66 (about 0.4 a shot), halved by failed checks: well
    # above the hundredths the paths that never reached the chart gave.
    assert all(0.1 < float(value) < 0.5 for value in found.groups()), losses


async def test_expected_losses_in_a_battle_name_a_side_by_its_one_unit_in_the_fight(
        discord_session):
    """The French have two stacks on the roster but one in this assault: its losses are
    named by that stack, as the British one's are, not by the side."""
    for line in ('/battle start ruleset:labataille name:Albuera sides:"French, British"',
                 '/unit add side:French name:1/45e words:"infantry morale=34 melee=12 fire=6 '
                 'defence=9" strength:6',
                 '/unit add side:French name:"2e Cuirassiers" words:"cavalry morale=44 '
                 'melee=18 mp=8" strength:4',
                 '/unit add side:British name:52nd words:"infantry morale=41 melee=8 fire=5 '
                 'defence=9" strength:5'):
        assert not (await reply(discord_session, line, user_id=GM_USER)).ephemeral, line
    message = await reply(discord_session, "/assault odds labataille attackers:1/45e "
                                           "defenders:52nd")
    [losses] = [line for line in text_of(message).split("\n") if "Expected losses" in line]
    assert re.fullmatch(r"Expected losses before the chart's result: 52nd [\d.]+ increments, "
                        r"1/45e [\d.]+ increments", losses), losses
