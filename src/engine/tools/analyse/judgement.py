"""The marks a move earns: inaccuracy ?!, mistake ?, blunder ??.

A move is judged by the win % it loses for its side (winchance.py), with
lichess's thresholds (lila, modules/analyse: Advice.scala): 0.1, 0.2 and 0.3
in "winning chances" (-1..1), which are 5, 10 and 15 points of win %.

Mates, as lichess's mate advice judges them (a mate counts as only 10 pawns
in win %, so a lost mate in 2 that still leaves a queen up would go unseen):
  - a forced mate thrown away: ?! if still at least +10 pawns after, ? if +7, else ??
  - walking into a forced mate: ?! if already at -10 pawns before, ? if -7, else ??

Two rules of our own, so the marks mean what a player expects:
  - a forced move (the only legal one) is never marked;
  - in a position already lost (the mover's win % below LOST_BELOW, about -3.8
    pawns) a move is at worst a mistake, never a blunder: there was little left to lose;
  - the move the engine itself chose as best is never marked (a search that sees
    more at the next position does not make the first choice a mistake).
"""
from dataclasses import dataclass
from typing import Optional

import chess
import chess.engine
import chess.pgn

from .winchance import centipawns, win_percent

INACCURACY, MISTAKE, BLUNDER = chess.pgn.NAG_DUBIOUS_MOVE, chess.pgn.NAG_MISTAKE, chess.pgn.NAG_BLUNDER
THRESHOLDS = ((15.0, BLUNDER), (10.0, MISTAKE), (5.0, INACCURACY))   # win % points lost, worst first
LOST_BELOW = 20.0   # win % of the mover: below it the position was already lost
SYMBOLS = {INACCURACY: "?!", MISTAKE: "?", BLUNDER: "??"}
NAMES = {INACCURACY: "inaccuracy", MISTAKE: "mistake", BLUNDER: "blunder"}


@dataclass
class Judgement:
    win_before: float          # the mover's win % before the move
    win_after: float           # ... and after it
    nag: Optional[int] = None  # INACCURACY, MISTAKE, BLUNDER or None

    @property
    def loss(self) -> float:
        return max(0.0, self.win_before - self.win_after)

    @property
    def symbol(self) -> str:
        return SYMBOLS.get(self.nag, "")


def _by_loss(loss: float) -> Optional[int]:
    return next((nag for threshold, nag in THRESHOLDS if loss >= threshold), None)


def _mates(score: chess.engine.Score, for_us: bool) -> bool:
    """A forced mate for (or against) this side; a mate on the board (#+0, #-0) included."""
    zero = chess.engine.Cp(0)
    return score.is_mate() and (score > zero if for_us else score < zero)


def _by_mate(before: chess.engine.Score, after: chess.engine.Score) -> Optional[int]:
    """lichess's mate advice; None where it does not apply."""
    if _mates(before, True) and not _mates(after, True):   # the mate is gone
        cp = after.score(mate_score=100_000)
        return INACCURACY if cp >= 1000 else MISTAKE if cp >= 700 else BLUNDER
    if _mates(after, False) and not _mates(before, False):   # walked into one
        cp = before.score(mate_score=100_000)
        return INACCURACY if cp <= -1000 else MISTAKE if cp <= -700 else BLUNDER
    return None


def judge(before: chess.engine.Score, after: chess.engine.Score, forced: bool, engine_choice: bool) -> Judgement:
    """The mark of a move from the scores before and after it, both from the mover's view."""
    verdict = Judgement(win_percent(centipawns(before)), win_percent(centipawns(after)))
    if forced or engine_choice:
        return verdict
    nag = _by_mate(before, after)
    if nag is None:
        nag = _by_loss(verdict.loss)
    if nag == BLUNDER and verdict.win_before < LOST_BELOW:
        nag = MISTAKE
    verdict.nag = nag
    return verdict
