"""A UCI engine (Stockfish, say) as the judge of book moves: how far behind its
best move each candidate is, in its centipawns, at a fixed depth.

The same two searches as Vireo's own verification (verify.py): a plain one
finds the engine's best move; a MultiPV one over the candidates plus that
move scores them side by side. One thread and `ucinewgame` (hash and
histories cleared) before every search, so a given engine binary gives the
same answer every time, whatever was judged before.

Because the answer depends only on (engine, depth, position, moves), it can be
kept: a JudgeCache file (JSON lines) remembers each verdict, so a rebuild or a
check that asks the same question again reads the answer instead of searching
for it. A cache never changes a result, only how long it takes to get it.
"""
from __future__ import annotations

import json
import os
from typing import Dict, List, Optional, Tuple

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


class JudgeCache:
    """Verdicts kept in a JSON-lines file, one per (engine name, depth, FEN, moves).

    write=False: read the file but keep new verdicts in `self.new` instead of
    appending them (a build's worker processes hand theirs to the one process
    that writes, so that no two processes append to the file at once)."""

    def __init__(self, path: str, write: bool = True):
        self.path = path
        self.write = write
        self.new: List[Tuple[tuple, Tuple[str, Dict[str, int]]]] = []
        self.verdicts: Dict[tuple, Tuple[str, Dict[str, int]]] = {}
        self.hits = self.misses = 0
        if os.path.exists(path):
            with open(path) as handle:
                for line in handle:
                    try:
                        row = json.loads(line)
                        key = (row["engine"], row["depth"], row["fen"], tuple(row["moves"]))
                        self.verdicts[key] = (row["best"], {m: int(cp) for m, cp in row["scores"].items()})
                    except (ValueError, KeyError, TypeError):
                        continue   # a torn last line of an interrupted run: that verdict is searched again

    @staticmethod
    def key(engine: chess.engine.SimpleEngine, depth: int, fen: str, moves: List[str]) -> tuple:
        return (engine.id.get("name", "?"), depth, fen, tuple(sorted(moves)))

    def get(self, key: tuple) -> Optional[Tuple[str, Dict[str, int]]]:
        found = self.verdicts.get(key)
        if found is None:
            self.misses += 1
        else:
            self.hits += 1
        return found

    def put(self, key: tuple, verdict: Tuple[str, Dict[str, int]]) -> None:
        self.verdicts[key] = verdict
        if not self.write:
            self.new.append((key, verdict))
            return
        engine, depth, fen, moves = key
        with open(self.path, "a") as handle:
            handle.write(json.dumps({"engine": engine, "depth": depth, "fen": fen, "moves": list(moves),
                                     "best": verdict[0], "scores": verdict[1]}) + "\n")


def engine_scores(engine: chess.engine.SimpleEngine, fen: str, moves: List[str],
                  depth: int, cache: Optional[JudgeCache] = None) -> Tuple[str, Dict[str, int]]:
    """(the engine's best move, {move: score in cp} for `moves` and that best move)."""
    if cache is None:
        return _search_scores(engine, fen, moves, depth)
    key = JudgeCache.key(engine, depth, fen, moves)
    verdict = cache.get(key)
    if verdict is None:
        verdict = _search_scores(engine, fen, moves, depth)
        cache.put(key, verdict)
    return verdict


def _search_scores(engine: chess.engine.SimpleEngine, fen: str, moves: List[str],
                   depth: int) -> Tuple[str, Dict[str, int]]:
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


def engine_deficits(engine: chess.engine.SimpleEngine, fen: str, moves: List[str], depth: int,
                    cache: Optional[JudgeCache] = None) -> Dict[str, int]:
    """Centipawns each of `moves` is behind the engine's best move at `depth`."""
    _, scores = engine_scores(engine, fen, moves, depth, cache)
    top = max(scores.values())
    return {move: top - scores[move] for move in moves if move in scores}
