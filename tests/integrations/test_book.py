"""Opening book lookups: shared reference books, error handling, the shipped default book."""
import random
import shlex
import struct
from collections import Counter
from pathlib import Path

import chess
import chess.polyglot
import pytest
from conftest import REPO, SHARED_DATA, require_engine

from engine.tools import book as book_cli
from engine.book.build import BookBuilder
from engine.book.probe import DEFAULT_BOOK_PATH, BookError, OpeningBook, resolve_book_path
from engine.book.verify import Verifier

DATA = SHARED_DATA
PERFORMANCE = DATA / "books" / "performance.bin"
LASKER = DATA / "books" / "lasker-trap.bin"
ENTRY = struct.Struct(">QHHI")
START_KEY = chess.polyglot.zobrist_hash(chess.Board())


def raw(uci: str) -> int:
    """Polyglot move bits for a plain (non-castling) move."""
    move = chess.Move.from_uci(uci)
    promo = move.promotion - 1 if move.promotion else 0
    return (promo << 12) | (move.from_square << 6) | move.to_square


def write_book(path: Path, entries) -> Path:
    path.write_bytes(b"".join(ENTRY.pack(key, move, weight, 0) for key, move, weight in entries))
    return path


# -- reference books -----------------------------------------------------------

def test_performance_book_start_position_matches_python_chess():
    with OpeningBook.open(PERFORMANCE) as book, chess.polyglot.open_reader(str(PERFORMANCE)) as reader:
        board = chess.Board()
        ours = [(m.move, m.weight) for m in book.moves(board)]
        theirs = [(e.move, e.weight) for e in reader.find_all(board)]
        assert sorted(ours, key=str) == sorted(theirs, key=str)
        assert {chess.Move.from_uci(u) for u in ("e2e4", "d2d4", "c2c4")} <= {m for m, _ in ours}
        # "best" = heaviest, first in the file among equal weights: what python-chess's find() returns
        assert book.pick(board, "best") == reader.find(board).move


def test_performance_book_follows_a_line_and_agrees_with_python_chess():
    with OpeningBook.open(PERFORMANCE) as book, chess.polyglot.open_reader(str(PERFORMANCE)) as reader:
        board = chess.Board()
        for _ in range(12):
            move = book.pick(board, "best")
            if move is None:
                break
            assert move == reader.find(board).move
            assert board.is_legal(move)
            board.push(move)
        assert board.ply() >= 6  # the book has at least a few moves of main line


def test_lasker_trap_book_gives_blacks_moves_and_the_underpromotion():
    line = "d4 d5 c4 e5 dxe5 d4 e3 Bb4+ Bd2 dxe3 Bxb4 exf2+ Ke2 fxg1=N+".split()
    with OpeningBook.open(LASKER) as book:
        board = chess.Board()
        assert book.pick(board) is None  # no entry for the start position
        for ply, san in enumerate(line):
            expected = board.parse_san(san)
            if board.turn == chess.BLACK:
                assert book.pick(board, "best") == expected
                assert book.pick(board, "weighted", random.Random(ply)) == expected
                assert book.moves(board)[0].weight == 2
            board.push(expected)
        assert board.peek() == chess.Move.from_uci("f2g1n")
        assert board.peek().promotion == chess.KNIGHT


def test_max_plies_limits_the_book_depth():
    line = "d4 d5 c4 e5 dxe5 d4".split()
    with OpeningBook.open(LASKER, max_plies=5) as book:
        board = chess.Board()
        for san in line[:3]:
            board.push_san(san)
        assert board.ply() == 3 and book.pick(board) == board.parse_san("e5")
        for san in line[3:5]:
            board.push_san(san)
        assert board.ply() == 5 and book.pick(board) is None  # "d4" is in the book but too deep
        book.max_plies = None
        assert book.pick(board) == board.parse_san("d4")


def test_depth_counts_from_the_fen_move_number():
    # After 1.d4 d5 2.c4, given as a FEN: ply 3 from the FEN counters.
    board = chess.Board("rnbqkbnr/ppp1pppp/8/3p4/2PP4/8/PP2PPPP/RNBQKBNR b KQkq - 0 2")
    with OpeningBook.open(LASKER, max_plies=3) as book:
        assert book.pick(board) is None
    with OpeningBook.open(LASKER, max_plies=4) as book:
        assert book.pick(board) == chess.Move.from_uci("e7e5")


# -- choosing ----------------------------------------------------------------

def test_weighted_choice_follows_weights(tmp_path):
    path = write_book(tmp_path / "w.bin", [(START_KEY, raw("e2e4"), 3), (START_KEY, raw("d2d4"), 1),
                                           (START_KEY, raw("c2c4"), 0)])
    rng = random.Random(7)
    with OpeningBook.open(path) as book:
        counts = Counter(book.pick(chess.Board(), "weighted", rng).uci() for _ in range(4000))
        assert book.pick(chess.Board(), "best").uci() == "e2e4"
    assert set(counts) == {"e2e4", "d2d4"}  # weight 0 = deleted entry, never played
    assert 0.72 < counts["e2e4"] / 4000 < 0.78


def test_weighted_choice_is_reproducible_with_a_seeded_rng():
    board = chess.Board()
    with OpeningBook.open(PERFORMANCE) as book:
        first = [book.pick(board, "weighted", random.Random(s)) for s in range(20)]
        second = [book.pick(board, "weighted", random.Random(s)) for s in range(20)]
    assert first == second
    assert len(set(first)) > 1


def test_unknown_mode_is_refused():
    with OpeningBook.open(LASKER) as book, pytest.raises(ValueError, match="book mode"):
        book.pick(chess.Board(), "worst")


def test_illegal_entries_are_skipped(tmp_path):
    # e2e5 is no legal move from the start position (a key collision or a damaged book)
    path = write_book(tmp_path / "bad_moves.bin", [(START_KEY, raw("e2e5"), 50), (START_KEY, raw("g1f3"), 1)])
    with OpeningBook.open(path) as book:
        assert [m.move.uci() for m in book.moves(chess.Board())] == ["g1f3"]
        assert book.pick(chess.Board()) == chess.Move.from_uci("g1f3")
    only_bad = write_book(tmp_path / "only_bad.bin", [(START_KEY, raw("e2e5"), 50)])
    with OpeningBook.open(only_bad) as book:
        assert book.pick(chess.Board()) is None


def test_castling_is_read_as_king_takes_rook(tmp_path):
    board = chess.Board("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1")
    key = chess.polyglot.zobrist_hash(board)
    path = write_book(tmp_path / "castle.bin", [(key, raw("e1h1"), 2), (key, raw("e1a1"), 1)])
    with OpeningBook.open(path) as book:
        assert [m.move.uci() for m in book.moves(board)] == ["e1g1", "e1c1"]


# -- bad books ---------------------------------------------------------------

def test_missing_book(tmp_path):
    with pytest.raises(BookError, match="not found"):
        OpeningBook.open(tmp_path / "nope.bin")


def test_directory_is_not_a_book(tmp_path):
    with pytest.raises(BookError, match="not a file"):
        OpeningBook.open(tmp_path)


def test_truncated_book(tmp_path):
    path = tmp_path / "cut.bin"
    path.write_bytes(LASKER.read_bytes()[:-5])
    with pytest.raises(BookError, match="multiple of 16"):
        OpeningBook.open(path)


def test_empty_book(tmp_path):
    path = tmp_path / "empty.bin"
    path.write_bytes(b"")
    with pytest.raises(BookError, match="empty"):
        OpeningBook.open(path)


def test_unsorted_book(tmp_path):
    data = LASKER.read_bytes()
    entries = [data[i:i + 16] for i in range(0, len(data), 16)]
    (tmp_path / "unsorted.bin").write_bytes(b"".join(reversed(entries)))
    with pytest.raises(BookError, match="not sorted"):
        OpeningBook.open(tmp_path / "unsorted.bin")


def test_unreadable_book(tmp_path, monkeypatch):
    # Tests may run as root, which reads any file whatever its mode: simulate the refusal.
    def refuse(path):
        raise PermissionError(13, "Permission denied", path)
    monkeypatch.setattr(chess.polyglot, "MemoryMappedReader", refuse)
    with pytest.raises(BookError, match="cannot read .*Permission denied"):
        OpeningBook.open(LASKER)


# -- the shipped book ----------------------------------------------------------

def test_default_path_and_option_values():
    assert resolve_book_path("") == DEFAULT_BOOK_PATH
    assert resolve_book_path("<empty>") == DEFAULT_BOOK_PATH
    assert resolve_book_path(None) == DEFAULT_BOOK_PATH
    assert resolve_book_path(str(LASKER)) == LASKER
    assert DEFAULT_BOOK_PATH.parent.name == "data" and DEFAULT_BOOK_PATH.parent.parent.name == "engine"


def test_default_book_opens_and_plays_a_main_line():
    with OpeningBook.open() as book:
        board = chess.Board()
        assert book.pick(board).uci() == "e2e4"
        moves = 0
        while (move := book.pick(board)) is not None and moves < 60:
            board.push(move)
            moves += 1
        assert 10 <= moves < 60


def readme_build_args():
    """The arguments of the one `vireo book build books/vireo.bin` command in books/README.md."""
    readme = (REPO / "books" / "README.md").read_text()
    commands = [line for line in readme.splitlines() if line.startswith("vireo book build books/vireo.bin")]
    assert len(commands) == 1
    argv = shlex.split(commands[0])[2:]  # drop "vireo book"
    argv = [str(REPO / a) if a.startswith("../") else a for a in argv]
    import argparse
    parser = argparse.ArgumentParser()
    book_cli.add_arguments(parser)
    return parser.parse_args(argv)


def entries_by_key(entries):
    by_key = {}
    for key, raw_move, weight in entries:
        by_key.setdefault(key, []).append((raw_move, weight))
    return by_key


REPRODUCED_SAMPLE = 24   # positions judged again (Stockfish at depth 16); the whole build takes long (books/README.md)


def test_shipped_book_is_reproducible_with_the_readme_command():
    """books/README.md states the build command. Running all of it takes longer than a
    test should (books/README.md gives the time, and the full rebuild with `cmp`), so
    this reads the sources exactly as the command does, and judges a fixed sample of
    positions again exactly as it does (each position is judged on its own, with the
    hash cleared, so a sample gives what the whole build gives there). Each must come
    out as the shipped entries for it, none where all its moves failed."""
    args = readme_build_args()
    assert args.verify_depth and args.recheck_depth, "the shipped book is verified and rechecked"
    builder = BookBuilder(max_plies=args.max_plies, min_games=args.min_games)
    for path in args.tsv:
        builder.add_tsv(path)
    for path in args.pgn:
        builder.add_pgn(path)
    sources = entries_by_key(builder.entries())
    shipped_bytes = (REPO / "books" / "vireo.bin").read_bytes()
    assert shipped_bytes == DEFAULT_BOOK_PATH.read_bytes()
    shipped = entries_by_key(ENTRY.unpack_from(shipped_bytes, i)[:3] for i in range(0, len(shipped_bytes), 16))
    assert set(shipped) <= set(sources)         # every book position is one the sources name
    judge = require_engine(Path(args.recheck_engine).name) if args.recheck_engine else None
    verifier = Verifier(args.verify_depth, args.verify_margin, recheck_depth=args.recheck_depth,
                        recheck_margin=args.recheck_margin, recheck_engine=judge)
    sample = [START_KEY] + random.Random(39).sample(sorted(set(sources) - {START_KEY}), REPRODUCED_SAMPLE - 1)
    try:
        for key in sample:
            assert verifier.judge_position(builder.fens[key], sources[key]) == shipped.get(key, []), builder.fens[key]
    finally:
        verifier.close()
