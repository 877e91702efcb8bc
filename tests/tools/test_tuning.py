"""The Texel tuning tool: the linear model it fits is the engine's
evaluation, a fit lowers the loss, the command runs end to end on a small
sample and refuses bad data, and the game comparison runs."""
import argparse

import numpy as np

from engine import _core
from engine.tools.tuning import cli, compare, features, texel
from engine.tools.tuning.start_weights import start_weights

from conftest import shared_data, white_view


def parser():
    p = argparse.ArgumentParser()
    cli.add_arguments(p)
    return p


def test_features_times_weights_is_the_evaluation(data_fens):
    """The tuner's linear model reproduces evaluate() up to integer rounding."""
    fs = features.trace(data_fens)
    w = np.array(_core.get_eval_weights(), dtype=np.float64)
    model = texel.LinearEval(fs, len(w)).evals(w[:, 0], w[:, 1])
    engine = np.array([white_view(f) for f in data_fens], dtype=np.float64)
    model = np.where(fs.scale > 0, model, 0.0)
    assert np.abs(model - engine).max() <= 2.5
    assert np.array_equal(fs.engine_eval, engine)


def test_texel_fit_lowers_the_loss(data_lines, restore_weights):
    fens = [line.split(";")[0] for line in data_lines]
    results = np.array([float(line.split(";")[2]) for line in data_lines])
    _core.set_eval_weights(start_weights())
    fs = features.trace(fens)
    keep = fs.scale > 0
    fs, results = fs.select(keep), results[keep]
    k = texel.fit_k(fs.engine_eval, results)
    assert 0.2 < k < 3
    w = np.array(_core.get_eval_weights(), dtype=np.float64)
    model = texel.LinearEval(fs, len(w))
    before = texel.mse(model.evals(w[:, 0], w[:, 1]), results, k)
    w_mg, w_eg = texel.fit(model, results, k, w[:, 0], w[:, 1], epochs=30)
    after = texel.mse(model.evals(w_mg, w_eg), results, k)
    assert after < before - 0.001


def test_tuning_command_on_a_small_sample(tmp_path, capsys, restore_weights):
    out = tmp_path / "weights.pxi"
    args = parser().parse_args(["--data", str(shared_data("tuning", "selfplay-1.txt.gz")), "--limit", "2000",
                              "--epochs", "10", "--lambda", "0.5", "--start", "--out", str(out)])
    assert cli.run(args) == 0
    text = capsys.readouterr().out
    assert "loss before" in text and "loss after" in text
    namespace = {}
    exec(out.read_text(), namespace)
    assert set(namespace["DEFAULT_EVAL_WEIGHTS"]) == {g[0] for g in _core.eval_layout()}


def test_tuning_command_rejects_bad_data(tmp_path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_text("8/8/8/8/8/8/8/8 w - - 0 1;12;0.5\n")          # no kings
    assert cli.run(parser().parse_args(["--data", str(bad), "--dry-run"])) == 2
    assert "tuning:" in capsys.readouterr().err
    bad.write_text("not a line\n")
    assert cli.run(parser().parse_args(["--data", str(bad), "--dry-run"])) == 2
    assert "expected FEN;score;result" in capsys.readouterr().err


def test_compare_plays_games(capsys, restore_weights):
    book = shared_data("openings", "8moves_v3.pgn")
    assert compare.main(["start", "current", "--pairs", "1", "--nodes", "300", "--openings", str(book)]) == 0
    assert "/2 (" in capsys.readouterr().out
    assert compare.main(["no-such-file.pxi", "start"]) == 2
