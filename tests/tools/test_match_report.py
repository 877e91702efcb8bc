"""`vireo match --report`: the HTML page, rendered in a real browser (headless Chromium).

The games are written here with known results, lengths and endings, so the
number of points each chart must have is known before the page is drawn.
"""
import json

import chess.pgn
import pytest

from conftest import REPO
from headless_chromium import dump_dom, screenshot
from engine.__main__ import main
from engine.tools.match.report import length_bins, render
from engine.tools.match.report_data import build, read_games
from engine.tools.match.rescore import RescoreError

ARTIFACTS = REPO / "tests" / "artifacts"
OPENINGS = ["Italian", "Sicilian", "French", "Caro-Kann"]
# (result of the pair's first game for A as White, second game for A as Black) per pair;
# the first game is a draw, so every Elo estimate from game 1 on is finite.
PAIRS = [("1/2-1/2", "1/2-1/2"), ("1-0", "1/2-1/2"), ("1-0", "0-1"), ("0-1", "0-1"),
         ("1-0", "1/2-1/2"), ("1/2-1/2", "0-1"), ("1-0", "1/2-1/2"), ("1-0", "0-1")]
PLIES = [41, 80, 119, 57, 63, 150, 22, 99]


def write_pgn(path):
    games = []
    for pair, results in enumerate(PAIRS, 1):
        for second, result in enumerate(results):
            game = chess.pgn.Game()
            h = game.headers
            h["Round"] = f"{pair}.{second + 1}"
            h["White"], h["Black"] = ("A", "B") if not second else ("B", "A")
            h["Result"] = result
            h["Termination"] = "adjudication" if result == "1/2-1/2" and pair % 2 else "normal"
            h["PlyCount"] = str(PLIES[pair - 1] + second)
            h["Opening"] = OPENINGS[(pair - 1) % len(OPENINGS)]
            games.append(str(game))
    path.write_text("\n\n".join(games) + "\n\n")
    return path


def expected_points():
    terminations = {"adjudication" if r == "1/2-1/2" and p % 2 else "normal"
                    for p, pair in enumerate(PAIRS, 1) for r in pair}
    lengths = [p + s for p in PLIES for s in (0, 1)]
    return {"elo": 2 * len(PAIRS), "llr": len(PAIRS), "openings": len(OPENINGS),
            "lengths": len(length_bins(lengths)), "terminations": len(terminations)}


# Counts what the browser really drew: every chart's points, and their on-screen size.
CHECK_SCRIPT = """<script>
window.onerror = function (m) { document.title = 'ERROR ' + m; };
window.addEventListener('load', function () {
  var out = {charts: {}, sizes: {}};
  document.querySelectorAll('svg[data-chart]').forEach(function (svg) {
    var id = svg.getAttribute('data-chart');
    out.charts[id] = svg.querySelectorAll('.point').length;
    var box = svg.getBoundingClientRect();
    out.sizes[id] = [Math.round(box.width), Math.round(box.height)];
  });
  var pre = document.createElement('pre'); pre.id = 'browser-checks';
  pre.textContent = JSON.stringify(out); document.body.appendChild(pre);
});
</script>"""


def test_rescore_report_renders_in_chromium_with_every_point(tmp_path):
    pgn = write_pgn(tmp_path / "games.pgn")
    report = tmp_path / "match.html"
    status = main(["match", "--rescore", str(pgn), "--sprt", "elo0=0", "elo1=10", "--report", str(report)])
    assert status == 0
    page = report.read_text()
    assert "<script" not in page and "http://" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "Elo:" in page and "LOS:" in page and "LLR" in page   # the cutechess-style lines

    checked = tmp_path / "checked.html"
    checked.write_text(page.replace("</body>", CHECK_SCRIPT + "</body>"))
    dom, console_errors = dump_dom(checked)
    assert "<title>ERROR" not in dom
    found = json.loads(dom.split('<pre id="browser-checks">')[1].split("</pre>")[0].replace("&quot;", '"'))
    assert found["charts"] == expected_points()
    assert all(w > 300 and h > 100 for w, h in found["sizes"].values())
    assert not console_errors

    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / "match-report.png"
    shot.unlink(missing_ok=True)
    screenshot(report, shot, 900, 2300)
    assert shot.stat().st_size > 10_000


def test_report_data_follows_the_games(tmp_path):
    data = build(read_games([str(write_pgn(tmp_path / "g.pgn"))]), "B", None)
    assert data.tally.first == "B" and data.tally.games == 16
    assert (data.tally.wins, data.tally.draws, data.tally.losses) == (1, 6, 9)   # counted by hand from PAIRS, seen from B
    assert data.llr_series == []                     # no SPRT asked for
    assert sum(sum(wdl) for wdl in data.by_opening.values()) == 16
    assert "no SPRT in this match" in render(data)


def test_report_of_no_games_is_a_clear_error(tmp_path, capsys):
    empty = tmp_path / "empty.pgn"
    empty.write_text("")
    assert main(["match", "--rescore", str(empty), "--report", str(tmp_path / "r.html")]) == 2
    assert "no finished games" in capsys.readouterr().err
    with pytest.raises(RescoreError):
        read_games([str(empty)])


def test_live_report_is_rewritten_at_most_once_an_interval(tmp_path):
    from engine.tools.match.report import LiveReport
    from engine.tools.match.results import Tally
    pgn, page = write_pgn(tmp_path / "live.pgn"), tmp_path / "live.html"
    live = LiveReport(str(page), str(pgn), None, interval=3600)
    live(Tally("A", "B"))
    assert "A vs B" in page.read_text()
    page.write_text("stale")
    live(Tally("A", "B"))            # within the interval: left alone
    assert page.read_text() == "stale"
