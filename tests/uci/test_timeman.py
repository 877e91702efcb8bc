"""Time allocation (engine.uci.timeman): limits are sane and games are not lost on time.

The games are simulated: every move spends what the allocator allows (the
hard limit, the worst case, or twice the soft limit, what the search's
stability scaling can reach) plus a latency of half the move overhead, then
the increment arrives and, at the time control, the next period's time.
"""
import itertools

import pytest

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
