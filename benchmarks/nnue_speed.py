"""NNUE speed three ways, side by side in one sitting: the kernels alone,
`vireo bench` nodes/s (hash cleared per position), and game-like nodes/s
(real games replayed move by move with the hash kept, as in play), for the
SIMD code and the plain loops of this build, for other builds and networks,
and beside native Stockfish 15.1's own bench.

    PYTHONPATH=src python benchmarks/nnue_speed.py
    PYTHONPATH=src python benchmarks/nnue_speed.py --rounds 5 \
        --stockfish /work/refbuild/stockfish15.1 \
        --build portable=/tmp/vireo-portable --build 4f06e31=/tmp/vireo-4f06e31 \
        --nnue old.nnue

--build NAME=DIR measures another checkout whose core is built in place
(DIR/src/engine/_core*.so; see docs/results.md for the commands), in a
subprocess of this script, with its default code path. Cores older than the
kernel timer report only the two nodes/s figures. --nnue FILE adds this
build with that network (bench and game-like).

Each round runs every configuration once, one after another (a different
one first each round), so that a shared, noisy machine slows them alike;
the kernels are timed five times a round and their minimum kept, this
build's SIMD and plain loops in turn within each repeat (another build's in
its own process). Ratios are taken per round and the median
reported. The search is deterministic for a fixed node count, so every
configuration searches the very same nodes of the very same games (the
"nodes" column shows it); only the time differs.
"""
from __future__ import annotations

import argparse
import json
import lzma
import os
import re
import statistics
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.environ.get("VIREO_SRC") or os.path.join(REPO, "src"))

import chess.pgn  # noqa: E402

from engine import _core  # noqa: E402
from engine.uci import bench  # noqa: E402

SHIPPED = os.path.join(REPO, "src", "engine", "data", "vireo.nnue")
GAMES = os.path.join(REPO, "benchmarks", "results", "ladder-vireo-nnue-gen6-vs-ethereal12-native-10+0.1-2core.pgn.xz")
KERNELS = (("refresh", "refreshes"), ("update", "updates"), ("output", "outputs"))


def game_positions(path: str, games: int, plies: int) -> list[list[str]]:
    """The FENs before each of the first `plies` moves of the first `games` games."""
    out = []
    with lzma.open(path, "rt") as handle:
        while len(out) < games:
            game = chess.pgn.read_game(handle)
            if game is None:
                break
            board, fens = game.board(), []
            for move in list(game.mainline_moves())[:plies]:
                fens.append(board.fen())
                board.push(move)
            out.append(fens)
    return out


def game_like_nps(games: list[list[str]], network: str, nodes: int, hash_mb: int = 64):
    """(nodes/s, nodes, perspectives refreshed or None): each game's positions
    searched in order at `nodes` nodes a move, one Search whose hash is kept
    through the game."""
    _core.load_network(network)
    total = refreshes = 0
    seconds = 0.0
    counted = hasattr(_core.Search, "nnue_stats")
    for fens in games:
        search = _core.Search()
        search.set_hash(hash_mb)
        search.set_option("use_nnue", True)
        for fen in fens:
            start = time.perf_counter()
            search.go(_core.Position(fen), {"nodes": nodes})
            seconds += time.perf_counter() - start
            total += search.nodes
            refreshes += search.nnue_stats["refreshes"] if counted else 0
    return total / seconds, total, (refreshes if counted else None)


def bench_nps(network: str):
    nodes, seconds, _ = bench.run_bench(nnue_file=network)
    return nodes / seconds, nodes


def kernel_ns(network: str, positions, paths=(None,), repeats: int = 5):
    """{path: minimum over `repeats` timings of ns per refresh, update and
    output}, the paths (True SIMD, False plain, None the build's default)
    taken in turn within each repeat, so that a machine whose speed drifts
    treats them alike; None for a core without the timer."""
    if not hasattr(_core, "nnue_kernel_speed"):
        return None
    _core.load_network(network)
    best = {}
    for _ in range(repeats):
        for simd in paths:
            set_path(simd)
            r = _core.nnue_kernel_speed(positions, 20)
            now = [r[f"{k}_ns"] / r[count] for k, count in KERNELS]
            best[simd] = now if simd not in best else [min(a, b) for a, b in zip(best[simd], now)]
    return best


COMPILED = _core.simd_path() if hasattr(_core, "simd_path") else None   # the build's default path


def set_path(simd: bool | None):
    """Choose the code path (None: the build's default); the path in use."""
    if not hasattr(_core, "set_nnue_simd"):
        return "plain (no switch)"
    _core.set_nnue_simd(COMPILED != "plain" if simd is None else simd)
    return _core.simd_path()


def measure(network: str, games, kernel_positions, nodes: int, simd: bool | None, kernel=None) -> dict:
    """One configuration's figures; kernel: its kernel times when already
    taken (interleaved with the other paths of this build), else timed here."""
    if kernel is None:
        timed = kernel_ns(network, kernel_positions, (simd,))
        kernel = timed[simd] if timed else None
    path = set_path(simd)
    row = {"path": path, "kernel": kernel}
    row["bench_nps"], row["bench_nodes"] = bench_nps(network)
    row["game_nps"], row["game_nodes"], row["game_refreshes"] = game_like_nps(games, network, nodes)
    return row


def stockfish_nps(path: str):
    out = subprocess.run([path, "bench"], capture_output=True, text=True, timeout=900)
    match = re.search(r"Nodes/second\s*:\s*(\d+)", out.stdout + out.stderr)
    return int(match.group(1)) if match else None


def kernel_positions(games):
    return [_core.Position(fen) for fens in games for fen in fens[::3]]


def worker(args) -> int:
    """--worker: one measurement of this process's build, as a JSON line."""
    games = game_positions(args.games_file, args.games, args.plies)
    print(json.dumps(measure(args.worker, games, kernel_positions(games), args.nodes, None)))
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", type=int, default=4, help="games replayed (default 4)")
    parser.add_argument("--plies", type=int, default=60, help="moves searched a game (default 60)")
    parser.add_argument("--nodes", type=int, default=50000, help="nodes a move in the game-like run")
    parser.add_argument("--games-file", default=GAMES, help="PGN (.xz) of the replayed games")
    parser.add_argument("--stockfish", help="Stockfish binary to bench beside (native 15.1: ../shared/references/build.sh)")
    parser.add_argument("--build", action="append", default=[], metavar="NAME=DIR",
                        help="another checkout with its core built in place (repeatable)")
    parser.add_argument("--nnue", action="append", default=[], metavar="FILE",
                        help="also measure this build with this network (repeatable)")
    parser.add_argument("--worker", metavar="NETWORK", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        return worker(args)

    games = game_positions(args.games_file, args.games, args.plies)
    positions = kernel_positions(games)
    compiled = COMPILED or "plain (no switch)"
    configs = [(f"this build, {compiled}", SHIPPED, True)] if compiled not in ("plain", "plain (no switch)") else []
    configs.append(("this build, plain loops", SHIPPED, False))
    configs += [(f"this build, {os.path.basename(f)}", f, None) for f in args.nnue]
    rows: dict[str, list[dict]] = {}
    print(f"{len(games)} games x {args.plies} moves at {args.nodes:,} nodes a move (hash kept through a game); "
          f"kernels over {len(positions)} of their positions")
    paths = tuple(simd for _, network, simd in configs if network == SHIPPED)
    for r in range(args.rounds):
        print(f"round {r + 1}", flush=True)
        kernels = kernel_ns(SHIPPED, positions, paths)
        # A different configuration goes first each round: the machine's
        # speed drifts over minutes, and the first one would always meet it.
        for name, network, simd in configs[r % len(configs):] + configs[:r % len(configs)]:
            row = measure(network, games, positions, args.nodes, simd,
                          kernels.get(simd) if network == SHIPPED and kernels else None)
            rows.setdefault(name, []).append(row)
            print(f"  {name:34s} {describe(row)}", flush=True)
        set_path(None)
        for spec in args.build:
            name, _, folder = spec.partition("=")
            env = dict(os.environ, VIREO_SRC=os.path.join(os.path.abspath(folder), "src"), PYTHONPATH="")
            out = subprocess.run([sys.executable, os.path.abspath(__file__), "--worker", SHIPPED,
                                  "--games", str(args.games), "--plies", str(args.plies), "--nodes", str(args.nodes),
                                  "--games-file", args.games_file], capture_output=True, text=True, env=env)
            if out.returncode:
                print(f"  {name}: failed\n{out.stderr[-2000:]}")
                continue
            row = json.loads(out.stdout.strip().splitlines()[-1])
            rows.setdefault(f"build {name}", []).append(row)
            print(f"  {'build ' + name:34s} {describe(row)}", flush=True)
        if args.stockfish:
            nps = stockfish_nps(args.stockfish)
            rows.setdefault("stockfish", []).append({"bench_nps": nps})
            print(f"  {'stockfish (' + os.path.basename(args.stockfish) + ')':34s} bench {nps:,} nps", flush=True)
    summarize(rows, configs[0][0])
    return 0


def describe(row: dict) -> str:
    kernel = row.get("kernel")
    text = f"[{row['path']}] "
    if kernel:
        text += "refresh {:.0f} ns, update {:.1f} ns, output {:.1f} ns; ".format(*kernel)
    return text + (f"bench {row['bench_nps']:,.0f} nps ({row['bench_nodes']:,} nodes); "
                   f"game-like {row['game_nps']:,.0f} nps ({row['game_nodes']:,} nodes"
            + (f", {row['game_refreshes']:,} refreshes)" if row.get("game_refreshes") is not None else ")"))


def summarize(rows: dict, base: str) -> None:
    print(f"\nmedians over the rounds; ratios are {base!r} over each other configuration, per round")
    for name, runs in rows.items():
        line = f"  {name:34s}"
        if name == "stockfish":
            line += f" bench {statistics.median(r['bench_nps'] for r in runs):,.0f} nps"
        else:
            line += (f" bench {statistics.median(r['bench_nps'] for r in runs):,.0f} nps,"
                     f" game-like {statistics.median(r['game_nps'] for r in runs):,.0f} nps")
            kernels = [r["kernel"] for r in runs if r.get("kernel")]
            if kernels:
                line += ", kernels " + ", ".join(f"{k} {statistics.median(v[i] for v in kernels):.1f} ns"
                                                 for i, (k, _) in enumerate(KERNELS))
        print(line)
        if name == base:
            continue
        ratios = []
        for key in ("bench_nps", "game_nps"):
            pairs = [(a[key], b.get(key)) for a, b in zip(rows[base], runs) if b.get(key)]
            if pairs:
                ratios.append(f"{key.split('_')[0]} x{statistics.median(a / b for a, b in pairs):.2f}")
        pairs = [(a["kernel"], b["kernel"]) for a, b in zip(rows[base], runs) if a.get("kernel") and b.get("kernel")]
        for i, (k, _) in enumerate(KERNELS):
            if pairs:
                ratios.append(f"{k} x{statistics.median(b[i] / a[i] for a, b in pairs):.2f}")
        print(f"  {'':34s} {base} is faster by: " + ", ".join(ratios))


if __name__ == "__main__":
    sys.exit(main())
