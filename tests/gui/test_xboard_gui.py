"""xboard plays Vireo through Debian's polyglot with uci/polyglot.ini as
shipped (EngineCommand = vireo, found on PATH), in a real window on Xvfb:
a two-machine game in xboard's match mode against Fairy-Max, starting from
the opening in a game file, saved to another; xboard exits when it is over.
The last screenshot taken while it played goes to tests/artifacts/gui/.
"""
import subprocess

from conftest import REPO, gui_path, require_engine, require_program
from conftest import read_games
from gui_games import check_finished_game
from xscreen import gui_process, virtual_screen

OPENING = """[Event "opening"]
[Result "*"]

1. e4 c5 2. Nf3 d6 *
"""


def xboard_args(xboard, polyglot, opening, saved):
    return [xboard, "-fcp", f"{polyglot} {REPO / 'uci' / 'polyglot.ini'}", "-scp", "fairymax",
            "-matchGames", "1", "-loadGameFile", str(opening), "-saveGameFile", str(saved),
            "-timeControl", "0:10",    # 40 moves in 10 s (xboard's default moves per session)
            # A loss threshold (-6 pawns, both engines agreeing) and a draw at move 120 keep it short.
            "-adjudicateLossThreshold", "-600", "-adjudicateDrawMoves", "120",
            "-engineOutputUp", "true", "-engineOutputW", "640", "-engineOutputH", "500",
            "-popupExitMessage", "false", "-soundProgram", "true"]


def test_xboard_plays_vireo_through_polyglot(tmp_path):
    xboard = require_program("xboard", "xboard")
    polyglot = require_engine("polyglot")
    require_engine("fairymax")
    opening, saved = tmp_path / "opening.pgn", tmp_path / "game.pgn"
    opening.write_text(OPENING)
    with virtual_screen("1100x520") as screen:
        env = screen.env(HOME=str(tmp_path), PATH=gui_path())     # a fresh ~/.xboardrc
        args = xboard_args(xboard, polyglot, opening, saved)
        with gui_process(args, env, tmp_path / "xboard.log") as process, screen.shot_on_failure("xboard"):
            screen.find_window("^Vireo vs. Fairy-Max")      # the title names both players
            # Engine output beside the board: without a window manager it opens over it.
            screen.move(screen.find_window("^Engine Output"), 440, 0)
            for _ in range(48):     # 240 s at most
                screen.screenshot("xboard-playing")        # the last one is kept
                try:
                    process.wait(timeout=5)
                    break
                except subprocess.TimeoutExpired:
                    pass
            else:
                raise AssertionError("xboard did not finish the match in 240 s")
    log = (tmp_path / "xboard.log").read_text()
    assert "final score" in log, log

    games = read_games(saved)
    assert len(games) == 1
    game = games[0]
    assert game.headers["White"] == "Vireo" and game.headers["Black"].startswith("Fairy-Max")
    assert [m.uci() for m in game.mainline_moves()][:4] == ["e2e4", "c7c5", "g1f3", "d7d6"]
    check_finished_game(game)
    assert len(list(game.mainline_moves())) > 8      # the engines played on from the opening
