"""The lag this engine really sees on this machine, kept back on the clock.

A move costs more wall time than the search was allowed: the reader and the
worker thread wait for a core and for the GIL, the search's stop is noticed
late when its thread is descheduled, bestmove waits in the pipe, and the GUI
charges what happens on its side too. On a quiet machine that is a few
milliseconds; on two cores shared by eight busy processes it was 30-90 ms a
move against 10-15 ms planned (docs/results.md, "Long runs"), more than any fixed
Move Overhead allows for at 1+0.01.

So each timed move is measured, and what it cost beyond the time the search
was allowed ("late") feeds an exponential moving maximum: a spike raises the
estimate at once, quiet searched moves let it decay by DECAY a move. A 1 ms
answer (the clock below the reserve) or a book move says nothing about how
late a stop is noticed, so it never lowers the estimate; its cost is the
floor of a move, tracked apart, and what the increment does not repay of it
is kept back for every move still to come (to the control with movestogo,
else for SUDDEN_DEATH_MOVES). Stockfish does the like in sudden death: it
keeps Move Overhead back for 2 + 50 moves, and its Move Overhead is many
times what one of its moves really costs. The clock allocation treats the
reserve as extra move overhead (engine.uci.clock). Two measures, the larger
counts:

* the engine's own: from reading `go` to writing `bestmove`;
* the GUI's: how much the clock fell between two `go`s of the same game
  (time left before + increment - time left now), which includes what the
  engine cannot see (the pipe, the GUI's own delays).

Stockfish keeps a fixed Move Overhead; an adaptive reserve like this one is
what cutechess-style engine testing on overloaded machines calls for, and the
moving maximum is the usual peak-hold estimator (fast attack, slow decay).
"""
from __future__ import annotations

from typing import Optional, Tuple


DECAY = 0.9          # per timed move without a larger lag
SAFETY = 1.5         # reserve = SAFETY * estimate: lag comes in spikes
MAX_LAG_MS = 2000    # one stall of seconds (swapping) must not freeze play for long
INSTANT_MS = 1       # a hard limit this small is a 1 ms answer, not a search
# Without movestogo, the floor is kept back for this many moves at every ply.
# A game that reaches 1 ms answers is often a long drawn endgame: at 2+0 the
# games that overstepped ran 103-145 moves and answered in 1 ms for the last
# 50 or so (benchmarks/long_run.py); the time manager's shrinking estimate
# of the moves left (down to 20), and then 50, were too few. At 2+0 with a
# 2-4 ms floor this keeps 200-400 ms back, as Stockfish's 52 x 10 ms does.
SUDDEN_DEATH_MOVES = 100


class LagMeter:
    def __init__(self) -> None:
        self.estimate = 0.0          # ms, the moving maximum of late
        self.floor = 0.0             # ms, the same over 1 ms answers: what any move costs
        self._floor_seen = False     # until a 1 ms answer, the whole estimate stands for it
        self.worst = 0.0             # ms, the largest ever seen (for debug output)
        # (ply, time left, increment, allowed ms, searched) of the last timed move answered
        self._last: Optional[Tuple[int, int, int, int, bool]] = None

    def reserve_ms(self, movestogo: Optional[int] = None, inc: Optional[int] = None,
                   ply: int = 0) -> int:
        """Extra milliseconds to keep back, on top of Move Overhead: the lag of
        this move, and what the floor costs beyond the increment on each later
        move: before the control with movestogo, else over SUDDEN_DEATH_MOVES.
        inc None: not known (no clock), only this move's lag counts. ply is
        kept for callers; the horizon no longer depends on it."""
        if inc is None:
            return int(SAFETY * self.estimate + 0.5)
        # The floor is steady, not a spike: no SAFETY factor on it. Until a
        # 1 ms answer (or a book move) has shown it, assume the worst.
        floor = self.floor if self._floor_seen else self.estimate
        # a 1 ms answer costs its own millisecond as well as what it is late
        drain = max(0.0, floor + INSTANT_MS - inc)
        later = max(0, movestogo - 1) if movestogo else SUDDEN_DEATH_MOVES
        return int(SAFETY * self.estimate + later * drain + 0.5)

    def record(self, late_ms: float, searched: bool = True) -> None:
        late = min(max(0.0, float(late_ms)), MAX_LAG_MS)
        if searched:
            self.estimate = max(late, self.estimate * DECAY)
        else:
            self.estimate = max(late, self.estimate)
            self.floor = max(late, self.floor * DECAY) if self._floor_seen else late
            self._floor_seen = True
        self.worst = max(self.worst, late)

    def answered(self, ply: int, time_left: Optional[int], inc: Optional[int],
                 elapsed_ms: float, allowed_ms: float, hard_ms: Optional[int] = None) -> None:
        """A timed move went out elapsed_ms after its `go`; the search was allowed
        allowed_ms of that (what it used, at most its hard limit hard_ms; None:
        no search, a book move)."""
        searched = hard_ms is not None and hard_ms > INSTANT_MS
        self.record(elapsed_ms - allowed_ms, searched)
        if time_left is None:
            self._last = None
        else:
            self._last = (ply, int(time_left), int(inc or 0), int(allowed_ms), searched)

    def new_go(self, ply: int, time_left: Optional[int]) -> None:
        """A `go` with the clock: compare it with the previous move's clock."""
        last, self._last = self._last, None
        if last is None or time_left is None or ply != last[0] + 2:
            return                   # another game, or a position set up afresh
        _, before, inc, allowed, searched = last
        charged = before + inc - int(time_left)
        if charged < 0:
            return                   # a new time control period added time
        self.record(charged - allowed, searched)

    def clear(self) -> None:
        """Forget the last move (ucinewgame); the machine's lag is kept."""
        self._last = None
