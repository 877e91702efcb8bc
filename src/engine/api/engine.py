"""`Engine`: Vireo in this process, spoken to in python-chess's types.

It is the engine `vireo` runs behind its UCI loop, without the pipe: the same
options (a UCI option table), the same path from `go` to the core (the UCI
layer's GoTask: book, tablebase root, search, strength) and the same reports,
returned as chess.engine's InfoDict and PlayResult. Code written for
chess.engine.SimpleEngine ports by changing the line that opens the engine
(docs/python-api.md).
"""
from __future__ import annotations

import random
import threading
import warnings
from typing import Any, List, Mapping, Optional, Sequence, Union

import chess
import chess.engine
import numpy as np

from .. import ENGINE_AUTHOR, ENGINE_NAME, __version__
from ..uci.loop import memory_limit_mb
from ..uci.network import resolve_network_path
from ..uci.resources import BookSlot
from . import parallel, static_eval
from .inputs import check_board, game_state, go_command
from .results import analysis_lines, no_move_info, play_result
from .searcher import SearchOutcome, Searcher
from .settings import go_settings, line_count, option_table, parse_options, python_chess_options

_FIRST_GAME = object()


class Engine:
    """Vireo in this process. Options are UCI's (`Engine({"Hash": 64},
    Threads=2)`); a bad option, position or limit raises ValueError and
    leaves the engine as it was. One call at a time: calls from several
    threads wait for each other. Use it as a context manager, or close() it."""

    def __init__(self, options: Optional[Mapping[str, Any]] = None, **named: Any):
        from .. import _core
        self._core = _core
        self._lock = threading.RLock()
        self._table = option_table()
        self._rng = random.Random()
        self._messages: List[str] = []
        self._books = BookSlot(self._messages.append)
        self._main = Searcher(_core, self._books, self._rng)
        self._pool: List[Searcher] = []       # analyse_many's workers, kept between calls
        self._game: object = _FIRST_GAME
        self._closed = False
        #: As chess.engine.SimpleEngine.id: {"name": ..., "author": ...}.
        self.id = {"name": f"{ENGINE_NAME} {__version__}", "author": ENGINE_AUTHOR}
        #: As chess.engine.SimpleEngine.options: name -> chess.engine.Option.
        self.options = python_chess_options(self._table)
        try:
            self.configure({**(options or {}), **named})
            self._use_nnue()
        except BaseException:
            self.close()
            raise

    # -- life -------------------------------------------------------------

    def __enter__(self) -> "Engine":
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def close(self) -> None:
        """Stop any search and free the tables; the engine cannot be used after."""
        self._closed = True
        for searcher in [self._main] + self._pool:
            searcher.close()
        self._books.close()

    quit = close   # chess.engine.SimpleEngine's name for it

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError("this Engine is closed")

    # -- options ----------------------------------------------------------

    @property
    def config(self) -> dict:
        """The current value of every option (buttons aside)."""
        return {o.name: o.value for o in self._table if o.kind != "button"}

    def configure(self, options: Mapping[str, Any]) -> None:
        """Set options by their UCI names (any case), with Python values. A
        value that cannot be used raises ValueError; the option keeps its value."""
        with self._lock:
            self._check_open()
            for name, value in parse_options(self._table, options).items():
                self._apply(name, value)

    def _apply(self, name: str, value: Any) -> None:
        option = self._table.find(name)
        old = option.value
        if name == "Clear Hash":
            self.clear_hash()
            return
        if name == "Hash":
            limit = memory_limit_mb()
            if limit is not None and value > limit:
                raise ValueError(f"Hash {value} MB is more than this machine can spare ({limit} MB)")
            try:
                self._main.search.set_hash(value)
            except MemoryError as exc:
                raise ValueError(f"Hash {value} MB could not be allocated ({exc})") from None
        elif name == "Threads":
            try:
                self._main.search.set_threads(value)
            except MemoryError as exc:
                raise ValueError(f"Threads {value}: {exc}") from None
        option.value = value
        try:
            if name in ("EvalFile", "Use NNUE"):
                self._use_nnue()
            elif name == "SyzygyPath":
                self._open(lambda: self._main.tablebases.get(value), value, self._main.sink.messages)
            elif name in ("BookFile", "BookDepth"):
                self._open(lambda: self._books.get(self._table["BookFile"], self._table["BookDepth"]),
                           "book", self._messages)
        except BaseException:
            option.value = old
            raise

    @staticmethod
    def _open(opener, wanted: str, messages: List[str]) -> None:
        del messages[:]
        if opener() is None and wanted.strip():
            raise ValueError("; ".join(messages) or f"cannot open {wanted}")

    def _use_nnue(self) -> bool:
        """Load this engine's network into the core (one per process) if another
        is there; True when the search evaluates with it."""
        use, option = self._table["Use NNUE"], self._table["EvalFile"]
        if not use and not option.strip():
            return False
        path = resolve_network_path(option)
        if not option.strip() and not path.exists():
            warnings.warn(f"no network is shipped with this build ({path.name}): "
                          "the classical evaluation is used")
            return False
        info = self._core.network_info()
        if info is None or info["path"] != str(path):
            try:
                self._core.load_network(str(path))
            except ValueError as exc:
                raise ValueError(f"EvalFile {path}: {exc}") from None
            except RuntimeError:
                raise RuntimeError("the network is one per process, and another Engine is searching "
                                   f"with another one now; {path} cannot be loaded until it ends") from None
        return use

    # -- searching --------------------------------------------------------

    def clear_hash(self) -> None:
        """Empty the hash table and the histories (UCI's ucinewgame)."""
        with self._lock:
            self._check_open()
            for searcher in [self._main] + self._pool:
                searcher.search.clear_hash()

    def _new_game(self, game: object) -> None:
        """python-chess's rule: a game object unlike the last one (and the first
        call) starts a new game, which clears the hash."""
        if self._game is _FIRST_GAME or game != self._game:
            self._main.search.clear_hash()
        self._game = game

    def _prepare(self, searcher: Searcher) -> None:
        searcher.search.set_option("use_nnue", self._use_nnue())

    def _run(self, board: chess.Board, limit, *, analyse: bool, multipv: int, game: object,
             root_moves, options) -> SearchOutcome:
        self._check_open()
        if options:
            self.configure(options)
        check_board(board)
        go = go_command(limit, root_moves)
        state = game_state(self._core, board)
        self._new_game(game)
        self._prepare(self._main)
        settings = go_settings(self._table, analyse=analyse, multipv=multipv, chess960=board.chess960)
        return self._main.run(state, go, settings, background=True)

    def analyse(self, board: chess.Board, limit: chess.engine.Limit, *, multipv: Optional[int] = None,
                game: object = None, info: chess.engine.Info = chess.engine.INFO_ALL,
                root_moves: Optional[Sequence[chess.Move]] = None,
                options: Optional[Mapping[str, Any]] = None
                ) -> Union[chess.engine.InfoDict, List[chess.engine.InfoDict]]:
        """Search the board (its move stack counts for repetitions) and return
        the final report: an InfoDict, or a list of them, best first, when
        multipv is given (or the MultiPV option is above 1). `info` is accepted
        for chess.engine's sake; every field is always filled."""
        with self._lock:
            lines = line_count(multipv, self._table["MultiPV"])
            outcome = self._run(board, limit, analyse=True, multipv=lines, game=game,
                                root_moves=root_moves, options=options)
            infos = analysis_lines(outcome.lines, board, lines)
            return infos if multipv is not None or lines > 1 else infos[0]

    def play(self, board: chess.Board, limit: chess.engine.Limit, *, game: object = None,
             info: chess.engine.Info = chess.engine.INFO_NONE, ponder: bool = False,
             root_moves: Optional[Sequence[chess.Move]] = None,
             options: Optional[Mapping[str, Any]] = None) -> chess.engine.PlayResult:
        """The move to play, as over UCI (the book may answer when OwnBook is
        on). move is None when the side to move has no legal move. `ponder`
        is accepted and ignored: there is no pipe to ponder on."""
        with self._lock:
            outcome = self._run(board, limit, analyse=False, multipv=1, game=game,
                                root_moves=root_moves, options=options)
            report = {}
            if info != chess.engine.INFO_NONE:
                report = analysis_lines(outcome.lines, board, 1)[0] if outcome.best else no_move_info(board)
            return play_result(board, outcome.best, outcome.ponder, report)

    # -- evaluation -------------------------------------------------------

    def evaluate(self, board: chess.Board) -> chess.engine.PovScore:
        """The static evaluation the search starts from (no search), as a PovScore."""
        check_board(board)
        value = int(self.evaluate_many([board])[0])
        return chess.engine.PovScore(chess.engine.Cp(value), board.turn)

    def evaluate_many(self, positions: Sequence[Union[chess.Board, str]], *,
                      white: bool = False) -> np.ndarray:
        """The static evaluation of each board or FEN, in centipawns from the
        side to move's view (white=True: from white's), as an int32 array;
        computed in the core without the GIL. ValueError names a bad item."""
        with self._lock:
            self._check_open()
            use_nnue = self._use_nnue()
            return static_eval.evaluate_many(self._core, positions, use_nnue=use_nnue,
                                       chess960=self._table["UCI_Chess960"], white=white)

    def analyse_many(self, positions: Sequence[Union[chess.Board, str]],
                     limit: Union[chess.engine.Limit, Sequence[chess.engine.Limit]], *,
                     workers: Optional[int] = None, multipv: Optional[int] = None,
                     progress: bool = True) -> list:
        """analyse() of each board or FEN, each under its own limit (one Limit
        for all, or one per position), on `workers` native search threads
        (default: the Threads option), each with its own hash table of Hash MB,
        cleared before every position: a result does not depend on the others.
        Results come in input order. Every item is checked before the first
        search: ValueError names a bad one. Ctrl-C stops the searches and
        returns what is finished, None where a position was not."""
        with self._lock:
            self._check_open()
            lines = line_count(multipv, self._table["MultiPV"])
            count = self._table["Threads"] if workers is None else workers
            if isinstance(count, bool) or not isinstance(count, int) or count < 1:
                raise ValueError(f"workers must be an integer >= 1, not {count!r}")
            jobs = parallel.checked_jobs(self._core, positions, limit, chess960=self._table["UCI_Chess960"])
            count = min(count, max(1, len(jobs)))
            while len(self._pool) < count:
                self._pool.append(Searcher(self._core, self._books, self._rng))
            pool = self._pool[:count]
            for searcher in pool:
                self._prepare(searcher)
                if searcher.search.hash_mb != self._table["Hash"]:
                    searcher.search.set_hash(self._table["Hash"])
                searcher.tablebases.get(self._table["SyzygyPath"])
            settings = go_settings(self._table, analyse=True, multipv=lines, chess960=False)
            results = parallel.analyse_many(self._core, pool, jobs, settings, progress=progress)
            if multipv is None and lines == 1:
                return [r[0] if r is not None else None for r in results]
            return results
