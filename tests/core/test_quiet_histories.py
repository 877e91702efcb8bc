"""The histories that judge a quiet move (core/movepick.pxi's quiet_history):
the pawn history, kept per pawn structure, and the continuation histories
4 and 6 plies back, which now weigh in the score that orders quiet moves
and drives their pruning and late move reductions (search.pxi, Steps 14
and 16). Scratch histories through engine._core._quiet_history_after."""
import chess
import pytest

from engine import _core
from engine._core import _quiet_history_after

START = chess.STARTING_FEN
# the start's pawns and kings, White's queen knight on c3
KNIGHT_C3 = "rnbqkbnr/pppppppp/8/8/8/2N5/PPPPPPPP/R1BQKBNR w KQkq - 1 2"
# another pawn structure (1.e4 e5), the knight still on g1
OPEN_GAME = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"


@pytest.fixture
def tunable():
    changed = {}

    def set_value(name, value):
        changed.setdefault(name, _core.get_tunables()[name])
        _core.set_tunable(name, value)
    yield set_value
    for name, value in changed.items():
        _core.set_tunable(name, value)


def test_the_pawn_history_is_kept_per_pawn_structure(tunable):
    tunable("PAWN_HIST_PCT", 100)
    reward = [(START, "g1f3", 1200, ())]
    # The main (from, to) table and the root's continuation row are the same
    # everywhere; only the pawn history tells the two structures apart.
    same_pawns = _quiet_history_after(reward, KNIGHT_C3, "g1f3")
    other_pawns = _quiet_history_after(reward, OPEN_GAME, "g1f3")
    assert same_pawns > other_pawns > 0
    tunable("PAWN_HIST_PCT", 0)
    assert _quiet_history_after(reward, OPEN_GAME, "g1f3") == other_pawns
    assert _quiet_history_after(reward, KNIGHT_C3, "g1f3") == other_pawns


def test_a_move_punished_under_one_structure_is_punished_less_under_another(tunable):
    tunable("PAWN_HIST_PCT", 100)
    punish = [(START, "b1c3", -1200, ())] * 3
    assert _quiet_history_after(punish, START, "b1c3") < _quiet_history_after(punish, OPEN_GAME, "b1c3") < 0


@pytest.mark.parametrize("plies_back", [4, 6])
def test_continuations_four_and_six_plies_back_count(tunable, plies_back):
    tunable("CONT_FAR_PCT", 50)
    tunable("PAWN_HIST_PCT", 0)
    # a white knight went to c3 that many plies ago (the moves since: null rows)
    before = [(chess.KNIGHT, chess.C3)] + [(0, 0)] * (plies_back - 1)
    other = [(chess.BISHOP, chess.C3)] + before[1:]
    reward = [(START, "g1f3", 1200, before)]
    with_it = _quiet_history_after(reward, START, "g1f3", before)
    without = _quiet_history_after(reward, START, "g1f3", other)
    assert with_it > without > 0
    # at weight 0 the far continuation no longer counts
    tunable("CONT_FAR_PCT", 0)
    assert _quiet_history_after(reward, START, "g1f3", before) == \
        _quiet_history_after(reward, START, "g1f3", other)


def test_more_than_six_moves_before_is_refused():
    with pytest.raises(ValueError):
        _quiet_history_after([], START, "g1f3", [(0, 0)] * 7)
