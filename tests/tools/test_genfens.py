"""`genfens`, called as OpenBench's client calls it for DATAGEN workloads
(Client/genfens.py: `ENGINE "genfens N seed S book <None|FILE> EXTRA" "quit"`,
keeping the lines `info string genfens <FEN>`): deterministic by seed, legal,
not decided (Stockfish is the independent judge), reachable from the book,
and bad requests answered with a message and a non-zero exit."""
import os
import subprocess
import sys

import chess
import chess.engine
import pytest
from conftest import REPO, require_engine, shared_data

PREFIX = "info string genfens "


def genfens(request: str, cwd=None):
    """(FENs, completed process) of one OpenBench-style call."""
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    # The trailing space is OpenBench's: 'genfens %d seed %d book %s %s' with no extra.
    done = subprocess.run([sys.executable, "-m", "engine", request, "quit"], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)
    # OpenBench keeps exactly the lines that start with PREFIX (an error line,
    # "info string genfens: error: ...", does not)
    fens = [line[len(PREFIX):].rstrip() for line in done.stdout.splitlines() if line.startswith(PREFIX)]
    return fens, done


def test_same_seed_same_positions_other_seed_others():
    first, done = genfens("genfens 6 seed 20261202 book None ")
    assert done.returncode == 0, done.stderr
    again, _ = genfens("genfens 6 seed 20261202 book None ")
    other, _ = genfens("genfens 6 seed 7 book None ")
    assert len(first) == 6 and len(set(first)) == 6
    assert first == again
    assert set(first).isdisjoint(other)


def test_positions_are_legal_varied_and_not_decided():
    fens, done = genfens("genfens 8 seed 99 book None plies 8")
    assert done.returncode == 0, done.stderr
    assert len(fens) == 8
    with chess.engine.SimpleEngine.popen_uci(require_engine("stockfish")) as judge:
        for fen in fens:
            board = chess.Board(fen)
            assert board.is_valid(), fen
            assert not board.is_game_over(), fen
            assert board.ply() == 8, fen      # 8 random plies from the start position
            # OpenBench turns each FEN into EPD from its last two fields
            assert len(fen.split()) == 6
            score = judge.analyse(board, chess.engine.Limit(depth=10))["score"].relative
            assert not score.is_mate(), (fen, score)
            assert abs(score.score()) <= 600, (fen, score)   # genfens keeps |score| <= 300 by its own search


def test_book_positions_are_book_lines_plus_random_plies(tmp_path):
    book_lines = shared_data("openings", "2moves_v1.epd").read_text().splitlines()[:5]
    book = tmp_path / "book.epd"
    book.write_text("\n".join(book_lines) + "\n")
    # OpenBench passes the book relative to its client folder: Books/NAME
    (tmp_path / "Books").mkdir()
    (tmp_path / "Books" / "mine.epd").write_text(book.read_text())
    fens, done = genfens("genfens 6 seed 5 book Books/mine.epd plies 2", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert len(fens) == 6
    starts = [chess.Board(" ".join(line.split()[:4])) for line in book_lines] + [chess.Board()]
    reachable = set()
    for start in starts:
        for first in start.legal_moves:
            start.push(first)
            for second in start.legal_moves:
                start.push(second)
                reachable.add(start.epd())
                start.pop()
            start.pop()
    book_epds = {chess.Board(" ".join(line.split()[:4])).epd() for line in book_lines}
    from_book = 0
    for fen in fens:
        board = chess.Board(fen)
        assert board.epd() in reachable, fen
        # two plies after a book line (move numbers of the book kept), or after the start
        from_book += board.fullmove_number > 2
    assert from_book >= 1, "no position came from the book"
    assert not book_epds & {chess.Board(f).epd() for f in fens}


def test_a_pgn_book_gives_its_games_last_positions(tmp_path):
    lines = ["1. e4 e5 2. Nf3 Nc6 *", "1. d4 d5 2. c4 e6 *", "1. c4 c5 *"]
    (tmp_path / "Books").mkdir()
    (tmp_path / "Books" / "lines.pgn").write_text("\n\n".join(f'[Event "{i}"]\n\n{m}' for i, m in enumerate(lines)))
    fens, done = genfens("genfens 3 seed 12 book Books/lines.pgn plies 0", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    ends = set()
    for moves in lines:
        board = chess.Board()
        for san in moves.replace("1. ", "").replace("2. ", "").split()[:-1]:
            board.push_san(san)
        ends.add(board.epd())
    # with 0 random plies: each is a book line's end or the start position
    assert {chess.Board(f).epd() for f in fens} <= ends | {chess.Board().epd()}
    assert {chess.Board(f).epd() for f in fens} & ends


@pytest.mark.parametrize("request_line, message", [
    ("genfens 4 seed 1 book Books/missing.epd ", "cannot read opening file"),
    ("genfens four seed 1 book None ", "N must be an integer"),
    ("genfens 4 seed 1 book None depth 3", "unknown extra argument 'depth'"),
    ("genfens 4 seed 1", "expected: genfens N seed S book"),
    ("genfens 4 seed 1 book None plies", "key value pairs"),
])
def test_bad_requests_are_answered_and_refused(tmp_path, request_line, message):
    fens, done = genfens(request_line, cwd=tmp_path)
    assert fens == []
    assert done.returncode == 2
    assert "info string genfens: error:" in done.stdout and message in done.stdout, done.stdout


def test_other_command_lines_are_refused_clearly():
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    done = subprocess.run([sys.executable, "-m", "engine", "position startpos", "quit"], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "not a command to run from the command line" in done.stderr
