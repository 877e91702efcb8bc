"""Plain SVG drawing for the reports' charts: frame, axes, lines, points.

Hand-written SVG text rather than a plotting library: the charts are few
and simple (lines, a band, bars, dots), the pages must work offline with no
script, and each data point must be one element with class "point" so a
test (or a reader's browser tools) can count what was drawn. What a library
would add, round axis values, comes from ticks.py.
"""
from html import escape
from typing import List, Optional, Sequence, Tuple

from .ticks import nice_ticks

WIDTH, HEIGHT = 640, 240
LEFT, RIGHT, TOP, BOTTOM = 56, 16, 16, 36


class Frame:
    """Maps data coordinates onto the plot area. The axes are widened to round
    tick values (ticks.py), so the ends of the axes are labelled too."""

    def __init__(self, x_range: Tuple[float, float], y_range: Tuple[float, float],
                 width: int = WIDTH, height: int = HEIGHT, y_count: int = 5, x_count: int = 6,
                 nice_x: bool = True, x_min_step: float = 0.0):
        self.width, self.height = width, height
        self.y0, self.y1, self.y_ticks = nice_ticks(*y_range, count=y_count)
        if nice_x:
            self.x0, self.x1, self.x_ticks = nice_ticks(*x_range, count=x_count, min_step=x_min_step)
        else:   # slots (bars): the axis is the data's range, with no ticks of its own
            self.x0, self.x1, self.x_ticks = x_range[0], max(x_range[1], x_range[0] + 1), []

    @property
    def right(self) -> float:
        return self.width - RIGHT

    @property
    def bottom(self) -> float:
        return self.height - BOTTOM

    def x(self, value: float) -> float:
        return LEFT + (value - self.x0) / (self.x1 - self.x0) * (self.width - LEFT - RIGHT)

    def y(self, value: float) -> float:
        return self.bottom - (value - self.y0) / (self.y1 - self.y0) * (self.height - TOP - BOTTOM)

    def clip_y(self, value: float) -> float:
        return max(self.y0, min(self.y1, value))


def svg(chart_id: str, title: str, body: List[str], width: int = WIDTH, height: int = HEIGHT) -> str:
    return (f'<svg id="{escape(chart_id)}" data-chart="{escape(chart_id)}" xmlns="http://www.w3.org/2000/svg" '
            f'width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img">'
            f'<title>{escape(title)}</title>' + "".join(body) + "</svg>")


def message(chart_id: str, title: str, text: str) -> str:
    """A chart with nothing to draw: says why instead."""
    return svg(chart_id, title, [f'<text x="{LEFT}" y="{HEIGHT / 2}">{escape(text)}</text>'])


def _label(value: float) -> str:
    return f"{value:g}"


def axes(frame: Frame, x_label: str, y_label: str = "", x_ticks: bool = True) -> List[str]:
    """Background, horizontal grid lines at the y ticks, tick labels, axis titles."""
    w, h = frame.right - LEFT, frame.bottom - TOP
    parts = [f'<rect x="{LEFT}" y="{TOP}" width="{w}" height="{h}" fill="#fff" stroke="#999"/>']
    for tick in frame.y_ticks:
        y = frame.y(tick)
        parts.append(f'<line x1="{LEFT}" x2="{frame.right}" y1="{y:.1f}" y2="{y:.1f}" stroke="#eee"/>'
                     f'<text class="y-tick" x="{LEFT - 4}" y="{y + 4:.1f}" text-anchor="end" '
                     f'font-size="11">{_label(tick)}</text>')
    if x_ticks:
        for tick in frame.x_ticks:
            x = frame.x(tick)
            parts.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{frame.bottom}" y2="{frame.bottom + 4}" stroke="#999"/>'
                         f'<text class="x-tick" x="{x:.1f}" y="{frame.bottom + 15}" text-anchor="middle" '
                         f'font-size="11">{_label(tick)}</text>')
    parts.append(f'<text x="{(LEFT + frame.right) / 2}" y="{frame.height - 4}" text-anchor="middle" '
                 f'font-size="12">{escape(x_label)}</text>')
    if y_label:
        parts.append(f'<text x="12" y="{(TOP + frame.bottom) / 2}" text-anchor="middle" font-size="12" '
                     f'transform="rotate(-90 12 {(TOP + frame.bottom) / 2})">{escape(y_label)}</text>')
    return parts


def horizontal_line(frame: Frame, value: float, colour: str = "#666", extra: str = "") -> str:
    y = frame.y(value)
    return f'<line x1="{LEFT}" x2="{frame.right}" y1="{y:.1f}" y2="{y:.1f}" stroke="{colour}"{extra}/>'


def polyline(frame: Frame, points: Sequence[Tuple[float, float]], colour: str) -> str:
    coords = " ".join(f"{frame.x(x):.1f},{frame.y(y):.1f}" for x, y in points)
    return f'<polyline points="{coords}" fill="none" stroke="{colour}" stroke-width="1.5"/>'


def polygon(frame: Frame, points: Sequence[Tuple[float, float]], css_class: str, fill: str) -> str:
    coords = " ".join(f"{frame.x(x):.1f},{frame.y(y):.1f}" for x, y in points)
    return f'<polygon class="{css_class}" points="{coords}" fill="{fill}" fill-opacity="0.4" stroke="none"/>'


def dots(frame: Frame, points: Sequence[Tuple[float, float]], colour: str, label: str,
         titles: Optional[Sequence[str]] = None, css_class: str = "point", radius: float = 2.5) -> List[str]:
    """One circle per point; `titles` (one per point) replaces the default tooltip."""
    out = []
    for i, (x, y) in enumerate(points):
        tip = titles[i] if titles is not None else f"{label} {x:g}: {y:.2f}"
        out.append(f'<circle class="{css_class}" cx="{frame.x(x):.1f}" cy="{frame.y(y):.1f}" r="{radius}" '
                   f'fill="{colour}"><title>{escape(tip)}</title></circle>')
    return out
