"""How much does a Syzygy probe cost? Prints probes per second.

    PYTHONPATH=src python -m engine.tools.syzygy_bench [--path DIR] [--positions N]

It draws random legal 3- and 4-piece positions (fixed seed), then times
  * Tablebases.probe_wdl   (what a search callback would call),
  * chess.syzygy directly  (the library's own cost, for comparison),
  * Tablebases.rank_root_moves (the once-per-move root ranking).
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path
from typing import List, Sequence

import chess

from engine.syzygy.tables import TablebaseError, Tablebases

DEFAULT_SYZYGY = Path(__file__).resolve().parents[4] / "shared" / "data" / "syzygy"
MATERIALS = ("KQvK", "KRvK", "KPvK", "KBNvK", "KQvKR", "KRvKR", "KPvKP", "KRPvK")


def random_endgame(rng: random.Random, material: str, turn: chess.Color = None) -> chess.Board:
    """A random legal position with the given material ("KRPvK": white K, R, P against black K),
    no castling rights, no en passant, halfmove clock 0; the side to move is random unless given."""
    white, black = material.split("v")
    while True:
        board = chess.Board(None)
        squares = rng.sample(chess.SQUARES, len(white) + len(black))
        for letter, square in zip(white + black.lower(), squares):
            piece = chess.Piece.from_symbol(letter)
            if piece.piece_type == chess.PAWN and chess.square_rank(square) in (0, 7):
                break
            board.set_piece_at(square, piece)
        else:
            board.turn = rng.choice((chess.WHITE, chess.BLACK)) if turn is None else turn
            if board.is_valid():
                return board


def random_endgames(count: int, seed: int = 1, materials: Sequence[str] = MATERIALS) -> List[chess.Board]:
    rng = random.Random(seed)
    return [random_endgame(rng, materials[i % len(materials)]) for i in range(count)]


def _rate(calls: int, seconds: float) -> str:
    return f"{calls / seconds:,.0f}/s ({seconds * 1e6 / calls:.1f} us each)"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--path", default=str(DEFAULT_SYZYGY),
                        help=f"SyzygyPath (directories separated by {os.pathsep!r})")
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5, help="passes over the positions (first one warms the cache)")
    args = parser.parse_args(argv)
    try:
        tb = Tablebases.open(args.path)
    except TablebaseError as exc:
        print(f"tablebase_bench: {exc}", file=sys.stderr)
        return 1
    boards = random_endgames(args.positions)
    print(f"{tb.summary()}; {len(boards)} random positions of {', '.join(MATERIALS)}")

    for board in boards:  # warm up: open and map every table once
        tb.probe_wdl(board)
    start = time.perf_counter()
    for _ in range(args.rounds):
        for board in boards:
            tb.probe_wdl(board)
    print(f"probe_wdl (Tablebases):      {_rate(args.rounds * len(boards), time.perf_counter() - start)}")

    raw = tb._tables
    start = time.perf_counter()
    for _ in range(args.rounds):
        for board in boards:
            raw.probe_wdl(board)
    print(f"probe_wdl (chess.syzygy):    {_rate(args.rounds * len(boards), time.perf_counter() - start)}")

    refused = chess.Board()  # too many pieces: must cost next to nothing
    start = time.perf_counter()
    for _ in range(args.rounds * len(boards)):
        tb.probe_wdl(refused)
    print(f"probe_wdl refusal (32 men):  {_rate(args.rounds * len(boards), time.perf_counter() - start)}")

    sample = boards[: max(1, len(boards) // 10)]
    start = time.perf_counter()
    for board in sample:
        tb.probe_dtz(board)
    print(f"probe_dtz:                   {_rate(len(sample), time.perf_counter() - start)}")
    start = time.perf_counter()
    for board in sample:
        tb.rank_root_moves(board)
    print(f"rank_root_moves:             {_rate(len(sample), time.perf_counter() - start)}")
    tb.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
