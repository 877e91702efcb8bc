"""The book judge's cache (engine/book/judge.py) and the recheck's fixed point
(engine/book/verify.py), with Debian's Stockfish as the judge at low depths.

A cached verdict must be the one a search gives, be read back without a
search, and leave the built book byte for byte as it is without the cache.
"""
import argparse
import json

import chess

from conftest import require_engine

from engine.book.judge import JudgeCache, engine_deficits, engine_scores, open_judge
from engine.book.verify import Verifier
from engine.tools import book as book_cli

AFTER_D4_NF6 = "rnbqkb1r/pppppppp/5n2/8/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 1 2"


def test_a_cached_verdict_is_the_searched_one_and_is_read_without_a_search(tmp_path):
    path = tmp_path / "judge.jsonl"
    engine = open_judge(require_engine("stockfish"))
    try:
        searched = engine_scores(engine, AFTER_D4_NF6, ["e2e4", "c2c4"], 8)
        cache = JudgeCache(str(path))
        assert engine_scores(engine, AFTER_D4_NF6, ["c2c4", "e2e4"], 8, cache) == searched
        assert (cache.hits, cache.misses) == (0, 1)
        name = engine.id["name"]
    finally:
        engine.quit()
    path.write_text(path.read_text() + '{"engine": "Stockfish 15.1", "depth": 8, "fen"')   # a torn line
    again = JudgeCache(str(path))
    # an "engine" that can only say its name: the answer can only come from the file
    no_search = type("NameOnly", (), {"id": {"name": name}})()
    assert engine_scores(no_search, AFTER_D4_NF6, ["e2e4", "c2c4"], 8, again) == searched
    assert (again.hits, again.misses) == (1, 0)
    row = json.loads(path.read_text().splitlines()[0])
    assert row["moves"] == ["c2c4", "e2e4"] and row["depth"] == 8 and row["best"] == searched[0]


def test_the_recheck_ends_on_a_verdict_over_exactly_the_moves_kept(tmp_path):
    """After the fixed point, judging the kept moves alone (as a check of the
    finished book does) gives every one of them within the margin."""
    board = chess.Board(AFTER_D4_NF6)
    stockfish = require_engine("stockfish")
    candidates = {move: 10 for move in ("e2e4", "c2c4", "g1f3", "c1g5", "b1c3", "g2g3", "h2h3")}
    from engine.book.build import encode_move
    weighted = [(encode_move(board, chess.Move.from_uci(m)), w) for m, w in candidates.items()]
    verifier = Verifier(depth=6, margin=200, recheck_depth=10, recheck_margin=20, recheck_engine=stockfish)
    try:
        kept = verifier.judge_position(AFTER_D4_NF6, weighted)
    finally:
        verifier.close()
    by_raw = {raw: move for move, raw in ((m, encode_move(board, chess.Move.from_uci(m))) for m in candidates)}
    kept_moves = sorted(by_raw[raw] for raw, _ in kept)
    assert kept_moves and "e2e4" not in kept_moves
    engine = open_judge(stockfish)
    try:
        assert max(engine_deficits(engine, AFTER_D4_NF6, kept_moves, 10).values()) <= 20
    finally:
        engine.quit()


def lines_tsv(tmp_path, pgns):
    """A lichess-style opening list with one named line per PGN."""
    tsv = tmp_path / "lines.tsv"
    tsv.write_text("eco\tname\tpgn\n" + "".join(f"A00\tline {i}\t{pgn}\n" for i, pgn in enumerate(pgns)))
    return tsv


def book_parser():
    parser = argparse.ArgumentParser()
    book_cli.add_arguments(parser)
    return parser


def test_a_book_built_with_the_cache_is_the_book_built_without(tmp_path):
    stockfish = require_engine("stockfish")
    tsv = lines_tsv(tmp_path, ["1. d4 Nf6 2. c4", "1. d4 Nf6 2. e4", "1. d4 Nf6 2. Nf3", "1. e4 e5 2. Nf3",
                               "1. e4 e5 2. Qh5", "1. e4 c5 2. Nf3", "1. e4 e5 2. Nf3", "1. d4 Nf6 2. c4"])
    parser = book_parser()
    common = ["--min-games", "1", "--verify-depth", "4", "--verify-margin", "300",
              "--recheck-engine", stockfish, "--recheck-depth", "8", "--recheck-margin", "40", "--tsv", str(tsv)]
    cache = str(tmp_path / "judge.jsonl")
    books = []
    for name, extra in (("plain", []), ("cold", ["--recheck-cache", cache]), ("warm", ["--recheck-cache", cache])):
        out = tmp_path / f"{name}.bin"
        assert book_cli.run(parser.parse_args(["build", str(out)] + common + extra)) == 0
        books.append(out.read_bytes())
    assert books[0] == books[1] == books[2] and books[0]
    assert book_cli.run(parser.parse_args(["build", str(tmp_path / "x.bin"), "--recheck-cache", cache,
                                           "--verify-depth", "4", "--tsv", str(tsv)])) == 2


def test_two_workers_build_the_same_book_and_cache_as_one(tmp_path, capsys):
    """--workers judges positions in parallel processes; each position is judged on
    its own, so the book, the counts and the cached verdicts are those of one worker."""
    stockfish = require_engine("stockfish")
    tsv = lines_tsv(tmp_path, ["1. d4 Nf6 2. c4", "1. d4 Nf6 2. e4", "1. d4 Nf6 2. Nf3", "1. e4 e5 2. Nf3",
                               "1. e4 e5 2. Qh5", "1. e4 c5 2. Nf3", "1. c4 e5 2. g4", "1. Nf3 d5 2. h4"])
    parser = book_parser()
    common = ["--verify-depth", "4", "--verify-margin", "300", "--recheck-engine", stockfish,
              "--recheck-depth", "8", "--recheck-margin", "40", "--tsv", str(tsv)]
    results = []
    for workers in (1, 2):
        out, cache = tmp_path / f"w{workers}.bin", tmp_path / f"w{workers}.jsonl"
        argv = ["build", str(out), "--workers", str(workers), "--recheck-cache", str(cache)] + common
        assert book_cli.run(parser.parse_args(argv)) == 0
        report = capsys.readouterr().out.replace(str(out), "OUT")
        verdicts = sorted(cache.read_text().splitlines())
        results.append((out.read_bytes(), report, verdicts))
    assert results[0] == results[1]
    book, report, verdicts = results[0]
    assert book and "failed the recheck" in report and len(verdicts) >= 7   # every position reached the judge
    assert book_cli.run(parser.parse_args(["build", str(tmp_path / "x.bin"), "--workers", "2",
                                           "--tsv", str(tsv)])) == 2
    assert "--workers needs --verify-depth" in capsys.readouterr().err
    assert book_cli.run(parser.parse_args(["build", str(tmp_path / "x.bin"), "--workers", "0"] + common)) == 2
    # a judge that cannot start is reported by the parent, before any worker is spawned
    bad = [a if a != stockfish else str(tmp_path / "no-such-engine") for a in common]
    assert book_cli.run(parser.parse_args(["build", str(tmp_path / "x.bin"), "--workers", "2"] + bad)) == 2
    assert "cannot start the recheck engine" in capsys.readouterr().err
