"""Running one `go` at a time in a worker thread, so the reader never waits on it.

UCI rules kept here:
  * exactly one bestmove per go (perft, an extension, prints none);
  * in infinite and ponder mode bestmove waits for `stop` or `ponderhit`,
    even when the search ends on its own;
  * `stop` returns once the bestmove is out, so the next command sees an
    idle engine (the core stops within milliseconds);
  * a watchdog timer stops the core at the hard time limit in case a limit
    got lost (a stop or ponderhit that raced with the start of the search).
"""
from __future__ import annotations

import threading
import time
from typing import Callable, Optional, Tuple

from .output import Output, format_bestmove
from .parse import GoCommand

BestMove = Tuple[Optional[str], Optional[str]]
STOP_RETRY_S = 0.01     # how often `stop` repeats itself while waiting
STOP_GIVE_UP_S = 5.0    # a stop that gets no answer: report it and serve on


class SearchJob:
    """One `go`: its parameters and the events that tie the threads together."""

    def __init__(self, go: GoCommand, emits_bestmove: bool = True):
        self.go = go
        self.emits_bestmove = emits_bestmove
        self.hold = go.holds_bestmove()
        self.released = threading.Event()   # stop or ponderhit arrived
        self.done = threading.Event()       # the worker has finished (bestmove written)
        # Set just before the bestmove line goes out: a client may send the next
        # `go` as soon as it reads bestmove, before `done` is set.
        self.answered = threading.Event()
        self.lock = threading.Lock()
        self.stop_requested = False
        self.core_started = False            # Search.go has been entered
        self.pending_limits: Optional[Tuple[int, int, float]] = None  # ponderhit before start
        self.watchdog: Optional[threading.Timer] = None
        self.task = None   # what runs (uci_go.GoTask for a search): ponderhit asks it for the clock
        self.on_answered: Optional[Callable[[], None]] = None   # as bestmove goes out (lag meter)


class SearchRunner:
    def __init__(self, out: Output, stop_core: Callable[[], None],
                 set_core_limits: Callable[[int, int], None]):
        self.out = out
        self._stop_core = stop_core
        self._set_core_limits = set_core_limits
        self.job: Optional[SearchJob] = None

    def busy(self) -> bool:
        job = self.job
        return job is not None and not job.done.is_set() and not job.answered.is_set()

    def start(self, job: SearchJob, work: Callable[[SearchJob], Optional[BestMove]],
              emergency: Callable[[], BestMove], inline: bool = False) -> None:
        """Run work(job) in a new thread; it returns (best, ponder) or None (no bestmove).

        inline: run it here, in the reader's thread, and return after the
        bestmove. Only for a move that must be answered at once (the clock is
        below its reserve, a 1 ms search): on a loaded machine a new thread
        waits for a core like any process, and that wait was most of what
        such a move cost (benchmarks/long_run.py, docs/results.md "Long runs").
        Nothing can interrupt it, so it must be short and never hold its
        bestmove (no ponder, no infinite).
        """
        self.job = job
        if inline and not job.hold:
            self._run(job, work, emergency)
            return
        thread = threading.Thread(target=self._run, args=(job, work, emergency),
                                  name="vireo-search", daemon=True)
        thread.start()

    def _run(self, job: SearchJob, work, emergency) -> None:
        result: Optional[BestMove] = None
        try:
            result = work(job)
        except Exception as exc:  # never let a search error reach stdout as a traceback
            self.out.info_string(f"error: search failed: {type(exc).__name__}: {exc}")
            result = _safe(emergency) if job.emits_bestmove else None
        finally:
            self.cancel_watchdog(job)
            try:
                if job.emits_bestmove:
                    if job.hold:
                        job.released.wait()
                    best, ponder = result if result else (None, None)
                    # Before the line goes out: the next `go` may follow at once.
                    if job.on_answered is not None:
                        _safe_call(job.on_answered)
                    job.answered.set()
                    self.out.send(format_bestmove(best, ponder))
            finally:
                job.done.set()

    # -- limits ---------------------------------------------------------

    def arm_watchdog(self, job: SearchJob, hard_ms: int) -> None:
        self.cancel_watchdog(job)
        timer = threading.Timer(max(hard_ms, 1) / 1000.0, self._stop_core)
        timer.daemon = True
        job.watchdog = timer
        timer.start()

    @staticmethod
    def cancel_watchdog(job: SearchJob) -> None:
        if job.watchdog is not None:
            job.watchdog.cancel()
            job.watchdog = None

    def mark_core_started(self, job: SearchJob) -> Tuple[bool, Optional[Tuple[int, int, float]]]:
        """Called by the worker just before Search.go: (stop already asked, ponderhit limits)."""
        with job.lock:
            job.core_started = True
            return job.stop_requested, job.pending_limits

    # -- commands from the reader ---------------------------------------

    def stop(self) -> None:
        """`stop` (and quit): end the search, release the bestmove, wait until it is out."""
        job = self.job
        if job is None or job.done.is_set():
            return
        with job.lock:
            job.stop_requested = True
        job.released.set()
        deadline = time.monotonic() + STOP_GIVE_UP_S
        # Repeat the stop: one sent before the core entered its loop may be reset by it.
        while not job.done.is_set():
            self._stop_core()
            if job.done.wait(STOP_RETRY_S):
                return
            if time.monotonic() > deadline:
                self.out.info_string("error: the search did not stop in time; serving on")
                return

    def ponderhit(self, limits: Optional[Tuple[int, int]]) -> None:
        """The opponent played the expected move: the ponder search now counts.

        limits: (soft_ms, hard_ms) from the clock of the `go ponder`, or None
        when that go had no time limit (depth, nodes: nothing to change).
        """
        job = self.job
        if job is None or job.done.is_set() or not job.go.ponder:
            self.out.info_string("ponderhit ignored: no ponder search is running")
            return
        job.go.ponder = False
        if limits is not None:
            soft, hard = limits
            with job.lock:
                started = job.core_started
                if not started:
                    job.pending_limits = (soft, hard, time.monotonic())
            if started:
                self._set_core_limits(soft, hard)
            self.arm_watchdog(job, hard)
        if not job.go.infinite:
            job.hold = False
            job.released.set()

    def wait_idle(self, timeout: float) -> bool:
        job = self.job
        return job is None or job.done.wait(timeout)


def _safe(emergency: Callable[[], BestMove]) -> BestMove:
    try:
        return emergency()
    except Exception:
        return None, None


def _safe_call(callback: Callable[[], None]) -> None:
    try:
        callback()
    except Exception:  # bookkeeping after bestmove must never end the worker
        pass
