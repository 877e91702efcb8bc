"""`vireo analyse --report FILE`: one self-contained HTML page about the analysed games.

No network and no script: inline CSS, the evaluation charts as SVG
(report_chart.py) and the boards drawn by python-chess (chess.svg). Per
game: the players' accuracy, the chart with the marked moves on it, the
moves with their marks, and a board at each mistake and blunder with the
move played (red arrow) and the engine's better move (green arrow).
"""
import datetime
from html import escape
from typing import Dict, List, Sequence

import chess
import chess.svg

from .judgement import BLUNDER, INACCURACY, MISTAKE, NAMES
from .report_chart import COLOURS, eval_chart
from .review import GameReview, MoveReview

STYLE = """body{font-family:sans-serif;margin:24px;max-width:900px;color:#222}
table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}
th{background:#eef}td:first-child,th:first-child{text-align:left}
h2{margin-top:32px;border-bottom:1px solid #ccc}.moves{line-height:1.7}
.nag-6{color:#a67c00;font-weight:bold}.nag-2{color:#c60;font-weight:bold}.nag-4{color:#d00;font-weight:bold}
.diagrams{display:flex;flex-wrap:wrap;gap:16px}figure.diagram{margin:0;width:280px}
figcaption{font-size:13px;margin-top:4px}"""
MARKS = (INACCURACY, MISTAKE, BLUNDER)
PLAYED, BETTER = "#d00000a0", "#15781bb0"   # arrow colours: red the move played, green the better one


def _table(header: Sequence[str], rows) -> str:
    head = "".join(f"<th>{escape(str(h))}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{escape(str(c))}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def _eval_text(move: MoveReview) -> str:
    score = move.after.score.white()
    return f"#{score.mate()}" if score.is_mate() else f"{score.score() / 100:+.2f}"


def _moves(reviewed: GameReview) -> str:
    words = []
    for move in reviewed.moves:
        number = move.label.split(" ")[0] + " " if move.mover == chess.WHITE or not words else ""
        text = escape(f"{number}{move.san}{move.judgement.symbol}")
        if move.judgement.nag:
            text = (f'<span class="marked nag-{move.judgement.nag}" title="{escape(NAMES[move.judgement.nag])}, '
                    f'{escape(_eval_text(move))}">{text}</span>')
        words.append(text)
    return f'<p class="moves">{" ".join(words) or "(no moves)"} {escape(reviewed.item.game.headers.get("Result", "*"))}</p>'


def _diagram(move: MoveReview) -> str:
    arrows = [chess.svg.Arrow(move.move.from_square, move.move.to_square, color=PLAYED)]
    caption = f"{move.label}{move.judgement.symbol} ({NAMES[move.judgement.nag]}, {_eval_text(move)})"
    if move.better is not None:
        arrows.append(chess.svg.Arrow(move.better.from_square, move.better.to_square, color=BETTER))
        caption += f"; better: {move.board_before.san(move.better)}"
        score = move.before.score.white()
        caption += f" ({f'#{score.mate()}' if score.is_mate() else f'{score.score() / 100:+.2f}'})"
    board = chess.svg.board(move.board_before, arrows=arrows, size=280, orientation=move.mover)
    return f'<figure class="diagram" data-ply="{move.ply}">{board}<figcaption>{escape(caption)}</figcaption></figure>'


def _marks(counts: Dict[int, int]) -> List[int]:
    return [counts.get(nag, 0) for nag in MARKS]


def _game(reviewed: GameReview) -> str:
    h = reviewed.item.game.headers
    index = reviewed.item.index
    rows = [(h.get(side, "?"), f"{s.accuracy:.1f}", f"{s.acpl:.0f}", *_marks(s.marks))
            for side, s in (("White", reviewed.white), ("Black", reviewed.black))]
    serious = [m for m in reviewed.moves if m.serious]
    legend = " ".join(f'<span style="color:{COLOURS[n]}">&#9679; {NAMES[n]}</span>' for n in MARKS)
    parts = [f'<section class="game" id="game-{index}">',
             f"<h2>{index}. {escape(h.get('White', '?'))} &ndash; {escape(h.get('Black', '?'))} "
             f"{escape(h.get('Result', '*'))}</h2>",
             f"<p>{escape(reviewed.item.source)}; {escape(h.get('Event', '?'))}, {escape(h.get('Date', '?'))}</p>",
             _table(["player", "accuracy %", "avg. centipawn loss", "inaccuracies", "mistakes", "blunders"], rows),
             eval_chart(reviewed, f"eval-{index}"), f"<p>{legend}</p>", _moves(reviewed)]
    if serious:
        parts.append('<div class="diagrams">' + "".join(_diagram(m) for m in serious) + "</div>")
    parts.append("</section>")
    return "\n".join(parts)


def _summary(reviews: Sequence[GameReview]) -> str:
    games = [(r.item.index, r.item.game.headers.get("White", "?"), r.item.game.headers.get("Black", "?"),
              r.item.game.headers.get("Result", "*"), f"{r.white.accuracy:.1f}", f"{r.black.accuracy:.1f}",
              f"{r.white.acpl:.0f}", f"{r.black.acpl:.0f}") for r in reviews]
    players: Dict[str, List] = {}
    for r in reviews:
        for side, s in (("White", r.white), ("Black", r.black)):
            row = players.setdefault(r.item.game.headers.get(side, "?"), [0, 0.0, 0.0, 0, 0, 0])
            row[0] += 1
            row[1] += s.accuracy
            row[2] += s.acpl
            for i, count in enumerate(_marks(s.marks)):
                row[3 + i] += count
    by_player = [(name, n, f"{acc / n:.1f}", f"{acpl / n:.0f}", *marks) for name, (n, acc, acpl, *marks)
                 in sorted(players.items())]
    return ('<section id="summary"><h2>Summary</h2>'
            + _table(["game", "White", "Black", "result", "White accuracy", "Black accuracy",
                      "White ACPL", "Black ACPL"], games)
            + _table(["player", "games", "mean accuracy %", "mean ACPL", "inaccuracies", "mistakes", "blunders"],
                     by_player) + "</section>")


def render(reviews: Sequence[GameReview], annotator: str) -> str:
    title = f"Analysis of {len(reviews)} game{'s' if len(reviews) != 1 else ''}"
    parts = ['<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">',
             f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>",
             f"<h1>{escape(title)}</h1>",
             f"<p>{escape(annotator)}. Written {datetime.datetime.now():%Y-%m-%d %H:%M}. Marks: ?! inaccuracy, "
             "? mistake, ?? blunder, by the win chance a move loses (lichess's formula, docs/analysis.md); "
             "accuracy as lichess computes it.</p>",
             _summary(reviews)]
    parts += [_game(r) for r in reviews]
    parts.append("</body></html>")
    return "\n".join(parts)


def write_report(path: str, reviews: Sequence[GameReview], annotator: str) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(render(reviews, annotator))
