"""Clock handling for `go`: which allocator to use, and a simple one to fall back on.

The search engineer's engine.timeman.allocate is the real allocator; this
module only stands in while it is missing (or broken), so that the UCI layer
never plays without a time limit. Both share one signature:
    allocate(wtime, btime, winc, binc, movestogo, white_to_move,
             move_overhead_ms, ply) -> (soft_ms, hard_ms)
"""
from __future__ import annotations

from typing import Callable, Optional, Tuple

Allocator = Callable[..., Tuple[int, int]]


def fallback_allocate(wtime: Optional[int], btime: Optional[int], winc: Optional[int],
                      binc: Optional[int], movestogo: Optional[int], white_to_move: bool,
                      move_overhead_ms: int, ply: int) -> Tuple[int, int]:
    """A plain share of the clock: remaining / moves-to-go + most of the increment.

    The hard limit may spend up to 4x the soft share, but never more than a
    share that leaves time for the moves still due before the next time
    control (2/(movestogo+1) of the clock), and never more than 80% of what
    is left after the overhead, so even movestogo 1 or a 10 ms clock keep a
    margin.
    """
    time_left = wtime if white_to_move else btime
    inc = (winc if white_to_move else binc) or 0
    if time_left is None:
        time_left = 0
    usable = max(1, time_left - move_overhead_ms)
    # Without moves-to-go, assume fewer moves remain as the game goes on.
    moves = movestogo if movestogo else max(20, 45 - ply // 4)
    hard_cap = 0.8 * usable
    if movestogo and movestogo > 1:
        hard_cap = min(hard_cap, 2 * usable / (movestogo + 1))
    soft = min(usable / moves + 0.75 * inc, 0.5 * hard_cap)
    hard = min(4 * soft, hard_cap)
    return max(1, int(soft)), max(1, int(hard))


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


def pick_allocator() -> Tuple[Allocator, str]:
    """(allocate, where it comes from)."""
    try:
        from .timeman import allocate  # the search engineer's allocator
        return allocate, "engine.timeman"
    except Exception:  # missing or broken module: keep playing with the fallback
        return fallback_allocate, "engine.uci_time (fallback)"
