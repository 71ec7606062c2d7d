"""`huzzah console`, driven through standard input as a player would type."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def console(*lines: str, args: tuple[str, ...] = (), database: Path | None = None
            ) -> subprocess.CompletedProcess:
    """Run the console on its own database file (a fresh one unless given)."""
    if database is None:
        database = Path(tempfile.mkdtemp()) / "console.db"
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", "console", "--database", str(database), *args],
        input="\n".join(lines) + "\n", text=True, capture_output=True, cwd=ROOT, timeout=120,
    )


def test_a_charge_and_a_melee_play_through_the_console():
    done = console(
        '/charge fire-at-will target:"2nd Foot" target_type:infantry morale:4 '
        'chargers:"Hussars: cav distance=5" dice:3',
        '/melee fire-at-will attackers:"Hussars: cav charging" defenders:"2nd Foot: inf shaken" '
        'dice:"2 4"',
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "# 💥 2nd Foot routs, −1 SP" in out
    assert ("2nd Foot charge test 🎲 3 +2 non-cavalry charged by cavalry = 5 "
            "vs basic morale 4") in out
    assert "Hussars 🎲 2 +2 unit is cavalry +2 charging = 6\n" in out
    assert "# 💥 Attackers win by 2: 2nd Foot routs, −2 SP" in out
    assert "Traceback" not in out + done.stderr


def test_unknown_command_says_did_you_mean_and_fails_the_script():
    done = console("/mele", "/mele fire-at-will", "/export", "/gm undoo", "/xyzzy")
    assert done.returncode == 1
    assert done.stdout.split("\n\n") == [
        "> /mele\nunknown command /mele in this server. Did you mean /melee?\n"
        "Type `help` (or /help) for the list of commands.",
        "> /mele fire-at-will\nunknown command /mele in this server. "
        "Did you mean /melee fire-at-will?\nType `help` (or /help) for the list of commands.",
        "> /export\nunknown command /export in this server. Did you mean /battle export?\n"
        "Type `help` (or /help) for the list of commands.",
        # a known group: its own subcommands, not every command
        "> /gm undoo\n/gm has no subcommand 'undoo'. Did you mean /gm undo?",
        done.stdout.split("\n\n")[4],
        "> /xyzzy\nunknown command /xyzzy in this server. "
        "Type `help` (or /help) for the list of commands.",
        "",
    ]
    assert done.stdout.split("\n\n")[4].startswith("/gm - ")
    assert "/charge" not in done.stdout  # no whole command list


def test_help_names_one_command():
    done = console("help melee fire-at-will")
    assert done.returncode == 0
    assert "Usage: /melee fire-at-will attackers:<text> defenders:<text>" in done.stdout
    assert "/charge" not in done.stdout


def test_ctrl_c_at_the_prompt_leaves_at_once(tmp_path):
    import os
    import pty
    import select
    import time

    pid, terminal = pty.fork()
    if pid == 0:  # the child: the console on a terminal, as a player runs it
        os.chdir(ROOT)
        os.execv(sys.executable, [sys.executable, "-m", "bot.cli", "console", "--database",
                                  str(tmp_path / "tty.db")])

    def read_until(text: bytes, timeout: float) -> bytes:
        seen, deadline = b"", time.monotonic() + timeout
        while text not in seen and time.monotonic() < deadline:
            if select.select([terminal], [], [], 0.1)[0]:
                try:
                    chunk = os.read(terminal, 4096)
                except OSError:  # the console has gone
                    break
                if not chunk:
                    break
                seen += chunk
        return seen

    def exit_status(timeout: float) -> int | None:
        """The console's exit status once it has ended; ``None`` if it is still running."""
        deadline = time.monotonic() + timeout
        while True:
            ended, status = os.waitpid(pid, os.WNOHANG)
            if ended == pid:
                return os.waitstatus_to_exitcode(status)
            if time.monotonic() > deadline:
                return None
            time.sleep(0.05)

    try:
        assert b"huzzah> " in read_until(b"huzzah> ", 60)
        os.write(terminal, b"/mel")  # half a line typed, no Enter
        assert b"/mel" in read_until(b"/mel", 60)  # echoed by the prompt's line editing
        os.write(terminal, b"\x03")
        # Nothing more is typed: the console must end on Ctrl-C alone, closing the
        # terminal (the waits only keep a console that never ends from hanging the run).
        read_until(b"never printed", 60)
        assert exit_status(60) == 130, "Ctrl-C at the prompt did not end the console"
    finally:
        with contextlib.suppress(ProcessLookupError, ChildProcessError):
            os.kill(pid, 9)
            os.waitpid(pid, 0)
        os.close(terminal)
    import sqlite3

    connection = sqlite3.connect(tmp_path / "tty.db")
    assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    connection.close()
    assert not (tmp_path / "tty.db-wal").exists() or (tmp_path / "tty.db-wal").stat().st_size == 0


def test_unknown_option_prints_that_commands_options():
    done = console('/melee fire-at-will attackers:"A: inf" defenders:"D: inf" bogus:1')
    assert done.returncode == 1
    assert "bogus" in done.stdout
    assert "attackers" in done.stdout and "defenders" in done.stdout and "dice" in done.stdout


def test_bad_input_shows_the_private_reply_a_player_would_see():
    done = console('/melee fire-at-will attackers:"A: inf chargin" defenders:"D: inf"')
    assert done.returncode == 0
    assert "only you can see this" in done.stdout
    assert "Did you mean `charging`?" in done.stdout


def test_json_mode_prints_the_raw_payload():
    done = console("/surrender fire-at-will unit:Rangers unit_type:infantry situation:c dice:4",
                   args=("--json", "--channel", "555", "--user", "42"))
    start = done.stdout.index("[")
    payloads = json.JSONDecoder().raw_decode(done.stdout[start:])[0]
    assert payloads[0]["type"] == 4
    assert payloads[0]["data"]["embeds"][0]["title"] == "💥 Rangers surrenders"


def test_help_word_and_comments():
    done = console("# a comment", "", "help", "quit", "/help")
    assert done.returncode == 0
    assert "/melee" in done.stdout
    assert "Huzzah: dice for horse-and-musket wargames" not in done.stdout  # quit stopped it


def test_a_whole_battle_in_the_console_survives_a_restart(tmp_path):
    database = tmp_path / "battle.db"
    gm = ("--user", "2000")
    first = console(
        '/battle start ruleset:fire-at-will name:"Plains of Abraham"',
        '/unit add side:British name:"78th Highlanders" words:"inf regular morale=4" strength:4',
        '/unit add side:French name:"La Sarre" words:"inf regular morale=4" strength:4',
        '/general add name:Montcalm side:French unit:"La Sarre"',
        '/melee fire-at-will attackers:"78th Highlanders: charging" defenders:"La Sarre" '
        'dice:"4 2 1 2"',
        args=gm, database=database,
    )
    assert first.returncode == 0, first.stdout + first.stderr
    assert "📋 La Sarre: now 2 SP" in first.stdout  # the headline says the rout and the loss
    second = console(
        "/battle show",
        '/charge fire-at-will target:"La Sarre" chargers:"78th Highlanders: rear" dice:4',
        "/gm undo",
        "/battle log",
        "/battle export",
        '/battle end confirm:"Plains of Abraham"',
        args=gm, database=database,
    )
    out = second.stdout
    assert second.returncode == 0, out + second.stderr
    assert "La Sarre · 2 SP" in out and "routing" in out  # the state from before the restart
    assert "La Sarre surrenders" in out  # a routing unit charged in the rear
    assert "Undid #6" in out
    exported = tmp_path / "plains-of-abraham.md"
    size = exported.stat().st_size / 1024
    assert f"[attachment] plains-of-abraham.md ({size:.1f} KiB) saved to {exported}\n" in out
    assert exported.read_text().startswith("# Plains of Abraham")
    assert "Plains of Abraham has ended" in out


LE_BATON_TURN = [
    '/battle start ruleset:le-baton name:Bussaco',
    '/unit add side:French name:"4e Léger" words:"french inf veteran column" strength:12',
    '/unit add side:French name:Cuirassiers words:"french cav veteran horse=cuirassiers" '
    'strength:8',
    '/unit add side:British name:52nd words:"british inf veteran line" strength:8',
    '/unit add side:British name:"Ross\'s Troop" words:"british art veteran guns=6" strength:4',
    '/unit add side:British name:"16th LD" words:"british cav veteran horse=light-dragoons" '
    'strength:8',
    # phase 1: the guns fire at the column (6 lbs: −1 on each die)
    '/artillery le-baton battery:"Ross\'s Troop" target:"4e Léger" dice:"4 5 6 2"',
    "/battle next",
    '/morale le-baton unit:"4e Léger" phase:2 dice:3',
    "/battle next",
    # phase 3: the French move; the 52nd shoot, then the column charges them
    '/fire le-baton shooter:52nd target:"4e Léger" dice:"4 1 1 1"',
    '/charge le-baton charger:"4e Léger" target:52nd dice:"2 6"',
    "/battle next", "/battle next", "/battle next",
    # phase 6: a drawn melee, carried into the next turn
    '/melee le-baton attacker:"4e Léger" defender:52nd phase:6 dice:"4 4 1 1 1 1 5 5 1 1 1"',
    "/battle next", "/battle next",
    # phase 8: the British move: the light dragoons charge the cuirassiers
    '/charge le-baton charger:"16th LD" target:Cuirassiers dice:"2 3"',
    "press 📜 Steps",  # the charge step by step, privately
    "/battle next", "/battle next", "/battle next",
    # phase 11 and 12: the light dragoons lose, and hold
    '/melee le-baton attacker:"16th LD" defender:Cuirassiers phase:11 dice:"6 6 1 1 4 4 4 1"',
    "/battle next",
    '/morale le-baton unit:"16th LD" phase:12 opponent:Cuirassiers dice:2',
    "/battle next",
    # phase 13: recall fails: a casualty, and held
    '/recall le-baton unit:"16th LD" dice:6',
    "/battle next",
    "/battle show",
]


def test_a_full_le_baton_turn_in_the_console(tmp_path):
    done = console(*LE_BATON_TURN, args=("--user", "2000"), database=tmp_path / "lb.db")
    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    assert "Traceback" not in out, out
    assert out.count("only you can see this") == 1, out  # the charge's Steps, privately
    assert "Ross's Troop → 4e Léger 🎲 4 5 6 2 (each die −1 6 lbs or lighter) vs 4+ (column)" \
        " → 2 hits" in out
    assert "4e Léger loses 2 figures (now 10) and has 2 casualties in all" in out
    assert "52nd → 4e Léger 🎲 4 1 1 1 vs 4+ (column) → 1 hit" in out
    assert "4e Léger morale 🎲 2 vs 3 or less" in out
    assert "52nd morale 🎲 6 vs 5 or less (veteran 5) → fails by 1" in out
    assert "4e Léger and 52nd tie their melee, 2 all" in out
    assert "16th LD adds 5\" to its move" in out
    assert "Cuirassiers wins the melee (3–2): 16th LD tests in phase 12" in out
    assert "16th LD fails recall: 1 casualty, held" in out
    assert "Turn 2, 1. artillery fire" in out
    assert "Melee continues: 4e Léger and 52nd." in out
    assert "Melee continues: 16th LD and Cuirassiers." in out
    assert ("16th LD · 4 figures · cavalry, light dragoons, veteran · *held*, *charge marker*, "
            "*4 casualties*") in out
    assert "⚔️ Melee: 4e Léger against 52nd\n" in out
    assert "⚔️ Melee: 16th LD against Cuirassiers\n" in out
    assert "16th LD is held (failed recall)" in out


def test_an_in_memory_console_saves_exports_in_the_working_directory(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "console", "--database", ":memory:"],
        input='/battle start ruleset:fire-at-will name:"Mem Battle"\n/battle export\n'
              '/battle export format:json\n',
        text=True, capture_output=True, cwd=tmp_path, timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    markdown, data = tmp_path / "mem-battle.md", tmp_path / "mem-battle.json"
    assert f"[attachment] mem-battle.md ({markdown.stat().st_size} bytes) saved to {markdown}\n" \
        in done.stdout
    assert f"saved to {data}\n" in done.stdout
    assert json.loads(data.read_text())["battle"]["name"] == "Mem Battle"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mem-battle.json", "mem-battle.md"]


TRICORNE_SETUP = [
    "/battle start ruleset:tricorne name:Prestonpans",
    '/unit add side:Jacobites name:"Black Watch" words:highland strength:4',
    "/unit add side:Government name:Dragoons words:battle-cavalry strength:4",
    "/unit add side:Government name:Fusiliers words:regular strength:3",
    '/general add name:Murray side:Jacobites unit:"Black Watch"',
]


def test_a_tricorne_melee_with_its_buttons_in_the_console_across_a_restart(tmp_path):
    database, gm = tmp_path / "tricorne.db", ("--user", "2000")
    first = console(
        *TRICORNE_SETUP,
        '/melee tricorne attacker:"Black Watch" defender:Dragoons '
        'dice:"cav saber flag inf inf  cav flag flag"',
        "press Retire and rally",
        args=gm, database=database,
    )
    out = first.stdout
    assert first.returncode == 0, out + first.stderr
    assert "Will Dragoons retire and rally before Black Watch rolls 5 dice?" in out
    assert "[button: Retire and rally] [button: Stand and fight]" in out
    assert "Will Black Watch take ground (advance into the vacated hex)?" in out
    second = console(  # a restart between the question and its answer
        "/answer choice:advance",
        "press 📜 Steps",
        '/melee tricorne attacker:"Black Watch" defender:Fusiliers '
        'dice:"inf inf flag art  flag  art art art art  cav saber  inf inf"',
        "press Take ground",
        "press Attack Dragoons",
        "press Stand and fight",
        "press steps",  # as a player types it: without its emoji, in any case
        "/battle show",
        args=gm, database=database,
    )
    out = second.stdout
    assert second.returncode == 0, out + second.stderr
    assert "Traceback" not in out and "No button" not in out, out
    assert "retire and rally: sabers and flags are ignored" in out
    assert "Dragoons retires 2 hexes toward its side." in out
    assert "took ground after a retire and rally: no bonus melee" in out
    assert "Fusiliers fails and routs off the field." in out
    assert "Will Black Watch make a bonus melee?" in out
    assert "[button: Attack Dragoons] [button: No bonus melee]" in out
    assert "Will Dragoons retire and rally before Black Watch rolls 4 dice?" in out
    assert ("2 (highland) + 1 full strength + 1 leader attached + 1 Highland Battle Bonus − 1 "
            "moved (ordered infantry) = 4 dice") in out
    assert "Dragoons battles back against Black Watch" in out
    assert "Murray survives and stays with Black Watch." in out
    assert "Black Watch · 3 blocks · highland · *moved* · with Murray" in out
    assert "Jacobites: 1 Victory Banner" in out


LABATAILLE_SETUP = [
    "/battle start ruleset:labataille name:Bussaco",
    '/unit add side:French name:1/45e words:"infantry morale=34 melee=20" strength:6',
    '/unit add side:British name:52nd words:"infantry nation=british morale=34 melee=10" '
    "strength:5",
    '/unit add side:British name:95th words:"infantry morale=34 melee=10" strength:4',
]


def test_a_la_bataille_firefight_carries_over_two_turns_and_switches_roles(tmp_path):
    database, gm = tmp_path / "labataille.db", ("--user", "2000")
    first = console(
        *LABATAILLE_SETUP,
        '/assault labataille attackers:1/45e defenders:52nd dice:"45 45 1 41"',
        "press No Huzzah",
        "press Blank: firefight",
        "press 📜 Steps",
        "/battle next", "/battle next", "/battle next", "/battle next", "/battle next",
        args=gm, database=database,
    )
    out = first.stdout
    assert first.returncode == 0, out + first.stderr
    assert "Will 52nd Huzzah and turn the tables on 1/45e?" in out
    assert "Read row 41 of the 2:1 column on your Assault et Mêlée chart." in out
    assert "📋 Firefight: 1/45e against 52nd begins" in out
    assert "Bussaco: Turn 2, Mêlée Segment" in out
    assert out.count("• Firefight: 1/45e against 52nd: fight it again") == 3
    second = console(  # a restart: the firefight is on the roster
        '/assault labataille attackers:1/45e defenders:"52nd; 95th" dice:"45 45 45 1 41"',
        "press DR1",
        "press 📜 Steps",
        "/battle show",
        args=gm, database=database,
    )
    out = second.stdout
    assert second.returncode == 0, out + second.stderr
    assert "Traceback" not in out and "No button" not in out, out
    assert ("95th joins the defending side only: the role of attacker and defender is "
            "switched. 52nd and 95th now attack") in out
    assert "The 1:1 column: 52nd 10 + 95th 10 = 20 against 1/45e 20 = 20." in out
    assert "1/45e routs" in out
    assert "Firefight: 1/45e against 52nd ends" in out
    assert "Engagements" not in out.split("> /battle show")[1]


def test_a_chart_pack_attached_from_a_file_path_decides_the_assault(tmp_path):
    done = console(
        *LABATAILLE_SETUP,
        "/battle charts file:tests/rules/labataille/pack.json",
        '/assault labataille attackers:1/45e defenders:95th dice:"45 45 1 41"',
        args=("--user", "2000"), database=tmp_path / "charts.db",
    )
    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    assert "📊 Chart pack attached: pack.json" in out
    assert "vs 2:1 column → DR1" in out and "Read the Assault" not in out


CAVALRY_SETUP = [
    "/battle start ruleset:labataille name:Waterloo",
    '/unit add side:French name:"2e Cuirassiers" words:"cavalry morale=44 melee=18 mp=8 '
    'nation=french charge=charging" strength:4',
    '/unit add side:French name:"1er Carabiniers" words:"cavalry morale=44 melee=18 mp=8 '
    'nation=french charge=charging" strength:4',
    '/unit add side:British name:"2nd Foot" words:"infantry morale=41 melee=8 '
    'nation=british" strength:5',
    '/unit add side:British name:Lancers words:"cavalry morale=35 melee=10 mp=8 '
    'nation=british" strength:3',
]


def test_a_reaction_charge_and_a_charge_into_a_square_that_forms(tmp_path):
    database, gm = tmp_path / "cavalry.db", ("--user", "2000")
    first = console(
        *CAVALRY_SETUP,
        # The Lancers meet the Cuirassiers' charge and become the attackers.
        '/reaction labataille reactor:Lancers charger:"2e Cuirassiers" gap:3 dice:45',
        "press 📜 Steps",
        '/cavalry labataille chargers:"2e Cuirassiers" targets:"2nd Foot" spent:2',
        '/cavalry labataille chargers:Lancers targets:"2e Cuirassiers" dice:41',
        "press DR",
        "press 📜 Steps",
        # The Carabiniers charge 2nd Foot, which forms square; they do not recall.
        '/square labataille stack:"2nd Foot" distance:2 cavalry:"1er Carabiniers" '
        'target:true dice:"35"',
        "press C: square formed",
        "press Ride on",
        "press 📜 Steps",
        args=gm, database=database,
    )
    out = first.stdout
    assert first.returncode == 0, out + first.stderr
    assert "Lancers counter-charges 2e Cuirassiers" in out
    assert "📋 Lancers now carries a Charge marker" in out
    assert "2e Cuirassiers is now the defender: its Charge marker is inverted" in out
    assert ("2e Cuirassiers carries an inverted Charge marker: charged this turn (or met by "
            "a Reaction Charge).") in out  # its charge on 2nd Foot is over
    assert "Cavalry Charge vs. cavalry" in out and "2e Cuirassiers routs" in out
    assert "Lancers now carries an inverted Charge marker (it charged this turn)" in out
    assert "📋 2nd Foot is now in square" in out
    assert "No recall: it was the declared target: the cavalry must charge the Square." in out
    second = console(  # a restart: the square and the markers are on the roster
        '/cavalry labataille chargers:"1er Carabiniers" targets:"2nd Foot" spent:2 '
        'dice:"45 1 41"',
        "press DR",
        "/battle next", "/battle next", "/battle next",
        args=gm, database=database,
    )
    out = second.stdout
    assert second.returncode == 0, out + second.stderr
    assert "Traceback" not in out and "No button" not in out, out
    # "DR: 2nd Foot routs" says the rout: the roster line says the loss alone.
    assert "📋 2nd Foot loses 2 increments (now 3)\n" in out
    assert ("1er Carabiniers now carries an inverted Charge marker (it charged this turn), is "
            "now exhausted and is now disordered") in out
    assert "• Exhausted: 1er Carabiniers, Lancers: clear the marker when your rules let them" \
        in out
    assert ("• 2e Cuirassiers, 1er Carabiniers and Lancers: each has its Charge marker "
            "removed") in out  # one line for the three
    assert "resolve each charge's mêlée" not in out.split("/battle next")[-1]


def test_a_buttons_label_keeps_a_quote_of_its_own():
    from bot.console import unquoted

    assert unquoted('"Take ground"') == "Take ground"
    assert unquoted("'Take ground'") == "Take ground"
    assert unquoted('Fall back 3"') == 'Fall back 3"'  # Skirmish's button
    assert unquoted("Stand") == "Stand"


def test_press_takes_the_label_a_player_types_if_it_names_one_button():
    from bot.console import _labelled

    labels = ["C: square formed", "D: disordered", "R: routed", "DR1", "📜 Steps",
              "Attack Munro's", "Attack Barrell's"]
    assert _labelled("D: disordered", labels) == "D: disordered"
    assert _labelled("d", labels) == "D: disordered"  # not DR1: a whole word
    assert _labelled("steps", labels) == "📜 Steps"
    assert _labelled("dr1", labels) == "DR1"
    assert _labelled("Attack", labels) is None  # two buttons: say which
    assert _labelled("Attack Barrell's", labels) == "Attack Barrell's"
    assert _labelled("X", labels) is None


def test_a_did_you_mean_shows_the_name_as_it_must_be_typed(tmp_path):
    """Discord shows a code span as typed: the console must not drop the asterisks of a
    general called **Ney** from the name it suggests, or typing it fails again."""
    done = console(
        '/battle start ruleset:labataille name:"Quatre Bras"',
        '/general add name:"**Ney**" side:French',
        '/gm general general:"Ney" field:value value:1',
        args=("--manage-channel",), database=tmp_path / "b.db",
    )
    assert done.returncode == 0, done.stderr
    assert "Did you mean `**Ney**`?" in done.stdout


def test_the_override_menu_lists_its_results_and_press_picks_one(tmp_path):
    """`/gm override` alone answers with a menu: the console shows what it offers, and
    `press` picks one of them as it presses a button."""
    done = console(
        "/battle start ruleset:fire-at-will name:Test",
        '/unit add side:British name:Highlanders words:"inf regular morale=4" strength:4',
        '/unit add side:French name:"La Sarre" words:"inf regular morale=4" strength:4',
        '/melee fire-at-will attackers:"Highlanders: charging" defenders:"La Sarre" '
        'dice:"5 2"',
        "/gm override",
        "press Highlanders routs and loses 2 SP",
        "/battle show",
        args=("--manage-channel",), database=tmp_path / "console.db")
    assert done.returncode == 0, done.stdout
    out = done.stdout
    assert "[menu: Pick the result to apply]\n  • Highlanders retires 3\"" in out, out
    assert "\n  • Highlanders routs and loses 2 SP\n" in out, out
    assert "🛠️ Overridden by player" in out, out
    assert "# 💥 Defenders win by 2: Highlanders routs, −2 SP" in out, out
    assert "Highlanders · 2 SP · infantry, regular · *routing*" in out, out


def test_press_an_arrow_turns_the_help_page_as_its_button_says():
    """/help says ◀ and ▶ step through its pages: `press ▶` presses the button bearing it,
    though the arrow ends its label (`words 2/4 ▶`)."""
    done = console("/help topic:tricorne part:words", "press ▶", "press ◀")
    assert done.returncode == 0, done.stdout
    pages = [block for block in done.stdout.split("\n\n") if "-- updated message --" in block]
    assert [page.splitlines()[0] for page in pages] == ["> press ▶", "> press ◀"]
    assert "| -- 2/4 · More of" in pages[0] and "| -- 1/4 · More of" in pages[1], done.stdout


def test_press_with_words_two_buttons_begin_with_asks_which_and_presses_none():
    """Both page buttons of /help begin `words`: the console must not press an older
    reply's button of that name instead."""
    done = console("/help topic:tricorne part:words", "press ▶", "press words")
    assert done.returncode == 1, done.stdout
    assert done.stdout.split("\n\n")[-2:] == [
        "> press words\n`words` names 2 buttons of that reply: ◀ words 1/4 and "
        "words 3/4 ▶. Type more of the label.", ""]


def test_a_press_with_no_such_button_says_what_to_check():
    """No buttons yet in this run: a question asked before a restart is `/answer`'s. A label
    missed among this run's buttons lists them, without the restart's advice."""
    done = console("press Huzzah!", "/help topic:tricorne part:words", "press Next")
    assert done.returncode == 1, done.stdout
    said = done.stdout.split("\n\n")
    assert "> press Huzzah!\nNo button `Huzzah!` on the replies so far. A question asked " \
           "before a restart is answered with `/answer`." in said, done.stdout
    assert "> press Next\nNo button `Next` on the replies so far (there are: words 2/4 ▶, " \
           "◀ commands)." in said, done.stdout
