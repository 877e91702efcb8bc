"""Networks for the NNUE tests, written with the trainer's file module
(engine.tools.nnue.network_file), the definition the core must match."""
import numpy as np
import pytest

from engine import _core
from engine.tools.nnue import network_file as nf


def custom_network(hidden, activation, seed, *, weight=40, out=127, qa=255, qb=64, scale=400, bias=(-60, 200),
                   buckets=1):
    """random_network with chosen magnitudes: large weights wrap the int16
    accumulators, large output weights force the core's int64 sums."""
    rng = np.random.default_rng(seed)
    return nf.Network(
        hidden=hidden, activation=activation, qa=qa, qb=qb, scale=scale,
        feature_weights=rng.integers(-weight, weight + 1, size=(nf.INPUTS, hidden)).astype(np.int16),
        feature_bias=rng.integers(bias[0], bias[1], size=hidden).astype(np.int16),
        output_weights=rng.integers(-out, out + 1, size=(buckets, 2 * hidden)).astype(np.int16),
        output_bias=rng.integers(-3000, 3000, size=buckets).astype(np.int32),
    )


def output_sum_bound(net):
    """The core's worst case of the output sum (in the worst bucket): int32
    lanes are used below 2^31."""
    clip = min(net.qa, 32767)
    per = clip * clip if net.activation == nf.SCRELU else clip
    return per * int(np.abs(net.output_weights.astype(np.int64)).sum(axis=1).max())


def load(tmp_path, net, name="net.nnue"):
    path = tmp_path / name
    nf.write_network(path, net)
    return _core.load_network(str(path))


@pytest.fixture
def no_network():
    """Each test starts and ends without a loaded network (it is core-global)."""
    _core.unload_network()
    yield
    _core.unload_network()


# The NNUE code paths this core has: the plain loops always, and the SIMD
# code (core/nnue/simd.h) when it was compiled in (-march=native on an AVX2
# or AVX-512 machine, as in CI). Both must equal the reference exactly.
COMPILED_PATH = _core.simd_path()
CODE_PATHS = ["plain"] + ([COMPILED_PATH] if COMPILED_PATH != "plain" else [])


@pytest.fixture(params=CODE_PATHS)
def nnue_code(request):
    """Run the test once per NNUE code path; the compiled default comes back after."""
    _core.set_nnue_simd(request.param != "plain")
    assert _core.simd_path() == request.param
    yield request.param
    _core.set_nnue_simd(COMPILED_PATH != "plain")
