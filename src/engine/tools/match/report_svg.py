"""Hand-drawn SVG charts for the HTML match report.

Plain SVG text, no plotting library: the charts are few and simple (a line
with a band, a line against two bounds, bars), and the page must work
offline with no scripts. Every data point is an element with class "point"
so a test (or a reader's browser tools) can count what was drawn.
"""
from html import escape
from typing import List, Optional, Sequence, Tuple

WIDTH, HEIGHT = 640, 240
LEFT, RIGHT, TOP, BOTTOM = 56, 16, 16, 36


class Frame:
    """Maps data coordinates onto the plot area."""

    def __init__(self, x_range: Tuple[float, float], y_range: Tuple[float, float]):
        (x0, x1), (y0, y1) = x_range, y_range
        self.x0, self.x1 = x0, (x1 if x1 > x0 else x0 + 1)
        self.y0, self.y1 = y0, (y1 if y1 > y0 else y0 + 1)

    def x(self, value: float) -> float:
        return LEFT + (value - self.x0) / (self.x1 - self.x0) * (WIDTH - LEFT - RIGHT)

    def y(self, value: float) -> float:
        return HEIGHT - BOTTOM - (value - self.y0) / (self.y1 - self.y0) * (HEIGHT - TOP - BOTTOM)


def _svg(chart_id: str, title: str, body: List[str]) -> str:
    return (f'<svg id="{chart_id}" data-chart="{chart_id}" xmlns="http://www.w3.org/2000/svg" '
            f'width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" role="img">'
            f'<title>{escape(title)}</title>' + "".join(body) + "</svg>")


def _axes(frame: Frame, x_label: str, y_ticks: Sequence[float], x_range: bool = True) -> List[str]:
    parts = [f'<rect x="{LEFT}" y="{TOP}" width="{WIDTH - LEFT - RIGHT}" height="{HEIGHT - TOP - BOTTOM}" '
             'fill="#fff" stroke="#999"/>']
    for tick in y_ticks:
        y = frame.y(tick)
        parts.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y:.1f}" y2="{y:.1f}" stroke="#eee"/>'
                     f'<text x="{LEFT - 4}" y="{y + 4:.1f}" text-anchor="end" font-size="11">{tick:g}</text>')
    if x_range:
        parts.append(f'<text x="{LEFT:.1f}" y="{HEIGHT - 20}" font-size="11">{frame.x0:g}</text>'
                     f'<text x="{WIDTH - RIGHT}" y="{HEIGHT - 20}" text-anchor="end" font-size="11">{frame.x1:g}</text>')
    parts.append(f'<text x="{WIDTH / 2}" y="{HEIGHT - 6}" text-anchor="middle" font-size="12">{escape(x_label)}</text>')
    return parts


def _ticks(low: float, high: float, count: int = 5) -> List[float]:
    step = (high - low) / (count - 1) if high > low else 1
    return [round(low + i * step, 2) for i in range(count)]


def _polyline(frame: Frame, points: Sequence[Tuple[float, float]], colour: str) -> str:
    coords = " ".join(f"{frame.x(x):.1f},{frame.y(y):.1f}" for x, y in points)
    return f'<polyline points="{coords}" fill="none" stroke="{colour}" stroke-width="1.5"/>'


def _dots(frame: Frame, points: Sequence[Tuple[float, float]], colour: str, label: str) -> List[str]:
    return [f'<circle class="point" cx="{frame.x(x):.1f}" cy="{frame.y(y):.1f}" r="2.5" fill="{colour}">'
            f'<title>{escape(label)} {x:g}: {y:.2f}</title></circle>' for x, y in points]


def elo_chart(series: Sequence[Tuple[int, float, float, float]], games: int) -> str:
    """Elo after each game with its 95% band (games whose estimate is finite)."""
    if not series:
        return _svg("elo", "Elo", [f'<text x="{LEFT}" y="{HEIGHT / 2}">no finite Elo estimate yet '
                                   "(all games won or all lost)</text>"])
    low = max(-800.0, min(lo for _, _, lo, _ in series))
    high = min(800.0, max(hi for _, _, _, hi in series))
    frame = Frame((1, max(games, 2)), (min(low, 0), max(high, 0)))
    clip = lambda v: max(frame.y0, min(frame.y1, v))  # noqa: E731 - a band end beyond the axis
    band = [(n, clip(hi)) for n, _, _, hi in series] + [(n, clip(lo)) for n, _, lo, _ in reversed(series)]
    coords = " ".join(f"{frame.x(x):.1f},{frame.y(y):.1f}" for x, y in band)
    body = _axes(frame, "games", _ticks(frame.y0, frame.y1))
    body.append(f'<polygon class="band" points="{coords}" fill="#9cf" fill-opacity="0.4" stroke="none"/>')
    body.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{frame.y(0):.1f}" y2="{frame.y(0):.1f}" stroke="#666"/>')
    elo = [(n, e) for n, e, _, _ in series]
    body.append(_polyline(frame, elo, "#036"))
    body += _dots(frame, elo, "#036", "game")
    return _svg("elo", "Elo estimate with its 95% band", body)


def llr_chart(series: Sequence[Tuple[int, float]], bounds: Optional[Tuple[float, float]]) -> str:
    """The SPRT's log-likelihood ratio after each finished pair, between its bounds."""
    if bounds is None:
        return _svg("llr", "SPRT", [f'<text x="{LEFT}" y="{HEIGHT / 2}">no SPRT in this match (--sprt)</text>'])
    lower, upper = bounds
    values = [v for _, v in series]
    frame = Frame((0, max([n for n, _ in series] + [2])), (min(values + [lower]) - 0.2, max(values + [upper]) + 0.2))
    body = _axes(frame, "game pairs", _ticks(frame.y0, frame.y1))
    for bound, name in ((lower, "H0"), (upper, "H1")):
        y = frame.y(bound)
        body.append(f'<line class="bound" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y:.1f}" y2="{y:.1f}" '
                    f'stroke="#c00" stroke-dasharray="6 4"/><text x="{WIDTH - RIGHT - 4}" y="{y - 4:.1f}" '
                    f'text-anchor="end" font-size="11" fill="#c00">{name} {bound:.2f}</text>')
    points = [(0, 0.0)] + list(series)
    body.append(_polyline(frame, points, "#063"))
    body += _dots(frame, series, "#063", "pairs")
    return _svg("llr", "SPRT log-likelihood ratio", body)


def bar_chart(chart_id: str, title: str, bars: Sequence[Tuple[str, float]], x_label: str) -> str:
    """Vertical bars, one per (label, value)."""
    top = max([v for _, v in bars] + [1])
    frame = Frame((0, max(len(bars), 1)), (0, top))
    body = _axes(frame, x_label, _ticks(0, top), x_range=False)
    width = (WIDTH - LEFT - RIGHT) / max(len(bars), 1)
    for i, (label, value) in enumerate(bars):
        x, y = frame.x(i) + width * 0.1, frame.y(value)
        body.append(f'<rect class="point" x="{x:.1f}" y="{y:.1f}" width="{width * 0.8:.1f}" '
                    f'height="{frame.y(0) - y:.1f}" fill="#57a"><title>{escape(label)}: {value:g}</title></rect>')
        if len(bars) <= 12:
            body.append(f'<text x="{x + width * 0.4:.1f}" y="{HEIGHT - BOTTOM + 12}" text-anchor="middle" '
                        f'font-size="10">{escape(label[:14])}</text>')
    return _svg(chart_id, title, body)
