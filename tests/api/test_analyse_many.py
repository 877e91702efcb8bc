"""analyse_many: many positions over native search threads, in input order,
each result what analyse() gives alone; bad items named before any search;
Ctrl-C keeps what is finished."""
import _thread
import threading
import time

import chess
import chess.engine
import pytest

from engine.api import Engine
from engine.uci.bench import BENCH_POSITIONS

NODES = chess.engine.Limit(nodes=5000)


@pytest.fixture(scope="module")
def vireo():
    with Engine() as engine:
        yield engine


def test_results_come_in_input_order_and_equal_analyse_alone(vireo):
    fens = BENCH_POSITIONS[:12]
    boards = [chess.Board(f) for f in fens]
    many = vireo.analyse_many([f if i % 2 else b for i, (f, b) in enumerate(zip(fens, boards))],
                              NODES, workers=2, progress=False)
    assert len(many) == len(fens)
    for board, info in zip(boards, many):
        vireo.clear_hash()
        alone = vireo.analyse(board, NODES)
        for key in ("score", "pv", "depth", "nodes"):
            assert info[key] == alone[key], (board.fen(), key)


def test_each_position_may_have_its_own_limit_and_multipv_gives_lists(vireo):
    limits = [chess.engine.Limit(depth=d) for d in (1, 2, 3, 4)]
    many = vireo.analyse_many(BENCH_POSITIONS[:4], limits, workers=2, progress=False)
    assert [info["depth"] for info in many] == [1, 2, 3, 4]
    lines = vireo.analyse_many(BENCH_POSITIONS[:2], chess.engine.Limit(depth=3), multipv=2, progress=False)
    assert [[i["multipv"] for i in infos] for infos in lines] == [[1, 2], [1, 2]]


def test_a_board_s_move_stack_counts(vireo):
    board = chess.Board("1n2k3/8/8/8/8/8/8/3QK1R1 b - - 0 1")
    for move in ["b8c6", "d1d2", "c6b8", "d2d1"] * 2:
        board.push_uci(move)
    bare = board.fen()
    with_history, without = vireo.analyse_many([board, bare], chess.engine.Limit(depth=6), progress=False)
    assert with_history["score"].relative == chess.engine.Cp(0)
    assert without["score"].relative.score() < -500


@pytest.mark.parametrize("item, limit, words", [
    ("8/8/8/8 w - - 0 1", NODES, "position 2: invalid FEN"),
    ("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", NODES, "position 2: the game is over: checkmate"),
    ("7k/8/6QK/8/8/8/8/8 b - - 0 1", NODES, "position 2: the game is over: stalemate"),
    (chess.STARTING_FEN, chess.engine.Limit(nodes=0), "position 2: limit nodes must be"),
    (chess.STARTING_FEN, chess.engine.Limit(), "position 2: limit sets no bound"),
    (3.5, NODES, "position 2: expected a chess.Board, not float"),
])
def test_a_bad_item_is_named_before_any_search(vireo, item, limit, words):
    limits = [NODES, NODES, limit]
    with pytest.raises(ValueError, match=words):
        vireo.analyse_many([chess.STARTING_FEN, chess.Board(), item], limits, workers=2, progress=False)
    assert vireo.analyse_many([chess.STARTING_FEN], NODES, progress=False)[0]["nodes"] == 5000


def test_wrong_limits_and_workers_are_refused(vireo):
    with pytest.raises(ValueError, match="2 limits for 3 positions"):
        vireo.analyse_many([chess.STARTING_FEN] * 3, [NODES, NODES], progress=False)
    with pytest.raises(ValueError, match="workers must be an integer >= 1"):
        vireo.analyse_many([chess.STARTING_FEN], NODES, workers=0, progress=False)


def test_the_progress_bar_counts_positions(vireo, capsys):
    vireo.analyse_many(BENCH_POSITIONS[:3], chess.engine.Limit(depth=2), progress=True)
    assert "3/3" in capsys.readouterr().err
    vireo.analyse_many(BENCH_POSITIONS[:3], chess.engine.Limit(depth=2), progress=False)
    assert capsys.readouterr().err == ""


def test_ctrl_c_stops_the_searches_and_returns_what_is_finished(vireo):
    limits = [chess.engine.Limit(depth=1)] * 4 + [chess.engine.Limit(time=5)] * 8
    timer = threading.Timer(1.0, _thread.interrupt_main)
    timer.start()
    started = time.monotonic()
    try:
        results = vireo.analyse_many(BENCH_POSITIONS[:12], limits, workers=2, progress=False)
    finally:
        timer.cancel()
    took = time.monotonic() - started
    assert took < 4.5, took                      # 8 searches of 5 s on 2 workers would take 20 s
    assert len(results) == 12
    assert all(r is not None and r["depth"] == 1 for r in results[:4])
    assert any(r is None for r in results[4:])
    assert vireo.analyse(chess.Board(), chess.engine.Limit(depth=3))["depth"] == 3   # still serving
