"""Engine words (cmd=, tc=, option.X=...), time controls and the runner's clock."""
import pytest

from engine.tools.match.spec import SpecError, build_spec
from engine.tools.match.timecontrol import Clock, TimeControl, TimeControlError


def test_engine_words():
    spec = build_spec(["cmd=/usr/games/stockfish", "name=sf", "option.Hash=16", "option.Skill Level=3",
                       "depth=5", "timemargin=250"], each=["tc=10+0.1", "option.Threads=1"])
    assert spec.command == ["/usr/games/stockfish"]
    assert spec.name == "sf" and spec.protocol == "uci"
    assert spec.options == {"Hash": "16", "Threads": "1", "Skill Level": "3"}
    assert spec.time_control == TimeControl(10, 0.1)
    assert spec.depth == 5 and spec.time_margin == 0.25
    assert spec.limit_text() == "10+0.1, depth 5"


def test_cmd_is_split_like_a_shell_line_and_args_append():
    spec = build_spec(['cmd=python -m "my engine"', "arg=--fast", "proto=xboard", "st=0.5"], each=["arg=-q"])
    assert spec.command == ["python", "-m", "my engine", "-q", "--fast"]
    assert spec.protocol == "xboard" and spec.movetime == 0.5
    assert spec.label() == "python"


def test_own_words_win_over_each():
    spec = build_spec(["cmd=x", "tc=5+0.05"], each=["tc=10+0.1", "nodes=1000"])
    assert spec.time_control == TimeControl(5, 0.05) and spec.nodes == 1000


@pytest.mark.parametrize("words, message", [
    (["name=x", "depth=1"], "cmd="),
    (["cmd=x", "proto=cecp"], "uci or xboard"),
    (["cmd=x", "depth=0"], "depth="),
    (["cmd=x", "nodes=many"], "nodes="),
    (["cmd=x", "st=-1"], "st="),
    (["cmd=x", "tc=fast"], "tc="),
    (["cmd=x", "tc=10", "st=1"], "not both"),
    (["cmd=x", "colour=white"], "unknown engine key"),
    (["cmd=x", "depth"], "KEY=VALUE"),
    (['cmd="unclosed'], "cannot split"),
])
def test_bad_engine_words(words, message):
    with pytest.raises(SpecError, match=message):
        build_spec(words)


def test_time_control_syntax():
    assert TimeControl.parse("10+0.1") == TimeControl(10, 0.1, 0)
    assert TimeControl.parse("40/60") == TimeControl(60, 0, 40)
    assert TimeControl.parse("1:30+1") == TimeControl(90, 1, 0)
    assert TimeControl.parse("0+0.5") == TimeControl(0, 0.5, 0)
    assert TimeControl.parse("inf") is None
    assert TimeControl.parse("40/60").pgn() == "40/60" and TimeControl.parse("10+0.1").pgn() == "10+0.1"
    for bad in ("", "x", "0", "10+", "0/10", "-5", "nan", "1:xx"):
        with pytest.raises(TimeControlError):
            TimeControl.parse(bad)


def test_clock_increment_and_flag():
    clock = Clock(TimeControl(1.0, 0.1))
    assert clock.punch(0.5, margin=0.05)
    assert clock.remaining == pytest.approx(0.6)
    # Within the margin: no forfeit, and the overdraft is forgiven.
    assert clock.punch(0.63, margin=0.05)
    assert clock.remaining == pytest.approx(0.1)
    assert not clock.punch(0.2, margin=0.05)


def test_clock_moves_per_period():
    clock = Clock(TimeControl(10.0, 0.0, moves=2))
    assert clock.moves_to_go() == 2
    assert clock.punch(3, 0)
    assert clock.moves_to_go() == 1
    assert clock.punch(3, 0)
    # A new period adds the base time again.
    assert clock.remaining == pytest.approx(14) and clock.moves_to_go() == 2
