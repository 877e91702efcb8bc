"""`vireo train` reads kept game files (.games.xz) as they are, several at
once and mixed with Marlinformat files: it trains on exactly the positions
the Marlinformat path would have written, so the network is the same."""
import subprocess
import sys

import numpy as np
import pytest
from conftest import unavailable

from engine.tools.nnue.datagen.game import GameSettings
from engine.tools.nnue.datagen.run import RunConfig, run
from engine.tools.nnue.marlinformat import DTYPE

TINY = ["--hidden", "32", "--epochs", "2", "--batch-size", "256", "--lr", "3e-3", "--seed", "1",
        "--threads", "1", "--validation", "0.1", "--quiet"]


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("kept")
    for seed in (1, 2):
        for suffix in (".games.xz", ".bin"):
            run(RunConfig(games=3, seed=seed, game=GameSettings(nodes=400)), folder / f"s{seed}{suffix}",
                progress=False)
    return folder


def train(folder, names, export, cache):
    result = subprocess.run([sys.executable, "-m", "engine", "train", *[str(folder / n) for n in names],
                             "--export", str(export), *TINY], capture_output=True, text=True,
                            env={**__import__("os").environ, "VIREO_CACHE": str(cache)})
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout


def test_the_dataset_of_kept_files_is_the_marlinformat_one(files, tmp_path, monkeypatch):
    monkeypatch.setenv("VIREO_CACHE", str(tmp_path / "cache"))
    from engine.tools.nnue.train.data import Dataset
    kept = Dataset([str(files / "s1.games.xz"), str(files / "s2.games.xz")], validation=0.1)
    records = Dataset([str(files / "s1.bin"), str(files / "s2.bin")], validation=0.1)
    assert len(kept.train) > 100
    assert np.array_equal(kept.train, records.train) and np.array_equal(kept.valid, records.valid)
    assert kept.gather(kept.train).tobytes() == records.gather(records.train).tobytes()
    assert all(f.dtype == DTYPE for f in kept.files)


def test_training_on_kept_files_gives_the_same_network(files, tmp_path):
    try:
        import torch  # noqa: F401  (the train extra)
    except ImportError:
        unavailable("PyTorch is not installed (pip install -e '.[train]')")
    cache = tmp_path / "cache"
    mixed = train(files, ["s1.games.xz", "s2.bin"], tmp_path / "mixed.nnue", cache)
    records = train(files, ["s1.bin", "s2.bin"], tmp_path / "records.nnue", cache)
    assert mixed.splitlines()[0] == records.splitlines()[0]      # the position counts
    assert (tmp_path / "mixed.nnue").read_bytes() == (tmp_path / "records.nnue").read_bytes()
    assert len(list((cache / "expanded").iterdir())) == 1        # the kept file, expanded once


def test_a_damaged_kept_file_is_refused(files, tmp_path):
    bad = tmp_path / "bad.games.xz"
    bad.write_bytes((files / "s1.games.xz").read_bytes()[:-20])
    result = subprocess.run([sys.executable, "-m", "engine", "train", str(bad), *TINY],
                            capture_output=True, text=True,
                            env={**__import__("os").environ, "VIREO_CACHE": str(tmp_path / "cache")})
    assert result.returncode == 2 and "bad.games.xz" in result.stderr and "Traceback" not in result.stderr
