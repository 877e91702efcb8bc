"""Win/draw/loss estimate from a centipawn score (for UCI_ShowWDL).

The shape is Stockfish's win-rate model: the chance to win is a logistic
function of the score, win(cp) = 1 / (1 + exp((A - cp) / B)), and the chance
to lose is the same function of -cp; whatever is left is the draw chance.
A is the score at which a win becomes as likely as not, B the spread.

Stockfish fits A and B to its own games and material; Vireo has no such fit
yet, so the constants below are fixed by hand for a classical evaluation
(a pawn worth about 100 cp): a 0.00 score gives ~79% draws, +1.00 an
expected score of ~0.65, +3.00 ~0.95. They are an estimate, not a measurement.
"""
import math
from typing import Tuple

WIN_AT_CP = 150.0   # A: score (cp) with a 50% chance to win
SPREAD_CP = 70.0    # B: how fast the chance grows with the score


def _win_permille(cp: float) -> int:
    x = (WIN_AT_CP - cp) / SPREAD_CP
    if x > 50:  # exp overflow guard; the chance is 0 anyway
        return 0
    return int(round(1000.0 / (1.0 + math.exp(x))))


def wdl_from_score(kind: str, value: int) -> Tuple[int, int, int]:
    """(win, draw, loss) in per mille, side to move's view, summing to 1000.

    kind/value as the core reports scores: ("cp", centipawns) or ("mate", n),
    n > 0 when the side to move mates.
    """
    if kind == "mate":
        return (1000, 0, 0) if value > 0 else (0, 0, 1000)
    win = _win_permille(value)
    loss = _win_permille(-value)
    return win, 1000 - win - loss, loss
