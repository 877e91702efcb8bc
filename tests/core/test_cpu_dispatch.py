"""engine.cpu: the CPU's x86-64 level, the core chosen for it, and how the
path taken is named. (The dispatched wheel itself, with its four cores, is
built and run in tests/packaging/test_wheel.py.)"""
import platform

import pytest

from engine import _core, cpu


def cpu_flags():
    with open("/proc/cpuinfo") as handle:
        for line in handle:
            if line.startswith("flags"):
                return set(line.split(":", 1)[1].split())
    return set()


@pytest.mark.skipif(platform.machine() != "x86_64", reason="x86-64 levels")
def test_the_cpu_level_agrees_with_the_kernel_s_flags():
    flags = cpu_flags()
    v2 = {"popcnt", "sse4_2", "ssse3"} <= flags
    v3 = v2 and {"avx", "avx2", "bmi1", "bmi2", "fma"} <= flags
    v4 = v3 and {"avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"} <= flags
    assert cpu.cpu_level() == (4 if v4 else 3 if v3 else 2 if v2 else 1)


@pytest.mark.parametrize("text, level", [
    ("x86-64", 1), ("baseline", 1), ("v1", 1), ("x86-64-v2", 2), ("2", 2), ("V3", 3),
    (" x86-64-v4 ", 4), (None, None), ("", None),
])
def test_the_forcing_variable_is_read(text, level):
    assert cpu.forced_level(text) == level


def test_a_bad_forcing_value_is_named():
    with pytest.raises(ValueError, match="VIREO_CPU_LEVEL='avx9'"):
        cpu.forced_level("avx9")


def test_forcing_goes_down_never_up():
    assert cpu.chosen_level(4, None) == 4
    assert cpu.chosen_level(4, 2) == 2
    with pytest.warns(UserWarning, match="runs x86-64-v2 at most"):
        assert cpu.chosen_level(2, 4) == 2
    assert cpu.chosen_level(0, None) == 1      # unknown: the baseline, which every x86-64 runs


def test_load_core_fills_the_dispatcher_with_the_chosen_core(monkeypatch):
    monkeypatch.setattr(cpu, "MODULES", {level: "engine._core" for level in cpu.LEVELS})
    monkeypatch.setenv(cpu.ENV, "x86-64-v2")
    namespace = {}
    cpu.load_core(namespace)
    assert namespace["Position"] is _core.Position and namespace["_see"] is _core._see
    assert namespace["DISPATCHED_FROM"] == "engine._core" and "__name__" not in namespace


@pytest.mark.parametrize("info, text", [
    ({"level": "x86-64-v4", "simd": "avx512", "popcnt": True, "bmi2": True}, "x86-64-v4, AVX-512"),
    ({"level": "x86-64-v3", "simd": "avx2", "popcnt": True, "bmi2": True}, "x86-64-v3, AVX2"),
    ({"level": "x86-64-v2", "simd": "plain", "popcnt": True, "bmi2": False}, "x86-64-v2, POPCNT"),
    ({"level": "x86-64", "simd": "plain", "popcnt": False, "bmi2": False}, "x86-64, SSE2"),
])
def test_the_path_is_named_by_level_and_widest_instructions(info, text):
    class Core:
        @staticmethod
        def build_info():
            return info
    assert cpu.describe(Core) == text


def test_this_build_names_itself():
    info = _core.build_info()
    assert info["level"] in ("native", "portable") + cpu.LEVELS
    assert cpu.describe(_core).startswith(info["level"])
