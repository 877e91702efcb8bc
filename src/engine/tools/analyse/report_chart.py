"""The evaluation chart of one game for the analysis report.

White's evaluation in pawns after each move (clipped at +-10, lichess's
ceiling for win %), drawn with the reports' shared SVG primitives. Each
position is a "point"; each marked move is also a "mark", coloured by its
mark, so a test can count both.
"""
from typing import List

from ..charts.plot import Frame, axes, dots, horizontal_line, polyline, svg
from .judgement import BLUNDER, INACCURACY, MISTAKE, NAMES
from .review import GameReview

COLOURS = {INACCURACY: "#e6b000", MISTAKE: "#e67700", BLUNDER: "#d00"}
WIDTH, HEIGHT = 860, 240


def eval_chart(reviewed: GameReview, chart_id: str) -> str:
    pawns = [cp / 100 for cp in reviewed.white_centipawns()]
    points = list(enumerate(pawns))   # x: plies played
    low, high = min(pawns + [-1.0]), max(pawns + [1.0])
    frame = Frame((0, max(len(pawns) - 1, 1)), (low, high), width=WIDTH, height=HEIGHT, y_count=6,
                  x_min_step=1)
    body: List[str] = axes(frame, "plies (half-moves)", "pawns, White's view")
    body.append(horizontal_line(frame, 0))
    body.append(polyline(frame, points, "#036"))
    titles = ["start"] + [f"{m.label}: {p:+.2f}" for m, p in zip(reviewed.moves, pawns[1:])]
    body += dots(frame, points, "#036", "ply", titles, radius=2)
    for move in reviewed.moves:
        nag = move.judgement.nag
        if nag:
            body += dots(frame, [(move.ply, pawns[move.ply])], COLOURS[nag], "", [f"{move.label}{move.judgement.symbol} "
                         f"{NAMES[nag]}: win chance {move.judgement.win_before:.0f}% -> "
                         f"{move.judgement.win_after:.0f}%"], css_class=f"mark nag-{nag}", radius=5)
    return svg(chart_id, f"Evaluation over game {reviewed.item.index}", body, WIDTH, HEIGHT)
