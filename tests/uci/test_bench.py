"""`vireo bench`: the node-count signature, its command line, and reprosearch.

When a change alters the search or the evaluation on purpose, update
BENCH_SIGNATURE below to the new `Nodes searched` of `vireo bench` (default
depth, 16 MB, one thread, the shipped network) and write `Bench: N` in the
commit message; CLASSICAL_SIGNATURE is `vireo bench --classical`'s.
"""
import os
import re
import subprocess
import sys

import chess

from engine.uci import bench
from engine._core import Position, Search
from conftest import REPO

BENCH_SIGNATURE = 2610854
CLASSICAL_SIGNATURE = 3612017

SRC = str(REPO / "src")


def vireo(*args):
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "engine", *args], capture_output=True, text=True,
                          env=env, timeout=300)


def test_bench_signature():
    total, _, rows = bench.run_bench()
    assert len(rows) == len(bench.BENCH_POSITIONS)
    assert total == BENCH_SIGNATURE, (
        f"bench signature changed: {total} (pinned {BENCH_SIGNATURE}); if intended, "
        "update BENCH_SIGNATURE and say `Bench: N` in the commit")


def test_classical_bench_signature():
    total, _, _ = bench.run_bench(nnue_file=None)
    assert total == CLASSICAL_SIGNATURE, (
        f"classical bench signature changed: {total} (pinned {CLASSICAL_SIGNATURE})")


def test_bench_positions_are_valid_and_varied():
    boards = [chess.Board(fen) for fen in bench.BENCH_POSITIONS]
    assert 30 <= len(boards) <= 50 and len(set(bench.BENCH_POSITIONS)) == len(boards)
    assert all(board.is_valid() and not board.is_game_over() for board in boards)
    assert any(board.has_castling_rights(chess.WHITE) for board in boards)
    assert any(board.turn == chess.BLACK for board in boards)
    assert any(len(board.piece_map()) <= 6 for board in boards)      # endgames
    assert any(len(board.piece_map()) == 32 for board in boards)     # the start


def test_bench_command_line_prints_the_summary():
    result = vireo("bench", "5", "16", "1", "--quiet")
    assert result.returncode == 0, result.stderr
    nodes = re.search(r"^Nodes searched: (\d+)$", result.stdout, re.M)
    nps = re.search(r"^Nodes/second: (\d+)$", result.stdout, re.M)
    assert nodes and nps and int(nodes.group(1)) > 0
    # The same depth through the API gives the same count, with either evaluation.
    assert int(nodes.group(1)) == bench.run_bench(depth=5)[0]
    classical = vireo("bench", "5", "16", "1", "--quiet", "--classical")
    assert classical.returncode == 0, classical.stderr
    counted = int(re.search(r"^Nodes searched: (\d+)$", classical.stdout, re.M).group(1))
    assert counted == bench.run_bench(depth=5, nnue_file=None)[0] != int(nodes.group(1))


def test_bench_rejects_bad_arguments():
    for args in (["bench", "deep"], ["bench", "5", "0"], ["bench", "5", "16", "999"]):
        result = vireo(*args)
        assert result.returncode != 0
        assert "vireo bench:" in result.stderr and "Traceback" not in result.stderr


def test_bench_with_two_threads_runs():
    total, _, rows = bench.run_bench(depth=4, threads=2)
    assert total > 0
    for fen, _, best in rows:
        assert chess.Move.from_uci(best) in chess.Board(fen).legal_moves


def test_reprosearch_same_nodes_and_move():
    """Stockfish's reprosearch: `go nodes` twice after ucinewgame, same output."""
    fen = "r1bq1rk1/pp1nbppp/4pn2/3p4/2Pp1B2/2N1PN2/PPQ2PPP/3RKB1R w K - 0 9"
    results = []
    for search in (Search(), Search()):
        for _ in range(2):
            search.clear_hash()
            lines = []
            best = search.go(Position(fen), {"nodes": 50_000}, lines.append)
            lines = [{k: v for k, v in line.items() if k not in ("time", "nps")} for line in lines]
            results.append((best, search.nodes, lines))
    assert all(result == results[0] for result in results)
