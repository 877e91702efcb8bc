"""fastchess (tests/runners/setup_fastchess.sh builds it) runs Vireo as a user
would run it: the `vireo` command with its default options.

* `fastchess --compliance vireo`: its 40-step UCI check (the engine starts,
  answers isready, names itself, and every `go` with a clock ends with a
  bestmove after an info line that has a score, the book's moves included).
* a short match against Debian's Stockfish at its weakest (Skill Level 0),
  saved with -pgnout; the PGN shows every game legal when python-chess
  replays it, with a result, and none lost on time, by an illegal move, or
  by an engine that crashed, hung or went away.
"""
import shutil
import subprocess

from conftest import gui_path, read_games, require_engine
from fastchess_build import require_fastchess
from gui_games import check_finished_game

GAMES = 2          # one pair: each side once with each colour
TC = "3+0.05"      # seconds + increment: short, and still a real clock


def vireo_command():
    return shutil.which("vireo", path=gui_path())


def run_fastchess(args, cwd, timeout):
    return subprocess.run([require_fastchess()] + args, cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, env={"PATH": gui_path(), "HOME": str(cwd)})


def test_fastchess_compliance_passes_with_default_options(tmp_path):
    run = run_fastchess(["--compliance", vireo_command()], tmp_path, timeout=120)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert "Engine passed all compliance checks." in run.stdout
    assert "Failed" not in run.stdout + run.stderr


def test_fastchess_match_against_stockfish_gives_clean_games(tmp_path):
    stockfish = require_engine("stockfish")
    pgn = tmp_path / "games.pgn"
    run = run_fastchess([
        "-engine", f"cmd={vireo_command()}", "name=Vireo",
        "-engine", f"cmd={stockfish}", "name=Stockfish", "option.Skill Level=0",
        "-each", f"tc={TC}", "option.Threads=1", "option.Hash=16",
        "-rounds", "1", "-games", str(GAMES), "-concurrency", "1",
        # Decided games end early: the test is about the protocol, not the result.
        "-resign", "movecount=3", "score=600", "-draw", "movenumber=30", "movecount=8", "score=20",
        "-pgnout", f"file={pgn}",
    ], tmp_path, timeout=240)
    log = run.stdout + run.stderr
    assert run.returncode == 0, log[-3000:]
    for warning in ("loses on time", "disconnect", "stalls", "illegal move", "crash"):
        assert warning not in log.lower(), log[-3000:]
    games = read_games(pgn)
    assert len(games) == GAMES
    for game in games:
        check_finished_game(game)
        assert {game.headers["White"], game.headers["Black"]} == {"Vireo", "Stockfish"}
