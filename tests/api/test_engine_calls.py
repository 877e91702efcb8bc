"""engine.api.Engine's calls return python-chess's types and take its inputs,
as chess.engine.SimpleEngine does over UCI."""
import chess
import chess.engine
import pytest

from engine.api import Engine

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


@pytest.fixture(scope="module")
def vireo():
    with Engine() as engine:
        yield engine


def test_analyse_returns_an_info_dict_of_python_chess_types(vireo):
    board = chess.Board(KIWIPETE)
    info = vireo.analyse(board, chess.engine.Limit(depth=6))
    assert isinstance(info["score"], chess.engine.PovScore) and info["score"].turn == chess.WHITE
    assert isinstance(info["wdl"], chess.engine.PovWdl) and sum(info["wdl"].relative) == 1000
    assert info["depth"] == 6 and info["seldepth"] >= 6 and info["nodes"] > 0
    assert isinstance(info["time"], float) and info["multipv"] == 1
    assert all(isinstance(m, chess.Move) for m in info["pv"]) and info["pv"][0] in board.legal_moves
    replay = board.copy()
    for move in info["pv"]:
        assert move in replay.legal_moves
        replay.push(move)
    assert board.fen() == KIWIPETE   # the caller's board is not touched


def test_multipv_gives_a_list_best_first_with_different_first_moves(vireo):
    infos = vireo.analyse(chess.Board(KIWIPETE), chess.engine.Limit(depth=6), multipv=3)
    assert [i["multipv"] for i in infos] == [1, 2, 3]
    assert len({i["pv"][0] for i in infos}) == 3
    scores = [i["score"].relative.score(mate_score=100000) for i in infos]
    assert scores == sorted(scores, reverse=True)


def test_play_returns_a_play_result_with_a_legal_move_and_ponder(vireo):
    board = chess.Board(KIWIPETE)
    result = vireo.play(board, chess.engine.Limit(nodes=5000), info=chess.engine.INFO_ALL)
    assert isinstance(result, chess.engine.PlayResult)
    assert result.move in board.legal_moves and result.move == result.info["pv"][0]
    board.push(result.move)
    assert result.ponder is None or result.ponder in board.legal_moves
    assert vireo.play(chess.Board(KIWIPETE), chess.engine.Limit(nodes=5000)).info == {}


def test_a_mated_side_has_no_move_and_a_mate_zero_score(vireo):
    board = chess.Board("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")
    assert board.is_checkmate()
    assert vireo.play(board, chess.engine.Limit(depth=3)).move is None
    assert vireo.analyse(board, chess.engine.Limit(depth=3))["score"].relative == chess.engine.Mate(0)


def test_a_mate_is_found_and_scored_as_mate(vireo):
    board = chess.Board("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
    info = vireo.analyse(board, chess.engine.Limit(depth=4))
    assert info["score"].white() == chess.engine.Mate(1) and info["pv"][0] == chess.Move.from_uci("d1d8")


def test_evaluate_is_the_static_evaluation_the_search_starts_from(vireo):
    from engine import _core
    for fen in (chess.STARTING_FEN, KIWIPETE, "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"):
        board = chess.Board(fen)
        score = vireo.evaluate(board)
        assert isinstance(score, chess.engine.PovScore) and score.turn == board.turn
        assert score.relative.score() == _core.Position(fen).nnue_search_eval()
    with Engine({"Use NNUE": False}) as classical:
        board = chess.Board(KIWIPETE)
        assert classical.evaluate(board).relative.score() == _core.Search().evaluate(_core.Position(KIWIPETE))


def test_a_chess960_game_with_castling_in_its_stack_is_searched(vireo):
    """The stack goes to the core as python-chess sends it over UCI: castling
    as king takes rook, with UCI_Chess960 following board.chess960."""
    import random
    rng = random.Random(7)
    board = chess.Board.from_chess960_pos(518 - 100)
    while not any(board.is_castling(m) for m in board.legal_moves):
        board.push(rng.choice([m for m in board.legal_moves if not board.gives_check(m)]))
    castle = next(m for m in board.legal_moves if board.is_castling(m))
    assert board.piece_at(castle.to_square) == chess.Piece(chess.ROOK, board.turn)   # king takes rook
    board.push(castle)
    info = vireo.analyse(board, chess.engine.Limit(depth=5))
    assert board.chess960 and info["pv"][0] in board.legal_moves


def test_options_are_uci_options_as_python_chess_shows_them(vireo):
    assert vireo.id["name"].startswith("Vireo")
    hash_option = vireo.options["Hash"]
    assert isinstance(hash_option, chess.engine.Option)
    assert (hash_option.type, hash_option.default, hash_option.min) == ("spin", 16, 1)
    assert vireo.options["BookMode"].var == ["best", "weighted"]
    with Engine({"Hash": 2}, Threads=2, UCI_ShowWDL=True) as engine:
        assert engine.config["Hash"] == 2 and engine.config["Threads"] == 2
        engine.configure({"move overhead": 5})          # any case, as setoption
        assert engine.config["Move Overhead"] == 5


@pytest.mark.parametrize("options, words", [
    ({"Hash": 0}, "out of range"),
    ({"Hash": "big"}, "integer"),
    ({"Threads": 1.5}, "not a bool, int or str"),
    ({"Nonsense": 1}, "unknown option 'Nonsense'"),
    ({"UCI_Chess960": "maybe"}, "true or false"),
    ({"BookMode": "worst"}, "one of best, weighted"),
    ({"EvalFile": "/no/such/file.nnue"}, "cannot read network file"),
    ({"SyzygyPath": "/no/such/folder"}, "/no/such/folder"),
    ({"BookFile": "/no/such/book.bin"}, "/no/such/book.bin"),
])
def test_a_bad_option_raises_a_clear_value_error_and_changes_nothing(vireo, options, words):
    before = vireo.config
    with pytest.raises(ValueError, match=words.replace(".", r"\.").replace("(", r"\(")):
        vireo.configure(options)
    assert vireo.config == before
    assert vireo.analyse(chess.Board(), chess.engine.Limit(depth=2))["depth"] == 2


@pytest.mark.parametrize("limit, words", [
    (chess.engine.Limit(), "no bound"),
    (chess.engine.Limit(depth=0), "depth must be a whole number >= 1"),
    (chess.engine.Limit(nodes=-5), "nodes must be a whole number >= 1"),
    (chess.engine.Limit(depth=2.5), "depth must be a whole number"),
    (chess.engine.Limit(time=-1), "time must be >= 0"),
    (chess.engine.Limit(time=float("nan")), "time must be a finite number"),
    ({"depth": 3}, "chess.engine.Limit"),
])
def test_a_bad_limit_raises_a_clear_value_error(vireo, limit, words):
    with pytest.raises(ValueError, match=words):
        vireo.analyse(chess.Board(), limit)


def test_a_bad_board_raises_and_the_engine_serves_on(vireo):
    board = chess.Board(None)
    board.set_piece_at(chess.E1, chess.Piece(chess.KING, chess.WHITE))
    with pytest.raises(ValueError, match="black has 0 kings"):
        vireo.analyse(board, chess.engine.Limit(depth=2))
    with pytest.raises(ValueError, match="chess.Board"):
        vireo.analyse(chess.STARTING_FEN, chess.engine.Limit(depth=2))
    from chess.variant import AtomicBoard
    with pytest.raises(ValueError, match="atomic"):
        vireo.analyse(AtomicBoard(), chess.engine.Limit(depth=2))
    assert vireo.play(chess.Board(), chess.engine.Limit(depth=2)).move is not None


def test_a_closed_engine_says_so():
    engine = Engine()
    engine.close()
    with pytest.raises(RuntimeError, match="closed"):
        engine.analyse(chess.Board(), chess.engine.Limit(depth=1))


def test_the_book_answers_play_but_never_analyse():
    """As over UCI: OwnBook answers a timed game move; analyse() searches."""
    with Engine(OwnBook=True) as engine:
        board = chess.Board()
        book = engine.play(board, chess.engine.Limit(time=0.05), info=chess.engine.INFO_ALL)
        assert book.move in board.legal_moves
        assert engine._main.sink.messages and "book move" in engine._main.sink.messages[0]
        engine.analyse(board, chess.engine.Limit(depth=2))
        assert not any("book move" in m for m in engine._main.sink.messages)


def test_ctrl_c_stops_a_long_analysis_and_the_engine_serves_on(vireo):
    import _thread
    import threading
    import time
    timer = threading.Timer(0.5, _thread.interrupt_main)
    timer.start()
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        vireo.analyse(chess.Board(KIWIPETE), chess.engine.Limit(time=30))
    timer.cancel()
    assert time.monotonic() - started < 5
    assert vireo.analyse(chess.Board(), chess.engine.Limit(depth=3))["depth"] == 3
