"""Lazy SMP under stress: helper threads really search, stop at once, count tablebase hits right.

A node limit counts the nodes of all threads, so a search with idle helpers
would still pass a plain node-limit test: these tests read each thread's own
count (Search.thread_nodes).
"""
import random
import threading

import chess

from engine import _core
from engine._core import Position, Search

MIDDLEGAME = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8"


def test_every_helper_thread_searches():
    search = Search()
    search.set_threads(4)
    best, _ = search.go(Position(MIDDLEGAME), {"nodes": 400_000})
    per_thread = search.thread_nodes
    assert len(per_thread) == 4
    assert sum(per_thread) == search.nodes >= 400_000
    # Each helper did a real share of the work, not a token node or two.
    assert min(per_thread) > 20_000, per_thread
    assert chess.Move.from_uci(best) in chess.Board(MIDDLEGAME).legal_moves


def test_a_threads_limit_leaves_the_other_threads_idle():
    search = Search()
    search.set_threads(4)
    best, _ = search.go(Position(MIDDLEGAME), {"nodes": 30_000, "threads": 1})
    assert search.thread_nodes[1:] == [0, 0, 0] and search.thread_nodes[0] == search.nodes
    search.go(Position(MIDDLEGAME), {"nodes": 200_000, "threads": 2})
    assert min(search.thread_nodes[:2]) > 0 and search.thread_nodes[2:] == [0, 0]
    search.go(Position(MIDDLEGAME), {"nodes": 200_000})
    assert min(search.thread_nodes) > 0                    # the limit was for one search only


def test_one_thread_searches_alone():
    search = Search()
    search.go(Position(MIDDLEGAME), {"nodes": 50_000})
    assert search.thread_nodes == [search.nodes]


def test_stop_right_after_go_with_eight_threads_many_times():
    search = Search()
    search.set_threads(8)
    board = chess.Board(MIDDLEGAME)
    for round_number in range(100):
        if round_number % 25 == 0:
            search.set_hash(1 + round_number % 3)     # a resized table between searches
        result = []
        worker = threading.Thread(target=lambda: result.append(search.go(Position(MIDDLEGAME), {})))
        worker.start()
        search.stop()        # may come before, during or after the threads start
        search.stop()
        worker.join(timeout=30)
        assert not worker.is_alive(), f"round {round_number}: go did not return after stop"
        best, _ = result[0]
        assert chess.Move.from_uci(best) in board.legal_moves


def test_tablebase_hits_from_four_threads_are_counted_once_each():
    calls = []

    def probe(fen):
        calls.append(fen)          # the probe runs with the GIL: append is safe
        board = chess.Board(fen)
        return 2 if board.pieces(chess.ROOK, board.turn) else -2

    search = Search()
    search.set_threads(4)
    search.set_tablebase(probe, 0, 3)
    infos = []
    best, _ = search.go(Position("8/8/8/7p/8/2k5/8/K6R w - - 0 1"), {"nodes": 300_000}, infos.append)
    assert calls
    assert infos[-1]["tbhits"] == len(calls)
    assert len(search.thread_nodes) == 4 and min(search.thread_nodes) > 0


def _assert_line_legal(fen, moves):
    board = chess.Board(fen)
    for move in moves:
        assert chess.Move.from_uci(move) in board.legal_moves, (fen, moves)
        board.push_uci(move)


FORGE_FENS = [
    chess.STARTING_FEN,
    MIDDLEGAME,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",   # castling, pins
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",           # en passant
    "8/2P5/8/8/8/8/5pk1/K7 w - - 0 1",                                         # promotions
    "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
]


def test_forged_hash_entries_are_never_played_or_pondered():
    """Entries that pass the key check but hold any 16-bit move (what a hash
    collision, or a torn entry rewritten whole, leaves) for the root, every
    child and grandchild: bestmove, ponder move and every PV reported stay
    legal, with 4 threads and at depth 1 (where the ponder move comes from
    the hash table)."""
    rng = random.Random(11)
    search = Search()
    search.set_threads(4)
    for fen in FORGE_FENS:
        for depth in (1, 2, 6):
            search.clear_hash()
            root = Position(fen)
            keys = [root.key]
            for move in root.legal_moves():
                root.push(move)
                keys.append(root.key)
                for reply in root.legal_moves()[:8]:
                    root.push(reply)
                    keys.append(root.key)
                    root.pop()
                root.pop()
            for key in keys:
                _core._tt_forge(search, key, rng.randrange(1 << 16), 60, rng.randrange(-300, 300))
            infos = []
            best, ponder = search.go(Position(fen), {"depth": depth}, infos.append)
            _assert_line_legal(fen, [best] + ([ponder] if ponder else []))
            for info in infos:
                _assert_line_legal(fen, info["pv"])


def test_racing_threads_on_a_tiny_table_only_play_legal_moves():
    """Eight threads overwrite one another's entries in a 1 MB table, search
    after search, over positions from random games: every bestmove, ponder
    move and reported PV is legal."""
    rng = random.Random(5)
    search = Search()
    search.set_threads(8)
    search.set_hash(1)
    for game in range(30):
        board = chess.Board()
        for _ in range(rng.randrange(0, 60)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if board.is_game_over():
            continue
        fen = board.fen()
        infos = []
        best, ponder = search.go(Position(fen), {"nodes": 30_000}, infos.append)
        _assert_line_legal(fen, [best] + ([ponder] if ponder else []))
        for info in infos:
            _assert_line_legal(fen, info["pv"])
