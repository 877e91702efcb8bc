"""Clock handling for `go` on top of engine.uci.timeman.allocate: a reserve
that the UCI layer keeps on the clock whatever the allocation says, and the
measured lag of this machine (engine.uci.lag) counted as move overhead."""
from __future__ import annotations

from typing import Optional, Tuple

from .timeman import allocate


# Kept on the clock whatever the allocator says: a loaded machine can delay a
# Python process by tens of milliseconds (measured here: spikes of 15-20 ms
# on 2 busy cores), and with a tiny increment that is the whole margin.
RESERVE_MS = 50


def clamp_to_clock(soft_ms: int, hard_ms: int, time_left: Optional[int],
                   move_overhead_ms: int) -> Tuple[int, int]:
    """Never plan to leave less than RESERVE_MS + the overhead on the clock.

    When the clock is already below that, think 1 ms (a depth-1 answer) and let
    the increments build the reserve back up.
    """
    if time_left is None:
        return soft_ms, hard_ms
    hard = max(1, min(hard_ms, time_left - move_overhead_ms - RESERVE_MS))
    return max(1, min(soft_ms, hard)), hard


def plan_clock(wtime, btime, winc, binc, movestogo, white_to_move: bool, move_overhead_ms: int,
               ply: int, lag_reserve_ms: int = 0, spent_ms: int = 0,
               allocator=allocate) -> Tuple[int, int]:
    """(soft_ms, hard_ms) for a `go` with a clock, counted from now.

    lag_reserve_ms: the machine's measured lag (LagMeter.reserve_ms()), kept
    back like Move Overhead. spent_ms: time already gone since the `go` was
    read (book, tablebase ranking), which the search's own clock never sees.
    """
    overhead = max(0, int(move_overhead_ms)) + max(0, int(lag_reserve_ms))
    soft, hard = allocator(wtime, btime, winc, binc, movestogo, white_to_move, overhead, ply)
    soft, hard = clamp_to_clock(int(soft), int(hard), wtime if white_to_move else btime, overhead)
    spent = max(0, int(spent_ms))
    return max(1, soft - spent), max(1, hard - spent)
