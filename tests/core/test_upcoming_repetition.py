"""Upcoming repetition (core/cuckoo.pxi): a node whose side to move has a
move back to a position of the search tree is worth at least a draw.
python-chess is the oracle: it plays every legal move and looks for the
position among the earlier ones."""
import random

import chess
import chess.polyglot

from engine import _core
from engine._core import Position, _upcoming_repetition


def test_the_cuckoo_table_holds_every_reversible_move():
    # knights 336, bishops 560, rooks 896, queens 1456, kings 420: 3668 per
    # colour pair of squares counted once, as van Kervinck counts them
    assert _core._cuckoo_count() == 3668


def repeating_moves(board, plies):
    """Legal moves of the side to move that reach a position seen fewer
    than `plies` plies back, since the last irreversible move."""
    keys = []
    replay = board.copy()
    for back in range(1, min(plies, len(board.move_stack) + 1)):
        move = replay.pop()
        if replay.is_irreversible(move):
            break
        keys.append((back, chess.polyglot.zobrist_hash(replay)))
    found = set()
    for move in board.legal_moves:
        board.push(move)
        key = chess.polyglot.zobrist_hash(board)
        board.pop()
        if any(k == key and back < plies for back, k in keys):
            found.add(move)
    return found


def test_agrees_with_python_chess_on_shuffling_games():
    """Every position python-chess can repeat with one legal move is found;
    a find without such a move is rare (the table checks only the path)."""
    rng = random.Random(6565)
    found = missed = false_finds = 0
    for _ in range(30):
        board, position = chess.Board(), Position()
        # a few opening moves, then only reversible moves of pieces
        for _ in range(6):
            move = rng.choice(list(board.legal_moves))
            board.push(move)
            position.push(move.uci())
        for _ in range(40):
            reversible = [m for m in board.legal_moves if not board.is_irreversible(m)]
            if not reversible:
                break
            move = rng.choice(reversible)
            board.push(move)
            position.push(move.uci())
            expected = bool(repeating_moves(board, 20))
            answer = _upcoming_repetition(position, 20)
            if expected:
                found += answer
                missed += not answer
            else:
                false_finds += answer
    assert found > 50
    assert missed == 0
    assert false_finds <= found // 20


def test_only_positions_inside_the_tree_count():
    position = Position()
    for move in ("g1f3", "g8f6", "f3g1"):
        position.push(move)
    # Black can play Nf6-g8 back to the start, 3 plies ago
    assert _upcoming_repetition(position, 4)
    # with the start at or before the root (ply 3 or less) it does not count
    assert not _upcoming_repetition(position, 3)
    # a blocked path: the same shuffle of rooks with a piece put between
    blocked = Position("4k3/8/8/8/8/8/8/R3K2R w - - 0 1")
    for move in ("a1b1", "e8d8", "b1a1"):
        blocked.push(move)
    assert _upcoming_repetition(blocked, 10)      # Kd8-e8 repeats
