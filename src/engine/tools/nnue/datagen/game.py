"""One self-play game of the core against itself at a fixed node budget, and
the positions it keeps for training.

A position is kept (the filters of most NNUE datagen, e.g. Stockfish's
`gensfen` and bullet users' datagen: the evaluation should learn quiet
positions whose search score the static picture can explain) when
  - the game has run at least `skip_plies` searched plies,
  - the side to move is not in check,
  - the move the search chose is not a capture and not a promotion,
  - the score is a centipawn score below `max_score` (no mate, no tablebase win).
Each kept position gets the game's final result once the game is over.

Each score comes from a completed search (`scores = "completed"`, the
default): `nodes` is a soft limit, no new iteration once that many nodes are
searched, so the search ends on a completed iteration and its score is that
iteration's (completed_score; HARD_NODES times `nodes` is a hard cap, after
which the last completed iteration counts). Runs made before stopped the
search at `nodes` inside an iteration and kept the core's last line, that
iteration's first root move as far as it got, sometimes a failed aspiration
bound (`scores = "last"`, still there to resume them exactly). Against
Stockfish 15.1's scores the completed searches are closer
(benchmarks/datagen_score_yardstick.py, docs/selfplay.md).

The game is also kept whole (games/layout.py: start, moves, scores, result),
for the compact files; games/expand.py applies the same filter to it, and
the tests check that both give the same records.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Optional, Tuple

import chess

from engine._core import Position

from ..games.layout import encode_game
from ..marlinformat import BLACK_WIN, DRAW, WHITE_WIN, encode
from .adjudication import Adjudicator

MATE = 32000
RESULT_OFFSET = 30     # byte of the result in a record


SCORE_RULES = ("completed", "last")
HARD_NODES = 8       # with scores "completed": the hard node cap, in soft limits


@dataclass(frozen=True)
class GameSettings:
    nodes: int = 5000
    skip_plies: int = 8
    max_score: int = 10000
    scores: str = "completed"      # SCORE_RULES: which line's score is kept

    def __post_init__(self):
        if self.scores not in SCORE_RULES:
            raise ValueError(f"scores must be one of {', '.join(SCORE_RULES)}, not {self.scores!r}")


@dataclass
class GameRecord:
    result: int
    plies: int
    records: List[bytes] = field(default_factory=list)
    packed: bytes = b""      # the whole game in the kept format (games/layout.py)


def _principal(infos) -> list:
    return [i for i in infos if "score" in i and i.get("multipv", 1) == 1 and i.get("bound") is None]


def search_score(infos) -> Tuple[str, int]:
    """The final exact score of the principal line (the last one reported):
    the rule of runs before completed_score."""
    chosen = _principal(infos) or [i for i in infos if "score" in i]
    return chosen[-1]["score"] if chosen else ("cp", 0)


def completed_score(infos) -> Tuple[str, int]:
    """The score of the last completed iteration.

    The core reports each completed iteration once, then a last line when it
    stops. That last line is a completed iteration when its depth was
    reported before (the search stopped between iterations, or the stopped
    iteration had not yet scored its first move); otherwise it is the
    stopped iteration's partial result and the line before it is the last
    completed one."""
    exact = _principal(infos)
    if len(exact) < 2:
        return search_score(infos)
    last = exact[-1]
    if any(i["depth"] == last["depth"] for i in exact[:-1]):
        return last["score"]
    return exact[-2]["score"]


def search_limits(settings: GameSettings) -> dict:
    if settings.scores == "last":
        return {"nodes": settings.nodes}
    return {"soft_nodes": settings.nodes, "nodes": HARD_NODES * settings.nodes}


def as_centipawns(score: Tuple[str, int]) -> int:
    """Side-to-move score in centipawns; a mate in n moves is 32000 - plies to mate."""
    kind, value = score
    if kind == "cp":
        return value
    return MATE - (2 * value - 1) if value > 0 else -(MATE + 2 * value)


def natural_result(board: chess.Board) -> Optional[int]:
    if board.is_checkmate():
        return BLACK_WIN if board.turn else WHITE_WIN
    if (board.is_stalemate() or board.is_insufficient_material() or board.halfmove_clock >= 100
            or board.is_repetition(3)):
        return DRAW
    return None


def keep(board: chess.Board, move: chess.Move, score: Tuple[str, int], plies: int,
         settings: GameSettings) -> bool:
    return (plies >= settings.skip_plies and score[0] == "cp" and abs(score[1]) < settings.max_score
            and not board.is_check() and not move.promotion and not board.is_capture(move))


def play_game(search, board: chess.Board, settings: GameSettings, adjudicator: Adjudicator) -> GameRecord:
    """Plays from board (changed in place) to the end; returns the kept records."""
    search.clear_hash()    # each game alone decides its moves: resuming and shards repeat it exactly
    position = Position(board.fen(), chess960=board.chess960)
    start = board.copy(stack=False)
    moves: List[chess.Move] = []
    scores: List[int] = []
    kept: List[bytearray] = []
    plies = 0
    while True:
        result = natural_result(board)
        if result is None:
            result = adjudicator.tablebase_result(board)
        if result is not None:
            break
        infos: list = []
        best, _ = search.go(position, search_limits(settings), infos.append)
        move = chess.Move.from_uci(best)
        score = completed_score(infos) if settings.scores == "completed" else search_score(infos)
        white_score = as_centipawns(score) * (1 if board.turn else -1)
        if keep(board, move, score, plies, settings):
            kept.append(bytearray(encode(board, white_score, DRAW)))
        moves.append(move)
        scores.append(white_score)
        plies += 1
        result = adjudicator.after_search(white_score, plies)
        if result is not None:
            break
        board.push(move)
        position.push(best)
    for record in kept:
        record[RESULT_OFFSET] = result
    packed = encode_game(start, moves, scores, result, settings.skip_plies, len(kept))
    return GameRecord(result, plies, [bytes(r) for r in kept], packed)
