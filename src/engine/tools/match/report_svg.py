"""The match report's charts: Elo, SPRT log-likelihood ratio, bars.

Drawn with the reports' shared SVG primitives (engine.tools.charts), which
give the axes round tick values. Every data point is an element with class
"point" so a test can count what was drawn.
"""
from html import escape
from typing import Optional, Sequence, Tuple

from ..charts.plot import LEFT, Frame, axes, dots, horizontal_line, message, polygon, polyline, svg


def elo_chart(series: Sequence[Tuple[int, float, float, float]], games: int) -> str:
    """Elo after each game with its 95% band (games whose estimate is finite)."""
    if not series:
        return message("elo", "Elo", "no finite Elo estimate yet (all games won or all lost)")
    low = max(-800.0, min(lo for _, _, lo, _ in series))
    high = min(800.0, max(hi for _, _, _, hi in series))
    frame = Frame((1, max(games, 2)), (min(low, 0), max(high, 0)), x_min_step=1)
    band = ([(n, frame.clip_y(hi)) for n, _, _, hi in series]
            + [(n, frame.clip_y(lo)) for n, _, lo, _ in reversed(series)])   # a band end beyond the axis
    body = axes(frame, "games", "Elo")
    body.append(polygon(frame, band, "band", "#9cf"))
    body.append(horizontal_line(frame, 0))
    elo = [(n, e) for n, e, _, _ in series]
    body.append(polyline(frame, elo, "#036"))
    body += dots(frame, elo, "#036", "game")
    return svg("elo", "Elo estimate with its 95% band", body)


def llr_chart(series: Sequence[Tuple[int, float]], bounds: Optional[Tuple[float, float]]) -> str:
    """The SPRT's log-likelihood ratio after each finished pair, between its bounds."""
    if bounds is None:
        return message("llr", "SPRT", "no SPRT in this match (--sprt)")
    lower, upper = bounds
    values = [v for _, v in series]
    frame = Frame((0, max([n for n, _ in series] + [2])), (min(values + [lower]) - 0.2, max(values + [upper]) + 0.2),
                  x_min_step=1)
    body = axes(frame, "game pairs", "LLR")
    for bound, name in ((lower, "H0"), (upper, "H1")):
        y = frame.y(bound)
        body.append(horizontal_line(frame, bound, "#c00", ' class="bound" stroke-dasharray="6 4"'))
        body.append(f'<text x="{frame.right - 4}" y="{y - 4:.1f}" text-anchor="end" font-size="11" '
                    f'fill="#c00">{name} {bound:.2f}</text>')
    points = [(0, 0.0)] + list(series)
    body.append(polyline(frame, points, "#063"))
    body += dots(frame, series, "#063", "pairs")
    return svg("llr", "SPRT log-likelihood ratio", body)


def bar_chart(chart_id: str, title: str, bars: Sequence[Tuple[str, float]], x_label: str) -> str:
    """Vertical bars, one per (label, value)."""
    top = max([v for _, v in bars] + [1])
    frame = Frame((0, max(len(bars), 1)), (0, top), nice_x=False)
    body = axes(frame, x_label, x_ticks=False)
    width = (frame.right - LEFT) / max(len(bars), 1)
    for i, (label, value) in enumerate(bars):
        x, y = frame.x(i) + width * 0.1, frame.y(value)
        body.append(f'<rect class="point" x="{x:.1f}" y="{y:.1f}" width="{width * 0.8:.1f}" '
                    f'height="{frame.y(0) - y:.1f}" fill="#57a"><title>{escape(label)}: {value:g}</title></rect>')
        if len(bars) <= 12:
            body.append(f'<text x="{x + width * 0.4:.1f}" y="{frame.bottom + 12}" text-anchor="middle" '
                        f'font-size="10">{escape(label[:14])}</text>')
    return svg(chart_id, title, body)
