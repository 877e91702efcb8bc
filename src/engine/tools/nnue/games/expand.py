"""A kept game -> the Marlinformat records trained on.

The filter is datagen's (datagen/game.py, `keep`), applied here to the
replayed game instead of during play, so that a kept file stays whole games
and still says exactly which positions were trained on. A position before
move m (ply m from the stored start) is kept when
  - m >= the game's skip plies (stored in the game),
  - its score is a centipawn score: not NO_SCORE, |score| < MAX_SCORE
    (mate and tablebase scores are beyond it),
  - the side to move is not in check,
  - move m is neither a capture nor a promotion.
Each kept position gets the game's result. The count must equal the one the
writer stored in the game; a file that disagrees is refused.
"""
from __future__ import annotations

from typing import Iterable, Iterator, List

import chess

from ..marlinformat import encode
from .layout import NO_SCORE, Game, GameFormatError

MAX_SCORE = 10000       # datagen's GameSettings.max_score


def kept(board: chess.Board, move: chess.Move, score: int, ply: int, skip_plies: int) -> bool:
    return (ply >= skip_plies and score != NO_SCORE and abs(score) < MAX_SCORE
            and not board.is_check() and not move.promotion and not board.is_capture(move))


def expand_game(game: Game, number: int = 0, name: str = "data") -> List[bytes]:
    board = game.start.copy(stack=False)
    records = []
    for ply, (move, score) in enumerate(zip(game.moves, game.scores)):
        if not board.is_legal(move):
            raise GameFormatError(f"{name}: game {number}, ply {ply}: {move.uci()} is not legal in {board.fen()}")
        if kept(board, move, score, ply, game.skip_plies):
            records.append(encode(board, score, game.result))
        board.push(move)
    if len(records) != game.positions:
        raise GameFormatError(f"{name}: game {number} gives {len(records)} positions, "
                              f"its writer counted {game.positions}")
    return records


def count_kept(game: Game) -> int:
    """The filter's count for a game being written (its stored count not yet known)."""
    board = game.start.copy(stack=False)
    count = 0
    for ply, (move, score) in enumerate(zip(game.moves, game.scores)):
        count += kept(board, move, score, ply, game.skip_plies)
        board.push(move)
    return count


def expand_games(games: Iterable[Game], name: str = "data") -> Iterator[bytes]:
    for number, game in enumerate(games):
        yield from expand_game(game, number, name)
