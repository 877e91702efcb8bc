"""Builds the native core from src/engine/_core.pyx, and engine._cpu.

Two kinds of build:
  * for this machine (the default from a checkout: `pip install .`): one
    core, engine._core, compiled with -march=native;
  * for other machines (the default from an sdist on x86-64, so
    `python -m build` gives a wheel that runs on any x86-64): the dispatch
    build, the core compiled four times as engine._core_x86_64,
    _core_x86_64_v2, _v3 and _v4 (-march=x86-64 ... x86-64-v4), plus an
    engine/_core.py that loads the best one the CPU runs (engine/cpu.py).
Both have engine._cpu, a small C module compiled for the baseline x86-64
that asks the CPU its level.

Environment toggles:
  ENGINE_DISPATCH=1  the dispatch build from a checkout too (for a wheel or a
                     non-editable install: the dispatcher is written into the
                     build, not the source tree); =0 the one-core build from
                     an sdist too
  ENGINE_DEBUG=1     bounds checks and internal assertions on, -O1 -g
  ENGINE_ANNOTATE=1  write the cython -a HTML annotation beside the .pyx
  ENGINE_PORTABLE=1  no -march=native (one core that runs on any x86-64; the
                     NNUE code then takes its plain loops)
  ENGINE_SIMD=0      plain NNUE loops even with -march=native (the yardstick for
                     core/nnue/simd.h's AVX2/AVX-512 code: benchmarks/nnue_speed.py)
  ENGINE_SANITIZE=address,undefined | thread
                     compile and link with -fsanitize=..., -O1 -g; build such a core
                     out of tree and run it with tests/sanitize/run.sh (its header
                     says how to run Python under a sanitizer)
"""
import os
import platform
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
ENGINE = Path("src") / "engine"
DEBUG = os.environ.get("ENGINE_DEBUG") == "1"
PORTABLE = os.environ.get("ENGINE_PORTABLE") == "1"
NO_SIMD = os.environ.get("ENGINE_SIMD") == "0"
SANITIZE = os.environ.get("ENGINE_SANITIZE", "")
X86_64 = platform.machine().lower() in ("x86_64", "amd64")
# An sdist carries PKG-INFO; a checkout does not. A build from an sdist makes
# a package for whatever machine installs it, one from a checkout for this one.
FROM_SDIST = (HERE / "PKG-INFO").exists()
DISPATCH = os.environ.get("ENGINE_DISPATCH", "1" if FROM_SDIST else "0") == "1" and X86_64 \
    and not (PORTABLE or DEBUG or SANITIZE)
# The cores of the dispatch build, by their -march value (GCC 11+, clang 12+).
LEVELS = ("x86-64", "x86-64-v2", "x86-64-v3", "x86-64-v4")

directives = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": False,
    "initializedcheck": DEBUG,
    "cdivision": True,
    "nonecheck": False,
    "embedsignature": True,
}

if DEBUG:
    cflags = ["-O1", "-g", "-DENGINE_DEBUG=1"]
else:
    cflags = ["-O3", "-fno-strict-aliasing"]
ldflags = ["-lpthread"]
if SANITIZE:
    # -O1 keeps the reports readable; no -march=native, so an instrumented
    # build behaves the same on every CI machine. UBSan stops at the first
    # report: a report is a failure, never a line in a log nobody reads.
    cflags = ["-O1", "-g", "-fno-omit-frame-pointer", f"-fsanitize={SANITIZE}"]
    cflags += ["-DENGINE_DEBUG=1"] if DEBUG else []
    if "undefined" in SANITIZE:
        cflags.append("-fno-sanitize-recover=undefined")
    ldflags = ldflags + [f"-fsanitize={SANITIZE}"]
cflags += ["-Wno-unused-function", "-Wno-unreachable-code"]
if NO_SIMD:
    cflags.append("-DENGINE_NO_SIMD=1")


def core(name: str, source: str, march, level: str) -> Extension:
    return Extension(
        name,
        sources=[source],
        depends=["src/engine/core/nnue/simd.h"],
        include_dirs=[str(ENGINE)],          # core/nnue/simd.h, from the level's copy in build/ too
        # The wheel's cores without debug information: a quarter of the size.
        extra_compile_args=cflags + ([f"-march={march}"] if march else []) + (["-g0"] if DISPATCH else []),
        extra_link_args=ldflags,
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION"),
                       ("ENGINE_BUILD_LEVEL", f'"{level}"')],
    )


def level_sources(level: str) -> str:
    """_core.pyx and _core.pxd under the level's module name, in build/ (the
    includes are found through include_path): each level is its own module."""
    module = "_core_" + level.replace("-", "_")
    folder = HERE / "build" / "cpu-levels" / "engine"
    folder.mkdir(parents=True, exist_ok=True)
    for suffix in (".pyx", ".pxd"):
        target = folder / (module + suffix)
        text = (HERE / ENGINE / ("_core" + suffix)).read_text()
        if not target.exists() or target.read_text() != text:   # unchanged: Cython keeps its C
            target.write_text(text)
    return str((folder / (module + ".pyx")).relative_to(HERE))


DISPATCHER = '''"""The native core: the best of the four compiled into this package that
this CPU runs (engine/cpu.py; written by setup.py's dispatch build)."""
from .cpu import load_core as _load_core

_load_core(globals())
del _load_core
'''


class BuildPy(build_py):
    """In the dispatch build, engine/_core.py is the dispatcher."""

    def run(self):
        super().run()
        if DISPATCH:
            target = Path(self.build_lib) / "engine" / "_core.py"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(DISPATCHER)

    def get_outputs(self, include_bytecode=True):
        outputs = super().get_outputs(include_bytecode)
        if DISPATCH:
            outputs.append(str(Path(self.build_lib) / "engine" / "_core.py"))
        return outputs


class BuildExt(build_ext):
    """The four cores of the dispatch build compile side by side, a core a CPU."""

    def finalize_options(self):
        super().finalize_options()
        if self.parallel is None and DISPATCH:
            self.parallel = os.cpu_count() or 1


if DISPATCH:
    cores = [core("engine._core_" + level.replace("-", "_"), level_sources(level), level, level)
             for level in LEVELS]
elif PORTABLE or SANITIZE or DEBUG:
    cores = [core("engine._core", "src/engine/_core.pyx", None, "portable")]
else:
    cores = [core("engine._core", "src/engine/_core.pyx", "native", "native")]

cpu = Extension("engine._cpu", sources=["src/engine/_cpu.c"], extra_compile_args=["-O2"])

setup(
    ext_modules=cythonize(
        cores,
        compiler_directives=directives,
        include_path=[str(ENGINE), "build/cpu-levels"],
        annotate=os.environ.get("ENGINE_ANNOTATE") == "1",
    ) + [cpu],
    cmdclass={"build_py": BuildPy, "build_ext": BuildExt},
)
