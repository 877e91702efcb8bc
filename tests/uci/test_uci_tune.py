"""`vireo uci --tune`: the search's constants as UCI spin options.

Through python-chess (a real UCI client): every core constant is declared
with its present value and a range that holds it, only with --tune, and a
changed value reaches the search (the tree it searches changes, and comes
back when the value does).
"""
import subprocess

import chess
import chess.engine
import pytest

from engine import _core
from engine.uci.tune import RANGES
from uci_real_engine import ENGINE_COMMAND, REPO, engine_env, popen_uci

MIDDLEGAME = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 9"


@pytest.fixture
def tuned():
    engine = chess.engine.SimpleEngine.popen_uci(ENGINE_COMMAND + ["uci", "--tune"], env=engine_env(),
                                                 cwd=str(REPO))
    engine.configure({"OwnBook": False})
    yield engine
    engine.quit()


def test_every_core_constant_is_declared_with_its_value(tuned):
    constants = _core.get_tunables()
    assert set(constants) == set(RANGES)
    for name, value in constants.items():
        option = tuned.options[name]
        assert option.type == "spin"
        assert (option.default, option.min, option.max) == (value, *RANGES[name])
        assert option.min <= value <= option.max


def test_without_tune_a_gui_sees_none_of_them():
    engine = popen_uci()
    try:
        assert not set(_core.get_tunables()) & set(engine.options)
        assert "Hash" in engine.options
    finally:
        engine.quit()


def _nodes(engine, **options):
    engine.configure(options)
    info = engine.analyse(chess.Board(MIDDLEGAME), chess.engine.Limit(depth=10), game=object())
    return info["nodes"]


def test_a_changed_constant_changes_the_search_and_changing_it_back_restores_it(tuned):
    default = tuned.options["RFP_MARGIN"].default
    before = _nodes(tuned, RFP_MARGIN=default)
    assert _nodes(tuned, RFP_MARGIN=10) != before       # prunes far more
    assert _nodes(tuned, RFP_MARGIN=default) == before  # one thread, a new game: the same tree
    assert _nodes(tuned, NMP_MIN_DEPTH=10) != before


def test_a_value_out_of_range_is_refused_and_the_engine_serves_on():
    script = "uci\nsetoption name RFP_MARGIN value 9999\nsetoption name NMP_DEPTH_DIV value 0\n" \
             "position startpos\ngo depth 4\nisready\nquit\n"
    done = subprocess.run(ENGINE_COMMAND + ["uci", "--tune"], input=script, capture_output=True, text=True,
                          env=engine_env(), cwd=str(REPO), timeout=60)
    lines = done.stdout.splitlines()
    assert any("RFP_MARGIN value 9999 is out of range 10..250" in line for line in lines)
    assert any("NMP_DEPTH_DIV value 0 is out of range 1..16" in line for line in lines)
    assert any(line.startswith("bestmove ") for line in lines)
    assert "readyok" in lines and "Traceback" not in done.stderr


def test_a_value_set_during_a_search_applies_when_it_ends(monkeypatch):
    import uci_real_engine
    monkeypatch.setattr(uci_real_engine, "ENGINE_COMMAND", ENGINE_COMMAND + ["uci", "--tune"])
    raw = uci_real_engine.RawEngine()
    try:
        raw.handshake()
        raw.send("setoption name OwnBook value false")

        def nodes_at_depth_9():
            raw.send("ucinewgame")
            raw.send(f"position fen {MIDDLEGAME}")
            start = len(raw.seen)
            raw.send("go depth 9")
            raw.expect("bestmove", timeout=60)
            return [int(line.split(" nodes ")[1].split()[0]) for _, line in raw.seen[start:]
                    if line.startswith("info depth 9 ")][-1]

        default = nodes_at_depth_9()
        raw.send("setoption name RFP_MARGIN value 10")
        tight = nodes_at_depth_9()
        assert tight != default
        raw.send(f"setoption name RFP_MARGIN value {_core.get_tunables()['RFP_MARGIN']}")
        raw.send(f"position fen {MIDDLEGAME}")
        raw.send("go infinite")
        raw.expect("info depth 3")
        raw.send("setoption name RFP_MARGIN value 10")
        raw.expect_containing("RFP_MARGIN takes effect when the current search ends")
        raw.send("stop")
        raw.expect("bestmove")
        assert nodes_at_depth_9() == tight
    finally:
        raw.close()
    assert not any("Traceback" in line for _, line in raw.stderr)
