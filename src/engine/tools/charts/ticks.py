"""Round tick values for a chart axis: 0, 100, 200 rather than 65.62, 363.14.

The "nice numbers" labelling of Paul Heckbert, "Nice numbers for graph
labels", Graphics Gems (1990): the tick step is 1, 2 or 5 times a power of
ten, and the axis is widened outwards to whole steps ("loose" labelling),
so its two ends are ticks too. Written here from the published description.
"""
import math
from typing import List, Tuple


def nice_number(value: float, round_it: bool) -> float:
    """A 1, 2, 5 or 10 times a power of ten near `value` (> 0): the nearest
    one when `round_it`, else the smallest one not below `value`."""
    exponent = math.floor(math.log10(value))
    fraction = value / 10 ** exponent           # 1 <= fraction < 10
    if round_it:
        nice = 1 if fraction < 1.5 else 2 if fraction < 3 else 5 if fraction < 7 else 10
    else:
        nice = 1 if fraction <= 1 else 2 if fraction <= 2 else 5 if fraction <= 5 else 10
    return nice * 10 ** exponent


def nice_ticks(low: float, high: float, count: int = 5, min_step: float = 0.0) -> Tuple[float, float, List[float]]:
    """(axis low, axis high, ticks) for data between `low` and `high`: about
    `count` ticks a round step apart (at least `min_step`: 1 for counts such
    as plies), the axis widened to the outer ticks."""
    if not (math.isfinite(low) and math.isfinite(high)):
        raise ValueError(f"an axis needs finite ends, not {low}, {high}")
    if high < low:
        low, high = high, low
    if high == low:   # one value: a unit either side, still on round numbers
        spread = abs(low) or 1.0
        low, high = low - spread, high + spread
    span = nice_number(high - low, round_it=False)
    step = max(nice_number(span / max(count - 1, 1), round_it=True), min_step)
    # The epsilon keeps 0.95 / 0.05 = 18.999... from adding a step below the data.
    first, last = math.floor(low / step + 1e-9) * step, math.ceil(high / step - 1e-9) * step
    digits = max(0, -math.floor(math.log10(step)))   # no 0.30000000000000004
    ticks = [round(first + i * step, digits) for i in range(int(round((last - first) / step)) + 1)]
    return ticks[0], ticks[-1], [t + 0.0 for t in ticks]   # + 0.0: no "-0" label
