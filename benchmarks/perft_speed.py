"""Perft speed: Vireo against Stockfish's `go perft`, same machine, same run.

    python benchmarks/perft_speed.py [--repeat 3] [--stockfish /usr/games/stockfish]

Prints nodes/s for the start position at depth 6 and Kiwipete at depth 5
(both bulk-counted at the last ply, as Stockfish does), Stockfish's figure
for the same positions when it is installed (Debian package `stockfish`),
and the ratio. The best of --repeat runs is kept for each engine, since the
machines are shared and noisy.
"""
import argparse
import shutil
import subprocess
import time

from engine._core import Position

POSITIONS = [
    ("startpos", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5),
]


def vireo_perft(fen, depth):
    pos = Position(fen)
    start = time.perf_counter()
    nodes = pos.perft(depth)
    return nodes, time.perf_counter() - start


def stockfish_perft(binary, fen, depth):
    """Nodes and seconds of Stockfish's `go perft`, timed from the command to its answer."""
    proc = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    proc.stdin.write(f"uci\nisready\nposition fen {fen}\n")
    proc.stdin.flush()
    while proc.stdout.readline().strip() != "readyok":
        pass
    start = time.perf_counter()
    proc.stdin.write(f"go perft {depth}\n")
    proc.stdin.flush()
    nodes = None
    for line in proc.stdout:
        if line.startswith("Nodes searched:"):
            nodes = int(line.split(":")[1])
            break
    elapsed = time.perf_counter() - start
    proc.stdin.write("quit\n")
    proc.stdin.flush()
    proc.wait(timeout=10)
    return nodes, elapsed


def best_of(repeat, run):
    results = [run() for _ in range(repeat)]
    return min(results, key=lambda r: r[1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--stockfish", default=shutil.which("stockfish") or shutil.which("stockfish", path="/usr/games"))
    args = parser.parse_args()
    print(f"{'position':10} {'depth':>5} {'nodes':>12} {'vireo Mn/s':>11} {'stockfish Mn/s':>15} {'ratio':>6}")
    for name, fen, depth in POSITIONS:
        nodes, secs = best_of(args.repeat, lambda: vireo_perft(fen, depth))
        ours = nodes / secs / 1e6
        theirs = ratio = "-"
        if args.stockfish:
            sf_nodes, sf_secs = best_of(args.repeat, lambda: stockfish_perft(args.stockfish, fen, depth))
            if sf_nodes != nodes:
                raise SystemExit(f"node counts differ: vireo {nodes}, stockfish {sf_nodes}")
            theirs = f"{sf_nodes / sf_secs / 1e6:.1f}"
            ratio = f"{ours / (sf_nodes / sf_secs / 1e6):.2f}"
        print(f"{name:10} {depth:>5} {nodes:>12} {ours:>11.1f} {theirs:>15} {ratio:>6}")
    if not args.stockfish:
        print("stockfish not found: install Debian's `stockfish` package for the reference figure")


if __name__ == "__main__":
    main()
