"""What Syzygy probes inside the search cost: nodes/s with and without SyzygyPath.

    PYTHONPATH=src python benchmarks/syzygy_search_cost.py [--seconds 2] [--positions 6]

The engine runs as `python -m engine` (UCI, one thread). Each position has five
pieces: the root is not in the 3- and 4-piece tables, so every tbhit comes from
the core's in-search probes (a callback into python-chess, after captures that
leave four pieces). For each position it searches the same time with and
without tables and prints nodes/s, tbhits and probes per second; the last
line estimates the cost of one probe from the nodes/s lost:
    (time with tables - nodes_with / nps_without) / tbhits.
The figures of one run move a little with the machine's load: run it idle.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

import chess
import chess.engine

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from engine.tools.syzygy_bench import random_endgame  # noqa: E402

SYZYGY = REPO.parent / "shared" / "data" / "syzygy"
MATERIALS = ("KRPvKR", "KQvKRP", "KRvKBP", "KBPvKN", "KPPvKP", "KRvKNP")


def positions(count: int, seed: int = 3):
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        board = random_endgame(rng, MATERIALS[len(found) % len(MATERIALS)], chess.WHITE)
        if not board.is_check() and not board.is_game_over():
            found.append(board)
    return found


def search(engine, board, seconds):
    info = engine.analyse(board, chess.engine.Limit(time=seconds), game=object())
    return info.get("nodes", 0), info.get("time", seconds), info.get("tbhits", 0)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="search time per position")
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument("--path", default=str(SYZYGY))
    args = parser.parse_args(argv)

    engine = chess.engine.SimpleEngine.popen_uci([sys.executable, "-m", "engine"], cwd=str(REPO))
    try:
        engine.configure({"OwnBook": False, "Threads": 1})
        print(f"{'position':<44} {'nps off':>10} {'nps on':>10} {'tbhits':>8} {'probes/s':>9}")
        costs = []
        for board in positions(args.positions):
            engine.configure({"SyzygyPath": ""})
            nodes_off, time_off, _ = search(engine, board, args.seconds)
            engine.configure({"SyzygyPath": args.path})
            nodes_on, time_on, hits = search(engine, board, args.seconds)
            nps_off, nps_on = nodes_off / time_off, nodes_on / time_on
            print(f"{board.fen():<44} {nps_off:>10,.0f} {nps_on:>10,.0f} {hits:>8} {hits / time_on:>9,.0f}")
            if hits:
                costs.append((time_on - nodes_on / nps_off) / hits)
        if costs:
            print(f"estimated cost of one in-search probe (median): {statistics.median(costs) * 1e6:.0f} us")
    finally:
        engine.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
