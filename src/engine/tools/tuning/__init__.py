"""Texel tuning of the evaluation weights (see docs/tuning.md).

Run `python -m engine.tools.tuning --help`.
"""
