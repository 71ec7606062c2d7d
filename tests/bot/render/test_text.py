"""What a phone line is (``phone_lines``): one count for `/help`'s pages, `/battle show`'s
roster, the odds and a result's rolls."""

from __future__ import annotations

from bot.render.battle import _runs_past_a_screen
from bot.render.limits import FieldSpec
from bot.render.text import PHONE_LINE, PHONE_SCREEN, phone_lines


def test_markup_a_phone_does_not_show_takes_no_room():
    assert phone_lines(f"**{'a' * PHONE_LINE}**") == 1
    assert phone_lines(f"`{'a' * (PHONE_LINE - 4)}` *b*") == 1
    assert phone_lines("a" * (PHONE_LINE + 1)) == 2


def test_a_line_is_never_wrapped_at_a_hyphen():
    # Broken after "fire-", the three words would take two lines; a phone keeps the name whole.
    text = f"{'a' * 38} fire-at-will {'b' * 33}"
    assert phone_lines(text) == 3


def test_no_text_takes_no_line_and_an_empty_line_inside_one_does():
    assert phone_lines("") == 0
    assert phone_lines("a\n\nb") == 3


def test_a_roster_fills_the_screen_as_its_phone_lines_say():
    # Title, no description, a side's heading and its units, and the footer: one screen.
    units = FieldSpec("French", "\n".join(f"Unit {n}" for n in range(PHONE_SCREEN - 3)))
    assert not _runs_past_a_screen("⚔️ Quiberon", "", [units])
    more = FieldSpec("French", f"{units.value}\nOne more")
    assert _runs_past_a_screen("⚔️ Quiberon", "", [more])
