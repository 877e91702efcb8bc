"""Clock handling for `go` on top of engine.uci.timeman.allocate: a reserve
that the UCI layer keeps on the clock whatever the allocation says."""
from __future__ import annotations

from typing import Optional, Tuple


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
