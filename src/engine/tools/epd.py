"""`vireo epd`: run an EPD test suite against a UCI (or xboard) engine.

Scoring:
  bm (best moves)   solved when the engine's move is one of them;
  am (avoid moves)  solved when it is none of them (both when a line has both);
  c0 "SAN=N, ..."   STS-style points: the engine gets N points for a listed
                    move, 0 otherwise; the maximum is the largest N. A c0
                    that is a plain comment (as in WAC) is ignored.
The engine searches each position with python-chess's analysis and a fresh
game (ucinewgame), so positions do not share hash contents.
"""
import argparse
import queue
import re
import signal
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Dict, List, Optional

import chess
import chess.engine
from tqdm import tqdm

from .match.player import quiet_engine_chatter
from .match.spec import EngineSpec, SpecError, apply_words

POINTS_RE = re.compile(r"^\s*[^\s=,]+\s*=\s*\d+\s*(,\s*[^\s=,]+\s*=\s*\d+\s*)*,?\s*$")
START_TIMEOUT = 30.0


class EpdError(ValueError):
    """An EPD file that cannot be read."""


@dataclass
class Problem:
    label: str
    board: chess.Board
    best: List[chess.Move] = field(default_factory=list)
    avoid: List[chess.Move] = field(default_factory=list)
    points: Dict[chess.Move, int] = field(default_factory=dict)

    @property
    def scored(self) -> bool:
        return bool(self.best or self.avoid)


@dataclass
class Answer:
    move: Optional[chess.Move]
    error: str = ""

    def solved(self, problem: Problem) -> bool:
        return (self.move is not None and (not problem.best or self.move in problem.best)
                and self.move not in problem.avoid)

    def points(self, problem: Problem) -> int:
        return problem.points.get(self.move, 0) if self.move else 0


def _points(board: chess.Board, text: str, where: str) -> Dict[chess.Move, int]:
    if not POINTS_RE.match(text):
        return {}
    points = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        san, _, value = item.partition("=")
        try:
            points[board.parse_san(san.strip())] = int(value)
        except ValueError:
            raise EpdError(f"{where}: c0 names a move that is not legal here: {san.strip()!r}") from None
    return points


def read_suite(path: str) -> List[Problem]:
    try:
        with open(path, encoding="utf-8-sig") as handle:
            lines = handle.read().splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise EpdError(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}") from None
    problems = []
    for number, line in enumerate(lines, 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        where = f"{path}:{number}"
        board = chess.Board()
        try:
            ops = board.set_epd(line.strip())
        except ValueError as exc:
            raise EpdError(f"{where}: bad EPD line: {exc}") from None
        if not board.is_valid() or board.is_game_over():
            raise EpdError(f"{where}: not a playable position")
        problem = Problem(str(ops.get("id") or f"line {number}"), board,
                          list(ops.get("bm") or []), list(ops.get("am") or []))
        if isinstance(ops.get("c0"), str):
            problem.points = _points(board, ops["c0"], where)
        if not problem.scored and not problem.points:
            raise EpdError(f"{where}: no bm, am or c0 points to score")
        problems.append(problem)
    if not problems:
        raise EpdError(f"no positions in {path}")
    return problems


def _start(spec: EngineSpec) -> chess.engine.SimpleEngine:
    popen = chess.engine.SimpleEngine.popen_uci if spec.protocol == "uci" else chess.engine.SimpleEngine.popen_xboard
    # Own process group: Ctrl-C reaches us, not the engine, so we can report.
    engine = popen(spec.command, timeout=START_TIMEOUT, setpgrp=True, cwd=spec.workdir)
    if spec.options:
        engine.configure(dict(spec.options))
    return engine


def _solve(engine: chess.engine.SimpleEngine, problem: Problem, limit: chess.engine.Limit) -> Answer:
    with engine.analysis(problem.board, limit, game=object()) as analysis:
        best = analysis.wait()
    move = best.move
    if move is None and analysis.info.get("pv"):
        move = analysis.info["pv"][0]
    if move is not None and move not in problem.board.legal_moves:
        return Answer(None, f"illegal move {move.uci()}")
    return Answer(move)


class Pool:
    """`count` threads, each with its own engine process, solving problems."""

    def __init__(self, spec: EngineSpec, limit: chess.engine.Limit, count: int):
        self.spec, self.limit = spec, limit
        self.jobs: "queue.Queue" = queue.Queue()
        self.done: "queue.Queue" = queue.Queue()
        self.stopping = threading.Event()
        self.engines = []
        try:
            for _ in range(count):
                self.engines.append(_start(spec))   # start errors surface here
        except BaseException:
            self.close()
            raise
        self.name = self.engines[0].id.get("name") or spec.label()
        self.threads = [threading.Thread(target=self._work, args=(i,), daemon=True) for i in range(count)]

    def _work(self, slot: int) -> None:
        while not self.stopping.is_set():
            try:
                index, problem = self.jobs.get_nowait()
            except queue.Empty:
                return
            try:
                answer = _solve(self.engines[slot], problem, self.limit)
            except Exception as exc:  # a crashed or confused engine: note it, go on with a fresh one
                answer = Answer(None, f"engine error: {exc or type(exc).__name__}")
                self._restart(slot)
            self.done.put((index, answer))

    def _restart(self, slot: int) -> None:
        try:
            self.engines[slot].close()
        except Exception:
            pass
        if self.stopping.is_set():   # closing down: no new processes
            return
        try:
            self.engines[slot] = _start(self.spec)
        except Exception:
            self.stopping.set()

    def run(self, problems: List[Problem]):
        for item in enumerate(problems):
            self.jobs.put(item)
        for thread in self.threads:
            thread.start()

    def close(self) -> None:
        self.stopping.set()
        for engine in self.engines:
            try:
                engine.close()
            except Exception:
                pass


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = ("engine words as for `vireo match --engine` (cmd=, proto=, option.NAME=VALUE, name=);\n"
                     "the default engine is Vireo itself (cmd=\"python -m engine\").\n"
                     "Give FILE first: --engine takes every word after it.\n"
                     "example: vireo epd wac.epd --engine cmd=/usr/games/stockfish option.Threads=1 --time 1")
    parser.add_argument("file", help="EPD file with bm/am operations or c0 \"SAN=points, ...\"")
    parser.add_argument("--engine", nargs="+", metavar="KEY=VALUE", default=[], help="the engine to test")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--time", type=float, help="seconds a position (default 1)")
    group.add_argument("--depth", type=int, help="search depth a position")
    group.add_argument("--nodes", type=int, help="nodes a position")
    parser.add_argument("--concurrency", type=int, default=1, help="positions searched at once (default 1)")
    parser.add_argument("--max", type=int, metavar="N", help="only the first N positions")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


def _limit(args) -> chess.engine.Limit:
    if args.depth is not None:
        if args.depth < 1:
            raise SpecError("--depth must be at least 1")
        return chess.engine.Limit(depth=args.depth)
    if args.nodes is not None:
        if args.nodes < 1:
            raise SpecError("--nodes must be at least 1")
        return chess.engine.Limit(nodes=args.nodes)
    seconds = 1.0 if args.time is None else args.time
    if not 0 < seconds < float("inf"):
        raise SpecError("--time must be above 0")
    return chess.engine.Limit(time=seconds)


def _limit_text(limit: chess.engine.Limit) -> str:
    return (f"depth {limit.depth}" if limit.depth else f"{limit.nodes} nodes" if limit.nodes
            else f"{limit.time:g} s")


def report(problems: List[Problem], answers: Dict[int, Answer]) -> str:
    lines = []
    scored = [i for i, p in enumerate(problems) if p.scored and i in answers]
    solved = [i for i in scored if answers[i].solved(problems[i])]
    if scored:
        lines.append(f"Solved: {len(solved)}/{len(scored)} ({len(solved) / len(scored):.1%})")
    with_points = [i for i, p in enumerate(problems) if p.points and i in answers]
    if with_points:
        got = sum(answers[i].points(problems[i]) for i in with_points)
        best = sum(max(problems[i].points.values()) for i in with_points)
        lines.append(f"Points: {got}/{best} ({got / best:.1%}) over {len(with_points)} positions")
    failed = []
    for i in scored:
        if i in solved:
            continue
        p, a = problems[i], answers[i]
        played = a.error or (p.board.san(a.move) if a.move else "no move")
        wanted = " ".join(p.board.san(m) for m in p.best) if p.best else ""
        avoid = " ".join(p.board.san(m) for m in p.avoid) if p.avoid else ""
        failed.append(f"{p.label} ({played}; " + "; ".join(filter(None, [wanted and f"bm {wanted}", avoid and f"am {avoid}"])) + ")")
    if failed:
        lines.append("Not solved: " + ", ".join(failed))
    return "\n".join(lines)


def run(args) -> int:
    quiet_engine_chatter()
    try:
        spec = apply_words(EngineSpec(name=None), args.engine)
        if spec.has_limit():
            raise SpecError("give the search limit with --time, --depth or --nodes, not in --engine")
        if not spec.program:
            spec.program = [sys.executable, "-m", "engine"]
            spec.name = spec.name or "Vireo"
        limit = _limit(args)
        if args.concurrency < 1:
            raise SpecError("--concurrency must be at least 1")
        problems = read_suite(args.file)
    except (SpecError, EpdError) as exc:
        print(f"vireo epd: {exc}", file=sys.stderr)
        return 2
    if args.max is not None:
        problems = problems[:max(args.max, 0)]
    try:
        pool = Pool(spec, limit, min(args.concurrency, len(problems)))
    except (chess.engine.EngineError, OSError, TimeoutError) as exc:
        print(f"vireo epd: cannot start engine {' '.join(spec.command)!r}: {exc or type(exc).__name__}",
              file=sys.stderr)
        return 1
    if threading.current_thread() is threading.main_thread():
        # Ctrl-C must reach us even when started with SIGINT ignored (a
        # background job of a script): it ends the run with a report.
        signal.signal(signal.SIGINT, signal.default_int_handler)
    started = time.monotonic()
    answers: Dict[int, Answer] = {}
    interrupted = False
    print(f"{args.file}: {len(problems)} positions, {pool.name}, {_limit_text(limit)} a position")
    bar = tqdm(total=len(problems), unit="pos", disable=args.no_progress, file=sys.stderr, dynamic_ncols=True)
    try:
        pool.run(problems)
        while len(answers) < len(problems) and not pool.stopping.is_set():
            try:
                index, answer = pool.done.get(timeout=0.2)
            except queue.Empty:
                continue
            answers[index] = answer
            bar.set_postfix_str(f"solved {sum(a.solved(problems[i]) for i, a in answers.items() if problems[i].scored)}",
                                refresh=False)
            bar.update(1)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        bar.close()
        pool.close()
    print(report(problems, answers))
    state = "interrupted" if interrupted else "stopped: the engine failed" if len(answers) < len(problems) else "done"
    print(f"{len(answers)}/{len(problems)} positions searched in {time.monotonic() - started:.1f} s ({state})")
    return 130 if interrupted else (1 if len(answers) < len(problems) else 0)
