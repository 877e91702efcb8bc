"""Polyglot opening books through chess.polyglot: probing (probe.py) and
building (build.py). An integration: it uses python-chess and knows nothing
of the UCI protocol.
"""
