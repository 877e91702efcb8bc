"""One search slot of the public API: a core Search with its own hash table
and tablebase files, running one `go` at a time through the UCI layer's own
GoTask (book, tablebase root, search, strength), so that a call in-process
does exactly what `go` does over UCI.

What the UCI layer would print is kept instead: GoTask records the last
report of each line (`task.lines`), and `info string` messages are collected
for the error they may explain.
"""
from __future__ import annotations

import random
import threading
from typing import List, Optional, Tuple

from ..uci.go import GameState, GoSettings, GoTask
from ..uci.lag import LagMeter
from ..uci.parse import GoCommand
from ..uci.resources import BookSlot, TablebaseSlot
from ..uci.runner import SearchJob, SearchRunner
from ..uci.timeman import allocate

WAIT_S = 0.05     # how often a waiting caller wakes (so that Ctrl-C is seen at once)


class Sink:
    """Stands where the UCI layer's Output would: keeps the messages, drops the lines."""

    def __init__(self):
        self.messages: List[str] = []
        self.closed = False

    def send(self, line: str) -> None:
        pass

    def info_string(self, message: str) -> None:
        self.messages.append(message)


class SearchOutcome:
    def __init__(self, best: Optional[str], ponder: Optional[str], lines: dict, messages: List[str]):
        self.best, self.ponder, self.lines, self.messages = best, ponder, lines, messages


class Searcher:
    def __init__(self, core, books: BookSlot, rng: random.Random):
        self.core = core
        self.search = core.Search()
        self.sink = Sink()
        self.runner = SearchRunner(self.sink, self.search.stop, self.search.set_limits)
        self.books = books
        self.tablebases = TablebaseSlot(self.sink.info_string)
        self.lag = LagMeter()
        self.rng = rng

    def run(self, game: GameState, go: GoCommand, settings: GoSettings, *, background: bool) -> SearchOutcome:
        """Search once. background: in a thread of its own while this one waits
        (a KeyboardInterrupt here stops the search, then goes on up); else in
        this thread (a worker of analyse_many, stopped through stop())."""
        self.sink.messages = []
        task = GoTask(search=self.search, game=game, go=go, settings=settings, out=self.sink,
                      runner=self.runner, allocate=allocate, books=self.books,
                      tablebases=self.tablebases, rng=self.rng, lag=self.lag)
        job = SearchJob(go)
        job.task = task
        job.on_answered = task.answered
        result: List[Tuple[Optional[str], Optional[str]]] = []
        failure: List[BaseException] = []

        def work(this_job):
            try:
                result.append(task(this_job))
            except BaseException as exc:    # raised again in the caller's thread, below
                failure.append(exc)
            return result[0] if result else None

        if task.timed and go.has_clock():
            self.lag.new_go(task.game_ply(), go.wtime if game.position.turn else go.btime)
        self.runner.start(job, work, task.emergency_move, inline=not background)
        try:
            while not job.done.wait(WAIT_S):
                pass
        except KeyboardInterrupt:
            self.runner.stop()
            raise
        if failure:
            raise failure[0]
        best, ponder = result[0] if result else (None, None)
        return SearchOutcome(best, ponder, dict(task.lines), list(self.sink.messages))

    def stop(self) -> None:
        """Stop the search running now, from any thread (a no-op between searches)."""
        self.runner.stop()

    def close(self) -> None:
        self.stop()
        self.tablebases.close()
