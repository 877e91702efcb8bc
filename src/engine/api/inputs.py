"""What the public API is given, checked and turned into what the UCI layer
uses: a python-chess Limit into a GoCommand, a board (with its move stack) or
a FEN into a GameState.

Both conversions follow python-chess's own UCI client (chess.engine), so an
in-process call searches exactly what `vireo` would be sent over UCI:
`go` is written as python-chess writes it and read by the UCI layer's own
parser, and a board is sent as its root position plus its moves (or as the
position alone when its history holds a null move).
"""
from __future__ import annotations

import math
from numbers import Real
from typing import Optional, Sequence, Union

import chess
import chess.engine

from ..uci.go import GameState, push_move
from ..uci.parse import GoCommand, parse_go

Item = Union[chess.Board, str]

# Limit fields python-chess sends, with the least value each may have.
_WHOLE = {"depth": 1, "nodes": 1, "mate": 1, "remaining_moves": 0}
_SECONDS = ("time", "white_clock", "black_clock", "white_inc", "black_inc")


def go_command(limit: chess.engine.Limit, root_moves: Optional[Sequence[chess.Move]] = None) -> GoCommand:
    """The `go` python-chess would send for this limit, as the UCI layer reads it.
    ValueError names a field that is not a number, is negative or not whole."""
    if not isinstance(limit, chess.engine.Limit):
        raise ValueError(f"limit must be a chess.engine.Limit, not {type(limit).__name__}")
    for name in _SECONDS + tuple(_WHOLE):
        value = getattr(limit, name)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, Real) or not math.isfinite(value):
            raise ValueError(f"limit {name} must be a finite number, not {value!r}")
        if name in _WHOLE and (value != int(value) or value < _WHOLE[name]):
            raise ValueError(f"limit {name} must be a whole number >= {_WHOLE[name]}, not {value!r}")
        if name in _SECONDS and value < 0:
            raise ValueError(f"limit {name} must be >= 0 seconds, not {value!r}")
    if all(getattr(limit, name) is None for name in ("time", "depth", "nodes", "mate", "white_clock",
                                                    "black_clock")):
        raise ValueError("limit sets no bound: give time, depth, nodes, mate or a clock")
    words = []
    for name, word in (("white_clock", "wtime"), ("black_clock", "btime")):
        if getattr(limit, name) is not None:
            words += [word, str(max(1, round(getattr(limit, name) * 1000)))]
    for name, word in (("white_inc", "winc"), ("black_inc", "binc")):
        if getattr(limit, name) is not None:
            words += [word, str(round(getattr(limit, name) * 1000))]
    if limit.remaining_moves is not None and int(limit.remaining_moves) > 0:
        words += ["movestogo", str(int(limit.remaining_moves))]
    for name in ("depth", "nodes", "mate"):
        if getattr(limit, name) is not None:
            words += [name, str(int(getattr(limit, name)))]
    if limit.time is not None:
        words += ["movetime", str(max(1, round(limit.time * 1000)))]
    if root_moves is not None:
        words += ["searchmoves"] + ([move.uci() for move in root_moves] or ["0000"])
    return parse_go(words)


def check_board(board: object) -> chess.Board:
    if not isinstance(board, chess.Board):
        raise ValueError(f"expected a chess.Board, not {type(board).__name__}")
    if type(board).uci_variant != "chess":
        raise ValueError(f"Vireo plays standard chess and Chess960, not {type(board).uci_variant}")
    return board


def game_state(core, board: chess.Board) -> GameState:
    """The core's Position for a board, its move stack pushed (what `position
    fen ... moves ...` gives over UCI); ValueError for a position or a move
    the core refuses."""
    chess960 = board.chess960
    safe_history = all(board.move_stack)      # python-chess sends no history with a null move in it
    root = board.root() if safe_history else board
    fen = root.fen(shredder=chess960, en_passant="fen")
    moves = [move.uci() for move in board.move_stack] if safe_history else []
    try:
        position = core.Position(fen, chess960)
    except ValueError as exc:
        raise ValueError(f"invalid position {fen!r}: {exc}") from None
    for number, move in enumerate(moves, 1):
        if not push_move(position, move):
            raise ValueError(f"move {number} of the board's move stack, {move}, is illegal "
                             f"in {position.fen()}")
    root_fen = None if fen == chess.STARTING_FEN and not chess960 else fen
    return GameState(position, root_fen, moves)


def fen_state(core, fen: str, chess960: bool) -> GameState:
    try:
        position = core.Position(fen, chess960)
    except ValueError as exc:
        raise ValueError(f"invalid FEN {fen!r}: {exc}") from None
    return GameState(position, fen, [])


def item_state(core, item: object, chess960: bool) -> GameState:
    """A board or a FEN (the UCI_Chess960 option decides how a FEN is read)."""
    if isinstance(item, str):
        return fen_state(core, item, chess960)
    return game_state(core, check_board(item))
