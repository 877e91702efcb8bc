"""`vireo analyse --report`: the HTML page, rendered in headless Chromium.

Built games with known bad moves (tests/analyse_games.py), analysed by Vireo
at a small depth: the browser must draw one chart point per position, one
mark per marked move, and one board per mistake or blunder with two arrows
(the move played, the better one)."""
import json

from analyse_games import HUNG_QUEEN, MISSED_MATE
from conftest import REPO, read_games
from engine.__main__ import main
from engine.tools.analyse.judgement import BLUNDER, MISTAKE
from headless_chromium import dump_dom, screenshot

# What the browser drew, per game section.
CHECK_SCRIPT = """<script>
window.onerror = function (m) { document.title = 'ERROR ' + m; };
window.addEventListener('load', function () {
  var out = [];
  document.querySelectorAll('section.game').forEach(function (game) {
    var chart = game.querySelector('svg[data-chart]'), box = chart.getBoundingClientRect();
    out.push({points: chart.querySelectorAll('.point').length, marks: chart.querySelectorAll('.mark').length,
              size: [Math.round(box.width), Math.round(box.height)],
              diagrams: Array.from(game.querySelectorAll('figure.diagram')).map(function (d) {
                return {ply: +d.getAttribute('data-ply'), arrows: d.querySelectorAll('line.arrow').length,
                        width: Math.round(d.querySelector('svg').getBoundingClientRect().width)}; })});
  });
  var pre = document.createElement('pre'); pre.id = 'browser-checks';
  pre.textContent = JSON.stringify(out); document.body.appendChild(pre);
});
</script>"""


def test_report_draws_every_position_mark_and_diagram(tmp_path, capsys):
    pgn, out, report = tmp_path / "built.pgn", tmp_path / "annotated.pgn", tmp_path / "report.html"
    pgn.write_text(HUNG_QUEEN + "\n" + MISSED_MATE)
    assert main(["analyse", str(pgn), "--depth", "6", "--no-progress", "-o", str(out), "--report", str(report)]) == 0
    page = report.read_text()
    assert "<script" not in page
    assert "http" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "").replace(
        'xmlns:xlink="http://www.w3.org/1999/xlink"', "")   # nothing fetched from the network

    checked = tmp_path / "checked.html"
    checked.write_text(page.replace("</body>", CHECK_SCRIPT + "</body>"))
    dom, console_errors = dump_dom(checked)
    assert "<title>ERROR" not in dom and not console_errors
    drawn = json.loads(dom.split('<pre id="browser-checks">')[1].split("</pre>")[0].replace("&quot;", '"'))

    games = read_games(out)
    assert len(drawn) == len(games) == 2
    for game, seen in zip(games, drawn):
        nodes = list(game.mainline())
        marked = [i + 1 for i, n in enumerate(nodes) if n.nags]
        serious = [i + 1 for i, n in enumerate(nodes) if n.nags & {MISTAKE, BLUNDER}]
        assert seen["points"] == len(nodes) + 1            # the start and each move
        assert seen["marks"] == len(marked)
        assert [d["ply"] for d in seen["diagrams"]] == serious
        assert all(d["arrows"] == 2 and d["width"] >= 200 for d in seen["diagrams"])
        assert seen["size"][0] > 600 and seen["size"][1] > 150
    assert [len(d["diagrams"]) for d in drawn] == [1, 2]   # 6. Qg4??; 1... Nb5?? and 2. h3??
    assert page.count("; better: ") == 3 and "6. Qg4??" in page and "2. h3??" in page

    artifacts = REPO / "tests" / "artifacts"
    artifacts.mkdir(exist_ok=True)
    shot = artifacts / "analysis-report.png"
    shot.unlink(missing_ok=True)
    screenshot(report, shot, 900, 1800)
    assert shot.stat().st_size > 10_000
    capsys.readouterr()
