"""`vireo book build OUT.bin ...` and `vireo book probe [BOOK.bin] [--fen FEN]`."""
from __future__ import annotations

import os
import sys

import chess
import chess.engine
import chess.polyglot

from engine.book.probe import DEFAULT_BOOK_PATH, BookError, OpeningBook
from engine.book.build import BookBuildError, build_book
from engine.book.verify import Verifier


def add_arguments(parser) -> None:
    sub = parser.add_subparsers(dest="book_command", metavar="ACTION")

    build = sub.add_parser("build", help="build a Polyglot book from PGN games and/or lichess opening TSVs",
                           description="Weights: 2 points per win, 1 per draw or unknown result, for the "
                                       "side that moved, summed over games; an opening-list line counts "
                                       "as one drawn game.")
    build.add_argument("out", metavar="OUT.bin", help="the book to write")
    build.add_argument("--pgn", action="extend", nargs="+", default=[], metavar="FILE",
                       help="PGN files (main lines only)")
    build.add_argument("--tsv", action="extend", nargs="+", default=[], metavar="FILE",
                       help="lichess chess-openings TSV files (columns eco, name, pgn)")
    build.add_argument("--max-plies", type=int, default=None, metavar="N",
                       help="use only the first N plies of each game or line")
    build.add_argument("--min-games", type=int, default=1, metavar="N",
                       help="leave out moves seen in fewer than N games or lines (default 1)")
    build.add_argument("--verify-depth", type=int, default=None, metavar="D",
                       help="judge every move with Vireo's search at depth D: keep it only within "
                            "--verify-margin of the best move, weight it by its score (engine/book/verify.py)")
    build.add_argument("--verify-margin", type=int, default=50, metavar="CP",
                       help="with --verify-depth: most centipawns behind the best move (default 50)")
    build.add_argument("--recheck-depth", type=int, default=None, metavar="D",
                       help="with --verify-depth: judge the moves that pass again at this deeper depth "
                            "and keep only those within --recheck-margin there")
    build.add_argument("--recheck-margin", type=int, default=None, metavar="CP",
                       help="with --recheck-depth: most centipawns behind the best move there "
                            "(default: --verify-margin)")
    build.add_argument("--recheck-engine", default=None, metavar="COMMAND",
                       help="with --recheck-depth: a UCI engine (e.g. /usr/games/stockfish) judges the "
                            "recheck instead of Vireo's search, in its centipawns (engine/book/judge.py)")
    build.add_argument("--recheck-cache", default=None, metavar="FILE",
                       help="with --recheck-engine: keep the engine's verdicts in this file (JSON lines) "
                            "and read them back instead of searching again; the book comes out the same")
    build.add_argument("--workers", type=int, default=1, metavar="N",
                       help="with --verify-depth: judge N positions at once, each in its own process "
                            "(and with its own recheck engine); the book comes out the same (default 1)")
    build.add_argument("--verbose", action="store_true", help="list every skipped game or line")

    probe = sub.add_parser("probe", help="list the book moves of a position",
                           description="List the book moves of a position with their weights.")
    probe.add_argument("book", metavar="BOOK.bin", nargs="?", default=str(DEFAULT_BOOK_PATH),
                       help="the book (default: the book shipped with the engine)")
    probe.add_argument("--fen", default=chess.STARTING_FEN, help="the position (default: the start position)")


def run(args) -> int:
    try:
        if args.book_command == "build":
            return _build(args)
        if args.book_command == "probe":
            return _probe(args)
    except BrokenPipeError:
        # The reader went away (`vireo book probe | head`): not an error. Point stdout
        # at /dev/null so the interpreter's final flush does not complain either.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    print("vireo book: say `build` or `probe` (see vireo book --help)", file=sys.stderr)
    return 2


def _build(args) -> int:
    if not args.pgn and not args.tsv:
        print("vireo book build: give at least one input (--pgn FILE or --tsv FILE)", file=sys.stderr)
        return 2
    if args.max_plies is not None and args.max_plies < 1:
        print("vireo book build: --max-plies must be at least 1", file=sys.stderr)
        return 2
    if args.min_games < 1:
        print("vireo book build: --min-games must be at least 1", file=sys.stderr)
        return 2
    verifier = None
    if args.workers != 1 and args.verify_depth is None:
        print("vireo book build: --workers needs --verify-depth (only the judging runs in parallel)", file=sys.stderr)
        return 2
    if args.verify_depth is not None:
        if not 1 <= args.verify_depth <= 60 or args.verify_margin < 0:
            print("vireo book build: --verify-depth must be 1..60 and --verify-margin not negative", file=sys.stderr)
            return 2
        recheck_margin = args.verify_margin if args.recheck_margin is None else args.recheck_margin
        if args.recheck_depth is not None and not (args.verify_depth < args.recheck_depth <= 60
                                                   and recheck_margin >= 0):
            print("vireo book build: --recheck-depth must exceed --verify-depth (at most 60) and "
                  "--recheck-margin not be negative", file=sys.stderr)
            return 2
        if args.recheck_cache is not None and args.recheck_engine is None:
            print("vireo book build: --recheck-cache needs --recheck-engine", file=sys.stderr)
            return 2
        if not 1 <= args.workers <= 256:
            print("vireo book build: --workers must be 1..256", file=sys.stderr)
            return 2
        if args.recheck_engine is not None and args.recheck_depth is None:
            print("vireo book build: --recheck-engine needs --recheck-depth", file=sys.stderr)
            return 2
        try:
            verifier = Verifier(args.verify_depth, args.verify_margin, recheck_depth=args.recheck_depth,
                                recheck_margin=recheck_margin, recheck_engine=args.recheck_engine,
                                recheck_cache=args.recheck_cache, workers=args.workers)
        except (OSError, chess.engine.EngineError) as exc:
            print(f"vireo book build: cannot start the recheck engine {args.recheck_engine!r}: {exc}",
                  file=sys.stderr)
            return 2
    elif (args.recheck_depth is not None or args.recheck_margin is not None or args.recheck_engine
          or args.recheck_cache):
        print("vireo book build: --recheck-depth needs --verify-depth", file=sys.stderr)
        return 2
    try:
        count, builder = build_book(args.out, pgn_files=args.pgn, tsv_files=args.tsv,
                                    max_plies=args.max_plies, min_games=args.min_games, judge=verifier)
    except BookBuildError as exc:
        print(f"vireo book build: {exc}", file=sys.stderr)
        return 1
    finally:
        if verifier is not None:
            verifier.close()
    for problem in builder.problems if args.verbose else builder.problems[:5]:
        print(f"skipped: {problem}", file=sys.stderr)
    if len(builder.problems) > 5 and not args.verbose:
        print(f"... {len(builder.problems) - 5} more skipped (--verbose lists them)", file=sys.stderr)
    print(f"{args.out}: {count} entries from {builder.lines_added} games/lines")
    if verifier is not None:
        print(f"verified at depth {verifier.depth} in {verifier.positions} positions: kept {verifier.kept} moves "
              f"within {verifier.margin} cp of the best, dropped {verifier.dropped}")
        if verifier.recheck_depth is not None:
            judge = verifier.recheck_engine or "Vireo"
            print(f"of those dropped, {verifier.dropped_by_recheck} failed the recheck by {judge} at depth "
                  f"{verifier.recheck_depth} (more than {verifier.recheck_margin} cp behind)")
    if count == 0:
        print("vireo book build: the book is empty (no move passed the filters)", file=sys.stderr)
        return 1
    return 0


def _probe(args) -> int:
    try:
        board = chess.Board(args.fen)
    except ValueError as exc:
        print(f"vireo book probe: bad FEN {args.fen!r}: {exc}", file=sys.stderr)
        return 2
    try:
        with OpeningBook.open(args.book) as book:
            moves = book.moves(board)
            size = len(book)
    except BookError as exc:
        print(f"vireo book probe: {exc}", file=sys.stderr)
        return 1
    print(f"{args.book}: {size} entries; key {chess.polyglot.zobrist_hash(board):016x}")
    if not moves:
        print("no book moves for this position")
        return 0
    total = sum(m.weight for m in moves)
    for m in moves:
        print(f"{m.move.uci():7s} {board.san(m.move):8s} weight {m.weight:6d}  {100.0 * m.weight / total:5.1f}%")
    return 0
