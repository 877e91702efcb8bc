"""Builds the one native extension, engine._core, from src/engine/_core.pyx.

Environment toggles:
  ENGINE_DEBUG=1     bounds checks and internal assertions on, -O1 -g
  ENGINE_ANNOTATE=1  write the cython -a HTML annotation beside the .pyx
  ENGINE_PORTABLE=1  no -march=native (for wheels that travel between CPUs)
"""
import os

from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("ENGINE_DEBUG") == "1"
PORTABLE = os.environ.get("ENGINE_PORTABLE") == "1"

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
cflags += ["-Wno-unused-function", "-Wno-unreachable-code"]

ext = Extension(
    "engine._core",
    sources=["src/engine/_core.pyx"],
    extra_compile_args=cflags,
    extra_link_args=["-lpthread"],
    define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
)

setup(
    ext_modules=cythonize(
        [ext],
        compiler_directives=directives,
        annotate=os.environ.get("ENGINE_ANNOTATE") == "1",
    ),
)
