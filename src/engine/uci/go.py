"""What one `go` does, in the worker thread: book, tablebases, search, strength.

Order of business:
  1. a book move, when OwnBook is on and the go is a game move (see
     `book_answers`): played after a short search of that move alone
     (BOOK_CHECK_*), whose info lines give it a depth, a score and a pv;
  2. at a root in the Syzygy tables: only the best-ranked moves are searched
     and the tablebase score is reported instead of the evaluation;
  3. the core's search with limits built from the go and the options;
  4. with UCI_LimitStrength, a pick among the search's lines (strength.py).
"""
from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

import chess

from ..syzygy.tables import effective_limits
from . import strength
from .clock import plan_clock
from .lag import INSTANT_MS, LagMeter
from .output import Output, format_info, uci_score
from .parse import GoCommand
from .runner import BestMove, SearchJob, SearchRunner


# A search planned shorter than this runs on the main thread alone: helpers
# add nothing in a few milliseconds, and on a loaded machine starting them and
# waiting for them to stop made such moves cost 20-80 ms (benchmarks/long_run.py:
# Threads 2-4 went below zero on the clock at 1+0.01, 2+0 and 40/1, Threads 1 barely).
SOLO_BELOW_MS = 50

# A book move is searched briefly, alone (searchmoves), before it is played, so
# that it too comes with an info line holding a depth, a score and a pv that
# starts with it: match runners (fastchess, cutechess-cli) and GUIs read the
# last scored info line for display and adjudication, and fastchess's
# --compliance check fails without one. The search stops at whichever comes
# first: BOOK_CHECK_DEPTH, BOOK_CHECK_MS, or the soft limit the clock allows
# this move (clock.py), so a book move never costs more time than a searched
# one would. It always completes depth 1 (the core's rule), so even a stop
# that arrives at once leaves a scored line.
BOOK_CHECK_DEPTH = 8
BOOK_CHECK_MS = 30


@dataclass(frozen=True)
class GoSettings:
    """The option values a search needs, copied at `go` time."""
    multipv: int = 1
    move_overhead: int = 20
    show_wdl: bool = False
    chess960: bool = False
    limit_strength: bool = False
    elo: int = strength.ELO_DEFAULT
    analyse_mode: bool = False
    own_book: bool = False
    book_file: str = ""
    book_depth: int = 20
    book_mode: str = "weighted"
    syzygy_path: str = ""
    syzygy_probe_depth: int = 1
    syzygy_probe_limit: int = 7
    syzygy_50: bool = True
    debug: bool = False              # UCI `debug on`: the time plan and each thread's nodes


@dataclass
class GameState:
    """The current `position`: the core's Position plus what python-chess needs to rebuild it."""
    position: object                 # engine._core.Position, history pushed
    root_fen: Optional[str]          # None: the standard start position
    moves: List[str]

    def board(self, chess960: bool) -> chess.Board:
        """A python-chess board with the game history (for book and tablebase look-ups)."""
        try:
            board = chess.Board(self.root_fen or chess.STARTING_FEN, chess960=chess960)
            for move in self.moves:
                board.push(board.parse_uci(move) if move != "0000" else chess.Move.null())
            return board
        except ValueError:  # python-chess reads a move differently: keep the position, lose the history
            return chess.Board(self.position.fen(shredder=chess960), chess960=chess960)


def push_move(position, move: str) -> bool:
    """Play one UCI move (or "0000", a null move) on a core Position; False
    when it is illegal or malformed, the Position then unchanged."""
    try:
        if move == "0000":  # a null move, as python-chess sends for a pass
            position.push_null()
        else:
            position.push(move)
        return True
    except ValueError:
        if move == "0000" or not position.is_legal(move):
            return False
        # Legal, but the history is full (a game of thousands of moves):
        # restart the history from the current position and go on.
        position.set_fen(position.fen())
        position.push(move)
        return True


class GoTask:
    def __init__(self, *, search, game: GameState, go: GoCommand, settings: GoSettings,
                 out: Output, runner: SearchRunner, allocate, books, tablebases,
                 rng: Optional[random.Random] = None, lag: Optional[LagMeter] = None,
                 received: Optional[float] = None):
        self.search = search
        self.game = game
        self.position = game.position
        self.go = go
        self.settings = settings
        self.out = out
        self.runner = runner
        self.allocate = allocate
        self.books = books
        self.tablebases = tablebases
        self.rng = rng or random.Random()
        self.lag = lag or LagMeter()
        self.received = time.monotonic() if received is None else received   # `go` was read
        self.timed = (go.has_clock() or go.movetime is not None) and not go.ponder and not go.infinite
        self.allowed_ms = 0.0       # search time within its limits (what lag does not include)
        self.hard_ms: Optional[int] = None   # the hard limit planned for the search
        self.lines: Dict[int, dict] = {}           # last report per multipv line
        self.tb_score: Optional[Tuple[str, int]] = None
        self.tb_hits = 0
        self.tables = None          # open Tablebases when SyzygyPath names some
        self.ranking = None         # the root's tablebase ranking, when in the tables

    # -- the worker ------------------------------------------------------

    def __call__(self, job: SearchJob) -> BestMove:
        if self._book_allowed():
            picked = self._book_move(job)
            if picked is not None:
                return picked
        searchmoves = self._checked_searchmoves()
        searchmoves = self._tablebase_root(searchmoves)
        plan = self._strength_plan()
        limits, hard_ms = self._limits(searchmoves, plan)
        self._configure_core(plan)

        best, ponder = self._run_core(job, limits, hard_ms)
        per_thread = getattr(self.search, "thread_nodes", None)
        if self.settings.debug and per_thread is not None:
            self.out.info_string("thread nodes: " + " ".join(str(n) for n in per_thread))
        if plan is not None and best is not None:
            chosen = strength.choose_line(self.lines, plan, self.rng)
            if chosen is not None and self.position.is_legal(chosen[0]):
                best, ponder = chosen
                self._report_played_line(best)
        return best, ponder

    def _report_played_line(self, best: str) -> None:
        """UCI_LimitStrength may play another line than the search's first: say
        so last, as line 1, so that the last scored line's pv starts with the
        move played (what GUIs and match runners show and adjudicate on)."""
        played = next((info for _, info in sorted(self.lines.items()) if info.get("pv", [None])[0] == best), None)
        if played is not None and int(played.get("multipv") or 1) != 1:
            self.out.send(format_info(dict(played, multipv=1), self.settings.show_wdl))

    def instant(self) -> bool:
        """Whether this is a timed game move whose clock leaves only a 1 ms
        answer (below the reserve that clock.py keeps): one the reader may
        answer itself, without a worker thread."""
        if not self.timed or not self.go.has_clock() or self.go.movetime is not None:
            return False
        if self.settings.limit_strength or (self.settings.syzygy_path and self.settings.syzygy_probe_limit):
            return False    # a strength pick or a tablebase ranking may take longer than a move
        limits = self.clock_limits(0)
        return limits is not None and limits[1] <= INSTANT_MS

    def answered(self) -> None:
        """bestmove goes out now: what this move cost beyond its search time is lag."""
        if not self.timed:
            return
        go = self.go
        white = bool(self.position.turn)
        self.lag.answered(self.game_ply(), go.wtime if white else go.btime, go.winc if white else go.binc,
                          (time.monotonic() - self.received) * 1000, self.allowed_ms, self.hard_ms)

    def _own_inc(self) -> Optional[int]:
        return self.go.winc if self.position.turn else self.go.binc

    def game_ply(self) -> int:
        """Plies since the game began (the FEN's move number counts, not just the moves sent)."""
        return 2 * (self.position.fullmove_number - 1) + (0 if self.position.turn else 1)

    def emergency_move(self) -> BestMove:
        """A legal move when the search itself failed (reported as an error)."""
        moves = self.position.legal_moves()
        return (moves[0] if moves else None), None

    # -- limits ----------------------------------------------------------

    def clock_limits(self, spent_ms: int = 0) -> Optional[Tuple[int, int]]:
        """(soft_ms, hard_ms) from the go's clock and movetime, counted from
        now, spent_ms after the go was read; None without either."""
        go, s = self.go, self.settings
        found = None
        if go.has_clock():
            # this move's lag, and the floor of the moves still to come on this clock
            lag = self.lag.reserve_ms(go.movestogo, self._own_inc() or 0, self.game_ply())
            found = plan_clock(go.wtime, go.btime, go.winc, go.binc, go.movestogo, bool(self.position.turn),
                               s.move_overhead, self.game_ply(), lag, spent_ms, self.allocate)
        if go.movetime is not None:
            # movetime is the search's time (Stockfish uses all of it too): keep back only
            # what this machine measurably adds between `go` and `bestmove` (uci/lag.py).
            # Move Overhead is for the clock; here it cost 80 Elo against Stockfish 11
            # (docs/results.md, "Where the Elo go between nodes and the clock").
            lag = self.lag.reserve_ms()
            budget = max(1, go.movetime - min(lag, go.movetime // 2) - spent_ms)
            found = (budget, budget) if found is None else (min(found[0], budget), min(found[1], budget))
        return found

    def _limits(self, searchmoves: List[str], plan) -> Tuple[dict, Optional[int]]:
        go = self.go
        limits: dict = {"multipv": self.settings.multipv}
        for key in ("depth", "nodes", "mate"):
            if getattr(go, key) is not None:
                limits[key] = getattr(go, key)
        if searchmoves:
            limits["searchmoves"] = searchmoves
        hard_ms = None
        if go.infinite or go.ponder:
            if not any(k in limits for k in ("depth", "nodes", "mate")):
                limits["infinite"] = True  # ends only on stop (or on ponderhit's new limits)
        else:
            clock = self.clock_limits(int((time.monotonic() - self.received) * 1000))
            if clock is not None:
                limits["soft_ms"], limits["hard_ms"] = clock
                hard_ms = clock[1]
                if hard_ms < SOLO_BELOW_MS:
                    limits["threads"] = 1
        if plan is not None:
            limits["nodes"] = min(limits.get("nodes", plan.nodes), plan.nodes)
            limits["multipv"] = max(limits["multipv"], plan.multipv)
            limits.pop("infinite", None)  # the node budget ends the search; bestmove still waits
        return limits, hard_ms

    def _strength_plan(self):
        if not self.settings.limit_strength or self.go.infinite:
            return None  # analysis (go infinite) always runs at full strength
        plan = strength.plan_for(self.settings.elo)
        self.out.info_string(f"UCI_LimitStrength: Elo {plan.elo}, {plan.nodes} nodes, "
                             f"{plan.multipv} lines, temperature {plan.temperature:.0f} cp")
        return plan

    def _checked_searchmoves(self) -> List[str]:
        legal, wrong = [], []
        for move in self.go.searchmoves:
            (legal if self.position.is_legal(move) else wrong).append(move)
        if wrong:
            self.out.info_string(f"searchmoves: ignored illegal or malformed {' '.join(wrong)}")
        if self.go.searchmoves and not legal:
            self.out.info_string("searchmoves: no legal move left, searching all moves")
        return legal

    # -- book ------------------------------------------------------------

    def _book_allowed(self) -> bool:
        # Past BookDepth no book move can come: skip rebuilding the game's
        # board for the look-up (milliseconds a move on a loaded machine).
        return (self.settings.own_book and book_answers(self.go, self.settings)
                and self.game_ply() < self.settings.book_depth)

    def _book_move(self, job: SearchJob) -> Optional[BestMove]:
        s = self.settings
        book = self.books.get(s.book_file, s.book_depth)
        if book is None:
            return None
        board = self.game.board(s.chess960)
        move = book.pick(board, s.book_mode, self.rng)
        if move is None:
            return None
        best = board.uci(move, chess960=s.chess960)
        if not self.position.is_legal(best):
            self.out.info_string(f"book move {best} rejected: not legal here")
            return None
        board.push(move)
        reply = book.pick(board, "best", self.rng)
        ponder = board.uci(reply, chess960=s.chess960) if reply is not None else None
        self.out.info_string(f"book move {best} ({s.book_mode}, {book.path.name})")
        searched_ponder = self._search_book_move(job, best)
        return best, ponder or searched_ponder

    def _search_book_move(self, job: SearchJob, best: str) -> Optional[str]:
        """The short search of the book move alone (BOOK_CHECK_*); its info lines
        go out as any search's do. Returns its ponder move."""
        budget = BOOK_CHECK_MS
        clock = self.clock_limits(int((time.monotonic() - self.received) * 1000)) if self.timed else None
        if clock is not None:
            budget = min(budget, clock[0])
        limits = {"searchmoves": [best], "depth": BOOK_CHECK_DEPTH, "threads": 1,
                  "soft_ms": max(1, budget), "hard_ms": max(1, budget)}
        self._configure_core(None)      # full strength, no tablebase probes: a score, not a choice
        _, ponder = self._run_core(job, limits, limits["hard_ms"])
        return ponder

    def _run_core(self, job: SearchJob, limits: dict, hard_ms: Optional[int]) -> BestMove:
        """Start the core's search once the runner knows it has begun: a stop
        that came first makes it a depth-1 search (still a searched move), a
        ponderhit that came first starts its clock from when it came. The
        watchdog guards the hard limit; allowed_ms is what the lag meter
        does not count."""
        stop_requested, pending = self.runner.mark_core_started(job)
        if stop_requested:
            limits = {k: v for k, v in limits.items() if k in ("searchmoves", "threads")}
            limits["depth"] = 1
            hard_ms = None
        elif pending is not None:
            soft, hard, since = pending
            spent = int((time.monotonic() - since) * 1000)
            limits.pop("infinite", None)
            limits["soft_ms"], limits["hard_ms"] = max(1, soft - spent), max(1, hard - spent)
            hard_ms = limits["hard_ms"]
        if hard_ms is not None:
            self.runner.arm_watchdog(job, hard_ms)
        self.hard_ms = hard_ms
        if self.settings.debug and "soft_ms" in limits:
            self.out.info_string(f"time: soft {limits['soft_ms']} ms, hard {limits['hard_ms']} ms, "
                                 f"lag reserve {self.lag.reserve_ms(self.go.movestogo, self._own_inc() or 0, self.game_ply())} ms")
        started = time.monotonic()
        best, ponder = self.search.go(self.position, limits, self._on_info)
        used_ms = (time.monotonic() - started) * 1000
        self.allowed_ms = used_ms if hard_ms is None else min(used_ms, hard_ms)
        return best, ponder

    # -- tablebases ------------------------------------------------------

    def _tablebase_root(self, searchmoves: List[str]) -> List[str]:
        s = self.settings
        if not s.syzygy_path or s.syzygy_probe_limit == 0:
            return searchmoves
        tables = self.tables = self.tablebases.get(s.syzygy_path)
        if tables is None:
            return searchmoves
        board = self.game.board(s.chess960)
        if not tables.probable(board, s.syzygy_probe_limit):
            return searchmoves
        hits_before = tables.hits
        ranking = self.ranking = tables.rank_root_moves(board, s.syzygy_50,
                                                        probe_limit=s.syzygy_probe_limit)
        self.tb_hits = tables.hits - hits_before
        if not ranking:
            return searchmoves
        kind, value = uci_score(ranking.score).split()
        self.tb_score = (kind, int(value))
        best = [m.uci() for m in ranking.best_moves()]
        restricted = [m for m in searchmoves if m in best] if searchmoves else best
        if searchmoves and not restricted:
            restricted = searchmoves  # the user's choice wins over the tables
        self.out.info_string(f"tablebase root: score {kind} {value}, searching "
                             f"{len(restricted)} of {len(list(board.legal_moves))} moves")
        return restricted

    # -- the core's own settings for this search ----------------------------

    def _configure_core(self, plan) -> None:
        """Tablebase probes inside the search, and the strength setting, before go."""
        search = self.search
        search.set_option("skill_elo", plan.elo if plan is not None else None)
        tables, s = self.tables, self.settings
        if tables is None or s.syzygy_probe_limit == 0 or (self.ranking and not self.ranking.probe_in_search()):
            search.set_tablebase(None)
            return
        cardinality, probe_depth = effective_limits(s.syzygy_probe_limit, s.syzygy_probe_depth,
                                                    tables.max_pieces)
        search.set_tablebase(_search_probe(tables, s.syzygy_50), probe_depth=probe_depth,
                             probe_limit=cardinality)

    # -- reports ---------------------------------------------------------

    def _on_info(self, info: dict) -> None:
        try:
            if "score" in info:
                if self.tb_score is not None and info["score"][0] == "cp":
                    info = dict(info, score=self.tb_score, bound=None)
                if self.tb_hits:
                    info = dict(info, tbhits=int(info.get("tbhits") or 0) + self.tb_hits)
                line_number = int(info.get("multipv") or 1)
                if info.get("pv"):
                    self.lines[line_number] = info
                if line_number > self.settings.multipv:
                    return  # an extra line of UCI_LimitStrength's choice: not asked for by the GUI
            self.out.send(format_info(info, self.settings.show_wdl))
        except Exception as exc:  # a report must never break the search
            self.out.info_string(f"error: bad search report ({type(exc).__name__}: {exc})")


def book_answers(go: GoCommand, settings: GoSettings) -> bool:
    """Whether this `go` is a game move the opening book may answer (OwnBook aside).

    Only a move in a game under a clock (wtime/btime or movetime, or a ponder
    search) with one line asked for. Anything that asks for analysis is
    searched: UCI_AnalyseMode (python-chess's analyse() sets it), MultiPV
    above 1, go infinite, searchmoves, and limits by depth, nodes or mate.
    """
    game_move = go.has_clock() or go.movetime is not None or go.ponder
    analysis = (settings.analyse_mode or settings.multipv > 1 or go.infinite or bool(go.searchmoves)
                or go.depth is not None or go.nodes is not None or go.mate is not None)
    return game_move and not analysis


def _search_probe(tables, rule50: bool):
    """probe(fen) -> WDL for the core's in-search probes (called with the GIL).

    Without the 50-move rule a cursed win is a win (and a blessed loss a loss).
    The lock keeps Lazy SMP helpers from entering python-chess's reader at once.
    """
    lock = threading.Lock()

    def probe(fen: str):
        with lock:
            wdl = tables.probe_wdl(chess.Board(fen))  # no castling in the tables: plain FEN is fine
        if wdl is None or rule50:
            return wdl
        return 2 if wdl > 0 else -2 if wdl < 0 else 0

    return probe
