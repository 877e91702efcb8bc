"""One engine, one behaviour: in-process analyse() searches exactly what
`vireo` searches for python-chess over UCI: the same best move, score, depth
and nodes at a node limit with one thread and a cleared hash."""
import chess
import chess.engine
import pytest
from uci_real_engine import popen_uci

from engine.api import Engine
from engine.uci.bench import BENCH_POSITIONS

NODES = 20000


@pytest.fixture(scope="module")
def over_uci():
    engine = popen_uci()
    yield engine
    engine.quit()


def _compare(api_info, uci_info):
    for key in ("score", "depth", "seldepth", "nodes"):
        assert api_info[key] == uci_info[key], key
    assert api_info["pv"] == uci_info["pv"]


def test_analyse_at_fixed_nodes_equals_go_nodes_on_every_bench_position(over_uci):
    with Engine() as engine:
        for fen in BENCH_POSITIONS:
            board = chess.Board(fen)
            engine.clear_hash()
            api_info = engine.analyse(board, chess.engine.Limit(nodes=NODES))
            uci_info = over_uci.analyse(board, chess.engine.Limit(nodes=NODES), game=object())  # ucinewgame
            _compare(api_info, uci_info)


def test_play_at_fixed_nodes_equals_go_nodes(over_uci):
    with Engine(OwnBook=False) as engine:
        over_uci.configure({"OwnBook": False})
        for fen in BENCH_POSITIONS[:6]:
            board = chess.Board(fen)
            engine.clear_hash()
            ours = engine.play(board, chess.engine.Limit(nodes=NODES))
            theirs = over_uci.play(board, chess.engine.Limit(nodes=NODES), game=object())
            assert (ours.move, ours.ponder) == (theirs.move, theirs.ponder)


# A lost side that can only save itself by repeating: black is a queen down,
# and the history has already passed through the position after ...Nc6 twice,
# so ...Nc6 now is a threefold repetition.
LOST = chess.Board("1n2k3/8/8/8/8/8/8/3QK1R1 b - - 0 1")
SHUFFLE = ["b8c6", "d1d2", "c6b8", "d2d1"] * 2


def test_the_move_stack_counts_for_repetitions_as_over_uci(over_uci):
    board = LOST.copy()
    for move in SHUFFLE:
        board.push_uci(move)
    with Engine() as engine:
        with_history = engine.analyse(board, chess.engine.Limit(depth=6))
        bare = engine.analyse(chess.Board(board.fen()), chess.engine.Limit(depth=6))
        engine.clear_hash()
        at_nodes = engine.analyse(board, chess.engine.Limit(nodes=NODES))
    assert with_history["pv"][0] == chess.Move.from_uci("b8c6")
    assert with_history["score"].relative == chess.engine.Cp(0)
    assert bare["score"].relative.score() < -500          # without its history: lost
    _compare(at_nodes, over_uci.analyse(board, chess.engine.Limit(nodes=NODES), game=object()))


def test_syzygy_tables_answer_as_over_uci(over_uci):
    from conftest import shared_data
    tables = str(shared_data("syzygy"))
    board = chess.Board("8/8/8/4k3/8/8/3RK3/8 w - - 0 1")      # KRvK: a tablebase win
    with Engine(SyzygyPath=tables) as engine:
        engine.clear_hash()
        ours = engine.analyse(board, chess.engine.Limit(nodes=NODES))
    over_uci.configure({"SyzygyPath": tables})
    try:
        theirs = over_uci.analyse(board, chess.engine.Limit(nodes=NODES), game=object())
    finally:
        over_uci.configure({"SyzygyPath": ""})
    assert ours["score"] == theirs["score"] and ours["pv"][0] == theirs["pv"][0]
    assert ours["tbhits"] > 0 and ours["score"].relative.score() > 19000     # cp 20000 minus plies: a TB win
