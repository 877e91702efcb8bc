"""`vireo match --report FILE`: one self-contained HTML page about a match.

No network and no scripts: inline CSS and SVG only (report_svg.py), so the
file can be mailed, archived or opened offline. Built from the match's PGN
(report_data.py), so a live match and `--rescore` give the same page.
"""
import datetime
import time
from html import escape
from typing import Optional, Sequence

from . import report_svg
from .report_data import ReportData, build, read_games
from .rescore import RescoreError
from .sprt import Sprt

STYLE = """body{font-family:sans-serif;margin:24px;max-width:900px;color:#222}
table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}
th{background:#eef}td:first-child,th:first-child{text-align:left}pre{background:#f6f6f6;padding:8px}
h2{margin-top:28px;border-bottom:1px solid #ccc}"""

LENGTH_BIN = 20  # plies per bar of the game-length histogram


def _table(header: Sequence[str], rows) -> str:
    head = "".join(f"<th>{escape(str(h))}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{escape(str(c))}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def length_bins(lengths: Sequence[int]):
    """(label, games) per LENGTH_BIN plies, from 0 to the longest game."""
    if not lengths:
        return []
    counts = [0] * (max(lengths) // LENGTH_BIN + 1)
    for plies in lengths:
        counts[plies // LENGTH_BIN] += 1
    return [(f"{i * LENGTH_BIN}-{i * LENGTH_BIN + LENGTH_BIN - 1}", n) for i, n in enumerate(counts)]


def render(data: ReportData) -> str:
    t = data.tally
    bounds = data.sprt.bounds() if data.sprt else None
    openings = [(name, w, d, l, f"{(w + d / 2) / (w + d + l):.1%}") for name, (w, d, l) in data.by_opening.items()]
    parts = [
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">",
        f"<title>{escape(t.first)} vs {escape(t.second)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{escape(t.first)} vs {escape(t.second)}</h1>",
        f"<p>{t.games} games; scores are for {escape(t.first)}. Written "
        f"{datetime.datetime.now():%Y-%m-%d %H:%M} by <code>vireo match</code>.</p>",
        "<h2>Result</h2>",
        _table(["engine", "games", "wins", "draws", "losses", "points"],
               [(t.first, t.games, t.wins, t.draws, t.losses, t.wins + t.draws / 2),
                (t.second, t.games, t.losses, t.draws, t.wins, t.losses + t.draws / 2)]),
        f"<pre id=\"summary\">{escape(t.report(data.sprt))}</pre>",
        "<h2>Elo as the games came in</h2><p>Trinomial estimate after each game, with its 95% interval.</p>",
        report_svg.elo_chart(data.elo_series, t.games),
        "<h2>SPRT</h2><p>Log-likelihood ratio after each finished game pair; the match stops "
        "when it leaves the band between the bounds.</p>",
        report_svg.llr_chart(data.llr_series, bounds),
        "<h2>Results by opening</h2>",
        report_svg.bar_chart("openings", "Score by opening (%)",
                             [(row[0], round(100 * (row[1] + row[2] / 2) / sum(row[1:4]), 1)) for row in openings],
                             f"openings (score % for {t.first})"),
        _table(["opening", "wins", "draws", "losses", "score"], openings),
        "<h2>Game lengths and terminations</h2>",
        report_svg.bar_chart("lengths", "Game lengths", length_bins(data.lengths), "plies"),
        report_svg.bar_chart("terminations", "Terminations", sorted(data.terminations.items()), "termination"),
        _table(["termination", "games"], sorted(data.terminations.items())),
        "</body></html>",
    ]
    return "\n".join(parts)


def write_report(path: str, pgn_paths: Sequence[str], first: Optional[str], sprt: Optional[Sprt]) -> ReportData:
    """Reads the games, writes the page; raises RescoreError or OSError."""
    data = build(read_games(pgn_paths), first, sprt)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(render(data))
    return data


class LiveReport:
    """Rewrites the page while a match runs (at most every `interval` seconds), so a
    browser reloading it sees the Elo and LLR series grow as the games come in."""

    def __init__(self, path: str, pgn_path: str, sprt: Optional[Sprt], interval: float = 10.0):
        self.path, self.pgn_path, self.sprt, self.interval = path, pgn_path, sprt, interval
        self.written_at = -interval

    def __call__(self, tally) -> None:
        if time.monotonic() - self.written_at < self.interval:
            return
        self.written_at = time.monotonic()
        try:
            write_report(self.path, [self.pgn_path], tally.first, self.sprt)
        except (RescoreError, OSError):
            pass   # the final write at the end of the match reports the problem
