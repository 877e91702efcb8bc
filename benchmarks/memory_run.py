"""Resident size of one engine process over hundreds of games, Hash resized often.

    python benchmarks/memory_run.py [--games 300] [--plies 60]

One `vireo` process plays --games fast self-play games (go nodes 3000 a
move, Threads 1-4 in turn, book off), with `setoption name Hash` set to a
new size from 1..128 MB before every game and `Clear Hash` now and then; its
VmRSS (from /proc) is read after every game. Prints the size after the first
game, the largest, and the last: bounded means the last stays near the
largest table in use, not a growth with the number of games.
"""
import argparse
import random
import sys
from pathlib import Path

import chess

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from uci_real_engine import RawEngine  # noqa: E402

SIZES_MB = [1, 8, 16, 32, 64, 128]


def rss_mb(pid):
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--plies", type=int, default=60)
    args = parser.parse_args(argv)
    rng = random.Random(7)
    engine = RawEngine()
    engine.handshake()
    engine.send("setoption name OwnBook value false")
    samples = []
    for number in range(args.games):
        engine.send(f"setoption name Hash value {rng.choice(SIZES_MB)}")
        engine.send(f"setoption name Threads value {number % 4 + 1}")
        engine.send("ucinewgame")
        board = chess.Board()
        for _ in range(rng.randrange(20, 60)):  # a random opening, then the engine plays
            board.push(rng.choice(list(board.legal_moves)))
            if board.is_game_over():
                break
        for ply in range(args.plies):
            if board.is_game_over(claim_draw=True):
                break
            if ply == 20 and number % 3 == 0:
                engine.send("setoption name Clear Hash")
            engine.send("position startpos moves " + " ".join(m.uci() for m in board.move_stack))
            engine.send("go nodes 3000")
            _, line = engine.expect("bestmove", timeout=60)
            board.push(chess.Move.from_uci(line.split()[1]))
        engine.send("isready")
        engine.expect("readyok", timeout=60)
        samples.append(rss_mb(engine.proc.pid))
    engine.close()
    print(f"games: {len(samples)}  RSS after game 1: {samples[0]:.0f} MB  largest: {max(samples):.0f} MB  "
          f"last: {samples[-1]:.0f} MB  (largest in the first half {max(samples[:len(samples) // 2]):.0f} MB, "
          f"second half {max(samples[len(samples) // 2:]):.0f} MB)")


if __name__ == "__main__":
    main()
