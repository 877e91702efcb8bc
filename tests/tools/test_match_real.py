"""Short real matches against Debian engines (Fairy-Max over xboard, Stockfish over UCI).

Locally a missing engine skips these tests; in CI (CI=true) it fails them.
"""
import os
import subprocess
import sys

import chess
import chess.pgn

from conftest import REPO, read_games, require_engine, shared_data


def vireo(*args, timeout=120):
    env = dict(os.environ, PYTHONPATH=str(REPO / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "engine", *map(str, args)], capture_output=True, text=True,
                          env=env, cwd=REPO, timeout=timeout)


def check_game(game):
    """Legal moves from the start, and a result that agrees with the final position."""
    assert not game.errors, game.errors    # python-chess rejects illegal moves here
    board = game.end().board()
    result = game.headers["Result"]
    assert result in ("1-0", "0-1", "1/2-1/2")
    if board.is_checkmate():
        assert result == ("0-1" if board.turn == chess.WHITE else "1-0")
    elif game.headers["Termination"] == "normal" and "resigns" not in game.end().comment:
        assert result == "1/2-1/2" and (board.is_stalemate() or board.is_insufficient_material()
                                        or board.is_fifty_moves() or board.is_repetition(3))


def test_stockfish_against_fairymax_with_book_openings(tmp_path):
    stockfish, fairymax = require_engine("stockfish"), require_engine("fairymax")
    book = shared_data("openings", "8moves_v3.pgn")
    pgn = tmp_path / "match.pgn"
    run = vireo("match", "--engine", f"cmd={stockfish}", "depth=1", "option.Hash=16", "option.Threads=1",
                "--engine", f"cmd={fairymax}", "proto=xboard", "tc=2+0.05",
                "--games", 2, "--concurrency", 2, "--openings", f"file={book}", "plies=8", "order=random",
                "--seed", 11, "--pgnout", pgn, "--no-progress")
    assert run.returncode == 0, run.stderr
    assert "Results of Stockfish" in run.stdout and "Fairy-Max" in run.stdout
    assert "Games: 2," in run.stdout and "Elo:" in run.stdout and "LOS:" in run.stdout
    games = read_games(pgn)
    assert len(games) == 2
    for game in games:
        check_game(game)
    # One opening, both colours: the same 8 book plies, engines swapped.
    first, second = games
    assert [m for m in first.mainline_moves()][:8] == [m for m in second.mainline_moves()][:8]
    assert (first.headers["White"], first.headers["Black"]) == (second.headers["Black"], second.headers["White"])
    assert {first.headers["Round"], second.headers["Round"]} == {"1.1", "1.2"}


def test_fairymax_refuses_fen_openings_with_a_clear_error(tmp_path):
    fairymax = require_engine("fairymax")
    epd_book = shared_data("openings", "2moves_v1.epd")
    run = vireo("match", "--engine", f"cmd={fairymax}", "proto=xboard", "--engine", f"cmd={fairymax}",
                "proto=xboard", "--each", "tc=1+0.01", "--openings", f"file={epd_book}", "--no-progress")
    assert run.returncode == 1
    assert "cannot set up positions" in run.stderr
