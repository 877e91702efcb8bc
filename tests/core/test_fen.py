"""FEN input and output: round trips and a table of invalid FENs.

An invalid FEN raises ValueError whose message names the problem, and a
Position whose set_fen fails keeps its previous position untouched.
"""
import chess
import pytest

from engine._core import Position

from conftest import shared_data

INVALID = [
    ("", "fields"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w", "fields"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra", "fields"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "ranks"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8 w KQkq - 0 1", "ranks"),
    ("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "invalid character"),
    ("rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "7 squares"),
    ("rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "more than 8"),
    ("rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "two digits"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", "invalid character"),
    ("rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", "black has 0 kings"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKKNR w - - 0 1", "white has 2 kings"),
    ("4k3/8/8/8/8/8/8/4K3 x - - 0 1", "side to move"),
    ("4k3/8/8/8/8/8/8/R3K3 b - - 0 1", None),   # valid: black to move, not in check
    ("4k3/8/8/8/8/8/8/4K2R w - - 0 1", None),
    ("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", "not to move is in check"),
    ("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "first or last rank"),
    ("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "first or last rank"),
    ("4k3/8/8/8/8/8/8/4K3 w - e3 0 1", "en-passant"),
    ("4k3/8/8/8/8/8/8/4K3 w - e6 0 1", "en-passant"),
    ("4k3/8/8/4p3/8/8/8/4K3 w - e9 0 1", "not a square"),
    ("4k3/8/8/8/4P3/8/8/4K3 w - e3 0 1", "expected rank 6"),
    ("4k3/8/8/8/8/8/8/4K3 w K - 0 1", "no white rook"),
    ("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", None),
    ("4k3/8/8/8/8/8/8/R3K3 w q - 0 1", "no black rook"),
    ("4k3/8/8/8/8/8/8/R3K3 w KK - 0 1", "repeats"),
    ("4k3/8/8/8/8/8/8/R3K3 w X - 0 1", "invalid character"),
    # white's rights first: found by the 100,000-line fuzz (python-chess refuses it)
    ("r3k2r/8/8/8/8/8/8/R3K2R w KkQ - 0 1", "white's rights must come before"),
    ("4k3/8/8/8/8/8/4K3/R7 w Q - 0 1", "not on its back rank"),
    ("4k3/8/8/8/8/8/8/1R2K3 w Q - 0 1", "standard chess"),
    ("4k3/8/8/8/8/8/8/4K3 w - - -1 1", "halfmove clock"),
    ("4k3/8/8/8/8/8/8/4K3 w - - x 1", "halfmove clock"),
    ("4k3/8/8/8/8/8/8/4K3 w - - 0 one", "fullmove number"),
    ("4k3/8/8/8/8/8/8/4K3 w - - 0 -3", "fullmove number"),
    ("QQQQQQQQ/QQQQQQQQ/QQk5/8/8/8/8/4K3 w - - 0 1", "more than 16 pieces"),
]


@pytest.mark.parametrize("fen,problem", INVALID)
def test_invalid_fen_names_the_problem(fen, problem):
    if problem is None:
        Position(fen)
        return
    with pytest.raises(ValueError) as info:
        Position(fen)
    assert problem in str(info.value)


def test_failed_set_fen_keeps_the_position():
    pos = Position()
    pos.push("e2e4")
    before = (pos.fen(), pos.key, pos.legal_moves())
    for fen, problem in INVALID:
        if problem is not None:
            with pytest.raises(ValueError):
                pos.set_fen(fen)
            assert (pos.fen(), pos.key, pos.legal_moves()) == before


def test_non_string_fen():
    with pytest.raises(ValueError):
        Position(12)


def test_shredder_and_xfen_castling():
    fen = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"
    pos = Position(fen, chess960=True)
    assert pos.fen() == chess.Board(fen, chess960=True).fen() == \
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"
    assert pos.fen(shredder=True) == fen
    # An inner rook gets its file letter in X-FEN.
    inner = "1r2k1r1/8/8/8/8/8/8/RR2K2R w BHbg - 0 1"
    board = chess.Board(inner, chess960=True)
    assert Position(inner, chess960=True).fen() == board.fen()


def test_four_field_fen_and_counters():
    pos = Position("4k3/8/8/8/8/8/8/4K3 w - -")
    assert pos.fen() == "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
    assert Position("4k3/8/8/8/8/8/8/4K3 b - - 12 0").fen() == "4k3/8/8/8/8/8/8/4K3 b - - 12 1"


def test_en_passant_written_only_when_legal():
    # e6 can be taken: written. Same placement but the capture is illegal
    # (the pawn is pinned along the rank): python-chess leaves it out too.
    for fen in ["4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 2", "8/8/8/K2Pp2r/8/8/8/7k w - e6 0 2"]:
        assert Position(fen).fen() == chess.Board(fen).fen()


def test_round_trip_of_suite_positions():
    for line in shared_data("perft", "standard.epd").read_text().splitlines():
        fen = line.split(";")[0].strip()
        assert Position(fen).fen() == chess.Board(fen).fen()
    for line in shared_data("perft", "chess960.epd").read_text().splitlines()[:200]:
        fen = line.split(";")[0].strip()
        assert Position(fen, chess960=True).fen() == chess.Board(fen, chess960=True).fen()
