"""`bench` (a UCI command) and `vireo bench [depth] [hash] [threads]`: the
search's regression signature.

A fixed list of varied positions (openings, middlegames, tactics, endgames,
positions with castling, en passant and promotions) is searched to a fixed
depth with a cleared hash table, one position after another, as Stockfish's
`bench` does. The total node count is the signature: any change that should
not alter the search keeps it (tests/uci/test_bench.py pins it), and a commit that
changes it says `Bench: N` in its message. Nodes/second is the speed figure.
It evaluates as the engine does by default, with the shipped network
(`--nnue FILE`: another network; `--classical`: the hand-written evaluation,
whose signature the tests pin too).
"""
from __future__ import annotations

import sys
import time

from .. import _core
from .._core import Position, Search
from ..cpu import describe
from .network import SHIPPED_NETWORK

DEFAULT_DEPTH = 13
DEFAULT_HASH_MB = 16
DEFAULT_THREADS = 1

# Sources: the start position; the well-known perft positions (Kiwipete and
# "positions 3-6" of the Chess Programming Wiki); openings after 8 moves from
# ../shared/data/openings/8moves_v3.pgn; Bratko-Kopec and Win at Chess
# middlegames; and endgames (Lucena, Philidor, pawn races, minor-piece mates).
BENCH_POSITIONS = [
    # openings and the perft classics
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "rn1qkb1r/p4ppp/1pp1pn2/8/Q2PP3/5N2/PP1N1PPP/R1B1Kb1R w KQkq - 0 9",
    "r1bqk2r/p3npbp/1pnpp1p1/2p3B1/4P3/2NP2P1/PPP1NPBP/R2Q1RK1 w kq - 0 9",
    "r1b1kb1r/p1qn1ppp/1p2pn2/2p5/8/1Q3NP1/PP1PPPBP/RNB2RK1 w kq - 0 9",
    "r2qk2r/ppp1bppp/1nn1b3/4p3/1P6/P1N2NP1/3PPPBP/R1BQK2R w KQkq - 1 9",
    "1r1qk1nr/pp1bppbp/3p2p1/2p5/3nP3/2NPB1PP/PPP1NPB1/R2QK2R w KQk - 1 9",
    "r1bq1rk1/p2pppbp/1pn2np1/8/2P5/2N1P3/PPN1BPPP/R1BQK2R w KQ - 0 9",
    "r1bqk1nr/pp3pbp/2n1p3/2pp1P2/2B5/2N2N2/PPPP2PP/R1BQ1RK1 w kq - 0 9",
    "r1bqkb1r/pp1n1pp1/4pn1p/4P1B1/Q1Bp4/5N2/PP3PPP/RN2K2R w KQkq - 0 9",
    "r1bq1rk1/pp1nbppp/4pn2/3p4/2Pp1B2/2N1PN2/PPQ2PPP/3RKB1R w K - 0 9",
    "r1bqk2r/pp1p1ppp/2n2n2/2p5/2PPp3/P1PBP3/4NPPP/R1BQK2R w KQkq - 0 9",
    # middlegames (Bratko-Kopec, Win at Chess)
    "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1",
    "3r1k2/4npp1/1ppr3p/p6P/P2PPPP1/1NR5/5K2/2R5 w - - 0 1",
    "2q1rr1k/3bbnnp/p2p1pp1/2pPp3/PpP1P1P1/1P2BNNP/2BQ1PRK/7R b - - 0 1",
    "rnbqkb1r/p3pppp/1p6/2ppP3/3N4/2P5/PPP1QPPP/R1B1KB1R w KQkq - 0 1",
    "r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - 0 1",
    "1nk1r1r1/pp2n1pp/4p3/q2pPp1N/b1pP1P2/B1P2R2/2P1B1PP/R2Q2K1 w - - 0 1",
    "2kr1bnr/pbpq4/2n1pp2/3p3p/3P1P1B/2N2N1Q/PPP3PP/2KR1B1R w - - 0 1",
    "3rr1k1/pp3pp1/1qn2np1/8/3p4/PP1R1P2/2P1NQPP/R1B3K1 b - - 0 1",
    "2r1nrk1/p2q1ppp/bp1p4/n1pPp3/P1P1P3/2PBB1N1/4QPPP/R4RK1 w - - 0 1",
    "r2q1rk1/1ppnbppp/p2p1nb1/3Pp3/2P1P1P1/2N2N1P/PPB1QP2/R1B2RK1 b - - 0 1",
    "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
    "r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - 0 1",
    "3q1rk1/p4pp1/2pb3p/3p4/6Pr/1PNQ4/P1PB1PP1/4RRK1 b - - 0 1",
    "r3r1k1/pp1q1pp1/4b1p1/3p2B1/3Q1R2/8/PPP3PP/4R1K1 w - - 0 1",
    # endgames
    "2r3k1/pppR1pp1/4p3/4P1P1/5P2/1P4K1/P1P5/8 w - - 0 1",
    "4b3/p3kp2/6p1/3pP2p/2pP1P2/4K1P1/P3N2P/8 w - - 0 1",
    "1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1",
    "3k4/R7/8/3KP3/8/8/8/4r3 b - - 0 1",
    "8/8/1p1k4/1P6/2PK4/8/8/8 w - - 0 1",
    "8/5pk1/6p1/8/5P2/6P1/5K2/8 w - - 0 1",
    "8/8/3k4/8/8/8/8/4KBN1 w - - 0 1",
    "8/4k3/8/3PK3/8/8/8/8 w - - 0 1",
    "6k1/5p2/6p1/8/7p/8/6PP/6K1 b - - 0 1",
    "8/8/4kpp1/3p1b2/p6P/2B5/6P1/6K1 b - - 0 1",
    "7k/8/8/8/8/8/1q6/K7 w - - 0 1",
    "5rk1/1p3ppp/p7/8/8/5Q2/PPP2PPP/6K1 w - - 0 1",
]


def add_arguments(parser) -> None:
    parser.add_argument("depth", nargs="?", default=DEFAULT_DEPTH,
                        help=f"search depth in plies (default {DEFAULT_DEPTH})")
    parser.add_argument("hash", nargs="?", default=DEFAULT_HASH_MB,
                        help=f"hash table size in MB (default {DEFAULT_HASH_MB})")
    parser.add_argument("threads", nargs="?", default=DEFAULT_THREADS,
                        help=f"search threads (default {DEFAULT_THREADS})")
    parser.add_argument("--quiet", action="store_true",
                        help="print only the summary lines")
    evaluation = parser.add_mutually_exclusive_group()
    evaluation.add_argument("--nnue", metavar="FILE", default=str(SHIPPED_NETWORK),
                            help="evaluate with this network file (default: the shipped network)")
    evaluation.add_argument("--classical", action="store_true",
                            help="evaluate with the classical (hand-written) evaluation")


def run_bench(depth: int = DEFAULT_DEPTH, hash_mb: int = DEFAULT_HASH_MB,
              threads: int = DEFAULT_THREADS, report=None, nnue_file=str(SHIPPED_NETWORK)):
    """Search every bench position; returns (total nodes, elapsed seconds,
    [(fen, nodes, best move), ...]). report(index, fen, nodes, best) is
    called after each position when given. nnue_file: evaluate with that
    network (ValueError when it cannot be loaded), as the engine does by
    default; None: with the classical evaluation."""
    search = Search()
    search.set_hash(hash_mb)
    search.set_threads(threads)
    if nnue_file is not None:
        _core.load_network(nnue_file)
        search.set_option("use_nnue", True)
    total = 0
    elapsed = 0.0
    rows = []
    for index, fen in enumerate(BENCH_POSITIONS):
        search.clear_hash()
        position = Position(fen)
        start = time.perf_counter()
        best, _ = search.go(position, {"depth": depth})
        elapsed += time.perf_counter() - start
        nodes = search.nodes
        total += nodes
        rows.append((fen, nodes, best))
        if report is not None:
            report(index, fen, nodes, best)
    return total, elapsed, rows


def _positive_int(name: str, text, low: int, high: int) -> int:
    try:
        value = int(text)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be an integer, not {text!r}") from None
    if not low <= value <= high:
        raise ValueError(f"{name} must be from {low} to {high}, not {value}")
    return value


def run(args) -> int:
    try:
        depth = _positive_int("depth", args.depth, 1, 100)
        hash_mb = _positive_int("hash", args.hash, 1, 1 << 20)
        threads = _positive_int("threads", args.threads, 1, 256)
    except ValueError as exc:
        print(f"vireo bench: {exc}", file=sys.stderr)
        return 2

    def report(index, fen, nodes, best):
        if not args.quiet:
            print(f"Position {index + 1:2d}/{len(BENCH_POSITIONS)}: {fen}  nodes {nodes}  bestmove {best}",
                  flush=True)

    try:
        total, elapsed, _ = run_bench(depth, hash_mb, threads, report,
                                      None if args.classical else args.nnue)
    except (MemoryError, ValueError) as exc:
        print(f"vireo bench: {exc}", file=sys.stderr)
        return 2
    ms = max(1, int(elapsed * 1000))
    print("===========================")
    print(f"Core: {describe(_core)}")
    print(f"Total time (ms) : {ms}")
    print(f"Nodes searched: {total}")
    print(f"Nodes/second: {total * 1000 // ms}")
    return 0
