"""`vireo epd`: reading suites, scoring bm/am/c0, and a real run on WAC."""
import chess
import chess.engine
import pytest

from conftest import require_engine, shared_data
from engine.__main__ import main
from engine.tools.epd import Answer, EpdError, read_suite


def wac() -> str:
    return str(shared_data("epd", "wac.epd"))


def stockfish() -> str:
    return require_engine("stockfish")


STS = (
    '7k/6pp/8/8/8/8/6PP/R5K1 w - - bm Ra8#; c0 "Ra8#=10, Rb1=3, h3=1"; id "sts.1";\n'
    '6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - am Rd7; c0 "Rd8#=10, h3=2"; id "sts.2";\n'
)


def test_read_suite_operations(tmp_path):
    path = tmp_path / "sts.epd"
    path.write_text("# a comment line\n\n" + STS)
    first, second = read_suite(str(path))
    assert first.label == "sts.1" and first.best == [chess.Move.from_uci("a1a8")]
    assert first.points == {chess.Move.from_uci("a1a8"): 10, chess.Move.from_uci("a1b1"): 3,
                            chess.Move.from_uci("h2h3"): 1}
    assert second.avoid == [chess.Move.from_uci("d1d7")] and second.best == []


def test_wac_comments_are_not_points():
    problems = read_suite(wac())
    assert len(problems) == 300
    wac150 = next(p for p in problems if p.label == "WAC.150")
    assert wac150.points == {} and len(wac150.best) == 4
    wac274 = next(p for p in problems if p.label == "WAC.274")
    assert wac274.avoid and wac274.best


def test_scoring_rules(tmp_path):
    path = tmp_path / "sts.epd"
    path.write_text(STS)
    first, second = read_suite(str(path))
    ra8, rb1, a2 = chess.Move.from_uci("a1a8"), chess.Move.from_uci("a1b1"), chess.Move.from_uci("a1a2")
    assert Answer(ra8).solved(first) and Answer(ra8).points(first) == 10
    assert not Answer(rb1).solved(first) and Answer(rb1).points(first) == 3
    assert Answer(a2).points(first) == 0 and Answer(None).points(first) == 0
    rd7, rd8 = chess.Move.from_uci("d1d7"), chess.Move.from_uci("d1d8")
    assert not Answer(rd7).solved(second) and Answer(rd8).solved(second)
    assert not Answer(None, "engine error").solved(second)


@pytest.mark.parametrize("text, message", [
    ("not a position at all\n", ":1: bad EPD"),
    ('8/8/8/8/8/8/8/8 w - - id "empty board";\n', "not a playable position"),
    ('7k/6Q1/6K1/8/8/8/8/8 b - - id "mated";\n', "not a playable position"),
    ('4k3/8/8/8/8/8/4P3/4K3 w - - id "no answer";\n', "no bm, am or c0"),
    ('4k3/8/8/8/8/8/4P3/4K3 w - - c0 "Qh5=10";\n', "not legal"),
    ("\n# only a comment\n", "no positions"),
])
def test_bad_suites(tmp_path, text, message):
    path = tmp_path / "bad.epd"
    path.write_text(text)
    with pytest.raises(EpdError, match=message):
        read_suite(str(path))


def test_cli_exits_non_zero_on_bad_input(tmp_path, capsys):
    assert main(["epd", str(tmp_path / "missing.epd")]) == 2
    assert "cannot read" in capsys.readouterr().err
    binary = tmp_path / "binary.epd"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    assert main(["epd", str(binary)]) == 2
    assert main(["epd", wac(), "--depth", "0"]) == 2
    assert main(["epd", wac(), "--engine", "cmd=/no/such/engine", "--no-progress"]) == 1
    assert "cannot start engine" in capsys.readouterr().err


def test_wac_with_stockfish_matches_a_direct_check(capsys):
    path = stockfish()
    count, depth = 8, 6
    problems = read_suite(wac())[:count]
    # The same searches, made directly: fresh game each, one thread, fixed depth.
    expected = 0
    with chess.engine.SimpleEngine.popen_uci(path) as engine:
        engine.configure({"Threads": 1, "Hash": 16})
        for problem in problems:
            move = engine.play(problem.board, chess.engine.Limit(depth=depth), game=object()).move
            expected += move in problem.best and move not in problem.avoid
    status = main(["epd", wac(), "--engine", f"cmd={path}", "option.Threads=1", "option.Hash=16",
                   "--depth", str(depth), "--max", str(count), "--concurrency", "2", "--no-progress"])
    out = capsys.readouterr().out
    assert status == 0
    assert f"Solved: {expected}/{count}" in out
    assert f"{count}/{count} positions searched" in out


def test_sts_points_with_stockfish(tmp_path, capsys):
    path = stockfish()
    suite = tmp_path / "sts.epd"
    suite.write_text(STS)
    assert main(["epd", str(suite), "--engine", f"cmd={path}", "--nodes", "20000", "--no-progress"]) == 0
    out = capsys.readouterr().out
    # Both are back-rank mates in one that Stockfish finds at once: full points.
    assert "Points: 20/20 (100.0%) over 2 positions" in out
    assert "Solved: 2/2" in out
