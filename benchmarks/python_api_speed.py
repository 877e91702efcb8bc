"""engine.api against the UCI route, in one sitting: positions a second.

    python benchmarks/python_api_speed.py [--positions 20000] [--searches 200] [--nodes 10000]

1. Static evaluation: Engine.evaluate_many on one core, from FENs and from
   python-chess boards, against chess.engine round trips of `go depth 1` to a
   `vireo` process (the nearest thing to an evaluation a UCI engine offers).
2. Searches at a node limit: Engine.analyse_many with 2 workers against
   python-chess driving two `vireo` processes from two threads, on the same
   positions (each its own Threads 1, Hash 16, book off).

Positions come from seeded random games (every phase, both sides to move).
Each figure is the best of --repeat runs; the ratios are what to read on a
shared machine.
"""
from __future__ import annotations

import argparse
import random
import sys
import threading
import time
from pathlib import Path

import chess
import chess.engine

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
from engine.api import Engine  # noqa: E402

UCI_COMMAND = [sys.executable, "-m", "engine"]


def random_positions(count: int, seed: int):
    rng = random.Random(seed)
    boards, board = [], chess.Board()
    while len(boards) < count:
        if board.is_game_over() or board.ply() > 150:
            board = chess.Board()
        board.push(rng.choice(list(board.legal_moves)))
        if not board.is_game_over():
            boards.append(board.copy(stack=False))
    return boards


def best_rate(count: int, work, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - started)
    return count / best


def uci_engine():
    engine = chess.engine.SimpleEngine.popen_uci(UCI_COMMAND, cwd=str(ROOT))
    engine.configure({"OwnBook": False, "Threads": 1, "Hash": 16})
    engine.analyse(chess.Board(), chess.engine.Limit(depth=1))   # the network is loaded before timing
    return engine


def uci_round_trips(boards, repeat: int) -> float:
    with uci_engine() as engine:
        return best_rate(len(boards), lambda: [engine.analyse(b, chess.engine.Limit(depth=1)) for b in boards],
                         repeat)


def uci_two_processes(boards, limit) -> tuple:
    """(positions/s, total nodes) of two vireo processes, each fed by a thread."""
    engines = [uci_engine(), uci_engine()]
    nodes = [0, 0]

    def feed(k):
        for board in boards[k::2]:
            nodes[k] += engines[k].analyse(board, limit)["nodes"]

    try:
        started = time.perf_counter()
        threads = [threading.Thread(target=feed, args=(k,)) for k in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        took = time.perf_counter() - started
    finally:
        for engine in engines:
            engine.quit()
    return len(boards) / took, sum(nodes)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=20000, help="for the static evaluation")
    parser.add_argument("--round-trips", type=int, default=500, help="UCI `go depth 1` round trips")
    parser.add_argument("--searches", type=int, default=200, help="positions searched by each route")
    parser.add_argument("--nodes", type=int, default=10000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    boards = random_positions(args.positions, args.seed)
    fens = [b.fen() for b in boards]
    with Engine(OwnBook=False) as engine:
        from_fens = best_rate(len(fens), lambda: engine.evaluate_many(fens), args.repeat)
        from_boards = best_rate(len(boards), lambda: engine.evaluate_many(boards), args.repeat)
    trips = uci_round_trips(boards[:args.round_trips], args.repeat)
    print(f"static evaluation, one core ({args.positions} positions, best of {args.repeat}):")
    print(f"  evaluate_many from FENs     {from_fens:12,.0f} positions/s  {from_fens / trips:8.0f}x UCI")
    print(f"  evaluate_many from boards   {from_boards:12,.0f} positions/s  {from_boards / trips:8.0f}x UCI")
    print(f"  chess.engine `go depth 1`   {trips:12,.0f} positions/s  (UCI round trips to one vireo)")

    searched = boards[:args.searches]
    limit = chess.engine.Limit(nodes=args.nodes)
    with Engine(OwnBook=False, Threads=1, Hash=16) as engine:
        engine.analyse_many(searched[:4], limit, workers=2, progress=False)      # threads and tables warm
        started = time.perf_counter()
        infos = engine.analyse_many(searched, limit, workers=2, progress=False)
        api_rate = len(searched) / (time.perf_counter() - started)
    api_nodes = sum(info["nodes"] for info in infos)
    uci_rate, uci_nodes = uci_two_processes(searched, limit)
    print(f"searches at {args.nodes} nodes, 2 at a time ({len(searched)} positions):")
    print(f"  analyse_many, workers=2     {api_rate:12,.1f} positions/s  {api_rate / uci_rate:8.2f}x UCI"
          f"  ({api_nodes:,} nodes)")
    print(f"  two vireo processes (UCI)   {uci_rate:12,.1f} positions/s  ({uci_nodes:,} nodes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
