"""`vireo perft`: count move-tree leaves for one position or check a whole suite.

    vireo perft --fen FEN --depth N [--divide] [--chess960]
    vireo perft --suite FILE [--max-depth N]

Exit status: 0 when everything matches, 1 on any mismatch, 2 on bad input
(unreadable FEN, file or suite line).
"""
import sys
import time

from tqdm import tqdm

from engine.tools.perft_suite import SuiteError, read_suite

START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def add_arguments(parser):
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--fen", default=None, help="position (default: the start position)")
    what.add_argument("--suite", metavar="FILE", help="EPD-style suite: 'FEN ;D1 n ;D2 n ...' per line")
    parser.add_argument("--depth", type=int, default=None, help="depth for --fen (default 5)")
    parser.add_argument("--max-depth", type=int, default=None, help="skip suite entries deeper than this")
    parser.add_argument("--divide", action="store_true", help="print the count below each root move")
    parser.add_argument("--chess960", action="store_true",
                        help="print castling as king-takes-rook (counts are the same either way)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


def run(args):
    from engine._core import Position
    if args.suite:
        return run_suite(Position, args)
    depth = 5 if args.depth is None else args.depth
    if depth < 0:
        print("vireo perft: --depth must be >= 0", file=sys.stderr)
        return 2
    try:
        pos = Position(args.fen or START_FEN, chess960=True)
    except ValueError as exc:
        print(f"vireo perft: bad FEN: {exc}", file=sys.stderr)
        return 2
    pos.chess960 = args.chess960
    start = time.perf_counter()
    if args.divide and depth >= 1:
        counts = pos.divide(depth)
        for move in sorted(counts):
            print(f"{move}: {counts[move]}")
        nodes = sum(counts.values())
        print()
    else:
        nodes = pos.perft(depth)
    elapsed = time.perf_counter() - start
    print(f"Nodes searched: {nodes}")
    print(f"Time: {elapsed:.3f} s")
    print(f"Nodes/second: {nodes / elapsed if elapsed > 0 else 0:.0f}")
    return 0


def run_suite(Position, args):
    try:
        cases = read_suite(args.suite)
    except (OSError, UnicodeDecodeError) as exc:
        print(f"vireo perft: cannot read {args.suite}: {exc}", file=sys.stderr)
        return 2
    except SuiteError as exc:
        print(f"vireo perft: {args.suite}: {exc}", file=sys.stderr)
        return 2
    work = []
    for case in cases:
        depths = [d for d in sorted(case.expected) if args.max_depth is None or d <= args.max_depth]
        if depths:
            work.append((case, depths))
    failures = unreadable = 0
    nodes = 0
    start = time.perf_counter()
    bar = tqdm(total=sum(len(d) for _, d in work), unit="test", disable=args.no_progress,
               file=sys.stderr, dynamic_ncols=True)
    for case, depths in work:
        try:
            pos = Position(case.fen, chess960=True)
        except ValueError as exc:
            unreadable += 1
            bar.write(f"line {case.line_number}: bad FEN {case.fen!r}: {exc}")
            bar.update(len(depths))
            continue
        for depth in depths:
            got = pos.perft(depth)
            nodes += got
            if got != case.expected[depth]:
                failures += 1
                bar.write(f"FAIL {case.fen} depth {depth}: expected {case.expected[depth]}, got {got}")
            bar.update(1)
            bar.set_postfix(failures=failures, refresh=False)
    bar.close()
    elapsed = time.perf_counter() - start
    print(f"Positions: {len(work)}  Nodes: {nodes}  Failures: {failures}  "
          f"Unreadable: {unreadable}  Time: {elapsed:.2f} s  "
          f"Nodes/second: {nodes / elapsed if elapsed > 0 else 0:.0f}")
    if unreadable:
        return 2
    return 1 if failures else 0
