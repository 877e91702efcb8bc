"""Ending games early: resignation and draw by evaluation, Syzygy tables.

Rules follow cutechess-cli's meaning (ideas, not code):
  --resign movecount=N score=CP   the side whose engine saw <= -CP for its
                                  last N moves, while the opponent's engine saw
                                  >= +CP for its last N moves, loses;
  --draw movenumber=M movecount=N score=CP   from move M on, a draw when both
                                  engines saw |score| <= CP for their last N moves;
  --tb PATH                       Syzygy WDL result as soon as the position is
                                  in the tables (no castling rights left).
Scores are taken from each engine's own report for the move it played;
a move without a score breaks the run.
"""
import os
from collections import deque
from dataclasses import dataclass
from typing import Dict, Optional, Sequence

import chess
import chess.engine
import chess.syzygy

MATE_CP = 100000  # mate scores count as huge centipawn values


class AdjudicationError(ValueError):
    """A bad --resign/--draw/--tb setting."""


@dataclass(frozen=True)
class ResignRule:
    move_count: int
    score: int


@dataclass(frozen=True)
class DrawRule:
    move_number: int
    move_count: int
    score: int


@dataclass(frozen=True)
class Verdict:
    result: str        # "1-0", "0-1" or "1/2-1/2"
    reason: str        # human-readable, for the PGN comment


def _int_words(words: Sequence[str], keys: Sequence[str], option: str) -> Dict[str, int]:
    values = {}
    for word in words:
        key, sep, value = word.partition("=")
        if not sep or key not in keys:
            raise AdjudicationError(f"{option}: expected {', '.join(k + '=N' for k in keys)}; got {word!r}")
        if not value.isdigit():
            raise AdjudicationError(f"{option}: {key}= needs a whole number >= 0, not {value!r}")
        values[key] = int(value)
    missing = [k for k in keys if k not in values]
    if missing:
        raise AdjudicationError(f"{option}: missing {', '.join(k + '=' for k in missing)}")
    return values


def parse_resign(words: Sequence[str]) -> ResignRule:
    v = _int_words(words, ("movecount", "score"), "--resign")
    if v["movecount"] < 1:
        raise AdjudicationError("--resign: movecount= must be at least 1")
    return ResignRule(v["movecount"], v["score"])


def parse_draw(words: Sequence[str]) -> DrawRule:
    v = _int_words(words, ("movenumber", "movecount", "score"), "--draw")
    if v["movecount"] < 1:
        raise AdjudicationError("--draw: movecount= must be at least 1")
    return DrawRule(v["movenumber"], v["movecount"], v["score"])


class Tablebase:
    """Syzygy WDL probing, opened once and shared by all games."""

    def __init__(self, path: str):
        if not os.path.isdir(path):
            raise AdjudicationError(f"--tb: no such folder {path}")
        names = [n[:-5] for n in os.listdir(path) if n.endswith(".rtbw")]
        if not names:
            raise AdjudicationError(f"--tb: no Syzygy WDL tables (*.rtbw) in {path}")
        # "KRPvKR" has 5 pieces: its length without the "v".
        self.max_pieces = max(len(n) - 1 for n in names)
        self.tables = chess.syzygy.open_tablebase(path)

    def verdict(self, board: chess.Board) -> Optional[Verdict]:
        if board.castling_rights or chess.popcount(board.occupied) > self.max_pieces:
            return None
        try:
            wdl = self.tables.probe_wdl(board)
        except KeyError:  # that material is not in the folder
            return None
        # Cursed wins and blessed losses (+-1) are draws under the 50-move rule.
        if abs(wdl) < 2:
            return Verdict("1/2-1/2", "TB: draw")
        winner = board.turn if wdl > 0 else not board.turn
        return Verdict("1-0" if winner == chess.WHITE else "0-1",
                       f"TB: {'White' if winner == chess.WHITE else 'Black'} wins")

    def close(self) -> None:
        self.tables.close()


class Adjudicator:
    """Watches one game; ask `verdict` after each move."""

    def __init__(self, resign: Optional[ResignRule], draw: Optional[DrawRule],
                 tablebase: Optional[Tablebase]):
        self.resign, self.draw, self.tablebase = resign, draw, tablebase
        depth = max(resign.move_count if resign else 0, draw.move_count if draw else 0, 1)
        self.scores = {chess.WHITE: deque(maxlen=depth), chess.BLACK: deque(maxlen=depth)}

    def record(self, color: chess.Color, score: Optional[chess.engine.PovScore]) -> None:
        """The score the engine playing `color` reported for its move."""
        value = None if score is None else score.pov(color).score(mate_score=MATE_CP)
        if value is None:
            self.scores[color].clear()   # a move without a score breaks every run
        else:
            self.scores[color].append(value)

    def _last(self, color: chess.Color, count: int):
        recent = list(self.scores[color])[-count:]
        return recent if len(recent) == count else None

    def verdict(self, board: chess.Board) -> Optional[Verdict]:
        if self.tablebase:
            found = self.tablebase.verdict(board)
            if found:
                return found
        if self.resign:
            n, cp = self.resign.move_count, self.resign.score
            for loser in (chess.WHITE, chess.BLACK):
                mine, theirs = self._last(loser, n), self._last(not loser, n)
                if mine and theirs and max(mine) <= -cp and min(theirs) >= cp:
                    name = "White" if loser == chess.WHITE else "Black"
                    return Verdict("0-1" if loser == chess.WHITE else "1-0",
                                   f"adjudication: {name} resigns (both engines agree, {n} moves)")
        if self.draw and board.fullmove_number >= self.draw.move_number:
            n, cp = self.draw.move_count, self.draw.score
            white, black = self._last(chess.WHITE, n), self._last(chess.BLACK, n)
            if white and black and max(abs(s) for s in white + black) <= cp:
                return Verdict("1/2-1/2", f"adjudication: draw (|score| <= {cp} cp for {n} moves)")
        return None
