"""Win at Chess (or any bm/am EPD) at a fixed time per position: vireo's core
next to a reference UCI engine (Ethereal by default), same time, one thread.

    PYTHONPATH=src python benchmarks/wac_compare.py                  # 1 s a position, all 300
    PYTHONPATH=src python benchmarks/wac_compare.py --ms 200 --limit 100
    PYTHONPATH=src python benchmarks/wac_compare.py --reference none  # vireo alone

A position counts as solved when the move played after the full time is one
of the `bm` moves (or none of the `am` moves). Vireo runs in-process through
engine._core.Search with a 64 MB table cleared before each position; the
reference runs through python-chess's UCI client with Hash 64 and Threads 1.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import chess
import chess.engine

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
DEFAULT_EPD = ROOT.parent / "shared" / "data" / "epd" / "wac.epd"


def load(path: Path, limit: int):
    items = []
    for line in path.read_text().splitlines():
        if line.strip():
            board = chess.Board()
            ops = board.set_epd(line)
            items.append((board, ops))
    return items[:limit]


def solved(ops, move) -> bool:
    if "bm" in ops:
        return move in ops["bm"]
    return "am" in ops and move not in ops["am"]


def run_vireo(items, ms: int):
    from engine._core import Position, Search

    search = Search()
    search.set_hash(64)
    failed = []
    for board, ops in items:
        search.clear_hash()
        best, _ = search.go(Position(board.fen()), {"movetime": ms})
        if not solved(ops, chess.Move.from_uci(best)):
            failed.append(ops.get("id", board.fen()))
    return len(items) - len(failed), failed


def run_reference(path: str, items, ms: int):
    engine = chess.engine.SimpleEngine.popen_uci(path)
    try:
        options = {name: value for name, value in (("Hash", 64), ("Threads", 1)) if name in engine.options}
        engine.configure(options)
        failed = []
        for board, ops in items:
            # A new game object each time: python-chess sends ucinewgame (cleared hash).
            result = engine.play(board, chess.engine.Limit(time=ms / 1000), game=object())
            if not solved(ops, result.move):
                failed.append(ops.get("id", board.fen()))
        return len(items) - len(failed), failed
    finally:
        engine.quit()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--epd", type=Path, default=DEFAULT_EPD)
    parser.add_argument("--ms", type=int, default=1000, help="milliseconds a position (default 1000)")
    parser.add_argument("--limit", type=int, default=10 ** 6, help="first N positions only")
    parser.add_argument("--reference", default="/usr/games/ethereal-chess",
                        help="UCI engine to compare with, or 'none'")
    parser.add_argument("--show-failed", action="store_true")
    args = parser.parse_args(argv)
    items = load(args.epd, args.limit)
    start = time.time()
    score, failed = run_vireo(items, args.ms)
    print(f"vireo: {score}/{len(items)} at {args.ms} ms ({time.time() - start:.0f} s)", flush=True)
    if args.show_failed:
        print("  failed:", " ".join(failed))
    if args.reference != "none" and os.path.exists(args.reference):
        start = time.time()
        score, failed = run_reference(args.reference, items, args.ms)
        print(f"{Path(args.reference).name}: {score}/{len(items)} at {args.ms} ms ({time.time() - start:.0f} s)")
        if args.show_failed:
            print("  failed:", " ".join(failed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
