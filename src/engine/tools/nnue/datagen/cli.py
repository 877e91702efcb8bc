"""`vireo datagen`: self-play training data (kept games, OUT.games.xz, or
Marlinformat records, OUT.bin), PGN import, and conversions."""
from __future__ import annotations

import shlex
import signal
import sys
from pathlib import Path

from engine.syzygy.tables import TablebaseError

from ..convert import ConversionError, convert
from ..games.files import SUFFIX, is_games_file, write_games
from ..games.layout import GameFormatError
from ..games.pgn import PgnImportError, import_pgn
from .adjudication import AdjudicationRules
from .game import SCORE_RULES, GameSettings
from .journal import JournalError
from .run import RunConfig, missing_below_last, run as run_games
from .starts import StartSettings, StartsError, read_openings
from .stop_signals import handlers_swapped, raise_interrupt



def add_arguments(parser):
    parser.add_argument("output", nargs="?",
                        help="output file: NAME.games.xz keeps whole games (the compact format, "
                             "docs/selfplay.md), NAME.bin Marlinformat records; resumes a killed run")
    parser.add_argument("--games", type=int, default=1000, help="games in the whole run, all shards (default 1000)")
    parser.add_argument("--nodes", type=int, default=5000, help="nodes per move (default 5000): with --scores completed no new "
                        "iteration starts past it")
    parser.add_argument("--workers", type=int, default=1, help="processes playing games (default 1)")
    parser.add_argument("--seed", type=int, default=0, help="the run's seed: same seed, same games")
    parser.add_argument("--shard", default="1/1", metavar="K/N",
                        help="play the K-th of N equal parts of the run (one per machine)")
    parser.add_argument("--openings", action="append", default=[], metavar="FILE",
                        help="EPD/FEN file of start positions (repeatable); half the games start "
                             "from one of them, half from the start position")
    parser.add_argument("--chess960", action="store_true", help="start from Chess960 positions")
    parser.add_argument("--random-plies", type=int, default=8,
                        help="random moves from the start position (default 8; 4 after an opening line)")
    parser.add_argument("--skip-plies", type=int, default=8,
                        help="keep no position from the game's first searched plies (default 8)")
    parser.add_argument("--hash", type=int, default=16, help="hash table MB per worker (default 16)")
    parser.add_argument("--scores", choices=SCORE_RULES, default="completed",
                        help="completed (default): --nodes is a soft limit and each score comes from "
                             "a completed iteration; last: stop at --nodes inside an iteration and "
                             "keep its last line (runs made before 2026-12-06; needed to resume them)")
    parser.add_argument("--syzygy", metavar="PATH", help="adjudicate positions in these Syzygy tables")
    parser.add_argument("--eval-file", metavar="PATH",
                        help="search with this NNUE network (needs a core with NNUE inference)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument("--convert", nargs=2, metavar=("IN", "OUT"),
                        help="convert instead: Marlinformat <-> FEN;score;result text (.txt/.txt.gz), or "
                             "a .games.xz file -> the positions it trains on, as records or text")
    parser.add_argument("--from-pgn", nargs="+", metavar="IN.pgn",
                        help="instead of playing, keep these PGN games (.pgn, .pgn.gz, .pgn.xz; scores "
                             "from move comments like {+0.31/14 0.26s}) in OUT.games.xz")


def _fail(message: str) -> int:
    print(f"vireo datagen: {message}", file=sys.stderr)
    return 2


def _shard(text: str):
    try:
        k, n = (int(x) for x in text.split("/"))
    except ValueError:
        raise ValueError(f"--shard {text!r} is not K/N") from None
    if not 1 <= k <= n:
        raise ValueError(f"--shard {text!r}: K must be in 1..N")
    return k, n


def config_from(args) -> RunConfig:
    for name in ("games", "nodes", "workers", "hash"):
        if getattr(args, name) < 1:
            raise ValueError(f"--{name} must be at least 1")
    if args.random_plies < 0 or not 0 <= args.skip_plies <= 255:
        raise ValueError("--random-plies must not be negative, --skip-plies must be in 0..255")
    for path in filter(None, [args.eval_file]):
        if not Path(path).is_file():
            raise ValueError(f"--eval-file {path}: no such file")
    shard, shards = _shard(args.shard)
    starts = StartSettings(openings=tuple(read_openings(args.openings)), chess960=args.chess960,
                           random_plies=args.random_plies,
                           opening_random_plies=min(args.random_plies, StartSettings.opening_random_plies))
    return RunConfig(games=args.games, seed=args.seed, shard=shard, shards=shards, workers=args.workers,
                     hash_mb=args.hash, game=GameSettings(nodes=args.nodes, skip_plies=args.skip_plies,
                                                       scores=args.scores),
                     starts=starts, rules=AdjudicationRules(), syzygy=args.syzygy, eval_file=args.eval_file)


def output_kind(name: str) -> str:
    if is_games_file(name):
        return "games"
    if name.endswith(".bin"):
        return "records"
    raise ValueError(f"{name}: name the output NAME{SUFFIX} (whole games, compact) or NAME.bin "
                     f"(Marlinformat records)")


def from_pgn(args) -> int:
    if not is_games_file(args.output):
        return _fail(f"--from-pgn writes kept games: name the output NAME{SUFFIX}")
    if not 0 <= args.skip_plies <= 255:
        return _fail("--skip-plies must be in 0..255")
    try:
        raw, counts = import_pgn(args.from_pgn, args.skip_plies)
        if not counts.games:
            return _fail(f"no usable game in {' '.join(args.from_pgn)} ({counts.skipped} skipped)")
        write_games(args.output, raw)
    except (PgnImportError, GameFormatError, OSError) as exc:
        return _fail(str(exc))
    print(f"{counts.games} games, {counts.moves} moves ({counts.scored} with a score), "
          f"{counts.positions} positions to train on in {args.output}; "
          f"{counts.skipped} games skipped (unfinished or unreadable)")
    return 0


def run(args) -> int:
    if args.from_pgn:
        if not args.output:
            return _fail("an output file NAME.games.xz is needed before --from-pgn")
        return from_pgn(args)
    if args.convert:
        try:
            count = convert(*args.convert)
        except (ConversionError, GameFormatError, OSError) as exc:
            return _fail(str(exc))
        print(f"{count} positions: {args.convert[0]} -> {args.convert[1]}")
        return 0
    if not args.output:
        return _fail("an output file is needed (or --convert IN OUT)")
    try:
        output_kind(args.output)
        config = config_from(args)
        given = sys.argv[sys.argv.index("datagen") + 1:] if "datagen" in sys.argv else []
        command = "vireo datagen " + " ".join(shlex.quote(a) for a in given)
        # SIGTERM (`kill PID`, a job launcher's stop) ends the run as Ctrl-C does
        with handlers_swapped(raise_interrupt, (signal.SIGTERM,)):
            journal = run_games(config, args.output, progress=not args.quiet, command=command)
    except (ValueError, StartsError, JournalError, TablebaseError, OSError, RuntimeError) as exc:
        return _fail(str(exc))
    print(f"{journal.records} positions from {len(journal.done)} games in {args.output}")
    top, missing = missing_below_last(config, journal.done)
    if missing:
        print(f"missing below game {top}: {len(missing)} of this shard's games (games finish out of order); "
              f"the same command with --games {top} plays just those, and {args.output} then holds "
              f"every one of its games below {top}")
    if journal.stopped:
        print("stopped: the same command goes on from here")
        return 130
    return 0

