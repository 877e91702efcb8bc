"""Analysis always analyses; the book answers only game moves (uci/go.py, book_answers).

Through python-chess, as a new user meets the engine: analyse() sets
UCI_AnalyseMode (Vireo declares it), so even a movetime limit in a book
position is searched and reported with score, depth and PV. play() under a
clock still takes the book move, and its info carries the move as a PV with
the depth and score of a short search of that move alone.
"""
import chess
import chess.engine
import pytest

from engine.uci.go import GoSettings, book_answers
from engine.uci.parse import parse_go
from uci_real_engine import popen_uci


@pytest.fixture(scope="module")
def uci():
    engine = popen_uci()
    yield engine
    engine.quit()


def test_analyse_in_the_start_position_reports_score_depth_and_pv(uci):
    assert uci.options["OwnBook"].default is True  # the book is on, and still not asked
    info = uci.analyse(chess.Board(), chess.engine.Limit(time=0.5))
    assert info["depth"] >= 1 and info["pv"] and info["pv"][0] in chess.Board().legal_moves
    assert info["score"].relative.score() is not None


def test_analyse_with_three_lines_reports_three_searched_lines(uci):
    board = chess.Board()
    board.push_uci("e2e4")
    infos = uci.analyse(board, chess.engine.Limit(time=0.5), multipv=3)
    assert len(infos) == 3
    firsts = {info["pv"][0] for info in infos}
    assert len(firsts) == 3 and all(move in board.legal_moves for move in firsts)
    assert all("score" in info and info["depth"] >= 1 for info in infos)


def test_play_under_a_clock_takes_the_book_move_and_reports_it_as_a_pv(uci):
    board = chess.Board()
    result = uci.play(board, chess.engine.Limit(white_clock=60, black_clock=60),
                      info=chess.engine.INFO_ALL)
    assert result.move in board.legal_moves
    assert result.info["pv"][0] == result.move   # the book's move, usable by the client
    # scored by a short search of that move alone (uci/go.py, BOOK_CHECK_*)
    assert result.info["depth"] >= 1 and result.info["score"].relative.score() is not None


@pytest.mark.parametrize("go, settings, expected", [
    ("go wtime 1000 btime 1000", {}, True),
    ("go movetime 1000", {}, True),
    ("go ponder wtime 1000 btime 1000", {}, True),
    ("go movetime 1000", {"analyse_mode": True}, False),
    ("go wtime 1000 btime 1000", {"multipv": 3}, False),
    ("go infinite", {}, False),
    ("go wtime 1000 btime 1000 searchmoves e2e4 d2d4", {}, False),
    ("go depth 8", {}, False),
    ("go nodes 10000 movetime 1000", {}, False),
    ("go mate 3 wtime 1000 btime 1000", {}, False),
    ("go", {}, False),
])
def test_when_the_book_answers(go, settings, expected):
    assert book_answers(parse_go(go.split()[1:]), GoSettings(**settings)) is expected
