"""The Cute Chess GUI plays Vireo in a real window (on Xvfb), as a user does.

A fresh configuration folder holds Vireo's entry exactly as uci/engines.json
ships it (with its options) and one opponent; cutechess.ini presets the New
Game dialog (time control, adjudication, the file finished games are saved
to). The test opens the dialog with Ctrl+N, makes both players CPUs, picks
the engines with the keyboard, starts the game, waits for the result in the
window title and checks the saved PGN. One game for each variant the entry
declares. Screenshots go to tests/artifacts/gui/.
"""
import json
import re
import time

import pytest

from conftest import REPO, gui_path, require_engine
from cutechess_build import require_cutechess
from conftest import read_games
from gui_games import check_finished_game
from xscreen import gui_process, virtual_screen

SCREEN = (1920, 1080)
VIREO_ENTRY = next(e for e in json.loads((REPO / "uci" / "engines.json").read_text()) if e["name"] == "Vireo")
# Opponents from Debian: Fairy-Max (xboard protocol) for standard chess,
# Stockfish (UCI, declares UCI_Chess960) for Fischer Random.
OPPONENTS = {
    "standard": {"name": "Fairy-Max", "command": "fairymax", "protocol": "xboard", "workingDirectory": ""},
    "fischerandom": {"name": "Stockfish", "command": "stockfish", "protocol": "uci", "workingDirectory": "",
                     "variants": ["standard", "fischerandom"],
                     "options": [{"name": "Threads", "type": "spin", "value": 1, "default": 1, "min": 1,
                                  "max": 1024}]},
}
# 40 moves in 8 s for each side; the adjudication a tester would set, so a
# lost or dead-drawn game ends early; a draw at move 120 at the latest.
SETTINGS = """[games]
default_pgn_output_file={pgn}
variant={variant}
time_control\\moves_per_tc=40
time_control\\time_per_tc=8000
second_time_control\\time_control\\moves_per_tc=40
second_time_control\\time_control\\time_per_tc=8000
resign_adjudication\\move_count=3
resign_adjudication\\score=600
draw_adjudication\\move_number=40
draw_adjudication\\move_count=8
draw_adjudication\\score=10
game_length\\max_moves=120
"""
RESULT_IN_TITLE = re.compile(r"\((1-0|0-1|1/2-1/2)\)")
# Cute Chess's move comment for an engine move: score (pawns or mate) / depth, time.
EVAL_COMMENT = re.compile(r"^([+-]?\d+\.\d+|[+-]?M\d+)/(\d+) ")


def configure(tmp_path, variant):
    folder = tmp_path / "config" / "cutechess"
    folder.mkdir(parents=True)
    entries = [VIREO_ENTRY, OPPONENTS[variant]]
    (folder / "engines.json").write_text(json.dumps(entries, indent=4))
    pgn = tmp_path / "games.pgn"
    (folder / "cutechess.ini").write_text(SETTINGS.format(pgn=pgn, variant=variant))
    # The dialog lists the engines sorted by name, case-insensitively.
    names = sorted((e["name"] for e in entries), key=str.lower)
    return pgn, names.index("Vireo"), names.index(OPPONENTS[variant]["name"])


def new_game_keys(white_index, black_index):
    """Keys for the New Game dialog: focus starts on White's "Human" radio button."""
    return (["Down", "Tab"] + ["Down"] * white_index     # White: CPU, then its engine in the list
            + ["Tab", "Tab", "Down", "Tab"]                 # past the configure button; Black: CPU
            + ["Down"] * black_index                        # Black's engine
            + ["shift+Tab", "Return"])                      # Return on the radio button = OK


def wait_for_result(screen, window, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        title = screen.title(window)
        if RESULT_IN_TITLE.search(title):
            return title
        time.sleep(1)
    raise TimeoutError(f"no result in the window title within {timeout} s (last title: {title!r})")


@pytest.mark.parametrize("variant", VIREO_ENTRY["variants"])
def test_cutechess_gui_plays_a_game_with_vireo(tmp_path, variant):
    gui = require_cutechess("cutechess")
    require_engine(OPPONENTS[variant]["command"])
    pgn, vireo_index, opponent_index = configure(tmp_path, variant)
    with virtual_screen(f"{SCREEN[0]}x{SCREEN[1]}") as screen:
        env = screen.env(XDG_CONFIG_HOME=str(tmp_path / "config"), HOME=str(tmp_path), PATH=gui_path())
        with gui_process([gui], env, tmp_path / "gui.log"), screen.shot_on_failure(f"cutechess-{variant}"):
            window = screen.find_window("^Human vs Human")     # the empty game Cute Chess opens with
            screen.resize(window, *SCREEN)
            # For the screenshots only: the splitters between board, move list and evaluation
            # panels (where Cute Chess 1.5.1 puts them on this screen) moved left, so the
            # panels show Vireo's score and PV.
            screen.drag(1396, 600, 1000)
            screen.drag(1661, 600, 1330)
            screen.keys(window, "ctrl+n")
            dialog = screen.find_window("^New Game$")
            screen.keys(dialog, *new_game_keys(vireo_index, opponent_index))
            opponent = OPPONENTS[variant]["name"]
            assert screen.find_window(f"^Vireo vs {opponent}", timeout=30) == window
            time.sleep(5)
            screen.screenshot(f"cutechess-{variant}-playing")
            title = wait_for_result(screen, window, timeout=240)
            time.sleep(1)   # the PGN is written just after the title changes
            screen.screenshot(f"cutechess-{variant}-end")

    games = read_games(pgn)
    assert len(games) == 1
    game = games[0]
    assert (game.headers["White"], game.headers["Black"]) == ("Vireo", opponent)
    assert game.headers["Result"] in title
    board = check_finished_game(game)
    assert board.chess960 == (variant == "fischerandom")
    # Cute Chess read Vireo's info lines: its searched moves carry score/depth.
    vireo_comments = [node.comment for node in game.mainline() if not node.turn()]   # White's moves
    depths = [int(m.group(2)) for c in vireo_comments if (m := EVAL_COMMENT.match(c))]
    assert depths and max(depths) >= 5, vireo_comments
