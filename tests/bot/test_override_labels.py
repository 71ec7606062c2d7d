"""The results `/gm override` offers (its menu and its option's list) name each unit once and
are cut at a word, so that two long results can be told apart within Discord's 100
characters."""

from __future__ import annotations

from bot.render.words import result_label

from .conftest import GM_USER, reply

UNITS = ["Fraser's Highlanders", "Lochiel’s Camerons", "Régiment de La Reine",
         "Régiment de Languedoc"]


def test_each_unit_is_named_once_before_its_effects():
    label = ('Fraser\'s Highlanders retires 3"; Fraser\'s Highlanders loses 1 SP; '
             "Fraser's Highlanders is shaken; Régiment de La Reine routs")
    assert result_label(label, UNITS) == (
        'Fraser\'s Highlanders retires 3", loses 1 SP, is shaken; Régiment de La Reine routs')


def test_the_longer_of_two_names_that_begin_alike_is_matched():
    label = "2nd Foot Guards routs; 2nd Foot Guards loses 1 SP; 2nd Foot retires 3\""
    assert result_label(label, ["2nd Foot", "2nd Foot Guards"]) == \
        '2nd Foot Guards routs, loses 1 SP; 2nd Foot retires 3"'


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
