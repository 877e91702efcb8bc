"""Builds the one native extension, engine._core, from src/engine/_core.pyx.

Environment toggles:
  ENGINE_DEBUG=1     bounds checks and internal assertions on, -O1 -g
  ENGINE_ANNOTATE=1  write the cython -a HTML annotation beside the .pyx
  ENGINE_PORTABLE=1  no -march=native (for wheels that travel between CPUs); the
                     NNUE code then takes its plain loops
  ENGINE_SIMD=0      plain NNUE loops even with -march=native (the yardstick for
                     core/nnue/simd.h's AVX2/AVX-512 code: benchmarks/nnue_speed.py)
  ENGINE_SANITIZE=address,undefined | thread
                     compile and link with -fsanitize=..., -O1 -g; build such a core
                     out of tree and run it with tests/sanitize/run.sh (its header
                     says how to run Python under a sanitizer)
"""
import os

from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("ENGINE_DEBUG") == "1"
PORTABLE = os.environ.get("ENGINE_PORTABLE") == "1"
NO_SIMD = os.environ.get("ENGINE_SIMD") == "0"
SANITIZE = os.environ.get("ENGINE_SANITIZE", "")

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
    if not PORTABLE:
        cflags.append("-march=native")
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

ext = Extension(
    "engine._core",
    sources=["src/engine/_core.pyx"],
    depends=["src/engine/core/nnue/simd.h"],
    extra_compile_args=cflags,
    extra_link_args=ldflags,
    define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
)

setup(
    ext_modules=cythonize(
        [ext],
        compiler_directives=directives,
        annotate=os.environ.get("ENGINE_ANNOTATE") == "1",
    ),
)
