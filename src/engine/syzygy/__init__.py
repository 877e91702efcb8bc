"""Syzygy endgame tablebases through chess.syzygy (tables.py): root move
ranking and the probes the search calls back. An integration: it uses
python-chess and knows nothing of the UCI protocol.
"""
