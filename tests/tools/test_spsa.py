"""`vireo spsa`: the gains, the update, the parameters, the state, and a real run.

The algorithm is checked on a model whose optimum is known (game pairs
drawn from a logistic Elo curve around it), where SPSA must find it; the
command is checked end to end with Vireo's own search constants, including
a run interrupted with Ctrl-C that goes on where it stopped.
"""
import json
import random
import signal
import subprocess
import time

import pytest

from engine.tools.spsa.params import Param, ParamError, ParamRequest, parse_openbench, parse_param_words, resolve
from engine.tools.spsa.runner import apply_result, nudged, perturbation
from engine.tools.spsa.schedule import Schedule
from engine.tools.spsa.state import SpsaState, load
from conftest import shared_data
from uci_real_engine import ENGINE_COMMAND, REPO, engine_env


def test_the_gains_end_at_c_end_and_r_end():
    schedule = Schedule(1000)
    assert schedule.c_k(4.0, 999) == pytest.approx(4.0)
    assert schedule.c_k(4.0, 0) == pytest.approx(4.0 * 1000 ** 0.101)
    # a_end / c_end = r_end * c_end: a result of one point moves theta that far at the end
    assert schedule.step(4.0, 0.002, 999) == pytest.approx(0.002 * 4.0)
    nudges = [schedule.c_k(4.0, k) for k in range(1000)]
    assert all(a > b for a, b in zip(nudges, nudges[1:]))


def test_perturbations_are_plus_minus_one_and_repeat_by_seed_and_pair():
    first = [perturbation(7, k, 5) for k in range(50)]
    assert first == [perturbation(7, k, 5) for k in range(50)]
    assert {d for row in first for d in row} == {-1, 1}
    assert first != [perturbation(8, k, 5) for k in range(50)]


def test_nudged_values_are_rounded_and_kept_in_bounds():
    params = [Param("A", 10.0, 0, 12, 3.0), Param("B", 0.4, 0, 100, 1.0)]
    schedule = Schedule(100)
    c = schedule.c_k(3.0, 99)
    assert nudged(params, [1, -1], schedule, 99, +1) == {"A": 12, "B": 0}
    assert nudged(params, [1, -1], schedule, 99, -1) == {"A": round(10 - c), "B": 1}
    assert Param("N", 0, -10, 10, 1).engine_value(-2.5) == -3


def _pair_result(rng, elo):
    """Wins minus losses in a game pair for a side `elo` ahead, drawn from the
    logistic Elo curve with 40% draws."""
    expected, draw = 1 / (1 + 10 ** (-elo / 400)), 0.4
    total = 0
    for _ in range(2):
        u = rng.random()
        if u < (1 - draw) * expected:
            total += 1
        elif u >= draw + (1 - draw) * expected:
            total -= 1
    return total


def test_spsa_finds_the_optimum_of_a_noisy_model():
    # Elo = -0.02 * distance**2 for each parameter: 20 Elo lost 31.6 units away
    rng = random.Random(1)
    iterations = 4000
    schedule = Schedule(iterations)
    # r_end above OpenBench's 0.002, so that 4,000 pairs reach the optimum of this model
    params = [Param("X", 60.0, 10, 250, 10.0, 0.01), Param("Y", 150.0, 0, 300, 12.0, 0.01)]
    optimum = {"X": 100, "Y": 120}

    def elo(values):
        return sum(-0.02 * (values[n] - optimum[n]) ** 2 for n in optimum)

    for k in range(iterations):
        delta = perturbation(3, k, 2)
        plus, minus = (nudged(params, delta, schedule, k, s) for s in (+1, -1))
        apply_result(params, delta, schedule, k, _pair_result(rng, elo(plus) - elo(minus)))
    x, y = (p.value for p in params)
    assert abs(x - 100) < 12 and abs(y - 120) < 12, (x, y)


def test_param_words_and_openbench_lines():
    assert parse_param_words(["RFP_MARGIN", "min=30", "max=120", "c=6", "r=0.001", "start=70"]) == \
        ParamRequest("RFP_MARGIN", 70.0, 30, 120, 6.0, 0.001)
    for bad in (["min=3"], ["X", "c"], ["X", "min=1.5"], ["X", "c=nan"], ["X", "q=1"]):
        with pytest.raises(ParamError):
            parse_param_words(bad)
    text = "# margins\nRFP_MARGIN, int, 60.0, 10, 250, 12, 0.002\n\nFUT_BASE, int, 90, 0, 400, 20, 0.002\n"
    assert [r.name for r in parse_openbench(text)] == ["RFP_MARGIN", "FUT_BASE"]
    line = resolve(parse_openbench(text), {"RFP_MARGIN": (60, 10, 250), "FUT_BASE": (90, 0, 400)})[0].openbench_line()
    assert parse_openbench(line)[0] == ParamRequest("RFP_MARGIN", 60.0, 10, 250, 12.0, 0.002)
    for bad in ("X, int, 1, 2\n", "X, str, 1, 0, 9, 1, 0.002\n", "X, int, a, 0, 9, 1, 0.002\n", "# none\n"):
        with pytest.raises(ParamError):
            parse_openbench(bad)


def test_resolve_fills_from_the_engine_and_refuses_what_cannot_be_tuned():
    spins = {"RFP_MARGIN": (60, 10, 250), "Hash": (16, 1, 65536)}
    (p,) = resolve([ParamRequest("rfp_margin")], spins)
    assert (p.name, p.value, p.min, p.max, p.c_end, p.r_end) == ("RFP_MARGIN", 60.0, 10, 250, 12.0, 0.002)
    assert resolve([ParamRequest("RFP_MARGIN", min=50, max=60)], spins)[0].c_end == 1.0
    for bad in ([ParamRequest("FUT_BASE")], [ParamRequest("RFP_MARGIN", min=5)],
                [ParamRequest("RFP_MARGIN", min=100, max=90)], [ParamRequest("RFP_MARGIN", start=300)],
                [ParamRequest("RFP_MARGIN"), ParamRequest("rfp_margin")], [ParamRequest("RFP_MARGIN", c_end=0)]):
        with pytest.raises(ParamError):
            resolve(bad, spins)


def test_state_round_trip_and_mismatches(tmp_path):
    path = str(tmp_path / "s.json")
    params = [Param("A", 5.5, 0, 10, 1.0), Param("B", 3.0, 0, 9, 2.0, 0.001)]
    state = SpsaState(100, params)
    params[0].value = 6.25
    state.record(1, 0, 1)
    state.save(path)
    again = load(path, 100, [Param("A", 0, 0, 10, 1.0), Param("B", 0, 0, 9, 1.0)])
    assert again.to_json() == state.to_json()
    assert again.start == {"A": 5.5, "B": 3.0}
    assert load(str(tmp_path / "none.json"), 100, params) is None
    with pytest.raises(ParamError, match="not --iterations 99"):
        load(path, 99, params)
    with pytest.raises(ParamError, match="tunes A, B"):
        load(path, 100, params[:1])
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(ParamError, match="not a vireo spsa state file"):
        load(str(tmp_path / "bad.json"), 100, params)


def _spsa(state, *extra, iterations=4):
    return ENGINE_COMMAND + [
        "spsa", "--engine", "cmd=" + " ".join(ENGINE_COMMAND), "arg=uci", "arg=--tune", "nodes=300",
        "option.OwnBook=false", "--param", "RFP_MARGIN", "c=8", "--param", "FUT_BASE", "min=40", "max=200",
        "--iterations", str(iterations), "--state", str(state), "--seed", "5", "--no-progress",
        "--openings", f"file={shared_data('openings', '8moves_v3.pgn')}", "order=random", *extra]


def test_a_real_run_interrupted_goes_on_where_it_stopped(tmp_path):
    state = tmp_path / "spsa.json"
    proc = subprocess.Popen(_spsa(state, "--concurrency", "2", iterations=6), env=engine_env(), cwd=str(REPO),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if state.exists() and json.loads(state.read_text())["done"] >= 2:
            break
        time.sleep(0.2)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode in (0, 130), err    # 0 if it finished meanwhile
    first = json.loads(state.read_text())
    assert first["done"] >= 2
    assert f"SPSA after {first['done']} of 6 pairs" in out

    done = subprocess.run(_spsa(state, iterations=6), env=engine_env(), cwd=str(REPO),
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    final = json.loads(state.read_text())
    assert final["done"] == 6
    assert sum(final["games"].values()) == 12
    assert final["history"][:first["done"]] == first["history"]        # nothing played is lost
    assert [row[0] for row in final["history"]] == [1, 2, 3, 4, 5, 6]
    rfp, fut = final["params"]
    assert (rfp["name"], rfp["start"], rfp["c_end"], fut["min"], fut["max"]) == ("RFP_MARGIN", 60, 8, 40, 200)
    assert 10 <= rfp["value"] <= 250 and 40 <= fut["value"] <= 200
    assert "RFP_MARGIN, int," in done.stdout and "Traceback" not in done.stderr + err


def test_cli_errors_exit_2_with_a_reason(tmp_path):
    state = tmp_path / "s.json"
    cases = [
        (["--param", "NO_SUCH"], "no spin option 'NO_SUCH'"),
        (["--param", "NMP_EVAL_DIV", "min=1"], "must lie inside the engine's 25..1000"),
        (["--param", "RFP_MARGIN"], "RFP_MARGIN is given twice"),
        (["--params-file", str(tmp_path / "missing.txt")], "cannot read"),
    ]
    for extra, message in cases:
        command = _spsa(state, *extra)
        done = subprocess.run(command, env=engine_env(), cwd=str(REPO), capture_output=True, text=True, timeout=60)
        assert done.returncode == 2 and message in done.stderr, (extra, done.stderr)
    assert not state.exists()
    # the same run's state does not fit another length
    (tmp_path / "p.txt").write_text("RFP_MARGIN, int, 60, 10, 250, 8, 0.002\n")
    state.write_text(json.dumps({"version": 1, "iterations": 9, "done": 0, "games": {},
                                 "params": [{"name": "RFP_MARGIN"}]}))
    done = subprocess.run(ENGINE_COMMAND + ["spsa", "--engine", "cmd=" + " ".join(ENGINE_COMMAND), "arg=uci",
                                            "arg=--tune", "nodes=300", "--params-file", str(tmp_path / "p.txt"),
                                            "--iterations", "4", "--state", str(state)],
                          env=engine_env(), cwd=str(REPO), capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "not --iterations 4" in done.stderr, done.stderr
