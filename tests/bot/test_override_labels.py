"""The results `/gm override` offers (its menu and its option's list) name each unit once and
are cut at a word, so that two long results can be told apart within Discord's 100
characters."""

from __future__ import annotations

import pytest

from bot.render.words import result_label

from .conftest import GM_USER, reply

UNITS = ["Fraser's Highlanders", "Lochiel’s Camerons", "Régiment de La Reine",
         "Régiment de Languedoc"]


def test_each_unit_is_named_once_before_its_effects():
    label = ('Fraser\'s Highlanders retires 3"; Fraser\'s Highlanders loses 1 SP; '
             "Fraser's Highlanders is shaken; Régiment de La Reine routs")
    assert result_label(label, UNITS) == (
        'Fraser\'s Highlanders retires 3", loses 1 SP and is shaken; Régiment de La Reine '
        "routs")


def test_the_longer_of_two_names_that_begin_alike_is_matched():
    label = "2nd Foot Guards routs; 2nd Foot Guards loses 1 SP; 2nd Foot retires 3\""
    assert result_label(label, ["2nd Foot", "2nd Foot Guards"]) == \
        '2nd Foot Guards routs and loses 1 SP; 2nd Foot retires 3"'


def test_a_label_too_long_is_cut_at_a_word_with_an_ellipsis():
    label = "; ".join(f"{name} loses 1 SP and is shaken" for name in UNITS * 2)
    shown = result_label(label, [])
    assert len(shown) <= 100 and shown.endswith("…")
    kept = shown[:-1]
    assert label.startswith(kept)
    assert label[len(kept)] in " ;,"  # cut between words, not within one


async def test_the_menu_tells_long_results_apart(battle_session):
    gm = {"user_id": GM_USER}
    await reply(battle_session, '/battle start ruleset:fire-at-will name:Culloden', **gm)
    for side, names in (("British", UNITS[:2]), ("French", UNITS[2:])):
        for name in names:
            added = await reply(battle_session, f'/unit add side:{side} name:"{name}" '
                                                'words:"inf regular morale=4" strength:4', **gm)
            assert not added.ephemeral, added.content
    melee = await reply(battle_session, f'/melee fire-at-will attackers:"{UNITS[0]}; '
                                        f'{UNITS[1]}" defenders:"{UNITS[2]}; {UNITS[3]}" '
                                        'dice:"3 3 3 3"', **gm)
    assert not melee.ephemeral, melee.content
    menu = await reply(battle_session, "/gm override", **gm)
    [select] = [c for row in menu.components for c in row["components"]]
    labels = [o["label"] for o in select["options"]]
    assert len(labels) > 1 and len(set(labels)) == len(labels)
    assert all(len(label) <= 100 for label in labels)
    assert all(label.count("Fraser's Highlanders") <= 1 for label in labels)
    choices = await battle_session.autocomplete(
        ["gm", "override"], {"result": "Fraser"}, "result", channel_id=100, user_id=GM_USER,
        guild_id=10)
    assert choices and all(c["name"].count("Fraser's Highlanders") <= 1 for c in choices)


async def test_a_generals_fall_that_shakes_no_unit_stays_out_of_the_labels(battle_session):
    gm = {"user_id": GM_USER}
    for line in ('/battle start ruleset:fire-at-will name:Quebec',
                 '/unit add side:British name:78th words:"inf regular morale=4" strength:4',
                 '/unit add side:French name:"La Sarre" words:"inf regular morale=4" '
                 'strength:4',
                 '/general add name:Montcalm side:French unit:"La Sarre"',
                 '/melee fire-at-will attackers:"78th: charging" defenders:"La Sarre" '
                 'dice:"6 1 6 6"'):
        made = await reply(battle_session, line, **gm)
        assert not made.ephemeral, made.content
    menu = await reply(battle_session, "/gm override", **gm)
    [select] = [c for row in menu.components for c in row["components"]]
    # No unit has him as its commander: his fall shakes none, which the reply says and
    # which tells no two results apart.
    # Plainest first: fewest effects, then by label.
    assert [o["label"] for o in select["options"]] == [
        '78th retires 3"; La Sarre retires 3"',
        "78th routs and loses 2 SP",
        "La Sarre routs and loses 2 SP",
        '78th retires 3", loses 1 SP and is shaken',
        'La Sarre retires 3", loses 1 SP and is shaken',
        "La Sarre routs and loses 2 SP; Montcalm is captured",
        "La Sarre routs and loses 2 SP; Montcalm is killed",
        "La Sarre routs and loses 2 SP; Montcalm is lightly wounded",
        'La Sarre retires 3", loses 1 SP and is shaken; Montcalm is killed',
        'La Sarre retires 3", loses 1 SP and is shaken; Montcalm is lightly wounded']


def test_what_the_cut_left_out_is_given_so_two_alike_results_can_be_told_apart():
    from bot.render.words import result_rest

    start = "Fraser's Highlanders loses 1 block; Fraser's Highlanders retreats 1 hex; " * 3
    one, other = start + "Lochiel’s Camerons wins a Victory Banner", start + "B is eliminated"
    assert result_label(one, UNITS) == result_label(other, UNITS)
    assert result_rest(one, UNITS) != result_rest(other, UNITS)
    assert result_rest(one, UNITS).endswith("Lochiel’s Camerons wins a Victory Banner")
    assert all(len(result_rest(label, UNITS)) <= 100 for label in (one, other))
    assert result_rest("A routs", UNITS) is None


async def test_a_tricorne_menu_gives_each_result_a_label_and_rest_of_its_own(battle_session):
    gm = {"user_id": GM_USER}
    for line in ('/battle start ruleset:tricorne name:"Fraser\'s Stand" sides:"British, '
                 'Jacobites"',
                 '/unit add side:British name:"Fraser\'s Highlanders" words:highland strength:4',
                 '/unit add side:Jacobites name:"Lochiel’s Camerons" words:"highland hill" '
                 'strength:4'):
        assert not (await reply(battle_session, line, **gm)).ephemeral, line
    await reply(battle_session, '/gm dice dice:"inf inf inf flag inf inf"', **gm)
    melee = await reply(battle_session, '/melee tricorne attacker:"Fraser\'s Highlanders" '
                                        'defender:"lochiel\'s camerons"', **gm)
    assert not melee.ephemeral, melee.content
    menu = await reply(battle_session, "/gm override", **gm)
    [select] = [c for row in menu.components for c in row["components"]]
    shown = [(o["label"], o.get("description")) for o in select["options"]]
    assert len(shown) > 1 and len(set(shown)) == len(shown)
    assert all(len(label) <= 100 and len(rest or "") <= 100 for label, rest in shown)


async def test_a_gm_reading_the_chart_finds_each_result_by_its_code(battle_session):
    gm = {"user_id": GM_USER}
    for line in ("/battle start ruleset:labataille name:Waterloo",
                 '/unit add side:British name:Greys words:"cavalry morale=44 melee=18 mp=8 '
                 'nation=british defence=9" strength:4',
                 '/unit add side:French name:"1/45e Ligne" words:"infantry morale=34 melee=12 '
                 'fire=6 defence=9" strength:4',
                 '/cavalry labataille chargers:Greys targets:"1/45e Ligne" spent:2 '
                 'dice:"45 1 41 33"', "/answer choice:DR"):
        assert not (await reply(battle_session, line, **gm)).ephemeral, line
    menu = await reply(battle_session, "/gm override", **gm)
    [select] = [c for row in menu.components for c in row["components"]]
    labels = [o["label"] for o in select["options"]]
    assert "AS: Greys surrenders" in labels, labels
    assert any(label.startswith("DS: 1/45e Ligne surrenders; ") for label in labels), labels
    assert all(len(label) <= 100 for label in labels)
    choices = await battle_session.autocomplete(
        ["gm", "override"], {"result": "DS:"}, "result", channel_id=100, user_id=GM_USER,
        guild_id=10)
    assert choices and all(c["name"].startswith("DS: ") for c in choices), choices
    # Typed as the menu shows it, the code and all.
    typed = await reply(battle_session, '/gm override result:"AS: Greys surrenders"', **gm)
    assert not typed.ephemeral, typed.content
    assert typed.embeds[0]["title"] == "💥 AS: Greys surrenders", typed.embeds[0]


def test_a_menus_results_are_told_by_what_is_their_own():
    from bot.render.words import answered_label, shared_effects

    labels = ["Lochiel's loses 1 block; Lochiel's routs off the field; Murray is killed",
              "Lochiel's loses 1 block; Lochiel's routs off the field; Murray escapes alone",
              "Lochiel's loses 1 block; Lochiel's routs off the field"]
    shared = shared_effects(labels)
    assert shared == ["Lochiel's loses 1 block", "Lochiel's routs off the field"]
    units = ["Lochiel's", "Murray"]
    assert [answered_label(label, None, units, shared=shared)[0] for label in labels] == [
        "Murray is killed", "Murray escapes alone", "only what every result does"]
    assert answered_label(labels[0], ("DS",), units, shared=shared)[0] == "DS: Murray is killed"
    assert shared_effects(labels[:1]) == []
    # An effect said twice is shared as many times as every result has it.
    twice = ["S; T; T", "S; T"]
    assert shared_effects(twice) == ["S", "T"]
    assert [answered_label(label, None, (), shared=["S", "T"])[0] for label in twice] == [
        "T", "only what every result does"]
    # A long path of answers (a unit's name, several choices) leads no label: the grey line
    # keeps its whole room for what tells results apart.
    long = "A loses 1 block; " * 12 + "B wins"
    label, rest = answered_label(long, ("advance", "Grenadiers", "ignore"), ["A", "B"])
    assert not label.startswith("advance") and rest is not None and rest.endswith("B wins")


@pytest.mark.parametrize("end", ["Cx wins", "Cx"])
def test_a_label_led_by_a_code_and_its_grey_line_keep_every_word(end):
    from bot.render.words import answered_label

    label = ("A loses 1 block; A retreats 2 hexes; B loses 2 blocks; B retreats 1 hex; "
             f"B routs off the field; {end}")
    shown, rest = answered_label(label, ("DS",), ["A", "B"])
    assert len(shown) <= 100 and rest is not None and len(rest) <= 100
    words = f"{shown.removeprefix('DS: ').rstrip('…')} {rest.lstrip('…')}".split()
    assert [w.strip(",;") for w in words if w not in ("and",)][-3:] == \
        label.replace(";", "").split()[-3:]


async def test_every_chart_code_leads_its_result_after_a_huzzah_too(battle_session):
    """The result the roll had (DR1) was first reached by answering Huzzah: its path,
    "huzzah · DR1", leads its label as "no · DR0" leads the others."""
    gm = {"user_id": GM_USER}
    for line in ('/battle start ruleset:labataille name:Ov sides:"French, British"',
                 '/unit add side:French name:X words:"infantry morale=35 melee=8 fire=2 '
                 'defence=3" strength:4',
                 '/unit add side:British name:Y words:"infantry morale=44 melee=7 fire=3 '
                 'defence=3 nation=british" strength:4',
                 '/assault labataille attackers:X defenders:Y dice:"44 52 5 33 41 13"',
                 "/answer choice:no", "/answer choice:DR1"):
        assert not (await reply(battle_session, line, **gm)).ephemeral, line
    # The routs are past the menu's plainest 25: the search finds them.
    choices = await battle_session.autocomplete(
        ["gm", "override"], {"result": "Y routs"}, "result", channel_id=100, user_id=GM_USER,
        guild_id=10)
    routs = [c["name"] for c in choices]
    assert routs and all(label.split(": ")[0].endswith(
        ("DR0", "DR1", "DR2", "DR3", "DR4", "DR5")) for label in routs), routs
