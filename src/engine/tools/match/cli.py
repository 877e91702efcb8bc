"""`vireo match`: play a match between two UCI/xboard engines."""
import argparse
import os
import random
import sys
import tempfile

from .adjudication import AdjudicationError, Tablebase, parse_draw, parse_resign
from .openings import OpeningError, OpeningSuite, parse_options
from .report import LiveReport, write_report
from .rescore import RescoreError, tally_from_pgn
from .player import quiet_engine_chatter
from .runner import MatchSettings, run_match
from .spec import SpecError, build_spec
from .sprt import SprtError, parse_sprt
from .variant import VariantError, parse_variant

EPILOG = """\
engine words (cutechess-cli style, KEY=VALUE):
  cmd=COMMAND          program (split like a shell line: cmd="python -m engine")
  name=NAME            name in tables and PGN (default: the engine's own name)
  proto=uci|xboard     protocol (default uci)
  dir=PATH             working directory;  arg=ARG  extra argument (repeatable)
  option.NAME=VALUE    engine option, e.g. option.Hash=16 option.Threads=1
  tc=[MOVES/]BASE[+INC]  clock in seconds or m:ss: 10+0.1, 40/60, 1:00+1, inf
  st=SECONDS           fixed time a move;  depth=N  fixed depth;  nodes=N  fixed nodes
  timemargin=MS        grace before a time forfeit (default 100)
  stall=SECONDS        without a clock (depth=, nodes=): no move this long loses by stall (default 60)
  Words in --each apply to both engines; an engine's own words win.
  Quote words that hold spaces: "option.Skill Level=5" cmd="python -m engine".

variant:   --variant fischerandom   Chess960 (UCI_Chess960 / xboard variant fischerandom set for
  every game); openings from --openings (e.g. FRC_openings.epd) or start positions drawn with --seed
pondering: the engine word `ponder` (e.g. --each ponder): the engine thinks on the opponent's time;
  its clock runs only from the opponent's move (ponderhit) to its bestmove, as in cutechess-cli
openings:  --openings file=PATH [format=epd|pgn] [order=sequential|random] [plies=N] [start=N]
  Each opening is played twice, colours reversed (a game pair).
adjudication:
  --resign movecount=N score=CP    both engines agree for N moves each that one side is CP behind
  --draw movenumber=M movecount=N score=CP   from move M, both engines see |score| <= CP for N moves
  --tb PATH                        Syzygy tables decide as soon as the position is in them
sprt:  --sprt elo0=E0 elo1=E1 [alpha=0.05] [beta=0.05]   stop when H0 or H1 is accepted
  (generalised SPRT on game pairs, logistic Elo, as fishtest's LLR_logistic)
  --continue OLD.pgn ...   carry on a test stopped earlier: its games count first (give another
  --seed, so the openings differ; a later --rescore OLD.pgn NEW.pgn counts them all again)

example:
  vireo match --engine cmd=/usr/games/stockfish name=sf option.Hash=16 depth=1 \\
              --engine cmd=/usr/games/fairymax proto=xboard --each tc=10+0.1 \\
              --games 100 --concurrency 16 --pgnout out.pgn \\
              --openings file=8moves_v3.pgn order=random --sprt elo0=0 elo1=5

several machines: run the same command with --shard 1/N .. N/N (same --seed), then
  vireo match --rescore part-*.pgn   (see docs/distributed.md)

Ctrl-C stops the match: finished games are counted and stay in the PGN.
Exit status: 0 done (or SPRT decided), 1 error (an engine failed to start), 2 bad arguments,
130 interrupted.
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = EPILOG
    parser.add_argument("--engine", action="append", nargs="+", metavar="KEY=VALUE", default=[],
                        help="one engine (give it twice); see the engine words below")
    parser.add_argument("--each", nargs="+", metavar="KEY=VALUE", default=[],
                        help="engine words for both engines")
    parser.add_argument("--games", type=int, default=2, help="number of games (default 2)")
    parser.add_argument("--concurrency", type=int, default=1, help="games played at once (default 1)")
    parser.add_argument("--openings", nargs="+", metavar="KEY=VALUE", help="opening suite (EPD or PGN)")
    parser.add_argument("--variant", default="standard", help="standard (default) or fischerandom "
                        "(Chess960; also chess960): openings from --openings, else drawn with --seed")
    parser.add_argument("--seed", type=int, help="seed for order=random (default: drawn and printed)")
    parser.add_argument("--pgnout", metavar="FILE", help="append finished games to this PGN file")
    parser.add_argument("--event", default="Vireo match", help="PGN Event tag")
    parser.add_argument("--resign", nargs="+", metavar="KEY=N", help="resign adjudication")
    parser.add_argument("--draw", nargs="+", metavar="KEY=N", help="draw adjudication")
    parser.add_argument("--tb", metavar="PATH", help="Syzygy tablebase folder for adjudication")
    parser.add_argument("--sprt", nargs="+", metavar="KEY=VALUE", help="SPRT parameters")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument("--shard", metavar="K/N", help="play only the K-th of N interleaved slices of the "
                        "opening pairs (one machine's share, see docs/distributed.md)")
    parser.add_argument("--continue", dest="earlier", nargs="+", metavar="PGN", default=[],
                        help="earlier games of this same test (a run stopped for time, played with another "
                             "--seed): counted first, so the SPRT decides on all games together")
    parser.add_argument("--rescore", nargs="+", metavar="PGN", help="play nothing: report on the games "
                        "in these PGN files (e.g. all shards of a match)")
    parser.add_argument("--first", metavar="NAME", help="with --rescore: the engine the score is for")
    parser.add_argument("--report", metavar="FILE", help="also write a self-contained HTML report "
                        "(result table, Elo and SPRT charts, openings, game lengths)")


def _shard(text):
    k, sep, n = (text or "1/1").partition("/")
    if not (sep and k.isdigit() and n.isdigit() and 1 <= int(k) <= int(n)):
        raise SpecError(f"--shard must be K/N with 1 <= K <= N, not {text!r}")
    return int(k), int(n)


def _settings(args) -> MatchSettings:
    if len(args.engine) != 2:
        raise SpecError(f"give --engine exactly twice (got {len(args.engine)})")
    specs = tuple(build_spec(words, args.each) for words in args.engine)
    for spec in specs:
        if not spec.has_limit():
            raise SpecError(f"engine {spec.label()} has no limit: give tc=, st=, depth= or nodes=")
        if spec.protocol == "xboard" and spec.nodes is not None and (spec.time_control or spec.movetime):
            raise SpecError(f"engine {spec.label()}: xboard cannot combine nodes= with a time limit")
    if args.games < 1:
        raise SpecError("--games must be at least 1")
    if args.concurrency < 1:
        raise SpecError("--concurrency must be at least 1")
    suite = None
    chess960 = parse_variant(args.variant)
    seed = args.seed if args.seed is not None else random.randrange(1 << 31)
    if args.openings:
        options = parse_options(args.openings)
        if options.order == "random" and args.seed is None:
            print(f"opening order seed: {seed} (repeat with --seed {seed})", file=sys.stderr)
        suite = OpeningSuite(options, seed, chess960)
    elif chess960 and args.seed is None:
        print(f"Chess960 start positions seed: {seed} (repeat with --seed {seed})", file=sys.stderr)
    if args.pgnout:
        folder = os.path.dirname(os.path.abspath(args.pgnout))
        if not os.path.isdir(folder):
            raise SpecError(f"--pgnout: no such folder {folder}")
        try:
            open(args.pgnout, "a").close()
        except OSError as exc:
            raise SpecError(f"--pgnout: cannot write {args.pgnout}: {exc.strerror or exc}") from None
    return MatchSettings(
        engines=specs, games=args.games, concurrency=args.concurrency, openings=suite,
        pgn_path=args.pgnout, event=args.event,
        resign=parse_resign(args.resign) if args.resign else None,
        draw=parse_draw(args.draw) if args.draw else None,
        tablebase=Tablebase(args.tb) if args.tb else None,
        sprt=parse_sprt(args.sprt) if args.sprt else None,
        progress=not args.no_progress, shard=_shard(args.shard), chess960=chess960, seed=seed,
        earlier=tuple(args.earlier))


def _rescore(args) -> int:
    if args.engine:
        print("vireo match: --rescore plays nothing; leave out --engine", file=sys.stderr)
        return 2
    try:
        sprt = parse_sprt(args.sprt) if args.sprt else None
        tally = tally_from_pgn(args.rescore, args.first)
    except (RescoreError, SprtError) as exc:
        print(f"vireo match: {exc}", file=sys.stderr)
        return 2
    print(tally.report(sprt))
    return _write_report(args.report, args.rescore, tally.first, sprt)


def _write_report(path, pgn_paths, first, sprt) -> int:
    if not path:
        return 0
    try:
        write_report(path, pgn_paths, first, sprt)
    except (RescoreError, OSError) as exc:
        print(f"vireo match: --report: {exc}", file=sys.stderr)
        return 1
    print(f"Report: {path}")
    return 0


def run(args) -> int:
    quiet_engine_chatter()
    if args.rescore:
        return _rescore(args)
    if args.report and not args.pgnout:  # the report is built from the games' PGN
        with tempfile.NamedTemporaryFile(prefix="vireo-match-", suffix=".pgn", delete=False) as handle:
            args.pgnout = handle.name
        try:
            return _play(args, keep_pgn=False)
        finally:
            os.unlink(args.pgnout)
    return _play(args, keep_pgn=True)


def _play(args, keep_pgn: bool) -> int:
    try:
        settings = _settings(args)
    except (SpecError, OpeningError, AdjudicationError, SprtError, VariantError) as exc:
        print(f"vireo match: {exc}", file=sys.stderr)
        return 2
    if args.report:
        settings.on_game = LiveReport(args.report, settings.pgn_path, settings.sprt)
    try:
        outcome = run_match(settings)
    finally:
        if settings.tablebase:
            settings.tablebase.close()
    if outcome.error:
        print(f"vireo match: {outcome.error}", file=sys.stderr)
    if outcome.tally.games or outcome.stop_reason != "error":
        names = (outcome.tally.first, outcome.tally.second)
        limits = " vs ".join(f"{n}: {s.limit_text()}" for n, s in zip(names, settings.engines))
        print(outcome.tally.report(settings.sprt))
        status = {"completed": "finished", "sprt": "stopped by SPRT", "interrupted": "interrupted",
                  "error": "stopped by an error"}[outcome.stop_reason]
        print(f"Match {status} after {outcome.seconds:.1f} s ({limits}, concurrency {settings.concurrency})")
        if settings.pgn_path and keep_pgn:
            print(f"PGN: {settings.pgn_path}")
    status = {"completed": 0, "sprt": 0, "interrupted": 130, "error": 1}[outcome.stop_reason]
    if outcome.tally.games:
        status = max(status, _write_report(args.report, [settings.pgn_path], outcome.tally.first, settings.sprt))
    return status
