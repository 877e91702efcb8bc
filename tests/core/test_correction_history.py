"""Correction histories (core/correction.pxi): the static evaluation's error,
learned per pawn structure, per each colour's other pieces and per the two
moves before, and added to later evaluations.

The update rule through a scratch table (engine._core._correction_after);
the search through engine._core.Search, whose corrected evaluations end up
nearer its own scores; python-chess plays the moves the keys follow.
"""
import random

import chess
import pytest

from conftest import shared_data
from engine import _core
from engine._core import Position, Search, _correction_after, _search_static_eval

MIDDLEGAME = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 9"
KNIGHTS_OUT = "rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 2 2"
OPEN_GAME = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
WEIGHTS = ("CORR_PAWN_W", "CORR_NONPAWN_W", "CORR_CONT_W")


@pytest.fixture
def weights():
    """Set the three tables' weights for one test; the defaults come back."""
    defaults = {name: _core.get_tunables()[name] for name in WEIGHTS}

    def set_weights(pawn, nonpawn, cont):
        for name, value in zip(WEIGHTS, (pawn, nonpawn, cont)):
            _core.set_tunable(name, value)
    yield set_weights
    for name, value in defaults.items():
        _core.set_tunable(name, value)


def test_all_weights_zero_switch_it_off(weights):
    weights(0, 0, 0)
    assert _correction_after([(0, 300, 20)] * 200) == 0


def test_a_steady_error_is_closed_by_the_tables_together(weights):
    weights(4096, 3072, 2560)       # the defaults: room for 64 + 2 * 48 + 40 cp
    # Every update learns the residual left by all four tables, so their sum
    # settles near the error instead of each adding the whole of it.
    assert 36 <= _correction_after([(10, 50, 20)] * 400) <= 40
    assert -40 <= _correction_after([(10, -30, 20)] * 400) <= -36
    # an error larger than the tables hold is corrected up to their room
    assert 190 <= _correction_after([(0, 1000, 20)] * 2000) <= 200


def test_deeper_results_move_it_further(weights):
    weights(4096, 0, 0)
    shallow = _correction_after([(0, 40, 1)] * 8)
    deep = _correction_after([(0, 40, 12)] * 8)
    assert 0 < shallow < deep <= 40


def test_each_table_is_bounded_by_its_weight(weights):
    weights(4096, 0, 0)
    assert _correction_after([(0, 5000, 30)] * 2000) == 64
    assert _correction_after([(0, -5000, 30)] * 2000) == -64
    weights(16384, 0, 0)        # the tuning range's top: 256 cp
    assert _correction_after([(0, 30000, 30)] * 2000) == 256


def test_the_pawn_table_is_kept_per_side_to_move_and_pawn_structure(weights):
    weights(4096, 0, 0)
    learned = [(0, 40, 20)] * 400          # learned at the start position, White to move
    # 1.Nf3 Nf6: the same pawns, kings and side to move share the entry
    assert _correction_after(learned, read_fen=KNIGHTS_OUT) >= 36
    # the other side to move, or another pawn structure, does not
    assert _correction_after(learned, read_fen=chess.STARTING_FEN.replace(" w ", " b ")) == 0
    assert _correction_after(learned, read_fen=OPEN_GAME) == 0


def test_the_non_pawn_tables_are_kept_per_colour(weights):
    weights(0, 4096, 0)
    learned = [(0, 40, 20)] * 400
    # both colours' pieces as at the start: both tables answer
    assert _correction_after(learned, read_fen=OPEN_GAME) >= 36
    # White's knight moved: only Black's table still answers, half the correction
    half = _correction_after(learned, read_fen=KNIGHTS_OUT.replace("5n2", "8").replace(
        "rnbqkb1r", "rnbqkbnr"))
    assert 16 <= half <= 20
    # both colours moved a piece: nothing learned applies
    assert _correction_after(learned, read_fen=KNIGHTS_OUT) == 0


def test_the_continuation_table_is_kept_per_pair_of_moves(weights):
    weights(0, 0, 4096)
    knight_f3, knight_f6 = (chess.KNIGHT, chess.F3), (chess.KNIGHT + 8, chess.F6)
    learned = [(0, 40, 20)] * 400
    assert _correction_after(learned, prev=(knight_f3, knight_f6)) >= 36
    # another move before, or the same two moves in the other order: not learned
    assert _correction_after(learned, prev=(knight_f3, knight_f6),
                             read_prev=((chess.KNIGHT, chess.C3), knight_f6)) == 0
    assert _correction_after(learned, prev=(knight_f3, knight_f6),
                             read_prev=(knight_f6, knight_f3)) == 0


def test_non_pawn_keys_follow_every_kind_of_move():
    """The incremental keys equal the keys computed from the board after
    random games (captures, castling, en passant, promotions)."""
    rng = random.Random(65)
    for _ in range(40):
        board, position = chess.Board(), Position()
        for _ in range(rng.randrange(20, 160)):
            moves = list(board.legal_moves)
            if not moves:
                break
            # prefer captures and promotions, so that the games reach them
            noisy = [m for m in moves if board.is_capture(m) or m.promotion]
            move = rng.choice(noisy if noisy and rng.random() < 0.5 else moves)
            board.push(move)
            position.push(move.uci())
            assert _core._nonpawn_keys(position) == _core._nonpawn_keys(position, scratch=True)


def test_the_search_moves_its_evaluations_toward_its_scores(weights):
    """After a search of each position, the static evaluation the search
    reads at that root is nearer the search's score than the raw one is."""
    weights(4096, 3072, 2560)
    fens = open(shared_data("openings", "2moves_v1.epd")).read().splitlines()[:16]
    search = Search()
    raw_error = corrected_error = 0
    for fen in fens:
        search.clear_hash()
        position = Position(fen)
        _, lines = search_lines(search, fen, 40_000)
        print(lines[-1][1])
        kind, score = lines[-1][1]
        if kind != "cp":                # a mate: no evaluation comes near it
            continue
        raw, corrected = _search_static_eval(search, position)
        raw_error += abs(score - raw)
        corrected_error += abs(score - corrected)
    assert corrected_error < 0.8 * raw_error


def search_lines(search, fen, nodes):
    lines = []
    best, _ = search.go(Position(fen), {"nodes": nodes}, lines.append)
    return best, [(line["depth"], line["score"], line["nodes"], tuple(line["pv"]))
                  for line in lines if "score" in line]


def test_the_search_uses_it_and_ucinewgame_forgets_it(weights):
    search = Search()
    search.clear_hash()
    weights(0, 0, 0)
    plain_best, plain = search_lines(search, MIDDLEGAME, 60_000)
    weights(4096, 3072, 2560)
    search.clear_hash()
    best, corrected = search_lines(search, MIDDLEGAME, 60_000)
    assert chess.Move.from_uci(best) in chess.Board(MIDDLEGAME).legal_moves
    assert corrected != plain                      # the tunables reach the search
    # a second search learns on top of the first; clear_hash (ucinewgame)
    # empties the correction with the table and histories, so the first
    # search repeats exactly
    search_lines(search, MIDDLEGAME, 60_000)
    search.clear_hash()
    assert search_lines(search, MIDDLEGAME, 60_000) == (best, corrected)
