"""Round axis values ("nice numbers") for both HTML reports' charts."""
import math
import re

import pytest

from engine.tools.charts.ticks import nice_ticks
from engine.tools.match.report_svg import elo_chart, llr_chart


def is_round_step(step):
    """1, 2 or 5 times a power of ten."""
    mantissa = step / 10 ** math.floor(math.log10(step))
    return any(math.isclose(mantissa, m) for m in (1, 2, 5))


@pytest.mark.parametrize("low, high", [(65.62, 511.64), (-363.14, 65.62), (0, 1), (0, 17), (-3.2, 2.9),
                                       (0.95, 1.05), (-1000, 1000), (1, 83), (5, 5), (0, 0)])
def test_ticks_are_round_and_cover_the_data(low, high):
    axis_low, axis_high, ticks = nice_ticks(low, high)
    steps = {round(b - a, 9) for a, b in zip(ticks, ticks[1:])}
    assert len(steps) == 1 and is_round_step(steps.pop())
    assert axis_low == ticks[0] <= low and axis_high == ticks[-1] >= high
    assert 3 <= len(ticks) <= 11
    step = ticks[1] - ticks[0]
    assert all(math.isclose(t / step, round(t / step), abs_tol=1e-9) for t in ticks)   # multiples of the step


def test_the_match_reports_old_ticks_become_hundreds():
    # The match report used to label this Elo range 65.62 ... 511.64.
    _, _, ticks = nice_ticks(65.62, 511.64)
    assert ticks == [0, 100, 200, 300, 400, 500, 600]


def test_match_charts_label_their_axes_with_round_values():
    chart = elo_chart([(1, 120.0, -363.14, 511.64), (2, 80.0, -200.0, 300.0)], 2)
    labels = [float(v) for v in re.findall(r'class="y-tick"[^>]*>([^<]+)<', chart)]
    assert labels == [-400, -200, 0, 200, 400, 600]
    llr = llr_chart([(1, 0.5), (2, -1.1)], (-2.94, 2.94))
    labels = [float(v) for v in re.findall(r'class="y-tick"[^>]*>([^<]+)<', llr)]
    assert labels == [-4, -2, 0, 2, 4]


def test_counts_get_whole_steps():
    assert nice_ticks(0, 2, min_step=1)[2] == [0, 1, 2]
    assert nice_ticks(0, 2)[2] == [0, 0.5, 1, 1.5, 2]
