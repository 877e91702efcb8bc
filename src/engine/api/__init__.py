"""Vireo from Python: the engine in this process, in python-chess's types.

    import chess, chess.engine
    from engine.api import Engine

    with Engine(Hash=64) as engine:
        info = engine.analyse(chess.Board(), chess.engine.Limit(depth=12))

Engine.analyse, play and evaluate answer as chess.engine.SimpleEngine does
over UCI; evaluate_many and analyse_many work through many positions at
native speed. docs/python-api.md is the guide.
"""
from .engine import Engine

__all__ = ["Engine"]
