"""`vireo train` (engine/tools/nnue/train/): the trainer's features are the
network file's, the loss falls, the exported file computes what the float
network computes (network_file.reference_eval, within quantization rounding),
training is deterministic and resumable, and bad input is refused."""
import copy
import subprocess
import sys

import chess
import numpy as np
import pytest
from conftest import unavailable

from engine.tools.nnue.convert import line_to_record
from engine.tools.nnue.marlinformat import DTYPE, decode
from engine.tools.nnue.network_file import DEFAULT_SCALE, board_features, read_network, reference_eval
from engine.tools.nnue.train.features import PAD, batch_features, mirrorable

try:
    import torch
except ImportError:   # the train extra is missing: a skip here, a failure in CI
    torch = None


def needs_torch():
    if torch is None:
        unavailable("PyTorch is not installed (pip install -e '.[train]')")


@pytest.fixture(scope="module")
def records_file(tmp_path_factory, data_lines):
    path = tmp_path_factory.mktemp("train") / "data.bin"
    path.write_bytes(b"".join(line_to_record(line) for line in data_lines))
    return path


def small_config(**changes):
    from engine.tools.nnue.train.loop import TrainConfig
    settings = dict(hidden=32, epochs=6, batch_size=256, lr=3e-3, seed=1, progress=False)
    settings.update(changes)
    return TrainConfig(**settings)


@pytest.fixture(scope="module", params=[1, 4], ids=["one-output", "4-output-buckets"])
def trained(records_file, request):
    needs_torch()
    from engine.tools.nnue.train.data import Dataset
    from engine.tools.nnue.train.loop import Trainer
    torch.set_num_threads(1)
    trainer = Trainer(small_config(buckets=request.param), Dataset([str(records_file)], validation=0.1))
    before = training_loss(trainer), trainer.validation_loss()
    for _ in range(trainer.config.epochs):
        trainer.run_epoch()
    return trainer, before


def training_loss(trainer):
    with torch.no_grad():
        records = trainer.dataset.gather(trainer.dataset.train)
        return float(trainer.loss(*trainer.tensors(records)))


def test_features_and_targets_are_the_network_files(records_file):
    raw = np.fromfile(records_file, dtype=DTYPE)
    stm, other, score, result = batch_features(raw)
    for row in range(len(raw)):
        sample = decode(raw[row].tobytes())
        white, black = board_features(sample.board)
        us, them = (white, black) if sample.board.turn else (black, white)
        assert sorted(stm[row][stm[row] != PAD]) == sorted(us)
        assert sorted(other[row][other[row] != PAD]) == sorted(them)
        sign = 1 if sample.board.turn else -1
        assert score[row] == sign * sample.score
        assert result[row] == (sample.result / 2 if sample.board.turn else 1 - sample.result / 2)


def test_mirrored_features_are_the_reflected_boards(records_file):
    """--mirror: a castling-free board reflected a <-> h has the reflected
    board's features and the same targets; a board with a castling right is
    never offered for mirroring (castling is not symmetric)."""
    raw = np.fromfile(records_file, dtype=DTYPE)
    boards = [decode(r.tobytes()).board for r in raw]
    allowed = mirrorable(raw)
    assert list(allowed) == [not board.castling_rights for board in boards]
    assert allowed.any() and not allowed.all()      # the data has both kinds
    plain = batch_features(raw)
    stm, other, score, result = batch_features(raw, mirror=allowed)
    assert np.array_equal(score, plain[2]) and np.array_equal(result, plain[3])
    for row, board in enumerate(boards):
        if allowed[row]:
            board = board.transform(chess.flip_horizontal)
        white, black = board_features(board)
        us, them = (white, black) if board.turn else (black, white)
        assert sorted(stm[row][stm[row] != PAD]) == sorted(us)
        assert sorted(other[row][other[row] != PAD]) == sorted(them)


def test_the_loss_falls(trained):
    trainer, (train_before, valid_before) = trained
    assert training_loss(trainer) < 0.8 * train_before
    assert trainer.history[-1].train_loss < trainer.history[0].train_loss
    assert trainer.history[-1].valid_loss < valid_before     # 300 positions: it learns, a little


def test_the_exported_file_computes_the_float_network(trained, tmp_path, data_fens):
    from engine.tools.nnue.train.export import export, quantize, worst_case_output_sum
    trainer, _ = trained
    path = tmp_path / "net.nnue"
    net = export(trainer.model, path)
    loaded = read_network(path)
    assert np.array_equal(loaded.feature_weights, net.feature_weights)
    assert np.array_equal(loaded.output_bias, net.output_bias) and loaded.buckets == trainer.model.buckets
    boards = [chess.Board(fen) for fen in data_fens[:300]]
    integers = np.array([reference_eval(loaded, board) for board in boards])
    floats = float_evals(trainer.model, boards)
    assert np.std(floats) > 20, "the network must say something for the comparison to mean anything"
    # The float network with the file's weights (integers / QA, / QB) computes the
    # file's evaluation up to the two truncating divisions: under 1 cp from the
    # last, and under SCALE / (QA * QB) = 0.025 cp from the SCReLU's division by QA.
    dequantized = copy.deepcopy(trainer.model)
    with torch.no_grad():
        dequantized.features.weight[:768] = torch.from_numpy(net.feature_weights / net.qa)
        dequantized.feature_bias[:] = torch.from_numpy(net.feature_bias / net.qa)
        dequantized.output.weight[:] = torch.from_numpy(net.output_weights / net.qb)
        dequantized.output.bias[:] = torch.from_numpy(net.output_bias / (net.qa * net.qb))
    bound = 1 + DEFAULT_SCALE / (net.qa * net.qb) + 1e-9
    assert np.max(np.abs(integers - float_evals(dequantized, boards))) < bound
    # Against the trained float network the rounding of the weights adds a few cp
    # (QB = 64 leaves output weights steps of 1/64).
    assert np.mean(np.abs(integers - floats)) <= 4 and np.max(np.abs(integers - floats)) <= 16
    assert np.array_equal(quantize(trainer.model).output_bias, net.output_bias)
    assert worst_case_output_sum(net) < 2**31       # the core's int32 output sum cannot overflow


def float_evals(model, boards):
    records = np.frombuffer(b"".join(line_to_record(f"{b.fen()};0;0.5") for b in boards), dtype=DTYPE)
    stm, other, _, _ = batch_features(records)
    with torch.no_grad():
        return copy.deepcopy(model).double()(torch.from_numpy(stm), torch.from_numpy(other)).numpy() * DEFAULT_SCALE


@pytest.mark.parametrize("mirror, buckets", [(False, 1), (True, 1), (True, 4)])
def test_training_is_deterministic_and_resumes_exactly(records_file, tmp_path, mirror, buckets):
    needs_torch()
    from engine.tools.nnue.train.data import Dataset
    from engine.tools.nnue.train.export import quantize
    from engine.tools.nnue.train.loop import Trainer
    torch.set_num_threads(1)
    dataset = Dataset([str(records_file)], validation=0.1)
    straight = Trainer(small_config(epochs=3, mirror=mirror, buckets=buckets), dataset)
    for _ in range(3):
        straight.run_epoch()
    first = Trainer(small_config(epochs=3, mirror=mirror, buckets=buckets), dataset)
    for _ in range(2):
        first.run_epoch()
    first.save(tmp_path / "ckpt.pt")
    if buckets > 1:
        with pytest.raises(ValueError, match="buckets"):
            Trainer(small_config(epochs=3, mirror=mirror), dataset).load(tmp_path / "ckpt.pt")
    resumed = Trainer(small_config(epochs=3, seed=99, mirror=mirror, buckets=buckets), dataset)   # weights replaced
    resumed.load(tmp_path / "ckpt.pt")
    resumed.run_epoch()
    a, b = quantize(straight.model), quantize(resumed.model)
    assert np.array_equal(a.feature_weights, b.feature_weights)
    assert np.array_equal(a.output_weights, b.output_weights) and np.array_equal(a.output_bias, b.output_bias)
    assert [r.valid_loss for r in straight.history] == [r.valid_loss for r in resumed.history]
    if mirror:      # the mirroring is on: the run differs from the unmirrored one
        plain = Trainer(small_config(epochs=1), dataset)
        plain.run_epoch()
        assert plain.history[0].train_loss != straight.history[0].train_loss


def vireo(*args, code=""):
    prelude = code + "import sys; from engine.__main__ import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", prelude, *args], capture_output=True, text=True)


def test_without_torch_train_says_what_to_install(records_file):
    result = vireo("train", str(records_file), code="import sys; sys.modules['torch'] = None; ")
    assert result.returncode == 2 and "PyTorch is not installed" in result.stderr
    assert "pip install" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("args, words", [
    (["--hidden", "100"], "multiple of 16"),
    (["--wdl", "2"], "--wdl"),
    (["--epochs", "-1"], "--epochs"),
    (["--output-buckets", "0"], "--output-buckets"),
    (["--output-buckets", "17"], "--output-buckets"),
])
def test_bad_options_are_refused(records_file, args, words):
    result = vireo("train", str(records_file), *args)
    assert result.returncode == 2 and words in result.stderr and "Traceback" not in result.stderr


def test_a_missing_cuda_device_is_refused(records_file):
    needs_torch()
    result = vireo("train", str(records_file), "--device", "cuda", "--quiet",
                   code="import torch; torch.cuda.is_available = lambda: False; ")
    assert result.returncode == 2 and "no CUDA device" in result.stderr and "Traceback" not in result.stderr


def test_bad_data_is_refused(tmp_path):
    needs_torch()
    partial = tmp_path / "partial.bin"
    partial.write_bytes(bytes(40))
    result = vireo("train", str(partial), "--quiet")
    assert result.returncode == 2 and "whole number" in result.stderr and "Traceback" not in result.stderr
    result = vireo("train", str(tmp_path / "missing.bin"), "--quiet")
    assert result.returncode == 2 and "cannot read" in result.stderr


@pytest.mark.parametrize("buckets, activation", [(1, 1), (4, 1), (1, 0)], ids=["screlu", "4-buckets", "crelu"])
def test_dequantize_is_the_inverse_of_quantize(buckets, activation):
    """--init: a network file becomes the float network whose quantization it
    is, so a generation that starts from it starts from exactly its weights."""
    needs_torch()
    from engine.tools.nnue.network_file import random_network
    from engine.tools.nnue.train.export import dequantize, quantize
    net = random_network(hidden=32, activation=activation, seed=5, buckets=buckets)
    back = quantize(dequantize(net))
    for name in ("feature_weights", "feature_bias", "output_weights", "output_bias"):
        assert np.array_equal(getattr(back, name), getattr(net, name)), name
    assert (back.hidden, back.activation, back.buckets) == (net.hidden, net.activation, net.buckets)


def test_dequantize_folds_another_scale_into_the_output(data_fens):
    """A file whose SCALE is not the trainer's evaluates the same after the round
    trip: the float network's output is read at the default SCALE."""
    needs_torch()
    from engine.tools.nnue.network_file import random_network
    from engine.tools.nnue.train.export import dequantize, quantize
    net = random_network(hidden=32, seed=6)
    net.output_weights = (net.output_weights // 4) * 2    # halving is exact, and inside the clip
    net.output_bias = (net.output_bias // 2) * 2
    net.scale = 200
    boards = [chess.Board(fen) for fen in data_fens[:50]]
    before = np.array([reference_eval(net, b) for b in boards])
    after = np.array([reference_eval(quantize(dequantize(net)), b) for b in boards])
    assert np.std(before) > 20 and np.max(np.abs(before - after)) <= 2


def test_init_starts_from_the_network_file(records_file, tmp_path):
    """`vireo train --init NET --epochs 0 --export OUT` writes NET again, byte for
    byte, taking its shape from the file; a clashing shape or a bad file is refused."""
    needs_torch()
    from engine.tools.nnue.network_file import random_network, write_network
    source = tmp_path / "source.nnue"
    write_network(source, random_network(hidden=48, seed=7, buckets=2))
    out = tmp_path / "out.nnue"
    result = vireo("train", str(records_file), "--init", str(source), "--epochs", "0", "--quiet",
                   "--export", str(out))
    assert result.returncode == 0, result.stderr
    assert "48x2 screlu network, 2 output buckets" in result.stdout and "starting from" in result.stdout
    assert "(the starting network): validation loss" in result.stdout
    assert out.read_bytes() == source.read_bytes()
    clash = vireo("train", str(records_file), "--init", str(source), "--hidden", "32", "--quiet")
    assert clash.returncode == 2 and "--hidden 32, but --init" in clash.stderr and "Traceback" not in clash.stderr
    (tmp_path / "bad.nnue").write_bytes(b"VIREONN1" + bytes(30))
    bad = vireo("train", str(records_file), "--init", str(tmp_path / "bad.nnue"), "--quiet")
    assert bad.returncode == 2 and "--init" in bad.stderr and "Traceback" not in bad.stderr
    both = vireo("train", str(records_file), "--init", str(source), "--resume", str(tmp_path / "x.pt"))
    assert both.returncode == 2 and "give one" in both.stderr


def test_init_spreads_a_one_bucket_network_into_output_buckets(records_file, tmp_path, data_fens):
    """`--init NET --output-buckets B` with a one-bucket NET starts every bucket
    from NET's output layer: the exported file evaluates exactly as NET does.
    A network that already has buckets keeps its own number."""
    needs_torch()
    from engine.tools.nnue.network_file import random_network, write_network
    source_net = random_network(hidden=32, seed=8)
    source = tmp_path / "one.nnue"
    write_network(source, source_net)
    out = tmp_path / "eight.nnue"
    result = vireo("train", str(records_file), "--init", str(source), "--output-buckets", "8",
                   "--epochs", "0", "--quiet", "--export", str(out))
    assert result.returncode == 0, result.stderr
    assert "8 output buckets" in result.stdout
    grown = read_network(out)
    assert grown.buckets == 8
    for b in range(8):
        assert np.array_equal(grown.output_weights[b], source_net.output_weights[0])
        assert grown.output_bias[b] == source_net.output_bias[0]
    assert np.array_equal(grown.feature_weights, source_net.feature_weights)
    boards = [chess.Board(fen) for fen in data_fens[:40]]
    assert [reference_eval(grown, b) for b in boards] == [reference_eval(source_net, b) for b in boards]
    clash = vireo("train", str(records_file), "--init", str(out), "--output-buckets", "4", "--quiet")
    assert clash.returncode == 2 and "--output-buckets 4, but --init" in clash.stderr
