"""Syzygy: opening, probing, and Stockfish-style root ranking, checked against direct chess.syzygy probes."""
import os
import random
import shutil

import chess
import chess.engine
import chess.syzygy
import pytest
from conftest import SHARED_DATA, require_engine

from engine.syzygy.tables import (MATE_IN_MAX_PLY, MATE_SCORE, TB_WIN_IN_MAX_PLY, TB_WIN_SCORE, TablebaseError,
                                  Tablebases, effective_limits, search_probe_allowed, wdl_to_score)
from engine.tools import syzygy_bench as tablebase_bench
from engine.tools.syzygy_bench import random_endgame
from engine.uci.output import uci_score

SYZYGY = SHARED_DATA / "syzygy"


@pytest.fixture(scope="module")
def tb():
    with Tablebases.open(str(SYZYGY)) as tables:
        yield tables


@pytest.fixture(scope="module")
def oracle():
    """python-chess's own tables, used directly: the reference the ranking is checked against."""
    with chess.syzygy.open_tablebase(str(SYZYGY)) as tables:
        yield tables


def outcome(oracle, board, move):
    """What the move achieves for the mover under the 50-move rule: 2 win, 0 draw, -2 loss."""
    child = board.copy()
    child.push(move)
    if child.is_checkmate():
        return 2
    if child.is_repetition(3) or child.is_fifty_moves():
        return 0
    wdl = -oracle.probe_wdl(child)
    return 2 if wdl == 2 else -2 if wdl == -2 else 0


def won_position(oracle, rng, material, min_dtz=1):
    """The random won position (attacker = white to move) with the largest DTZ of 30 tries."""
    best, best_dtz = None, 0
    for _ in range(30):
        board = random_endgame(rng, material, chess.WHITE)
        if oracle.probe_wdl(board) == 2:
            dtz = oracle.probe_dtz(board)
            if dtz > best_dtz:
                best, best_dtz = board, dtz
    assert best is not None and best_dtz >= min_dtz
    return best, best_dtz


# -- opening ---------------------------------------------------------------------

def test_opens_the_shared_tables(tb):
    assert tb.max_pieces == 4
    assert tb.wdl_count == tb.dtz_count == 35  # every 3- and 4-piece signature
    assert tb.warnings == []
    assert str(SYZYGY) in tb.summary()


def test_wrong_directory_is_reported(tmp_path):
    with pytest.raises(TablebaseError, match="not found: /no/such/dir"):
        Tablebases.open("/no/such/dir")
    with pytest.raises(TablebaseError, match="no Syzygy tables"):
        Tablebases.open(str(tmp_path))
    with pytest.raises(TablebaseError, match="no Syzygy directory"):
        Tablebases.open("")
    (tmp_path / "file").write_text("x")
    with pytest.raises(TablebaseError, match="not found"):
        Tablebases.open(str(tmp_path / "file"))


def test_several_directories_with_a_bad_one(tmp_path):
    path = os.pathsep.join(["/no/such/dir", str(tmp_path), str(SYZYGY)])
    with Tablebases.open(path) as tables:
        assert tables.directories == [str(SYZYGY)]
        assert len(tables.warnings) == 2
        assert tables.probe_wdl(chess.Board("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")) == 2


def test_only_dtz_tables_are_not_enough(tmp_path):
    shutil.copy(SYZYGY / "KQvK.rtbz", tmp_path)
    with pytest.raises(TablebaseError, match="WDL"):
        Tablebases.open(str(tmp_path))


# -- probing ---------------------------------------------------------------------

def test_probe_wdl_values_and_refusals(tb):
    hits = tb.hits
    assert tb.probe_wdl(chess.Board("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")) == 2
    assert tb.probe_wdl(chess.Board("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1")) == 0
    assert tb.probe_wdl(chess.Board("8/8/8/8/8/8/8/K6k w - - 0 1")) == 0
    assert tb.probe_dtz(chess.Board("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")) == 9
    assert tb.hits == hits + 4
    assert tb.probe_wdl(chess.Board()) is None                                     # 32 pieces
    assert tb.probe_wdl(chess.Board("4k3/8/8/8/8/8/8/R3K2R w K - 0 1")) is None    # castling rights
    assert tb.probe_wdl(chess.Board("4k3/8/8/8/8/8/3PP3/3QK3 w - - 0 1")) is None  # 5 pieces
    assert tb.hits == hits + 4


def test_missing_and_corrupt_tables_give_none(tmp_path):
    shutil.copy(SYZYGY / "KQvK.rtbw", tmp_path)
    (tmp_path / "KRvK.rtbw").write_bytes(b"garbage" * 10)
    with Tablebases.open(str(tmp_path)) as tables:
        assert tables.probe_wdl(chess.Board("4k3/8/8/8/8/8/8/3QK3 w - - 0 1")) == 2
        assert tables.probe_wdl(chess.Board("4k3/8/8/8/8/8/8/3BK3 w - - 0 1")) is None  # KBvK not there
        assert tables.failures == []                                                  # missing is normal
        assert tables.probe_wdl(chess.Board("4k3/8/8/8/8/8/8/3RK3 w - - 0 1")) is None  # corrupt
        assert "KRvK" in tables.failures[0]
        # The root ranking falls back to nothing: a KQvK root whose moves stay in KQvK still ranks.
        assert tables.rank_root_moves(chess.Board("4k3/8/8/8/8/8/8/3QK3 w - - 0 1"))  # WDL-only ranking
        assert tables.rank_root_moves(chess.Board("4k3/8/8/8/8/8/8/3RK3 w - - 0 1")) == []


# -- root ranking ------------------------------------------------------------------

MATERIALS = ["KQvK", "KRvK", "KPvK", "KBNvK", "KQvKR", "KRvKR", "KPvKP", "KRPvK", "KBvKP", "KNvKP"]


def test_ranking_never_throws_away_a_win_or_a_draw(tb, oracle):
    """On random positions: a move that achieves more (win > draw > loss) always ranks higher,
    the moves to search all achieve the best outcome, and the reported score matches it."""
    rng = random.Random(2024)
    tested = {2: 0, 0: 0, -2: 0}
    mixed_draws = 0  # drawn positions where some moves lose: "keep the draw" is really tested
    for i in range(160):
        board = random_endgame(rng, MATERIALS[i % len(MATERIALS)])
        if board.is_game_over():
            continue  # mate or stalemate on the board: no moves to rank
        ranking = tb.rank_root_moves(board)
        assert ranking.used_dtz
        assert len(ranking) == board.legal_moves.count()
        value = {m.move: outcome(oracle, board, m.move) for m in ranking}
        best = max(value.values())
        assert all(value[m] == best for m in ranking.best_moves())
        for a in ranking:
            for b in ranking:
                if value[a.move] > value[b.move]:
                    assert a.rank > b.rank, (board.fen(), a, b)
        if best == 2:
            assert ranking.score == TB_WIN_SCORE
        elif best == -2:
            assert ranking.score == -TB_WIN_SCORE
        else:
            assert abs(ranking.score) < 50
            mixed_draws += min(value.values()) < 0
        tested[best] += 1
    assert min(tested.values()) >= 10 and mixed_draws >= 5, (tested, mixed_draws)


@pytest.mark.parametrize("material", ["KQvK", "KRvK", "KBNvK", "KPvK"])
def test_wins_within_the_50_move_rule_come_first(tb, oracle, material):
    """With the clock set so that the win only just fits (DTZ + clock = 99), every move
    offered to the search still wins before the 50-move rule; one ply later the win is lost
    to the clock and is reported as a cursed win, unless Syzygy50MoveRule is off."""
    board, dtz = won_position(oracle, random.Random(material), material, min_dtz=3)
    board.halfmove_clock = 99 - dtz
    ranking = tb.rank_root_moves(board)
    assert ranking.score == TB_WIN_SCORE
    for move in ranking.best_moves():
        child = board.copy()
        child.push(move)
        if child.is_checkmate() or child.halfmove_clock == 0:
            assert child.is_checkmate() or oracle.probe_wdl(child) == -2
            continue
        assert oracle.probe_wdl(child) == -2
        assert abs(oracle.probe_dtz(child)) + child.halfmove_clock <= 100, (board.fen(), move)
    if material != "KPvK":  # with a pawn, a pawn move resets the clock: still won
        board.halfmove_clock = 99 - dtz + 3
        late = tb.rank_root_moves(board)
        assert 0 < late.score < 50
        assert tb.rank_root_moves(board, rule50=False).score == TB_WIN_SCORE


@pytest.mark.parametrize("material", ["KQvK", "KRvK", "KPvK", "KBNvK"])
def test_playing_the_ranking_mates_within_the_50_move_rule(tb, oracle, material):
    """Both sides pick at random among the best-ranked moves: the stronger side mates,
    never lets the clock run out, never repeats a position three times."""
    rng = random.Random(material)
    board, _ = won_position(oracle, rng, material)
    for _ in range(300):
        if board.is_game_over() or board.is_repetition(3) or board.is_fifty_moves():
            break
        board.push(rng.choice(tb.rank_root_moves(board).best_moves()))
    assert board.is_checkmate(), board.fen()
    assert board.turn == chess.BLACK  # white, the side that was winning, gave mate


def test_drawn_endgame_is_held(tb, oracle):
    """A drawn KRvKR (and KPvKP) position: the defender plays the ranking, the opponent plays
    anything; the defender never steps into a lost position."""
    rng = random.Random(5)
    for material in ("KRvKR", "KPvKP"):
        board = None
        while board is None:
            candidate = random_endgame(rng, material, chess.BLACK)
            if oracle.probe_wdl(candidate) == 0:
                board = candidate
        for _ in range(40):
            if board.is_game_over() or board.is_repetition(3) or tb.probe_wdl(board) is None:
                break
            if board.turn == chess.BLACK:
                assert oracle.probe_wdl(board) >= 0
                board.push(rng.choice(tb.rank_root_moves(board).best_moves()))
                assert board.is_game_over() or oracle.probe_wdl(board) <= 0  # white cannot win now
            else:
                board.push(rng.choice(list(board.legal_moves)))


def test_stockfish_plays_a_best_ranked_move(tb, oracle):
    """Stockfish (Debian) with the same tables, at depth 1, searches only its best-ranked root
    moves: its choice must be one of ours, clock edge cases included."""
    rng = random.Random(3)
    with chess.engine.SimpleEngine.popen_uci(require_engine("stockfish")) as stockfish:
        stockfish.configure({"SyzygyPath": str(SYZYGY), "Threads": 1})
        for i in range(60):
            board = random_endgame(rng, MATERIALS[i % len(MATERIALS)])
            if board.is_game_over():
                continue
            dtz = oracle.probe_dtz(board)
            if i % 2 == 0 and dtz > 0:  # put the win right at the edge of the 50-move rule
                board.halfmove_clock = max(0, 99 - dtz + rng.choice([-2, 0, 1, 3]))
            played = stockfish.play(board, chess.engine.Limit(depth=1)).move
            assert played in tb.rank_root_moves(board).best_moves(), board.fen()


def test_rank_dtz_picks_the_fastest_conversion(tb):
    board = chess.Board("k7/8/1K6/8/8/8/8/2Q5 w - - 0 1")  # Qc7 would be stalemate
    plain = tb.rank_root_moves(board)
    fast = tb.rank_root_moves(board, rank_dtz=True)
    assert [board.san(m) for m in fast.best_moves()] == ["Qc8#"]
    assert set(fast.best_moves()) < set(plain.best_moves())
    stalemate = next(m for m in plain if board.san(m.move) == "Qc7")
    assert stalemate.rank == 0 and stalemate.score == 0


def test_after_a_repetition_only_progress_is_offered(tb):
    """Once a position has repeated, wins are no longer ranked equal: the search gets only
    the moves that shorten DTZ most, so a third repetition cannot happen."""
    start = chess.Board("8/8/3k4/8/8/8/8/KQ6 w - - 0 1")
    board = start.copy()
    for san in ["Qb2", "Kd5", "Qb1", "Kd6"]:
        board.push_san(san)
    assert board.board_fen() == start.board_fen() and board.is_repetition(2)
    fresh = chess.Board(board.fen())  # same position and clock, no history
    assert set(tb.rank_root_moves(board).best_moves()) == set(tb.rank_root_moves(fresh, rank_dtz=True).best_moves())
    assert len(tb.rank_root_moves(fresh).best_moves()) > len(tb.rank_root_moves(board).best_moves())


def test_wdl_only_tables_still_rank(tmp_path, oracle):
    for table in SYZYGY.glob("*.rtbw"):
        (tmp_path / table.name).symlink_to(table)
    rng = random.Random(9)
    with Tablebases.open(str(tmp_path)) as tables:
        assert tables.dtz_count == 0
        for material in ("KQvK", "KRvK", "KPvKP", "KBNvK", "KQvKR"):
            board, _ = won_position(oracle, rng, material)
            ranking = tables.rank_root_moves(board)
            assert not ranking.used_dtz  # a won root needs DTZ, which is missing
            value = {m.move: outcome(oracle, board, m.move) for m in ranking}
            assert all(value[m] == 2 for m in ranking.best_moves())
            assert min(m.rank for m in ranking if value[m.move] == 2) > max(
                (m.rank for m in ranking if value[m.move] < 2), default=-10**9)
            assert ranking.score == TB_WIN_SCORE
            assert ranking.probe_in_search()  # without DTZ the search keeps probing to make progress


def test_not_in_tables(tb):
    assert tb.rank_root_moves(chess.Board()) == []
    assert tb.rank_root_moves(chess.Board("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")) == []  # mated: no moves
    board = chess.Board("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
    assert tb.rank_root_moves(board, probe_limit=2) == []  # SyzygyProbeLimit below the piece count
    assert tb.rank_root_moves(board).best_moves()
    assert not tb.rank_root_moves(board).probe_in_search()  # DTZ ranked it: no probes needed in search


# -- scores and search conventions ------------------------------------------------

def test_scores_stay_below_mate():
    assert TB_WIN_SCORE < MATE_IN_MAX_PLY
    assert wdl_to_score(2, ply=0) == TB_WIN_SCORE
    assert wdl_to_score(2, ply=10) == TB_WIN_SCORE - 10 > TB_WIN_IN_MAX_PLY
    assert wdl_to_score(-2, ply=10) == -(TB_WIN_SCORE - 10)
    assert wdl_to_score(1, ply=3) == 2 and wdl_to_score(-1, ply=3) == -2 and wdl_to_score(0, 3) == 0
    assert wdl_to_score(1, ply=3, rule50=False) == TB_WIN_SCORE - 3


def test_uci_score_text():
    assert uci_score(35) == "cp 35"
    assert uci_score(TB_WIN_SCORE) == "cp 20000"
    assert uci_score(-(TB_WIN_SCORE - 12)) == "cp -19988"
    assert uci_score(MATE_SCORE - 1) == "mate 1"
    assert uci_score(MATE_SCORE - 4) == "mate 2"
    assert uci_score(-(MATE_SCORE - 2)) == "mate -1"


def test_search_probe_rules():
    assert effective_limits(7, 5, max_pieces=4) == (4, 0)
    assert effective_limits(3, 5, max_pieces=4) == (3, 5)
    assert search_probe_allowed(3, depth=1, halfmove_clock=0, castling=False, cardinality=4, probe_depth=5)
    assert not search_probe_allowed(4, depth=1, halfmove_clock=0, castling=False, cardinality=4, probe_depth=5)
    assert search_probe_allowed(4, depth=5, halfmove_clock=0, castling=False, cardinality=4, probe_depth=5)
    assert not search_probe_allowed(3, depth=9, halfmove_clock=1, castling=False, cardinality=4, probe_depth=5)
    assert not search_probe_allowed(3, depth=9, halfmove_clock=0, castling=True, cardinality=4, probe_depth=5)


def test_benchmark_runs(capsys):
    assert tablebase_bench.main(["--path", str(SYZYGY), "--positions", "40", "--rounds", "1"]) == 0
    assert "probe_wdl (Tablebases):" in capsys.readouterr().out
    assert tablebase_bench.main(["--path", "/no/such/dir"]) == 1
