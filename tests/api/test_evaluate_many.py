"""evaluate_many: the static evaluation of many boards or FENs in the core,
equal to the one-position evaluation, with bad items named."""
import random
import threading
import time

import chess
import numpy as np
import pytest

from engine import _core
from engine.api import Engine
from engine.uci.bench import BENCH_POSITIONS


def _positions(count, seed=3):
    """Positions of random games: every piece count, both sides to move,
    castling rights and en-passant squares."""
    rng = random.Random(seed)
    boards, board = [], chess.Board()
    while len(boards) < count:
        if board.is_game_over() or board.ply() > 150:
            board = chess.Board()
        board.push(rng.choice(list(board.legal_moves)))
        boards.append(board.copy(stack=False))
    return boards


@pytest.fixture(scope="module")
def vireo():
    with Engine() as engine:
        yield engine


def test_equal_to_the_search_s_own_reading_of_each_position(vireo):
    boards = _positions(1500)
    fens = [b.fen() for b in boards] + BENCH_POSITIONS
    values = vireo.evaluate_many(fens)
    assert values.dtype == np.int32 and values.shape == (len(fens),)
    assert list(values) == [_core.Position(f).nnue_search_eval() for f in fens]
    assert list(vireo.evaluate_many(boards)) == list(values[:len(boards)])
    assert [vireo.evaluate(b).relative.score() for b in boards[:50]] == list(values[:50])


def test_the_classical_evaluation_when_use_nnue_is_off():
    boards = _positions(300, seed=4)
    with Engine({"Use NNUE": False}) as engine:
        values = engine.evaluate_many(boards)
    search = _core.Search()
    assert list(values) == [search.evaluate(_core.Position(b.fen())) for b in boards]


def test_mixed_input_keeps_its_order_and_white_turns_the_view(vireo):
    boards = _positions(40, seed=5)
    mixed = [b if i % 3 else b.fen() for i, b in enumerate(boards)]
    relative = vireo.evaluate_many(mixed)
    assert list(relative) == list(vireo.evaluate_many([b.fen() for b in boards]))
    white = vireo.evaluate_many(mixed, white=True)
    assert list(white) == [v if b.turn else -v for v, b in zip(relative, boards)]


def _mutations(fen, rng, count):
    """Small damage to a FEN: a character replaced, dropped or doubled, fields
    swapped, spacing changed: most invalid, some still valid."""
    alphabet = "pnbrqkPNBRQK12345678/ -wKQkqabcdefgh0369\t"
    found = []
    for _ in range(count):
        text = list(fen)
        where = rng.randrange(len(text))
        kind = rng.randrange(5)
        if kind == 0:
            text[where] = rng.choice(alphabet)
        elif kind == 1:
            del text[where]
        elif kind == 2:
            text.insert(where, text[where])
        elif kind == 3:
            fields = "".join(text).split(" ")
            i, j = rng.randrange(len(fields)), rng.randrange(len(fields))
            fields[i], fields[j] = fields[j], fields[i]
            text = list(" ".join(fields))
        else:
            text = list("".join(text).replace(" ", rng.choice(["  ", "\t", " "]), 1))
        found.append("".join(text))
    return found


def test_the_c_reader_accepts_only_what_the_full_parser_accepts():
    """Every FEN the fast C reader takes, set_fen takes, with the same
    evaluation; the rest it leaves to set_fen (status DEFERRED)."""
    rng = random.Random(11)
    fens = []
    for board in _positions(400, seed=6):
        fens += _mutations(board.fen(), rng, 8)
    fens += ["rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
             "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", "8/8/8/8/8/8/8/K6k w - - 0 1"]
    out = np.zeros(len(fens), np.int32)
    status = np.zeros(len(fens), np.uint8)
    _core.static_eval_fens(fens, out, status, True, False)
    read, deferred = 0, 0
    for fen, value, code in zip(fens, out, status):
        try:
            position = _core.Position(fen)
        except ValueError:
            assert code == _core.BATCH_DEFERRED, fen
            deferred += 1
            continue
        if code == 0:
            read += 1
            assert value == _core.static_eval_position(position, True), fen
    assert read > 500 and deferred > 500


def test_forms_the_c_reader_leaves_aside_are_still_evaluated(vireo):
    shredder = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
    odd = ["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\tw KQkq - 0 1",
           "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 "]
    values = vireo.evaluate_many(odd)
    assert list(values) == [_core.Position(chess.STARTING_FEN).nnue_search_eval()] * 2
    vireo.configure({"UCI_Chess960": True})
    try:
        assert vireo.evaluate_many([shredder])[0] == _core.Position(shredder, True).nnue_search_eval()
    finally:
        vireo.configure({"UCI_Chess960": False})


@pytest.mark.parametrize("item, words", [
    ("not a fen", "position 2: invalid FEN 'not a fen'"),
    ("8/8/8/8/8/8/8/8 w - - 0 1", "position 2: invalid FEN .* 0 kings"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1", "position 2: .*en-passant"),
    (42, "position 2: expected a FEN string or a chess.Board, not int"),
])
def test_a_bad_fen_or_item_is_named(vireo, item, words):
    with pytest.raises(ValueError, match=words):
        vireo.evaluate_many([chess.STARTING_FEN, chess.Board(), item, chess.STARTING_FEN])
    assert vireo.evaluate_many([chess.STARTING_FEN])[0] == vireo.evaluate(chess.Board()).relative.score()


@pytest.mark.parametrize("setup, words", [
    (lambda b: b.remove_piece_at(chess.E8), "each side needs exactly one king"),
    (lambda b: b.set_piece_at(chess.A8, chess.Piece(chess.PAWN, chess.WHITE)), "first or last rank"),
    (lambda b: b.set_piece_at(chess.E7, chess.Piece(chess.QUEEN, chess.WHITE)), "not to move is in check"),
])
def test_a_bad_board_is_named(vireo, setup, words):
    board = chess.Board("4k3/8/8/8/8/8/8/4K3 w - - 0 1")
    setup(board)
    with pytest.raises(ValueError, match=f"position 1: .*{words}"):
        vireo.evaluate_many([chess.Board(), board])


def test_bitboards_that_overlap_are_refused_not_evaluated():
    pieces = np.zeros((1, 8), np.uint64)
    pieces[0] = [1 << 4, 1 << 4, 0, 0, 0, 0, 0, 1 << 4]     # one king on e1 claimed by both colours
    status = np.zeros(1, np.uint8)
    _core.static_eval_bitboards(pieces, np.ones(1, np.uint8), np.zeros(1, np.int32), status, True)
    assert _core.BATCH_MESSAGES[int(status[0])] == "the piece bitboards overlap"


def test_the_loop_runs_without_the_gil(vireo):
    """While one thread evaluates, another keeps running Python: the longest
    pause it sees stays far below the time the evaluation takes."""
    fens = [b.fen() for b in _positions(2000, seed=8)] * 150
    pauses, running = [], threading.Event()

    def watch():
        last = time.perf_counter()
        while running.is_set():
            now = time.perf_counter()
            pauses.append(now - last)
            last = now

    started = time.perf_counter()
    vireo.evaluate_many(fens[:1000])
    running.set()
    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        core_started = time.perf_counter()
        vireo.evaluate_many(fens)
        took = time.perf_counter() - core_started
    finally:
        running.clear()
        watcher.join()
    assert took > 0.1, took
    assert max(pauses) < took / 2, (max(pauses), took, started)
