"""Win probability and accuracy, as lichess computes them.

From lichess's published source (lila, modules/analyse: WinPercent.scala and
AccuracyPercent.scala; described at https://lichess.org/page/accuracy),
re-written here:

    win %  = 50 + 50 * (2 / (1 + exp(-0.00368208 * cp)) - 1)
             cp from the mover's side, clipped to +-1000; a mate counts as +-1000
    move accuracy % = 103.1668100711649 * exp(-0.04354415386753951 * (win % lost)) - 3.166924740191411
             + 1 (lichess's allowance for imperfect analysis), kept within 0..100; 100 if no win % is lost
    game accuracy % = the mean of (a) the moves' accuracies weighted by how much the game swung
             around them (standard deviation of the win % over a window of plies, kept within
             0.5..12) and (b) their harmonic mean (each accuracy at least 1).
"""
import math
from statistics import pstdev
from typing import List, Sequence, Tuple

import chess
import chess.engine

CP_CLIP = 1000          # lichess's ceiling: a mate, or anything beyond 10 pawns, counts as 10 pawns
WIN_SLOPE = 0.00368208  # fitted by lichess to the results of rated games


def centipawns(score: chess.engine.Score) -> int:
    """A score from one side's view as centipawns within +-CP_CLIP (mates at the ends)."""
    return max(-CP_CLIP, min(CP_CLIP, score.score(mate_score=100 * CP_CLIP)))


def win_percent(cp: float) -> float:
    cp = max(-CP_CLIP, min(CP_CLIP, cp))
    return 50 + 50 * (2 / (1 + math.exp(-WIN_SLOPE * cp)) - 1)


def move_accuracy(win_before: float, win_after: float) -> float:
    """Accuracy of one move from the mover's win % before and after it."""
    if win_after >= win_before:
        return 100.0
    raw = 103.1668100711649 * math.exp(-0.04354415386753951 * (win_before - win_after)) - 3.166924740191411
    return max(0.0, min(100.0, raw + 1))


def game_accuracy(white_cps: Sequence[int], white_moved_first: bool) -> Tuple[float, float]:
    """(White's, Black's) accuracy % over a game, from White's centipawns at the start
    and after each move (len = moves + 1). A side with no move gets 100."""
    wins = [win_percent(cp) for cp in white_cps]
    moves = len(wins) - 1
    if moves < 1:
        return 100.0, 100.0
    window = max(2, min(8, moves // 10))
    # lichess pads the front with copies of the first window, so the first moves get a weight too.
    windows = [wins[:window]] * (window - 2) + [wins[i:i + window] for i in range(max(1, len(wins) - window + 1))]
    weights = [max(0.5, min(12.0, pstdev(w))) for w in windows]
    per_side: List[List[Tuple[float, float]]] = [[], []]   # (accuracy, weight): White, Black
    for ply in range(moves):
        white_moves = (ply % 2 == 0) == white_moved_first
        before, after = wins[ply], wins[ply + 1]
        accuracy = move_accuracy(before, after) if white_moves else move_accuracy(100 - before, 100 - after)
        per_side[0 if white_moves else 1].append((accuracy, weights[min(ply, len(weights) - 1)]))
    return _side_accuracy(per_side[0]), _side_accuracy(per_side[1])


def _side_accuracy(moves: Sequence[Tuple[float, float]]) -> float:
    if not moves:
        return 100.0
    weighted = sum(a * w for a, w in moves) / sum(w for _, w in moves)
    harmonic = len(moves) / sum(1 / max(1.0, a) for a, _ in moves)
    return (weighted + harmonic) / 2


def white_centipawns(score: chess.engine.PovScore) -> int:
    return centipawns(score.white())


def mover_centipawns(score: chess.engine.PovScore, mover: chess.Color) -> int:
    return centipawns(score.pov(mover))
