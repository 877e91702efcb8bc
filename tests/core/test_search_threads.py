"""Lazy SMP under stress: helper threads really search, stop at once, count tablebase hits right.

A node limit counts the nodes of all threads, so a search with idle helpers
would still pass a plain node-limit test: these tests read each thread's own
count (Search.thread_nodes).
"""
import threading

import chess

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
