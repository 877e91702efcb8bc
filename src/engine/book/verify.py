"""Book moves judged by Vireo's own search: `vireo book build --verify-depth D`.

A move from the sources stays in the book only when the search, at a fixed
depth, scores it within `margin` centipawns of the position's best move; its
weight then follows that judgement:

    weight = source weight * 2 ** (-deficit / HALVING_CP), at least 1,

so every HALVING_CP centipawns behind the best move halve it. The sources'
weight stays in as the tie-break because a low-depth score alone is noisy in
the opening: after 1.e4, 1...e5 scores 15 cp behind 1...d5 in one depth-8
search and 31 cp behind in another over more moves; how many openings or
games play a move then separates moves the search finds equal (otherwise
1.h4 weighs as much as 1.d4 at depth 8). (The idea of checking a book with an engine is old: Polyglot's
and Stockfish testers' books are built from engine games; the rule here is
our own.)

Deterministic: one thread, the hash cleared before each search, fixed
depth, positions in key order. Per position two searches: one over all moves
finds the search's best move; one over the book's candidates plus that move,
with one line each (MultiPV), scores them all in the same search, so the
deficits compare like with like (scores of separate searches at a low depth
differ by more than the margin).
"""
import multiprocessing
from typing import Dict, List, Optional, Tuple

import chess

from .._core import Position, Search
from .build import BookBuilder, encode_move
from .judge import JudgeCache, engine_deficits, open_judge

HALVING_CP = 20
MATE_CP = 30000   # a mate score as centipawns, so that it compares with the others


def _centipawns(score: Tuple[str, int]) -> int:
    kind, value = score
    if kind == "mate":
        return MATE_CP - abs(value) if value > 0 else -MATE_CP + abs(value)
    return value


def _line_scores(search: Search, position: Position, limits: dict) -> Dict[str, int]:
    """First move -> score (cp) of every line of the search's last complete iteration."""
    lines: Dict[int, dict] = {}
    search.go(position, limits, lambda info: lines.__setitem__(info.get("multipv", 1), info)
              if info.get("pv") and info.get("bound") is None else None)
    return {info["pv"][0]: _centipawns(info["score"]) for info in lines.values()}


def weight_for(source_weight: int, deficit: int) -> int:
    return max(1, round(source_weight * 2 ** (-max(0, deficit) / HALVING_CP)))


class Verifier:
    """judge(builder) -> the entries to write; also counts what it kept and dropped.

    recheck_depth: the moves the first pass keeps are judged again, the same
    way, at this deeper depth, and kept only within recheck_margin of the best
    there; the weights then follow the deeper pass. recheck_engine: a UCI
    engine's command (judge.py) that judges the recheck instead of Vireo's
    search, in its own centipawns. Depth 8 alone kept moves that a deeper
    search sees are bad (1.d4 Nf6 2.e4, 121 cp behind the best for Stockfish
    15.1 at depth 16), and Vireo's search at depth 10 or 12 still disagrees
    with Stockfish at depth 16 by tens of centipawns on opening moves (it
    puts 1.h4 21 cp behind 1.e4, Stockfish over 80): the shipped book is
    rechecked by Stockfish (books/README.md). The deeper pass costs more per
    position, so it runs over the survivors only, and a position whose moves
    all fail the first pass never reaches it.

    The recheck runs to a fixed point: when it drops a move, the survivors
    are judged again, as a set, until none is dropped. MultiPV scores depend a
    little on which moves share the search, so only then is the verdict on the
    moves the book keeps the one that a check of the finished book (the same
    two searches over exactly those moves: tests/book_judge.py) gets too.
    recheck_cache: a JudgeCache file for the engine's verdicts (judge.py).
    workers: positions judged at once, each worker process with its own search
    and judge engine. Every position is judged on its own (hash and histories
    cleared), so the book is the same for any number of workers.
    """

    def __init__(self, depth: int, margin: int, hash_mb: int = 16,
                 recheck_depth: Optional[int] = None, recheck_margin: Optional[int] = None,
                 recheck_engine: Optional[str] = None, recheck_cache: Optional[str] = None,
                 workers: int = 1, _cache_writes: bool = True):
        if depth < 1 or margin < 0:
            raise ValueError("verify depth must be at least 1 and the margin not negative")
        if recheck_depth is not None and (recheck_depth <= depth or (recheck_margin or 0) < 0):
            raise ValueError("the recheck depth must exceed the verify depth and its margin not be negative")
        if workers < 1:
            raise ValueError("at least one worker")
        self.depth, self.margin, self.workers, self.hash_mb = depth, margin, workers, hash_mb
        self.recheck_cache = recheck_cache
        self.recheck_depth = recheck_depth
        self.recheck_margin = margin if recheck_margin is None else recheck_margin
        self.search = Search()
        self.search.set_threads(1)
        self.search.set_hash(hash_mb)
        self.kept = self.dropped = self.positions = 0
        self.dropped_by_recheck = 0
        # the recheck's judge: Vireo's own search, or a UCI engine (judge.py) when named
        self.recheck_engine = recheck_engine
        self._judge = open_judge(recheck_engine) if recheck_engine else None
        self.cache = JudgeCache(recheck_cache, write=_cache_writes) if recheck_cache and recheck_engine else None

    def close(self) -> None:
        if self._judge is not None:
            self._judge.quit()
            self._judge = None

    def deficits(self, position: Position, moves: List[str], depth: int) -> Dict[str, int]:
        """Centipawns each of `moves` is behind the best move at `depth` (two searches, see above)."""
        self.search.clear_hash()
        searched_best = list(_line_scores(self.search, position, {"depth": depth}))
        root = sorted(set(moves) | set(searched_best))
        self.search.clear_hash()
        scores = _line_scores(self.search, position, {"depth": depth, "searchmoves": root,
                                                      "multipv": len(root)})
        best = max(scores.values())
        return {move: best - scores[move] for move in moves if move in scores}

    def judge_position(self, fen: str, weighted: List[Tuple[int, int]]) -> List[Tuple[int, int]]:
        """(raw move, weight) for the (raw move, source weight) candidates that pass, heaviest first."""
        board = chess.Board(fen)
        by_raw = {encode_move(board, move): move for move in board.legal_moves}
        candidates = {board.uci(by_raw[raw]): raw for raw, _ in weighted if raw in by_raw}
        source = dict(weighted)
        if not candidates:
            return []
        position = Position(fen)
        behind = self.deficits(position, sorted(candidates), self.depth)
        passed = sorted(move for move, cp in behind.items() if cp <= self.margin)
        while self.recheck_depth is not None and passed:
            behind = (engine_deficits(self._judge, fen, passed, self.recheck_depth, self.cache) if self._judge
                      else self.deficits(position, passed, self.recheck_depth))
            survivors = [move for move in passed if behind.get(move, self.recheck_margin + 1) <= self.recheck_margin]
            self.dropped_by_recheck += len(passed) - len(survivors)
            if survivors == passed:
                break
            passed = survivors
        kept = [(candidates[move], weight_for(source[candidates[move]], behind[move])) for move in passed]
        kept.sort(key=lambda rw: (-rw[1], rw[0]))
        return kept

    def __call__(self, builder: BookBuilder, progress: Optional[callable] = None) -> List[Tuple[int, int, int]]:
        by_key: Dict[int, List[Tuple[int, int]]] = {}
        for key, raw, weight in builder.entries():   # the sources' filters (min games) apply first
            by_key.setdefault(key, []).append((raw, weight))
        keys = sorted(by_key)
        jobs = [(builder.fens[key], by_key[key]) for key in keys]
        out = []
        for key, kept in zip(keys, self._judge_all(jobs)):
            self.positions += 1
            self.kept += len(kept)
            self.dropped += len(by_key[key]) - len(kept)
            out.extend((key, raw, weight) for raw, weight in kept)
        return out

    def _judge_all(self, jobs):
        """The kept moves of each (fen, candidates) job, in the jobs' order."""
        if self.workers == 1:
            for fen, weighted in jobs:
                yield self.judge_position(fen, weighted)
            return
        settings = dict(depth=self.depth, margin=self.margin, hash_mb=self.hash_mb,
                        recheck_depth=self.recheck_depth, recheck_margin=self.recheck_margin,
                        recheck_engine=self.recheck_engine, recheck_cache=self.recheck_cache)
        # spawn, not fork: the parent's search (and its threads) must not be copied mid-state
        context = multiprocessing.get_context("spawn")
        with context.Pool(self.workers, initializer=_start_worker, initargs=(settings,)) as pool:
            for kept, dropped_by_recheck, new_verdicts in pool.imap(_judge_in_worker, jobs, chunksize=4):
                self.dropped_by_recheck += dropped_by_recheck
                if self.cache is not None:
                    for key, verdict in new_verdicts:
                        self.cache.put(key, verdict)
                yield kept


_worker: Optional[Verifier] = None


def _start_worker(settings: dict) -> None:
    global _worker
    _worker = Verifier(**settings, _cache_writes=False)


def _judge_in_worker(job):
    """(kept moves, moves the recheck dropped, new judge verdicts) for one position."""
    before = _worker.dropped_by_recheck
    kept = _worker.judge_position(*job)
    new = []
    if _worker.cache is not None:
        new, _worker.cache.new = _worker.cache.new, []
    return kept, _worker.dropped_by_recheck - before, new
