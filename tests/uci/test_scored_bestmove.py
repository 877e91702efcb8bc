"""Every bestmove follows a scored info line whose pv starts with that move.

Match runners (fastchess, cutechess-cli) and GUIs take the last scored info
line before bestmove for display and adjudication; fastchess's --compliance
check fails without one. Covered here through the real engine on a pipe: the
book's move (a short search of that move alone, uci/go.py BOOK_CHECK_*), a
stop right after go, ponder, a tiny clock, one legal move, the tablebases,
UCI_LimitStrength's own pick; and positions without a move (mate,
stalemate), where bestmove is (none) and the line still has depth and score.
The "last scored line" is read as fastchess reads it (uci_engine.cpp,
lastInfoLine): not an info string, has a score, multipv 1 if it says, exact
scores preferred over bounds.
"""
import chess
import chess.engine
import pytest

from conftest import shared_data
from uci_real_engine import popen_uci

AFTER_E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"   # fastchess's step 15
MIDDLEGAME = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 9"   # in no book
ONE_MOVE = "7k/8/8/8/8/8/6r1/7K w - - 0 1"          # Kxg2 only
MATED = "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"
STALEMATE = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"
KQK = "8/8/8/4k3/8/8/8/4K2Q w - - 0 1"


def last_scored_line(lines):
    exact = bound = None
    for line in reversed(lines):
        words = line.split()
        if not words or words[0] != "info" or "string" in words[:2] or "score" not in words:
            continue
        if "multipv" in words and words[words.index("multipv") + 1] != "1":
            continue
        if "lowerbound" in words or "upperbound" in words:
            bound = bound or line
            continue
        exact = line
        break
    return exact or bound


def field(line, name, width=1):
    words = line.split()
    return words[words.index(name) + 1: words.index(name) + 1 + width]


def answer(raw, position, go, then=(), options=None):
    """(info lines and bestmove line) of one go; `then`: lines sent right after go (stop...)."""
    for name, value in (options or {}).items():
        raw.send(f"setoption name {name} value {value}")
    raw.send(position)
    raw.send("isready")
    raw.expect("readyok", timeout=30)
    start = len(raw.seen)
    raw.send(go)
    for line in then:
        raw.send(line)
    _, best = raw.expect("bestmove", timeout=30)
    return [line for _, line in raw.seen[start:]], best.split()


def assert_scored(lines, bestmove_words):
    line = last_scored_line(lines)
    assert line is not None, f"no scored info line before {bestmove_words}: {lines}"
    assert int(field(line, "depth")[0]) >= 1
    kind, value = field(line, "score", 2)
    assert kind in ("cp", "mate") and int(value) is not None
    assert field(line, "pv")[0] == bestmove_words[1], line
    return line


@pytest.mark.parametrize("position, go", [
    ("position startpos", "go wtime 60000 btime 60000"),
    ("position startpos", "go movetime 500"),
    (f"position fen {AFTER_E4}", "go btime 100"),                # fastchess --compliance, step 15
    ("position startpos moves e2e4 e7e5", "go wtime 100 btime 100"),
    ("position startpos moves d2d4", "go wtime 3 btime 3"),      # a tiny clock: answered inline
])
def test_a_book_move_comes_with_a_scored_line(raw, position, go):
    lines, best = answer(raw, position, go, options={"BookMode": "best"})
    assert any(line.startswith("info string book move") for line in lines), lines
    assert_scored(lines, best)


def test_a_book_move_answering_ponder_then_stop_is_scored(raw):
    lines, best = answer(raw, "position startpos", "go ponder wtime 60000 btime 60000", then=["stop"])
    assert any(line.startswith("info string book move") for line in lines)
    assert_scored(lines, best)


@pytest.mark.parametrize("go, then", [
    ("go wtime 1 btime 1", ()),
    ("go movetime 1", ()),
    ("go infinite", ("stop",)),
    ("go ponder wtime 60000 btime 60000", ("stop",)),
    ("go wtime 60000 btime 60000", ("stop",)),
])
def test_a_search_cut_short_still_ends_on_a_scored_line(raw, go, then):
    lines, best = answer(raw, f"position fen {MIDDLEGAME}", go, then)
    assert_scored(lines, best)


def test_a_single_legal_move_is_scored(raw):
    lines, best = answer(raw, f"position fen {ONE_MOVE}", "go wtime 60000 btime 60000")
    assert best[1] == "h1g2"
    assert_scored(lines, best)


def test_a_tablebase_position_is_scored(raw):
    lines, best = answer(raw, f"position fen {KQK}", "go wtime 10000 btime 10000",
                         options={"SyzygyPath": shared_data("syzygy")})
    assert any(line.startswith("info string tablebase root") for line in lines)
    line = assert_scored(lines, best)
    # a win: the tablebase's score, or a mate the search has already found behind it
    # (KQK's mate is short enough to be found within the move's time on a fast machine)
    kind, value = field(line, "score", 2)
    assert (kind == "cp" and int(value) > 10000) or (kind == "mate" and int(value) > 0), line


@pytest.mark.parametrize("fen, score", [(MATED, ["mate", "0"]), (STALEMATE, ["cp", "0"])])
def test_no_legal_move_gives_bestmove_none_after_a_scored_line(raw, fen, score):
    lines, best = answer(raw, f"position fen {fen}", "go wtime 1000 btime 1000")
    assert best == ["bestmove", "(none)"]
    line = last_scored_line(lines)
    assert field(line, "depth") == ["0"] and field(line, "score", 2) == score


def test_limit_strength_reports_the_line_it_plays(raw):
    board = chess.Board(MIDDLEGAME)
    raw.send("setoption name UCI_LimitStrength value true")
    raw.send("setoption name UCI_Elo value 1000")
    for _ in range(6):   # the weakest level picks another than the first line now and then
        lines, best = answer(raw, f"position fen {board.fen()}", "go wtime 60000 btime 60000")
        assert_scored(lines, best)
        board.push_uci(best[1])
        if board.is_game_over():
            break


def test_python_chess_play_sees_the_book_moves_score():
    with popen_uci() as engine:
        board = chess.Board()
        for _ in range(4):
            result = engine.play(board, chess.engine.Limit(white_clock=30, black_clock=30),
                                 info=chess.engine.INFO_ALL)
            assert result.info["pv"][0] == result.move
            assert result.info["depth"] >= 1 and result.info["score"].relative.score(mate_score=10**5) is not None
            board.push(result.move)
