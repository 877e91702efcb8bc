"""A game's evaluations turned into what a player reads: per move its mark,
its centipawn loss and the better line; per side accuracy and average loss."""
from dataclasses import dataclass, field
from typing import List, Optional

import chess

from .analyser import PositionEval
from .games import GameInput, move_number
from .judgement import BLUNDER, MISTAKE, Judgement, judge
from .winchance import centipawns, game_accuracy


@dataclass
class MoveReview:
    ply: int                      # 1 for the first move of the game
    label: str                    # "12..." and the SAN: "12... Qxd4"
    san: str
    move: chess.Move
    board_before: chess.Board
    before: PositionEval          # the position the move was played in
    after: PositionEval           # the position it led to
    judgement: Judgement
    cp_loss: int                  # centipawns the move lost for its side (0 or more, mates at 1000)

    @property
    def mover(self) -> chess.Color:
        return self.board_before.turn

    @property
    def serious(self) -> bool:
        """Mistakes and blunders: they get the better line and a diagram."""
        return self.judgement.nag in (MISTAKE, BLUNDER)

    @property
    def better(self) -> Optional[chess.Move]:
        best = self.before.best
        return best if best is not None and best != self.move else None


@dataclass
class SideSummary:
    accuracy: float
    acpl: float                   # average centipawn loss
    marks: dict = field(default_factory=dict)   # NAG -> count


@dataclass
class GameReview:
    item: GameInput
    start: PositionEval
    moves: List[MoveReview]
    white: SideSummary
    black: SideSummary

    def white_centipawns(self) -> List[int]:
        """White's centipawns at the start and after each move."""
        return [centipawns(self.start.score.white())] + [centipawns(m.after.score.white()) for m in self.moves]


def review(item: GameInput, evals: List[PositionEval]) -> GameReview:
    board = item.game.board()
    white_moved_first = board.turn == chess.WHITE
    moves = []
    for ply, move in enumerate(item.moves(), 1):
        before, after = evals[ply - 1], evals[ply]
        mover = board.turn
        san = board.san(move)
        forced = board.legal_moves.count() == 1
        verdict = judge(before.score.pov(mover), after.score.pov(mover), forced, before.best == move)
        loss = max(0, centipawns(before.score.pov(mover)) - centipawns(after.score.pov(mover)))
        moves.append(MoveReview(ply, f"{move_number(board)} {san}", san, move, board.copy(stack=False),
                                before, after, verdict, loss))
        board.push(move)
    reviewed = GameReview(item, evals[0], moves, SideSummary(100.0, 0.0), SideSummary(100.0, 0.0))
    accuracy = game_accuracy(reviewed.white_centipawns(), white_moved_first)
    for side, summary, acc in ((chess.WHITE, reviewed.white, accuracy[0]), (chess.BLACK, reviewed.black, accuracy[1])):
        own = [m for m in moves if m.mover == side]
        summary.accuracy = acc
        summary.acpl = sum(m.cp_loss for m in own) / len(own) if own else 0.0
        for m in own:
            if m.judgement.nag:
                summary.marks[m.judgement.nag] = summary.marks.get(m.judgement.nag, 0) + 1
    return reviewed
