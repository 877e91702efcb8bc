"""The soft time limit's scale (core/time_scale.pxi): how the main thread
stretches or shortens a move's time from what its search has seen, and the
stop inside an iteration. The rule through engine._core._time_scale_after;
the stop through engine._core.Search with a clock-style soft/hard pair."""
import time

import chess
import pytest

from engine import _core
from engine._core import Position, Search, _time_scale_after

E2E4, D2D4 = 796, 731          # any two distinct move codes: only equality matters
MIDDLEGAME = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 9"
# A position whose best move (Bxa6) stays put from 0.1 s to 1 s of search, so no
# iteration running at the soft limit changes it (that one would run on to the
# hard limit by design). In MIDDLEGAME the search bundle's depth 17 changes its mind.
SETTLED = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def settled(depths=range(1, 13), share=0.9, score=30):
    """Iterations with one best move taking `share` of the nodes, no changes."""
    return [(d, E2E4, score, int(share * 1000 * d), 1000 * d, 0) for d in depths]


def test_no_scaling_before_the_search_knows_anything():
    assert _time_scale_after(settled(range(1, 5))) == [100] * 4


def test_a_settled_best_move_gets_less_time_the_longer_it_stays():
    scales = _time_scale_after(settled())
    assert scales[-1] < scales[4] < 100      # below the plain soft limit, falling with stability
    assert scales == sorted(scales, reverse=True)


def test_the_best_moves_node_share_sets_the_time():
    by_share = [_time_scale_after(settled(share=share))[-1] for share in (0.95, 0.7, 0.4)]
    assert by_share[0] < by_share[1] < by_share[2]


def test_a_best_move_that_keeps_changing_gets_more_time():
    flipping = [(d, E2E4 if d % 2 else D2D4, 30, 400 * d, 1000 * d, 2) for d in range(1, 13)]
    scales = _time_scale_after(flipping)
    assert min(scales[4:]) > 150
    assert max(scales[4:]) <= _core.get_tunables()["TM_SCALE_MAX"]


def test_a_falling_score_earns_time_and_a_rising_one_saves_it():
    steady = _time_scale_after(settled())[-1]
    falling = [(d, E2E4, 100 - 12 * d, 900 * d, 1000 * d, 0) for d in range(1, 13)]
    rising = [(d, E2E4, 12 * d, 900 * d, 1000 * d, 0) for d in range(1, 13)]
    assert _time_scale_after(falling)[-1] > steady > _time_scale_after(rising)[-1]


def test_a_drop_since_the_last_search_of_the_game_earns_time():
    same = _time_scale_after(settled(score=30), prev_search_score=30)[-1]
    dropped = _time_scale_after(settled(score=30), prev_search_score=110)[-1]
    assert dropped > same


def test_mate_scores_are_not_scaled():
    mating = [(d, E2E4, 31990, 100 * d, 1000 * d, 3) for d in range(1, 13)]
    assert _time_scale_after(mating) == [100] * 12


@pytest.fixture
def tunables():
    saved = _core.get_tunables()
    yield _core.set_tunable
    for name, value in saved.items():
        _core.set_tunable(name, value)


def stop_point(limits, fen=MIDDLEGAME):
    """(seconds taken, whether the search stopped inside an iteration) for a
    fresh search of MIDDLEGAME. The core's last info line names the
    iteration in progress; when that depth never reported as complete
    before, the stop came inside it."""
    infos = []
    start = time.perf_counter()
    best, _ = Search().go(Position(fen), limits, infos.append)
    took = time.perf_counter() - start
    assert chess.Move.from_uci(best) in chess.Board(fen).legal_moves
    completed = {info["depth"] for info in infos[:-1] if info["bound"] is None}
    return took, infos[-1]["depth"] not in completed


def test_the_soft_limit_is_checked_inside_an_iteration(tunables):
    # Scale pinned to 100 % and the inside stop at 100 %: the search ends at
    # its soft limit, in the middle of an iteration, with the hard limit a
    # minute away.
    tunables("TM_SCALE_MIN", 100)
    tunables("TM_SCALE_MAX", 100)
    tunables("TM_INSIDE", 100)
    took, inside = stop_point({"soft_ms": 400, "hard_ms": 60000}, SETTLED)
    assert inside and 0.4 <= took < 1.5, (took, inside)
    # With the inside check pushed far out, only an iteration's end stops it.
    tunables("TM_INSIDE", 1000)
    took, inside = stop_point({"soft_ms": 400, "hard_ms": 60000}, SETTLED)
    assert not inside and took >= 0.4, (took, inside)


def test_movetime_is_used_whole(tunables):
    # soft == hard (movetime): no scale and no early stop, however settled
    tunables("TM_SCALE_MAX", 35)
    tunables("TM_INSIDE", 100)
    took, _ = stop_point({"soft_ms": 300, "hard_ms": 300})
    assert took >= 0.3, took
