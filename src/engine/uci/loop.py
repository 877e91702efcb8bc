"""`vireo` / `vireo uci`: the UCI protocol loop.

Protocol only: this module reads lines, turns them into calls on the core
(engine._core.Position and Search, see docs/core-api.md) and turns the
results into lines. The search runs in a worker thread without the GIL
(uci_search.py), so `isready`, `stop` and `quit` are served at once.

Bad input never ends the loop: every problem is answered with an
`info string` that names it, and the state stays as it was (a `position`
with a bad FEN or an illegal move leaves the previous position in place).
Nothing but protocol lines reaches stdout: sys.stdout is pointed at stderr
while the loop runs, and errors are reported as `info string error: ...`
with the traceback on stderr.
"""
from __future__ import annotations

import os
import random
import sys
import time
import traceback
from typing import BinaryIO, Callable, Dict, Optional

from .. import ENGINE_AUTHOR, ENGINE_NAME, __version__
from ..cpu import describe
from ..book.probe import DEFAULT_BOOK_PATH
from . import strength
from .commands import ExtraCommands
from .go import GameState, GoSettings, GoTask, push_move
from .lag import LagMeter
from .options import OptionError, OptionTable, build_option_table, parse_setoption
from .output import Output
from .parse import GoCommand, UciSyntaxError, parse_go, parse_position
from .network import NetworkSlot
from .resources import BookSlot, TablebaseSlot
from .runner import SearchJob, SearchRunner
from .timeman import allocate
from .tune import tune_options

MAX_ECHO = 80  # characters of a bad line quoted back in an info string


def add_arguments(parser) -> None:
    parser.add_argument("--debug", action="store_true",
                        help="start with UCI debug on (extra info strings)")
    parser.add_argument("--tune", action="store_true",
                        help="also declare the search's constants as spin options, for tuners "
                             "(vireo spsa, OpenBench); see uci/tune.py")


def banner() -> str:
    """The line `vireo` prints when it starts, before any command: who it is and
    where the help is, for a person who typed `vireo` in a terminal (Stockfish
    does the same). UCI clients skip lines they do not know until `uciok`."""
    return f"{ENGINE_NAME} {__version__} by {ENGINE_AUTHOR} (a UCI engine; vireo --help lists the commands)"


def run(args) -> int:
    try:
        from .. import _core
    except ImportError as exc:
        print(f"vireo: the native core is not built ({exc}); run `pip install .`", file=sys.stderr)
        return 2
    out = Output(sys.stdout.buffer)
    out.send(banner())
    real_stdout = sys.stdout
    sys.stdout = sys.stderr  # a stray print() anywhere must not corrupt the protocol
    try:
        engine = UciEngine(out, core=_core, debug=bool(getattr(args, "debug", False)),
                           tune=bool(getattr(args, "tune", False)))
        engine.serve(sys.stdin.buffer)
        busy = engine.runner.busy()
    finally:
        sys.stdout = real_stdout
    if busy:  # a search that ignored stop for seconds: do not wait for it at exit
        os._exit(0)
    return 0


def _default_own_book() -> bool:
    return DEFAULT_BOOK_PATH.exists()


def _echo(text: str) -> str:
    return text if len(text) <= MAX_ECHO else text[:MAX_ECHO] + "..."


class UciEngine:
    def __init__(self, out: Output, *, core=None, debug: bool = False,
                 rng: Optional[random.Random] = None, tune: bool = False):
        if core is None:
            from .. import _core as core
        self.core = core
        self.out = out
        self.debug = debug
        self.rng = rng or random.Random()
        self.options = build_option_table(elo_min=strength.ELO_MIN, elo_max=strength.ELO_MAX,
                                          elo_default=strength.ELO_DEFAULT,
                                          own_book_default=_default_own_book())
        # --tune: the search constants as options; their names, as the core spells them
        self.tunables = frozenset(core.get_tunables()) if tune else frozenset()
        if tune:
            self.options = OptionTable(list(self.options) + tune_options(core))
        self.search = core.Search()
        self.game = GameState(core.Position(), None, [])
        self.position_given = False
        self.runner = SearchRunner(out, self._stop_core, self._set_core_limits)
        self.lag = LagMeter()          # this machine's measured lag, kept back on the clock
        self.books = BookSlot(self.say)
        self.tablebases = TablebaseSlot(self.say)
        self.network = NetworkSlot(self.say, core, self.search)
        # core settings to apply once the search is idle; the network of the
        # default options (Use NNUE on, the shipped file) loads at the first
        # isready, go, setoption or eval, so its info string follows `uci`
        self.pending: Dict[str, object] = {"network": True}
        self.extras = ExtraCommands(self)
        self.handlers: Dict[str, Callable[[list, str], Optional[bool]]] = {
            "uci": self.cmd_uci, "isready": self.cmd_isready, "ucinewgame": self.cmd_ucinewgame,
            "position": self.cmd_position, "go": self.cmd_go, "stop": self.cmd_stop,
            "ponderhit": self.cmd_ponderhit, "setoption": self.cmd_setoption,
            "debug": self.cmd_debug, "quit": self.cmd_quit, "register": self.cmd_register,
            "d": self.extras.cmd_d, "eval": self.extras.cmd_eval, "bench": self.extras.cmd_bench,
            "help": self.extras.cmd_help,
        }

    # -- plumbing --------------------------------------------------------

    def say(self, message: str) -> None:
        self.out.info_string(message)

    def _stop_core(self) -> None:
        self.search.stop()

    def _set_core_limits(self, soft_ms: int, hard_ms: int) -> None:
        self.search.set_limits(soft_ms, hard_ms)

    def serve(self, stream: BinaryIO) -> None:
        """Read commands until quit or end of input."""
        for raw in iter(stream.readline, b""):
            line = raw.decode("utf-8", "replace").strip()
            if line and self.handle(line) is False:
                return
        self.runner.stop()  # end of input: the GUI is gone

    def handle(self, line: str) -> Optional[bool]:
        """Run one command line; False means quit."""
        tokens = line.split()
        if not tokens:
            return None
        # UCI: unknown leading tokens are skipped ("joho debug on" is "debug on").
        for index, token in enumerate(tokens):
            handler = self.handlers.get(token.lower())
            if handler is not None:
                if index:
                    self.say(f"ignored unknown {_echo(' '.join(tokens[:index]))!r} before {token}")
                return self._dispatch(handler, tokens[index + 1:], line)
        self.say(f"unknown command {_echo(line)!r} (try 'help')")
        return None

    def _dispatch(self, handler, args: list, line: str) -> Optional[bool]:
        try:
            return handler(args, line)
        except Exception as exc:  # a bug must cost one answer, never the engine
            traceback.print_exc(file=sys.stderr)
            self.say(f"error: {type(exc).__name__}: {_echo(str(exc))}")
            return None

    # -- standard commands ----------------------------------------------

    def cmd_uci(self, args, line):
        self.out.send(f"id name {ENGINE_NAME} {__version__}")
        self.out.send(f"id author {ENGINE_AUTHOR}")
        for declaration in self.options.declarations():
            self.out.send(declaration)
        self.say(f"core {describe(self.core)}")   # which native core runs, as Stockfish names its build
        self.out.send("uciok")

    def cmd_isready(self, args, line):
        self.apply_pending()  # returns at once while a search runs
        self.out.send("readyok")

    def cmd_register(self, args, line):
        pass  # Vireo needs no registration

    def cmd_debug(self, args, line):
        if args and args[0].lower() in ("on", "off"):
            self.debug = args[0].lower() == "on"
        else:
            self.say("debug takes 'on' or 'off'")

    def cmd_quit(self, args, line):
        self.runner.stop()
        return False

    def cmd_stop(self, args, line):
        self.runner.stop()

    def cmd_ucinewgame(self, args, line):
        if self.runner.busy():
            self.say("ucinewgame during a search: the hash is cleared when it ends")
        self.pending["clear"] = True
        self.apply_pending()
        self.lag.clear()

    def cmd_position(self, args, line):
        try:
            fen, moves = parse_position(args)
        except UciSyntaxError as exc:
            self.say(f"{exc}; position unchanged")
            return
        chess960 = bool(self.options["UCI_Chess960"])
        try:
            position = self.core.Position(fen, chess960)
        except ValueError as exc:
            self.say(f"bad FEN: {_echo(str(exc))}; position unchanged")
            return
        for number, move in enumerate(moves, 1):
            if not push_move(position, move):
                # a refused move leaves the Position as it was: its FEN is the one before the move
                # (not computed for every move: at 350 plies that was 1.5 ms of each `position`)
                self.say(f"position: move {number} {_echo(move)!r} is illegal or malformed "
                         f"in {position.fen()}; position unchanged")
                return
        self.game = GameState(position, fen, list(moves))
        self.position_given = True

    def cmd_go(self, args, line):
        received = time.monotonic()
        go = parse_go(args)
        for warning in go.warnings:
            self.say(warning)
        if self.runner.busy():
            self.say("go while searching: stopping the running search first")
            self.runner.stop()
        if not self.position_given:
            self.say("go before any position: searching the start position")
            self.position_given = True
        self.apply_pending()
        if go.perft is not None:
            self.extras.start_perft(go.perft)
            return
        self._start_search(go, received)

    def _start_search(self, go: GoCommand, received: Optional[float] = None) -> None:
        task = GoTask(search=self.search, game=self.game, go=go, settings=self.settings(),
                      out=self.out, runner=self.runner, allocate=allocate,
                      books=self.books, tablebases=self.tablebases, rng=self.rng,
                      lag=self.lag, received=received)
        job = SearchJob(go)
        job.task = task
        job.on_answered = task.answered
        if task.timed and go.has_clock():
            self.lag.new_go(task.game_ply(), go.wtime if self.game.position.turn else go.btime)
        if self.debug:
            given = {k: v for k, v in vars(go).items() if v not in (None, False, [])}
            self.say(f"go {given} (time from engine.uci.timeman, lag reserve "
                     f"{self.lag.reserve_ms()} ms, worst lag {self.lag.worst:.0f} ms)")
        self.runner.start(job, task, task.emergency_move, inline=task.instant())

    def cmd_ponderhit(self, args, line):
        job = self.runner.job
        task = getattr(job, "task", None) if job is not None else None
        limits = task.clock_limits() if task is not None else None
        self.runner.ponderhit(limits)

    def settings(self) -> GoSettings:
        o = self.options
        return GoSettings(
            multipv=o["MultiPV"], move_overhead=o["Move Overhead"], show_wdl=o["UCI_ShowWDL"],
            chess960=o["UCI_Chess960"], limit_strength=o["UCI_LimitStrength"], elo=o["UCI_Elo"],
            analyse_mode=o["UCI_AnalyseMode"], own_book=o["OwnBook"], book_file=o["BookFile"], book_depth=o["BookDepth"],
            book_mode=o["BookMode"], syzygy_path=o["SyzygyPath"],
            syzygy_probe_depth=o["SyzygyProbeDepth"], syzygy_probe_limit=o["SyzygyProbeLimit"], syzygy_50=o["Syzygy50MoveRule"],
            debug=self.debug)

    # -- options ---------------------------------------------------------

    def cmd_setoption(self, args, line):
        try:
            name, raw = parse_setoption(line[line.lower().index("setoption"):])
            option, old, new = self.options.set(name, raw)
        except OptionError as exc:
            self.say(str(exc))
            return
        key = option.name
        if key in ("Hash", "Threads"):
            applied = self.pending.get(key, (old, None))[0]  # the value the search really has
            self.pending[key] = (applied, new)
        elif key == "Clear Hash":
            self.pending["clear"] = True
        elif key == "UCI_Chess960":
            self.game.position.chess960 = new
        elif key in ("OwnBook", "BookFile", "BookDepth"):
            # Opening a new book or tables closes the old ones, which a running
            # search may be reading (the fuzzer found EBADF in a search): wait.
            self.pending["book"] = True
        elif key == "SyzygyPath":
            self.pending["tables"] = True
        elif key in ("EvalFile", "Use NNUE"):
            self.pending["network"] = True
        elif key in self.tunables:
            # The search threads read these constants without a lock: change them between searches.
            self.pending.setdefault("tunables", set()).add(key)
        if self.runner.busy() and (key in ("Hash", "Threads", "Clear Hash", "EvalFile", "Use NNUE")
                                   or key in self.tunables):
            self.say(f"{key} takes effect when the current search ends")
        self.apply_pending()

    def reload_network(self) -> None:
        """Something else (bench) loaded its own network into the core, which
        holds one: load the one the options name again before the next search."""
        self.network.loaded_option = None
        self.pending["network"] = True
        self.apply_pending()

    def apply_pending(self) -> None:
        """Hash size, threads, clearing, the network, the book and the Syzygy
        tables touch what the search reads: only while it is idle."""
        if self.runner.busy() or not self.pending:
            return
        pending, self.pending = self.pending, {}
        if "Hash" in pending:
            old, new = pending["Hash"]
            self._set_hash(old, new)
        if "Threads" in pending:
            old, new = pending["Threads"]
            try:
                self.search.set_threads(new)
            except (ValueError, MemoryError, RuntimeError) as exc:  # RuntimeError: still searching
                self.options.find("Threads").value = old
                self.say(f"Threads {new} refused ({exc}); kept {old}")
        if pending.get("clear"):
            self.search.clear_hash()
        if pending.get("network"):
            # The network is the core's: it may only change while no search runs.
            self.options.find("Use NNUE").value = self.network.apply(
                self.options["EvalFile"], self.options["Use NNUE"])
            loaded = self.network.loaded_option   # a file that failed is not kept as the value
            self.options.find("EvalFile").value = loaded if loaded is not None else ""
        if pending.get("book") and self.options["OwnBook"]:
            self.books.get(self.options["BookFile"], self.options["BookDepth"])
        if pending.get("tables"):
            self.tablebases.get(self.options["SyzygyPath"])
        for name in pending.get("tunables", ()):
            self.core.set_tunable(name, self.options[name])

    def _set_hash(self, old: int, new: int) -> None:
        limit = memory_limit_mb()
        if limit is not None and new > limit:
            self.options.find("Hash").value = old
            self.say(f"Hash {new} MB is more than this machine can spare ({limit} MB); kept {old}")
            return
        try:
            self.search.set_hash(new)
        except (ValueError, MemoryError, RuntimeError) as exc:
            self.options.find("Hash").value = old
            self.say(f"Hash {new} MB could not be allocated ({type(exc).__name__}: {exc}); kept {old}")


def memory_limit_mb() -> Optional[int]:
    """Three quarters of the physical memory: more would swap or be killed."""
    try:
        return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") * 0.75) >> 20
    except (ValueError, OSError, AttributeError):
        return None
