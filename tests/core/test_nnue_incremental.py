"""Incremental accumulators (kept in step with push/pop/null moves, as in
the search) equal a full refresh along random playouts, in standard chess
and Chess960, through castling both ways, en passant, every promotion,
captures of promoted pieces and null moves; and the search uses them."""
import random
import threading
import time

import chess
import pytest

from engine._core import Position, Search, load_network  # noqa: F401
from engine.tools.nnue import network_file as nf
from nnue_nets import load, nnue_code, no_network  # noqa: F401

# Starts rich in special moves: pawns about to promote (with pieces to take
# on the back rank), en-passant chances, both castlings open.
STARTS = [
    chess.STARTING_FEN,
    "r3k2r/1P4P1/8/3pP3/8/8/1p4p1/R3K2R w KQkq d6 0 1",
    "rn2k2r/PPPp1ppp/8/8/8/8/pppP1PPP/RN2K2R b KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
]


def kind(board, move):
    if board.is_castling(move):
        return "castle-long" if chess.square_file(move.to_square) < chess.square_file(move.from_square) else "castle-short"
    if board.is_en_passant(move):
        return "en-passant"
    if move.promotion:
        return "promotion-" + chess.piece_symbol(move.promotion)
    captured = board.piece_at(move.to_square)
    if captured and board.promoted & chess.BB_SQUARES[move.to_square]:
        return "capture-of-promoted"
    return "other"


def walk(position, board, rng, seen, plies, chess960, net=None):
    """Random moves, special ones preferred, with take-backs and null moves;
    after every step the incremental evaluation equals the full refresh."""
    for _ in range(plies):
        step = rng.random()
        if step < 0.15 and board.move_stack:
            board.pop()
            position.pop()
        elif step < 0.25 and not board.is_check():
            board.push(chess.Move.null())
            position.push_null()
            seen["null"] = seen.get("null", 0) + 1
        else:
            moves = list(board.legal_moves)
            if not moves:
                break
            special = [m for m in moves if kind(board, m) != "other" or board.is_capture(m)]
            passant = [m for m in moves if board.is_en_passant(m)]
            move = rng.choice(passant if passant and rng.random() < 0.5
                              else special if special and rng.random() < 0.7 else moves)
            label = kind(board, move)
            seen[label] = seen.get(label, 0) + 1
            position.push(board.uci(move, chess960=chess960))
            board.push(move)
        assert position.nnue_eval() == position.nnue_eval_full(), board.fen()
    assert position.nnue_accumulators() == position.nnue_accumulators(full=True)
    if net is not None and board.is_valid():
        assert position.nnue_eval() == nf.reference_eval(net, board), board.fen()


@pytest.mark.parametrize("king_buckets", [0, 4, 16])
@pytest.mark.parametrize("chess960", [False, True])
def test_incremental_equals_refresh(tmp_path, no_network, nnue_code, chess960, king_buckets):
    """king_buckets: 0 the plain 768 features; else version 3, where king
    moves across buckets, across the e/d-file mirror and castling refresh
    one perspective (through the refresh table) and update the other."""
    net = nf.random_network(32, nf.SCRELU, seed=21, king_buckets=king_buckets)
    load(tmp_path, net)
    rng = random.Random(22 + chess960)
    seen = {}
    starts = [chess.Board.from_chess960_pos(n).fen() for n in rng.sample(range(960), 8)] if chess960 else STARTS
    for game in range(24):
        fen = starts[game % len(starts)]
        board = chess.Board(fen, chess960=chess960)
        position = Position(fen, chess960=chess960)
        walk(position, board, rng, seen, 120, chess960, net)
    wanted = {"castle-long", "castle-short", "null"}
    if not chess960:
        wanted |= {"en-passant", "promotion-q", "promotion-r", "promotion-b", "promotion-n", "capture-of-promoted"}
    assert wanted <= set(seen), seen


def test_long_game_leaves_the_window(tmp_path, no_network, nnue_code):
    """More plies than the accumulator stack holds: the window moves, pops
    below its base refresh, and the results stay exact."""
    load(tmp_path, nf.random_network(16, nf.CRELU, seed=23))
    rng = random.Random(24)
    board, position = chess.Board(), Position()
    for _ in range(400):
        moves = list(board.legal_moves)
        if not moves or board.is_insufficient_material():
            break
        move = rng.choice(moves)
        board.push(move)
        position.push(move.uci())
        assert position.nnue_eval() == position.nnue_eval_full()
    while board.move_stack:
        board.pop()
        position.pop()
        assert position.nnue_eval() == position.nnue_eval_full()


def test_set_fen_and_new_network_invalidate(tmp_path, no_network):
    load(tmp_path, nf.random_network(32, nf.SCRELU, seed=25))
    position = Position()
    position.nnue_eval()
    position.set_fen("r3k2r/1P4P1/8/3pP3/8/8/1p4p1/R3K2R w KQkq d6 0 1")
    position.push("e5d6")
    assert position.nnue_eval() == position.nnue_eval_full()
    copy = position.copy()
    net = nf.random_network(64, nf.CRELU, seed=26)
    load(tmp_path, net, "other.nnue")
    assert position.nnue_eval() == copy.nnue_eval() == nf.reference_eval(net, chess.Board(position.fen()))


def test_search_with_the_network(tmp_path, no_network):
    search = Search()
    with pytest.raises(ValueError, match="no network"):
        search.set_option("use_nnue", True)
    load(tmp_path, nf.random_network(32, nf.SCRELU, seed=27))
    search.set_option("use_nnue", True)
    for fen in STARTS:
        best, _ = search.go(Position(fen), {"depth": 5})
        assert chess.Move.from_uci(best) in chess.Board(fen).legal_moves
    # The network cannot change under a running search.
    worker = threading.Thread(target=search.go, args=(Position(), {"infinite": True}))
    worker.start()
    try:
        time.sleep(0.2)
        with pytest.raises(RuntimeError, match="while a search uses it"):
            load(tmp_path, nf.random_network(16, nf.SCRELU, seed=28), "swap.nnue")
    finally:
        search.stop()
        worker.join()
    load(tmp_path, nf.random_network(16, nf.SCRELU, seed=28), "swap.nnue")


def test_search_updates_from_the_root_when_the_hash_holds_the_evals(tmp_path, no_network):
    """A search that starts with its root (and the first plies) in the hash
    table takes their static evaluations from there and never computes
    their accumulators. The root's is computed once when the search starts,
    so every other node still updates from an ancestor: one refresh of each
    perspective a thread, however deep the search and however full the hash.
    (Before this was so, the second search below made some 12,500 refreshes.)"""
    load(tmp_path, nf.random_network(64, nf.SCRELU, seed=29))
    board = chess.Board("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
    for threads in (1, 2):
        search = Search()
        search.set_option("use_nnue", True)
        search.set_threads(threads)
        search.go(Position(board.fen()), {"nodes": 60000})
        first = search.nnue_stats
        board_after = board.copy()
        board_after.push_uci(search.go(Position(board.fen()), {"nodes": 1000})[0])
        search.go(Position(board_after.fen()), {"nodes": 200000})   # the hash kept
        stats = search.nnue_stats
        assert first["refreshes"] == 2 * threads and stats["refreshes"] == 2 * threads, (first, stats)
        assert stats["updates"] > 10000


@pytest.mark.parametrize("fen", ["8/5k2/8/3K4/8/8/4P3/8 w - - 0 1",
                                 "r3k2r/pp3ppp/2n5/3p4/3P4/2N5/PP3PPP/R3K2R w KQkq - 0 1"])
def test_search_with_king_buckets(tmp_path, no_network, fen):
    """A search with a king-bucket network refreshes perspectives through the
    refresh table as its kings cross buckets and the mirror, and computes the
    very same evaluations as the plain loops: the same nodes, the same move."""
    load(tmp_path, nf.random_network(64, nf.SCRELU, seed=54, buckets=8, king_buckets=4))
    from engine._core import set_nnue_simd, simd_path
    compiled = simd_path()
    results = []
    try:
        for simd in ([False, True] if compiled != "plain" else [False]):
            set_nnue_simd(simd)
            search = Search()
            search.set_option("use_nnue", True)
            best, _ = search.go(Position(fen), {"nodes": 150000})
            results.append((best, search.nodes, search.nnue_stats))
    finally:
        set_nnue_simd(compiled != "plain")
    best, nodes, stats = results[0]
    assert chess.Move.from_uci(best) in chess.Board(fen).legal_moves
    assert stats["refreshes"] > 2 and stats["updates"] > 1000, stats
    assert all(r == results[0] for r in results), results
