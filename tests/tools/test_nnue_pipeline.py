"""The whole NNUE pipeline, small: `vireo datagen` plays a few thousand
positions, `vireo train` fits a network to them and exports it, the file
reads back and evaluates like the data it learned from, the core loads it and
evaluates exactly as the reference does, a search plays with it, and a
second generation of data is generated with it (`--eval-file`)."""
import subprocess
import sys

import numpy as np
from conftest import unavailable

from engine.tools.nnue.marlinformat import RECORD_SIZE, decode
from engine import _core
from engine.tools.nnue.network_file import SCRELU, read_network, reference_eval


def vireo(*args):
    result = subprocess.run([sys.executable, "-m", "engine", *map(str, args)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout


def test_generate_train_export_read(tmp_path):
    try:
        import torch  # noqa: F401  (the train extra)
    except ImportError:
        unavailable("PyTorch is not installed (pip install -e '.[train]')")
    data, net_path = tmp_path / "selfplay.bin", tmp_path / "net.nnue"
    vireo("datagen", data, "--games", 40, "--nodes", 1000, "--seed", 1, "--quiet")
    raw = data.read_bytes()
    samples = [decode(raw[i:i + RECORD_SIZE]) for i in range(0, len(raw), RECORD_SIZE)]
    assert len(samples) >= 2000
    out = vireo("train", data, "--hidden", 32, "--epochs", 8, "--batch-size", 512, "--lr", 0.003,
                "--threads", 2, "--seed", 1, "--export", net_path, "--baseline", "--quiet")
    assert "validation loss" in out and "network written" in out
    assert "hand-written evaluation: validation loss 0." in out
    net = read_network(net_path)
    assert (net.hidden, net.activation) == (32, SCRELU)
    # the network has learnt the sign and size of the search scores it was shown
    sample = samples[::10]
    evals = np.array([reference_eval(net, s.board) * (1 if s.board.turn else -1) for s in sample])
    scores = np.array([s.score for s in sample])
    assert np.corrcoef(evals, scores)[0, 1] > 0.5

    # loaded into the core: the same integers as the reference, and a search uses it
    _core.load_network(str(net_path))
    try:
        for s in sample[:200]:
            position = _core.Position(s.board.fen())
            assert position.nnue_eval() == reference_eval(net, s.board)
        search = _core.Search()
        search.set_option("use_nnue", True)
        best, _ = search.go(_core.Position(samples[0].board.fen()), {"nodes": 3000})
        assert best in {m.uci() for m in samples[0].board.legal_moves}
    finally:
        _core.unload_network()

    # the second generation: self-play evaluated by that network
    data2, classical = tmp_path / "gen2.bin", tmp_path / "gen1-again.bin"
    vireo("datagen", data2, "--games", 4, "--nodes", 1000, "--seed", 2, "--eval-file", net_path, "--quiet")
    vireo("datagen", classical, "--games", 4, "--nodes", 1000, "--seed", 2, "--quiet")
    raw2 = data2.read_bytes()
    assert raw2 and len(raw2) % RECORD_SIZE == 0
    assert raw2 != classical.read_bytes()   # same games' seeds, another evaluation: other scores
    for i in range(0, len(raw2), RECORD_SIZE):
        assert decode(raw2[i:i + RECORD_SIZE]).board.is_valid()
