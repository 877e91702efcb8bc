"""Search speed figures: bench nodes/second against Ethereal and Stockfish, and
what a second thread brings (time to depth).

    python benchmarks/search_speed.py                 # nps: vireo vs ethereal vs stockfish
    python benchmarks/search_speed.py --rounds 5      # more rounds (medians are reported)
    python benchmarks/search_speed.py --threads 2 --depth 14   # time to depth, 1 vs 2 threads
    python benchmarks/search_speed.py --stockfish /work/refbuild/stockfish15.1 \
        --ethereal /work/refbuild/ethereal12 --nnue net256.nnue --nnue net128.nnue
        # native reference builds (../shared/references/build.sh), and Vireo's
        # bench also with each network (NNUE) beside the classical evaluation

The `vireo` row is the classical evaluation (`vireo bench --classical`); to
measure the engine as it plays by default, add the shipped network with
`--nnue src/engine/data/vireo.nnue`. Time to depth (--threads) is classical.

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

from engine.uci import bench  # noqa: E402

REFERENCES = {
    "ethereal": ("/usr/games/ethereal-chess", r"NPS\s*:\s*(\d+)"),
    "stockfish": ("/usr/games/stockfish", r"Nodes/second\s*:\s*(\d+)"),
}


def reference_nps(path: str, pattern: str):
    out = subprocess.run([path, "bench"], capture_output=True, text=True, timeout=600)
    match = re.search(pattern, out.stdout + out.stderr)
    return int(match.group(1)) if match else None


def vireo_nps(depth: int, nnue_file=None):
    nodes, seconds, _ = bench.run_bench(depth=depth, nnue_file=nnue_file)
    return int(nodes / seconds), nodes


def measure_nps(rounds: int, depth: int, paths=None, networks=()) -> None:
    paths = dict(paths or {})
    refs = {name: paths.get(name) or path for name, (path, _) in REFERENCES.items()}
    refs = {name: path for name, path in refs.items() if shutil.which(path) or os.path.exists(path)}
    vireos = {"vireo": None}
    vireos.update({f"vireo-nnue:{os.path.basename(f)}": f for f in networks})
    rows = {name: [] for name in vireos}
    rows.update({name: [] for name in refs})
    for r in range(rounds):
        line = f"round {r + 1}:"
        for name, network in vireos.items():
            nps, nodes = vireo_nps(depth, network)
            rows[name].append(nps)
            line += f"  {name} {nps:,} nps ({nodes:,} nodes, depth {depth})"
        for name in refs:
            value = reference_nps(refs[name], REFERENCES[name][1])
            rows[name].append(value)
            line += f"  {name} {value:,} nps" if value else f"  {name} ?"
        print(line, flush=True)
    print()
    for mine in vireos:
        print(f"median {mine} nps: {statistics.median(rows[mine]):,.0f}")
    for other in [name for name in vireos if name != "vireo"] + list(refs):
        for mine in vireos:
            if mine == other or (mine != "vireo" and other in vireos):
                continue
            ratios = [v / x for v, x in zip(rows[mine], rows[other]) if x]
            if ratios:
                print(f"{mine}/{other}: {statistics.median(ratios):.2f} (per-round ratios "
                      f"{', '.join(f'{x:.2f}' for x in ratios)}; {other} median "
                      f"{statistics.median([x for x in rows[other] if x]):,.0f} nps)")


def time_to_depth(threads: int, depth: int, hash_mb: int):
    """(seconds, main-thread nodes, all nodes, CPU seconds) for the main thread
    to complete `depth` on every bench position."""
    from engine._core import Position, Search

    search = Search()
    search.set_hash(hash_mb)
    search.set_threads(threads)
    seconds = cpu = 0.0
    main_nodes = all_nodes = 0
    for fen in bench.BENCH_POSITIONS:
        search.clear_hash()
        start, cpu_start = time.perf_counter(), time.process_time()
        search.go(Position(fen), {"depth": depth})
        seconds += time.perf_counter() - start
        cpu += time.process_time() - cpu_start
        main_nodes += search.thread_nodes[0]
        all_nodes += search.nodes
    return seconds, main_nodes, all_nodes, cpu


def measure_threads(threads: int, depth: int, hash_mb: int, rounds: int) -> None:
    """Time to depth, and the main thread's nodes to depth: on a machine whose
    cores are busy with other work the extra thread gets no extra CPU (see the
    CPU/wall ratio), and then only the node figure shows what the helpers bring
    (the speed-up they would give with a free core each)."""
    one, many = [], []
    for r in range(rounds):
        one.append(time_to_depth(1, depth, hash_mb))
        many.append(time_to_depth(threads, depth, hash_mb))
        (t1, n1, _, c1), (tn, nn, an, cn) = one[-1], many[-1]
        print(f"round {r + 1}: 1 thread {t1:.2f} s ({n1:,} nodes, {c1 / t1:.2f} cores busy); "
              f"{threads} threads {tn:.2f} s (main thread {nn:,} nodes, all {an:,}, "
              f"{cn / tn:.2f} cores busy): wall speed-up {t1 / tn:.2f}, "
              f"main-thread node ratio {n1 / nn:.2f}", flush=True)
    print(f"median over {rounds} rounds, depth {depth}: wall speed-up "
          f"{statistics.median([a[0] / b[0] for a, b in zip(one, many)]):.2f}, main-thread nodes to "
          f"depth 1 thread / {threads} threads {statistics.median([a[1] / b[1] for a, b in zip(one, many)]):.2f}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--depth", type=int, default=None,
                        help="bench depth (default: bench's own); time-to-depth depth with --threads")
    parser.add_argument("--threads", type=int, default=None,
                        help="measure time to depth with this many threads against one")
    parser.add_argument("--hash", type=int, default=64, help="MB for --threads runs")
    parser.add_argument("--stockfish", help="Stockfish binary (default: Debian's /usr/games/stockfish)")
    parser.add_argument("--ethereal", help="Ethereal binary (default: Debian's /usr/games/ethereal-chess)")
    parser.add_argument("--nnue", action="append", default=[], metavar="FILE",
                        help="also bench Vireo with this network (repeatable)")
    args = parser.parse_args(argv)
    if args.threads:
        measure_threads(args.threads, args.depth or bench.DEFAULT_DEPTH + 1, args.hash, args.rounds)
    else:
        measure_nps(args.rounds, args.depth or bench.DEFAULT_DEPTH,
                    {"stockfish": args.stockfish, "ethereal": args.ethereal}, args.nnue)
    return 0


if __name__ == "__main__":
    sys.exit(main())
