"""Time allocation (engine.uci.timeman): limits are sane and games are not lost on time.

The games are simulated: every move spends what the allocator allows (the
hard limit, the worst case, or twice the soft limit, what the search's
stability scaling can reach) plus a latency of half the move overhead, then
the increment arrives and, at the time control, the next period's time.
"""
import itertools

import pytest

from engine.uci.clock import plan_clock
from engine.uci.lag import LagMeter
from engine.uci.timeman import allocate


def play(base, inc, movestogo_cycle, overhead, spend, moves=240):
    """Lowest clock seen over a simulated game; raises if the flag falls."""
    clock = base
    lowest = clock
    for move in range(moves):
        mtg = movestogo_cycle - move % movestogo_cycle if movestogo_cycle else None
        soft, hard = allocate(clock, clock, inc, inc, mtg, True, overhead, 2 * move)
        assert 1 <= soft <= hard
        clock -= min(hard, spend(soft, hard)) + overhead // 2
        assert clock >= 0, f"lost on time at move {move + 1} (soft {soft}, hard {hard})"
        lowest = min(lowest, clock)
        clock += inc
        if mtg == 1:
            clock += base
    return lowest


HARD = staticmethod(lambda soft, hard: hard)
TWICE_SOFT = staticmethod(lambda soft, hard: 2 * soft)


@pytest.mark.parametrize("spend", [HARD, TWICE_SOFT], ids=["hard", "2soft"])
@pytest.mark.parametrize("base, inc, overhead", [
    (1000, 10, 10),        # 1 + 0.01
    (100, 10, 10),         # starting almost flagged
    (10000, 100, 30),
    (180000, 2000, 30),
])
def test_increment_games_are_not_lost(base, inc, overhead, spend):
    play(base, inc, None, overhead, spend)


@pytest.mark.parametrize("spend", [HARD, TWICE_SOFT], ids=["hard", "2soft"])
@pytest.mark.parametrize("base, cycle, overhead", [
    (1000, 1, 10),         # movestogo 1 every move
    (1000, 2, 10),
    (3000, 5, 30),
    (5000, 10, 50),
    (10000, 40, 10),
    (60000, 40, 10),
    (300000, 40, 30),
])
def test_movestogo_games_are_not_lost(base, cycle, overhead, spend):
    play(base, 0, cycle, overhead, spend)


def test_movestogo_one_uses_a_good_part_but_keeps_a_margin():
    soft, hard = allocate(1000, 1000, 0, 0, 1, True, 10, 60)
    assert 300 <= soft <= hard <= 0.8 * 990


def test_soft_is_a_small_share_early_in_a_long_game():
    soft, hard = allocate(300000, 300000, 0, 0, None, True, 30, 0)
    assert 3000 <= soft <= 10000
    assert soft < hard <= 0.34 * 300000


def test_increment_is_used():
    without, _ = allocate(60000, 60000, 0, 0, None, True, 10, 40)
    with_inc, _ = allocate(60000, 60000, 1000, 1000, None, True, 10, 40)
    assert with_inc > without + 500


def test_uses_the_clock_of_the_side_to_move():
    white = allocate(60000, 1000, 0, 0, None, True, 10, 40)
    black = allocate(60000, 1000, 0, 0, None, False, 10, 40)
    assert white[0] > black[0] and white[1] > black[1]


@pytest.mark.parametrize("clock", [0, 1, 5, 10, None])
def test_no_time_left_still_gives_a_minimal_budget(clock):
    assert allocate(clock, clock, None, None, None, True, 10, 0) == (1, 1)


def test_limits_are_bounded_over_a_grid():
    for clock, inc, mtg, overhead, ply in itertools.product(
            [1, 50, 999, 5000, 60000, 3600000], [0, 10, 1000, 30000], [None, 1, 2, 3, 20, 40],
            [0, 10, 100], [0, 40, 300]):
        soft, hard = allocate(clock, clock, inc, inc, mtg, True, overhead, ply)
        usable = clock - overhead
        assert 1 <= soft <= hard
        if usable > 1:
            assert hard <= max(1, 0.8 * usable), (clock, inc, mtg, overhead, ply, soft, hard)


@pytest.mark.parametrize("bad", ["1000", -5.5j, True, [1]])
def test_bad_input_is_a_value_error(bad):
    with pytest.raises(ValueError):
        allocate(bad, bad, 0, 0, None, True, 10, 0)


# -- a slow machine: the measured lag (engine.uci.lag) as the UCI layer uses it --

def play_slow_machine(base, inc, cycle, overhead, overshoot, moves, adaptive=True):
    """Lowest clock over a simulated game on a machine where every searched
    move ends `overshoot` ms after its hard limit (a stop noticed late, the
    bestmove waiting for a core) and a 1 ms answer costs 8 ms. The clock is
    charged as a match runner does: the wall time from go to bestmove. The
    engine plans with plan_clock and feeds its LagMeter as go.py does."""
    meter = LagMeter()
    clock = lowest = base
    for move in range(moves):
        mtg = cycle - move % cycle if cycle else None
        reserve = meter.reserve_ms(mtg, inc, 2 * move) if adaptive else 0
        soft, hard = plan_clock(clock, clock, inc, inc, mtg, True, overhead, 2 * move, reserve)
        assert 1 <= soft <= hard
        cost = hard + overshoot if hard > 1 else 8
        clock -= cost
        assert clock >= 0, f"lost on time at move {move + 1} (hard {hard}, lag reserve {reserve})"
        lowest = min(lowest, clock)
        meter.answered(2 * move, clock + cost, inc, cost, min(cost, hard), hard)
        clock += inc
        if mtg == 1:
            clock += base
    return lowest


@pytest.mark.parametrize("base, inc, cycle, moves", [
    (1000, 10, None, 120), (1000, 0, 40, 120), (2000, 20, None, 120),
    # sudden death: every move's floor (8 ms) drains the clock for good, so
    # no game length is safe; a game of 60 moves is
    (2000, 0, None, 60),
])
def test_slow_machine_does_not_lose_on_time(base, inc, cycle, moves):
    # 1+0.01, 40/1, 2+0.02, 2+0 with each search 100 ms late: more than Move
    # Overhead (20) and the fixed reserve (50) together, as seen at load 6-9.
    assert play_slow_machine(base, inc, cycle, 20, 100, moves) > 0


def test_slow_machine_loses_without_the_lag_reserve():
    """The game above is a real test: without the measured lag it is lost."""
    with pytest.raises(AssertionError, match="lost on time"):
        play_slow_machine(1000, 10, None, 20, 100, 120, adaptive=False)


def test_lag_meter_rises_at_once_and_decays_slowly():
    meter = LagMeter()
    meter.record(60)
    assert meter.reserve_ms() == 90                  # SAFETY 1.5 x 60
    meter.record(5)
    assert 75 < meter.reserve_ms() < 90              # one quiet move: 10 % less
    for _ in range(60):
        meter.record(0)
    assert meter.reserve_ms() == 0
    meter.record(10 ** 9)
    assert meter.reserve_ms() <= 3000                # a stall is capped


def test_floor_is_kept_back_for_later_moves_when_the_increment_does_not_cover_it():
    meter = LagMeter()
    meter.answered(0, 1000, 0, 12, 1, hard_ms=1)      # a 1 ms answer cost 12 ms
    assert meter.floor == 11
    assert meter.reserve_ms(None, 20) == int(1.5 * 11 + 0.5)            # the increment covers it
    # each later 1 ms answer costs 11 ms late + its own 1 ms
    assert meter.reserve_ms(None, 0) == int(1.5 * 11 + 100 * 12 + 0.5)   # sudden death: 100 moves left
    assert meter.reserve_ms(None, 0, 400) == int(1.5 * 11 + 100 * 12 + 0.5)  # late in the game too
    assert meter.reserve_ms(5, 0) == int(1.5 * 11 + 4 * 12 + 0.5)        # 4 more before the control


def test_before_any_floor_is_seen_the_whole_lag_stands_for_it():
    meter = LagMeter()
    meter.answered(0, 1000, 0, 40, 10, hard_ms=30)   # a searched move, 30 ms late
    assert meter.reserve_ms(3, 0) == int(1.5 * 30 + 2 * 31 + 0.5)
    meter.answered(2, 950, 0, 6, 0, hard_ms=None)    # a book move: the floor is 6 ms
    assert meter.reserve_ms(3, 0) == int(1.5 * 30 + 2 * 7 + 0.5)


def test_lag_meter_reads_the_gui_clock():
    """The GUI charged 90 ms for a move the engine saw take 20 (its search
    allowed 15): the clock's word counts."""
    meter = LagMeter()
    meter.answered(10, 1000, 10, 20, 15, hard_ms=15)
    assert meter.reserve_ms() == 8                   # 1.5 x 5 ms, the engine's own view
    meter.new_go(12, 1000 + 10 - 90)
    assert meter.reserve_ms() == int(1.5 * 75 + 0.5)
    meter.answered(12, 920, 10, 20, 15, hard_ms=15)
    meter.new_go(20, 100)                            # not the next move of this game: ignored
    meter.answered(20, 100, 0, 5, 5, hard_ms=5)
    meter.new_go(22, 5000)                           # a new period added time: ignored
    assert meter.reserve_ms() == int(1.5 * 75 * 0.9 ** 2 + 0.5)  # two quiet moves
