"""`vireo match` on the command line: bad input, and Ctrl-C in the middle of a match."""
import os
import signal
import subprocess
import sys
import time

import chess.pgn
import pytest

from conftest import REPO, require_engine
from engine.__main__ import main


@pytest.mark.parametrize("args, message", [
    (["--engine", "cmd=a", "depth=1"], "exactly twice"),
    (["--engine", "cmd=a", "--engine", "cmd=b", "--each", "depth=1", "--games", "0"], "--games"),
    (["--engine", "cmd=a", "--engine", "cmd=b", "--each", "depth=1", "--concurrency", "0"], "--concurrency"),
    (["--engine", "cmd=a", "--engine", "cmd=b"], "no limit"),
    (["--engine", "cmd=a", "tc=x", "--engine", "cmd=b"], "tc="),
    (["--engine", "cmd=a", "--engine", "cmd=b", "--each", "depth=1", "--openings", "file=/no/such.pgn"],
     "cannot read"),
    (["--engine", "cmd=a", "--engine", "cmd=b", "--each", "depth=1", "--sprt", "elo0=5", "elo1=0"], "elo0"),
    (["--engine", "cmd=a", "--engine", "cmd=b", "--each", "depth=1", "--resign", "score=3"], "movecount"),
    (["--engine", "cmd=a", "--engine", "cmd=b", "--each", "depth=1", "--tb", "/no/such/dir"], "no such folder"),
    (["--engine", "cmd=a", "--engine", "cmd=b", "--each", "depth=1", "--pgnout", "/no/such/dir/x.pgn"],
     "no such folder"),
    (["--engine", "cmd=a", "proto=xboard", "nodes=5", "tc=1", "--engine", "cmd=b", "depth=1"], "xboard"),
    (["--engine", "cmd=a", "--engine", "cmd=b", "--each", "depth=1", "--variant", "crazyhouse"], "--variant"),
    (["--engine", "cmd=a", "--engine", "cmd=b", "--each", "depth=1", "ponder=maybe"], "ponder="),
])
def test_bad_arguments_exit_2_with_a_message(capsys, args, message):
    assert main(["match", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("vireo match:") and message in err


def test_engine_that_does_not_exist_exits_1(capsys):
    assert main(["match", "--engine", "cmd=/no/such/engine", "--engine", "cmd=/no/such/other",
                 "--each", "depth=1", "--no-progress"]) == 1
    assert "cannot run" in capsys.readouterr().err


def test_help_documents_the_engine_words(capsys):
    with pytest.raises(SystemExit):
        main(["match", "--help"])
    out = capsys.readouterr().out
    for word in ("cmd=", "proto=", "option.NAME", "tc=", "st=", "depth=", "nodes=", "--sprt", "--openings"):
        assert word in out


def _games_in(path):
    if not path.exists():
        return 0
    return path.read_text().count("[Event ")


def test_ctrl_c_prints_results_and_keeps_the_pgn_valid(tmp_path):
    stockfish = require_engine("stockfish")
    pgn = tmp_path / "games.pgn"
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    process = subprocess.Popen(
        [sys.executable, "-X", "faulthandler", "-m", "engine", "match", "--engine", f"cmd={stockfish}", "name=one",
         "--engine", f"cmd={stockfish}", "name=two", "--each", "nodes=300", "option.Hash=1",
         "--games", "1000", "--concurrency", "2", "--pgnout", str(pgn), "--no-progress"],
        cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while _games_in(pgn) < 3 and time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.05)
        assert process.poll() is None, process.communicate()
        process.send_signal(signal.SIGINT)
        try:
            out, err = process.communicate(timeout=15)
        except subprocess.TimeoutExpired:
            process.send_signal(signal.SIGABRT)   # -X faulthandler prints where it hung
            process.wait(10)
            pytest.fail("the match did not stop within 15 s of Ctrl-C")
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, err
    assert "Results of one vs two" in out and "interrupted" in out
    assert "Traceback" not in err, err
    games = []
    with open(pgn) as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            assert not game.errors and game.headers["Result"] in ("1-0", "0-1", "1/2-1/2")
            games.append(game)
    # Every game counted is in the file, whole; games cut short are in neither.
    assert f"Games: {len(games)}," in out
    assert 3 <= len(games) < 1000
