"""`vireo analyse`: annotate games with an engine's evaluations, marks and better lines."""
import argparse
import shlex
import sys

import chess.engine

from ..match.player import quiet_engine_chatter
from ..match.spec import SpecError, build_spec
from .annotate import annotated_game
from .games import read_games
from .runner import AnalysisSettings, Outcome, analyse_games

DEFAULT_DEPTH = 14

EPILOG = f"""\
The engine (default: Vireo itself, run as a UCI engine) takes the words of `vireo match --engine`:
  cmd=COMMAND  name=NAME  dir=PATH  arg=ARG  option.NAME=VALUE  depth=N  nodes=N  st=SECONDS
  e.g. --engine cmd=/usr/games/stockfish option.Hash=64 option.Threads=1
Its opening book is switched off (OwnBook false); UCI_ShowWDL is switched on where offered.
Limit per position: --depth, --nodes or --time (default: depth {DEFAULT_DEPTH}, or the engine's depth=/nodes=/st=).

Each move gets [%eval] (and [%wdl]) in its comment; ?! ? ?? mark moves that lose 5, 10, 15
points of win probability (lichess's formula); mistakes and blunders get the engine's better line;
the WhiteAccuracy, BlackAccuracy, WhiteACPL and BlackACPL tags sum each side up (docs/analysis.md).

Without --output the annotated games go to standard output.
Ctrl-C stops: the games already analysed are written.
Exit status: 0 all analysed, 1 a file, game or engine failed (the other games are still written),
2 bad arguments, 130 interrupted.
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = EPILOG
    parser.add_argument("pgn", nargs="+", metavar="GAMES.pgn", help="PGN files with the games to analyse")
    limit = parser.add_mutually_exclusive_group()
    limit.add_argument("--depth", type=int, help="search each position to this depth")
    limit.add_argument("--nodes", type=int, help="search each position this many nodes")
    limit.add_argument("--time", type=float, metavar="S", help="search each position S seconds")
    parser.add_argument("--multipv", type=int, default=1, metavar="K",
                        help="lines searched per position; at a mistake up to K better lines are shown (default 1)")
    parser.add_argument("--concurrency", type=int, default=1, metavar="N",
                        help="games analysed at once, one engine process each (default 1)")
    parser.add_argument("--engine", nargs="+", metavar="KEY=VALUE", default=[],
                        help="the engine, as in vireo match (default: Vireo)")
    parser.add_argument("--output", "-o", metavar="ANNOTATED.pgn", help="write the annotated games here")
    parser.add_argument("--report", metavar="REPORT.html", help="also write a self-contained HTML report")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


def _settings(args) -> AnalysisSettings:
    default = f"cmd={shlex.quote(sys.executable)} -m engine"
    spec = build_spec([default] + list(args.engine))
    if spec.time_control is not None:
        raise SpecError("tc= means nothing to an analysis: give depth=, nodes= or st= (or --depth ...)")
    for flag, value in (("--depth", args.depth), ("--nodes", args.nodes), ("--multipv", args.multipv),
                        ("--concurrency", args.concurrency)):
        if value is not None and value < 1:
            raise SpecError(f"{flag} must be at least 1")
    if args.time is not None and not args.time > 0:
        raise SpecError("--time must be above 0 seconds")
    if args.depth or args.nodes or args.time:
        limit = chess.engine.Limit(depth=args.depth, nodes=args.nodes, time=args.time)
    elif spec.has_limit():
        limit = chess.engine.Limit(depth=spec.depth, nodes=spec.nodes, time=spec.movetime)
    else:
        limit = chess.engine.Limit(depth=DEFAULT_DEPTH)
    return AnalysisSettings(spec, limit, args.multipv, args.concurrency, not args.no_progress)


def limit_text(limit: chess.engine.Limit) -> str:
    parts = [f"depth {limit.depth}" if limit.depth else "", f"{limit.nodes} nodes" if limit.nodes else "",
             f"{limit.time:g} s" if limit.time else ""]
    return ", ".join(p for p in parts if p)


def _write(outcome: Outcome, annotator: str, path) -> None:
    text = "".join(str(annotated_game(r, annotator)) + "\n\n" for r in outcome.in_order())
    if path:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
    else:
        sys.stdout.write(text)
        sys.stdout.flush()


def run(args) -> int:
    quiet_engine_chatter()
    try:
        settings = _settings(args)
    except SpecError as exc:
        print(f"vireo analyse: {exc}", file=sys.stderr)
        return 2
    games, failures = read_games(args.pgn)
    for message in failures:
        print(f"vireo analyse: {message}", file=sys.stderr)
    outcome = analyse_games(settings, games) if games else Outcome()
    annotator = f"vireo analyse, {outcome.engine_name or settings.engine.label()}, {limit_text(settings.limit)}"
    status = 0
    try:
        _write(outcome, annotator, args.output)
        if args.report:
            from .report import write_report   # drawing boards is needed only here
            write_report(args.report, outcome.in_order(), annotator)
    except OSError as exc:
        print(f"vireo analyse: cannot write {exc.filename}: {exc.strerror or exc}", file=sys.stderr)
        status = 1
    failed = len(failures) + len(outcome.failures)
    untried = len(games) - len(outcome.reviews) - len(outcome.failures)
    summary = f"{len(outcome.reviews)} games analysed ({annotator})"
    if failed:
        summary += f", {failed} failed (see above)"
    if untried:
        why = ("interrupted" if outcome.interrupted else "the engine could not be started"
               if outcome.engine_failed else "stopped by an internal error")
        summary += f", {untried} not analysed ({why})"
    print(f"vireo analyse: {summary}", file=sys.stderr)
    if outcome.interrupted:
        return 130
    return max(status, 1 if failed or untried or not games else 0)
