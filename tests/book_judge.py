"""Stockfish judges the moves of a Polyglot book: how far behind the best move
each book move is, in Stockfish's centipawns, at a fixed depth.

Per position, the two searches of src/engine/book/judge.py (the book build's
own recheck): a plain one finds Stockfish's best move; a MultiPV one over the
book's moves plus that best move scores them side by side, so the deficits
compare like with like.

The positions come from the lichess opening lists the book is built from
(books/README.md): a book key has no position of its own, so the lists give
the FEN for it.

Used by tests/integrations/test_book_judged.py on a sample; the full check
over every position of the shipped book, from the repository root:

    nice python3 tests/book_judge.py --depth 16 --out /tmp/book_judge.jsonl
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Dict, List, Tuple

import chess
import chess.engine
import chess.polyglot

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))   # run as a script from a checkout
from engine.book.build import BookBuilder  # noqa: E402
from engine.book.judge import JudgeCache, engine_scores, open_judge  # noqa: E402

BOOK = REPO / "books" / "vireo.bin"
LISTS = [REPO.parent / "shared" / "data" / "openings" / f"{letter}.tsv" for letter in "abcde"]


def book_positions(book: Path = BOOK, lists: List[Path] = LISTS) -> List[Tuple[str, List[str]]]:
    """(FEN, the book's moves in UCI) for every key of the book, in key order."""
    builder = BookBuilder()
    for path in lists:
        builder.add_tsv(str(path))
    moves: Dict[int, List[str]] = defaultdict(list)
    with chess.polyglot.open_reader(str(book)) as reader:
        for key in sorted({entry.key for entry in reader}):
            board = chess.Board(builder.fens[key])   # KeyError: a book key no listed line reaches
            moves[key] = [entry.move.uci() for entry in reader.find_all(board)]
    return [(builder.fens[key], moves[key]) for key in sorted(moves)]


def judge(engine: chess.engine.SimpleEngine, fen: str, moves: List[str], depth: int, cache=None) -> dict:
    """{"fen", "best", "scores": {move: cp}, "deficits": {book move: cp behind the best}}."""
    best, scores = engine_scores(engine, fen, moves, depth, cache)
    top = max(scores.values())
    return {"fen": fen, "best": best, "scores": scores,
            "deficits": {move: top - scores[move] for move in moves if move in scores}}


def open_stockfish(path: str) -> chess.engine.SimpleEngine:
    return open_judge(path)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stockfish", default="/usr/games/stockfish")
    parser.add_argument("--book", default=str(BOOK))
    parser.add_argument("--depth", type=int, default=16)
    parser.add_argument("--sample", type=int, default=0, help="judge this many positions (0: all)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--limit", type=int, default=60, help="a move further behind than this fails")
    parser.add_argument("--out", help="write one JSON line per position here")
    parser.add_argument("--cache", help="a JudgeCache file (engine/book/judge.py), e.g. the book build's "
                                        "--recheck-cache: verdicts found there are read, not searched again")
    args = parser.parse_args(argv)
    positions = book_positions(Path(args.book))
    if args.sample:
        positions = random.Random(args.seed).sample(positions, min(args.sample, len(positions)))
    started = time.monotonic()
    failures, judged_moves = [], 0
    out = open(args.out, "w") if args.out else None
    engine = open_stockfish(args.stockfish)
    cache = JudgeCache(args.cache) if args.cache else None
    try:
        for number, (fen, moves) in enumerate(positions, 1):
            verdict = judge(engine, fen, moves, args.depth, cache)
            judged_moves += len(verdict["deficits"])
            failures += [(fen, move, cp) for move, cp in verdict["deficits"].items() if cp > args.limit]
            if out:
                out.write(json.dumps(verdict) + "\n")
                out.flush()
            if number % 100 == 0:
                print(f"{number}/{len(positions)} positions, {len(failures)} moves over {args.limit} cp, "
                      f"{time.monotonic() - started:.0f} s", file=sys.stderr, flush=True)
    finally:
        engine.quit()
        if out:
            out.close()
    for fen, move, cp in failures:
        print(f"{cp:5d} cp behind: {move} in {fen}")
    print(f"{len(positions)} positions, {judged_moves} book moves judged at depth {args.depth}: "
          f"{len(failures)} more than {args.limit} cp behind the best; {time.monotonic() - started:.0f} s"
          + (f" ({cache.hits} verdicts read from {args.cache}, {cache.misses} searched)" if cache else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
