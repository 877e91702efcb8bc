"""Vireo: a UCI chess engine whose core is compiled from Cython."""

ENGINE_NAME = "Vireo"
ENGINE_AUTHOR = "the Vireo developers"
__version__ = "0.1.0"
