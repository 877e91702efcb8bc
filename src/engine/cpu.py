"""Which native core runs, and how to say so.

A source build has one core, `engine._core`, compiled for this machine
(-march=native) or for any x86-64 (ENGINE_PORTABLE=1). The wheel built for
other machines (setup.py's dispatch build) carries the core four times,
`engine._core_x86_64` ... `engine._core_x86_64_v4`, one per x86-64 level,
and an `engine/_core.py` that calls load_core() when it is imported: the
best level this CPU runs is loaded under the name `engine._core`, so nothing
else knows there are four. VIREO_CPU_LEVEL forces a lower one (tests, odd
virtual machines): x86-64, x86-64-v2, x86-64-v3, x86-64-v4 (or 1..4, v1..v4).
"""
from __future__ import annotations

import importlib
import os
import warnings
from typing import MutableMapping, Optional

LEVELS = ("x86-64", "x86-64-v2", "x86-64-v3", "x86-64-v4")
ENV = "VIREO_CPU_LEVEL"
MODULES = {level: "engine._core_" + level.replace("-", "_") for level in LEVELS}


def cpu_level() -> int:
    """This CPU's x86-64 level, 1..4, or 0 when it cannot be told (engine._cpu)."""
    try:
        from . import _cpu
    except ImportError:
        return 0
    return _cpu.level()


def forced_level(text: Optional[str]) -> Optional[int]:
    """The level VIREO_CPU_LEVEL names, or None when unset; ValueError if unreadable."""
    if text is None or not text.strip():
        return None
    word = text.strip().lower()
    for number, level in enumerate(LEVELS, 1):
        if word in (level, str(number), f"v{number}") or (number == 1 and word in ("baseline", "sse2", "x86-64-v1")):
            return number
    raise ValueError(f"{ENV}={text!r}: expected one of {', '.join(LEVELS)} (or 1..4)")


def chosen_level(supported: int, forced: Optional[int]) -> int:
    """The level to load: the CPU's best, or a lower one when forced (never a
    higher one: its instructions would kill the process)."""
    best = max(supported, 1)
    if forced is None:
        return best
    if forced > best:
        warnings.warn(f"{ENV} asks for {LEVELS[forced - 1]}, but this CPU runs {LEVELS[best - 1]} at most: "
                      f"using {LEVELS[best - 1]}")
        return best
    return forced


def load_core(namespace: MutableMapping) -> None:
    """Fill namespace (the dispatching engine/_core.py's globals) with the
    names of the best core this CPU runs."""
    try:
        forced = forced_level(os.environ.get(ENV))
    except ValueError as exc:
        warnings.warn(f"{exc}; ignored")
        forced = None
    level = chosen_level(cpu_level(), forced)
    module = importlib.import_module(MODULES[LEVELS[level - 1]])
    namespace.update({name: value for name, value in vars(module).items()
                      if not (name.startswith("__") and name.endswith("__"))})
    namespace["DISPATCHED_FROM"] = module.__name__


def describe(core) -> str:
    """The path taken, as `vireo --version`, `bench` and the `uci` reply say
    it: the core's level and its widest instructions in use, e.g.
    "x86-64-v3, AVX2 (dispatched)", "x86-64-v2, POPCNT (dispatched)",
    "native, AVX-512", "portable, SSE2"."""
    if not hasattr(core, "build_info"):
        return "unknown (a core without build_info)"
    info = core.build_info()
    widest = {"avx512": "AVX-512", "avx2": "AVX2"}.get(info["simd"]) or ("POPCNT" if info["popcnt"] else "SSE2")
    how = " (dispatched)" if "DISPATCHED_FROM" in vars(core) else ""
    return f"{info['level']}, {widest}{how}"
