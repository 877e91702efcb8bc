"""Vireo: a UCI chess engine whose core is compiled from Cython.

`from engine.api import Engine` gives the engine in-process, in python-chess's
types (docs/python-api.md).
"""

ENGINE_NAME = "Vireo"
ENGINE_AUTHOR = "the Vireo developers"
__version__ = "0.1.0"
