"""How much of the clock one move may use: a soft and a hard limit.

allocate(wtime, btime, winc, binc, movestogo, white_to_move, move_overhead_ms, ply)
    -> (soft_ms, hard_ms)

The search stops after an iteration once it has used the soft limit (scaled
by how settled its best move is, between 0.7x and about 2x) and aborts at the
hard limit. The rules that keep it from ever losing on time:

* what may be spent this move ("usable") is the clock minus the move
  overhead (the GUI's and the operating system's latency, a UCI option);
* the hard limit never exceeds a fraction of usable: 80 % when this is the
  last move before the time control (movestogo 1), otherwise at most a third
  of it, so a few moves in a row at the hard limit still leave time;
* the increment counts only once it is safe: it arrives after the move, so
  spending it needs the clock to hold it already.

The ideas (a share of the remaining time plus most of the increment, a hard
cap a few times the share) are the common ones of Stockfish, Ethereal and
others; the constants are ours, checked by tests/uci/test_timeman.py with
simulated games down to 1 s + 10 ms and movestogo 1.
"""
from __future__ import annotations

from typing import Optional, Tuple

# assumed moves to go without movestogo, early in the game. 40 rather than 50:
# more of the clock goes to the opening and early middlegame, where Stockfish
# 11 spent 0.40 s a move at 10+0.1 against Vireo's 0.33 s, and less to the
# late endgame (0.13 s against 0.17 s; docs/results.md, the time profile).
MOVES_LEFT_MAX = 40
MOVES_LEFT_MIN = 20          # ... and late in the game
INC_SHARE = 0.75             # part of the increment spent each move
HARD_PER_SOFT = 4.0          # hard limit = this many soft limits at most
HARD_SHARE = 0.33            # of usable, when more moves follow before the control
HARD_SHARE_LAST = 0.8        # of usable, on the last move before the control
SOFT_SHARE_LAST = 0.5        # of usable, soft limit on that last move
MTG_RESERVE = 2              # with movestogo: plan for this many moves more
MTG_HARD_SHARES = 1.5        # with movestogo: hard <= this many equal shares of usable


def moves_left(ply: int) -> int:
    """Moves assumed to remain without movestogo: fewer as the game goes on."""
    return max(MOVES_LEFT_MIN, MOVES_LEFT_MAX - max(0, ply) // 4)


def _non_negative(name: str, value) -> int:
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{name} must be a number of milliseconds, not {value!r}")
    return max(0, int(value))


def allocate(wtime: Optional[int], btime: Optional[int], winc: Optional[int], binc: Optional[int],
             movestogo: Optional[int], white_to_move: bool, move_overhead_ms: int,
             ply: int) -> Tuple[int, int]:
    """(soft_ms, hard_ms) for the side to move; both >= 1 and soft <= hard.

    Missing values (None) count as 0; a missing clock for the side to move
    gives the minimum (1 ms): the search still completes depth 1.
    """
    time_left = _non_negative("wtime" if white_to_move else "btime", wtime if white_to_move else btime)
    inc = _non_negative("winc" if white_to_move else "binc", winc if white_to_move else binc)
    overhead = _non_negative("move_overhead_ms", move_overhead_ms)
    ply = _non_negative("ply", ply)
    mtg = _non_negative("movestogo", movestogo)

    usable = time_left - overhead
    if usable <= 0:
        return 1, 1

    if mtg == 1:
        soft = usable * SOFT_SHARE_LAST
        hard = usable * HARD_SHARE_LAST
    else:
        left = moves_left(ply)
        hard_cap = HARD_SHARE * usable
        if mtg:
            # A reserve of MTG_RESERVE moves; and even a hard-limit move
            # every time leaves a share for each move still to come.
            left = min(left, mtg + MTG_RESERVE)
            hard_cap = min(hard_cap, MTG_HARD_SHARES * usable / (mtg + 1))
        # The increment is spent only out of what is on the clock already.
        inc_part = min(INC_SHARE * inc, 0.5 * usable)
        soft = usable / left + inc_part
        hard = min(HARD_PER_SOFT * soft, hard_cap)
        soft = min(soft, hard)
    soft_ms = max(1, int(soft))
    hard_ms = max(soft_ms, int(hard))
    return soft_ms, hard_ms
