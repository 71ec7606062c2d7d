"""What a move's log line says of the units it concerns (``logged_summary``)."""

from bot.battles.play import logged_summary
from rules.core.roster import Roster, RosterUnit

ROSTER = Roster(units=(RosterUnit("1/45e", "French"), RosterUnit("11/45e", "French"),
                       RosterUnit("52nd", "British")))


def test_a_headline_naming_every_unit_is_the_log_line():
    options = {"attackers": "1/45e", "defenders": "52nd"}
    assert logged_summary("1/45e routs 52nd", options, ROSTER) == "1/45e routs 52nd"


def test_a_name_inside_a_longer_name_is_not_the_unit_named():
    # "11/45e" in the headline does not name 1/45e: the log line says whom the move concerned.
    options = {"attackers": "1/45e", "defenders": "52nd"}
    assert logged_summary("52nd holds; 11/45e routs", options, ROSTER) == (
        "1/45e vs 52nd: 52nd holds; 11/45e routs")
