"""When a self-play game is decided before its natural end, to save time on
lost or dead positions (the rules of common datagen setups, e.g. Stockfish's
and bullet users' scripts: a long run of decisive scores is a win, a long run
of near-zero scores late in the game a draw).

Scores are from white's point of view, in centipawns; mate scores count as
beyond any threshold. Syzygy, when given, decides every position in the
tables exactly.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import chess

from ..marlinformat import BLACK_WIN, DRAW, WHITE_WIN


@dataclass(frozen=True)
class AdjudicationRules:
    win_score: int = 1500       # |score| at least this ...
    win_plies: int = 6          # ... for this many plies in a row, same sign
    draw_score: int = 10        # |score| at most this ...
    draw_plies: int = 12        # ... for this many plies in a row ...
    draw_after: int = 80        # ... once the game has run this many plies
    max_plies: int = 600        # a game this long is a draw


class Adjudicator:
    def __init__(self, rules: AdjudicationRules, tablebases=None):
        self.rules = rules
        self.tablebases = tablebases
        self.win_run = 0
        self.draw_run = 0

    def tablebase_result(self, board: chess.Board) -> Optional[int]:
        if self.tablebases is None or not self.tablebases.probable(board):
            return None
        wdl = self.tablebases.probe_wdl(board)
        if wdl is None:
            return None
        if -1 <= wdl <= 1:      # cursed wins and blessed losses are draws by the 50-move rule
            return DRAW
        return WHITE_WIN if (wdl > 0) == board.turn else BLACK_WIN

    def after_search(self, white_score: int, plies: int) -> Optional[int]:
        """The result, when the scores so far decide the game; None to play on."""
        rules = self.rules
        if abs(white_score) >= rules.win_score:
            same_side = self.win_run == 0 or (self.win_run > 0) == (white_score > 0)
            self.win_run = (abs(self.win_run) + 1 if same_side else 1) * (1 if white_score > 0 else -1)
        else:
            self.win_run = 0
        if abs(self.win_run) >= rules.win_plies:
            return WHITE_WIN if self.win_run > 0 else BLACK_WIN
        self.draw_run = self.draw_run + 1 if abs(white_score) <= rules.draw_score else 0
        if plies >= rules.draw_after and self.draw_run >= rules.draw_plies:
            return DRAW
        if plies >= rules.max_plies:
            return DRAW
        return None
