"""The move generator against python-chess on random playouts.

At every position of random games (standard and Chess960) the legal move
sets, the FEN, the Polyglot key and the check status must equal
python-chess's; taking every move back must restore each earlier position
exactly (FEN and key).
"""
import random

import chess
import chess.polyglot
import pytest

from engine._core import Position

from conftest import shared_data

GAMES = 120
MAX_PLIES = 160


def random_game(board, pos, rng, chess960):
    """Play random legal moves on both boards, checking each position."""
    history = []
    for _ in range(MAX_PLIES):
        expected = sorted(board.uci(m, chess960=chess960) for m in board.legal_moves)
        assert sorted(pos.legal_moves()) == expected, board.fen()
        assert pos.fen() == board.fen(), board.fen()
        assert pos.key == chess.polyglot.zobrist_hash(board), board.fen()
        assert pos.in_check() == board.is_check(), board.fen()
        # Reading a move (push, is_legal) finds each legal one by its text, and
        # no pseudo-legal move that leaves the king in check.
        assert all(pos.is_legal(u) for u in expected), board.fen()
        pinned = {board.uci(m, chess960=chess960) for m in board.generate_pseudo_legal_moves()} - set(expected)
        assert not any(pos.is_legal(u) for u in pinned), board.fen()
        if not expected:
            break
        history.append((pos.fen(), pos.key))
        # Favour captures and promotions now and then, so games reach endings
        # and promotion/en-passant corners more often than pure chance would.
        moves = list(board.legal_moves)
        noisy = [m for m in moves if board.is_capture(m) or m.promotion]
        move = rng.choice(noisy if noisy and rng.random() < 0.5 else moves)
        pos.push(board.uci(move, chess960=chess960))
        board.push(move)
    # Unmake restores every earlier position exactly.
    while history:
        fen, key = history.pop()
        pos.pop()
        assert (pos.fen(), pos.key) == (fen, key)
    return len(history)


def test_random_playouts_standard():
    rng = random.Random(20261125)
    for _ in range(GAMES):
        board = chess.Board()
        pos = Position()
        random_game(board, pos, rng, chess960=False)


def test_random_playouts_from_match_openings():
    rng = random.Random(7)
    lines = shared_data("openings", "2moves_v1.epd").read_text().splitlines()
    for fen in rng.sample(lines, 60):
        board = chess.Board(fen)
        pos = Position(fen)
        random_game(board, pos, rng, chess960=False)


def test_random_playouts_chess960():
    rng = random.Random(960)
    lines = shared_data("openings", "FRC_openings.epd").read_text().splitlines()
    for fen in rng.sample(lines, GAMES):
        board = chess.Board(fen, chess960=True)
        pos = Position(fen, chess960=True)
        random_game(board, pos, rng, chess960=True)


def test_chess960_castling_as_king_takes_rook_and_standard_form():
    fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    pos = Position(fen)
    assert {"e1g1", "e1c1"} <= set(pos.legal_moves())
    pos.chess960 = True
    assert {"e1h1", "e1a1"} <= set(pos.legal_moves())
    # Outside Chess960 both spellings are accepted, as python-chess does.
    pos.chess960 = False
    pos.push("e1h1")
    assert pos.fen() == "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1"


@pytest.mark.parametrize("fen", [
    # king already on its target square, rook on g1 castles "short" in place
    "1r4kr/8/8/8/8/8/8/1R4KR w KQkq - 0 1",
    # rook already on its target square
    "rk3r2/8/8/8/8/8/8/RK3R2 w KQkq - 0 1",
    # castling rook shields the king's target square from a queen (b1 rook, a1 queen)
    "4k3/8/8/8/8/8/8/qR1K4 w B - 0 1",
    # king crosses an attacked square
    "4k3/8/8/8/8/8/5r2/1R2K2R w HB - 0 1",
])
def test_chess960_castling_corners(fen):
    board = chess.Board(fen, chess960=True)
    pos = Position(fen, chess960=True)
    assert sorted(pos.legal_moves()) == sorted(board.uci(m, chess960=True) for m in board.legal_moves)
    for move in board.legal_moves:
        pos.push(board.uci(move, chess960=True))
        board.push(move)
        assert pos.fen() == board.fen()
        assert pos.key == chess.polyglot.zobrist_hash(board)
        board.pop()
        pos.pop()


def test_null_move_round_trip():
    pos = Position("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3")
    before = (pos.fen(), pos.key)
    pos.push_null()
    board = chess.Board(before[0])
    board.push(chess.Move.null())
    assert pos.key == chess.polyglot.zobrist_hash(board)
    pos.pop()
    assert (pos.fen(), pos.key) == before
