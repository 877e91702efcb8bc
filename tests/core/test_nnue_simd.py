"""The NNUE code paths (core/nnue/simd.h against the plain loops): which one
runs, switching between them, and the kernel timer the speed benchmark uses.
That both paths equal the reference is shown by the inference and
incremental tests, which run once per path (nnue_nets.nnue_code)."""
import os
import random

import chess
import pytest

from engine import _core
from engine._core import Position, nnue_kernel_speed, set_nnue_simd, simd_path
from engine.tools.nnue import network_file as nf
from nnue_nets import COMPILED_PATH, custom_network, load, no_network  # noqa: F401


def cpu_flags():
    try:
        with open("/proc/cpuinfo") as handle:
            for line in handle:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def test_a_native_build_on_an_avx2_machine_uses_simd():
    """Guards the header's #if: a native build must not fall back to the
    plain loops unseen (every other test would still pass); a core of the
    dispatched wheel takes its level's path."""
    flags, level = cpu_flags(), _core.build_info()["level"]
    if os.environ.get("ENGINE_SIMD") == "0" or level == "portable":
        expected = "plain"
    elif level == "native":
        expected = "avx512" if "avx512bw" in flags else "avx2" if "avx2" in flags else "plain"
    else:
        expected = {"x86-64-v4": "avx512", "x86-64-v3": "avx2"}.get(level, "plain")
    assert COMPILED_PATH == expected, (level, COMPILED_PATH, sorted(f for f in flags if f.startswith("avx")))


def test_switching_paths():
    try:
        assert set_nnue_simd(False) == simd_path() == "plain"
        if COMPILED_PATH == "plain":
            with pytest.raises(ValueError, match="compiled without SIMD"):
                set_nnue_simd(True)
        else:
            assert set_nnue_simd(True) == simd_path() == COMPILED_PATH
    finally:
        set_nnue_simd(COMPILED_PATH != "plain")


def positions(count, seed):
    rng, board, out = random.Random(seed), chess.Board(), []
    while len(out) < count:
        moves = list(board.legal_moves)
        if not moves or board.ply() > 100:
            board = chess.Board()
            continue
        board.push(rng.choice(moves))
        out.append(Position(board.fen()))
    return out


@pytest.mark.parametrize("hidden", [16, 48, 256])
def test_kernel_timer_counts_and_agrees_across_paths(tmp_path, no_network, hidden):
    """The timer does what it says (a refresh a round and position, an update
    and an output per legal move), and its checksum of the outputs is the
    same on both paths: they compute the same evaluations."""
    load(tmp_path, custom_network(hidden, nf.SCRELU, 30 + hidden))
    sample = positions(12, seed=hidden)
    moves = sum(len(list(chess.Board(p.fen()).legal_moves)) for p in sample)
    fens = [p.fen() for p in sample]
    results = {}
    try:
        for on in ([False, True] if COMPILED_PATH != "plain" else [False]):
            set_nnue_simd(on)
            r = nnue_kernel_speed(sample, 3)
            assert (r["refreshes"], r["updates"], r["outputs"]) == (3 * 12, 3 * moves, 3 * moves)
            assert r["hidden"] == hidden and min(r["refresh_ns"], r["update_ns"], r["output_ns"]) > 0
            results[r["simd"]] = r["checksum"]
    finally:
        set_nnue_simd(COMPILED_PATH != "plain")
    assert len(set(results.values())) == 1, results
    assert [p.fen() for p in sample] == fens      # the positions are not changed


def test_kernel_timer_refuses_bad_calls(tmp_path, no_network):
    with pytest.raises(ValueError, match="no network"):
        nnue_kernel_speed([Position()], 1)
    load(tmp_path, nf.random_network(16, nf.SCRELU, seed=3))
    with pytest.raises(ValueError, match="rounds"):
        nnue_kernel_speed([Position()], 0)
    with pytest.raises(TypeError):
        nnue_kernel_speed(["not a position"], 1)
    assert _core.network_info()["hidden"] == 16
