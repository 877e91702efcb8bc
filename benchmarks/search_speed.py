"""Search speed figures: bench nodes/second against Ethereal and Stockfish, and
what a second thread brings (time to depth).

    python benchmarks/search_speed.py                 # nps: vireo vs ethereal vs stockfish
    python benchmarks/search_speed.py --rounds 5      # more rounds (medians are reported)
    python benchmarks/search_speed.py --threads 2 --depth 14   # time to depth, 1 vs 2 threads

Each round runs the three benches one after another, so that a machine shared
with other work slows all of them alike; the ratio is taken per round and the
median reported. Ethereal's and Stockfish's figures are the `NPS`/`Nodes/second`
their own `bench` prints (their own positions and depths, one thread).
Run with PYTHONPATH=src from the repository root (or after `pip install -e .`).
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src"))

from engine import bench  # noqa: E402

REFERENCES = {
    "ethereal": ("/usr/games/ethereal-chess", r"NPS\s*:\s*(\d+)"),
    "stockfish": ("/usr/games/stockfish", r"Nodes/second\s*:\s*(\d+)"),
}


def reference_nps(path: str, pattern: str):
    out = subprocess.run([path, "bench"], capture_output=True, text=True, timeout=600)
    match = re.search(pattern, out.stdout + out.stderr)
    return int(match.group(1)) if match else None


def vireo_nps(depth: int):
    nodes, seconds, _ = bench.run_bench(depth=depth)
    return int(nodes / seconds), nodes


def measure_nps(rounds: int, depth: int) -> None:
    refs = {name: path for name, (path, _) in REFERENCES.items()
            if shutil.which(path) or os.path.exists(path)}
    rows = {"vireo": []}
    rows.update({name: [] for name in refs})
    for r in range(rounds):
        nps, nodes = vireo_nps(depth)
        rows["vireo"].append(nps)
        line = f"round {r + 1}: vireo {nps:,} nps ({nodes:,} nodes, depth {depth})"
        for name in refs:
            value = reference_nps(refs[name], REFERENCES[name][1])
            rows[name].append(value)
            line += f"  {name} {value:,} nps" if value else f"  {name} ?"
        print(line, flush=True)
    print()
    print(f"median vireo nps: {statistics.median(rows['vireo']):,.0f}")
    for name in refs:
        ratios = [v / x for v, x in zip(rows["vireo"], rows[name]) if x]
        if ratios:
            print(f"median {name} nps: {statistics.median([x for x in rows[name] if x]):,.0f}   "
                  f"vireo/{name}: {statistics.median(ratios):.2f} (per-round ratios "
                  f"{', '.join(f'{x:.2f}' for x in ratios)})")


def time_to_depth(threads: int, depth: int, hash_mb: int) -> float:
    """Seconds for the main thread to complete `depth` on every bench position."""
    from engine._core import Position, Search

    search = Search()
    search.set_hash(hash_mb)
    search.set_threads(threads)
    total = 0.0
    for fen in bench.BENCH_POSITIONS:
        search.clear_hash()
        start = time.perf_counter()
        search.go(Position(fen), {"depth": depth})
        total += time.perf_counter() - start
    return total


def measure_threads(threads: int, depth: int, hash_mb: int, rounds: int) -> None:
    one, many = [], []
    for r in range(rounds):
        one.append(time_to_depth(1, depth, hash_mb))
        many.append(time_to_depth(threads, depth, hash_mb))
        print(f"round {r + 1}: 1 thread {one[-1]:.2f} s, {threads} threads {many[-1]:.2f} s "
              f"(speed-up {one[-1] / many[-1]:.2f})", flush=True)
    print(f"median time to depth {depth}: 1 thread {statistics.median(one):.2f} s, "
          f"{threads} threads {statistics.median(many):.2f} s, speed-up "
          f"{statistics.median([a / b for a, b in zip(one, many)]):.2f}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--depth", type=int, default=None,
                        help="bench depth (default: bench's own); time-to-depth depth with --threads")
    parser.add_argument("--threads", type=int, default=None,
                        help="measure time to depth with this many threads against one")
    parser.add_argument("--hash", type=int, default=64, help="MB for --threads runs")
    args = parser.parse_args(argv)
    if args.threads:
        measure_threads(args.threads, args.depth or bench.DEFAULT_DEPTH + 1, args.hash, args.rounds)
    else:
        measure_nps(args.rounds, args.depth or bench.DEFAULT_DEPTH)
    return 0


if __name__ == "__main__":
    sys.exit(main())
