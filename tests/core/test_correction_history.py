"""Correction history (core/correction.pxi): the static evaluation's error,
learned per (side to move, pawn structure) and added to later evaluations.

The update rule through a scratch table (engine._core._correction_after);
the search through engine._core.Search with the tunable CORR_MAX_CP, which
is 0 (off) until its SPRT passes: python-chess checks the moves.
"""
import chess
import pytest

from engine import _core
from engine._core import Position, Search, _correction_after

MIDDLEGAME = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 9"
KNIGHTS_OUT = "rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 2 2"
OPEN_GAME = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"


@pytest.fixture
def correction_cap():
    """Set CORR_MAX_CP for one test; the default comes back afterwards."""
    default = _core.get_tunables()["CORR_MAX_CP"]

    def set_cap(value):
        _core.set_tunable("CORR_MAX_CP", value)
    yield set_cap
    _core.set_tunable("CORR_MAX_CP", default)


def test_off_by_default_until_its_sprt():
    assert _core.get_tunables()["CORR_MAX_CP"] == 0
    assert _correction_after([(0, 300, 20)] * 200) == 0


def test_a_steady_error_is_learned_as_an_average(correction_cap):
    correction_cap(64)
    # the search kept finding this structure 40 cp better than the network said
    assert _correction_after([(10, 50, 20)] * 400) in (39, 40)
    assert _correction_after([(10, -30, 20)] * 400) in (-40, -39)
    # alternating errors of +-30 average out: moving a quarter of the way
    # each time (this depth), the entry swings about 0 by +-30/7
    after_minus = _correction_after([(0, 30, 20), (0, -30, 20)] * 200)
    after_plus = _correction_after([(0, 30, 20), (0, -30, 20)] * 200 + [(0, 30, 20)])
    assert (after_minus, after_plus) in ((-4, 4), (-4, 5), (-5, 4))


def test_deeper_results_weigh_more(correction_cap):
    correction_cap(64)
    # one result moves the entry by 4 (depth + 1) / 256 of the error, at most 64 / 256
    assert _correction_after([(0, 64, 3)]) == 4
    assert _correction_after([(0, 64, 15)]) == 16
    assert _correction_after([(0, 64, 40)]) == 16
    assert _correction_after([(0, -64, 15)]) == -16
    shallow = _correction_after([(0, 40, 0)] * 8)
    deep = _correction_after([(0, 40, 12)] * 8)
    assert 0 < shallow < deep < 40


def test_corrections_are_bounded(correction_cap):
    correction_cap(64)
    assert _correction_after([(0, 5000, 30)] * 1000) == 64
    assert _correction_after([(0, -5000, 30)] * 1000) == -64
    correction_cap(127)      # the tuning range's top still fits the 16-bit entries
    assert _correction_after([(0, 30000, 30)] * 1000) == 127
    assert _correction_after([(0, -30000, 30)] * 1000) == -127


def test_kept_per_side_to_move_and_pawn_structure(correction_cap):
    correction_cap(64)
    learned = [(0, 40, 20)] * 400          # learned at the start position, White to move
    # 1.Nf3 Nf6: the same pawns, kings and side to move share the entry
    assert _correction_after(learned, read_fen=KNIGHTS_OUT) == 40
    # the other side to move, or another pawn structure, does not
    assert _correction_after(learned, read_fen=chess.STARTING_FEN.replace(" w ", " b ")) == 0
    assert _correction_after(learned, read_fen=OPEN_GAME) == 0


def search_lines(search, fen, nodes):
    lines = []
    best, _ = search.go(Position(fen), {"nodes": nodes}, lines.append)
    return best, [(line["depth"], line["score"], line["nodes"], tuple(line["pv"]))
                  for line in lines if "score" in line]


def test_the_search_uses_it_and_ucinewgame_forgets_it(correction_cap):
    search = Search()
    search.clear_hash()
    correction_cap(0)
    plain_best, plain = search_lines(search, MIDDLEGAME, 60_000)
    correction_cap(64)
    search.clear_hash()
    best, corrected = search_lines(search, MIDDLEGAME, 60_000)
    assert chess.Move.from_uci(best) in chess.Board(MIDDLEGAME).legal_moves
    assert corrected != plain                      # the tunable reaches the search
    # a second search learns on top of the first; clear_hash (ucinewgame)
    # empties the correction with the table and histories, so the first
    # search repeats exactly
    search_lines(search, MIDDLEGAME, 60_000)
    search.clear_hash()
    assert search_lines(search, MIDDLEGAME, 60_000) == (best, corrected)
