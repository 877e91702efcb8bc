"""`vireo analyse` with bad input and failing engines: a clear message naming the
game and the move, and no other game lost. The failing engines are a small
scripted UCI engine written by the test; the good games run on Vireo."""
import os
import signal
import subprocess
import sys
import time

import chess.pgn

from conftest import REPO, read_games
from engine.__main__ import main

# Answers every search with the first legal move and the material balance;
# `crash` exits and `hang` stops answering (and touches MARKER) in any
# position reached through TRIGGER. Its book must be switched off before any search.
SCRIPTED_ENGINE = r'''
import sys
import chess

mode, trigger, marker = sys.argv[1:4]
sys.stdout.reconfigure(line_buffering=True)
VALUE = {chess.PAWN: 100, chess.KNIGHT: 300, chess.BISHOP: 300, chess.ROOK: 500, chess.QUEEN: 900, chess.KING: 0}
board, moves, book_off = chess.Board(), [], False
for line in sys.stdin:
    words = line.split()
    if words[:1] == ["uci"]:
        print("id name Scripted")
        print("option name OwnBook type check default true")
        print("uciok")
    elif words[:1] == ["isready"]:
        print("readyok")
    elif words[:3] == ["setoption", "name", "OwnBook"]:
        book_off = words[4:] == ["false"]
    elif words[:1] == ["position"]:
        moves = line.split(" moves ")[1].split() if " moves " in line else []
        board = chess.Board() if words[1] == "startpos" else chess.Board(" ".join(words[2:8]))
        for uci in moves:
            board.push_uci(uci)
    elif words[:1] == ["go"]:
        if not book_off:
            sys.exit(5)   # an analysis that could come from a book
        if trigger in moves:
            if mode == "crash":
                sys.exit(3)
            open(marker, "w").close()
            continue   # hang
        balance = sum(VALUE[p.piece_type] * (1 if p.color == board.turn else -1) for p in board.piece_map().values())
        move = min(board.legal_moves, key=lambda m: m.uci())
        print(f"info depth 1 score cp {balance} pv {move.uci()}")
        print("bestmove " + move.uci())
    elif words[:1] == ["quit"]:
        break
'''

GOOD_1 = '[White "First"]\n[Black "Good"]\n\n1. e4 e5 2. Nf3 Nc6 *\n'
GOOD_2 = '[White "Second"]\n[Black "Good"]\n\n1. d4 d5 2. c4 c6 *\n'
ILLEGAL = '[White "Broken"]\n[Black "Game"]\n\n1. e4 e5 2. Ke3 Nc6 *\n'
WITH_G4 = '[White "Engine"]\n[Black "Fails"]\n\n1. g4 d5 2. Nf3 Nc6 *\n'


def scripted_engine(tmp_path, mode):
    script = tmp_path / "scripted_engine.py"
    script.write_text(SCRIPTED_ENGINE)
    return f"cmd={sys.executable} {script} {mode} g1f3 {tmp_path / 'hanging'}"


def white_players(path):
    return [g.headers["White"] for g in read_games(path)]


def test_bad_files_and_illegal_moves_are_named_and_the_other_games_analysed(tmp_path, capsys):
    pgn, out = tmp_path / "mixed.pgn", tmp_path / "out.pgn"
    pgn.write_text("\n".join([GOOD_1, ILLEGAL, GOOD_2]))
    status = main(["analyse", str(pgn), str(tmp_path / "missing.pgn"), "--depth", "2", "--no-progress",
                   "--output", str(out)])
    err = capsys.readouterr().err
    assert status == 1
    assert white_players(out) == ["First", "Second"]
    assert "game 2 (Broken - Game" in err and "move 2. Ke3 is illegal" in err
    assert f"{tmp_path / 'missing.pgn'}: cannot read it: No such file or directory" in err
    assert "2 games analysed" in err and "2 failed" in err


def test_a_missing_engine_is_named_with_the_game_and_nothing_hangs(tmp_path, capsys):
    pgn, out = tmp_path / "games.pgn", tmp_path / "out.pgn"
    pgn.write_text(GOOD_1 + "\n" + GOOD_2)
    status = main(["analyse", str(pgn), "--engine", "cmd=/nonexistent/engine", "--no-progress",
                   "--output", str(out)])
    err = capsys.readouterr().err
    assert status == 1
    assert "game 1 (First - Good" in err and "start position" in err and "cannot run '/nonexistent/engine'" in err
    assert "not analysed (the engine could not be started)" in err
    assert out.read_text() == ""


def test_an_engine_crash_names_the_game_and_move_and_the_next_game_is_analysed(tmp_path, capsys):
    pgn, out = tmp_path / "games.pgn", tmp_path / "out.pgn"
    pgn.write_text("\n".join([GOOD_1, WITH_G4, GOOD_2]))
    engine = scripted_engine(tmp_path, "crash").replace("g1f3", "g2g4")   # crashes from 1. g4 on
    status = main(["analyse", str(pgn), "--engine", engine, "--no-progress", "--output", str(out), "--concurrency", "2"])
    err = capsys.readouterr().err
    assert status == 1
    assert "game 2 (Engine - Fails" in err and "after 1. g4: engine Scripted failed" in err, err
    assert white_players(out) == ["First", "Second"]
    first = read_games(out)[0]
    assert [n.eval().relative.score() for n in first.mainline()] == [0, 0, 0, 0]   # material stays level


def test_ctrl_c_keeps_the_finished_games(tmp_path):
    pgn, out = tmp_path / "games.pgn", tmp_path / "out.pgn"
    pgn.write_text("\n".join([GOOD_1, GOOD_2, WITH_G4.replace("Nf3", "Nh3"), GOOD_1.replace("First", "Never")]))
    engine = scripted_engine(tmp_path, "hang").replace("g1f3", "g1h3")   # hangs in game 3 after 2. Nh3
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    run = subprocess.Popen([sys.executable, "-m", "engine", "analyse", str(pgn), "--engine", engine,
                            "--no-progress", "--output", str(out)], env=env, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not (tmp_path / "hanging").exists() and time.monotonic() < deadline and run.poll() is None:
        time.sleep(0.1)
    assert (tmp_path / "hanging").exists(), "the scripted engine never reached the hanging position"
    run.send_signal(signal.SIGINT)
    _, err = run.communicate(timeout=30)
    assert run.returncode == 130, err
    assert white_players(out) == ["First", "Second"]
    assert "2 games analysed" in err and "2 not analysed (interrupted)" in err
    assert isinstance(read_games(out)[1], chess.pgn.Game)
