"""A UCI engine (Stockfish, say) as the judge of book moves: how far behind its
best move each candidate is, in its centipawns, at a fixed depth.

The same two searches as Vireo's own verification (verify.py): a plain one
finds the engine's best move; a MultiPV one over the candidates plus that
move scores them side by side. One thread and `ucinewgame` (hash and
histories cleared) before every search, so a given engine binary gives the
same answer every time, whatever was judged before.
"""
from __future__ import annotations

from typing import Dict, List, Tuple

import chess
import chess.engine

MATE_CP = 30000   # a mate as centipawns, so that it compares with the others


def _cp(score: chess.engine.PovScore) -> int:
    return score.relative.score(mate_score=MATE_CP)


def open_judge(command: str, hash_mb: int = 64) -> chess.engine.SimpleEngine:
    engine = chess.engine.SimpleEngine.popen_uci(command)
    engine.configure({name: value for name, value in (("Threads", 1), ("Hash", hash_mb))
                      if name in engine.options})
    return engine


def engine_scores(engine: chess.engine.SimpleEngine, fen: str, moves: List[str],
                  depth: int) -> Tuple[str, Dict[str, int]]:
    """(the engine's best move, {move: score in cp} for `moves` and that best move)."""
    board = chess.Board(fen)
    limit = chess.engine.Limit(depth=depth)
    first = engine.analyse(board, limit, game=object())   # a new game each time: ucinewgame
    best = first["pv"][0].uci()
    if sorted(moves) == [best]:
        return best, {best: _cp(first["score"])}
    root = sorted(set(moves) | {best})
    lines = engine.analyse(board, limit, multipv=len(root), game=object(),
                           root_moves=[chess.Move.from_uci(move) for move in root])
    return best, {info["pv"][0].uci(): _cp(info["score"]) for info in lines if info.get("pv")}


def engine_deficits(engine: chess.engine.SimpleEngine, fen: str, moves: List[str], depth: int) -> Dict[str, int]:
    """Centipawns each of `moves` is behind the engine's best move at `depth`."""
    _, scores = engine_scores(engine, fen, moves, depth)
    top = max(scores.values())
    return {move: top - scores[move] for move in moves if move in scores}
