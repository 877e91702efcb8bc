"""`vireo train` (engine/tools/nnue/train/): the trainer's features are the
network file's (king buckets too), the loss falls, the exported file computes what the float
network computes (network_file.reference_eval, within quantization rounding),
training is deterministic and resumable, and bad input is refused."""
import copy
import random
import subprocess
import sys

import chess
import numpy as np
import pytest
from conftest import unavailable

from engine.tools.nnue.convert import line_to_record
from engine.tools.nnue.marlinformat import DRAW, DTYPE, decode, encode
from engine.tools.nnue.network_file import (DEFAULT_SCALE, board_features, king_bucket_layout, read_network,
                                            reference_eval)
from engine.tools.nnue.train.features import PAD, batch_features, mirrorable, pad

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


@pytest.fixture(scope="module", params=[(1, None, False), (4, None, False), (4, 4, False), (4, 4, True)],
                ids=["one-output", "4-output-buckets", "4-output-and-4-king-buckets", "factorized-king-buckets"])
def trained(records_file, request):
    needs_torch()
    from engine.tools.nnue.train.data import Dataset
    from engine.tools.nnue.train.loop import Trainer
    torch.set_num_threads(1)
    buckets, king_buckets, factorized = request.param
    trainer = Trainer(small_config(buckets=buckets, king_buckets=king_buckets, factorized=factorized),
                      Dataset([str(records_file)], validation=0.1))
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


def random_boards(count, seed):
    """Positions of random games and of kings and pieces dropped anywhere (so
    that each king visits every square, files e-h and high ranks included)."""
    rng = random.Random(seed)
    boards = []
    while len(boards) < count:
        if len(boards) % 2:
            board = chess.Board()
            for _ in range(rng.randrange(120)):
                moves = list(board.legal_moves)
                if not moves:
                    break
                board.push(rng.choice(moves))
        else:
            board = chess.Board(None)
            board.set_piece_at(rng.randrange(64), chess.Piece(chess.KING, chess.WHITE))
            board.set_piece_at(rng.choice([s for s in range(64) if board.piece_at(s) is None]),
                               chess.Piece(chess.KING, chess.BLACK))
            for _ in range(rng.randrange(12)):
                kind = rng.choice([chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN])
                free = [s for s in range(8, 56) if board.piece_at(s) is None]
                board.set_piece_at(rng.choice(free), chess.Piece(kind, rng.random() < 0.5))
            board.turn = rng.random() < 0.5
            if not board.is_valid():
                continue
        boards.append(board)
    return boards


@pytest.mark.parametrize("count", [1, 2, 4, 8, 16])
def test_king_bucket_features_are_the_network_files(data_fens, count):
    """With a king bucket map batch_features gives network_file.board_features
    (side to move first, padded with 768 * K), the --mirror augmentation
    reflecting every piece, kings included, before the buckets and the king's
    own mirroring are chosen."""
    layout = king_bucket_layout(count)
    boards = [chess.Board(fen) for fen in data_fens[:600]] + random_boards(600, seed=count)
    raw = np.frombuffer(b"".join(encode(b, 0, DRAW) for b in boards), dtype=DTYPE)
    mirror = mirrorable(raw) & (np.random.default_rng(count).random(len(raw)) < 0.5)
    stm, other, _, _ = batch_features(raw, mirror, layout)
    padding = pad(layout)
    assert padding == 768 * count and pad() == PAD == 768
    assert (stm < padding).sum() == (other < padding).sum() == sum(len(b.piece_map()) for b in boards)
    for row, board in enumerate(boards):
        if mirror[row]:
            board = board.transform(chess.flip_horizontal)
        white, black = board_features(board, layout)
        us, them = (white, black) if board.turn else (black, white)
        assert sorted(stm[row][stm[row] != padding]) == sorted(us), row
        assert sorted(other[row][other[row] != padding]) == sorted(them), row
    # the positions cover what matters: each side's king on both wings, reflected or not,
    # and every bucket from both points of view
    for color in (chess.WHITE, chess.BLACK):
        wings = {(bool(m), chess.square_file(b.king(color)) >= 4) for b, m in zip(boards, mirror)}
        assert wings == {(False, False), (False, True), (True, False), (True, True)}
    assert set(np.unique(stm[stm != padding] // 768)) == set(np.unique(other[other != padding] // 768)) \
        == set(range(count))


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
    layout = trainer.model.king_buckets
    version = 3 if layout is not None else (1 if trainer.model.buckets == 1 else 2)
    assert path.read_bytes()[8] == version
    assert (loaded.king_buckets is None) if layout is None else np.array_equal(loaded.king_buckets, layout)
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
        if dequantized.factorized:      # the file's rows are the sums: the shared rows are in them
            assert dequantized.factor.weight.abs().max() > 0.01
            dequantized.factor.weight.zero_()
        dequantized.features.weight[:net.inputs] = torch.from_numpy(net.feature_weights / net.qa)
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
    stm, other, _, _ = batch_features(records, layout=model.king_buckets)
    with torch.no_grad():
        return copy.deepcopy(model).double()(torch.from_numpy(stm), torch.from_numpy(other)).numpy() * DEFAULT_SCALE


@pytest.mark.parametrize("mirror, buckets, king, factorized",
                         [(False, 1, None, False), (True, 1, None, False), (True, 4, None, False), (True, 1, 4, False),
                          (True, 2, 4, True)])
def test_training_is_deterministic_and_resumes_exactly(records_file, tmp_path, mirror, buckets, king, factorized):
    needs_torch()
    from engine.tools.nnue.train.data import Dataset
    from engine.tools.nnue.train.export import quantize
    from engine.tools.nnue.train.loop import Trainer
    torch.set_num_threads(1)
    dataset = Dataset([str(records_file)], validation=0.1)
    shape = dict(mirror=mirror, buckets=buckets, king_buckets=king, factorized=factorized)
    straight = Trainer(small_config(epochs=3, **shape), dataset)
    for _ in range(3):
        straight.run_epoch()
    first = Trainer(small_config(epochs=3, **shape), dataset)
    for _ in range(2):
        first.run_epoch()
    first.save(tmp_path / "ckpt.pt")
    if buckets > 1:
        with pytest.raises(ValueError, match="buckets"):
            Trainer(small_config(epochs=3, mirror=mirror), dataset).load(tmp_path / "ckpt.pt")
    if king:
        for other, words in [(None, "has 4 king buckets, this run no king buckets"), (8, "this run 8 king")]:
            changed = dict(shape, king_buckets=other, factorized=factorized and other is not None)
            with pytest.raises(ValueError, match=words):
                Trainer(small_config(epochs=3, **changed), dataset).load(tmp_path / "ckpt.pt")
        words = "is factorized, this run not factorized" if factorized else "is not factorized, this run factorized"
        with pytest.raises(ValueError, match=words):
            Trainer(small_config(epochs=3, **dict(shape, factorized=not factorized)), dataset).load(tmp_path / "ckpt.pt")
    resumed = Trainer(small_config(epochs=3, seed=99, **shape), dataset)   # weights replaced
    resumed.load(tmp_path / "ckpt.pt")
    resumed.run_epoch()
    a, b = quantize(straight.model), quantize(resumed.model)
    assert np.array_equal(a.feature_weights, b.feature_weights)
    assert np.array_equal(a.output_weights, b.output_weights) and np.array_equal(a.output_bias, b.output_bias)
    assert [r.valid_loss for r in straight.history] == [r.valid_loss for r in resumed.history]
    if king:
        assert np.array_equal(b.king_buckets, king_bucket_layout(king)) and b.inputs == 768 * king
    if mirror:      # the mirroring is on: the run differs from the unmirrored one
        plain = Trainer(small_config(epochs=1), dataset)
        plain.run_epoch()
        assert plain.history[0].train_loss != straight.history[0].train_loss


def test_resume_checks_the_king_bucket_map(records_file, tmp_path):
    """A checkpoint records its king bucket map (as a list: torch.load's weights_only
    reads it); one older than king buckets had none, and loads only into a plain run;
    another map of as many buckets is refused too."""
    needs_torch()
    from engine.tools.nnue.train.data import Dataset
    from engine.tools.nnue.train.loop import Trainer
    dataset = Dataset([str(records_file)], validation=0.1)
    Trainer(small_config(), dataset).save(tmp_path / "plain.pt")
    state = torch.load(tmp_path / "plain.pt", weights_only=True)
    assert state["config"]["king_buckets"] is None
    del state["config"]["king_buckets"]
    torch.save(state, tmp_path / "old.pt")
    Trainer(small_config(), dataset).load(tmp_path / "old.pt")
    with pytest.raises(ValueError, match="has no king buckets, this run 1 king bucket$"):
        Trainer(small_config(king_buckets=1), dataset).load(tmp_path / "old.pt")
    Trainer(small_config(king_buckets=2), dataset).save(tmp_path / "two.pt")
    assert torch.load(tmp_path / "two.pt", weights_only=True)["config"]["king_buckets"] == \
        king_bucket_layout(2).tolist()
    Trainer(small_config(king_buckets=king_bucket_layout(2)), dataset).load(tmp_path / "two.pt")
    other = king_bucket_layout(2) ^ 1       # the same two buckets, swapped
    with pytest.raises(ValueError, match=r"2 king buckets \(another map\)"):
        Trainer(small_config(king_buckets=other), dataset).load(tmp_path / "two.pt")


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
    (["--king-buckets", "3"], "--king-buckets 3 is not one of 1, 2, 4, 8, 16"),
    (["--king-buckets", "0"], "--king-buckets 0 is not one of"),
    (["--king-buckets", "32"], "--king-buckets 32 is not one of"),
    (["--factorize"], "--factorize needs king buckets"),
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


@pytest.mark.parametrize("buckets, activation, king", [(1, 1, 0), (4, 1, 0), (1, 0, 0), (2, 1, 8), (1, 1, 1)],
                         ids=["screlu", "4-buckets", "crelu", "8-king-buckets", "1-king-bucket"])
def test_dequantize_is_the_inverse_of_quantize(buckets, activation, king):
    """--init: a network file becomes the float network whose quantization it
    is, so a generation that starts from it starts from exactly its weights
    (and its king bucket map: a version 3 file stays one)."""
    needs_torch()
    from engine.tools.nnue.network_file import random_network, to_bytes
    from engine.tools.nnue.train.export import dequantize, quantize
    net = random_network(hidden=32, activation=activation, seed=5, buckets=buckets, king_buckets=king)
    back = quantize(dequantize(net))
    for name in ("feature_weights", "feature_bias", "output_weights", "output_bias"):
        assert np.array_equal(getattr(back, name), getattr(net, name)), name
    assert (back.hidden, back.activation, back.buckets) == (net.hidden, net.activation, net.buckets)
    assert to_bytes(back) == to_bytes(net)


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


def export_grown(records_file, tmp_path, source_net, *options):
    """`vireo train --init SOURCE OPTIONS --epochs 0 --export OUT` with
    source_net written to SOURCE: (the run, SOURCE, OUT)."""
    from engine.tools.nnue.network_file import write_network
    source, out = tmp_path / "source-grown.nnue", tmp_path / "grown.nnue"
    write_network(source, source_net)
    result = vireo("train", str(records_file), "--init", str(source), *options,
                   "--epochs", "0", "--quiet", "--export", str(out))
    return result, source, out


def test_init_spreads_a_one_bucket_network_into_output_buckets(records_file, tmp_path, data_fens):
    """`--init NET --output-buckets B` with a one-bucket NET starts every bucket
    from NET's output layer: the exported file evaluates exactly as NET does.
    A network that already has buckets keeps its own number."""
    needs_torch()
    from engine.tools.nnue.network_file import random_network
    source_net = random_network(hidden=32, seed=8)
    result, source, out = export_grown(records_file, tmp_path, source_net, "--output-buckets", "8")
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


def test_init_widens_a_network_into_more_neurons(records_file, tmp_path, data_fens):
    """`--init NET --hidden H2` with H2 above NET's keeps NET's neurons and adds
    new ones whose output weights are zero: the exported file evaluates
    exactly as NET does, and training then moves the new neurons too."""
    needs_torch()
    from engine.tools.nnue.network_file import random_network
    source_net = random_network(hidden=32, seed=9, buckets=2)
    result, source, out = export_grown(records_file, tmp_path, source_net, "--hidden", "48")
    assert result.returncode == 0, result.stderr
    assert "48x2 screlu network, 2 output buckets" in result.stdout
    wide = read_network(out)
    assert (wide.hidden, wide.buckets) == (48, 2)
    assert np.array_equal(wide.feature_weights[:, :32], source_net.feature_weights)
    assert np.array_equal(wide.feature_bias[:32], source_net.feature_bias)
    assert np.array_equal(wide.output_weights[:, :32], source_net.output_weights[:, :32])
    assert np.array_equal(wide.output_weights[:, 48:80], source_net.output_weights[:, 32:])
    assert not wide.output_weights[:, 32:48].any() and not wide.output_weights[:, 80:].any()
    assert wide.feature_weights[:, 32:].any()       # the new neurons have features to learn from
    boards = [chess.Board(fen) for fen in data_fens[:40]]
    assert [reference_eval(wide, b) for b in boards] == [reference_eval(source_net, b) for b in boards]
    trained = tmp_path / "trained.nnue"
    result = vireo("train", str(records_file), "--init", str(source), "--hidden", "48",
                   "--epochs", "2", "--batch-size", "256", "--lr", "0.003", "--quiet", "--export", str(trained))
    assert result.returncode == 0, result.stderr
    assert read_network(trained).output_weights[:, 32:48].any()


def vireo_here(capsys, *args):
    """`vireo ARGS` run in this process (no PyTorch import per call): (status, stdout, stderr)."""
    from engine.__main__ import main
    capsys.readouterr()
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def test_king_buckets_train_and_resume_from_the_command_line(records_file, tmp_path, data_fens, capsys):
    """`vireo train --king-buckets 4` exports a version 3 network with that map;
    its checkpoint resumes only with the same map."""
    needs_torch()
    out, checkpoint = tmp_path / "king.nnue", tmp_path / "king.pt"
    common = ("train", str(records_file), "--hidden", "16", "--batch-size", "512", "--threads", "1", "--quiet")
    status, stdout, stderr = vireo_here(capsys, *common, "--king-buckets", "4", "--epochs", "1",
                                        "--checkpoint", str(checkpoint), "--export", str(out))
    assert status == 0, stderr
    assert "16x2 screlu network, 4 king buckets (mirrored) on cpu" in stdout
    assert out.read_bytes()[8] == 3             # the version
    net = read_network(out)
    assert np.array_equal(net.king_buckets, king_bucket_layout(4)) and net.feature_weights.shape == (4 * 768, 16)
    assert len({reference_eval(net, chess.Board(fen)) for fen in data_fens[:20]}) > 1
    resume = common + ("--resume", str(checkpoint), "--epochs", "2")
    status, stdout, stderr = vireo_here(capsys, *resume, "--king-buckets", "4")
    assert status == 0, stderr
    assert "epoch 2:" in stdout and "epoch 1:" not in stdout
    status, _, stderr = vireo_here(capsys, *resume, "--king-buckets", "2")
    assert status == 2 and "has 4 king buckets, this run 2 king buckets" in stderr
    status, _, stderr = vireo_here(capsys, *resume)
    assert status == 2 and "has 4 king buckets, this run no king buckets" in stderr


def test_init_spreads_a_plain_network_into_king_buckets(records_file, tmp_path, data_fens, capsys):
    """`--init PLAIN --king-buckets K` starts every king bucket from the plain
    network's 768 feature rows (its biases and output layer as they are): the
    same evaluation wherever both kings stand on files a-d, a mirrored one
    elsewhere. A version 3 --init continues with its own map (written back byte
    for byte) and refuses another number of king buckets."""
    needs_torch()
    from engine.tools.nnue.network_file import random_network, write_network
    source_net = random_network(hidden=32, seed=9, buckets=2)
    source = tmp_path / "plain.nnue"
    write_network(source, source_net)
    out = tmp_path / "four.nnue"
    common = ("train", str(records_file), "--epochs", "0", "--quiet")
    status, stdout, stderr = vireo_here(capsys, *common, "--init", str(source), "--king-buckets", "4",
                                        "--export", str(out))
    assert status == 0, stderr
    assert "2 output buckets, 4 king buckets (mirrored)" in stdout
    grown = read_network(out)
    assert np.array_equal(grown.king_buckets, king_bucket_layout(4))
    for k in range(4):
        assert np.array_equal(grown.feature_weights[k * 768:(k + 1) * 768], source_net.feature_weights)
    for name in ("feature_bias", "output_weights", "output_bias"):
        assert np.array_equal(getattr(grown, name), getattr(source_net, name)), name
    boards = [chess.Board(fen) for fen in data_fens[:300]]
    queenside = [b for b in boards if chess.square_file(b.king(True)) < 4 and chess.square_file(b.king(False)) < 4]
    kingside = [b for b in boards if b not in queenside]
    assert len(queenside) >= 5 and len(kingside) >= 5
    assert [reference_eval(grown, b) for b in queenside] == [reference_eval(source_net, b) for b in queenside]
    assert [reference_eval(grown, b) for b in kingside] != [reference_eval(source_net, b) for b in kingside]
    again = tmp_path / "again.nnue"
    status, stdout, stderr = vireo_here(capsys, *common, "--init", str(out), "--export", str(again))
    assert status == 0, stderr
    assert "4 king buckets" in stdout and again.read_bytes() == out.read_bytes()
    clash = vireo("train", str(records_file), "--init", str(out), "--king-buckets", "8", "--quiet")
    assert clash.returncode == 2 and "--king-buckets 8, but --init" in clash.stderr and "has 4" in clash.stderr
    assert "Traceback" not in clash.stderr


def test_factorize_starts_from_the_same_network(records_file, tmp_path, capsys):
    """`--factorize` changes how the king buckets learn, not where they start:
    from a plain --init its 768 rows become the shared rows (the buckets'
    differences zero), from a version 3 --init its rows stay the buckets'
    own; either way zero epochs write the file the unfactorized run writes.
    One epoch then moves every bucket of a feature together."""
    needs_torch()
    from engine.tools.nnue.network_file import random_network, write_network
    source = tmp_path / "plain.nnue"
    write_network(source, random_network(hidden=32, seed=11, buckets=2))
    common = ("train", str(records_file), "--quiet", "--threads", "1", "--batch-size", "64")
    files = {}
    for name, extra in [("split", ("--factorize",)), ("whole", ())]:
        files[name] = tmp_path / f"{name}.nnue"
        status, stdout, stderr = vireo_here(capsys, *common, "--epochs", "0", "--init", str(source),
                                            "--king-buckets", "4", *extra, "--export", str(files[name]))
        assert status == 0, stderr
        assert ("4 king buckets (mirrored), factorized" in stdout) == bool(extra)
    assert files["split"].read_bytes() == files["whole"].read_bytes()
    again = tmp_path / "again.nnue"
    status, _, stderr = vireo_here(capsys, *common, "--epochs", "0", "--init", str(files["whole"]),
                                   "--factorize", "--export", str(again))
    assert status == 0, stderr
    assert again.read_bytes() == files["whole"].read_bytes()
    start = read_network(files["whole"])
    together = {}
    for name, extra in [("split", ("--factorize",)), ("whole", ())]:
        trained = tmp_path / f"{name}-trained.nnue"
        status, _, stderr = vireo_here(capsys, *common, "--epochs", "1", "--init", str(source),
                                       "--king-buckets", "4", *extra, "--export", str(trained))
        assert status == 0, stderr
        moved = (read_network(trained).feature_weights.astype(int) - start.feature_weights).reshape(4, 768, 32)
        changed = np.abs(moved).sum(axis=2) > 0          # [bucket, feature]
        # of the features that moved in some bucket, the share that moved in all four
        together[name] = changed.all(axis=0).sum() / changed.any(axis=0).sum()
    # factorized, the shared row carries what every position teaches; plain, a
    # bucket's rows move only for the positions whose king stands in it
    assert together["split"] > 0.9 and together["whole"] < 0.8, together      # 0.99 and 0.60
